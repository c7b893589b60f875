"""Greedy-bot simulation speed: two-player greedy-vs-greedy games, wall and CPU time, extrapolated to 10,000 games.

Plain script (prints figures, asserts nothing): `nice -n 10 .venv/bin/python benchmarks/bench_greedy.py
[--games 500] [--jobs 2] [--profile] [--evaluation]`. Target: 10,000 greedy two-player games in at most 5 minutes on this
2-core machine (`kcd simulate --games 10000 --players 2 --bots greedy --jobs 2`). CPU time (this process and its
workers) is printed beside wall time because the machine is shared: wall time / 10,000 games extrapolates the
run, CPU time / 2 cores what it would take with the machine to itself. `--profile` plays the games on one process
under cProfile and prints the hot spots by own time. `--evaluation` times the greedy heuristic's parts (CPU
microseconds per position, best of 9 passes) on every position of 6 greedy games: the whole `evaluate`, the
Season card objective (`queries.winners`), dominance (`dominance.dominant_all`) and scoring.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import time

from kcd.content import load_ruleset
from kcd.analysis.sim import simulate
from kcd.apps.cli.play_options import seed_arg

TARGET_GAMES, TARGET_SECONDS = 10_000, 300


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    """Print games/s, wall and CPU per game, and the 10,000-game extrapolation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=seed_arg, default=50_000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--evaluation", action="store_true")
    args = parser.parse_args()
    ruleset = load_ruleset()
    if args.evaluation:
        _evaluation(ruleset, args.seed)
        return
    simulate(ruleset, 1, players=2, seed=args.seed - 1, bots=("greedy",))   # warm caches (compiled rules)
    if args.games <= 0:   # the load and warm-up alone (benchmarks/instructions.sh subtracts it)
        print("no games: the content loaded and one game played to warm up")
        return
    profiler = cProfile.Profile() if args.profile else None
    jobs = 1 if profiler else args.jobs
    cpu0, wall0 = _cpu(), time.perf_counter()
    if profiler:
        profiler.enable()
    report = simulate(ruleset, args.games, players=2, seed=args.seed, bots=("greedy",), jobs=jobs)
    if profiler:
        profiler.disable()
    wall, cpu = time.perf_counter() - wall0, _cpu() - cpu0
    decisions = sum(r.decisions for r in report.records)
    print(f"{args.games} greedy two-player games on {jobs} process(es): wall {wall:.1f} s, CPU {cpu:.1f} s "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"  {args.games / wall:.2f} games/s wall; {1000 * cpu / args.games:.0f} ms CPU a game; "
          f"{decisions / args.games:.0f} decisions a game")
    per_wall, per_cpu = wall / args.games, cpu / args.games
    print(f"  10,000 games: {TARGET_GAMES * per_wall / 60:.1f} min wall at this load, "
          f"{TARGET_GAMES * per_cpu / 2 / 60:.1f} min on 2 free cores (target <= {TARGET_SECONDS // 60} min)")
    if profiler:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(30)
        print(out.getvalue())


def _evaluation(ruleset, seed: int) -> None:
    """Print the CPU time of each part of the greedy evaluation per position (positions of 6 greedy games)."""
    from kcd.core import dominance
    from kcd.engine import queries, scoring
    from kcd.analysis.heuristic import evaluate
    from kcd.analysis.sim import default_flocks, play_game

    games: list = []
    for i in range(6):
        play_game(ruleset, default_flocks(ruleset, 2), seed + i, ("greedy",),
                  on_decision=lambda game, *_: games.append(game.clone(events=False)))

    def objective(game) -> None:
        st = game.state
        queries.winners(st, game.rules.season_cards[st.season_cards[st.season - 1]].objective, list(st.seats))

    parts = {"evaluate": lambda g: evaluate(g, g.state.seats[0]), "objective": objective,
             "dominance": lambda g: dominance.dominant_all(g.state), "scoring": lambda g: scoring.score(g.state)}
    print(f"greedy evaluation parts over {len(games)} positions (CPU us a position, best of 9 passes; load average "
          f"{os.getloadavg()[0]:.1f}):")
    for name, part in parts.items():
        best = float("inf")
        for _ in range(9):
            t = time.process_time()
            for g in games:
                part(g)
            best = min(best, time.process_time() - t)
        print(f"  {name:10s} {1e6 * best / len(games):6.1f} us")


if __name__ == "__main__":
    main()
