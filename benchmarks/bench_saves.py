"""Saves and copies: the size of a finished 4-player save with its full history, the cost of writing and loading
it, and mid-game `clone()` and `from_json` at every decision of 4-player random games.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_saves.py [--games N]
[--midgame N]`. Targets: a finished four-player save under 40 KB; `clone()` mid-game at most 0.05 ms.
A save with the running step's frames loads without replay (schema, invariants, frame checks); a step a
generator procedure runs (not yet written as frames) is copied and loaded by replaying: the "replayed" counts
say how often.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.analysis.sim import default_flocks, play_game


def finished(ruleset, players: list[str], seed: int, bot: str, variant: str | None = None, mode: str = "standard") -> Game:
    """A finished game between `bot` bots, rebuilt from its recorded decisions."""
    game = Game.new(ruleset, players=players, seed=seed, variant=variant, mode=mode)
    options: list[str] = []
    play_game(ruleset, players, seed, (bot,), variant=variant, mode=mode,
              on_decision=lambda g, decision, option, applied: options.append(option))
    for option in options:
        assert game.apply(option).ok
    assert game.is_over
    return game


def midgame(ruleset, games: int) -> None:
    """clone() and to_json+from_json at every decision of `games` 4-player random games (CPU time)."""
    players = default_flocks(ruleset, 4)
    clone_us, load_ms, replays, copies = [], [], 0, 0
    for i in range(games):
        game = Game.new(ruleset, players=players, seed=900 + i)
        rng = random.Random(i)
        while not game.is_over:
            before = getattr(Game, "replayed_steps", 0)
            t0 = time.process_time()
            for _ in range(10):   # ten copies, so the clock's resolution does not show
                game.clone()
            t1 = time.process_time()
            Game.from_json(ruleset, game.to_json())
            t2 = time.process_time()
            replays += getattr(Game, "replayed_steps", 0) != before
            copies += 1
            clone_us.append((t1 - t0) * 1e5)
            load_ms.append((t2 - t1) * 1e3)
            game.apply(rng.choice(game.pending.options).id)
    print(f"mid-game, every decision of {games} 4-player random games ({copies} decisions):")
    print(f"  clone() mean {statistics.mean(clone_us):.0f} us CPU, median {statistics.median(clone_us):.0f} us "
          f"(target <= 50 us)")
    print(f"  to_json + from_json mean {statistics.mean(load_ms):.2f} ms CPU, median {statistics.median(load_ms):.2f} ms")
    print(f"  decisions where a copy or load replayed the step: {replays} of {copies} ({100 * replays / copies:.0f}%)")


def main() -> None:
    """Print save sizes (KB), to_json / from_json CPU times, and mid-game clone / load times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--midgame", type=int, default=3)
    args = parser.parse_args()
    ruleset = load_ruleset()
    midgame(ruleset, args.midgame)
    four = default_flocks(ruleset, 4)
    cases = [("4p random", four, "random", None, "standard"), ("4p greedy", four, "greedy", None, "standard"),
             ("4p VTO random", four, "random", "vto", "standard"),
             ("solo greedy", default_flocks(ruleset, 2), "greedy", None, "solo")]
    for label, players, bot, variant, mode in cases:
        sizes, decisions, dump, load = [], [], [], []
        for i in range(args.games):
            game = finished(ruleset, players, 500 + i, bot, variant, mode)
            t0 = time.process_time()
            text = game.to_json()
            t1 = time.process_time()
            Game.from_json(ruleset, text)
            t2 = time.process_time()
            sizes.append(len(text.encode("utf-8")) / 1000)
            decisions.append(len(game.history))
            dump.append((t1 - t0) * 1000)
            load.append((t2 - t1) * 1000)
        print(f"{label}: {args.games} finished games, {statistics.mean(decisions):.0f} decisions each")
        print(f"  save size: mean {statistics.mean(sizes):.1f} KB, max {max(sizes):.1f} KB (target < 40 KB)")
        print(f"  to_json {statistics.mean(dump):.2f} ms CPU, from_json {statistics.mean(load):.1f} ms CPU "
              f"(schema, invariants; the log is rebuilt only when read)")


if __name__ == "__main__":
    main()
