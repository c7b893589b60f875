"""The training example (examples/rl_train.py) and the speed benchmark (benchmarks/bench_rl.py) run: a tiny
training run writes its win-rate plot, and each benchmark loop plays whole games."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))


def test_the_training_example_trains_and_plots(tmp_path: Path) -> None:
    """`rl_train.py --games 12 --block 4` plays 12 games, prints 3 win rates and saves a PNG."""
    out = tmp_path / "winrate.png"
    run = subprocess.run([sys.executable, str(ROOT / "examples" / "rl_train.py"), "--games", "12", "--block", "4",
                          "--out", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("win rate") == 4 and "12 games in" in run.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_benchmark_loops_play_whole_games() -> None:
    """The engine, AEC and OpenSpiel loops of bench_rl.py each finish their games and count their steps."""
    import bench_rl
    rate, decisions = bench_rl.engine_rate(2, 2, 7)
    assert rate > 0 and decisions > 100
    rate, steps = bench_rl.aec_rate(2, 2, 7)
    assert rate > 0 and steps > 100
    rate, steps = bench_rl.openspiel_rate("tic_tac_toe", 5, 7)
    assert rate > 0 and 25 <= steps <= 45
    rate, steps = bench_rl.openspiel_rate("kiwi_chow_down", 1, 7, {"players": 2})
    assert rate > 0 and steps > 50
