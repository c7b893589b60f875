"""Checks of a whole bound field of the compositional layer: leader-ability rules and the work bound.

The work bound: every effect's worst-case number of elementary steps is computed before play, from the
largest island the engine accepts (MAX_HEXES) and the most pieces a game can hold; a `for each` multiplies
its body by the elements its selector can name, nested loops multiply, a selector's filters cost per element.
Content over WORK_LIMIT is refused with a located `dsl-bound` issue, so validated content cannot hang.
"""
from __future__ import annotations

from kcd.dsl.ast import (BinOp, Call, Choose, ChoosePlayer, During, ForEach, If, May, Not, Num, Objective, Phrase,
                                 QCall, Repeat, Selector, Seq, Span, exprs)
from kcd.dsl import parts
from kcd.dsl.errors import Issue
from kcd.dsl.types import ability_issues

__all__ = ["after", "field_rules", "work", "quantity_max", "WORK_LIMIT", "MAX_ELEMENTS"]

# Upper bounds on what a selector of each kind can name: 4 flocks x 20 Kiwi tokens, 4 Leaders, 4 x 6 Nests,
# every domain marker of the base game (56), the island's hexes (the largest layout has 4 sections of ~10
# hexes; 64 leaves room for mods), 4 players.
MAX_ELEMENTS = {"kiwi": 80, "leader": 4, "nest": 24, "marker": 56, "hex": 64, "player": 4}
WORK_LIMIT = 1_000_000


def after(node, field_kind: str, issues: list[Issue]) -> list[Issue]:
    """Issues found on the bound tree as a whole (none when the field already has errors)."""
    if issues or node is None:
        return []
    out: list[Issue] = []
    if field_kind == "modifier" and getattr(node, "primitive", None) == "m-dominance-weight":
        out += _dominance_weight_issues(node)
    if field_kind == "modifier" and getattr(node, "primitive", None) == "m-feed-discount":
        what = node.arg("what")
        if what.kind in ("leader", "nest", "marker"):
            out.append(Issue("dsl-arg-type", f"only Kiwi are fed (R-FEED-1, R-LEAD-3), not {parts.kind_phrase(what.kind)}",
                             what.span, "name Kiwi: `feeding my kiwi in grass hexes costs 1 fruit less`"))
    if field_kind == "solo":   # what Kiwibot's verbs may be given (dsl/solo_check.py)
        from kcd.dsl.solo_check import solo_issues
        out += solo_issues(node)
    cost = work(node)
    if cost > WORK_LIMIT:
        span = getattr(node, "span", Span(0, 0))
        out.append(Issue("dsl-bound", f"this effect may take {cost:,} steps, over the limit of {WORK_LIMIT:,}",
                         _heaviest(node) or span, "nest fewer `for each` loops or narrow their selectors"))
    return out


def _dominance_weight_issues(node: Phrase) -> list[Issue]:
    """A dominance weight names pieces that count for dominance, and never asks who dominates: dominance reads the
    weight, so a selector (or quantity) with `dominated by` would ask for the count it is part of."""
    who, n = node.arg("who"), node.arg("n")
    out: list[Issue] = []
    if who.kind == "marker":
        out.append(Issue("dsl-arg-type", "domain markers do not count for dominance", who.span,
                         "name Kiwi, Leaders or Nests: `my nests count 1 for dominance`"))
    for part in (who, n):
        for e in exprs(part):
            for f in (e.filters if isinstance(e, Selector) else ()):
                if f.op == "dominated":
                    out.append(Issue("dsl-context", "a dominance weight cannot depend on dominance: `dominated by` "
                                     "asks for the count this weight is part of", f.span,
                                     "name the pieces by owner, size, terrain or where they stand: "
                                     "`my kiwi in flower hexes count 2 for dominance`"))
    return out


def field_rules(node, field_kind: str) -> list[Issue]:
    """Rules of a whole content field (not of a fragment): a leader card's ability moves the Leader once,
    first, and pushes only after that (R-LEAD-5/6); a Solo card segment's Kiwibot pushes come after a Kiwibot
    move (R-SOLO-10). The loader applies them to every `ability` and `solo` field."""
    if node is not None and field_kind == "solo":   # a Kiwibot push follows a Kiwibot move (dsl/solo_check.py)
        from kcd.dsl.solo_check import segment_issues
        return segment_issues(node)
    if node is None or field_kind != "ability":
        return []
    return ability_issues(node)


_SINGLE_REFS = frozenset({"here", "it", "landing", "starting", "chosen"})


def _n(sel: Selector) -> int:
    """The most elements a selector can name: one for a reference to one hex or element (`this hex`, `it`, `the
    landing hex`, a chosen player), else the most of its kind."""
    if sel.ref in _SINGLE_REFS or (sel.ref or "").startswith("flock:"):
        return 1
    return MAX_ELEMENTS.get(sel.kind or "hex", 64)


