"""Dominance (R-DOM-1/2): who counts how much in a hex, and who beats every other opponent.

Weights come from `state.params["dominance"]` (game.yaml `dominance` / `dominance_for`), so an
edition that counts the Leader as 1 (Z-4) is a content change. Flock powers `<pieces> count N for dominance` give
the pieces their selector names a weight of their own (`state.params["dominance_weights"]`, present only in
content with such a power): `scoped` below works them out, and content without them never calls it.

A Hex is an immutable value that a state's copies share, so the dominant flock of a hex with several pieces is kept
on the Hex itself (`Hex.memo`: the counting setup, the Leaders standing there, the result) by `dominant_all` and
`dominant`: a bot's trial copies, which differ from each other in a hex or two, count each such hex once. The memo
is exact (a Hex never changes; a different setup or other Leaders recount) and bounded (one entry per Hex, gone
with it); weights of flock powers, read on the whole state, are never kept.

On the native engine (kcd.core.native) the counting of `dominant_all`, `strengths` and `_kept` runs in the compiled
kernels, exact ports of `_counts` and `leader_of`; the code here stays the reference, and the weights of flock
powers are always worked out here.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Iterable

from kcd.core import native
from kcd.core.state import Hex, State, remember

_DEFAULT = {"kiwi": "size", "leader": 3, "nests": True}


def weights(state: State, purpose: str = "default") -> dict[str, Any]:
    """The counting weights for a purpose: default, build, marking or objective."""
    table = state.params.get("dominance", {})
    return table.get(purpose) or table.get("default") or _DEFAULT


# The weights of `<pieces> count N for dominance` powers on a state: {("kiwi", id) | ("leader", flock) | ("nest",
# hex): N}. Their selectors are evaluated by interpreter/engine/powers.py, which sets this hook: selectors sit above
# this module (their `dominated by` filter reads it), so it cannot import them. The checker refuses a dominance
# weight whose selector asks who dominates, so the hook never needs the counts it feeds.
scoped: Callable[[State], dict[tuple[str, Any], int]] | None = None


def _scoped(state: State) -> dict[tuple[str, Any], int]:
    """The state's piece weights from dominance-weight powers (the hook above)."""
    if scoped is None:
        raise RuntimeError("dominance weights of flock powers need kcd.engine.powers imported")
    return scoped(state)


def _counts(h: Hex, leaders_here: Iterable[str], by_size: bool, leader: int,
            nest_values: dict[str, int] | None) -> dict[str, int]:
    """Each flock's count in one hex: Kiwi (by size or one each), Leaders, the Nest's value (R-DOM-2)."""
    out: dict[str, int] = {}
    for k in h.kiwi:
        out[k.flock] = out.get(k.flock, 0) + (k.size if by_size else 1)
    for f in leaders_here:
        out[f] = out.get(f, 0) + leader
    if h.nest is not None and nest_values is not None:
        owner, nest_id = h.nest
        value = int(nest_values.get(nest_id, 0))
        if value:
            out[owner] = out.get(owner, 0) + value
    return out


def _weighted_counts(h: Hex, leaders_here: Iterable[str], by_size: bool, leader: int,
                     nest_values: dict[str, int] | None, over: dict[tuple[str, Any], int]) -> dict[str, int]:
    """`_counts` where the pieces dominance-weight powers name count their own weight (`over`, from `scoped`)."""
    out: dict[str, int] = {}
    for k in h.kiwi:
        out[k.flock] = out.get(k.flock, 0) + over.get(("kiwi", k.id), k.size if by_size else 1)
    for f in leaders_here:
        out[f] = out.get(f, 0) + over.get(("leader", f), leader)
    if h.nest is not None and nest_values is not None:
        owner, nest_id = h.nest
        value = over.get(("nest", h.id), int(nest_values.get(nest_id, 0)))
        if value:
            out[owner] = out.get(owner, 0) + value
    return out


