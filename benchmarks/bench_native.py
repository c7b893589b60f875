"""Both engines side by side: games per CPU second on the Python machine and on the native engine, in one run, and
N random games played in lockstep on both (the same decisions offered, events and state JSON after every decision).

Plain script (prints figures, asserts only that the engines agree): `.venv/bin/python benchmarks/bench_native.py
[N] [--games G] [--rounds R] [--jobs J]`. N lockstep games (default 10,000; 0 skips them) cycle through every mode (standard
2-4 players, Variable Turn Order, solo), the prototype edition and each shipped mod; `--jobs` splits them between
processes. G games (default 60; a fifth of it for greedy) per engine and setting, in `--rounds` alternating rounds
of the two engines (the same seeds), CPU time of this process, one core, the lean GC thresholds of `kcd simulate`. It also prints the share of a Python-engine game's CPU time spent in
what the native engine runs compiled (kcd.core.dominance's counting, the piece sums of Season card objectives, the
hexes to build and to mark on), timed around each outermost call.

The native engine today is the Python machine with compiled kernels for those (kcd.core.native): expect the two
columns to be close.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

from kcd.analysis.sim import default_flocks, play_game
from kcd.analysis.simrun import lean_gc
from kcd.content import load_ruleset
from kcd.core import dominance, native
from kcd.engine import Game, build, marking, objective_plans

MODS = Path(__file__).resolve().parent.parent / "content" / "mods"

# (name, players, bots, play_game keyword arguments)
SETTINGS: list[tuple[str, int, str, dict[str, Any]]] = [
    ("random 4-player", 4, "random", {}),
    ("random 2-player", 2, "random", {}),
    ("random solo", 2, "random", {"mode": "solo"}),
    ("greedy 2-player", 2, "greedy", {}),
]


def _games_per_cpu_second(games: int, rounds: int, players: int, bot: str, kwargs: dict[str, Any],
                          seed: int = 1000) -> dict[str, float]:
    """Games per CPU second of each engine (chosen through $KCD_ENGINE, which Game.new reads), playing `games` games
    each in `rounds` alternating rounds (the same seeds on both; the engine that starts alternates), so a change
    in the host's load falls on both alike."""
    ruleset = load_ruleset()
    flocks = default_flocks(ruleset, players)
    cpu = {"python": 0.0, "native": 0.0}
    for engine in cpu:   # warm caches
        os.environ[native.ENV] = engine
        play_game(ruleset, flocks, seed - 1, (bot,), **kwargs)
    per_round = max(1, games // rounds)
    for r in range(rounds):
        order = ("python", "native") if r % 2 == 0 else ("native", "python")
        for engine in order:
            os.environ[native.ENV] = engine
            start = time.process_time()
            for i in range(r * per_round, (r + 1) * per_round):
                play_game(ruleset, flocks, seed + i, (bot,), **kwargs)
            cpu[engine] += time.process_time() - start
    return {engine: per_round * rounds / spent for engine, spent in cpu.items()}


def _kernel_share(games: int, players: int, bot: str, kwargs: dict[str, Any]) -> float:
    """The share of a Python-engine game's CPU time inside the functions the native engine runs compiled:
    kcd.core.dominance's counting, the piece sums of Season card objectives (objective_plans._sum_pieces), the
    hexes to build and to mark on (build._hexes, marking.markable)."""
    os.environ[native.ENV] = "python"
    spent = [0.0]
    depth = [0]
    modules = {"dominant_all": dominance, "dominant": dominance, "strengths": dominance,
               "_sum_pieces": objective_plans, "_hexes": build, "markable": marking}
    originals = {name: getattr(module, name) for name, module in modules.items()}

    def timed(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kw: Any) -> Any:
            if depth[0]:
                return fn(*args, **kw)
            depth[0] += 1
            start = time.process_time()
            try:
                return fn(*args, **kw)
            finally:
                spent[0] += time.process_time() - start
                depth[0] -= 1
        return wrapper

    def timed_generator(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kw: Any) -> Any:
            items = fn(*args, **kw)
            while True:
                depth[0] += 1
                start = time.process_time()
                try:
                    item = next(items)
                except StopIteration:
                    return
                finally:
                    spent[0] += time.process_time() - start
                    depth[0] -= 1
                yield item
        return wrapper

    ruleset = load_ruleset()
    flocks = default_flocks(ruleset, players)
    try:
        for name, fn in originals.items():
            setattr(modules[name], name, timed_generator(fn) if name == "_hexes" else timed(fn))
        cpu = time.process_time()
        for i in range(games):
            play_game(ruleset, flocks, 2000 + i, (bot,), **kwargs)
        total = time.process_time() - cpu
    finally:
        for name, fn in originals.items():
            setattr(modules[name], name, fn)
    return spent[0] / total


def _lockstep_settings() -> list[tuple[tuple[str, ...], int, dict[str, Any]]]:
    """(overlays, players, Game.new keyword arguments) cycled through by the lockstep games."""
    import yaml

    out: list[tuple[tuple[str, ...], int, dict[str, Any]]] = [
        ((), 2, {}), ((), 3, {}), ((), 4, {}), ((), 3, {"variant": "vto"}), ((), 4, {"variant": "vto"}),
        ((), 2, {"mode": "solo"}), (("editions/prototype",), 3, {})]
    for pack in sorted(p.name for p in MODS.iterdir() if (p / "pack.yaml").is_file()):
        meta = yaml.safe_load((MODS / pack / "pack.yaml").read_text(encoding="utf-8")) or {}
        overlays = tuple(f"mods/{r}" for r in meta.get("requires") or ()) + (f"mods/{pack}",)
        solo = (MODS / pack / "solo.yaml").is_file()
        out.append((overlays, 2, {"mode": "solo"} if solo else {}))
    return out


def _decision(game: Game) -> Any:
    d = game.pending
    return None if d is None else (d.player, d.kind, [(o.id, o.label) for o in d.options])


def lockstep_games(first: int, count: int) -> tuple[int, int, float]:
    """Play games first..first+count-1 on both engines in lockstep; (games, decisions, CPU seconds).
    AssertionError on a difference, naming the game."""
    cpu = time.process_time()
    settings = _lockstep_settings()
    rulesets: dict[tuple[str, ...], Any] = {}
    decisions = 0
    for g in range(first, first + count):
        overlays, players, setup = settings[g % len(settings)]
        ruleset = rulesets.get(overlays) or rulesets.setdefault(overlays, load_ruleset(overlays))
        flocks = default_flocks(ruleset, players)
        seed = 50_000 + g
        py = Game.new(ruleset, flocks, seed=seed, engine="python", **setup)
        nat = Game.new(ruleset, flocks, seed=seed, engine="native", **setup)
        rng = random.Random(seed)
        where = f"game {g} ({overlays or 'base'}, {players} players, {setup}, seed {seed})"
        while not py.is_over:
            decision = _decision(py)
            assert _decision(nat) == decision, f"{where}: different decisions"
            answer = rng.choice(decision[2])[0]
            a, b = py.apply(answer), nat.apply(answer)
            assert a.ok and b.ok and a.events == b.events, f"{where}: different results of {answer}"
            assert json.dumps(py.state.to_dict()) == json.dumps(nat.state.to_dict()), f"{where}: different states"
            decisions += 1
        assert nat.is_over and py.to_json() == nat.to_json(), f"{where}: different ends"
    return count, decisions, time.process_time() - cpu


def main() -> None:
    """Print both engines' games per CPU second, the kernels' share, and run the lockstep games."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lockstep", type=int, nargs="?", default=10_000, help="lockstep games (default 10,000)")
    parser.add_argument("--games", type=int, default=60, help="games per engine and setting (greedy: a fifth)")
    parser.add_argument("--rounds", type=int, default=10, help="alternating rounds of the two engines per setting")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the lockstep games")
    args = parser.parse_args()
    if not native.available():
        print(f"{native.missing_reason()}: both engines would be the Python machine", file=sys.stderr)
        raise SystemExit(1)
    with lean_gc():
        print(f"{'setting':<18}{'python':>10}{'native':>10}{'speed-up':>10}   (games per CPU second, one core)")
        for name, players, bot, kwargs in SETTINGS:
            games = max(1, args.games // 5) if bot == "greedy" else args.games
            rates = _games_per_cpu_second(games, args.rounds, players, bot, kwargs)
            print(f"{name:<18}{rates['python']:>10.1f}{rates['native']:>10.1f}"
                  f"{rates['native'] / rates['python']:>9.2f}x")
        for name, players, bot, kwargs in (SETTINGS[0], SETTINGS[3]):
            games = max(1, args.games // 5) if bot == "greedy" else args.games
            share = _kernel_share(games, players, bot, kwargs)
            print(f"what the native engine compiles (dominance, objective sums, build and mark hexes): {100 * share:.1f}% of a {name} "
                  "Python-engine game's CPU time")
        os.environ.pop(native.ENV, None)
        if args.lockstep > 0:
            start = time.perf_counter()
            jobs = max(1, args.jobs)
            chunks = [(i * args.lockstep // jobs, (i + 1) * args.lockstep // jobs - i * args.lockstep // jobs)
                      for i in range(jobs)]
            if jobs == 1:
                done = [lockstep_games(*chunks[0])]
            else:
                with ProcessPoolExecutor(jobs) as pool:
                    done = list(pool.map(lockstep_games, *zip(*chunks)))
            games, decisions, cpu = (sum(d[i] for d in done) for i in range(3))
            print(f"{games} lockstep games ({decisions} decisions, every mode, edition and shipped mod) agree: "
                  f"{time.perf_counter() - start:.1f} s wall, {cpu:.1f} s CPU, {jobs} process(es)")


if __name__ == "__main__":
    main()
