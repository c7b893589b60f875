"""Typed AST of the effect DSL; every node keeps its source span (character offsets)."""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Iterator, Union


@dataclass(frozen=True)
class Span:
    """Half-open character range [start, end) in the DSL text."""

    start: int
    end: int


@dataclass(frozen=True)
class Word:
    """One word or number of a call, as written."""

    text: str
    span: Span

    @property
    def is_int(self) -> bool:
        """True when the word is a number literal."""
        return self.text.isdigit()


@dataclass(frozen=True)
class Call:
    """A primitive use: words as written, and after checking the bound primitive and arguments."""

    words: tuple[Word, ...]
    span: Span
    primitive: str | None = None          # registry id, set by the checker
    args: tuple[tuple[str, object], ...] = ()  # (slot name, value) pairs, set by the checker

    def arg(self, name: str, default: Any = None) -> Any:
        """The bound value of slot `name` (its type is the slot's: int, str, a tuple of ids, a selector, a quantity)."""
        for key, value in self.args:
            if key == name:
                return value
        return default


@dataclass(frozen=True)
class Seq:
    """Statements run in order (`a; b; c`)."""

    stmts: tuple["Node", ...]
    span: Span


@dataclass(frozen=True)
class Choose:
    """`choose { a } or { b } ...`: the player picks one option they can perform."""

    options: tuple[Seq, ...]
    span: Span


@dataclass(frozen=True)
class ChoosePlayer:
    """`choose <players> { ... }`: the acting player picks one of the players named; in the body `them` (and `it`)
    is that player, and the acting player still does the body."""

    sel: "Selector"
    body: Seq
    span: Span


@dataclass(frozen=True)
class During:
    """`this action: <modifier>`: the modifier holds for the acting player while the rest of the effect it stands in
    runs (the card's action, the Leader's ability, the benefit)."""

    words: tuple[Word, ...]       # the words before the colon (`this action`)
    modifier: Union[Call, "Phrase"]
    body: Seq | None              # the statements after it (the parser folds them in); None: nothing follows
    span: Span


@dataclass(frozen=True)
class May:
    """`may { a }`: the player decides whether to perform the body."""

    body: Seq
    span: Span


@dataclass(frozen=True)
class Repeat:
    """`repeat N { a }`: the body N times (bounded by the literal)."""

    count: int
    body: Seq
    span: Span


@dataclass(frozen=True)
class Objective:
    """`most <query>` / `least <query>` of a Season card."""

    direction: str  # "most" | "least"
    query: Union[Call, "Phrase", "Expr"]   # a first-language query call, or a quantity (`most count(...)`)
    span: Span


def walk(node: Node | Expr) -> Iterator[Node | Expr]:
    """Yield the node and every node below it, depth first (an objective's quantity is yielded as a leaf)."""
    yield node
    if isinstance(node, Seq):
        for stmt in node.stmts:
            yield from walk(stmt)
    elif isinstance(node, Choose):
        for option in node.options:
            yield from walk(option)
    elif isinstance(node, (May, Repeat, ChoosePlayer)):
        yield from walk(node.body)
    elif isinstance(node, During):
        if node.body is not None:
            yield from walk(node.body)
    elif isinstance(node, Objective):
        yield from walk(node.query)
    elif isinstance(node, If):
        yield from walk(node.then)
        if node.orelse is not None:
            yield from walk(node.orelse)
    elif isinstance(node, ForEach):
        yield from walk(node.body)


# --- the compositional layer ------------------------------------------------------------------------
# Selectors, quantities, conditions, `if`, `for each` and calls with typed items. Parsing gives each filter
# its argument as a bare head; the checker attaches later filters to the nearest head they apply to and
# fills the `kind`/bound fields (see interpreter/dsl/types.py).

@dataclass(frozen=True)
class Head:
    """A selector head as written: determiner, adjective words (terrains, references) and the noun."""

    det: str | None
    adjs: tuple[Word, ...]
    noun: Word
    span: Span


@dataclass(frozen=True)
class Filter:
    """One filter of a selector: `of size 2`, `of an opponent`, `in the landing hex`, `within 3 of my leader`,
    `with a nest`, `without kiwi`, `adjacent to this hex`, `dominated by me`, `where <condition>`."""

    op: str                               # size owner in adjacent within with without dominated where
    span: Span
    arg: "Selector | None" = None         # the argument selector (bound: with its own attached filters)
    n: int | None = None                  # the size, or the distance of `within`
    cond: "Expr | None" = None            # the condition of `where`


