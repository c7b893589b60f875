"""The compositional layer as explicit frames: in games of the `compose` mod,
whose leaders, powers, Nest, Wildcard, Season cards and tracker slot run `if`, `for each`, phrases and filtered
triggers, every decision's stack holds frames only, so `clone()` and a save/load copy the step without replay
(`Game.replayed_steps` stays put) and go on exactly like the original."""
from __future__ import annotations

import json
import random

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.engine.machine import Cont

_RS = load_ruleset(["compose"])


def _game(seed: int) -> Game:
    players = ["teal", "green", "red"]
    return Game.new(_RS, players=players, seed=seed, leaders={"teal": "kotare", "green": "kotare", "red": "chopan"},
                    sides={p: "B" for p in players}, variant="vto" if seed % 2 else None)


def _pick(game: Game, rng: random.Random):
    ability = [o for o in game.pending.options if o.id == "ability"]
    return ability[0] if ability and rng.random() < 0.7 else rng.choice(game.pending.options)


def test_compose_steps_are_frames_copied_and_saved_without_replay() -> None:
    checked = 0
    for seed in range(4):
        game, rng = _game(seed), random.Random(seed)
        while not game.is_over:
            assert all(type(f) is Cont for f in game._stack), (seed, game.pending.kind)
            if checked % 7 == 0:
                before = Game.replayed_steps
                twin = game.clone()
                loaded = Game.from_json(_RS, game.to_json())
                assert Game.replayed_steps == before
                assert json.loads(twin.to_json()) == json.loads(game.to_json())
                assert loaded.pending.option_ids() == game.pending.option_ids()
                option = _pick(game, random.Random(checked))
                for g in (game, twin, loaded):
                    assert g.apply(option.action).ok
                assert twin.to_json() == game.to_json() and loaded.pending == game.pending
            else:
                assert game.apply(_pick(game, rng).action).ok
            checked += 1
    assert checked > 500
