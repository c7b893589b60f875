"""Parse effect DSL text into the typed AST of ast.py, mapping Lark errors to located, readable DslErrors."""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Iterator, cast

import lark
from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from kcd.dsl.ast import (BinOp, Call, Choose, ChoosePlayer, During, Expr, Filter, ForEach, Head, If, May, Node, Not,
                                 Num, Objective, Phrase, QCall, Repeat, Selector, Seq, Span, Word)
from kcd.dsl.errors import DslError

__all__ = ["parse", "STARTS", "MAX_CHARS", "MAX_DEPTH", "RESERVED"]

STARTS = ("effect", "objective", "call")
# Bounds that keep parsing, checking and interpreting one field cheap and the error messages readable.
MAX_CHARS = 4000
MAX_DEPTH = 8
RESERVED = ("choose", "or", "may", "repeat", "most", "least")

_GRAMMAR = Path(__file__).with_name("grammar.lark")
_SYNTAX = "dsl-syntax"

class _Reserved:
    """A pass-through post-lexer whose `always_accept` keeps the reserved words keywords in every parser state
    (the contextual lexer would otherwise read `or` as a WORD where `or` cannot follow)."""

    always_accept = ("CHOOSE", "OR", "MAY", "REPEAT", "MOST", "LEAST")

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """The tokens unchanged."""
        return stream

    def __repr__(self) -> str:   # stable: the parse-table cache key includes the options' repr
        return f"_Reserved({self.always_accept})"


_LARK_OPTIONS = dict(
    parser="lalr",
    # The contextual lexer makes the compositional layer's words (`kiwi`, `in`, `every` ...) keywords only where
    # the parser accepts them, so the first language's phrases (`place 1 kiwi`, `tokens in flower`) lex as before.
    lexer="contextual",
    start=list(STARTS),
    propagate_positions=True,
    maybe_placeholders=False,
    postlex=_Reserved(),
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
    return Span(_start(tok), _end(tok))


# lark types a tree's children as `Tree | Token` and a token's positions as optional; the grammar fixes which
# child is a token, and the parser keeps positions, so these read them checked
def _tok(node: Tree[Token] | Token) -> Token:
    assert isinstance(node, Token), node
    return node


def _tree(node: Tree[Token] | Token) -> Tree[Token]:
    assert isinstance(node, Tree), node
    return node


def _start(node: Tree[Token] | Token) -> int:
    pos = _tok(node).start_pos
    assert pos is not None
    return pos


def _end(node: Tree[Token] | Token) -> int:
    pos = _tok(node).end_pos
    assert pos is not None
    return pos


def _build(tree: Tree[Token]) -> Node:
    kind = tree.data
    if kind == "effect":
        stmts = tuple(_build(c) for c in tree.children if isinstance(c, Tree))
        return Seq(_fold_during(stmts), Span(stmts[0].span.start, stmts[-1].span.end))
    if kind == "call":
        return _call(tree)
    if kind == "if_stmt":
        children = [c for c in tree.children if isinstance(c, Tree)]
        cond, then = _expr(children[0]), _block(children[1])
        orelse = _block(children[2]) if len(children) > 2 else None
        end = _block_end(children[-1])
        return If(cond, then, orelse, Span(_start(tree.children[0]), end))
    if kind == "for_each":
        trees = [c for c in tree.children if isinstance(c, Tree)]
        sel = _sel(trees[0])
        cap = _expr(trees[1].children[-1]) if len(trees) > 2 else None
        return ForEach(sel, _block(trees[-1]), cap, Span(_start(tree.children[0]), _block_end(trees[-1])))
    if kind == "choose":
        blocks = [c for c in tree.children if isinstance(c, Tree)]
        return Choose(tuple(_block(b) for b in blocks), Span(_start(tree.children[0]), _block_end(blocks[-1])))
    if kind == "choose_player":
        _, who, block = tree.children
        assert isinstance(who, Tree) and isinstance(block, Tree)
        return ChoosePlayer(_sel(who), _block(block), Span(_start(tree.children[0]), _block_end(block)))
    if kind == "during":
        det, word, _, call = tree.children
        assert isinstance(call, Tree)
        words = (Word(str(det), _tok_span(_tok(det))), Word(str(word), _tok_span(_tok(word))))
        modifier = _call(call)
        assert isinstance(modifier, (Call, Phrase)), modifier
        return During(words, modifier, None, Span(_start(det), modifier.span.end))
    if kind == "may":
        block = tree.children[1]
        assert isinstance(block, Tree)
        return May(_block(block), Span(_start(tree.children[0]), _block_end(block)))
    if kind == "repeat":
        keyword, count, block = tree.children
        assert isinstance(block, Tree)
        return Repeat(int(_tok(count)), _block(block), Span(_start(keyword), _block_end(block)))
    if kind == "objective":
        direction, call = tree.children
        query = _build(call) if isinstance(call, Tree) and call.data == "call" else _expr(call)
        assert isinstance(query, (Call, Phrase, Num, QCall, BinOp, Not, Selector)), query
        return Objective(str(direction), query, Span(_start(direction), query.span.end))
    raise DslError(_SYNTAX, f"unexpected grammar rule `{kind}`", Span(0, 0))  # grammar and builder out of step


def _fold_during(stmts: tuple[Node, ...]) -> tuple[Node, ...]:
    """`this action: <modifier>; a; b`: the statements after a `this action:` become its body (it holds for them)."""
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, During) and i + 1 < len(stmts):
            rest = _fold_during(stmts[i + 1:])
            body = Seq(rest, Span(rest[0].span.start, rest[-1].span.end))
            return stmts[:i] + (During(stmt.words, stmt.modifier, body, Span(stmt.span.start, body.span.end)),)
    return stmts


