"""Strength and speed of the `mcts` bot: win rates with 95% Wilson intervals, CPU time per decision.

Plain script (prints figures, asserts nothing):

    nice -n 10 .venv/bin/python benchmarks/bench_mcts.py --games 200 --budget 250it --jobs 2 [--parts 2p,4p,solo,speed]

Parts (all by default):
- `2p`: mcts against greedy in two-player games; half the games with mcts in seat 1, half in seat 2, on the
  same seeds (each seed is played both ways). Target: mcts wins >= 70%.
- `4p`: mcts against three greedy bots; mcts sits in each seat for a quarter of the games. Target: >= 40%
  (a fair share is 25%).
- `solo`: mcts against Kiwibot, `--games` games for each Solo-mode marker side (R-SOLO-2/12); with
  `--solo-greedy` the greedy bot's figures on the same seeds too, for comparison.
- `speed`: CPU time of each mcts decision (mean, 95th percentile, max) and decisions per CPU second, over
  `--speed-games` two- and four-player games against greedy and solo games against Kiwibot, on one core.

Games run on `--jobs` processes through `kcd.analysis.sim.simulate` (the same records as one job). CPU time is
this process's plus its finished workers' (user + system), printed beside the wall time: the machine is shared.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from typing import Any

from kcd.analysis.bots import make_bot
from kcd.content import load_ruleset
from kcd.analysis.sim import default_flocks, play_game, simulate, solo_sides, wilson
from kcd.apps.cli.play_options import seed_arg


def _cpu() -> float:
    """CPU seconds of this process and its reaped children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _tally(reports: list[Any], bot: str) -> tuple[int, int]:
    """(wins, games) of the bot named `bot` over simulate reports."""
    wins = games = 0
    for report in reports:
        row = report.summary()["win_rate"]["bot"].get(bot)
        if row:
            wins += row["wins"]
            games += row["games"]
    return wins, games


def _line(label: str, wins: int, games: int, target: str, cpu: float, wall: float) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    rate = wins / games if games else 0.0
    print(f"{label:<34} {wins:>4}/{games:<4} {rate:6.1%}  [{lo:.1%}, {hi:.1%}]  target {target:<6} "
          f"CPU {cpu:7.0f} s  wall {wall:6.0f} s", flush=True)
    return {"part": label, "wins": wins, "games": games, "rate": rate, "lo": lo, "hi": hi, "target": target,
            "cpu_s": cpu, "wall_s": wall}


