"""`kcd play --solo` and `kcd simulate --solo` (R-SOLO-1..12) through the typer app."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kcd.apps.cli.main import app

runner = CliRunner()


def test_R_SOLO_play_solo_json_has_mode_kiwibot_and_solo_vp() -> None:
    """`kcd play --solo --json`: mode, Kiwibot's flock, seats, marker side, per-flock solo VP; deterministic."""
    args = ["play", "--solo", "--seed", "4", "--bots", "greedy,random", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    player, kiwibot = data["players"]
    assert data["mode"] == "solo" and data["kiwibot"] == kiwibot
    assert data["bots"] == ["greedy", "kiwibot"]   # the player's bot is the first of --bots
    assert sorted(data["seats"]) == sorted(data["players"])
    assert data["solo_side"] is None and data["marker_side"] in ("bot-side", "player-side")
    assert data["solo_vp"] == {f: s["solo"] for f, s in data["scores"].items()} and data["solo_vp"][player] == 0
    for s in data["scores"].values():
        assert s["total"] == s["domain"] + s["nests"] + s["season_cards"] + s["solo"]
    assert len(data["season_cards"]) == 8
    assert runner.invoke(app, args).stdout == first.stdout
    standard = json.loads(runner.invoke(app, ["play", "--seed", "4", "--json"]).stdout)
    assert standard["mode"] == "standard" and "kiwibot" not in standard


def test_R_SOLO_12_play_solo_side() -> None:
    """`--solo-side player-side` plays that Solo-mode marker side (R-SOLO-12)."""
    result = runner.invoke(app, ["play", "--solo", "--solo-side", "player-side", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["solo_side"] == data["marker_side"] == "player-side"


def test_R_SOLO_7_play_solo_log_shows_kiwibot_turns(tmp_path: Path) -> None:
    """`--log` of a solo game: the header names Kiwibot, each Kiwibot turn is a `[kiwibot]` line with its answers
    and effects below it, and Kiwibot never appears as a decider; final scores show the solo VP."""
    log = tmp_path / "solo.log"
    result = runner.invoke(app, ["play", "--solo", "--seed", "3", "--log", str(log), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    kiwibot = data["kiwibot"]
    text = log.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert f"solo: {data['players'][0]} against Kiwibot ({kiwibot})" in lines[0]
    turns = [line for line in lines if line.startswith(f"  {kiwibot} [")]
    kinds = (f"  {kiwibot} [kiwibot] Kiwibot ({kiwibot}) reveals", f"  {kiwibot} [kiwibot] Kiwibot gains a bonus")
    assert turns and all(line.startswith(kinds) for line in turns)
    assert any(line.startswith("      Kiwibot: ") for line in lines)   # its answered questions, indented
    assert "== Season 4:" in text and f"  {kiwibot} (Kiwibot): " in text and ", solo " in text


def test_R_SOLO_play_solo_table() -> None:
    """Without --json: the table names Kiwibot and the marker side and has a solo column."""
    result = runner.invoke(app, ["play", "--solo", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "solo against Kiwibot" in result.stdout and "kiwibot" in result.stdout and "solo" in result.stdout


def test_R_SOLO_simulate_solo_json_and_tables() -> None:
    """`kcd simulate --solo`: two flocks by default (not 4), the summary's solo block; tables show player vs
    Kiwibot."""
    result = runner.invoke(app, ["simulate", "--solo", "--games", "3", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3 and len(data["win_rate"]["flock"]) == 2
    assert data["solo"]["player"]["wins"] + data["solo"]["kiwibot"]["wins"] == 3
    assert "solo" in data["mean_vp"]
    tables = runner.invoke(app, ["simulate", "--solo", "--solo-side", "bot-side", "-n", "2", "--jobs", "2"])
    assert tables.exit_code == 0, tables.output
    assert "Player vs Kiwibot" in tables.stdout and "marker side bot-side" in tables.stdout
    assert "Win rate by seat" in tables.stdout


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "1"]])
@pytest.mark.parametrize("args,message", [
    (["--solo", "--players", "3"], "--players must be 2, got 3"),
    (["--solo", "--variant", "vto"], "--solo is played without variants"),
    (["--solo", "--solo-side", "nope"], "unknown solo side `nope`; known sides: bot-side, player-side"),
    (["--solo-side", "bot-side"], "--solo-side is the Solo-mode marker side: it needs --solo"),
])
def test_R_SOLO_1_bad_solo_options_exit_2(command: list[str], args: list[str], message: str) -> None:
    """R-SOLO-1/12: a solo game the options cannot make is a usage error (exit 2) with a clear message."""
    result = runner.invoke(app, command + args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_R_SOLO_7_play_solo_log_heads_kiwibot_turns_by_their_season(tmp_path: Path) -> None:
    """`--log`: a Kiwibot card reveal is an Actions turn (R-SOLO-7), so it always stands under its season's
    `actions` heading, even when it runs among setup's events or the player's previous decision (seed 3's
    first turn follows setup, its Season 3 first turn follows a Season Change decision)."""
    log = tmp_path / "solo.log"
    result = runner.invoke(app, ["play", "--solo", "--seed", "3", "--bots", "greedy", "--log", str(log)])
    assert result.exit_code == 0, result.output
    heading, reveals = None, 0
    for line in log.read_text(encoding="utf-8").splitlines():
        if line.startswith("== "):
            heading = line
        elif "[kiwibot]" in line and " reveals " in line:
            reveals += 1
            assert heading is not None and heading.startswith("== Season ") and heading.endswith(": actions =="), line
    assert reveals == 12   # three cards a season for four seasons (R-ACT-1)