def _span(tree: Tree[Token] | Token) -> Span:
    if isinstance(tree, Token):
        return _tok_span(tree)
    return Span(tree.meta.start_pos, tree.meta.end_pos)


def _call(tree: Tree[Token]) -> Node:
    """A call: plain words stay a Call (the first language); selectors or quantities make it a Phrase;
    a trailing `for each <selector>` makes it the body of a suffix ForEach."""
    items: list[Word | Expr] = []
    suffix: list[Tree[Token] | Token] = []
    for child in tree.children:
        if isinstance(child, Token):
            if child.type == "FOR" and suffix == [] and _next_is_each(tree, child):
                suffix.append(child)
            elif suffix:
                suffix.append(child)
            else:
                items.append(Word(str(child), _tok_span(child)))
        elif suffix:
            suffix.append(child)
        elif child.data == "osel":
            items.append(_sel(child))
        else:
            items.append(_expr(child))
    span = Span(items[0].span.start, items[-1].span.end)
    call: Node = (Call(cast("tuple[Word, ...]", tuple(items)), span) if all(isinstance(i, Word) for i in items)
                  else Phrase(tuple(items), span))
    if not suffix:
        return call
    sel_tree = next(c for c in suffix if isinstance(c, Tree) and c.data == "sel")
    cap_tree = next((c for c in suffix if isinstance(c, Tree) and c.data == "cap"), None)
    cap = _expr(cap_tree.children[-1]) if cap_tree is not None else None
    end = _span(cap_tree if cap_tree is not None else sel_tree).end
    return ForEach(_sel(sel_tree), Seq((call,), span), cap, Span(span.start, end), suffix=True)


def _next_is_each(tree: Tree[Token], tok: Token) -> bool:
    kids = tree.children
    i = next(j for j, c in enumerate(kids) if c is tok)
    return i + 1 < len(kids) and isinstance(kids[i + 1], Token) and _tok(kids[i + 1]).type == "EACH"


def _head(tree: Tree[Token]) -> Head:
    det = None
    adjs: list[Word] = []
    noun = None
    for child in tree.children:
        if isinstance(child, Token) and child.type == "DET":
            det = str(child)
        elif isinstance(child, Token) and child.type in ("NOUN", "PRON"):
            noun = Word(str(child), _tok_span(child))
        elif isinstance(child, Token) and child.type == "WORD":
            adjs.append(Word(str(child), _tok_span(child)))
    assert noun is not None
    return Head(det, tuple(adjs), noun, _span(tree))


_FILTER_OPS = {"f_size": "size", "f_owner": "owner", "f_in": "in", "f_adjacent": "adjacent", "f_within": "within",
               "f_with": "with", "f_without": "without", "f_dominated": "dominated", "f_where": "where"}


