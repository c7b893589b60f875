"""Powers of the compositional DSL read where a rule is applied: parameterised modifiers (`push limit N`,
`<pieces> cannot be pushed`, `feed costs N fruit less`, `my leader counts N for dominance`) and whether a
Leader's `leader jumps to <hexes>` has somewhere to go. A leaf module (selectors and the rules only), so push,
feed, move and setup read it at module level while compose.py, which runs effects, sits above them.
"""
from __future__ import annotations

from interpreter.dsl import ast
from interpreter.engine.context import Runtime
from interpreter.engine.selectors import Scope, select

__all__ = ["leader_weights", "push_limit", "immune", "feed_discount", "ability_possible", "table", "names"]


def ability_possible(rt: Runtime, flock: str, node: ast.Phrase) -> bool:
    """Whether a Leader movement phrase has somewhere to go from the Leader's hex."""
    if node.primitive != "leader-jump-to":
        return True
    start = rt.state.flocks[flock].leader_hex
    sc = Scope(flock, starting=start)
    return any(e[0] == "hex" and e[1] != start for e in select(rt.state, node.arg("dest"), sc))



# --- modifiers with values ------------------------------------------------------------------------------

def leader_weights(rules) -> dict:
    """{flock: {side: weight}} of `my leader counts N for dominance` powers ({} when none: params unchanged)."""
    out: dict = {}
    for flock, sides in rules.flocks.items():
        for side, sd in sides.items():
            for p in sd.powers:
                if p.modifier == "m-leader-weight" and p.modifier_node is not None:
                    out.setdefault(flock, {})[side] = int(p.modifier_node.arg("n"))
    return out


def push_limit(rt: Runtime, flock: str, piece: tuple | None = None) -> int:
    """How many Kiwi a moved piece of this flock may push (R-PUSH-1; `<pieces> can push up to N kiwi` powers
    whose selector names the piece, `("kiwi", id)` or `("leader", flock)`)."""
    nodes = [n for n in _valued(rt, flock, "m-push-limit") if piece is None or _names(rt, flock, n, piece)]
    return int(nodes[-1].arg("n")) if nodes else rt.rules.push_count


def names(rt: Runtime, flock: str, modifier: str, piece: tuple) -> bool:
    """Whether one of the flock's powers with this modifier id names the piece: `("kiwi", id)`,
    `("leader", flock)` or `("nest", hex)` (the Nest in that hex)."""
    return any(_names(rt, flock, node, piece) for node in _valued(rt, flock, modifier))


def _names(rt: Runtime, flock: str, node, piece: tuple) -> bool:
    sel = next((v for _, v in node.args if isinstance(v, ast.Selector)), None)
    if sel is None:
        return True
    kind, key = piece
    for e in select(rt.state, sel, Scope(flock)):
        if e[0] == kind and (e[2].id == key if kind == "kiwi" else e[2] == key if kind == "leader" else e[1] == key):
            return True
    return False


def table(rules) -> dict:
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


def _valued(rt: Runtime, flock: str, modifier: str) -> list:
    """The bound nodes of one flock's powers with this modifier id (its current board side)."""
    by_side = table(rt.rules).get(modifier)
    if not by_side:
        return []
    return by_side.get((flock, rt.state.flocks[flock].side), [])


def immune(rt: Runtime) -> tuple[set[int], set[str]] | None:
    """Kiwi ids and Leader flocks no one may push (`<pieces> cannot be pushed`); None when no power says so."""
    if "m-immune" not in table(rt.rules):
        return None
    kiwi: set[int] = set()
    leaders: set[str] = set()
    found = False
    for flock in rt.state.seats:
        for node in _valued(rt, flock, "m-immune"):
            found = True
            for kind, _, thing in select(rt.state, node.arg("who"), Scope(flock)):
                if kind == "kiwi":
                    kiwi.add(thing.id)
                elif kind == "leader":
                    leaders.add(thing)
    return (kiwi, leaders) if found else None


def feed_discount(rt: Runtime, flock: str | None) -> int:
    """Fruit off a Feed action's cost for this flock (`feed costs N fruit less`)."""
    if flock is None:
        return 0
    return sum(int(node.arg("n")) for node in _valued(rt, flock, "m-feed-discount"))