# (params dict, purpose) -> its setup: a game's states share one params dict (its clones and checkpoints too),
# so the weights are read once per game and purpose. The entry holds the dict itself, so its id is not reused
# while cached; a few games at a time are live in one process.
# A game's engine is kept by its params dict (kcd.core.native), so the kernels to count with are part of the setup.
Setup = tuple[bool, int, dict[str, int] | None, bool, ModuleType | None]
_SETUPS: dict[tuple[int, str], tuple[dict[str, Any], Setup]] = {}


def _setup(state: State, purpose: str) -> Setup:
    """The counting weights of a purpose as (Kiwi by size, Leader weight, nest values or None when Nests do not
    count, whether dominance-weight powers exist, the native kernels or None on the Python engine)."""
    params = state.params
    hit = _SETUPS.get((id(params), purpose))
    if hit is not None and hit[0] is params:
        return hit[1]
    w = weights(state, purpose)
    nest_values = params.get("nest_dominance", {}) if w.get("nests", True) else None
    out = (w.get("kiwi", "size") != "one", int(w.get("leader", 3)), nest_values, bool(params.get("dominance_weights")),
           native.kernels_for(params))
    if len(_SETUPS) > 64:
        _SETUPS.clear()
    _SETUPS[(id(params), purpose)] = (params, out)
    return out


def compiled(state: State, purpose: str = "default") -> tuple[ModuleType, bool, int, dict[str, int] | None] | None:
    """(the native kernels, Kiwi by size, Leader weight, nest values or None) when the state's game runs on the
    native engine and no flock power weights pieces, else None (count here): for callers with a kernel of their
    own built on these counts (build and marking hexes)."""
    by_size, leader, nest_values, weighted, kernels = _setup(state, purpose)
    return None if kernels is None or weighted else (kernels, by_size, leader, nest_values)


def leaders_by_hex(state: State) -> dict[str, list[str]]:
    """{hex: the flocks whose Leader stands there, in seat order} (the hexes without a Leader left out)."""
    leaders: dict[str, list[str]] = {}
    for f in state.seats:
        where = state.flocks[f].leader_hex
        if where is not None:
            leaders.setdefault(where, []).append(f)
    return leaders


def weighted(state: State) -> bool:
    """Whether flock powers give some pieces weights of their own (then a caller asking about many hexes of one
    state does better with `dominant_all`, which works the weights out once)."""
    return _setup(state, "default")[3]


def strengths(state: State, hex_id: str, purpose: str = "default") -> dict[str, int]:
    """Each flock's count in a hex: Kiwi by size, Leader, Nests by their dominance value (R-DOM-2).

    `_counts` written out (Builds and markings ask it for hex after hex): Kiwi in the hex's order, then Leaders in
    seat order, then the Nest, so the dict's order is `_counts`' too."""
    by_size, leader, nest_values, weighted, kernels = _setup(state, purpose)
    h = state.hexes[hex_id]
    if weighted:
        return _weighted_counts(h, state.leaders_in(hex_id), by_size, leader, nest_values, _scoped(state))
    if kernels is not None:
        counted: dict[str, int] = kernels.counts(h, state.leaders_in(hex_id), by_size, leader, nest_values)
        return counted
    out: dict[str, int] = {}
    get = out.get
    for k in h.kiwi:
        out[k.flock] = get(k.flock, 0) + (k.size if by_size else 1)
    flocks = state.flocks
    for f in state.seats:
        if flocks[f].leader_hex == hex_id:
            out[f] = get(f, 0) + leader
    if h.nest is not None and nest_values is not None:
        owner, nest_id = h.nest
        value = int(nest_values.get(nest_id, 0))
        if value:
            out[owner] = get(owner, 0) + value
    return out


