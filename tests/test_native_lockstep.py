"""The native engine plays the same games as the Python machine: random games of every mode (standard 2-4
players, Variable Turn Order, solo), the prototype edition and each shipped mod, on both engines side by side, the
same random answer given to both, with the same decision (player, kind, option ids and labels) offered, the same
events and the same state JSON after every decision, and the same save at the end.

324 games (`GAMES` below) keep this file near 40 s CPU on the suite's 2 shared cores, under its 60 s budget (the
issue's 2,000 games would take about 4 minutes here); benchmarks/bench_native.py runs 10,000 by default. Skipped
where the extension is not built (then both engines are the Python machine).
"""
from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from kcd.analysis.sim import default_flocks
from kcd.content import load_ruleset
from kcd.core import native
from kcd.engine import Game

pytestmark = pytest.mark.skipif(not native.available(), reason=native.missing_reason())

GAMES = 32   # per mode and player count (fewer per edition and mod): 324 games in all
MODS = Path(__file__).resolve().parent.parent / "content" / "mods"


@functools.lru_cache(maxsize=None)
def _ruleset(overlays: tuple[str, ...]):
    return load_ruleset(overlays)


def _pack_overlays(pack: str) -> tuple[str, ...]:
    """A shipped mod with the packs it requires first (pack.yaml `requires`)."""
    import yaml

    meta = yaml.safe_load((MODS / pack / "pack.yaml").read_text(encoding="utf-8")) or {}
    return tuple(f"mods/{r}" for r in meta.get("requires") or ()) + (f"mods/{pack}",)


def _decision(game: Game):
    d = game.pending
    return None if d is None else (d.player, d.kind, [(o.id, o.label) for o in d.options])


def lockstep(ruleset, players: list[str], seed: int, **setup) -> int:
    """Play one random game on both engines at once, checking them decision by decision; returns decisions."""
    py = Game.new(ruleset, players, seed=seed, engine="python", **setup)
    nat = Game.new(ruleset, players, seed=seed, engine="native", **setup)
    assert py.state.to_dict() == nat.state.to_dict()
    rng = random.Random(seed)
    n = 0
    while not py.is_over:
        decision = _decision(py)
        assert decision is not None
        assert _decision(nat) == decision, f"seed {seed}, decision {n}: different decisions offered"
        answer = rng.choice(decision[2])[0]
        a, b = py.apply(answer), nat.apply(answer)
        assert a.ok and b.ok, (seed, n, answer, a, b)
        assert a.events == b.events, f"seed {seed}, decision {n} ({answer}): different events"
        assert json.dumps(py.state.to_dict()) == json.dumps(nat.state.to_dict()), \
            f"seed {seed}, decision {n} ({answer}): different states"
        n += 1
        assert n < 5000
    assert nat.is_over and _decision(nat) is None
    assert native.engine_of(py.state.params) == "python" and native.engine_of(nat.state.params) == "native"
    assert py.to_json() == nat.to_json()
    return n


@pytest.mark.parametrize("players", [2, 3, 4])
def test_standard_games_match(players: int) -> None:
    ruleset = _ruleset(())
    flocks = default_flocks(ruleset, players)
    assert sum(lockstep(ruleset, flocks, 7000 + 100 * players + i) for i in range(GAMES)) > 0


def test_variable_turn_order_games_match() -> None:
    ruleset = _ruleset(())
    for i in range(GAMES):
        lockstep(ruleset, default_flocks(ruleset, 3 + i % 2), 7100 + i, variant="vto")


def test_solo_games_match() -> None:
    ruleset = _ruleset(())
    for i in range(GAMES + GAMES // 5):
        lockstep(ruleset, default_flocks(ruleset, 2), 7200 + i, mode="solo")


def test_prototype_edition_games_match() -> None:
    ruleset = _ruleset(("editions/prototype",))
    for i in range(GAMES * 4 // 5):
        lockstep(ruleset, default_flocks(ruleset, 2 + i % 3), 7300 + i)


@pytest.mark.parametrize("pack", sorted(p.name for p in MODS.iterdir() if (p / "pack.yaml").is_file()))
def test_each_shipped_mod_matches(pack: str) -> None:
    ruleset = _ruleset(_pack_overlays(pack))
    solo = (MODS / pack / "solo.yaml").is_file()   # a mod of the solo game plays solo games
    for i in range(GAMES * 3 // 5):
        if solo:
            lockstep(ruleset, default_flocks(ruleset, 2), 7400 + i, mode="solo")
        else:
            lockstep(ruleset, default_flocks(ruleset, 2 + i % 3), 7400 + i)


def test_both_engines_play_through_clones() -> None:
    """A clone runs on its game's engine (the engine rides on the params its states share)."""
    ruleset = _ruleset(())
    for engine in native.ENGINES:
        game = Game.new(ruleset, default_flocks(ruleset, 2), seed=5, engine=engine)
        game.apply(game.pending.options[0].id)
        assert native.engine_of(game.clone().state.params) == engine


def test_a_bad_engine_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        Game.new(_ruleset(()), default_flocks(_ruleset(()), 2), seed=1, engine="fast")
