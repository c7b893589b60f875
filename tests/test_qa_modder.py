"""A modder's typical mistakes, made on a copy of the content: every message is located, says what is wrong
and what to do (kcd validate), and stacking mods reports their conflicts."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kcd.core import paths
from kcd.apps.cli.main import app
from kcd.content import clear_caches, validate_report
from kcd.content.loader import build


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the content and schemas with one hand-made mod `mymod` (leader `moa`, flock `blue`)."""
    shutil.copytree(paths.content_dir(), tmp_path / "content")
    shutil.copytree(paths.schemas_dir(), tmp_path / "schemas")
    monkeypatch.chdir(tmp_path)
    clear_caches()
    mod = tmp_path / "content" / "mods" / "mymod"
    (mod / "flocks").mkdir(parents=True)
    (mod / "pack.yaml").write_text('id: mymod\nname: My mod\nkind: mod\ndescription: qa\nsource: "designed: qa"\n')
    (mod / "leaders.yaml").write_text(LEADERS)
    example = (tmp_path / "content" / "mods" / "example" / "flocks" / "orange.yaml").read_text()
    (mod / "flocks" / "blue.yaml").write_text(example.replace("id: orange", "id: blue"))
    return tmp_path / "content"


LEADERS = """\
- id: moa
  name: Moa
  source: "designed: qa"
  cards:
    - id: moa-1
      name: Stomp
      ability: leader moves 2 straight; push the pieces out of the passed hexes
      source: "designed: qa"
    - id: moa-2
      name: Wander
      ability: leader moves 2; grow 1 kiwi
      source: "designed: qa"
"""


def messages(root: Path, *overlays: str) -> list[str]:
    """Formatted diagnostics of base + overlays."""
    return [d.format() for d in build(root.resolve(), overlays).diagnostics]


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first `old` in a file (which must contain it)."""
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def second_mod(root: Path, name: str, leaders: str) -> None:
    """Another mod pack beside mymod."""
    folder = root / "mods" / name
    folder.mkdir()
    (folder / "pack.yaml").write_text(f'id: {name}\nname: {name}\nkind: mod\ndescription: qa\nsource: "designed: qa"\n')
    (folder / "leaders.yaml").write_text(leaders)


def replace_kahu(name: str) -> str:
    """A leaders.yaml item replacing the base leader kahu."""
    return (f"- id: kahu\n  op: replace\n  name: {name}\n  source: \"designed: qa\"\n  cards:\n"
            f"    - {{id: {name}-1, name: A, ability: leader moves 1, source: \"designed: qa\"}}\n"
            f"    - {{id: {name}-2, name: B, ability: leader moves 2, source: \"designed: qa\"}}\n")


def test_hand_made_mod_validates_and_plays(root: Path) -> None:
    """The README's recipe (a leader, a flock) loads and a game with them runs to its end (R-SETUP-3)."""
    import random

    from kcd.content import load_ruleset
    from kcd.engine import Game

    assert messages(root, "mymod") == []
    game = Game.new(load_ruleset(["mymod"], root=root), ["blue", "red"], seed=3, leaders={"blue": "moa", "red": "kahu"})
    rng = random.Random(1)
    while not game.is_over:
        assert game.apply(rng.choice(game.pending.options).id).ok
    assert set(game.scores()) == {"blue", "red"}


def test_two_mod_folders_validate_as_one_stack_with_their_conflict(root: Path) -> None:
    """`kcd validate mods/a mods/b` checks a and b together, as `kcd play --mod a --mod b` loads them."""
    edit(root / "mods" / "mymod" / "leaders.yaml", "- id: moa\n", replace_kahu("k1") + "- id: moa\n")
    second_mod(root, "mod2", replace_kahu("k2"))
    result = CliRunner().invoke(app, ["validate", "content/mods/mymod", "content/mods/mod2"])
    assert result.exit_code == 1
    assert "content/mods/mod2/leaders.yaml:2:3: error[overlay-conflict]: leaders `kahu` is also replaced by " \
           "pack `mymod`" in result.output
    assert "1 error in 1 file" in result.output
    # each alone is fine
    assert CliRunner().invoke(app, ["validate", "content/mods/mymod"]).exit_code == 0


def test_root_validation_warns_about_mods_that_cannot_be_stacked(root: Path) -> None:
    """`kcd validate content/`: every mod is valid alone, but two replacing one leader get a warning."""
    edit(root / "mods" / "mymod" / "leaders.yaml", "- id: moa\n", replace_kahu("k1") + "- id: moa\n")
    second_mod(root, "mod2", replace_kahu("k2"))
    report = validate_report([root])
    assert report.ok
    warnings = [d for d in report.diagnostics if d.severity == "warning"]
    assert [d.code for d in warnings] == ["overlay-conflict"]
    assert "mods `mod2` and `mymod` cannot be played together" in (warnings[0].hint or "")
    assert report.summary().endswith("(1 warning in 1 file)")


