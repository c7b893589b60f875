"""`kcd validate` and `kcd rules`: output, summary line and exit codes 0 (clean) / 1 (problems) / 2 (usage)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kcd.apps.cli.main import app

runner = CliRunner()
CONTENT = Path(__file__).resolve().parent.parent / "content"


# `root` (a private content copy) comes from conftest.py.
pytestmark = pytest.mark.usefixtures("no_disk_cache")


def test_validate_shipped_content_ok() -> None:
    """No path: the shipped root, base then base + each pack; exit 0 and an OK summary."""
    result = runner.invoke(app, ["validate"])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("OK: ") and last.endswith("items, base + prototype + compose + example + kiwibot-cards + lastmile + lastmile-duel + reeds + scoped")


def test_validate_reports_every_problem_once(root: Path) -> None:
    """Problems in two files are all reported (once, though base is validated with each pack), exit 1."""
    nests = root / "base" / "nests.yaml"
    nests.write_text(nests.read_text().replace("on_place: gain 1 fruit\n", "on_place: gian 1 fruit\n", 1))
    game = root / "base" / "game.yaml"
    game.write_text(game.read_text().replace("first_game: true", "first_game: no", 1))
    result = runner.invoke(app, ["validate", "content"])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[-1] == "2 errors in 2 files"
    assert sum("error[dsl-unknown]: unknown verb `gian`" in line for line in lines) == 1
    assert sum("`first_game` must be true or false, got `no`: write true or false" in line for line in lines) == 1
    assert "  on_place: gian 1 fruit" in lines


def test_validate_single_file_and_pack_folder(root: Path) -> None:
    """A .yaml file is validated in the context of its pack, a pack folder as an overlay on its root's base."""
    result = runner.invoke(app, ["validate", "content/editions/prototype/nests.yaml"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "OK: 1 file, " + result.output.split("OK: 1 file, ")[1].strip()
    result = runner.invoke(app, ["validate", "content/mods/example"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("base + example")
    (root / "mods" / "example" / "leaders.yaml").write_text("- id: chopan\n  name: Again\n  cards: []\n")
    result = runner.invoke(app, ["validate", "content/mods/example/leaders.yaml"])
    assert result.exit_code == 1
    assert "error[overlay-target]: leaders `chopan` already exists (defined in `base`)" in result.output


def test_validate_usage_errors_exit_2(root: Path) -> None:
    """A missing path or a file that is not content is a usage error: exit 2, message on stderr."""
    result = runner.invoke(app, ["validate", "nowhere"])
    assert result.exit_code == 2
    assert "no such file or folder: nowhere" in result.output
    (root.parent / "notes.txt").write_text("hi")
    result = runner.invoke(app, ["validate", "notes.txt"])
    assert result.exit_code == 2


def test_validate_hostile_yaml_exit_1(root: Path) -> None:
    """A python-tag payload in content is reported as yaml-unsafe (exit 1) and never runs."""
    marker = root.parent / "ran"
    nests = root / "base" / "nests.yaml"
    nests.write_text(nests.read_text() + f"- !!python/object/apply:os.system ['touch {marker}']\n")
    result = runner.invoke(app, ["validate", "content"])
    assert result.exit_code == 1
    assert "error[yaml-unsafe]: tag `!!python/object/apply:os.system` is not allowed" in result.output
    assert not marker.exists()


def test_validate_from_another_directory(tmp_path: Path) -> None:
    """`kcd validate` in a fresh process started elsewhere finds the shipped content."""
    proc = subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "validate"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("OK: ")


def test_rules_text_base_and_edition() -> None:
    """`kcd rules` prints rules text generated from the DSL under headings; an edition changes it (Z-5)."""
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    out = result.output
    for heading in ("## Action cards", "## Nests", "## Leaders", "## Season cards", "## Flock boards",
                    "## Turn Order nests"):
        assert heading in out
    assert "- Cave Nest, row 2 (cave-2): Cost: Pay 3 Fruits of the same color." in out
    assert "Victory Points at the end: 1." in out
    proto = runner.invoke(app, ["rules", "--edition", "prototype"])
    assert proto.exit_code == 0
    assert "Content: base + prototype" in proto.output
    assert proto.output.count("Victory Points at the end: 1.") == 1  # Z-5: only the row-2 Cave Nest


def test_R_SOLO_7_rules_text_prints_the_solo_cards_from_kiwibots_side() -> None:
    """R-SOLO-7/8: `kcd rules` prints each Solo card's rows, columns 1-3 and the bonus action's segment, as what
    Kiwibot does; a mod's new Solo card is printed too."""
    out = runner.invoke(app, ["rules"]).output
    assert "## Solo cards (Kiwibot)" in out and "### Solo card 1 (solo-1)" in out
    assert ("- Move: Column 1: Kiwibot moves a size-1 Kiwi to an adjacent hex and it pushes 1 of your Kiwi. "
            "Column 2: ") in out
    assert "Column 3: Kiwibot moves a size-1 Kiwi to the adjacent hex where you have the most Kiwi tokens" in out
    assert out.count("Bonus action: ") == 6 * 4   # six cards, four rows each
    mod = runner.invoke(app, ["rules", "--mod", "kiwibot-cards"]).output
    assert "### Solo card 7 (" in mod


def test_rules_usage_errors() -> None:
    """Unknown language or pack: exit 2 with the list of what exists."""
    result = runner.invoke(app, ["rules", "--lang", "xx"])
    assert result.exit_code == 2
    assert "unknown language `xx`; available: en" in result.output
    result = runner.invoke(app, ["rules", "--mod", "nope"])
    assert result.exit_code == 2
    assert "unknown mod `nope`; available: compose, example, kiwibot-cards, lastmile, lastmile-duel, reeds, scoped" in result.output


def test_validating_one_file_counts_the_items_in_that_file() -> None:
    """`kcd validate content/base/nests.yaml` is checked in its pack's context but counts that file's items:
    the 6 Nests (R-BUILD-2's two rows of three types), not the whole set's; one item is `1 item`."""
    result = runner.invoke(app, ["validate", str(CONTENT / "base" / "nests.yaml")])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "OK: 1 file, 6 items, base"
    two = runner.invoke(app, ["validate", str(CONTENT / "base" / "nests.yaml"), str(CONTENT / "base" / "season_cards.yaml")])
    assert two.output.strip().splitlines()[-1] == "OK: 2 files, 22 items, base"   # and the 16 Season cards
    mod = runner.invoke(app, ["validate", str(CONTENT / "mods" / "example" / "leaders.yaml")])
    assert mod.output.strip().splitlines()[-1] == "OK: 1 file, 1 item, base + example"
