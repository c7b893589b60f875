"""Round-trip YAML (ruamel): edit one field of a content file and keep comments, key order and quoting."""
from __future__ import annotations

import difflib
import io
from collections import OrderedDict
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    PlainScalarString,
    ScalarString,
    SingleQuotedScalarString,
)

PathKey = str | int
DocPath = tuple[PathKey, ...]

_MAX_BYTES = 1_000_000  # the loader refuses bigger files too; a designer's file is a few KB


class EditError(ValueError):
    """An edit that cannot be applied (bad path, unparsable file)."""


def _represent_none(representer: Any, _data: None) -> Any:
    """Write None as an explicit `null` (the content files use it for "no benefit")."""
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def guess_indents(text: str) -> tuple[int, int, int]:
    """(mapping, sequence, offset) indents as ruamel's `YAML.indent` takes them, read from the block lines."""
    mapping = sequence = offset = None
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for above, below in zip(lines, lines[1:]):
        head = above.rstrip()
        if not head.endswith(":") or head.lstrip().startswith("- ") and ":" not in head.lstrip()[2:]:
            continue
        parent = len(above) - len(above.lstrip())
        if head.lstrip().startswith("- "):
            parent += 2  # a key inside a list item: its children indent from the key, not the dash
        child = len(below) - len(below.lstrip())
        if child <= parent:
            if below.lstrip().startswith("- ") and child == parent and sequence is None:
                sequence, offset = 2, 0
            continue
        if below.lstrip().startswith("- "):
            if sequence is None:
                offset = child - parent
                sequence = offset + 2
        elif mapping is None:
            mapping = child - parent
        if mapping is not None and sequence is not None:
            break
    mapping = mapping or 2
    if sequence is None:
        sequence, offset = mapping, 0
    return mapping, sequence, offset or 0


def _yaml_for(text: str) -> tuple[YAML, Any]:
    """A round-trip YAML configured like `text` (indents guessed, quotes kept, no re-wrapping) and its document."""
    if len(text.encode("utf-8")) > _MAX_BYTES:
        raise EditError("file is over 1 MB; refusing to edit it")
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap long lines the designer wrote on one line
    mapping, sequence, offset = guess_indents(text)
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    yaml.representer.add_representer(type(None), _represent_none)
    if text.lstrip().startswith("---"):
        yaml.explicit_start = True
    try:
        data = yaml.load(text)
    except YAMLError as exc:
        raise EditError(f"cannot parse the file: {exc}") from exc
    return yaml, data


_PARSED: "OrderedDict[str, Any]" = OrderedDict()
_UNTOUCHED: "OrderedDict[str, str]" = OrderedDict()
_CACHE_SIZE = 32  # a few files with a few edit states each; the editor re-reads them on every rerun


def _remember(cache: "OrderedDict[str, Any]", key: str, value: Any) -> Any:
    """Store in a small LRU cache."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    return value


def load(text: str) -> Any:
    """Parse text into ruamel's round-trip structures (CommentedMap / CommentedSeq). The result is shared
    between callers (cached by text): treat it as read-only; apply_edits parses its own copy."""
    if text in _PARSED:
        _PARSED.move_to_end(text)
        return _PARSED[text]
    return _remember(_PARSED, text, _yaml_for(text)[1])


def dump(yaml: YAML, data: Any) -> str:
    """Serialise round-trip data back to text."""
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def get_in(data: Any, path: DocPath) -> Any:
    """The value at `path` (mapping keys and list indexes); raises EditError when missing."""
    node = data
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError) as exc:
            raise EditError(f"no field at {format_path(path)}") from exc
    return node


def format_path(path: DocPath) -> str:
    """A readable dotted path: `side_a.track[3].benefit`."""
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "(document)"


def _keep_style(old: Any, new: Any) -> Any:
    """Give a new string the scalar style (quotes, block) of the value it replaces."""
    if not isinstance(new, str) or isinstance(new, ScalarString):
        return new
    if isinstance(old, LiteralScalarString):
        return LiteralScalarString(new)
    for style in (DoubleQuotedScalarString, SingleQuotedScalarString, FoldedScalarString):
        if isinstance(old, style):
            return style(new)
    if isinstance(old, PlainScalarString):
        return new
    return new


def set_in(data: Any, path: DocPath, value: Any) -> None:
    """Set the value at `path` in place, keeping the old scalar's style; the parent must exist."""
    if not path:
        raise EditError("cannot replace the whole document")
    parent = get_in(data, path[:-1])
    key = path[-1]
    if isinstance(parent, (CommentedMap, dict)):
        old = parent.get(key)
        parent[key] = _keep_style(old, value)
    elif isinstance(parent, (CommentedSeq, list)) and isinstance(key, int) and 0 <= key < len(parent):
        parent[key] = _keep_style(parent[key], value)
    else:
        raise EditError(f"no field at {format_path(path)}")


