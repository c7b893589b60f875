"""Parse effect DSL text into the typed AST of ast.py, mapping Lark errors to located, readable DslErrors."""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from interpreter.dsl.ast import Call, Choose, May, Node, Objective, Repeat, Seq, Span, Word
from interpreter.dsl.errors import DslError

__all__ = ["parse", "STARTS", "MAX_CHARS", "MAX_DEPTH", "RESERVED"]

STARTS = ("effect", "objective", "call")
# Bounds that keep parsing, checking and interpreting one field cheap and the error messages readable.
MAX_CHARS = 4000
MAX_DEPTH = 8
RESERVED = ("choose", "or", "may", "repeat", "most", "least")

_GRAMMAR = Path(__file__).with_name("grammar.lark")
_SYNTAX = "dsl-syntax"

_LARK_OPTIONS = dict(
    parser="lalr",
    lexer="basic",  # no context-dependent tokens; lets error reporting re-lex the text
    start=list(STARTS),
    propagate_positions=True,
    maybe_placeholders=False,
)


def _cache_dir() -> Path:
    """The user's cache folder for the parse tables (XDG_CACHE_HOME or ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "kiwi-chow-down")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The one Lark parser of the process, built on first use.

    Building the LALR tables takes ~35 ms, loading Lark's cache of them ~2 ms (measured), which matters for
    the <300 ms cold validation of the whole content set. The cache is a pickle, so it lives in the user's own
    cache folder (not the shared temp dir) and appears only complete (written aside, then renamed); Lark
    checks the grammar's hash on load and rebuilds on any mismatch. Without a usable folder: no cache.
    """
    grammar = _GRAMMAR.read_text(encoding="utf-8")
    digest = hashlib.sha256((grammar + repr(sorted(_LARK_OPTIONS.items())) + lark.__version__).encode()).hexdigest()
    final = _cache_dir() / f"dsl-grammar-{digest[:16]}.lark-cache"
    partial = final.with_name(f"{final.name}.{os.getpid()}.part")
    try:
        if final.is_file():
            return Lark(grammar, cache=str(final), **_LARK_OPTIONS)
        final.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Lark(grammar, **_LARK_OPTIONS)
    parser = Lark(grammar, cache=str(partial), **_LARK_OPTIONS)
    try:
        if partial.is_file():
            os.replace(partial, final)
    except OSError:
        pass  # a cache we cannot keep only costs the next process the build time
    return parser


def parse(text: str, start: str = "effect") -> Node:
    """Parse DSL text from start symbol `effect`, `objective` or `call`; raise DslError on bad syntax."""
    if start not in STARTS:
        raise ValueError(f"unknown start symbol {start!r}; start symbols are {', '.join(STARTS)}")
    if not isinstance(text, str):
        raise DslError(_SYNTAX, f"expected DSL text, got {type(text).__name__}", Span(0, 0),
                       "write the effect as text, e.g. `gain 1 fruit`")
    if len(text) > MAX_CHARS:
        raise DslError(_SYNTAX, f"text too long: {len(text)} characters, at most {MAX_CHARS}",
                       Span(MAX_CHARS, len(text)), "split the effect or simplify it")
    _check_depth(text)
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(text, start, exc) from None
    except LarkError as exc:  # any other parser failure is still a located syntax error, never a traceback
        raise DslError(_SYNTAX, f"cannot parse: {exc}", Span(0, len(text))) from None
    return _build(tree)


# --- tree -> AST ------------------------------------------------------------------------------------

def _tok_span(tok: Token) -> Span:
    return Span(tok.start_pos, tok.end_pos)


def _build(tree: Tree) -> Node:
    kind = tree.data
    if kind == "effect":
        stmts = tuple(_build(c) for c in tree.children if isinstance(c, Tree))
        return Seq(stmts, Span(stmts[0].span.start, stmts[-1].span.end))
    if kind == "call":
        words = tuple(Word(str(t), _tok_span(t)) for t in tree.children)
        return Call(words, Span(words[0].span.start, words[-1].span.end))
    if kind == "choose":
        blocks = [c for c in tree.children if isinstance(c, Tree)]
        return Choose(tuple(_block(b) for b in blocks), Span(tree.children[0].start_pos, _block_end(blocks[-1])))
    if kind == "may":
        block = tree.children[1]
        return May(_block(block), Span(tree.children[0].start_pos, _block_end(block)))
    if kind == "repeat":
        keyword, count, block = tree.children
        return Repeat(int(count), _block(block), Span(keyword.start_pos, _block_end(block)))
    if kind == "objective":
        direction, call = tree.children
        query = _build(call)
        return Objective(str(direction), query, Span(direction.start_pos, query.span.end))
    raise DslError(_SYNTAX, f"unexpected grammar rule `{kind}`", Span(0, 0))  # grammar and builder out of step


