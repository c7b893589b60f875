"""Step checkpoints built when read (interpreter/engine/game.py `Checkpoint`): exactly the state at the step's start.

Most steps do not copy the state when they start; a save, undo within the step or the generator fallback builds the
checkpoint then by replaying the decisions since the last one taken. These tests play the same games twice, once
with every checkpoint taken at once (a game whose `state` was read takes them so, since the reader may change it)
and once without, and compare the saves, clones and undos at random moments.
"""
from __future__ import annotations

import json
import random

import pytest
from test_engine_support import ruleset

from kcd.engine import Game
from kcd.engine.game import CHECKPOINT_EVERY, Checkpoint

GAMES = [
    ("standard", dict(players=["red", "green", "purple", "yellow"]), 11),
    ("vto", dict(players=["red", "green", "purple"], variant="vto"), 12),
    ("advanced", dict(players=["green", "yellow"], setup="advanced"), 13),
    ("solo", dict(players=["red", "green"], mode="solo"), 14),
]


def _pair(kw: dict, seed: int) -> tuple[Game, Game]:
    lazy = Game.new(ruleset(), seed=seed, **kw)
    eager = Game.new(ruleset(), seed=seed, **kw)
    eager.state   # noqa: B018 - reading the state makes every later checkpoint be taken at once
    return lazy, eager


@pytest.mark.parametrize("name,kw,seed", GAMES, ids=[g[0] for g in GAMES])
def test_checkpoints_built_when_read_are_those_taken_at_once(name: str, kw: dict, seed: int) -> None:
    """Saves (checkpoint included), clones' saves and undo within a step are the same with and without the copies
    at each step start, at random moments of whole games (standard, VTO, advanced setup, solo)."""
    lazy, eager = _pair(kw, seed)
    r = random.Random(seed)
    built = 0
    while not eager.is_over:
        assert lazy._checkpoint.start == eager._checkpoint.start == eager.step_start
        if r.random() < 0.08:
            built += not lazy._checkpoint.taken
            assert lazy.clone().to_json() == eager.to_json()   # the clone builds the shared checkpoint
            assert lazy.to_json() == eager.to_json()
        if r.random() < 0.03 and lazy.step_depth >= 2:
            twin, other = lazy.clone(), eager.clone()
            assert twin.undo(force=True).ok and other.undo(force=True).ok
            assert twin.to_json() == other.to_json()
        option = r.choice(eager.pending.options).id
        assert lazy.apply(option).ok and eager.apply(option).ok
    assert lazy.to_json() == eager.to_json()
    assert built > 0   # some checkpoints really were built by replay


def test_few_checkpoints_are_taken_at_once_and_each_replays_a_bounded_number_of_decisions() -> None:
    """A game nobody reads the state of takes a checkpoint at once only every CHECKPOINT_EVERY decisions or so."""
    game = Game.new(ruleset(), players=["red", "green", "purple", "yellow"], seed=5)
    r = random.Random(5)
    steps = taken = 0
    last = None
    while not game.is_over:
        cp = game._checkpoint
        if cp is not last:
            steps += 1
            taken += cp.taken
            assert cp.taken or cp.start - cp.base.start < CHECKPOINT_EVERY
            last = cp
        game.apply(r.choice(game.pending.options).id)
    assert steps > 40 and taken <= steps // 3


def test_a_state_read_or_handed_in_makes_checkpoints_be_taken_at_once() -> None:
    """Whoever holds the state may change it outside the flow (tests, position tools): then a checkpoint replayed
    from an earlier one would miss the change, so such games take every checkpoint at once; so does a clone's first
    step after the state of the game it copies was read."""
    game = Game.new(ruleset(), players=["red", "green"], seed=3)
    st = game.state
    st.flocks["red"].fruit["red"] = st.flocks["red"].fruit.get("red", 0) + 1   # outside the flow
    r = random.Random(3)
    first = game._checkpoint   # the step running when the state was read began before
    for _ in range(30):
        game.apply(r.choice(game.pending.options).id)
        assert game._checkpoint is first or game._checkpoint.taken   # from the live state, change included
    assert json.loads(game.to_json())["checkpoint"] == game._checkpoint.data()
    copy = game.clone()
    assert copy._base is None and not copy._touched
    start = copy._checkpoint
    while copy._checkpoint is start:
        copy.apply(r.choice(copy.pending.options).id)
    new = copy._checkpoint   # taken at once, or built from one the copy took itself, never from the game's
    assert new.taken or new.base is not game._base and new.base.start > start.start


def test_same_compares_without_building() -> None:
    """`Checkpoint.same` (the greedy bot's position match) builds nothing and never says True for different steps."""
    game = Game.new(ruleset(), players=["red", "green", "purple"], seed=8)
    r = random.Random(8)
    for _ in range(12):
        game.apply(r.choice(game.pending.options).id)
    copy = game.clone(events=False)
    option = game.pending.options[0].id
    start = game.step_start
    while game.step_start == start:   # cross into a new step on both
        option = game.pending.options[0].id
        assert game.apply(option).ok and copy.apply(option).ok
    a, b = game._checkpoint, copy._checkpoint
    if not a.taken:
        assert a.same(b) and not a.taken and not b.taken
    assert a.same(b)
    assert not Checkpoint({"x": 1}, 0).same(Checkpoint({"x": 2}, 0))