def _filter(tree: Tree[Token]) -> Filter:
    op = _FILTER_OPS[tree.data]
    span = _span(tree)
    heads = [c for c in tree.children if isinstance(c, Tree) and c.data == "head"]
    ints = [int(c) for c in tree.children if isinstance(c, Token) and c.type == "INT"]
    if op == "where":
        return Filter(op, span, cond=_expr(tree.children[-1]))
    arg = None
    if heads:
        h = _head(heads[0])
        arg = Selector(h, (), h.span)
    return Filter(op, span, arg=arg, n=ints[0] if ints else None)


def _sel(tree: Tree[Token]) -> Selector:
    """osel / sel / fsel / head trees as a Selector with its (flat, not yet attached) filters."""
    if tree.data == "head":
        h = _head(tree)
        return Selector(h, (), h.span)
    if tree.data in ("sel", "fsel"):
        inner = _sel(_tree(tree.children[0]))
        filters = tuple(_filter(_tree(c)) for c in tree.children[1:])
        return Selector(inner.head, filters, _span(tree))
    # osel: DET WORD* NOUN filter* | PRON filter*
    head_parts = [c for c in tree.children if not (isinstance(c, Tree) and c.data in _FILTER_OPS)]
    if _tok(head_parts[0]).type == "PRON":
        noun = Word(str(head_parts[0]), _tok_span(_tok(head_parts[0])))
        filters = tuple(_filter(c) for c in tree.children if isinstance(c, Tree) and c.data in _FILTER_OPS)
        return Selector(Head(None, (), noun, noun.span), filters, _span(tree))
    det = str(head_parts[0])
    adjs = tuple(Word(str(t), _tok_span(_tok(t))) for t in head_parts[1:-1])
    ntok = _tok(head_parts[-1])
    noun = Word(str(ntok), _tok_span(ntok))
    hspan = Span(_start(head_parts[0]), _end(ntok))
    filters = tuple(_filter(c) for c in tree.children if isinstance(c, Tree) and c.data in _FILTER_OPS)
    return Selector(Head(det, adjs, noun, hspan), filters, _span(tree))


def _expr(tree: Tree[Token] | Token) -> Expr:
    """Quantities and conditions as Num / QCall / BinOp / Not / Selector."""
    if isinstance(tree, Token):
        if tree.type == "INT":
            return Num(int(tree), _tok_span(tree))
        raise DslError(_SYNTAX, f"unexpected `{tree}` in a quantity", _tok_span(tree))
    kind = tree.data
    if kind in ("c_or", "c_and", "arith"):
        kids = tree.children
        left = _expr(kids[0])
        i = 1
        while i < len(kids):
            op = str(kids[i])
            right = _expr(kids[i + 1])
            left = BinOp(op, left, right, Span(left.span.start, right.span.end))
            i += 2
        return left
    if kind == "c_not":
        inner = _expr(tree.children[1])
        return Not(inner, Span(_start(tree.children[0]), inner.span.end))
    if kind == "compare":
        lhs_tree, cmp, rhs_tree = tree.children
        lhs, rhs = _expr(lhs_tree), _expr(rhs_tree)
        return BinOp(str(cmp), lhs, rhs, Span(lhs.span.start, rhs.span.end))
    if kind == "qcall":
        name = _tok(tree.children[0])
        args = tuple(_expr(c) for c in tree.children if isinstance(c, Tree) or
                     (isinstance(c, Token) and c.type == "INT"))
        return QCall(Word(str(name), _tok_span(name)), args, Span(_start(name), _end(tree.children[-1])))
    if kind in ("head", "sel", "fsel", "osel"):
        return _sel(tree)
    if kind in ("qterm", "oterm"):   # `( quantity )`
        return _expr(tree.children[1])
    raise DslError(_SYNTAX, f"unexpected grammar rule `{kind}`", _span(tree))


def _block(block: Tree[Token]) -> Seq:
    seq = _build(_tree(block.children[1]))
    assert isinstance(seq, Seq)
    return seq


def _block_end(block: Tree[Token]) -> int:
    return _end(block.children[-1])


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


# Terminals of the compositional layer: where a word is expected they are words too, so messages about the
# first language's phrases read as before; elsewhere they are named by what they are.
_LAYER_PUNCT = {"CMP": "a comparison (`>=`, `<`, `=` ...)", "PLUS": "`+`", "MINUS": "`-`", "LPAR": "`(`",
                "RPAR": "`)`", "COMMA": "`,`"}


