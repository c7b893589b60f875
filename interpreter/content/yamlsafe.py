"""Safe, line-mapped YAML: plain data plus a map from JSON path to file position, hostile input refused.

We build the data straight from the parser's event stream (libyaml when available) with an explicit
stack, so nothing recursive can blow up, no constructor ever runs, and every value keeps its mark.
Scalars resolve as the YAML 1.2 core schema does: only true/false (and null/~) are special words, so
`on`, `yes`, `no`, `off`, `y`, `n`, `1:30` and dates stay strings instead of silently changing meaning.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

import yaml

from kcd.core.diagnostics import Diagnostic, Location

_EventParser: type | None
try:  # libyaml's event parser is several times faster; the pure-Python one behaves the same
    from yaml._yaml import CParser as _EventParser
except ImportError:  # pragma: no cover - depends on the PyYAML build
    _EventParser = None

MAX_BYTES = 1_000_000
MAX_DEPTH = 32
MAX_ALIASES = 64          # alias uses per file; content rarely needs any
MAX_NODES = 200_000       # values after alias expansion (billion laughs stops here)

Path = tuple[Any, ...]

_STD = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null", "map", "seq")} | {"!"}

# YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution)
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")


@dataclass(frozen=True)
class Pos:
    """Where a value sits: 1-based start line/col, end line/col (exclusive) and its scalar style."""

    line: int
    col: int
    end_line: int
    end_col: int
    style: str | None = None  # None plain, "'" or '"' quoted, "|" or ">" block, "map"/"seq" for collections


class YamlError(Exception):
    """Internal: stop building and report this diagnostic."""

    def __init__(self, code: str, message: str, line: int, col: int, hint: str | None = None,
                 end_col: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.line, self.col, self.hint = code, message, line, col, hint
        self.end_col = end_col


@dataclass
class YamlDoc:
    """One parsed file: its data, text and where every value (and every mapping key) is."""

    file: str
    text: str
    data: Any
    locs: dict[Path, Pos] = field(default_factory=dict)
    keys: dict[Path, Pos] = field(default_factory=dict)
    _lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        """The file's lines (without line ends)."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def source_line(self, line: int) -> str | None:
        """The text of 1-based line `line`, or None past the end."""
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1]
        return None

    def pos(self, path: Path) -> Pos | None:
        """Position of the value at `path`, or of its nearest located ancestor."""
        path = tuple(path)
        while True:
            found = _lookup(self.locs, path)
            if found is not None:
                return found
            if not path:
                return None
            path = path[:-1]

    def key_pos(self, path: Path) -> Pos | None:
        """Position of the mapping key holding the value at `path` (else the value's position)."""
        found = _lookup(self.keys, tuple(path))
        return found if found is not None else self.pos(path)

    def location(self, path: Path, *, key: bool = False) -> Location:
        """A Location for the value (or its key) at `path`; a single-line span is underlined whole."""
        pos = self.key_pos(path) if key else self.pos(path)
        if pos is None:
            return Location(self.file, 1, 1)
        end = pos.end_col if pos.end_line == pos.line and pos.end_col > pos.col else None
        if pos.style in ("map", "seq") or pos.style in ("|", ">"):
            end = None
        return Location(self.file, pos.line, pos.col, end)

    def diagnostic(self, code: str, message: str, path: Path, *, key: bool = False,
                   hint: str | None = None, severity: str = "error") -> Diagnostic:
        """A Diagnostic located at the value (or key) at `path`."""
        loc = self.location(path, key=key)
        return Diagnostic(code, message, loc, self.source_line(loc.line), hint, severity)

    def span_location(self, path: Path, start: int, end: int) -> Location:
        """Map a character span of the scalar at `path` (as loaded) to a file location."""
        pos = _lookup(self.locs, tuple(path))
        value = self.value_at(path)
        if pos is None or not isinstance(value, str):
            return self.location(path)
        segments = self._segments(pos, value)
        line, col, seg_start, seg_len = segments[0]
        for seg in segments:
            if seg[2] <= start:
                line, col, seg_start, seg_len = seg
        c = col + (start - seg_start)
        stop = min(max(end, start + 1), seg_start + max(seg_len, 1))
        return Location(self.file, line, c, max(col + (stop - seg_start), c + 1))

    def value_at(self, path: Path) -> Any:
        """The loaded value at `path` (None when absent)."""
        node: Any = self.data
        for part in path:
            if isinstance(node, dict):
                if part in node:
                    node = node[part]
                elif isinstance(part, str) and part.lstrip("-").isdigit() and int(part) in node:
                    node = node[int(part)]
                else:
                    return None
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                return None
        return node

    def _segments(self, pos: Pos, value: str) -> list[tuple[int, int, int, int]]:
        """(line, col, offset in value, length) for each source line the scalar spans."""
        quoted = pos.style in ("'", '"')
        if pos.line == pos.end_line and pos.style not in ("|", ">"):
            return [(pos.line, pos.col + (1 if quoted else 0), 0, len(value))]
        segs: list[tuple[int, int, int, int]] = []
        first = pos.line + 1 if pos.style in ("|", ">") else pos.line
        cursor = 0
        for ln in range(first, pos.end_line + 1):
            text = self.source_line(ln)
            if text is None:
                break
            if ln == pos.line:  # a multi-line plain or quoted scalar starts mid-line
                text_from = pos.col - 1 + (1 if quoted else 0)
            else:
                text_from = len(text) - len(text.lstrip())
            content = text[text_from:].rstrip()
            if quoted:
                content = content.rstrip("'\"")
            if not content:
                continue
            found = value.find(content, cursor)
            if found < 0:
                continue
            segs.append((ln, text_from + 1, found, len(content)))
            cursor = found + len(content)
        return segs or [(pos.line, pos.col, 0, len(value))]