_EDITED: "OrderedDict[str, str]" = OrderedDict()


def apply_edits(text: str, edits: dict[DocPath, Any]) -> str:
    """The file text with each `path -> value` edit applied, everything else kept as written (the result is
    remembered: a page rerun asks for the same edits several times, and parsing is the slow part)."""
    if not edits:
        return text
    try:
        memo = repr((text, [(p, v, type(v).__name__) for p, v in edits.items()]))
    except Exception:   # noqa: BLE001 - an unprintable value only loses the shortcut
        memo = None
    if memo is not None and memo in _EDITED:
        _EDITED.move_to_end(memo)
        return _EDITED[memo]
    result = _apply_edits(text, edits)
    if memo is not None:
        _remember(_EDITED, memo, result)
    return result


def _apply_edits(text: str, edits: dict[DocPath, Any]) -> str:
    """apply_edits without the memo."""
    yaml, data = _yaml_for(text)
    untouched = _UNTOUCHED.get(text)
    if untouched is None:
        untouched = _remember(_UNTOUCHED, text, dump(yaml, data))
    changed = False
    for path, value in edits.items():
        if get_in(data, path[:-1]) is None:
            raise EditError(f"no field at {format_path(path)}")
        if _unchanged(get_in_or_none(data, path), value):
            continue
        set_in(data, path, value)
        changed = True
    if not changed:
        return text
    return _reconcile(text, untouched, dump(yaml, data))


def _indent(line: str) -> int:
    """Leading spaces of a line."""
    return len(line) - len(line.lstrip(" "))


def _shift(line: str, delta: int) -> str:
    """Indent a line by delta spaces (negative: remove up to that many)."""
    if delta >= 0 or not line.strip():
        return (" " * delta + line) if line.strip() else line
    return line[min(-delta, _indent(line)):]


def _reconcile(original: str, untouched: str, edited: str) -> str:
    """Keep every line ruamel did not change byte-for-byte as written: ruamel has one indentation setting
    per file, so a file mixing styles (top-level list at column 0, nested lists indented) would otherwise
    be re-indented everywhere. Only the lines of the edit come from ruamel, shifted to the original indent."""
    if untouched == original:
        return edited
    orig_lines = original.splitlines(keepends=True)
    a = untouched.splitlines(keepends=True)
    b = edited.splitlines(keepends=True)
    if len(orig_lines) != len(a):
        return edited
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out += orig_lines[i1:i2]
            continue
        anchor = min(i1, len(a) - 1)
        delta = _indent(orig_lines[anchor]) - _indent(a[anchor]) if a else 0
        for offset, line in enumerate(b[j1:j2]):
            k = i1 + offset
            if k < i2:  # a replaced line: use that line's own indentation shift
                delta = _indent(orig_lines[k]) - _indent(a[k])
            out.append(_shift(line, delta))
    merged = "".join(out)
    try:
        same = plain(YAML(typ="rt").load(merged)) == plain(YAML(typ="rt").load(edited))
    except YAMLError:
        same = False
    return merged if same else edited


def get_in_or_none(data: Any, path: DocPath) -> Any:
    """The value at `path`, or None when it does not exist."""
    try:
        return get_in(data, path)
    except EditError:
        return None


def _unchanged(old: Any, new: Any) -> bool:
    """True when writing `new` over `old` would not change the meaning (so the line is left untouched)."""
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if isinstance(old, str) and isinstance(new, str):
        return str(old) == str(new)
    return old == new and type(old) is type(new)


def line_of(data: Any, path: DocPath) -> int | None:
    """The 1-based line where the key (or list item) at `path` is written, from ruamel's line info."""
    if not path:
        return 1
    try:
        parent = get_in(data, path[:-1])
    except EditError:
        return None
    key = path[-1]
    try:
        if isinstance(parent, CommentedMap):
            return parent.lc.key(key)[0] + 1
        if isinstance(parent, CommentedSeq):
            return parent.lc.item(key)[0] + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    return None


def value_pos(data: Any, path: DocPath) -> tuple[int, int] | None:
    """1-based (line, col) where the value at `path` starts (ruamel's line info)."""
    if not path:
        return (1, 1)
    try:
        parent = get_in(data, path[:-1])
        if isinstance(parent, CommentedMap):
            line, col = parent.lc.value(path[-1])
        elif isinstance(parent, CommentedSeq):
            line, col = parent.lc.item(path[-1])
        else:
            return None
    except (EditError, KeyError, IndexError, TypeError, AttributeError):
        return None
    return line + 1, col + 1


def plain(value: Any) -> Any:
    """Round-trip structures as plain dict / list / str (for display and comparisons)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, ScalarString):
        return str(value)
    return value
