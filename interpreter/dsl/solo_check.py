"""Check hooks of the Kiwibot verbs (registry_solo.py) and of `the starting hex` in a Solo card segment.

Kiwibot moves its own pieces and feeds Kiwi; a push follows the move whose piece pushes (R-SOLO-10); `the starting
hex` names where a Kiwibot move starts, so it stands only in such a move's destination. Each misuse is located
on the words to change, with a hint from the verb's own example. The entries carry these functions as their
`check` hooks (the `starting` reference of dsl/parts.py its own), so the checker has no case for any of them.
"""
from __future__ import annotations

from typing import Iterator

from kcd.dsl.ast import Call, ForEach, If, Node, Phrase, Selector, exprs, walk
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import CheckSite, doc_example, kind_phrase

__all__ = ["MOVES", "move_issues", "push_issues", "feed_issues", "starting_issues"]

MOVES = frozenset({"bot-move", "bot-move-to"})
"""The Kiwibot moves: a segment's pushes follow the move before them (R-SOLO-10)."""

_MOVABLE = frozenset({"kiwi", "leader", "piece"})


def _hint(site: CheckSite) -> str:
    return f"write e.g. `{doc_example(site.entry)}`"


def move_issues(call: Call | Phrase, site: CheckSite) -> list[Issue]:
    """`bot moves <pieces>`: Kiwibot moves its own Kiwi or Leader."""
    what = call.arg("what")
    if site.whole or not isinstance(what, Selector) or (what.owner == "me" and what.kind in _MOVABLE):
        return []
    return [Issue("dsl-arg-type", "Kiwibot moves its own Kiwi or Leader: <what> of `bot moves` names "
                  f"{_named(what)}", what.span, _hint(site))]


def push_issues(call: Call | Phrase, site: CheckSite) -> list[Issue]:
    """`bot pushes up to N of <pieces>`: Kiwi and Leaders; in a whole segment, after a Kiwibot move (R-SOLO-10)."""
    if site.whole:
        if any(c.primitive in MOVES for c in site.before):
            return []
        return [Issue("dsl-context", "a Kiwibot push before any Kiwibot move: the piece it just moved pushes "
                      "(R-SOLO-10)", call.span, "put a `bot moves ...` before it")]
    what = call.arg("what")
    if isinstance(what, Selector) and what.kind not in _MOVABLE:
        return [Issue("dsl-arg-type", f"a push moves Kiwi and Leaders, not {kind_phrase(what.kind or '')}",
                      what.span, _hint(site))]
    return []


def feed_issues(call: Call | Phrase, site: CheckSite) -> list[Issue]:
    """`bot feeds <pieces>`: Kiwibot feeds Kiwi."""
    what = call.arg("what")
    if site.whole or not isinstance(what, Selector) or what.kind == "kiwi":
        return []
    return [Issue("dsl-arg-type", f"Kiwibot feeds Kiwi: <what> of `bot feeds` names {kind_phrase(what.kind or '')}",
                  what.span, _hint(site))]


def starting_issues(node: Node, field_kind: str) -> list[Issue]:
    """In a Solo card segment, `the starting hex` stands only in the destination of a Kiwibot move (a Leader
    ability names it anywhere)."""
    if field_kind != "solo":
        return []
    allowed: set[int] = set()   # the selectors inside Kiwibot moves' destinations
    for sub in walk(node):
        if isinstance(sub, Phrase) and sub.primitive in MOVES:
            dest = sub.arg("dest")
            if isinstance(dest, Selector):
                allowed |= {id(e) for e in exprs(dest)}
    out: list[Issue] = []
    for sel in _selectors(node):
        if sel.ref == "starting" and id(sel) not in allowed:
            out.append(Issue("dsl-context", "`the starting hex` of a Solo card is where a Kiwibot move starts: it "
                             "stands only in the destination of `bot moves ... to ...`", sel.head.span,
                             "it names the moving piece's hex, e.g. `bot moves my kiwi of size 1 to a hex where "
                             "tokens(my pieces in it) = largest(hexes adjacent to the starting hex, tokens(my pieces "
                             "in it))`"))
    return out


def _named(sel: Selector) -> str:
    """What a selector names, for a message: "your hexes", "kiwi of any owner"."""
    kind = kind_phrase(sel.kind or "")
    if sel.owner != "me" and sel.kind in _MOVABLE:
        return f"{kind} that are not all its own (write `my ...`)"
    return kind


def _selectors(node: Node) -> Iterator[Selector]:
    """Every selector of a segment: in its phrases, conditions and loops."""
    for sub in walk(node):
        found: list[object] = []
        if isinstance(sub, Phrase):
            found = [v for _, v in sub.args]
        elif isinstance(sub, If):
            found = [sub.cond]
        elif isinstance(sub, ForEach):
            found = [sub.sel] + ([sub.cap] if sub.cap is not None else [])
        for value in found:
            for e in exprs(value):
                if isinstance(e, Selector):
                    yield e
