"""Returns and rewards for learning agents, from the engine's final ranking (R-END-2, R-END-3).

`returns(game)`: {flock: return} once the game is over (all 0.0 before). The ranking (total VP, then the R-END-3
tiebreakers; solo games: the player beats Kiwibot only with more VP, R-SOLO-6) is turned into values spread
evenly from +1 for first to -1 for last: place i of n (0-based) is worth 1 - 2i/(n-1), so 2 players get +1/-1 and
4 players +1, +1/3, -1/3, -1, and every game's returns sum to 0. Players the ranking cannot separate (the same
total and the same tiebreakers) share their places: each gets the mean of their places' values (a 2-player tie
is 0/0). In a solo game the one learning seat gets +1 for a win and -1 for a loss.

`vp_difference(game, player)`: the player's VP minus the mean VP of the others (the final scoring applied to the
position now: markers on the island, Nests, Season cards). `shaped_reward(before, after)` is its change over a
step; summed over a game it adds up to the final VP difference (potential-based shaping: it changes how fast a
learner sees progress, not which policy is best). The PettingZoo environment gives it with `shaped=True`, scaled
by `shaping`, on top of the final returns.
"""
from __future__ import annotations

from kcd.engine.game import Game
from kcd.engine.scoring import score, tiebreak


def returns(game: Game) -> dict[str, float]:
    """{flock: final return} (see the module docstring); zeros while the game runs."""
    st = game.readonly_state
    if not st.over:
        return dict.fromkeys(st.seats, 0.0)
    order = game.ranking()
    n = len(order)
    if n == 1:
        return {order[0]: 1.0}
    value = [1.0 - 2.0 * i / (n - 1) for i in range(n)]
    scores = score(st)
    # against the engine's own seat (solo: Kiwibot, who wins VP ties, R-SOLO-6) the mode's ranking decided ties
    by_mode = bool(game.mode.engine_flocks(st))
    key = {f: (scores[f]["total"], tiebreak(st, f)) for f in order}
    out: dict[str, float] = {}
    i = 0
    while i < n:
        j = i + 1
        while not by_mode and j < n and key[order[j]] == key[order[i]]:
            j += 1
        share = sum(value[i:j]) / (j - i)
        for f in order[i:j]:
            out[f] = share
        i = j
    return out


def vp_difference(game: Game, player: str) -> float:
    """The player's VP now minus the mean VP of the others."""
    st = game.readonly_state
    scores = score(st)
    others = [scores[f]["total"] for f in st.seats if f != player]
    return float(scores[player]["total"]) - (sum(others) / len(others) if others else 0.0)


def shaped_reward(before: float, after: float) -> float:
    """The shaped reward of a step: the change of `vp_difference` from `before` to `after`."""
    return after - before
