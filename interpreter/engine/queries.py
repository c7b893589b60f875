"""Season card objectives: query ids -> counting functions (R-SCARD-4: Leader = a size-3 Kiwi / 3 tokens,
a Nest counts as `dominance` size-1 Kiwi / tokens, i.e. a Control Nest 2)."""
from __future__ import annotations

from typing import Callable

from interpreter.dsl import ast
from interpreter.engine import dominance
from interpreter.engine.context import EngineError
from interpreter.engine.selectors import Scope, quantity
from interpreter.engine.state import State


def _nest_value(state: State, h) -> tuple[str | None, int]:
    if h.nest is None:
        return None, 0
    owner, nest_id = h.nest
    return owner, int(state.params.get("nest_dominance", {}).get(nest_id, 0))


def _leader_weight(state: State) -> int:
    return int(dominance.weights(state, "objective").get("leader", 3))


def _tokens(state: State, h, flock: str | None, leader_weight: int | None = None) -> int:
    """Tokens in a hex for objectives; flock None = every player's. `leader_weight`: the objective Leader weight
    when the caller counts many hexes (read once, not per hex: this runs in every bot lookahead)."""
    if flock is None:
        n = sum(k.size for k in h.kiwi)
    else:
        n = sum(k.size for k in h.kiwi if k.flock == flock)
    hex_id = h.id
    leaders = 0
    for f in state.seats:
        if state.flocks[f].leader_hex == hex_id and (flock is None or f == flock):
            leaders += 1
    if leaders:
        n += (_leader_weight(state) if leader_weight is None else leader_weight) * leaders
    if h.nest is not None:
        owner, value = _nest_value(state, h)
        if flock is None or owner == flock:
            n += value
    return n


def _max_size(state: State) -> int:
    return int(state.params.get("max_size", 3))


def q_nests(state: State, flock: str, call: ast.Call) -> int:
    """Nests of the flock on the island."""
    return sum(1 for h in state.hexes.values() if h.nest is not None and h.nest[0] == flock)


def q_kiwi_size(state: State, flock: str, call: ast.Call) -> int:
    """Own Kiwi of size s; the Leader is a size-3 Kiwi, a Nest `dominance` size-1 Kiwi (R-SCARD-4)."""
    s = int(call.arg("s"))
    n = sum(1 for h in state.hexes.values() for k in h.kiwi if k.flock == flock and k.size == s)
    if s == _max_size(state) and state.flocks[flock].leader_hex is not None:
        n += 1
    if s == 1:
        n += sum(_nest_value(state, h)[1] for h in state.hexes.values() if h.nest is not None and h.nest[0] == flock)
    return n


def q_tokens_terrain(state: State, flock: str, call: ast.Call) -> int:
    """Own tokens in hexes of a terrain."""
    t = call.arg("t")
    weight = _leader_weight(state)
    return sum(_tokens(state, h, flock, weight) for h in state.hexes.values() if h.terrain == t)


def q_tokens_leader(state: State, flock: str, call: ast.Call) -> int:
    """All players' tokens in the hex of the flock's Leader."""
    where = state.flocks[flock].leader_hex
    return _tokens(state, state.hexes[where], None) if where else 0


def q_tokens_single(state: State, flock: str, call: ast.Call) -> int:
    """The flock's most tokens in any single hex."""
    weight = _leader_weight(state)
    return max((_tokens(state, h, flock, weight) for h in state.hexes.values()), default=0)


def q_dominated(state: State, flock: str, call: ast.Call) -> int:
    """Hexes where the flock has dominance (R-DOM-1), counted as game.yaml `season_cards.dominated_hexes` says
    (the weights of building, marking or the general figure; Z-4 makes them differ in the prototype)."""
    return sum(1 for owner in dominance.dominant_all(state, "dominated_hexes").values() if owner == flock)


def q_lone(state: State, flock: str, call: ast.Call) -> int:
    """Hexes holding exactly one Kiwi of the flock (Leader a Kiwi, a Nest its `dominance` Kiwi, R-SCARD-4)."""
    total = 0
    for h in state.hexes.values():
        n = sum(1 for k in h.kiwi if k.flock == flock)
        n += 1 if state.flocks[flock].leader_hex == h.id else 0
        owner, value = _nest_value(state, h)
        n += value if owner == flock else 0
        total += n == 1
    return total


QUERIES: dict[str, Callable[[State, str, ast.Call], int]] = {
    "q-nests": q_nests, "q-kiwi-size": q_kiwi_size, "q-tokens-terrain": q_tokens_terrain,
    "q-tokens-leader": q_tokens_leader, "q-tokens-single": q_tokens_single, "q-dominated": q_dominated,
    "q-lone": q_lone,
}


def evaluate(state: State, query_node: ast.Call | ast.Objective, flock: str) -> int:
    """The flock's count for a query (or an objective's query)."""
    call = query_node.query if isinstance(query_node, ast.Objective) else query_node
    if isinstance(call, ast.QCall):   # a compositional objective: `most count(my nests)`
        return quantity(state, call, Scope(flock, purpose="objective"))
    if not isinstance(call, ast.Call):   # the first language's queries are plain word calls (registry kind query)
        raise EngineError(f"an objective cannot count a {type(call).__name__}")
    fn = QUERIES.get(call.primitive or "")
    if fn is None:
        raise EngineError(f"unknown query `{call.primitive}`")
    return fn(state, flock, call)


def winners(state: State, objective: ast.Objective, flocks: list[str]) -> tuple[list[str], dict[str, int]]:
    """The flocks best on an objective (most/least) and every flock's value."""
    values = {f: evaluate(state, objective, f) for f in flocks}
    best = (max if objective.direction == "most" else min)(values.values())
    return [f for f in flocks if values[f] == best], values
