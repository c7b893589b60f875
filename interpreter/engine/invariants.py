"""The invariants every reachable state keeps, one checker for the random-play tests and for loading a save.

Every flock's Kiwi tokens are on the track, in the reserve, on the island, under its domain markers or (Variable
Turn Order) on the turn tracker (R-COMP-2, R-RES-1, R-DM-3, R-TRACK-2, R-VTO-2); the fruit and markers are in the
bags, the reserves or on the island (R-COMP-1, R-PAY-1); no stack above the size limit (R-FEED-2/5); Leaders on
the island outside the advanced setup (R-LEAD-4); at most one marker and one Nest per hex, a marker on its own
terrain (R-DM-2/4, R-BUILD-1); hands within the limit; nobody above the fruit limit unless they are the one asked
to return fruit (R-LIMIT-1: the limit is enforced right after every gain, so once the game is over nobody is
above it). Under Variable Turn Order one token per flock on the tracker, on distinct slots, the turn order
following the slots (R-VTO-2..4); none on it in the standard game. Solo games (R-SOLO-1..9): Kiwibot never has the
pending decision, never holds fruit (unless the content gives it some) or a hand, its Action cards are its deck;
the Solo card pile is the dealt cards, in ascending order, at most one discarded per season; the Season cards
are the solo count, distinct. What belongs to a mode is the mode's `violations` (interpreter/modes).

Each line starts with the field it is about (`flocks/red/fruit: ...`), so a refused save names it.
"""
from __future__ import annotations

from kcd.engine import mode_registry as modes
from kcd.core.decisions import Decision
from kcd.content.rules import Rules
from kcd.core.state import State


def violations(state: State, rules: Rules, pending: Decision | None,
               leaderless: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Every broken invariant of `state` with `pending` the decision it waits for (None: none, or the game is over),
    as readable lines that start with the field (see the module docstring). `leaderless`: flocks of a game started
    from a hand-built position without their Leader on the island (interpreter/analysis/position.py: legal in a puzzle; a
    Leader never leaves the island in play, R-LEAD-4)."""
    # (plain dicts, not Counters: a save's load runs this twice)
    out: list[str] = []
    fruit = dict(state.fruit_bag)
    markers = dict(state.domain_bag)
    markers_on_island: dict[str, int] = {}
    nests: dict[tuple[str, str], int] = {}
    island_tokens: dict[str, int] = {}
    max_size = rules.max_size
    for h in state.hexes.values():
        for k in h.kiwi:
            island_tokens[k.flock] = island_tokens.get(k.flock, 0) + k.size
            if not 1 <= k.size <= max_size:
                out.append(f"hexes/{h.id}/kiwi: a {k.flock} Kiwi of size {k.size}")
            if k.flock not in state.flocks:
                out.append(f"hexes/{h.id}/kiwi: a Kiwi of {k.flock}, who is not playing")
        if h.domain is not None:
            owner, terrain = h.domain
            markers[terrain] = markers.get(terrain, 0) + 1
            markers_on_island[owner] = markers_on_island.get(owner, 0) + 1
            if terrain != h.terrain:
                out.append(f"hexes/{h.id}/domain: a {terrain} marker on {h.terrain}")
        if h.nest is not None:
            nests[h.nest] = nests.get(h.nest, 0) + 1
    for (flock, nest_id), n in nests.items():
        if n > 1:
            out.append(f"hexes: {flock}'s {nest_id} Nest is on {n} hexes")
    asked = pending.player if pending is not None else None
    returning = asked if pending is not None and pending.kind == "return-fruit" else None
    for flock_id in state.seats:
        f = state.flocks[flock_id]
        at = f"flocks/{flock_id}"
        for c, n in f.fruit.items():
            fruit[c] = fruit.get(c, 0) + n
        for t in f.domain:
            markers[t] = markers.get(t, 0) + 1
        island = island_tokens.get(flock_id, 0)
        counted = island + f.track + f.reserve_kiwi + f.covers + f.supply + f.on_tracker
        if counted != rules.kiwi_tokens:
            out.append(f"{at}: {counted} Kiwi tokens accounted for (island {island}, track {f.track}, reserve "
                       f"{f.reserve_kiwi}, covers {f.covers}, supply {f.supply}, tracker {f.on_tracker}), "
                       f"not {rules.kiwi_tokens}")
        if f.covers != markers_on_island.get(flock_id, 0):
            out.append(f"{at}/covers: {f.covers} covering tokens for {markers_on_island.get(flock_id, 0)} markers")
        if min([f.track, f.reserve_kiwi, f.covers, f.supply] + list(f.fruit.values())) < 0:
            out.append(f"{at}: a negative count")
        if state.phase != "setup" and f.leader_hex not in state.hexes and not (
                f.leader_hex is None and flock_id in leaderless):
            out.append(f"{at}/leader_hex: Leader not on the island ({f.leader_hex})")
        if len(f.hand) > rules.hand:
            out.append(f"{at}/hand: {len(f.hand)} cards in hand, the limit is {rules.hand}")
        held = sum(f.fruit.values())
        if held > rules.fruit_limit and flock_id != returning:
            out.append(f"{at}/fruit: {held} fruit, over the limit {rules.fruit_limit}, and no return of fruit "
                       f"is asked of {flock_id}")
        built = sorted(n for (owner, n), k in nests.items() for _ in range(k) if owner == flock_id)
        if len(set(f.nests_built)) != len(f.nests_built) or built != sorted(f.nests_built):
            out.append(f"{at}/nests_built: built {f.nests_built} but on the island {built}")
    if _nonzero(fruit) != _nonzero(rules.fruit_counts):
        out.append(f"fruit_bag: fruit {fruit} (bag and reserves) is not {rules.fruit_counts}")
    if _nonzero(markers) != _nonzero(rules.domain_counts):
        out.append(f"domain_bag: markers {markers} (bag, reserves, island) are not {rules.domain_counts}")
    try:
        mode = modes.for_state(state)
    except modes.ModeError as exc:
        return out + [f"mode: {exc}"]
    own: list[str] = mode.violations(state, rules, asked)   # the mode's own: the turn tracker, Kiwibot's bookkeeping
    return out + own


def _nonzero(counts: dict[str, int]) -> dict[str, int]:
    """The entries that are not 0 (a negative one stays, so it differs from any real count)."""
    return {k: v for k, v in counts.items() if v}
