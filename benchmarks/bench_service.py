"""Service speed: concurrent games over WebSocket on loopback, and stdio round trips.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_service.py [--games 50]
[--players 2] [--stdio-trips 2000] [--durable]`. Starts `kcd serve` on a free loopback port with a fresh SQLite
database, then plays `--games` games at once; every seat is a client-side random player on its own WebSocket
that answers the pushed view when it is its turn (so the figure is the server's: apply, commit, a push per
seat), first answering at once (a closed loop: the most decisions/s; by Little's law the latency is then the
number of games over the throughput), then paced like players who think (`--think`, default 100 ms before each
answer). Reports decisions/s, the p50/p95/max latency of `apply` (send to reply; target p95 < 20 ms), the server's
CPU time, and the CPU time of each apply with the same games interleaved in one process (a figure a shared,
loaded machine does not distort). Then `kcd serve --stdio`: `hello` round trips/s and a game's round trips/s.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from kcd.apps.service.client import StdioClient


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def play_seat(url: str, token: str, seed: int, latencies: list[float], think: float) -> int:
    """One seat over its own WebSocket, as a front end plays: join, then answer each push that says it is this
    seat's turn with a random option of the pushed view; its decision count."""
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    decisions = 0
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"protocol": 1, "id": 0, "op": "join", "token": token}))
        view = None
        while True:
            message = json.loads(await ws.recv())
            if message.get("op") == "join" or message.get("push") == "update":
                if view is not None and message["view"]["seq"] < view["seq"]:
                    continue
                view = message["view"]
            if view is None or view["over"]:
                if view is not None:
                    return decisions
                continue
            pending = view["pending"]
            if pending["player"] != view["you"] or not pending["options"]:
                continue
            option = pending["options"][rng.randrange(len(pending["options"]))]["id"]
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))   # a player thinking before answering
            start = time.perf_counter()
            await ws.send(json.dumps({"protocol": 1, "id": view["seq"] + 1, "op": "apply", "token": token,
                                      "option": option, "seq": view["seq"]}))
            while True:   # the reply comes before the pushes this decision causes
                reply = json.loads(await ws.recv())
                if "push" not in reply:
                    break
            latencies.append(time.perf_counter() - start)
            if not reply["ok"]:
                raise RuntimeError(reply)
            decisions += 1


async def play_game(url: str, players: int, seed: int, latencies: list[float], think: float) -> int:
    """One game, every seat a client-side random player on its own connection; its decision count."""
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"protocol": 1, "id": 1, "op": "create", "seats": [{"kind": "human"}] * players,
                                  "seed": seed}))
        made = json.loads(await ws.recv())
    seats = [play_seat(url, token, seed * 10 + i, latencies, think)
             for i, token in enumerate(made["tokens"].values())]
    return sum(await asyncio.gather(*seats))


async def run_games(url: str, games: int, players: int, latencies: list[float], think: float) -> int:
    counts = await asyncio.gather(*(play_game(url, players, 1000 + i, latencies, think) for i in range(games)))
    return sum(counts)


