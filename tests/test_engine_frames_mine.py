"""Move, push, placing and solo procedures as explicit frames: their games copy and save without
replay, and a copy or a loaded save goes on exactly like the original, also inside Kiwibot's Solo card segments."""
from __future__ import annotations

import random

import pytest
from test_engine_support import ruleset

from kcd.engine import Game
from kcd.engine.machine import Cont
from kcd.modes.solo.moves import Segment


def _segment_on_stack(game: Game) -> bool:
    """True when a continuation on the stack holds a context resolving a Kiwibot segment."""
    return any(isinstance(getattr(f.env.get("ctx"), "mode_ctx", None), Segment) for f in game._stack)


def _same_future(a: Game, b: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if a.is_over:
            assert b.is_over
            return
        assert a.pending_ids() == b.pending_ids()
        choice = rng.choice(a.pending_ids())
        ea, eb = a.apply(choice), b.apply(choice)
        assert [e.text for e in ea.events] == [e.text for e in eb.events]
    assert a.state.to_dict() == b.state.to_dict()


@pytest.mark.parametrize("players,kw", [
    (["red", "green", "purple", "yellow"], {}),
    (["red", "green", "purple"], {"variant": "vto"}),
    (["red", "green"], {"setup": "advanced", "sides": {"red": "B", "green": "B"}}),
    (["green", "red"], {"mode": "solo"}),
    (["purple", "yellow"], {"mode": "solo", "solo_side": "player-side", "setup": "advanced"}),
])
def test_every_decision_copies_and_saves_without_replay(players, kw):
    """No generator frame is ever on the stack at a decision; clone and from_json never fall back to replaying the
    step, and both continue decision for decision like the original."""
    replayed = Game.replayed_steps
    for seed in (1, 2):
        game = Game.new(ruleset(), players=players, seed=seed, **kw)
        rng = random.Random(seed)
        n = 0
        while not game.is_over:
            assert all(type(f) is Cont for f in game._stack), [type(f).__name__ for f in game._stack]
            if n % 9 == 0:
                twin, loaded = game.clone(), Game.from_json(ruleset(), game.to_json())
                _same_future(twin, game.clone(), random.Random(n), 12)
                _same_future(loaded, game.clone(), random.Random(n), 12)
            game.apply(rng.choice(game.pending_ids()))
            n += 1
    assert Game.replayed_steps == replayed


def test_a_save_inside_kiwibots_segment_goes_on_identically():
    """The player asked during Kiwibot's turn (Kiwibot feeds or pushes the player's Kiwi): the stack holds the
    segment's frames and its Segment plan; a clone and a load copy them and continue identically."""
    found = 0
    for seed in range(40):
        game = Game.new(ruleset(), players=["red", "green"], seed=seed, mode="solo")
        rng = random.Random(seed)
        while not game.is_over and found < 3:
            if _segment_on_stack(game):
                found += 1
                replayed = Game.replayed_steps
                twin, loaded = game.clone(), Game.from_json(ruleset(), game.to_json())
                assert Game.replayed_steps == replayed
                _same_future(twin, game.clone(), random.Random(seed), 40)
                _same_future(loaded, game.clone(), random.Random(seed), 40)
            game.apply(rng.choice(game.pending_ids()))
        if found >= 3:
            break
    assert found >= 1
