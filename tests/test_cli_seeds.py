"""Seeds on the command line: `--seed` is a whole number from 0 to 2^64-1 in every
command that takes one (one shared check, `play_options.parse_seed`), never wrapped onto another seed's game;
`kcd play --human` deals from an OS-random seed unless given one and prints it when the game ends."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kcd.apps.cli import play_options as opts
from kcd.apps.cli.main import app
from kcd.apps.cli.errors import EXIT_USAGE

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
COMMANDS: dict[str, Any] = typer.main.get_command(app).commands  # type: ignore[attr-defined]
SEEDED = sorted(name for name, command in COMMANDS.items()
                if any("--seed" in getattr(p, "opts", ()) for p in command.params))
TOO_BIG, MAX = str(2 ** 64), str(2 ** 64 - 1)
RANGE = "a seed is a whole number from 0 to 18446744073709551615"
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py") if '"--seed"' in p.read_text())


def test_the_commands_that_take_a_seed_are_found() -> None:
    assert {"play", "simulate", "balance"} <= set(SEEDED)
    assert {"bench_engine.py", "bench_greedy.py", "soak_mods.py"} <= set(BENCHMARKS)


@pytest.mark.parametrize("name", SEEDED)
@pytest.mark.parametrize("seed", [TOO_BIG, "-1", str(2 ** 70)])
def test_every_command_refuses_a_seed_outside_0_to_2_64_minus_1(name: str, seed: str) -> None:
    extra = ["--games", "1"] if name in ("simulate", "balance") else []
    result = runner.invoke(app, [name, *extra, "--seed", seed])
    assert result.exit_code == EXIT_USAGE, (name, result.output)
    assert f"--seed {seed}: {RANGE}" in result.output, (name, result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", ["simulate", "balance"])
def test_the_last_game_s_seed_must_fit_too(name: str) -> None:
    result = runner.invoke(app, [name, "--games", "3", "--seed", str(2 ** 64 - 2)])
    assert result.exit_code == EXIT_USAGE, result.output
    assert "the last of 3 games would pass" in result.output and f"at most {2 ** 64 - 3}" in result.output


def test_balance_against_refuses_a_wrapping_seed(tmp_path: Path) -> None:
    result = runner.invoke(app, ["balance", "--games", "2", "--against", str(ROOT / "content"), "--seed", TOO_BIG])
    assert result.exit_code == EXIT_USAGE and RANGE in result.output, result.output


def test_the_largest_seed_plays_and_is_printed_as_given() -> None:
    import json

    result = runner.invoke(app, ["play", "--seed", MAX, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["seed"] == 2 ** 64 - 1


@pytest.mark.parametrize("script", BENCHMARKS)
def test_every_benchmark_script_refuses_a_wrapping_seed(script: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--seed", TOO_BIG],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 2 and RANGE in run.stderr, (script, run.stderr[-500:])


def test_parse_seed_and_the_argparse_type_share_one_range() -> None:
    assert opts.parse_seed(0) == 0 and opts.parse_seed(2 ** 64 - 1) == 2 ** 64 - 1
    assert opts.parse_seed(2 ** 64 - 10, games=10) == 2 ** 64 - 10
    with pytest.raises(opts.OptionError, match="the last of 11 games"):
        opts.parse_seed(2 ** 64 - 10, games=11)
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="not a whole number"):
        opts.seed_arg("1.5")
    with pytest.raises(argparse.ArgumentTypeError, match=RANGE):
        opts.seed_arg("-3")


# --- kcd play --human ------------------------------------------------------------------------------------------

def human(*args: str, stdin: str = "q\n") -> subprocess.CompletedProcess:
    """`kcd play --human 1 ...` answered by `stdin` (quit at the first decision by default)."""
    return subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "play", "--human", "1", *args], input=stdin,
                          capture_output=True, text=True, timeout=600)


SEED_LINE = re.compile(r"^This game's seed: (\d+) \(--seed \1 plays it again\)\.$", re.M)


def test_a_terminal_game_deals_from_a_random_seed_printed_at_the_end_that_replays_it() -> None:
    first, second = human(), human()
    seeds = [int(SEED_LINE.search(run.stdout).group(1)) for run in (first, second)]  # type: ignore[union-attr]
    assert seeds[0] != seeds[1] and all(0 <= s < 2 ** 63 for s in seeds)
    assert seeds[0] != 0
    # printed only when the game ends, after everything the player saw while deciding
    assert first.stdout.rstrip().splitlines()[-1].startswith("This game's seed: ")
    assert str(seeds[0]) not in first.stdout.rstrip().rsplit("\n", 1)[0]
    again = human("--seed", str(seeds[0]))
    assert again.stdout == first.stdout    # the printed seed deals the very same game


def test_a_terminal_game_with_a_seed_beyond_the_service_s_63_bits_is_a_usage_error() -> None:
    run = human("--seed", str(2 ** 63))
    assert run.returncode == EXIT_USAGE
    assert f"--seed {2 ** 63}: a seed is a whole number from 0 to {2 ** 63 - 1} with --human" in run.stderr


def test_no_seed_is_printed_when_no_game_was_dealt() -> None:
    run = human("--players", "2", "--flocks", "red,green", stdin="")
    assert "This game's seed: " in run.stdout            # input ended: a game was dealt, its seed is told
    bad = subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "play", "--human", "purple"], input="",
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == EXIT_USAGE and "not a seat of this game" in bad.stderr
    assert "seed" not in bad.stdout