def _lookup(table: dict[Path, Pos], path: Path) -> Pos | None:
    """Find `path`, allowing string path parts for integer mapping keys (jsonschema paths)."""
    found = table.get(path)
    if found is not None or not path:
        return found
    if any(isinstance(p, str) and p.lstrip("-").isdigit() for p in path):
        alt = tuple(int(p) if isinstance(p, str) and p.lstrip("-").isdigit() else p for p in path)
        return table.get(alt)
    return None


def _resolve(value: str) -> Any:
    """Implicit type of a plain scalar under the YAML 1.2 core schema."""
    if _NULL.match(value):
        return None
    if _BOOL.match(value):
        return value[0] in "tT"
    if _INT10.match(value):
        return int(value)
    if _INT8.match(value):
        return int(value[2:], 8)
    if _INT16.match(value):
        return int(value[2:], 16)
    if _FLOAT.match(value):
        return float(value)
    if _INF.match(value):
        return float("-inf") if value.startswith("-") else float("inf")
    if _NAN.match(value):
        return float("nan")
    return value


def _explicit(tag: str, value: str, line: int, col: int) -> Any:
    """A scalar with an explicit standard tag (`!!str 12`, `!!int "3"`)."""
    kind = tag[len(_STD):] if tag.startswith(_STD) else "str"
    if kind == "str":
        return value
    resolved = _resolve(value)
    ok = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "bool": lambda v: isinstance(v, bool), "null": lambda v: v is None}
    if kind in ok and ok[kind](resolved):
        return float(resolved) if kind == "float" else resolved
    raise YamlError("yaml-syntax", f"`{value}` is not a valid !!{kind}", line, col)


def _size(value: Any) -> int:
    """Number of values in a subtree (for the alias expansion budget)."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


class _Frame:
    """A mapping or sequence being built."""

    __slots__ = ("container", "path", "anchor", "key", "key_pos", "start")

    def __init__(self, container: Any, path: Path, anchor: str | None, start: tuple[int, int]) -> None:
        self.container = container
        self.path = path
        self.anchor = anchor
        self.key: Any = _NOKEY
        self.key_pos: Pos | None = None
        self.start = start


_NOKEY = object()


def _events(text: str) -> Iterator[Any]:
    """The parser's event stream for `text`."""
    if _EventParser is not None:
        parser = _EventParser(text)
        while True:
            event = parser.get_event()
            yield event
            if isinstance(event, yaml.StreamEndEvent):
                return
    else:  # pragma: no cover
        yield from yaml.parse(text, Loader=yaml.SafeLoader)