def dominant(state: State, hex_id: str, purpose: str = "default") -> str | None:
    """The flock that beats every other individual flock in the hex; a tie at the top gives nobody (R-DOM-1)."""
    h = state.hexes[hex_id]
    stack = h.kiwi
    if h.nest is None and len(stack) <= 1:
        # an empty hex, or one Kiwi alone (most hexes; selectors ask hex after hex): as `dominant_all` counts them
        flocks = state.flocks
        for f in state.seats:
            if flocks[f].leader_hex == hex_id:
                return leader_of(strengths(state, hex_id, purpose))
        if not stack:
            return None
        by_size, _, _, weighted, _ = _setup(state, purpose)
        if weighted:   # the Kiwi may have a weight of its own
            return leader_of(strengths(state, hex_id, purpose))
        k = stack[0]
        return k.flock if (k.size if by_size else 1) > 0 else None
    setup = _setup(state, purpose)
    if setup[3]:   # weights of flock powers: read on the whole state
        return leader_of(strengths(state, hex_id, purpose))
    flocks = state.flocks
    here = [f for f in state.seats if flocks[f].leader_hex == hex_id] or None   # as `dominant_all` lists them
    return _kept(h, here, setup)


def _kept(h: Hex, here: list[str] | None, setup: Setup) -> str | None:
    """The dominant flock of a hex with several pieces under `setup` (`_setup`, without flock-power weights) with
    the Leaders `here`, kept on the Hex (`Hex.memo`, one entry that `dominant` and `dominant_all` share)."""
    memo = h.memo
    if memo is not None and memo[0] is setup and memo[1] == here:
        kept: str | None = memo[2]   # the slot holds (setup, here, the flock _kept found)
        return kept
    kernels = setup[4]
    if kernels is not None:
        top: str | None = kernels.dominant(h, here, setup[0], setup[1], setup[2])
    else:
        top = leader_of(_counts(h, here or (), setup[0], setup[1], setup[2]))
    remember(h, (setup, here, top))
    return top


def leader_of(counts: dict[str, int]) -> str | None:
    """The single highest count's flock, or None on a tie or when empty (R-DOM-1)."""
    best, best_n, tied = None, 0, False
    for flock, n in counts.items():
        if n > best_n:
            best, best_n, tied = flock, n, False
        elif n == best_n and n > 0:
            tied = True
    return None if tied or best_n <= 0 else best


def dominant_all(state: State, purpose: str = "default") -> dict[str, str | None]:
    """{hex: dominant flock or None} for every hex in one pass (the same counts as `strengths`, R-DOM-1/2);
    for callers that need every hex at once (bots' evaluation, queries), without a per-hex setup cost."""
    setup = _setup(state, purpose)
    by_size, leader, nest_values, weighted, kernels = setup
    leaders: dict[str, list[str]] = {}
    for f in state.seats:
        where = state.flocks[f].leader_hex
        if where is not None:
            leaders.setdefault(where, []).append(f)
    if weighted:   # the pieces dominance-weight powers name: weights worked out once for the island
        over = _scoped(state)
        return {hex_id: leader_of(_weighted_counts(h, leaders.get(hex_id, ()), by_size, leader, nest_values, over))
                for hex_id, h in state.hexes.items()}
    if kernels is not None:   # every hex counted in the compiled kernel (no memo: counting there is cheaper)
        table: dict[str, str | None] = kernels.dominant_all(state.hexes, leaders, by_size, leader, nest_values)
        return table
    out: dict[str, str | None] = {}
    for hex_id, h in state.hexes.items():
        here = leaders.get(hex_id)
        if not h.kiwi and h.nest is None and here is None:
            out[hex_id] = None
            continue
        if here is None and h.nest is None and len(h.kiwi) == 1:
            # one Kiwi alone (the commonest case): its flock dominates (a size-0 count never does)
            k = h.kiwi[0]
            out[hex_id] = k.flock if (k.size if by_size else 1) > 0 else None
            continue
        # a hex with several pieces: its result under these weights and these Leaders is kept on the Hex (immutable,
        # shared by a state's copies: a bot's trial copies count each such hex once, not once a copy)
        out[hex_id] = _kept(h, here, setup)
    return out
