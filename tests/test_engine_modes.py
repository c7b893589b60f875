"""Modes as plug-ins (issue 7 item 5): the standard game, Variable Turn Order and solo behind one interface
(interpreter/engine/modes), and a new mode added from outside the engine without touching a shared module."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_engine_support import play_random, ruleset

from kcd.engine import Game, modes
from kcd.engine.modes.base import Mode
from kcd.engine.modes.standard import Standard
from kcd.engine.setup import SetupError

ENGINE = Path(__file__).resolve().parent.parent / "interpreter" / "engine"
# the modules that carry one mode's rules; every other engine module is shared by all modes
MODE_MODULES = {"vto", "solo", "solo_answers", "solo_marker", "solo_marking", "solo_moves", "solo_patterns",
                "solo_state", "solo_verbs"}


class TwoSeasons(Standard):
    """A test mode: the standard game cut to its first two seasons, with a line in every view."""

    name = "two-seasons"
    title = "the first two seasons"

    def seasons(self, rules) -> int:
        return 2

    def view_extras(self, st, out: dict) -> None:
        out["short_game"] = {"seasons": 2}


@pytest.fixture
def two_seasons(monkeypatch):
    """TwoSeasons registered for one test (the registry is restored afterwards)."""
    monkeypatch.setattr(modes, "_MODES", dict(modes._MODES))
    return modes.register(TwoSeasons())


def test_a_mode_added_in_a_test_plays_to_the_end_saves_and_loads(two_seasons):
    game = Game.new(ruleset(), players=["red", "green"], seed=11, mode="two-seasons")
    assert game.rt.mode is two_seasons and game.state.mode == "two-seasons"
    assert game.view("red")["short_game"] == {"seasons": 2}
    for _ in range(40):   # part way: a save of the plug-in mode loads and continues identically
        game.apply(game.pending.options[0].id)
    loaded = Game.from_json(ruleset(), game.to_json())
    assert loaded.rt.mode is two_seasons and loaded.to_json() == game.to_json()
    play_random(game, 5)
    play_random(loaded, 5)
    assert game.is_over and game.state.season == 2
    assert [e.form for e in game.events].count("season-begins") == 2
    assert loaded.to_json() == game.to_json() and loaded.scores() == game.scores()
    assert set(game.ranking()) == {"red", "green"}
    # the standard game from the same seed lasts four seasons
    standard = Game.new(ruleset(), players=["red", "green"], seed=11)
    play_random(standard, 5)
    assert standard.state.season == 4 and "short_game" not in standard.view("red")


def test_unknown_mode_names_the_registered_ones(two_seasons):
    with pytest.raises(SetupError, match="mode must be 'standard' or 'solo' or 'two-seasons', got 'duo'"):
        Game.new(ruleset(), players=["red", "green"], seed=1, mode="duo")
    with pytest.raises(SetupError, match="two-seasons mode is played without variants"):
        Game.new(ruleset(), players=["red", "green"], seed=1, mode="two-seasons", variant="vto")


def test_a_save_of_an_unregistered_mode_is_a_clear_error(two_seasons, monkeypatch):
    text = Game.new(ruleset(), players=["red", "green"], seed=3, mode="two-seasons").to_json()
    monkeypatch.setattr(modes, "_MODES", {k: v for k, v in modes._MODES.items() if k != "two-seasons"})
    with pytest.raises(ValueError, match="mode"):
        Game.from_json(ruleset(), text)


def test_built_in_modes_are_chosen_by_name_and_variant():
    assert modes.select("standard", None).name == "standard"
    assert modes.select("standard", "vto").variant == "vto"
    assert modes.select("solo", None).name == "solo"
    assert Game.new(ruleset(), players=["red", "green"], seed=2, variant="vto").rt.mode.variant == "vto"
    assert Game.new(ruleset(), players=["red", "green"], seed=2, mode="solo").rt.mode.name == "solo"
    assert isinstance(modes.select("standard", None), Mode)


def _imported(path: Path) -> set[str]:
    """Engine module names a file imports (module level or not)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("kcd.engine"):
                out.add(node.module.rsplit(".", 1)[-1] if node.module.count(".") >= 2 else "")
                out.update(a.name for a in node.names if node.module == "kcd.engine")
        elif isinstance(node, ast.Import):
            out.update(a.name.rsplit(".", 1)[-1] for a in node.names if a.name.startswith("kcd.engine."))
    return out


def test_no_shared_module_reaches_for_a_particular_mode():
    shared = [p for p in ENGINE.glob("*.py") if p.stem not in MODE_MODULES | {"game", "__init__"}]
    assert len(shared) > 20
    for path in shared:
        reached = _imported(path) & (MODE_MODULES | {"standard"})
        assert not reached, f"{path.name} imports {sorted(reached)}: call the game's mode (rt.mode) instead"
        text = path.read_text(encoding="utf-8")
        for probe in ("state.solo is not None", "st.solo is not None", '== "vto"', "vto.VARIANT"):
            assert probe not in text, f"{path.name} tests for a mode (`{probe}`): move it into the mode"
