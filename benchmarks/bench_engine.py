"""Engine speed: full 4-player random-bot games per second on one core, and decisions per second.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_engine.py [--games N]
[--players P] [--profile]`. Requirement: at least 20 games/s on one core; aim: 100. `--profile` prints the
cProfile hot spots of the same run (sorted by own time) to find what to speed up.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

from interpreter.content import load_ruleset
from interpreter.sim import default_flocks, play_game


def run(games: int, players: int, seed: int) -> tuple[float, float, int]:
    """Play `games` random-bot games; returns (wall seconds, CPU seconds, total decisions)."""
    ruleset = load_ruleset()
    flocks = default_flocks(ruleset, players)
    play_game(ruleset, flocks, seed - 1, ("random",))  # warm caches (compiled rules, geometry)
    decisions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        decisions += play_game(ruleset, flocks, seed + i, ("random",)).decisions
    return time.perf_counter() - start, time.process_time() - cpu, decisions


def main() -> None:
    """Print games/s and decisions/s (optionally the profile)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    seconds, cpu, decisions = run(args.games, args.players, args.seed)
    if profiler:
        profiler.disable()
    print(f"{args.games} full {args.players}-player random-bot games in {seconds:.2f} s on one core")
    print(f"  {args.games / seconds:.1f} games/s (required >= 20, aim 100); {args.games / cpu:.1f} games per CPU second")
    print(f"  {decisions / seconds:.0f} decisions/s, {decisions / args.games:.0f} decisions per game")
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())


if __name__ == "__main__":
    main()
