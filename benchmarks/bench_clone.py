"""Copy speed: `State.copy()`, the JSON round trip it replaces, and `Game.clone()` on mid-game 4-player states.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_clone.py [--games N]
[--reps R]`. Target: `clone()` mid-game at most 0.05 ms. Mid-game: the positions a random 4-player game
reaches after 60 to 180 decisions (season 2 or 3), every 10th of them; each figure is the mean over those
positions, in microseconds, CPU time beside wall time (the machine is shared).
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Callable

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.core.state import State
from kcd.analysis.sim import default_flocks
from kcd.apps.cli.play_options import seed_arg


def positions(games: int, seed: int) -> list[Game]:
    """Mid-game positions of random 4-player games (copies, so each stays where it was taken)."""
    ruleset = load_ruleset()
    flocks = default_flocks(ruleset, 4)
    out = []
    for i in range(games):
        game = Game.new(ruleset, players=flocks, seed=seed + i)
        rng = random.Random(seed + i)
        n = 0
        while not game.is_over and n <= 180:
            if n >= 60 and n % 10 == 0:
                out.append(game.clone())
            game.apply(rng.choice(game.pending_ids()))
            n += 1
    return out


def timed(fn: Callable[[], object], reps: int) -> tuple[float, float]:
    """(wall, CPU) microseconds per call of `fn`, over `reps` calls."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - wall) / reps * 1e6, (time.process_time() - cpu) / reps * 1e6


def main() -> None:
    """Print the mean µs of each copy over the mid-game positions."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--reps", type=int, default=500)
    parser.add_argument("--seed", type=seed_arg, default=2000)
    args = parser.parse_args()
    games = positions(args.games, args.seed)
    rows = {
        "State.copy()": lambda g: g.state.copy,
        "State.from_dict(to_dict())": lambda g: (lambda st=g.state: State.from_dict(st.to_dict())),
        "Game.clone(events=False)": lambda g: (lambda: g.clone(events=False)),
        "Game.clone()": lambda g: g.clone,
    }
    counted = hasattr(Game, "replayed_steps")   # engines before the explicit frames always replay (and count nothing)
    before = getattr(Game, "replayed_steps", 0)
    for g in games:
        g.clone(events=False)
    replayed = f"{getattr(Game, 'replayed_steps', 0) - before} of the {len(games)}" if counted else "all"
    hexes = sum(len(g.state.hexes) for g in games) / len(games)
    stacks = sum(len(h.kiwi) for g in games for h in g.state.hexes.values()) / len(games)
    depth = sum(g.step_depth for g in games) / len(games)
    print(f"{len(games)} mid-game 4-player positions ({hexes:.0f} hexes, {stacks:.0f} Kiwi stacks, "
          f"{depth:.1f} decisions into the running step on average), {args.reps} copies each; "
          f"{replayed} clones replayed their step")
    for name, make in rows.items():
        wall = cpu = 0.0
        for g in games:
            w, c = timed(make(g), args.reps)
            wall, cpu = wall + w, cpu + c
        print(f"  {name:28s} {cpu / len(games):7.1f} µs CPU  {wall / len(games):7.1f} µs wall")
    print("  target: clone() mid-game <= 50 µs")


if __name__ == "__main__":
    main()
