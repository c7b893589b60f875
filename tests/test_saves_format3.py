"""Format-3 saves written by the engine before the rules machine (commit 94be6f3, every procedure a `Frame` class)
load in the current engine and play on exactly as they did there.

tests/fixtures/format3_saves.json.gz holds real saves of that engine (tests/fixtures/make_format3_saves.py made
them, run against that commit): mid-step saves of random and greedy games of every kind of game (2 to 4 players,
advanced setup, Variable Turn Order, solo, the prototype edition, the shipped mods with composed effects), picked
so that together they show every frame kind that engine ever saved on a stack, at every step it was saved at;
saves just after a forced undo (a redo list) and finished games. For each, what the old engine did next: up to 20
decisions of a seeded random policy, each decision's events and the decision asked next, then the state, the
pending decision and the whole event log.

Each save loads (a save whose frames name a procedure that is a program now is replayed once, with
`OldSaveWarning`; any other loads from its frames), asks the saved pending decision, goes on identically, and
saved again as format 4 loads to the same game.
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.engine.game import OldSaveWarning

FIXTURE = Path(__file__).parent / "fixtures" / "format3_saves.json.gz"


@functools.lru_cache(maxsize=None)
def _fixture() -> dict[str, Any]:
    """The fixture's data (read once)."""
    data: dict[str, Any] = json.loads(gzip.decompress(FIXTURE.read_bytes()))
    return data


@functools.lru_cache(maxsize=None)
def _ruleset(overlays: tuple[str, ...]) -> Any:
    """The shipped content with these overlays (loaded once)."""
    return load_ruleset(list(overlays))


def _cases() -> list[Any]:
    """One parameter per kind of game: its saves are checked together (names show which save failed)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for case in _fixture()["cases"]:
        groups.setdefault(case["name"].split("/")[0], []).append(case)
    return [pytest.param(cases, id=name) for name, cases in groups.items()]


def _pending(game: Game) -> dict[str, Any] | None:
    """The pending decision as plain data."""
    return game.pending.to_dict() if game.pending is not None else None


def _differs(name: str, what: str, old: Any, new: Any) -> str:
    """The first difference between what the old engine gave and what this one gives, as a message."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            if old.get(key) != new.get(key):
                return _differs(name, f"{what}/{key}", old.get(key), new.get(key))
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                return _differs(name, f"{what}/{i}", a, b)
    return f"{name}: {what}: the old engine gave {str(old)[:300]}, this one gives {str(new)[:300]}"


def _play_on(name: str, game: Game, then: dict[str, Any], redo: bool) -> None:
    """Apply the recorded decisions to `game`; each decision's events and the next decision, then the state and
    pending decision, must be the old engine's."""
    if redo:
        result = game.redo()
        assert result.ok, f"{name}: redo refused: {result}"
        got = {"events": [e.to_dict() for e in result.events], "pending": _pending(game)}
        assert got == then["redo"], _differs(name, "redo", then["redo"], got)
    for i, step in enumerate(then["steps"]):
        result = game.apply(step["choice"])
        assert result.ok, f"{name}: decision {i} `{step['choice']}` refused: {result}"
        after = game.pending
        got = {"choice": step["choice"], "events": [e.to_dict() for e in result.events],
               "next": None if after is None else
               {"player": after.player, "kind": after.kind, "options": after.option_ids()}}
        assert got == step, _differs(name, f"decision {i}", step, got)
    state = game.state.to_dict()
    assert state == then["state"], _differs(name, "state", then["state"], state)
    assert _pending(game) == then["pending"], _differs(name, "pending", then["pending"], _pending(game))


@pytest.mark.parametrize("cases", _cases())
def test_format_3_saves_of_the_old_engine_load_and_play_on_as_they_did(cases: list[dict[str, Any]]) -> None:
    """Every save loads (replayed once with OldSaveWarning when its frames name a program), asks its saved
    decision, plays on to the old engine's events, state and log, and its format-4 save loads to the same game."""
    for case in cases:
        name, text, then = case["name"], case["save"], case["then"]
        rs = _ruleset(tuple(case["overlays"]))
        saved = json.loads(text)
        assert saved["format"] == 3
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OldSaveWarning)
            game = Game.from_json(rs, text)
        expected = saved["pending"] if saved["frames"] is not None else then["loaded_pending"]
        assert _pending(game) == expected, _differs(name, "loaded pending", expected, _pending(game))
        resaved = game.to_json()
        data = json.loads(resaved)
        assert data["format"] == 4
        for part in ("history", "redo", "step_start", "state", "seed", "setup"):
            assert data[part] == saved[part], _differs(name, f"loaded {part}", saved[part], data[part])
        again = Game.from_json(rs, resaved)
        assert again.to_json() == resaved, f"{name}: the format-4 save does not round-trip"
        redo = "redo" in then
        _play_on(name, game, then, redo)
        log = [e.to_dict() for e in game.events]
        digest = hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest()
        assert {"count": len(log), "sha256": digest} == then["log"], f"{name}: the event log differs"
        _play_on(name + " (format 4)", again, then, redo)


def test_the_fixture_covers_the_old_engines_frame_kinds() -> None:
    """The saves hold the frame kinds the generator found on saved stacks (the fixture is not silently thinner)."""
    data = _fixture()
    held = {kind for case in data["cases"] for kind in case["kinds"]}
    assert data["commit"] == "94be6f3"
    assert held == set(data["coverage"]["covered"])
    assert len(held) >= 50