@dataclass(frozen=True)
class Selector:
    """Pieces (kiwi, leaders, nests, markers), hexes or players named by a head and filters.

    Bound fields (set by the checker): `kind` (kiwi leader nest marker hex player), `owner`
    (me, opponent, subject, any, or None), `ref` (landing starting passed here it, or None), `terrains`,
    `quant` (all | one: a determiner `a`/`an` in a verb leaves the player one choice).
    """

    head: Head
    filters: tuple[Filter, ...]
    span: Span
    kind: str | None = None
    owner: str | None = None
    ref: str | None = None
    terrains: tuple[str, ...] = ()
    quant: str = "all"


@dataclass(frozen=True)
class Num:
    """A number literal in a quantity."""

    value: int
    span: Span


@dataclass(frozen=True)
class QCall:
    """A quantity function: `count(...)`, `tokens(...)`, `fruit(me)`, `min(a, b)`, `max(a, b)`."""

    name: Word
    args: tuple["Expr", ...]
    span: Span


@dataclass(frozen=True)
class BinOp:
    """`a + b`, `a - b` (quantities) and `a and b`, `a or b` (conditions); comparisons `a >= b`."""

    op: str
    left: "Expr"
    right: "Expr"
    span: Span


@dataclass(frozen=True)
class Not:
    """`not <condition>`."""

    cond: "Expr"
    span: Span


Expr = Union[Num, QCall, BinOp, Not, Selector]


@dataclass(frozen=True)
class Phrase:
    """A call whose items include selectors or quantities: `push every kiwi ... to a hex without a nest`.

    Like Call, bound by the checker to a registry primitive; `args` pairs slot names with values (ints,
    words, Selector or quantity nodes).
    """

    items: tuple[Union[Word, Expr], ...]     # words, selectors and quantities (a call, a sum)
    span: Span
    primitive: str | None = None
    args: tuple[tuple[str, object], ...] = ()

    def arg(self, name: str, default: Any = None) -> Any:
        """The bound value of slot `name` (its type is the slot's: int, str, a tuple of ids, a selector, a quantity)."""
        for key, value in self.args:
            if key == name:
                return value
        return default

    @property
    def words(self) -> tuple[Word, ...]:
        """The plain words of the phrase (what messages quote)."""
        return tuple(i for i in self.items if isinstance(i, Word))


@dataclass(frozen=True)
class If:
    """`if <condition> { ... } else { ... }`."""

    cond: Expr
    then: Seq
    orelse: Seq | None
    span: Span


@dataclass(frozen=True)
class ForEach:
    """`for each <selector> { ... }` (or `<call> for each <selector>`, `suffix`), at most `cap` times; `subject`: a
    verb with a subject (`them returns 1 fruit`), the body once for each player named, who does it."""

    sel: Selector
    body: Seq
    cap: Expr | None
    span: Span
    suffix: bool = False
    subject: bool = False


COMPOSED = (Phrase, If, ForEach, ChoosePlayer, During)
Node = Union[Seq, Choose, May, Repeat, Call, Objective, Phrase, If, ForEach, ChoosePlayer, During]


def exprs(node: object) -> Iterator[object]:
    """Yield a quantity, condition or selector and every expression below it."""
    yield node
    if isinstance(node, QCall):
        for a in node.args:
            yield from exprs(a)
    elif isinstance(node, BinOp):
        yield from exprs(node.left)
        yield from exprs(node.right)
    elif isinstance(node, Not):
        yield from exprs(node.cond)
    elif isinstance(node, Selector):
        for f in node.filters:
            if f.arg is not None:
                yield from exprs(f.arg)
            if f.cond is not None:
                yield from exprs(f.cond)


# --- expressions as plain data ----------------------------------------------------------------------
# A bound selector or quantity as JSON data, for rule values a game state carries (`State.params`: the pieces a
# `<pieces> count N for dominance` power names, which dominance reads off the state alone). Only the expression
# nodes below are rebuilt, so data never names another class.

_DATA_NODES: dict[str, type] = {c.__name__: c for c in (Span, Word, Head, Filter, Selector, Num, QCall, BinOp, Not)}


def to_data(value: Any) -> Any:
    """An expression node (or a number, word, tuple of them) as JSON data: `{"node": "Selector", ...fields}`."""
    if isinstance(value, tuple):
        return [to_data(v) for v in value]
    name = type(value).__name__
    if _DATA_NODES.get(name) is type(value) and is_dataclass(value):
        return {"node": name, **{f.name: to_data(getattr(value, f.name)) for f in fields(value)}}
    if value is None or isinstance(value, (str, int)):
        return value
    raise TypeError(f"not an expression node: {name}")


def from_data(data: Any) -> Any:
    """The node `to_data` wrote (lists become tuples)."""
    if isinstance(data, list):
        return tuple(from_data(v) for v in data)
    if isinstance(data, dict):
        cls = _DATA_NODES[data["node"]]
        return cls(**{k: from_data(v) for k, v in data.items() if k != "node"})
    return data
