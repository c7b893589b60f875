"""Engine speed: full 4-player random-bot games per second on one core, and decisions per second.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_engine.py [--games N]
[--players P] [--bots random|greedy] [--gc lean|default] [--profile]`. Targets, one core: at least 120
random 4-player games per CPU second; with `--bots greedy`, at least 5 greedy 4-player games per second. CPU time is
printed beside wall time (the machine is shared). `--gc lean` (the default) plays the games with the garbage
collector's thresholds of `kcd simulate` (interpreter/analysis/simrun.py `lean_gc`: a game makes millions of short-lived
objects and almost no cycles); `--gc default` with Python's own. `--profile` prints the hot spots of the same run:
pyinstrument's call tree (a sampling profiler: cProfile inflates the many small calls several times), or cProfile's
table sorted by own time when pyinstrument is not installed.
"""
from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import time
from typing import Any

from kcd.content import load_ruleset
from kcd.analysis.sim import default_flocks, play_game
from kcd.analysis.simrun import lean_gc
from kcd.apps.cli.play_options import seed_arg


def run(games: int, players: int, seed: int, bot: str = "random") -> tuple[float, float, int]:
    """Play `games` games between `bot` bots; returns (wall seconds, CPU seconds, total decisions)."""
    ruleset = load_ruleset()
    flocks = default_flocks(ruleset, players)
    play_game(ruleset, flocks, seed - 1, (bot,))  # warm caches (compiled rules, geometry)
    decisions = 0
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        decisions += play_game(ruleset, flocks, seed + i, (bot,)).decisions
    return time.perf_counter() - start, time.process_time() - cpu, decisions


def main() -> None:
    """Print games/s and decisions/s (optionally the profile)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=seed_arg, default=1000)
    parser.add_argument("--bots", default="random", choices=["random", "greedy"])
    parser.add_argument("--gc", default="lean", choices=["lean", "default"])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    sampler: Any = None
    profiler = None
    if args.profile:
        try:
            from pyinstrument import Profiler   # the test extras install it
            sampler = Profiler(interval=0.0005)
        except ImportError:
            profiler = cProfile.Profile()
    with lean_gc() if args.gc == "lean" else contextlib.nullcontext():
        if sampler:
            sampler.start()
        if profiler:
            profiler.enable()
        seconds, cpu, decisions = run(args.games, args.players, args.seed, args.bots)
        if profiler:
            profiler.disable()
        if sampler:
            sampler.stop()
    if args.games <= 0:   # the load and warm-up alone (benchmarks/instructions.sh subtracts it)
        print("no games: the content loaded and one game played to warm up")
        return
    target = "target >= 5 per second" if args.bots == "greedy" else "target >= 120 per CPU second"
    print(f"{args.games} full {args.players}-player {args.bots}-bot games in {seconds:.2f} s wall, {cpu:.2f} s CPU, "
          f"one core, {args.gc} GC thresholds")
    print(f"  {args.games / seconds:.1f} games/s wall; {args.games / cpu:.1f} games per CPU second ({target})")
    print(f"  {decisions / seconds:.0f} decisions/s wall, {decisions / args.games:.0f} decisions per game")
    if sampler:
        print(sampler.output_text(unicode=False, color=False))
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())


if __name__ == "__main__":
    main()
