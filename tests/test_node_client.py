"""The Node.js example client (issue 11): clients/node/play.js plays a whole game against an engine bot over
`kcd serve --stdio`, using only the protocol."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing: the Node client test must run in CI")
        pytest.skip("node is not installed")
    return found


def kcd_command() -> list[str]:
    kcd = Path(sys.executable).with_name("kcd")
    return [str(kcd)] if kcd.exists() else [sys.executable, "-m", "interpreter.cli"]


@pytest.mark.parametrize("seed,players", [(3, 2), (8, 3)])
def test_node_client_plays_a_whole_game_over_stdio(seed: int, players: int) -> None:
    command = kcd_command()
    args = [node(), str(ROOT / "clients" / "node" / "play.js"), "--kcd", command[0], "--seed", str(seed),
            "--players", str(players), "--bot", "greedy", "--quiet"]
    if len(command) > 1:
        args += ["--", *command[1:]]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(result["ranking"]) == players and set(result["scores"]) == set(result["ranking"])
    assert result["decisions"] > 20 and result["undos"] >= 1
    again = subprocess.run(args, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert json.loads(again.stdout.strip().splitlines()[-1]) == result   # same seed, same game
