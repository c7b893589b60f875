"""Editor benchmark (plain script, prints figures, asserts nothing):
- latency from an edit to its validation result (buffer -> edited text -> validate_text -> placed messages
  -> rules text), target < 200 ms;
- a 200-game greedy playtest as the Playtest page runs it, target < 30 s.
Run: .venv/bin/python benchmarks/bench_editor.py [--games N] [--players P]"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from editor.logic import buffers, catalog, fields, playtest, rules_text, store, validation

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


def main() -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "content"
        shutil.copytree(REPO / "content", root)
        times = edit_latency(root)
        print(f"edit -> validation result: first {times[0]:.1f} ms, median {statistics.median(times[1:]):.1f} ms, "
              f"max {max(times[1:]):.1f} ms over {len(times) - 1} warm edits (target < 200 ms)")
        ruleset = playtest.load(root, [])
        setup = playtest.PlaytestSetup(players=args.players, games=args.games, bots=("greedy",), jobs=args.jobs)
        start = time.perf_counter()
        cpu_start = _cpu()
        report = playtest.run(ruleset, setup)
        elapsed = time.perf_counter() - start
        cpu = _cpu() - cpu_start
        summary = report.summary()
        print(f"playtest: {summary['games']} greedy games, {args.players} players, in {elapsed:.1f} s "
              f"on {args.jobs} process(es) ({summary['games'] / elapsed:.1f} games/s, mean {summary['mean_decisions']:.0f} decisions) "
              f"(target < 30 s)")
        # CPU time does not depend on other load on the machine: the wall time on idle cores is about cpu / jobs
        print(f"  CPU {cpu:.1f} s in all processes ({cpu / max(summary['games'], 1):.3f} s per game; "
              f"{cpu / args.jobs:.1f} s per process)")


if __name__ == "__main__":
    main()
