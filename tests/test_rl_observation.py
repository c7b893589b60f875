"""Observation and information-state tensors (interpreter/rl/observation.py) leak nothing and say what they
publish: resampling what a player cannot see (interpreter/determinize.py `resample`: other hands and decks, cards
played face down R-ACT-2, face-down domain markers and the bag R-DM-1, Kiwibot's deck, the Solo pile and face-down
Season cards R-SOLO-1..4, the RNG) leaves both tensors identical, at many moments of standard, Variable Turn Order
and solo games; the planes and vectors match the state; no label or log text is built."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from kcd.content import load_ruleset
from kcd.determinize import resample
from kcd.engine import Game, decisions
from kcd.rl import action_space, information_state_tensor, observation_space, observation_tensor

GAMES = [("2p", {"players": ["red", "green"], "seed": 21}),
         ("4p", {"players": ["red", "green", "purple", "yellow"], "seed": 22}),
         ("vto", {"players": ["red", "green", "purple"], "seed": 23, "variant": "vto"}),
         ("solo", {"players": ["red", "green"], "seed": 24, "mode": "solo"})]


@lru_cache(maxsize=1)
def ruleset() -> Any:
    return load_ruleset()


def _hidden(game: Game, player: str) -> tuple:
    """What `player` cannot see (to show a resample changed something)."""
    st = game.readonly_state
    return (st.rng, tuple((f, tuple(fl.hand), tuple(fl.deck), tuple(fl.domain)) for f, fl in st.flocks.items()
                          if f != player), tuple(st.flocks[player].deck))


@pytest.mark.parametrize("label,kwargs", GAMES, ids=[g[0] for g in GAMES])
def test_tensors_are_the_same_on_every_deal_the_player_cannot_tell_apart(label: str, kwargs: dict) -> None:
    """At every 4th decision (2nd in solo), for every seat: 3 resampled deals give the same observation and information state,
    and most deals did change hidden information."""
    game = Game.new(ruleset(), **kwargs)
    play, deal = random.Random(kwargs["seed"]), random.Random(7)
    bot = game.readonly_state.solo["bot"] if label == "solo" else None
    seats = [f for f in game.readonly_state.seats if f != bot]
    checked = changed = n = 0
    every = 2 if label == "solo" else 4   # a solo game asks the player alone: fewer decisions
    while not game.is_over:
        if n % every == 0:
            for player in seats:
                obs, info = observation_tensor(game, player), information_state_tensor(game, player)
                for _ in range(3):
                    twin = game.clone()
                    resample(twin.state, player, twin.rules, deal)
                    changed += _hidden(twin, player) != _hidden(game, player)
                    assert np.array_equal(observation_tensor(twin, player), obs), (label, n, player)
                    assert np.array_equal(information_state_tensor(twin, player), info), (label, n, player)
                    checked += 1
                other = game.clone(keep_rng=False, rng=deal)
                assert np.array_equal(observation_tensor(other, player), obs)
        game.apply(play.choice(game.pending.options).id)
        n += 1
    assert checked > 60 and changed > checked * 0.9


@pytest.mark.parametrize("label,kwargs", GAMES, ids=[g[0] for g in GAMES])
def test_the_tensors_kept_between_calls_are_the_ones_built_from_nothing(label: str, kwargs: dict) -> None:
    """The space keeps the last board and rewrites only what changed (observation.py `_Board`): at every decision
    of a game, observed by the seats in a shuffled order, interleaved with a clone one decision ahead and with a
    second game, both tensors equal those of a space that never saw a game (R-ACT-2, R-DM-1, R-END-1 and
    R-SOLO-4 shown as the layout says: the built-from-nothing path is the one the layout test checks)."""
    game, other = Game.new(ruleset(), **kwargs), Game.new(ruleset(), **{**kwargs, "seed": kwargs["seed"] + 100})
    space = observation_space(game)
    play, order = random.Random(kwargs["seed"]), random.Random(3)
    bot = game.readonly_state.solo["bot"] if label == "solo" else None
    seats = [f for f in game.readonly_state.seats if f != bot]
    checked = 0
    while not game.is_over:
        ahead = game.clone()
        ahead.apply(play.choice(ahead.pending.options).id)
        for player in order.sample(seats, len(seats)):
            for g in (game, ahead, other) if checked % 5 == 0 else (game,):
                fresh = type(space)(ruleset(), len(seats) if bot is None else 2)
                assert np.array_equal(space.observation_tensor(g, player), fresh.observation_tensor(g, player))
                fresh = type(space)(ruleset(), len(seats) if bot is None else 2)
                assert np.array_equal(space.information_state_tensor(g, player),
                                      fresh.information_state_tensor(g, player))
                checked += 1
        game.apply(play.choice(game.pending.options).id)
        if not other.is_over:
            other.apply(play.choice(other.pending.options).id)
    assert checked > 60


def test_the_tensors_show_the_state_in_the_published_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shapes as published; Kiwi planes count every Kiwi by seat and size, the hand vector is the own hand, the
    other hands only as a count; seat 0 is the observer; no option label is built by the mask and tensors."""
    game = Game.new(ruleset(), players=["red", "green", "purple"], seed=5)
    play = random.Random(5)
    for _ in range(40):
        game.apply(play.choice(game.pending.options).id)
    space = observation_space(game)
    st = game.readonly_state
    for player in st.seats:
        obs = observation_tensor(game, player)
        assert obs.shape == space.shape and obs.dtype == np.float32
        assert information_state_tensor(game, player).shape == (space.information_state_size,)
        planes = space.planes_of(obs)
        order = space.seat_order(game, player)
        assert order[0] == player
        for s, flock in enumerate(order):
            for size in range(1, game.rules.max_size + 1):
                row = planes[space.planes.index(f"kiwi/{s}/{size}")]
                want = [sum(1 for k in st.hexes[h].kiwi if k.flock == flock and k.size == size) for h in space.hexes]
                assert row.tolist() == want
        fields = {name: (start, length) for name, start, length in space.vector_fields}
        start, length = fields["hand"]
        assert obs[start:start + length].tolist() == [st.flocks[player].hand.count(c) for c in space.cards]
        start, _ = fields["seat1/hand_count"]
        assert obs[start] == len(st.flocks[order[1]].hand)
        start, length = fields["seat0/fruit"]
        assert obs[start:start + length].tolist() == [st.flocks[player].fruit.get(c, 0) for c in game.rules.fruits]
    assert not np.array_equal(observation_tensor(game, st.seats[0]), observation_tensor(game, st.seats[1]))
    fresh = Game.new(ruleset(), players=["red", "green"], seed=9)
    built: list[int] = []   # labels and prompts built from their Texts: the tensors read none
    text = decisions._text
    monkeypatch.setattr(decisions, "_text", lambda value: built.append(1) or text(value))
    action_space(fresh).legal_mask(fresh)
    observation_tensor(fresh, "red")
    information_state_tensor(fresh, "red")
    assert built == [] and all(not isinstance(o.stored_label, str) for o in fresh.pending.options)


def test_a_bad_player_is_a_clear_error() -> None:
    """An observer who is not playing is refused by name."""
    game = Game.new(ruleset(), players=["red", "green"], seed=1)
    with pytest.raises(ValueError, match="unknown player `teal`"):
        observation_tensor(game, "teal")
