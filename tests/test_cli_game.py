"""`kcd play` and `kcd simulate` through the typer app."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kcd.apps.cli.main import app

runner = CliRunner()


def test_play_json_shape_and_determinism() -> None:
    """`kcd play --json`: seed, players, scores by source, ranking, decisions; same arguments, same output."""
    args = ["play", "--players", "2", "--seed", "7", "--bots", "random,random", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["seed"] == 7
    assert len(data["players"]) == 2
    assert set(data["scores"]) == set(data["players"]) == set(data["ranking"])
    for s in data["scores"].values():
        assert set(s) == {"domain", "nests", "season_cards", "total"}
    assert isinstance(data["decisions"], int) and data["decisions"] > 0
    again = runner.invoke(app, args)
    assert again.stdout == first.stdout


def test_play_players_and_table() -> None:
    """Four players in the default seat order; without --json a table of the ranking."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    from kcd.content import load_ruleset
    from kcd.analysis.sim import default_flocks

    assert json.loads(result.stdout)["players"] == default_flocks(load_ruleset(), 4)
    table = runner.invoke(app, ["play", "--players", "3", "--seed", "1"])
    assert table.exit_code == 0, table.output
    assert "total" in table.stdout and "red" in table.stdout


def test_play_log_is_readable(tmp_path: Path) -> None:
    """`--log` writes a turn-by-turn log with season/phase headings, choices, events and final scores."""
    log = tmp_path / "game.log"
    result = runner.invoke(app, ["play", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    text = log.read_text(encoding="utf-8")
    assert "== Season 1:" in text and "== Season 4:" in text
    assert "== Final scores ==" in text
    first = json.loads(runner.invoke(app, ["play", "--seed", "3", "--json"]).stdout)["players"][0]
    assert text.count(f"\n  {first} [") > 10


def test_play_unknown_bot_and_edition() -> None:
    """Usage errors exit non-zero with a clear message and no traceback."""
    bad_bot = runner.invoke(app, ["play", "--bots", "random,clever"])
    assert bad_bot.exit_code == 2
    assert "unknown bot `clever`" in bad_bot.output
    bad_players = runner.invoke(app, ["play", "--players", "7"])
    assert bad_players.exit_code == 2
    no_layout = runner.invoke(app, ["play", "--players", "1"])   # no 1-player layout: a clear error
    assert no_layout.exit_code == 2 and "error: " in no_layout.output and "Traceback" not in no_layout.output
    no_layout = runner.invoke(app, ["simulate", "--games", "1", "--players", "1"])
    assert no_layout.exit_code == 2 and "error: " in no_layout.output
    bad_edition = runner.invoke(app, ["play", "--edition", "nope"])
    assert bad_edition.exit_code != 0
    assert "Traceback" not in bad_edition.output


def test_play_greedy_bot_runs() -> None:
    """A greedy bot plays a whole 2-player game from the command line."""
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "5", "--bots", "greedy,random", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["bots"] == ["greedy", "random"]


def test_simulate_json_summary() -> None:
    """`kcd simulate --json` prints the summary: win rates by seat/flock/leader with intervals, mean VP, length."""
    result = runner.invoke(app, ["simulate", "--games", "3", "--players", "2", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 3
    assert set(data["win_rate"]) >= {"seat", "flock", "leader"}
    assert data["win_rate"]["seat"]["1"]["games"] == 3
    assert data["mean_decisions"] > 0


def test_simulate_tables_and_jobs() -> None:
    """Without --json: readable tables; --jobs 2 works."""
    result = runner.invoke(app, ["simulate", "--games", "2", "--players", "2", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "Win rate by seat" in result.stdout and "Mean VP" in result.stdout


def test_R_VTO_1_play_and_simulate_with_variant(tmp_path: Path) -> None:
    """`--variant vto` plays Variable Turn Order (recorded in the JSON, named in the log); simulate takes it too."""
    result = runner.invoke(app, ["play", "--players", "3", "--seed", "2", "--variant", "vto", "--json",
                                 "--log", str(tmp_path / "vto.log")])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["variant"] == "vto"
    text = (tmp_path / "vto.log").read_text(encoding="utf-8")
    assert "variant vto" in text.splitlines()[0]
    assert "== Season 2: wake_up ==" in text and "[tracker-slot]" in text
    standard = json.loads(runner.invoke(app, ["play", "--players", "3", "--seed", "2", "--json"]).stdout)
    assert standard["variant"] is None
    sim = runner.invoke(app, ["simulate", "--games", "2", "--players", "2", "--variant", "vto", "--json"])
    assert sim.exit_code == 0, sim.output
    plain = runner.invoke(app, ["simulate", "--games", "2", "--players", "2", "--json"])
    assert json.loads(sim.stdout)["games"] == 2 and sim.stdout != plain.stdout


def test_R_VTO_1_unknown_variant_exits_2_listing_the_known_ones() -> None:
    """An unknown --variant is a usage error (exit 2) naming the known variants, for play and simulate."""
    for args in (["play", "--variant", "turbo"], ["simulate", "--games", "1", "--variant", "turbo"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "unknown variant `turbo`; known variants: vto (Variable Turn Order)" in result.output
        assert "Traceback" not in result.output


def test_play_and_simulate_from_another_content_folder(tmp_path: Path) -> None:
    """`--content DIR` plays a designer's copy of the content: its edits change the game (R-BUILD-4 values)."""
    import shutil

    from kcd.core.paths import content_dir

    copy = tmp_path / "content"
    shutil.copytree(content_dir(), copy)
    shipped = runner.invoke(app, ["play", "--seed", "5", "--json"])
    same = runner.invoke(app, ["play", "--seed", "5", "--json", "--content", str(copy)])
    assert same.exit_code == 0, same.output
    assert json.loads(same.stdout)["scores"] == json.loads(shipped.stdout)["scores"]
    # a broken copy is reported with its own file path, not the shipped content's
    nests = copy / "base" / "nests.yaml"
    nests.write_text(nests.read_text().replace("on_place: gain 1 fruit", "on_place: gian 1 fruit", 1))
    broken = runner.invoke(app, ["simulate", "--games", "2", "--content", str(copy)])
    assert broken.exit_code == 1
    assert "nests.yaml" in broken.output and "unknown verb `gian`" in broken.output
    missing = runner.invoke(app, ["play", "--content", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2
    assert "is not a content folder" in missing.output


def test_R_VTO_2_log_keeps_tracker_picks_under_setup(tmp_path: Path) -> None:
    """R-VTO-2: the tracker slots are chosen during setup, so the log shows them under `== Setup ==`."""
    log = tmp_path / "vto.txt"
    result = runner.invoke(app, ["play", "--variant", "vto", "--players", "3", "--seed", "4", "--log", str(log)])
    assert result.exit_code == 0, result.output
    text = log.read_text()
    assert "Season 1: setup" not in text
    setup = text.split("== Setup ==", 1)[1].split("\n== ", 1)[0]
    assert "[tracker-slot]" in setup
    assert text.count("== Setup ==") == 1


def test_R_SOLO_12_log_names_the_dealt_marker_side(tmp_path: Path) -> None:
    """R-SOLO-12: a solo log names the Solo-mode marker side the seed dealt."""
    log = tmp_path / "solo.txt"
    result = runner.invoke(app, ["play", "--solo", "--seed", "3", "--log", str(log)])
    assert result.exit_code == 0, result.output
    setup = log.read_text().split("== Setup ==", 1)[1].split("\n== ", 1)[0]
    assert any(f"Solo-mode marker side: {side}" in setup for side in ("bot-side", "player-side"))


def test_play_and_simulate_choose_the_flocks(tmp_path: Path) -> None:
    """R-SETUP-2/3: `--flocks` seats the named flocks in that order; bad choices exit 2 naming the problem."""
    played = runner.invoke(app, ["play", "--flocks", "yellow,purple,red", "--seed", "2", "--json"])
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["players"] == ["yellow", "purple", "red"]
    solo = runner.invoke(app, ["play", "--solo", "--flocks", "purple,green", "--seed", "2", "--json"])
    assert solo.exit_code == 0, solo.output
    assert json.loads(solo.stdout)["kiwibot"] == "green"
    sim = runner.invoke(app, ["simulate", "--games", "2", "--flocks", "green,yellow", "--json"])
    assert sim.exit_code == 0, sim.output
    assert set(json.loads(sim.stdout)["win_rate"]["flock"]) == {"green", "yellow"}
    for args, message in ((["--flocks", "red,blue"], "unknown flock `blue`; known flocks:"),
                          (["--flocks", "red,red"], "a flock can take only one seat"),
                          (["--flocks", "red,green", "--players", "3"], "--flocks names 2 flocks but --players is 3")):
        bad = runner.invoke(app, ["play", *args])
        assert bad.exit_code == 2 and message in bad.output, bad.output