def _is_layer(name: str) -> bool:
    return name in ("DET", "NOUN", "PRON") or name in _LAYER_PUNCT or name in _LAYER_WORDS


_LAYER_WORDS = {"IF": "if", "ELSE": "else", "FOR": "for", "EACH": "each", "AT": "at", "ON": "on", "TO": "to",
                "BY": "by", "OF": "of", "SIZE": "size", "IN": "in", "ADJACENT": "adjacent", "WITHIN": "within",
                "WITH": "with", "WITHOUT": "without", "DOMINATED": "dominated", "WHERE": "where", "AND": "and",
                "NOT": "not"}


def _layer_text(names: set[str]) -> list[str]:
    out: list[str] = []
    if "NOUN" in names:
        out.append("a noun (kiwi, leader, nest, marker, hex, player ...)")
    if "DET" in names:
        out.append("a determiner (every, a, the, my ...)")
    out.extend(f"`{_LAYER_WORDS[n]}`" for n in sorted(names) if n in _LAYER_WORDS)
    out.extend(_LAYER_PUNCT[n] for n in sorted(names) if n in _LAYER_PUNCT)
    return out


def _expected_text(expected: set[str], prev: Token | None) -> str:
    """Lark terminal names as words: `a verb`, `a number`, `` `;` ``, `the end of the text`."""
    names = set(expected)
    layer = {n for n in names if _is_layer(n)}
    names -= layer
    if "WORD" in names or "INT" in names:
        layer = {n for n in layer if n in ("RPAR", "COMMA", "CMP")} if not ("WORD" in names) else set()
    out: list[str] = []
    if "WORD" in names:
        if names & {"CHOOSE", "MAY", "REPEAT"}:
            out.append("a verb")
            names -= {"CHOOSE", "MAY", "REPEAT"}
        elif prev is not None and prev.type in ("MOST", "LEAST"):
            out.append("a quantity")
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
    out.extend(_layer_text(layer))
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
    accepts: set[str] | None
    try:
        accepts = exc.accepts      # the interactive parser's, computed once per error (None without one)
    except (LarkError, AttributeError):
        accepts = None
    if accepts:
        return set(accepts)
    # An empty set means the start symbol is complete: only the end of the text may follow.
    return set(exc.expected) or {"$END"}


def _syntax_error(text: str, start: str, exc: UnexpectedInput) -> DslError:
    """A readable DslError for a Lark error."""
    if isinstance(exc, UnexpectedCharacters):
        return _bad_character(text, exc.pos_in_stream or 0)
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
    pos = len(text) if at_end else _start(tok)
    before = _tokens_before(text, pos)
    prev = before[-1] if before else None
    span = Span(len(text), len(text)) if at_end else _tok_span(tok)
    prev_span = _tok_span(prev) if prev is not None else span
    if at_end and prev is None:
        what = {"effect": "a verb", "objective": "`most` or `least`", "call": "a word"}[start]
        return DslError(_SYNTAX, f"expected {what}, got nothing", Span(0, len(text)),
                        "write e.g. `gain 1 fruit`" if start == "effect" else None)
    if prev is not None and prev.type == "WORD" and "NOUN" in expected:
        # a selector head whose noun is missing or misspelt: `my leder`, `every kiwis`
        import difflib
        from kcd.dsl.parts import NOUNS
        nouns = list(NOUNS)
        close = difflib.get_close_matches(prev.value, nouns, n=2, cutoff=0.6)
        return DslError(_SYNTAX, f"unknown word `{prev.value}`: a selector needs a noun "
                        "(kiwi, leader, nest, marker, hex, player, opponent ...)", prev_span,
                        ("did you mean " + " or ".join(f"`{c}`" for c in close) + "?") if close else
                        "a word before the noun is a terrain or a reference: `every flower hex`, `the landing hex`")
    if tok.type in _LAYER_PUNCT and tok.type not in expected:
        # punctuation of the compositional layer where it cannot stand reads as a bad character, as before
        return _bad_character(text, _start(tok))
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
        return DslError(_SYNTAX, f"expected a quantity after `{prev.value}`", prev_span, "write e.g. `most count(my nests)`")
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
    if "CMP" in expected and hint is None:
        hint = "a condition compares quantities: `count(my kiwi in this hex) >= 2`"
    message = f"unexpected {shown}: expected {_expected_text(expected, prev)}"
    return DslError(_SYNTAX, message, prev_span if at_end else span, hint)
