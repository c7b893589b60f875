"""Saves: the size of a finished 4-player save with its full history, and the cost of writing and loading it.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_saves.py [--games N]`.
Target (issue 7): a finished four-player save with its full history under 40 KB. Loading replays the whole
history and checks schema and invariants, so its time grows with the game's length.
"""
from __future__ import annotations

import argparse
import statistics
import time

from interpreter.content import load_ruleset
from interpreter.engine import Game
from interpreter.sim import default_flocks, play_game


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


def main() -> None:
    """Print save sizes (KB) and to_json / from_json CPU times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    ruleset = load_ruleset()
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
        print(f"  to_json {statistics.mean(dump):.2f} ms CPU, from_json (schema, invariants, full replay) "
              f"{statistics.mean(load):.1f} ms CPU")


if __name__ == "__main__":
    main()
