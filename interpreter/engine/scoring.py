"""Final scoring (R-END-2) and tiebreakers (R-END-3), from plain state."""
from __future__ import annotations

from kcd.engine import mode_registry as modes
from kcd.core.state import State


def score(state: State, placed: dict[str, int] | None = None) -> dict[str, dict[str, int]]:
    """{flock: {domain, nests, season_cards, total}}: markers on the island, Nest VP, Season card VP.

    The game's mode adds its own VP (`Mode.score_extras`): solo games (R-SOLO-6) add a `solo` key to every
    flock, Kiwibot's VP for unplaced domain markers (one per `domain_per_vp`), 0 for the player, and Kiwibot's
    `season_cards` also counts `vp_per_kept_card` per kept card. `placed` (each seat's markers on the island,
    `placed_markers`) may be given by a caller that counted them in its own pass over the island.
    """
    mode = modes.for_state(state)
    vp_per_marker = int(state.params.get("domain_vp", 1))
    nest_vp = state.params.get("nest_vp", {})
    if placed is None:
        placed = placed_markers(state)
    out = {}
    for f in state.seats:
        domain = vp_per_marker * placed[f]
        nests = sum(int(nest_vp.get(n, 0)) for n in state.flocks[f].nests_built)
        season = state.flocks[f].season_vp
        out[f] = {"domain": domain, "nests": nests, "season_cards": season, "total": domain + nests + season}
        mode.score_extras(state, f, out[f])
    return out


def placed_markers(state: State) -> dict[str, int]:
    """Each seat's domain markers on the island (one pass over it: this runs in every bot lookahead)."""
    placed = dict.fromkeys(state.seats, 0)
    for h in state.hexes.values():
        if h.domain is not None and h.domain[0] in placed:
            placed[h.domain[0]] += 1
    return placed


def tiebreak(state: State, flock: str, sizes: dict[tuple[str, int], int] | None = None) -> tuple[int, ...]:
    """The tiebreak key, larger is better: size-3, size-2, size-1 Kiwi, unused markers (R-END-3). `sizes`:
    {(flock, size): Kiwi on the island} when the caller counted them already (`_kiwi_sizes`).

    Decision R-END-3: only Kiwi count; the Leader (a size-3 Kiwi only for Season cards, R-SCARD-4) does not.
    """
    if sizes is None:
        sizes = _kiwi_sizes(state)
    key = []
    for item in state.params.get("tiebreak", ["size3", "size2", "size1", "unused_domain"]):
        if item.startswith("size"):
            key.append(sizes.get((flock, int(item[4:])), 0))
        elif item == "unused_domain":
            key.append(len(state.flocks[flock].domain))
        else:
            raise ValueError(f"unknown tiebreak `{item}` in game.yaml scoring.tiebreak")
    return tuple(key)


def _kiwi_sizes(state: State) -> dict[tuple[str, int], int]:
    """{(flock, size): how many of the flock's Kiwi of that size stand on the island}, in one pass."""
    out: dict[tuple[str, int], int] = {}
    for h in state.hexes.values():
        for k in h.kiwi:
            key = (k.flock, k.size)
            out[key] = out.get(key, 0) + 1
    return out


def ranking(state: State) -> list[str]:
    """Flocks from first to last: total VP, then the tiebreakers; still tied keeps seat order; then the game's
    mode may change it (`Mode.ranking`)."""
    sc = score(state)
    sizes = _kiwi_sizes(state)
    order = sorted(state.seats, key=lambda f: (-sc[f]["total"], tuple(-x for x in tiebreak(state, f, sizes)),
                                               state.seats.index(f)))
    ranked: list[str] = modes.for_state(state).ranking(state, sc, order)   # the registry holds modes untyped (Any)
    return ranked
