"""--sides / --leaders / --scheduler on kcd play and kcd simulate (interpreter/apps/cli/play_options.py): parsing, errors."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kcd.apps.cli.main import app
from kcd.content import load_ruleset
from kcd.apps.cli.play_options import OptionError, parse_leaders, parse_scheduler, parse_sides

runner = CliRunner()
KNOWN = ["red", "green", "purple", "yellow"]


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_parse_sides():
    assert parse_sides(None, ["red", "green"], KNOWN) is None
    assert parse_sides("b", ["red", "green"], KNOWN) == {"red": "B", "green": "B"}
    assert parse_sides("red=b, green=A", ["red", "green"], KNOWN) == {"red": "B", "green": "A"}
    with pytest.raises(OptionError, match="unknown side `c` for red; known sides: a, b"):
        parse_sides("red=c", ["red", "green"], KNOWN)
    with pytest.raises(OptionError, match="unknown flock `blue`; known flocks: red, green, purple, yellow"):
        parse_sides("blue=b", ["red", "green"], KNOWN)
    with pytest.raises(OptionError, match="flock `purple` is not playing; playing: red, green"):
        parse_sides("purple=b", ["red", "green"], KNOWN)
    with pytest.raises(OptionError, match="`red` is not FLOCK=VALUE"):
        parse_sides("green=b,red", ["red", "green"], KNOWN)


def test_parse_leaders(ruleset):
    assert parse_leaders("red=kahu,green=tui-2", ruleset, ["red", "green"], KNOWN) == (
        {"red": "kahu", "green": "tui"}, {"green": "tui-2"})
    with pytest.raises(OptionError, match=r"unknown Leader or Leader card `hawk` for red; Leaders: chopan, .*"
                                          r"Leader cards: chopan-1, "):
        parse_leaders("red=hawk", ruleset, ["red", "green"], KNOWN)
    with pytest.raises(OptionError, match="Leader `kahu` is given to red and green"):
        parse_leaders("red=kahu,green=kahu-2", ruleset, ["red", "green"], KNOWN)


def test_parse_scheduler():
    assert parse_scheduler("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    for bad in ("127.0.0.1:8786", "tcp://host", "http://h:1", "tcp://h:99999"):
        with pytest.raises(OptionError, match="not a Dask scheduler address"):
            parse_scheduler(bad)


def test_kcd_play_with_sides_and_leader_cards():
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "3", "--sides", "red=b",
                                 "--leaders", "red=kahu-2,green=ruru", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["sides"] == {"red": "B", "green": "A"}
    assert out["leaders"] == {"red": "kahu", "green": "ruru"}
    assert out["leader_cards"] == {"red": "kahu-2", "green": "ruru-1"}


def test_kcd_play_deals_the_leaders_not_named():
    result = runner.invoke(app, ["play", "--players", "3", "--seed", "4", "--leaders", "green=weka-2", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["leader_cards"]["green"] == "weka-2" and len(set(out["leaders"].values())) == 3


def test_kcd_simulate_side_b_for_all():
    result = runner.invoke(app, ["simulate", "--games", "2", "--players", "2", "--sides", "b",
                                 "--leaders", "red=pukeko-2", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary["win_rate"]["side"]) == {"B"}
    assert "pukeko-2" in summary["win_rate"]["leader_card"]


@pytest.mark.parametrize("args,message", [
    (["--sides", "red=x"], "unknown side `x` for red; known sides: a, b"),
    (["--sides", "blue=b"], "unknown flock `blue`"),
    (["--leaders", "red=nobody"], "unknown Leader or Leader card `nobody`"),
    (["--leaders", "yellow=kahu"], "flock `yellow` is not playing; playing: red, green"),
])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bad_choices_are_usage_errors(command, args, message):
    extra = ["--games", "1"] if command == "simulate" else []
    result = runner.invoke(app, [command, "--players", "2", *extra, *args])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_bad_scheduler_address_is_a_usage_error():
    result = runner.invoke(app, ["simulate", "--games", "1", "--players", "2", "--scheduler", "localhost"])
    assert result.exit_code == 2 and "not a Dask scheduler address" in result.stderr


def test_unreachable_scheduler_is_a_clear_error(monkeypatch):
    from kcd.analysis import simrun

    monkeypatch.setattr(simrun, "CONNECT_TIMEOUT", "1s")
    result = runner.invoke(app, ["simulate", "--games", "1", "--players", "2", "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr
