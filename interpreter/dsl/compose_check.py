"""Checks of a whole bound field of the compositional layer: leader-ability rules and the work bound.

The work bound: every effect's worst-case number of elementary steps is computed before play, from the
largest island the engine accepts (MAX_HEXES) and the most pieces a game can hold; a `for each` multiplies
its body by the elements its selector can name, nested loops multiply, a selector's filters cost per element.
Content over WORK_LIMIT is refused with a located `dsl-bound` issue, so validated content cannot hang.
"""
from __future__ import annotations

from kcd.dsl.ast import (BinOp, Call, Choose, ChoosePlayer, During, Expr, ForEach, If, May, Node, Not, Num, Objective,
                                 Phrase, QCall, Repeat, Selector, Seq, Span, walk)
from kcd.dsl import parts, registry
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import CheckSite
from kcd.dsl.types import ability_issues

__all__ = ["after", "field_rules", "entry_issues", "work", "quantity_max", "WORK_LIMIT", "MAX_ELEMENTS"]

# Upper bounds on what a selector of each kind can name: 4 flocks x 20 Kiwi tokens, 4 Leaders, 4 x 6 Nests,
# every domain marker of the base game (56), the island's hexes (the largest layout has 4 sections of ~10
# hexes; 64 leaves room for mods), 4 players.
MAX_ELEMENTS = {"kiwi": 80, "leader": 4, "nest": 24, "marker": 56, "hex": 64, "player": 4}
WORK_LIMIT = 1_000_000
# the check hooks of the parts that have one (the `starting` reference), run over every bound field
_PART_CHECKS = tuple(p.check for p in parts.PARTS if p.check is not None)


def after(node: Node | None, field_kind: str, issues: list[Issue]) -> list[Issue]:
    """Issues found on the bound tree as a whole (none when the field already has errors): the check hooks of the
    entries it calls and of the parts that have one, then the work bound."""
    if issues or node is None:
        return []
    out = entry_issues(node, field_kind, whole=False)
    for check in _PART_CHECKS:
        out += check(node, field_kind)
    cost = work(node)
    if cost > WORK_LIMIT:
        span = getattr(node, "span", Span(0, 0))
        out.append(Issue("dsl-bound", f"this effect may take {cost:,} steps, over the limit of {WORK_LIMIT:,}",
                         _heaviest(node) or span, "nest fewer `for each` loops or narrow their selectors"))
    return out


def entry_issues(node: Node, field_kind: str, whole: bool) -> list[Issue]:
    """What the `check` hooks of the entries called in a bound tree find, call by call in text order."""
    out: list[Issue] = []
    before: list[Call | Phrase] = []
    for sub in walk(node):
        if not isinstance(sub, (Call, Phrase)) or not sub.primitive:
            continue
        prim = registry.BY_ID.get(sub.primitive)
        if prim is not None and prim.check is not None:
            out += prim.check(sub, CheckSite(field_kind, prim, whole, tuple(before)))
        before.append(sub)
    return out


def field_rules(node: Node | None, field_kind: str) -> list[Issue]:
    """Rules of a whole content field (not of a fragment): a leader card's ability moves the Leader once,
    first, and pushes only after that (R-LEAD-5/6); then the entries' check hooks over the whole field (a Solo
    card segment's Kiwibot pushes come after a Kiwibot move, R-SOLO-10). The loader applies them to every field."""
    if node is None:
        return []
    out = ability_issues(node) if field_kind == "ability" else []
    return out + entry_issues(node, field_kind, whole=True)


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


def _expr_cost(e: Expr) -> int:
    if isinstance(e, Selector):
        return _sel_cost(e)
    if isinstance(e, QCall):
        spec = parts.FUNCTIONS.get(e.name.text)
        if spec is not None and "each" in spec.args and isinstance(e.args[0], Selector):
            return 1 + _sel_cost(e.args[0]) + _named(e.args[0]) * _expr_cost(e.args[1])   # the quantity once per element
        return 1 + sum(_expr_cost(a) for a in e.args)
    if isinstance(e, BinOp):
        return 1 + _expr_cost(e.left) + _expr_cost(e.right)
    if isinstance(e, Not):
        return 1 + _expr_cost(e.cond)
    return 1


def quantity_max(e: Expr | int) -> int:
    """An upper bound on a quantity's value, before play: a number itself; a function what its part's `bound` hook
    says (dsl/parts.py: `count` the most elements of its selector's kind, `tokens` three per element, holdings
    their bound, `min` ... from their arguments' bounds); `+`, `-` from their operands'."""
    if isinstance(e, int):
        return max(e, 0)
    if isinstance(e, Num):
        return max(e.value, 0)
    if isinstance(e, BinOp):
        return quantity_max(e.left) + (quantity_max(e.right) if e.op == "+" else 0)
    if isinstance(e, QCall):
        spec = parts.FUNCTIONS.get(e.name.text)
        if spec is not None and spec.bound is not None:
            return spec.bound(e, _BOUNDS)
        return 1000 * _BOUNDS.players(e)
    return 1000


_BOUNDS = parts.QuantityBounds(quantity_max, _named, lambda kind: MAX_ELEMENTS.get(kind, 64))


def work(node: Node | None) -> int:
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


def _heaviest(node: Node) -> Span | None:
    """The span of the outermost `for each` (where the cost multiplies), if any."""
    if isinstance(node, ForEach):
        return node.span
    for child in _children(node):
        found = _heaviest(child)
        if found is not None:
            return found
    return None


def _children(node: Node) -> tuple[Node, ...]:
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
