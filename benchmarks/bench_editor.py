"""Editor benchmark (plain script, prints figures, asserts nothing):
- latency from an edit to its validation result (buffer -> edited text -> validate_text -> placed messages
  -> rules text), target < 200 ms;
- a 200-game greedy two-player playtest on 2 processes as the Playtest page runs it (a child process of its own,
  editor/logic/runner.py, from start to the last record read back), target <= 20 s; CPU time of every process.
Run: nice -n 10 .venv/bin/python benchmarks/bench_editor.py [--games N] [--players P] [--jobs J]"""
from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from editor.logic import buffers, catalog, fields, playtest, rules_text, runner, store, validation

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"


def edit_latency(root: Path, rounds: int = 30) -> list[float]:
    """Milliseconds from a typed value to its located validation result and rules text, per edit."""
    items, _ = catalog.catalog(root)
    card = next(i for i in items if i.kind == "season_cards" and i.id == "least-flower")
    snap = store.read(root, SEASON)
    field = next(f for f in fields.item_fields(snap.text, card) if f.label == "victor")
    ctx = rules_text.check_context(root, SEASON)
    typed = ["gian 2 fruit", "gain 2 fruit", "gain 3 fruit", "gain 2 fruitt", "gain 1 fruit; place 1 kiwi"]
    out = []
    buf: dict = {}
    for index in range(rounds):
        value = typed[index % len(typed)]
        start = time.perf_counter()
        buffers.put(buf, SEASON, field.doc_path, value, field.value)
        text = buffers.edited_text(buf, SEASON, snap.text)
        problems = validation.validate_edit(root, SEASON, text)
        validation.place(problems, SEASON, text, card, fields.item_fields(text, card))
        rules_text.render_field(value, field.schema.dsl or "effect", ctx)
        out.append((time.perf_counter() - start) * 1000)
    return out


def _cpu() -> float:
    """User + system CPU seconds of this process and its finished children (the playtest's workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def playtest_figures(root: Path, games: int, players: int, jobs: int) -> None:
    """Time a greedy playtest exactly as the Playtest page runs it (runner child, its workers, records streamed
    back) and print wall and CPU time."""
    setup = playtest.PlaytestSetup(players=players, games=games, bots=("greedy",), jobs=jobs)
    start = time.perf_counter()
    cpu_start = _cpu()
    status = runner.start(runner.Job(str(root), setup)).wait(interval=0.05)
    elapsed = time.perf_counter() - start
    cpu = _cpu() - cpu_start   # the child and its workers are reaped by now: their CPU is counted
    if not status.succeeded:
        raise SystemExit(f"playtest failed: {status.error}")
    summary = playtest.report_of(status.records["A"]).summary()
    print(f"playtest: {summary['games']} greedy games, {players} players, in {elapsed:.1f} s wall on {jobs} "
          f"process(es) ({summary['games'] / elapsed:.1f} games/s, mean {summary['mean_decisions']:.0f} decisions) "
          f"(target <= 20 s)")
    # CPU time does not depend on other load on the machine: the wall time on idle cores is about cpu / jobs
    print(f"  CPU {cpu:.1f} s in all processes ({cpu / max(summary['games'], 1):.3f} s per game; "
          f"{cpu / jobs:.1f} s per process)")


def main() -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "content"
        shutil.copytree(REPO / "content", root)
        times = edit_latency(root)
        print(f"edit -> validation result: first {times[0]:.1f} ms, median {statistics.median(times[1:]):.1f} ms, "
              f"max {max(times[1:]):.1f} ms over {len(times) - 1} warm edits (target < 200 ms)")
        playtest_figures(root, args.games, args.players, args.jobs)


if __name__ == "__main__":
    main()
