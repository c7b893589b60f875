"""`kcd replay SAVE`: replays a save's history from its seed and names the first decision that diverges."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_engine_support import ruleset
from typer.testing import CliRunner

from kcd.apps.cli.main import app
from kcd.apps.cli.replay import replay_save
from kcd.content import load_ruleset
from kcd.engine import Game

runner = CliRunner()


@pytest.fixture(scope="module")
def save_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = Game.new(ruleset(), ["red", "green"], seed=4)
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.pending.options).id)
    path = tmp_path_factory.mktemp("saves") / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    return path


def test_a_save_replays_exactly(save_file: Path) -> None:
    """Same content: every decision replays and reaches the saved state; exit 0."""
    result = runner.invoke(app, ["replay", str(save_file)])
    assert result.exit_code == 0, result.output
    assert "replays exactly" in result.stdout
    report = json.loads(runner.invoke(app, ["replay", str(save_file), "--json"]).stdout)
    assert report["exact"] and report["same_content"] and report["replayed"] == report["decisions"] > 100


def test_other_content_names_the_first_decision_that_diverges(save_file: Path) -> None:
    """Under the prototype edition (Z-1..Z-5) the game goes another way: the first refused decision is named."""
    result = runner.invoke(app, ["replay", str(save_file), "--edition", "prototype"])
    assert result.exit_code == 1, result.output
    assert "content hash differs" in result.stdout
    assert "diverges at decision" in result.stdout and "is refused (illegal)" in result.stdout
    report = replay_save(load_ruleset(["editions/prototype"]), save_file.read_text())
    assert not report.exact and 0 < report.replayed < report.decisions


def test_a_changed_history_entry_is_located(save_file: Path) -> None:
    """A save whose decision 5 was edited diverges at decision 5 (or is refused there)."""
    data = json.loads(save_file.read_text())
    data["history"][4] = "move:nowhere"
    report = replay_save(ruleset(), json.dumps(data))
    assert not report.exact and report.replayed == 4 and "decision 5" in report.message


def test_a_changed_final_state_is_reported(save_file: Path) -> None:
    """Every decision replays but the saved state was edited: the differing field is named."""
    data = json.loads(save_file.read_text())
    data["state"]["flocks"][0]["season_vp"] += 1
    report = replay_save(ruleset(), json.dumps(data))
    assert not report.exact and "state/flocks/0/season_vp" in report.message


@pytest.mark.parametrize("text", ["{", '{"format": 2, "state": {"x": NaN}}', "[" * 100_000, '{"format": 2, "state": 1}'])
def test_a_bad_save_exits_1_without_a_traceback(tmp_path: Path, text: str) -> None:
    """Unreadable saves: `error: FILE: why`, exit 1, no traceback."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "error:" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    """A missing file, a folder, no argument: exit 2 with a message."""
    for args in (["replay", str(tmp_path / "missing.json")], ["replay", str(tmp_path)], ["replay"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output
