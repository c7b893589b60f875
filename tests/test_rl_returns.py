"""Returns from the ranking (R-END-2, R-END-3, R-SOLO-6) and the shaped VP-difference reward
(interpreter/rl/rewards.py), and the search helpers: the public determiniser is the mcts bot's own, and
`Game.clone(keep_rng=False)` hands a search a new RNG while the default clone keeps the game's."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest

import kcd.analysis.mcts
import kcd.rl
from kcd.analysis.bots import RandomBot
from kcd.content import load_ruleset
from kcd.analysis.determinize import determinize
from kcd.engine import Game
from kcd.rl import returns, shaped_reward, vp_difference


@lru_cache(maxsize=1)
def ruleset() -> Any:
    return load_ruleset()


def _finished(players: list[str], seed: int, **kw: Any) -> Game:
    game = Game.new(ruleset(), players=players, seed=seed, **kw)
    bot = RandomBot(seed)
    while not game.is_over:
        game.apply(bot.choose(game))
    return game


def _level(game: Game, flocks: list[str]) -> Game:
    """A copy whose `flocks` score nothing and have no tiebreaker left: fully tied (R-END-3)."""
    twin = game.clone()
    st = twin.state
    for h in list(st.hexes.values()):
        st.set_kiwi(h.id, [k for k in h.kiwi if k.flock not in flocks])
        if h.domain is not None and h.domain[0] in flocks:
            st.set_domain(h.id, None)
        if h.nest is not None and h.nest[0] in flocks:
            st.set_nest(h.id, None)
    for f in flocks:
        fl = st.flocks[f]
        fl.nests_built, fl.season_vp, fl.domain = [], 0, []
    return twin


def test_two_players_get_plus_and_minus_one_and_a_tie_splits() -> None:
    """R-END-2: the winner +1, the loser -1; a full tie (same VP and tiebreakers, R-END-3) is 0 each."""
    for seed in range(3):
        game = _finished(["red", "green"], seed)
        got = returns(game)
        first, second = game.ranking()
        assert got == {first: 1.0, second: -1.0}
        assert returns(_level(game, ["red", "green"])) == {"red": 0.0, "green": 0.0}
    running = Game.new(ruleset(), players=["red", "green"], seed=1)
    assert returns(running) == {"red": 0.0, "green": 0.0}


def test_more_players_spread_from_plus_to_minus_one_and_ties_share_their_places() -> None:
    """4 players: +1, +1/3, -1/3, -1 by the ranking, summing to 0; two fully tied players share the mean."""
    game = _finished(["red", "green", "purple", "yellow"], 4)
    got = returns(game)
    order = game.ranking()
    assert [got[f] for f in order] == pytest.approx([1, 1 / 3, -1 / 3, -1])
    assert sum(got.values()) == pytest.approx(0)
    tied = _level(game, order[:2])   # the top two lose everything and tie each other
    after = returns(tied)
    a, b = order[:2]
    assert after[a] == after[b] and sum(after.values()) == pytest.approx(0)
    three = returns(_finished(["red", "green", "purple"], 5))
    assert sorted(three.values()) == pytest.approx([-1, 0, 1])


def test_solo_returns_follow_the_ranking_where_kiwibot_wins_ties() -> None:
    """R-SOLO-6: the player gets +1 only when ranked above Kiwibot."""
    game = _finished(["red", "green"], 6, mode="solo")
    got = returns(game)
    player = game.readonly_state.mode_state.player
    assert got[player] == (1.0 if game.ranking()[0] == player else -1.0)


def test_the_shaped_reward_adds_up_to_the_final_vp_difference() -> None:
    """Potential-based shaping: the sum of the step rewards is the VP difference at the end."""
    game = Game.new(ruleset(), players=["red", "green", "purple"], seed=8)
    bot = RandomBot(8)
    total, before = 0.0, vp_difference(game, "red")
    while not game.is_over:
        game.apply(bot.choose(game))
        after = vp_difference(game, "red")
        total += shaped_reward(before, after)
        before = after
    scores = game.scores()
    want = scores["red"]["total"] - (scores["green"]["total"] + scores["purple"]["total"]) / 2
    assert total == pytest.approx(want) and want == pytest.approx(vp_difference(game, "red"))


def test_the_public_determiniser_is_the_mcts_bots_own() -> None:
    """One determiniser: kcd.rl exposes the one interpreter/analysis/mcts.py searches with."""
    assert kcd.rl.determinize is determinize is kcd.analysis.mcts.determinize


def test_a_clone_for_search_gets_a_new_rng_and_the_default_clone_keeps_it() -> None:
    """clone() is exact (same RNG: the goldens and current callers); clone(keep_rng=False, rng=...) has the same
    state but an RNG drawn from the searcher's rng (the same rng state gives the same copy), so future draws differ."""
    game = Game.new(ruleset(), players=["red", "green"], seed=3)
    exact = game.clone()
    assert exact.readonly_state.to_dict() == game.readonly_state.to_dict()
    a = game.clone(keep_rng=False, rng=random.Random(1))
    b = game.clone(keep_rng=False, rng=random.Random(1))
    c = game.clone(keep_rng=False)
    for other in (a, c):
        data, real = other.readonly_state.to_dict(), game.readonly_state.to_dict()
        assert data.pop("rng") != real.pop("rng") and data == real
    assert a.readonly_state.rng == b.readonly_state.rng
    # the same choices soon draw differently (a card draw, a bag draw)
    play = random.Random(3)
    differ = False
    for _ in range(300):
        if game.is_over or a.is_over:
            break
        option = play.choice(game.pending.options).id
        assert game.apply(option).ok
        if a.apply(option).ok is False or a.readonly_state.to_dict() != {**game.readonly_state.to_dict(),
                                                                          "rng": a.readonly_state.rng}:
            differ = True
            break
    assert differ


def test_reading_the_state_through_readonly_state_keeps_checkpoints_lazy() -> None:
    """`readonly_state` is the live state; unlike `state` it does not make the game take every checkpoint."""
    game = Game.new(ruleset(), players=["red", "green"], seed=3)
    assert game.readonly_state is game.rt.state
    fresh = Game.new(ruleset(), players=["red", "green"], seed=3)
    fresh.readonly_state.seats
    assert fresh._touched is False and game._touched is True
