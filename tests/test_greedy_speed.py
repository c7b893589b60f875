"""The greedy bot's speed-ups change nothing but speed: reusing a trial copy, the dominance weights cache and the
garbage-collection thresholds give exactly the games of cloning every time with default collection."""
from __future__ import annotations

import gc

import pytest

from kcd.analysis import bots, simrun
from kcd.content import load_ruleset
from kcd.analysis.sim import play_game, simulate


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_reusing_the_last_trial_copy_plays_the_same_games(ruleset, monkeypatch):
    reused: list[bool] = []
    real = bots._same_position

    def spy(copy, game):
        same = real(copy, game)
        reused.append(same)
        return same

    monkeypatch.setattr(bots, "_same_position", spy)
    with_reuse = [play_game(ruleset, ["red", "green"], seed, ("greedy",)) for seed in (3, 4)]
    assert any(reused)              # the copy was really used
    monkeypatch.setattr(bots, "_same_position", lambda copy, game: False)
    without = [play_game(ruleset, ["red", "green"], seed, ("greedy",)) for seed in (3, 4)]
    assert with_reuse == without


def test_a_copy_from_another_position_is_never_reused(ruleset):
    from kcd.engine import Game

    game = Game.new(ruleset, players=["red", "green"], seed=1)
    twin = bots.clone(game)
    assert bots._same_position(twin, game)
    twin.apply(twin.pending.options[0].id)
    assert not bots._same_position(twin, game)
    other = Game.new(ruleset, players=["red", "green"], seed=2)
    assert not bots._same_position(bots.clone(other), game)


def test_dominance_weights_follow_each_games_params(ruleset):
    from kcd.engine import Game
    from kcd.core import dominance

    game = Game.new(ruleset, players=["red", "green"], seed=1)
    state = game.state
    assert dominance._setup(state, "default")[1] == 3
    state.params = {**state.params, "dominance": {"default": {"kiwi": "size", "leader": 5, "nests": True}}}
    assert dominance._setup(state, "default")[1] == 5   # a new params dict: read again


def test_game_gc_thresholds_are_scoped(ruleset):
    before = gc.get_threshold()
    simulate(ruleset, 1, players=2, seed=0, bots=("random",))
    assert gc.get_threshold() == before
    with simrun.lean_gc():
        assert gc.get_threshold() == simrun.GAME_GC_THRESHOLD
    assert gc.get_threshold() == before
