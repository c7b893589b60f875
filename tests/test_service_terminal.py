"""`kcd play --human SEAT`: a person plays one seat against bots at the terminal, with numbered
options, the view as text and undo."""
from __future__ import annotations

import subprocess
import sys


def kcd(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "play", *args], input=stdin,
                          capture_output=True, text=True, timeout=600)


def test_a_whole_game_at_the_terminal_with_undo_to_the_final_scores() -> None:
    answers = "1\n1\nu\nr\nv\nx\n99\n" + "1\n" * 3000
    run = kcd("--human", "2", "--bots", "greedy", "--seed", "5", stdin=answers)
    out = run.stdout
    assert run.returncode == 0, run.stderr + out[-2000:]
    assert "You play green." in out and "Undone." in out and "Redone." in out
    assert "Not an option: 'x'" in out and "Not an option: '99'" in out
    assert "   1. " in out and "Hand: " in out and "Scores: " in out
    assert "· Red Flock " in out                 # the bot's moves are shown, by name
    assert "A1 " in out                           # `v` printed the island
    assert "The game is over. Final scores: 1. " in out
    assert "Traceback" not in run.stderr


def test_quitting_and_bad_seats() -> None:
    run = kcd("--human", "red", stdin="q\n")
    assert run.returncode == 0 and "You left the game." in run.stdout      # quitting is no failure
    run = kcd("--human", "red", stdin="")
    assert run.returncode == 1 and "input ended" in run.stdout
    run = kcd("--human", "purple", "--players", "2", stdin="")
    assert run.returncode == 2 and "not a seat of this game; seats: red, green" in run.stderr
    run = kcd("--human", "1", "--solo", "--bots", "random", stdin="q\n")
    assert run.returncode == 0 and "You play red." in run.stdout