def _seated(ruleset: Any, games: int, players: int, seed: int, mcts: str, jobs: int, label: str,
            chunk: int) -> tuple[int, int]:
    """mcts in each seat in turn (the others greedy), `games` games spread evenly over the seats, played in rounds
    of `chunk` games per seat (seeds seed, seed+1, ... shared by the seats) with a running tally after each."""
    wins = played = 0
    per_seat = -(-games // players)
    for start in range(0, per_seat, chunk):
        n = min(chunk, per_seat - start)
        for seat in range(players):
            bots = ["greedy"] * players
            bots[seat] = mcts
            w, g = _tally([simulate(ruleset, n, players=players, seed=seed + start, bots=bots, jobs=jobs)], mcts)
            wins, played = wins + w, played + g
        lo, hi = wilson(wins, played)
        print(f"  {label}: {wins}/{played} so far [{lo:.1%}, {hi:.1%}]", flush=True)
    return wins, played


def strength(ruleset: Any, args: argparse.Namespace, mcts: str) -> list[dict[str, Any]]:
    """The 2p, 4p and solo parts asked for."""
    rows = []
    for part, players, target in (("2p", 2, ">= 70%"), ("4p", 4, ">= 40%")):
        if part not in args.parts:
            continue
        cpu, wall = _cpu(), time.perf_counter()
        label = f"{mcts} vs greedy, {players} players"
        wins, games = _seated(ruleset, args.games, players, args.seed, mcts, args.jobs, label, args.chunk)
        rows.append(_line(label, wins, games, target,
                          _cpu() - cpu, time.perf_counter() - wall))
    if "solo" in args.parts:
        # the marker sides alternate chunk by chunk, so a run stopped early still has as many games of each
        bots = [mcts] + (["greedy"] if args.solo_greedy else [])
        tally = {(side, bot): [0, 0, 0.0, 0.0] for side in solo_sides(ruleset) for bot in bots}
        for start in range(0, args.games, args.chunk):
            n = min(args.chunk, args.games - start)
            for (side, bot), row in tally.items():
                cpu, wall = _cpu(), time.perf_counter()
                report = simulate(ruleset, n, seed=args.seed + start, bots=(bot,), jobs=args.jobs, mode="solo",
                                  solo_side=side)
                player = report.summary()["solo"]["player"]
                row[0], row[1] = row[0] + player["wins"], row[1] + player["games"]
                row[2], row[3] = row[2] + _cpu() - cpu, row[3] + time.perf_counter() - wall
                lo, hi = wilson(row[0], row[1])
                print(f"  {bot} vs Kiwibot, {side}: {row[0]}/{row[1]} so far [{lo:.1%}, {hi:.1%}] "
                      f"CPU {row[2]:.0f} s", flush=True)
        for (side, bot), (wins, played, cpu, wall) in tally.items():
            rows.append(_line(f"{bot} vs Kiwibot, {side}", wins, played, "report", cpu, wall))
    return rows


class _Timed:
    """A bot wrapper that records the CPU time of each decision."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.times = bot, bot.name, []

    def choose(self, game: Any) -> str:
        start = time.process_time()
        option = self.bot.choose(game)
        self.times.append(time.process_time() - start)
        return option


def speed(ruleset: Any, args: argparse.Namespace, mcts: str) -> list[dict[str, Any]]:
    """CPU time per mcts decision in whole games against greedy (and in solo games against Kiwibot), on this
    process (one core)."""
    rows = []
    for label, players in (("2p", 2), ("4p", 4), ("solo", 2)):
        timed = _Timed(make_bot(mcts, args.seed))
        flocks = default_flocks(ruleset, players)
        for i in range(args.speed_games):
            if label == "solo":
                play_game(ruleset, flocks, args.seed + i, [timed], mode="solo")
                continue
            bots: list[Any] = ["greedy"] * players
            bots[i % players] = timed
            play_game(ruleset, flocks, args.seed + i, bots)
        times = sorted(timed.times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        row = {"part": f"speed {label}", "decisions": len(times), "mean_s": statistics.fmean(times),
               "p95_s": p95, "max_s": times[-1], "decisions_per_cpu_s": len(times) / sum(times),
               "capped": getattr(timed.bot, "capped", 0)}
        print(f"{mcts} CPU per decision, {label}: mean {row['mean_s'] * 1000:.0f} ms, "
              f"95th percentile {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms over {len(times)} decisions "
              f"({row['decisions_per_cpu_s']:.1f} decisions per CPU second; {row['capped']} stopped by the work cap)",
              flush=True)
        rows.append(row)
    return rows


def main() -> None:
    """Run the parts asked for and print their figures (and JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per part (per marker side in solo)")
    parser.add_argument("--budget", default=None, help="mcts budget, e.g. 250it or 200ms (default: the bot's)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=seed_arg, default=5000)
    parser.add_argument("--parts", default="2p,4p,solo,speed", help="comma-separated: 2p, 4p, solo, speed")
    parser.add_argument("--chunk", type=int, default=10, help="games per seat between running tallies")
    parser.add_argument("--speed-games", type=int, default=2)
    parser.add_argument("--solo-greedy", action="store_true", help="also greedy vs Kiwibot on the same seeds")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON at the end")
    args = parser.parse_args()
    args.parts = {p.strip() for p in args.parts.split(",") if p.strip()}
    mcts = f"mcts:{args.budget}" if args.budget else "mcts"
    make_bot(mcts, 0)   # a bad budget fails here, before any game
    ruleset = load_ruleset()
    rows = strength(ruleset, args, mcts)
    if "speed" in args.parts:
        rows += speed(ruleset, args, mcts)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
