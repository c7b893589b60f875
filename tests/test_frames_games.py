"""States that copy: in random games, at random moments, `clone()` and a save/load continue
exactly like the original, decision for decision; decisions inside procedures written as explicit frames are
copied and saved without any replay (`Game.replayed_steps` stays put)."""
from __future__ import annotations

import json
import random
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_support import ruleset

from kcd.engine import Game
from kcd.engine.machine import Cont

# the decisions the procedures converted to frames ask (actions, effects, payment, build, feed, marking, flow,
# setup, Variable Turn Order); move, push, placing and the solo procedures are another helper's (frames2)
FRAME_KINDS = {"card", "play-mode", "pay", "return-fruit", "return-domain", "choose", "may", "build-hex",
               "build-nest", "feed", "mark", "cover", "nest-order", "season-tie", "tracker-slot", "setup-leader",
               "setup-place", "setup-grow"}

_GAMES = st.sampled_from([
    dict(players=["red", "green"]), dict(players=["red", "green", "purple"]),
    dict(players=["red", "green", "purple", "yellow"]), dict(players=["yellow", "red", "green"], variant="vto"),
    dict(players=["green", "red"], mode="solo"), dict(players=["purple", "yellow"], setup="advanced"),
    dict(players=["red", "green", "purple", "yellow"], sides={"red": "B", "green": "B", "purple": "B", "yellow": "B"}),
])


def _log(game: Game) -> list[dict]:
    return [e.to_dict() for e in game.events]


def _same_future(original: Game, copies: list[Game], rng: random.Random, decisions: int) -> None:
    """Apply the same random options to all; after each, every copy's save and log equal the original's."""
    for _ in range(decisions):
        if original.is_over:
            break
        pending = original.pending
        option = rng.choice(pending.options).id
        for game in [original] + copies:
            assert game.pending == pending
            assert game.apply(option).ok
        text = original.to_json()
        for game in copies:
            assert game.to_json() == text
    for game in copies:
        assert _log(game) == _log(original) and game.history == original.history


@settings(max_examples=30, deadline=timedelta(seconds=20), suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(kw=_GAMES, seed=st.integers(0, 10_000), moment=st.integers(0, 400))
def test_clone_and_save_load_continue_like_the_original(kw: dict, seed: int, moment: int) -> None:
    """At a random moment of a random game: a clone, an events-free clone, a load and a verified load all go on
    decision for decision like the original (same pending decisions, states, saves and logs)."""
    game = Game.new(ruleset(), seed=seed, **kw)
    rng = random.Random(seed)
    for _ in range(moment):
        if game.is_over:
            break
        assert game.apply(rng.choice(game.pending.options).id).ok
    text = game.to_json()
    copies = [game.clone(), Game.from_json(ruleset(), text), Game.from_json(ruleset(), text, verify=True)]
    lookahead = game.clone(events=False)
    assert lookahead.to_json() == text and lookahead.pending == game.pending
    assert all(c.to_json() == text for c in copies)
    _same_future(game, copies, random.Random(seed + 1), 60)


def test_decisions_inside_frame_procedures_are_copied_and_saved_without_replay() -> None:
    """Four-player standard games: at every decision of a converted procedure whose step runs no generator
    procedure, clone, to_json and from_json replay nothing; the copies then go on like the original."""
    seen: set[str] = set()
    for seed in (1, 2):
        game = Game.new(ruleset(), ["red", "green", "purple", "yellow"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.pending.kind in FRAME_KINDS and all(type(f) is Cont for f in game._stack):
                seen.add(game.pending.kind)
                before = Game.replayed_steps
                twin = game.clone()
                loaded = Game.from_json(ruleset(), game.to_json())
                assert Game.replayed_steps == before, game.pending.kind
                _same_future(game.clone(), [twin, loaded], random.Random(seed), 3)
            assert game.apply(rng.choice(game.pending.options).id).ok
    assert {"card", "play-mode", "pay", "mark", "cover"} <= seen, seen


def test_every_first_decision_of_a_turn_copies_without_replay() -> None:
    """The card choice that opens every Actions turn and every Domain Marking question: frames only."""
    game = Game.new(ruleset(), ["red", "green", "purple", "yellow"], seed=9)
    rng = random.Random(9)
    asked = 0
    while not game.is_over:
        if game.pending.kind in ("card", "play-mode", "mark"):
            asked += 1
            assert all(type(f) is Cont for f in game._stack), [type(f).__name__ for f in game._stack]
            data = json.loads(game.to_json())
            assert data["frames"] and data["pending"]["kind"] == game.pending.kind
        assert game.apply(rng.choice(game.pending.options).id).ok
    assert asked > 40
