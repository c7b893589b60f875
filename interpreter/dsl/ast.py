"""Typed AST of the effect DSL; every node keeps its source span (character offsets)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union


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

    def arg(self, name: str, default: object = None) -> object:
        """The bound value of slot `name`."""
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
    query: Call
    span: Span


Node = Union[Seq, Choose, May, Repeat, Call, Objective]


def walk(node: Node) -> Iterator[Node]:
    """Yield the node and every node below it, depth first."""
    yield node
    if isinstance(node, Seq):
        for stmt in node.stmts:
            yield from walk(stmt)
    elif isinstance(node, Choose):
        for option in node.options:
            yield from walk(option)
    elif isinstance(node, (May, Repeat)):
        yield from walk(node.body)
    elif isinstance(node, Objective):
        yield from walk(node.query)