def _block(block: Tree) -> Seq:
    seq = _build(block.children[1])
    assert isinstance(seq, Seq)
    return seq


def _block_end(block: Tree) -> int:
    return block.children[-1].end_pos


# --- bounds -----------------------------------------------------------------------------------------

def _braces(text: str, stop: int | None = None) -> list[int]:
    """Offsets of the `{` still open at `stop` (comments skipped); unmatched `}` are ignored."""
    stack: list[int] = []
    i, end = 0, len(text) if stop is None else stop
    while i < end:
        ch = text[i]
        if ch == "#":
            nl = text.find("\n", i)
            i = end if nl < 0 else nl
            continue
        if ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            stack.pop()
        i += 1
    return stack


def _check_depth(text: str) -> None:
    """Refuse blocks nested deeper than MAX_DEPTH before Lark sees the text."""
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "#":
            nl = text.find("\n", i)
            if nl < 0:
                return
            i = nl
        elif ch == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise DslError(_SYNTAX, f"blocks nested too deep: at most {MAX_DEPTH} levels of `{{`",
                               Span(i, i + 1), "split the effect into simpler parts")
        elif ch == "}":
            depth = max(0, depth - 1)
        i += 1


# --- error messages ----------------------------------------------------------------------------------

_KEYWORDS = {"CHOOSE": "choose", "OR": "or", "MAY": "may", "REPEAT": "repeat", "MOST": "most", "LEAST": "least"}
_PUNCT = {"LBRACE": "`{`", "RBRACE": "`}`", "SEMI": "`;`"}
_RESERVED_HINT = "reserved words are " + ", ".join(RESERVED)


def _join_or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _expected_text(expected: set[str], prev: Token | None) -> str:
    """Lark terminal names as words: `a verb`, `a number`, `` `;` ``, `the end of the text`."""
    names = set(expected)
    out: list[str] = []
    if "WORD" in names:
        if names & {"CHOOSE", "MAY", "REPEAT"}:
            out.append("a verb")
            names -= {"CHOOSE", "MAY", "REPEAT"}
        elif prev is not None and prev.type in ("MOST", "LEAST"):
            out.append("a query")
        else:
            out.append("a word")
        names.discard("WORD")
    if "INT" in names:
        out.append("a number")
        names.discard("INT")
    if {"MOST", "LEAST"} <= names:
        out.append("`most` or `least`")
        names -= {"MOST", "LEAST"}
    for name in ("LBRACE", "RBRACE", "SEMI", "OR", "CHOOSE", "MAY", "REPEAT", "MOST", "LEAST"):
        if name in names:
            out.append(_PUNCT.get(name) or f"`{_KEYWORDS[name]}`")
            names.discard(name)
    end = "$END" in names
    names.discard("$END")
    out.extend(f"`{n.lower()}`" for n in sorted(names))
    if end:
        out.append("the end of the text")
    return _join_or(out) if out else "something else"


def _tokens_before(text: str, pos: int) -> list[Token]:
    """The tokens of `text` that end at or before `pos` (lexing stops quietly at a bad character)."""
    toks: list[Token] = []
    try:
        for tok in _lark().lex(text[:pos]):
            toks.append(tok)
    except LarkError:
        pass
    return toks


def _accepted(exc: UnexpectedToken) -> set[str]:
    """The terminals the parser really accepts here (LALR's merged states over-report `exc.expected`)."""
    try:
        accepts = exc.interactive_parser.accepts()
    except (LarkError, AttributeError):
        accepts = None
    if accepts:
        return set(accepts)
    # An empty set means the start symbol is complete: only the end of the text may follow.
    return set(exc.expected) or {"$END"}


