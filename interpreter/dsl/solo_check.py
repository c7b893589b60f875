"""Checks of a Solo card segment (field kind `solo`) as a whole: what Kiwibot's verbs may be given.

Kiwibot moves its own pieces and feeds Kiwi; a push follows the move whose piece pushes (R-SOLO-10); `the starting
hex` names where a Kiwibot move starts, so it stands only in such a move's destination. Each misuse is located
on the words to change, with a hint from the verb's own example (registry_solo.py).
"""
from __future__ import annotations

from typing import Iterator

from kcd.dsl import parts, registry
from kcd.dsl.ast import ForEach, If, Phrase, Selector, exprs, walk
from kcd.dsl.errors import Issue
from kcd.dsl.registry_solo import MOVES
from kcd.dsl.types import doc_example

__all__ = ["solo_issues", "segment_issues"]

_MOVABLE = frozenset({"kiwi", "leader", "piece"})


def solo_issues(node) -> list[Issue]:
    """The misuses of Kiwibot's verbs in a bound Solo card segment (none for a segment without them)."""
    out: list[Issue] = []
    allowed: set[int] = set()   # the selectors inside Kiwibot moves' destinations
    for sub in walk(node):
        if not isinstance(sub, Phrase) or sub.primitive is None:
            continue
        prim = registry.BY_ID[sub.primitive]
        what = sub.arg("what")
        hint = f"write e.g. `{doc_example(prim)}`"
        if sub.primitive in MOVES:
            if isinstance(what, Selector) and (what.owner != "me" or what.kind not in _MOVABLE):
                out.append(Issue("dsl-arg-type", "Kiwibot moves its own Kiwi or Leader: <what> of `bot moves` "
                                 f"names {_named(what)}", what.span, hint))
            dest = sub.arg("dest")
            if isinstance(dest, Selector):
                allowed |= {id(e) for e in exprs(dest)}
        elif sub.primitive == "bot-push":
            if isinstance(what, Selector) and what.kind not in _MOVABLE:
                out.append(Issue("dsl-arg-type", f"a push moves Kiwi and Leaders, not {parts.kind_phrase(what.kind or '')}",
                                 what.span, hint))
        elif sub.primitive == "bot-feed":
            if isinstance(what, Selector) and what.kind != "kiwi":
                out.append(Issue("dsl-arg-type", f"Kiwibot feeds Kiwi: <what> of `bot feeds` names "
                                 f"{parts.kind_phrase(what.kind or '')}", what.span, hint))
    for sel in _selectors(node):
        if sel.ref == "starting" and id(sel) not in allowed:
            out.append(Issue("dsl-context", "`the starting hex` of a Solo card is where a Kiwibot move starts: it "
                             "stands only in the destination of `bot moves ... to ...`", sel.head.span,
                             "it names the moving piece's hex, e.g. `bot moves my kiwi of size 1 to a hex where "
                             "tokens(my pieces in it) = largest(hexes adjacent to the starting hex, tokens(my pieces "
                             "in it))`"))
    return out


def segment_issues(node) -> list[Issue]:
    """Rules of a whole segment (not of a fragment): a Kiwibot push comes after a Kiwibot move, whose piece pushes
    (R-SOLO-10)."""
    out: list[Issue] = []
    moved = False
    for sub in walk(node):
        if isinstance(sub, Phrase) and sub.primitive in MOVES:
            moved = True
        elif isinstance(sub, Phrase) and sub.primitive == "bot-push" and not moved:
            out.append(Issue("dsl-context", "a Kiwibot push before any Kiwibot move: the piece it just moved pushes "
                             "(R-SOLO-10)", sub.span, "put a `bot moves ...` before it"))
    return out


def _named(sel: Selector) -> str:
    """What a selector names, for a message: "your hexes", "kiwi of any owner"."""
    kind = parts.kind_phrase(sel.kind or "")
    if sel.owner != "me" and sel.kind in _MOVABLE:
        return f"{kind} that are not all its own (write `my ...`)"
    return kind


def _selectors(node) -> Iterator[Selector]:
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
