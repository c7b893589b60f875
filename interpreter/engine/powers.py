"""Powers of the compositional DSL read where a rule is applied: parameterised modifiers (`push limit N`,
`<pieces> cannot be pushed`, `feeding <pieces> costs N fruit less`, `<pieces> count N for dominance`) and whether a
Leader's `leader jumps to <hexes>` has somewhere to go. A leaf module (selectors, dominance and the rules only), so
push, feed, move and setup read it at module level while compose.py, which runs effects, sits above them; it hands
dominance the evaluation of dominance weights (`dominance.scoped`), which dominance cannot import.
"""
from __future__ import annotations

import threading
from typing import Any

from kcd.dsl import ast
from kcd.content.rules import Rules
from kcd.core import dominance
from kcd.engine.context import EngineError, Runtime
from kcd.engine.selectors import Element, Scope, mentions_it, quantity, select
from kcd.core.state import State
from kcd.core.memo import per_object

__all__ = ["dominance_weights", "push_limit", "immune", "feed_discount", "feed_discounts", "ability_possible", "table", "names"]

# a bound modifier of a power or of a `this action:` (its values: `node.arg("n")`)
Modifier = ast.Call | ast.Phrase
# what a rule is applied to: `("kiwi", id)`, `("leader", flock)` or `("nest", hex)`
Piece = tuple[str, Any]
# {flock: {side: [(who selector, n)]}} of the dominance-weight powers, and their plain data ([who, n] lists)
WeightNodes = dict[str, dict[str, list[tuple[ast.Selector, ast.Expr | int]]]]
WeightData = dict[str, dict[str, list[list[Any]]]]


def ability_possible(rt: Runtime, flock: str, node: ast.Phrase) -> bool:
    """Whether a Leader movement phrase has somewhere to go from the Leader's hex."""
    if node.primitive != "leader-jump-to":
        return True
    start = rt.state.flocks[flock].leader_hex
    sc = Scope(flock, starting=start)
    return any(e[0] == "hex" and e[1] != start for e in select(rt.state, node.arg("dest"), sc))



# --- modifiers with values ------------------------------------------------------------------------------

def dominance_weights(rules: Rules) -> WeightData:
    """{flock: {side: [[who, n], ...]}} of the `<pieces> count N for dominance` powers, the selector and the number
    as plain data (ast.to_data), for `State.params`: dominance reads them off the state alone ({} when none, so
    the params and saves of content without them are as they were)."""
    out: WeightData = {}
    for flock, sides in rules.flocks.items():
        for side, sd in sides.items():
            for p in sd.powers:
                if p.modifier == "m-dominance-weight" and p.modifier_node is not None:
                    node = p.modifier_node
                    out.setdefault(flock, {}).setdefault(side, []).append(
                        [ast.to_data(node.arg("who")), ast.to_data(node.arg("n"))])
    return out


# set while a thread works out piece weights (games may run in threads: a Dask worker's pool, a server)
_EVALUATING = threading.local()


@per_object(64)
def _weight_nodes(table: WeightData) -> WeightNodes:
    """{flock: {side: [(who selector, n)]}} rebuilt from the params' plain data, once per game."""
    nodes: WeightNodes = {flock: {side: [(ast.from_data(who), ast.from_data(n)) for who, n in entries]
                                  for side, entries in sides.items()} for flock, sides in table.items()}
    return nodes


def _piece_weights(state: State) -> dict[Piece, int]:
    """The weights dominance-weight powers give pieces on this state: {("kiwi", id) | ("leader", flock) |
    ("nest", hex): N}, each power's selector and number read with `me` its owner (flocks in seat order, then
    their powers in order: a later one naming the same piece wins). Set as dominance.scoped."""
    if getattr(_EVALUATING, "on", False):
        # validated content cannot get here (compose_check refuses `dominated by` in a dominance weight)
        raise EngineError("a dominance weight's selector asks who dominates, which needs the weight itself")
    nodes = _weight_nodes(state.params["dominance_weights"])
    out: dict[Piece, int] = {}
    _EVALUATING.on = True
    try:
        for flock in state.seats:
            entries = nodes.get(flock, {}).get(state.flocks[flock].side)
            for who, n in entries or ():
                sc = Scope(flock)
                each = per_piece(n)   # `tokens(it) + 1`: the number of each piece named
                value = 0 if each else quantity(state, n, sc)
                for el in select(state, who, sc):
                    kind, hex_id, thing = el
                    if each:
                        value = quantity(state, n, sc.at(el))
                    if kind == "kiwi":
                        out[("kiwi", thing.id)] = value
                    elif kind == "leader":
                        out[("leader", thing)] = value
                    elif kind == "nest":
                        out[("nest", hex_id)] = value
    finally:
        _EVALUATING.on = False
    return out


dominance.scoped = _piece_weights


@per_object(256)
def per_piece(n: Any) -> bool:
    """Whether a modifier's number names `it`, the piece its selector names (`my kiwi count tokens(it) + 1 for
    dominance`): then it is read for each piece."""
    return not isinstance(n, int) and any(isinstance(e, ast.Selector) and mentions_it(e) for e in ast.exprs(n))


def _number(rt: Runtime, flock: str, n: Any, el: Element | None = None) -> int:
    """A modifier's `n`: a number, or a quantity read now with `me` the power's owner (`count(my nests)`) and `it`
    the piece `el` the rule is applied to."""
    return n if isinstance(n, int) else quantity(rt.state, n, Scope(flock, it=el))