def _syntax_error(text: str, start: str, exc: UnexpectedInput) -> DslError:
    """A readable DslError for a Lark error."""
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(text, exc.pos_in_stream)
    if isinstance(exc, UnexpectedToken):
        return _bad_token(text, start, exc)
    pos = min(max(getattr(exc, "pos_in_stream", 0) or 0, 0), len(text))
    return DslError(_SYNTAX, "cannot parse this text", Span(pos, pos))


def _bad_character(text: str, pos: int) -> DslError:
    ch = text[pos]
    shown = ch if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
    span = Span(pos, pos + 1)
    if ch.isalpha() and ch.isupper():
        end = pos
        while end < len(text) and (text[end].isalnum() or text[end] in "-_"):
            end += 1
        return DslError(_SYNTAX, f"unexpected character `{shown}`: words are written in lowercase", span,
                        f"write `{text[pos:end].lower()}`")
    hints = {",": "separate statements with `;`", "(": "group statements with `{ ... }`",
             ")": "group statements with `{ ... }`", "[": "group statements with `{ ... }`",
             "]": "group statements with `{ ... }`", "\"": "write the effect without quotes",
             "'": "write the effect without quotes", "_": "words start with a letter",
             "-": "words start with a letter; numbers are 0 or more"}
    return DslError(_SYNTAX, f"unexpected character `{shown}`", span, hints.get(ch))


def _bad_token(text: str, start: str, exc: UnexpectedToken) -> DslError:
    tok: Token = exc.token
    expected = _accepted(exc)
    at_end = tok.type == "$END"
    pos = len(text) if at_end else tok.start_pos
    before = _tokens_before(text, pos)
    prev = before[-1] if before else None
    span = Span(len(text), len(text)) if at_end else _tok_span(tok)
    prev_span = _tok_span(prev) if prev is not None else span
    if at_end and prev is None:
        what = {"effect": "a verb", "objective": "`most` or `least`", "call": "a word"}[start]
        return DslError(_SYNTAX, f"expected {what}, got nothing", Span(0, len(text)),
                        "write e.g. `gain 1 fruit`" if start == "effect" else None)
    shown = "end of the text" if at_end else f"`{tok.value}`"
    if at_end and _braces(text):
        open_at = _braces(text)[-1]
        return DslError(_SYNTAX, "unclosed `{`", Span(open_at, open_at + 1), "add `}` to close the block")
    if prev is not None and prev.type in ("MAY", "CHOOSE", "OR") and "LBRACE" in expected:
        return DslError(_SYNTAX, f"expected `{{` after `{prev.value}`", prev_span if at_end else span,
                        f"write `{prev.value} {{ ... }}`")
    if prev is not None and prev.type == "REPEAT" and "INT" in expected:
        return DslError(_SYNTAX, "`repeat` needs a number", prev_span if at_end else span,
                        "write `repeat 2 { ... }`")
    if at_end and prev is not None and prev.type in ("MOST", "LEAST"):
        return DslError(_SYNTAX, f"expected a query after `{prev.value}`", prev_span, "write e.g. `most nests`")
    if expected == {"OR"}:
        return DslError(_SYNTAX, f"unexpected {shown}: `choose` needs at least two options",
                        prev_span if at_end else span, "write `choose { ... } or { ... }`")
    if prev is not None and prev.type == "INT" and len(before) > 1 and before[-2].type == "REPEAT":
        return DslError(_SYNTAX, f"expected `{{` after `repeat {prev.value}`", prev_span if at_end else span,
                        f"write `repeat {prev.value} {{ ... }}`")
    if at_end and prev is not None and prev.type == "SEMI":
        return DslError(_SYNTAX, "expected a verb after `;`", prev_span, "remove the last `;`")
    if tok.type == "RBRACE" and not _braces(text, pos):
        return DslError(_SYNTAX, "unexpected `}`: no `{` to close", span, "remove the `}`")
    hint = "a trigger or modifier is a single call, without `;`" if start == "call" and tok.type == "SEMI" else None
    if tok.type in _KEYWORDS:
        hint = f"`{tok.value}` is a reserved word; {_RESERVED_HINT}"
        if tok.type in ("MOST", "LEAST") and start != "objective":
            hint = f"`{tok.value}` starts a Season card objective, not an effect"
    message = f"unexpected {shown}: expected {_expected_text(expected, prev)}"
    return DslError(_SYNTAX, message, prev_span if at_end else span, hint)