def test_flock_file_in_a_misnamed_folder_is_reported_not_ignored(root: Path) -> None:
    """A `flock/` folder (not `flocks/`) would be silently skipped."""
    folder = root / "mods" / "mymod" / "flock"
    folder.mkdir()
    shutil.move(str(root / "mods" / "mymod" / "flocks" / "blue.yaml"), folder / "blue.yaml")
    assert messages(root, "mymod") == [
        "content/mods/mymod/flock/blue.yaml:1:1: error[schema]: content files in folder `flock/` are not read\n"
        "  hint: did you mean `flocks/`?"]


def test_on_key_instead_of_when_names_both_shapes_and_the_fix(root: Path) -> None:
    """`on: build` (other engines' word) in a flock power: the power's two shapes and `did you mean when`."""
    flock = root / "mods" / "mymod" / "flocks" / "blue.yaml"
    edit(flock, "    - when: build", "    - on: build")
    text = "\n".join(messages(root, "mymod"))
    assert "error[schema]: each `power` entry needs exactly one of: `when` + `do`, or `modifier` " \
           "(it has `on`, `do`, `source`)" in text
    assert "error[schema]: unknown field `on`: did you mean `when`?" in text
    assert "is not allowed here: a mapping" not in text


def test_invalid_flock_id_is_explained_with_a_fixed_example(root: Path) -> None:
    """`id: Blue Flock`: one message in words with a usable id, no advice to rename the file to it."""
    edit(root / "mods" / "mymod" / "flocks" / "blue.yaml", "id: blue", "id: Blue Flock")
    assert messages(root, "mymod") == [
        "content/mods/mymod/flocks/blue.yaml:3:5: error[schema]: `id` must be lowercase letters, digits and `-`, "
        "got `Blue Flock`\n  id: Blue Flock\n      ^^^^^^^^^^\n  hint: for example `blue-flock`"]


def test_source_without_prefix_is_explained(root: Path) -> None:
    """`source: qa` gets the two accepted forms in words, not the regular expression."""
    edit(root / "mods" / "mymod" / "leaders.yaml", 'source: "designed: qa"', "source: qa")
    assert messages(root, "mymod") == [
        "content/mods/mymod/leaders.yaml:3:11: error[schema]: `source` must be `rulebook R-XXX-N` (clause ids of "
        "RULES.md) or `designed: <reason>`, got `qa`\n  source: qa\n          ^^\n"
        "  hint: for example `designed: qa`"]


def test_wildcard_with_an_effect_names_the_field_to_remove(root: Path) -> None:
    """R-WILD-1: a Wildcard has `play_as` + `benefit`; an `effect` on it is named, not "not allowed: a mapping"."""
    cards = root / "base" / "action_cards.yaml"
    edit(cards, "  benefit: gain 4 fruit\n", "  benefit: gain 4 fruit\n  effect: gain 1 fruit\n")
    out = messages(root)
    assert len(out) == 1
    assert out[0].endswith("error[schema]: field `effect` is not allowed beside `play_as` + `benefit`\n"
                           "  effect: gain 1 fruit\n  ^^^^^^\n  hint: remove `effect`")


@pytest.mark.parametrize("old,new,hint", [
    ("      name: Stomp", "\tname: Stomp", "YAML indents with spaces only: replace the tab with spaces"),
    ("      name: Stomp", "     name: Stomp", "check this line's indentation: it must line up with the entries above it"),
    ("      name: Stomp", '      name: "Stomp', 'line 6 has an unclosed `"`: add the closing quote'),
    ("      name: Stomp", "      name: Stomp: big", "a value containing `: ` must be quoted, or this line is indented "
                                                    "too far"),
])
def test_yaml_slips_get_a_hint(root: Path, old: str, new: str, hint: str) -> None:
    """A tab, a wrong indentation, an unclosed quote, a colon in a value: PyYAML's words plus what to do."""
    edit(root / "mods" / "mymod" / "leaders.yaml", old, new)
    out = messages(root, "mymod")
    assert len(out) == 1 and "error[yaml-syntax]" in out[0] and out[0].endswith("  hint: " + hint)


def test_statements_joined_with_and_get_the_semicolon_hint(root: Path) -> None:
    """`gain 1 fruit and place 1 kiwi` is two statements: the hint writes them with `;`."""
    edit(root / "mods" / "mymod" / "leaders.yaml", "leader moves 2; grow 1 kiwi",
         "leader moves 2; grow 1 kiwi and gain 1 fruit")
    out = messages(root, "mymod")
    assert len(out) == 1
    assert out[0].endswith("hint: separate statements with `;`: `grow 1 kiwi; gain 1 fruit`")


def test_editor_validate_page_warns_about_mods_that_cannot_be_stacked(root: Path) -> None:
    """The editor's whole-set report carries the same stacking warning as `kcd validate`."""
    from kcd.apps.editor.logic import validation

    edit(root / "mods" / "mymod" / "leaders.yaml", "- id: moa\n", replace_kahu("k1") + "- id: moa\n")
    second_mod(root, "mod2", replace_kahu("k2"))
    problems = validation.whole_report(root)
    assert [(p.code, p.severity, p.rel) for p in problems] == [
        ("overlay-conflict", "warning", "mods/mymod/leaders.yaml")]
