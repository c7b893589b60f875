"""Modes as plug-ins: the standard game, Variable Turn Order and solo behind one interface
(interpreter/modes), and a new mode added from outside the engine without touching a shared module."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest
from test_engine_support import ruleset

from kcd.engine import Game, mode_registry as modes
from kcd.modes.base import Mode
from kcd.modes.standard import Standard
from kcd.engine.setup import SetupError
from kcd.testing import play_random

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "interpreter" / "engine"
MODES = ROOT / "interpreter" / "modes"
# the packages that carry one mode's rules (interpreter/modes/<mode>/); every other module is shared
MODE_PACKAGES = {p.name for p in MODES.iterdir() if (p / "__init__.py").is_file()}

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
    """Engine module names a file imports (module level or not), in full: `kcd.modes.solo.state`."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(("kcd.engine", "kcd.modes")):
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith(("kcd.engine.", "kcd.modes.")))
    return out


def test_the_built_in_modes_are_packages():
    assert {"standard", "solo", "vto"} <= MODE_PACKAGES
    assert not [p.name for p in ENGINE.glob("*.py") if p.stem.startswith(("solo", "vto"))]


def test_no_shared_module_reaches_for_a_particular_mode():
    # modes/ itself (the registry, the interface) and game.py (which imports the built-in modes) are not shared
    shared = [p for p in ENGINE.rglob("*.py") if not p.is_relative_to(MODES) and p.name not in ("game.py", "mode_registry.py")]
    assert len(shared) > 20
    for path in shared:
        reached = {m for m in _imported(path) for pkg in MODE_PACKAGES
                   if m == f"kcd.modes.{pkg}" or m.startswith(f"kcd.modes.{pkg}.")}
        assert not reached, f"{path.name} imports {sorted(reached)}: call the game's mode (rt.mode) instead"
        text = path.read_text(encoding="utf-8")
        for probe in ("state.solo is not None", "st.solo is not None", '== "vto"', "vto.VARIANT"):
            assert probe not in text, f"{path.name} tests for a mode (`{probe}`): move it into the mode"


# --- no code outside a mode's package asks which mode is played -----------------------------------------------
# A mode presents itself (interpreter/modes/base.py: seat roles, default players, score columns, setup
# options and their checks); the apps and the analysis call it. Three forms of asking are refused anywhere in
# interpreter/, editor/ and service/ outside interpreter/modes/<mode>/:
#   1. a comparison (==, !=, in, not in) of something named for a mode or variant (a name, attribute or string
#      key containing "mode" or "variant") with a mode or variant name ("solo", or SOLO / STANDARD / .VARIANT)
#   2. a test of a state's solo data: `x.solo is None`, `x.solo is not None`, or `x.solo` as a condition
#   3. a variable named after a mode (`solo`, `vto`, `standard`) used as a condition


def _names_mode(node: ast.AST) -> bool:
    for n in ast.walk(node):
        word = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else \
            n.value if isinstance(n, ast.Constant) and isinstance(n.value, str) else ""
        if "mode" in word.lower() or "variant" in word.lower():
            return True
    return False


def _is_mode_name(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in names
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_mode_name(e, names) for e in node.elts)
    return (isinstance(node, ast.Name) and node.id in {"SOLO", "STANDARD", "VTO"}) or \
        (isinstance(node, ast.Attribute) and node.attr in {"SOLO", "STANDARD", "VARIANT", "MODE"})


def mode_questions(source: str) -> list[tuple[int, str]]:
    """(line, what) for each place the source asks which mode is played (the three forms above)."""
    names = set(modes.names()) | {m.variant for m in modes.all_modes() if m.variant}
    out: list[tuple[int, str]] = []
    for n in ast.walk(ast.parse(source)):
        if isinstance(n, ast.Compare) and isinstance(n.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is,
                                                                 ast.IsNot)):
            operands = [n.left, *n.comparators]
            named = [o for o in operands if _is_mode_name(o, names)]
            if named and not isinstance(n.ops[0], (ast.Is, ast.IsNot)) and \
                    any(_names_mode(o) for o in operands if o not in named):
                out.append((n.lineno, "compares a mode name"))
            elif any(isinstance(o, ast.Attribute) and o.attr == "solo" for o in operands) and \
                    any(isinstance(o, ast.Constant) and o.value is None for o in operands):
                out.append((n.lineno, "tests `.solo`"))
        conditions = [n.test] if isinstance(n, (ast.If, ast.IfExp, ast.While)) else \
            list(n.values) if isinstance(n, ast.BoolOp) else \
            [n.operand] if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) else []
        for c in conditions:
            if isinstance(c, ast.Attribute) and c.attr == "solo":
                out.append((c.lineno, "tests `.solo`"))
            elif isinstance(c, ast.Name) and c.id in names:
                out.append((c.lineno, f"branches on `{c.id}`"))
    return sorted(out)


def test_the_rule_catches_each_form():
    found = mode_questions('if mode == "solo": pass\nx = 1 if rec.mode != SOLO else 2\n'
                           'y = st.solo is not None\nif state.solo: pass\nif variant in ("vto",): pass\n'
                           'solo = True\nif solo: pass\nz = mode_ids.get(label) == "solo"\n')
    assert sorted(line for line, _ in found) == [1, 2, 3, 4, 5, 7, 8]
    assert mode_questions('if mode.player_count: pass\nname = "solo" if flag else "standard"\n'
                          'x = data.get("solo")\nif kind == "kiwibot": pass\nif st.mode is None: pass\n') == []


def test_no_code_outside_a_mode_package_asks_which_mode_is_played():
    found: dict[str, list[str]] = {}
    files = [p for top in ("interpreter", "editor", "service") for p in sorted((ROOT / top).rglob("*.py"))]
    assert len(files) > 150
    for path in files:
        if path.is_relative_to(MODES) and path.parent != MODES:
            continue   # a mode's own package
        hits = mode_questions(path.read_text(encoding="utf-8"))
        if hits:
            found[path.relative_to(ROOT).as_posix()] = [f"{line}: {what}" for line, what in hits]
    assert not found, f"ask the mode (interpreter/modes/base.py) instead of comparing its name: {found}"