def _mark(mark: Any) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


# PyYAML's wording of the slips authors make most, and what to do about each.
_SYNTAX_HINTS: tuple[tuple[str, str], ...] = (
    ("tab", "YAML indents with spaces only: replace the tab with spaces"),
    ("expected '-' indicator", "check this line's indentation: it must line up with the entries above it"),
    ("did not find expected key", "check this line's indentation: it must line up with the fields above it"),
    ("expected <block end>", "check this line's indentation: it must line up with the fields above it"),
    ("mapping values are not allowed", "a value containing `: ` must be quoted, or this line is indented "
                                       "too far"),
    ("quoted scalar", "a quoted value is not closed: add the closing quote"),
    ("flow sequence", "a `[...]` list is not closed or has a stray character: check its brackets and commas"),
    ("flow mapping", "a `{...}` mapping is not closed or has a stray character: check its braces and commas"),
    ("cannot start any token", "quote the value: `@` and a backtick cannot start a plain YAML value"),
)


def _open_quote_hint(lines: list[str], line: int) -> str | None:
    """An unclosed `"` a few lines above makes PyYAML complain later, about something else: point at it."""
    for number in range(line, max(line - 6, 0), -1):
        text = lines[number - 1] if number <= len(lines) else ""
        if text.replace('\\"', "").count('"') % 2 == 1:
            return f"line {number} has an unclosed `\"`: add the closing quote"
    return None


def _syntax_hint(message: str) -> str | None:
    """What to do about a PyYAML syntax problem, when it is one of the common ones."""
    for needle, hint in _SYNTAX_HINTS:
        if needle in message:
            return hint
    return None


def parse_yaml(file: str, text: str) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """Parse one YAML file safely; returns the document (None on error) and its diagnostics."""
    lines = text.splitlines()

    def diag(code: str, message: str, line: int, col: int, hint: str | None = None,
             end_col: int | None = None) -> Diagnostic:
        """A diagnostic at a 1-based line/col of this file."""
        src = lines[line - 1] if 1 <= line <= len(lines) else None
        return Diagnostic(code, message, Location(file, line, col, end_col), src, hint)

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return None, [diag("yaml-unsafe", f"file is larger than {MAX_BYTES // 1_000_000} MB", 1, 1,
                           "split the content into smaller files")]
    doc = YamlDoc(file, text, None, _lines=lines)
    try:
        doc.data = _build(doc, text)
    except YamlError as err:
        return None, [diag(err.code, err.message, err.line, err.col, err.hint, err.end_col)]
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = _mark(mark) if mark is not None else (1, 1)
        message = err.problem or err.context or "invalid YAML"
        if err.context and err.problem:
            message = f"{err.problem} ({err.context})"
        hint = _open_quote_hint(lines, line) or _syntax_hint(message)
        if "flow" in message and err.context_mark is not None and err.context_mark.line + 1 != line:
            opened = "[" if "sequence" in message else "{"
            closing = "]" if opened == "[" else "}"
            hint = (f"the `{opened}` on line {err.context_mark.line + 1} is not closed: add `{closing}`, "
                    "or quote the value if the bracket is meant as text")
        return None, [diag("yaml-syntax", message, line, col, hint)]
    except yaml.YAMLError as err:
        return None, [diag("yaml-syntax", str(err).splitlines()[0] if str(err) else "invalid YAML", 1, 1)]
    return doc, []