def bench_ws(games: int, players: int, durable: bool, think: float = 0.0) -> None:
    """`games` games at once over WebSocket; `think` seconds (on average) before each answer, 0: at once."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        # generous rate limit: one client per game sends ~3 messages per decision as fast as it can
        proc = subprocess.Popen([sys.executable, "-m", "kcd.apps.cli.main", "serve", "--port", str(port), "--db",
                                 str(db), "--rate", "100000", *(["--durable"] if durable else [])], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.1)
            cpu0, wall0 = cpu_seconds(proc.pid), time.perf_counter()
            latencies: list[float] = []
            decisions = asyncio.run(run_games(f"ws://127.0.0.1:{port}/ws", games, players, latencies, think))
            wall, cpu = time.perf_counter() - wall0, cpu_seconds(proc.pid) - cpu0
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        ms = sorted(x * 1000 for x in latencies)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        sync = "FULL, --durable" if durable else "NORMAL"
        pace = f", each answer after {think * 1000:.0f} ms on average" if think else ", every answer at once"
        print(f"{games} concurrent {players}-player games over WebSocket on loopback (SQLite WAL, synchronous={sync}"
              f"{pace}):")
        print(f"  {decisions} decisions in {wall:.1f} s wall: {decisions / wall:.0f} decisions/s")
        print(f"  apply latency: p50 {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms (target < 20 ms), "
              f"max {ms[-1]:.1f} ms")
        print(f"  server CPU {cpu:.1f} s ({cpu / decisions * 1000:.2f} ms a decision: apply, commit, "
              f"{players} pushes); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def bench_in_process(games: int, players: int) -> None:
    """The same games interleaved in one process, no transport: the CPU time of each apply (checking, engine,
    SQLite commit, a push rendered per seat): what an apply costs when the machine is not shared."""
    from kcd.apps.service.hub import Hub, Limits
    from kcd.apps.service.store import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(SQLiteStore(Path(tmp) / "bench.sqlite3"), Limits(messages_per_second=1e9, burst=10**9))
        tables = []
        for i in range(games):
            made = hub.handle(hub.connect(lambda m: None),
                              json.dumps({"protocol": 1, "op": "create", "seats": [{"kind": "human"}] * players,
                                          "seed": 1000 + i}))
            conns = {}
            for flock, token in made["tokens"].items():
                conn = hub.connect(lambda m: json.dumps(m))   # each push is serialised, as a transport does
                hub.handle(conn, json.dumps({"protocol": 1, "op": "join", "token": token}))
                conns[flock] = conn
            tables.append((hub.live[made["game"]], made["tokens"], conns, random.Random(i)))
        costs = []
        while tables:
            for entry in list(tables):
                live, tokens, conns, rng = entry
                if live.game.is_over:
                    tables.remove(entry)
                    continue
                flock = live.turn()
                options = live.game.pending.options
                text = json.dumps({"protocol": 1, "op": "apply", "token": tokens[flock],
                                   "option": options[rng.randrange(len(options))].id})
                start = time.thread_time()
                json.dumps(hub.handle(conns[flock], text))
                hub.flush()
                costs.append(time.thread_time() - start)
        hub.store.close()
    ms = sorted(c * 1000 for c in costs)
    print(f"the same {games} games in one process, interleaved (CPU time of each apply: check, engine, commit, "
          f"{players} pushes):")
    print(f"  p50 {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.1f} ms "
          f"over {len(ms)} applies")


def bench_stdio(trips: int) -> None:
    client = StdioClient()
    try:
        client.request("hello")
        start = time.perf_counter()
        for _ in range(trips):
            client.request("hello")
        hello = trips / (time.perf_counter() - start)
        made = client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=7)
        tokens = made["tokens"]
        rng = random.Random(7)
        applied = 0
        start = time.perf_counter()
        view = client.request("view", token=made["spectator"])["view"]
        while view["pending"]:
            turn = view["pending"]["player"]
            options = client.request("pending", token=tokens[turn])["pending"]["options"]
            client.request("apply", token=tokens[turn], option=options[rng.randrange(len(options))]["id"])
            applied += 1
            view = client.request("view", token=made["spectator"])["view"]
        game = applied * 3 / (time.perf_counter() - start)
    finally:
        client.close()
    print("kcd serve --stdio (in-memory store):")
    print(f"  {hello:.0f} hello round trips/s")
    print(f"  {game:.0f} game round trips/s (pending + apply + spectator view, {applied} decisions of a 2-player game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--stdio-trips", type=int, default=2000)
    parser.add_argument("--durable", action="store_true", help="also run the server with --durable (fsync)")
    parser.add_argument("--think", type=float, default=0.1,
                        help="seconds a paced player waits before answering, on average (the second run; 0: none)")
    args = parser.parse_args()
    t0 = time.process_time()
    bench_ws(args.games, args.players, False)
    if args.think:
        bench_ws(args.games, args.players, False, args.think)
    bench_in_process(args.games, args.players)
    if args.durable:
        bench_ws(args.games, args.players, True)
    bench_stdio(args.stdio_trips)
    print(f"(this script's own CPU: {time.process_time() - t0:.1f} s)")


if __name__ == "__main__":
    main()