def _named(sel: Selector) -> int:
    """The most elements a selector names once its filters narrowed it: `_n`, or fewer when a filter keeps only
    the hexes (or pieces) next to a few hexes (`hexes adjacent to the starting hex`: 6 a hex named; `within N of`:
    the 3N(N+1) hexes around each)."""
    n = _n(sel)
    for f in sel.filters:
        if f.op in ("adjacent", "within") and f.arg is not None and sel.kind == "hex":
            ring = 6 if f.op == "adjacent" else 3 * (f.n or 0) * ((f.n or 0) + 1) + 1
            n = min(n, ring * _named(f.arg))
    return n


def _sel_cost(sel: Selector) -> int:
    """Steps to evaluate a selector as the engine does (selectors.py): its candidates, then each filter: the
    filter's own selector once, a test per remaining element, and a `where` condition once per element."""
    n = _n(sel)
    cost = n
    for f in sel.filters:
        if f.arg is not None:
            cost += _sel_cost(f.arg)
        cost += n * (1 + (_expr_cost(f.cond) if f.cond is not None else 0))
    return cost


def _expr_cost(e) -> int:
    if isinstance(e, Selector):
        return _sel_cost(e)
    if isinstance(e, QCall):
        if e.name.text in ("largest", "smallest") and isinstance(e.args[0], Selector):
            return 1 + _sel_cost(e.args[0]) + _named(e.args[0]) * _expr_cost(e.args[1])   # the quantity once per element
        return 1 + sum(_expr_cost(a) for a in e.args)
    if isinstance(e, BinOp):
        return 1 + _expr_cost(e.left) + _expr_cost(e.right)
    if isinstance(e, Not):
        return 1 + _expr_cost(e.cond)
    return 1


# The most a player's holdings can reach, for quantities over them: every Fruit of a 4-player bag (designed bound:
# the base bag holds 60), every domain marker, and Victory Points (a game scores far below it).
_HOLDING_MAX = {"fruit": 120, "domain": MAX_ELEMENTS["marker"], "vp": 1000}


def quantity_max(e) -> int:
    """An upper bound on a quantity's value, before play: a number itself; `count` the most elements of its
    selector's kind, `tokens` three per element (a Leader counts 3, R-SCARD-4), holdings their bound; `+`, `-`,
    `min`, `max`, `largest`, `smallest` from their arguments' bounds."""
    if isinstance(e, int):
        return max(e, 0)
    if isinstance(e, Num):
        return max(e.value, 0)
    if isinstance(e, BinOp):
        return quantity_max(e.left) + (quantity_max(e.right) if e.op == "+" else 0)
    if isinstance(e, QCall):
        name = e.name.text
        if name in ("min", "max"):
            a, b = quantity_max(e.args[0]), quantity_max(e.args[1])
            return min(a, b) if name == "min" else max(a, b)
        if name in ("largest", "smallest"):
            return quantity_max(e.args[1])
        sel = e.args[0] if e.args else None
        n = _named(sel) if isinstance(sel, Selector) else 64
        if name == "count":
            return n
        if name == "tokens":
            return 3 * n
        return _HOLDING_MAX.get(name, 1000) * (n if isinstance(sel, Selector) and sel.kind == "player" else 1)
    return 1000


def work(node) -> int:
    """An upper bound on the elementary steps of an effect (see the module doc)."""
    if node is None:
        return 0
    if isinstance(node, Seq):
        return sum(work(s) for s in node.stmts)
    if isinstance(node, Choose):
        return len(node.options) + max((work(o) for o in node.options), default=0)
    if isinstance(node, May):
        return 1 + work(node.body)
    if isinstance(node, ChoosePlayer):
        return _sel_cost(node.sel) + 1 + work(node.body)
    if isinstance(node, During):
        return 1 + work(node.body)
    if isinstance(node, Repeat):
        return node.count * work(node.body)
    if isinstance(node, If):
        return _expr_cost(node.cond) + max(work(node.then), work(node.orelse))
    if isinstance(node, ForEach):
        loops = _named(node.sel)
        if isinstance(node.cap, Num):
            loops = min(loops, node.cap.value)
        return _sel_cost(node.sel) + loops * (1 + work(node.body))
    if isinstance(node, Phrase):
        cost = 1
        for _, value in node.args:
            if isinstance(value, Selector):
                cost += _sel_cost(value) * 2   # evaluated, then each element acted on
            elif isinstance(value, (QCall, BinOp, Num)):
                cost += _expr_cost(value)
        return cost
    if isinstance(node, Objective):
        return _expr_cost(node.query) if isinstance(node.query, (QCall, BinOp)) else 1
    if isinstance(node, Call):
        return 1
    return 1


def _heaviest(node) -> Span | None:
    """The span of the outermost `for each` (where the cost multiplies), if any."""
    if isinstance(node, ForEach):
        return node.span
    for child in _children(node):
        found = _heaviest(child)
        if found is not None:
            return found
    return None


def _children(node):
    if isinstance(node, Seq):
        return node.stmts
    if isinstance(node, Choose):
        return node.options
    if isinstance(node, (May, Repeat, ChoosePlayer)):
        return (node.body,)
    if isinstance(node, During):
        return (node.body,) if node.body is not None else ()
    if isinstance(node, If):
        return (node.then,) + ((node.orelse,) if node.orelse is not None else ())
    return ()