def _build(doc: YamlDoc, text: str) -> Any:
    """Turn the event stream into plain data, filling doc.locs and doc.keys."""
    stack: list[_Frame] = []
    anchors: dict[str, Any] = {}
    aliases = 0
    nodes = 0
    root: Any = None
    documents = 0
    locs, keys = doc.locs, doc.keys

    def attach(value: Any, pos: Pos, line: int, col: int) -> Path | None:
        """Put a finished value into its parent; returns its path (None when it was a mapping key)."""
        nonlocal root
        if not stack:
            root = value
            locs[()] = pos
            return ()
        top = stack[-1]
        if isinstance(top.container, list):
            path = top.path + (len(top.container),)
            top.container.append(value)
            locs[path] = pos
            return path
        if top.key is _NOKEY:
            if isinstance(value, (dict, list)):
                raise YamlError("yaml-syntax", "a mapping key must be a plain value, not a mapping or list",
                                line, col)
            if value in top.container:
                first = keys.get(top.path + (value,))
                where = f" (first at line {first.line})" if first else ""
                raise YamlError("yaml-duplicate-key", f"duplicate key `{value}`{where}", line, col,
                                "each key may appear only once in a mapping",
                                pos.end_col if pos.end_line == line else None)
            top.key, top.key_pos = value, pos
            return None
        path = top.path + (top.key,)
        top.container[top.key] = value
        locs[path] = pos
        if top.key_pos is not None:
            keys[path] = top.key_pos
        top.key, top.key_pos = _NOKEY, None
        return path

    def child_path() -> Path:
        """The path the next value will get."""
        if not stack:
            return ()
        top = stack[-1]
        if isinstance(top.container, list):
            return top.path + (len(top.container),)
        if top.key is _NOKEY:
            return top.path + ("<key>",)
        return top.path + (top.key,)

    for event in _events(text):
        line, col = _mark(event.start_mark)
        if isinstance(event, yaml.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise YamlError("yaml-syntax", "a content file holds one YAML document; found a second `---`",
                                line, col)
            continue
        if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            nodes += 1
            if nodes > MAX_NODES:
                raise YamlError("yaml-unsafe", f"more than {MAX_NODES} values", line, col)
            tag = event.tag
            if tag is not None and tag not in _ALLOWED_TAGS:
                shown = "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag
                raise YamlError("yaml-unsafe", f"tag `{shown}` is not allowed", line, col,
                                "content YAML uses plain values only; remove the tag")
        if isinstance(event, yaml.ScalarEvent):
            end_line, end_col = _mark(event.end_mark)
            style = event.style or None
            if event.tag not in (None, "!"):
                value = _explicit(event.tag, event.value, line, col)
            elif style is None and event.implicit[0]:
                try:
                    value = _resolve(event.value)
                except ValueError:
                    raise YamlError("yaml-unsafe", "number too long", line, col) from None
            else:
                value = event.value
            pos = Pos(line, col, end_line, end_col, style)
            attach(value, pos, line, col)
            if event.anchor:
                anchors[event.anchor] = value
        elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if len(stack) >= MAX_DEPTH:
                raise YamlError("yaml-unsafe", f"nesting deeper than {MAX_DEPTH} levels", line, col,
                                "flatten the structure")
            container: Any = {} if isinstance(event, yaml.MappingStartEvent) else []
            stack.append(_Frame(container, child_path(), event.anchor, (line, col)))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            frame = stack.pop()
            end_line, end_col = _mark(event.end_mark)
            style = "map" if isinstance(frame.container, dict) else "seq"
            pos = Pos(frame.start[0], frame.start[1], end_line, end_col, style)
            attach(frame.container, pos, frame.start[0], frame.start[1])
            if frame.anchor:
                anchors[frame.anchor] = frame.container
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise YamlError("yaml-unsafe", f"more than {MAX_ALIASES} aliases", line, col,
                                "write the values out instead of using anchors and aliases")
            if event.anchor not in anchors:
                raise YamlError("yaml-syntax", f"unknown alias `*{event.anchor}`", line, col)
            target = anchors[event.anchor]
            size = _size(target)
            nodes += size
            if nodes > MAX_NODES:
                raise YamlError("yaml-unsafe", f"aliases expand to more than {MAX_NODES} values", line, col,
                                "write the values out instead of using anchors and aliases")
            end_line, end_col = _mark(event.end_mark)
            attach(copy.deepcopy(target), Pos(line, col, end_line, end_col, None), line, col)
    return root