def push_limit(rt: Runtime, flock: str, piece: Piece | None = None,
               during: tuple[Modifier, ...] = ()) -> int:
    """How many Kiwi a moved piece of this flock may push (R-PUSH-1; `<pieces> can push up to N kiwi` powers
    whose selector names the piece, `("kiwi", id)` or `("leader", flock)`, then those of a `this action:`)."""
    nodes = [n for n in _valued(rt, flock, "m-push-limit") + [d for d in during if d.primitive == "m-push-limit"]
             if piece is None or _names(rt, flock, n, piece)]
    if not nodes:
        return rt.rules.push_count
    n = nodes[-1].arg("n")
    return _number(rt, flock, n, _element(rt, flock, nodes[-1], piece) if piece and per_piece(n) else None)


def node_names(rt: Runtime, flock: str, node: Modifier, piece: Piece) -> bool:
    """Whether one bound modifier of the flock names the piece (`("kiwi", id)`, `("leader", flock)`, `("nest", hex)`)."""
    return _names(rt, flock, node, piece)


def names(rt: Runtime, flock: str, modifier: str, piece: Piece) -> bool:
    """Whether one of the flock's powers with this modifier id names the piece: `("kiwi", id)`,
    `("leader", flock)` or `("nest", hex)` (the Nest in that hex)."""
    return any(_names(rt, flock, node, piece) for node in _valued(rt, flock, modifier))


def _names(rt: Runtime, flock: str, node: Modifier, piece: Piece) -> bool:
    sel = next((v for _, v in node.args if isinstance(v, ast.Selector)), None)
    return sel is None or _element(rt, flock, node, piece) is not None


def _element(rt: Runtime, flock: str, node: Modifier, piece: Piece) -> Element | None:
    """The element of the piece (`("kiwi", id)`, `("leader", flock)`, `("nest", hex)`) the modifier's selector names
    (None: it does not name it)."""
    sel = next((v for _, v in node.args if isinstance(v, ast.Selector)), None)
    if sel is None:
        return None
    kind, key = piece
    for e in select(rt.state, sel, Scope(flock)):
        if e[0] == kind and (e[2].id == key if kind == "kiwi" else e[2] == key if kind == "leader" else e[1] == key):
            return e
    return None


def table(rules: Rules) -> dict[str, dict[tuple[str, str], list[Any]]]:
    """{modifier or trigger id: {(flock, side): [bound nodes]}} of the rules' powers, built once per Rules
    (the hot paths, push options and every feed, ask it; most content has none of these powers)."""
    table = rules.compose_table
    if table:
        return table
    table["@built"] = {}
    for flock, sides in rules.flocks.items():
        for side, sd in sides.items():
            for p in sd.powers:
                if p.modifier_node is not None and p.modifier:
                    table.setdefault(p.modifier, {}).setdefault((flock, side), []).append(p.modifier_node)
                if p.trigger:
                    table.setdefault(p.trigger, {}).setdefault((flock, side), []).append(p)
    return table


def _valued(rt: Runtime, flock: str, modifier: str) -> list[Modifier]:
    """The bound nodes of one flock's powers with this modifier id (its current board side)."""
    by_side = table(rt.rules).get(modifier)
    if not by_side:
        return []
    return by_side.get((flock, rt.state.flocks[flock].side), [])


def immune(rt: Runtime, cause: str | None = None) -> tuple[set[int], set[str]] | None:
    """Kiwi ids and Leader flocks no one may push (`<pieces> cannot be pushed`), and with a `cause` (abilities,
    moves, explosions, effects) those `<pieces> cannot be pushed by <cause>` names too; None when no power says so."""
    powers = table(rt.rules)
    if "m-immune" not in powers and (cause is None or "m-immune-by" not in powers):
        return None
    kiwi: set[int] = set()
    leaders: set[str] = set()
    found = False
    for flock in rt.state.seats:
        nodes = _valued(rt, flock, "m-immune")
        if cause is not None:
            # the cause is the last word of its phrase (`leader abilities`: abilities)
            nodes = nodes + [n for n in _valued(rt, flock, "m-immune-by") if n.arg("by")[-1] == cause]
        for node in nodes:
            found = True
            for kind, _, thing in select(rt.state, node.arg("who"), Scope(flock)):
                if kind == "kiwi":
                    kiwi.add(thing.id)
                elif kind == "leader":
                    leaders.add(thing)
    return (kiwi, leaders) if found else None


def feed_discounts(rt: Runtime, flock: str | None) -> dict[int, int] | None:
    """{Kiwi id: fruit off} of this flock's Feed actions (`feeding <pieces> costs N fruit less` powers, each
    selector read once: several naming a Kiwi add up; a Kiwi none names is absent); None for content without
    them, so the Feed options of other content cost nothing more."""
    if flock is None:
        return None
    nodes = _valued(rt, flock, "m-feed-discount")
    if not nodes:
        return None
    out: dict[int, int] = {}
    for node in nodes:
        each = per_piece(node.arg("n"))
        n = 0 if each else _number(rt, flock, node.arg("n"))
        for el in select(rt.state, node.arg("what"), Scope(flock)):
            if el[0] == "kiwi":
                off = _number(rt, flock, node.arg("n"), el) if each else n
                out[el[2].id] = out.get(el[2].id, 0) + off
    return out


def feed_discount(rt: Runtime, flock: str | None, kiwi: int) -> int:
    """Fruit off this flock's Feed action on the Kiwi with this piece id (0 for content without such powers)."""
    offs = feed_discounts(rt, flock)
    return offs.get(kiwi, 0) if offs else 0
