"""Editor benchmark (plain script, prints figures, asserts nothing):
- keystroke to validation result: a typed value through the buffers, the edited file text, validate_text, the
  messages placed under their fields and the rules text (the work the Content page does before it shows the
  result), target median <= 100 ms; and the whole Content page rerun that a keystroke causes, measured through
  Streamlit's AppTest (a Season card; a flock's Side B section), which adds AppTest's own overhead;
- a 200-game greedy playtest as the Playtest page runs it, target < 20 s.
Every typed value is new, so no memo answers it. CPU time is printed beside wall time (the machine is shared).
Run: .venv/bin/python benchmarks/bench_editor.py [--games N] [--players P] [--skip-playtest]"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from kcd.apps.editor.logic import buffers, catalog, fields, playtest, rules_text, runner, store, validation

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"
GREEN = "base/flocks/green.yaml"


def typed(index: int) -> str:
    """A new DSL value for each keystroke (some invalid, as while typing)."""
    forms = ["gian {n} fruit", "gain {n} fruit", "gain {n} fruitt", "gain 1 fruit; place {n} kiwi", "grow {n} kiwi"]
    return forms[index % len(forms)].format(n=index % 9 + 1) + " " * (index // 45)


def edit_latency(root: Path, rounds: int = 45) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds from a typed value to its located validation result and rules text."""
    items, _ = catalog.catalog(root)
    card = next(i for i in items if i.kind == "season_cards" and i.id == "least-flower")
    snap = store.read(root, SEASON)
    field = next(f for f in fields.item_fields(snap.text, card) if f.label == "victor")
    ctx = rules_text.check_context(root, SEASON)
    wall, cpu = [], []
    buf: dict = {}
    for index in range(rounds):
        value = typed(index)
        start, cpu_start = time.perf_counter(), time.process_time()
        buffers.put(buf, SEASON, field.doc_path, value, field.value)
        text = buffers.edited_text(buf, SEASON, snap.text)
        problems = validation.validate_edit(root, SEASON, text)
        validation.place(problems, SEASON, text, card, fields.item_fields(text, card))
        rules_text.render_field(value, field.schema.dsl or "effect", ctx)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
    return wall, cpu


def page_latency(root: Path, item: str, rel: str, path: list, section: str | None,
                 rounds: int = 20) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of the Content page's rerun after each keystroke (AppTest, the page's script)."""
    from streamlit.testing.v1 import AppTest

    os.environ["KCD_CONTENT"] = str(root)
    at = AppTest.from_file(str(REPO / "editor" / "Home.py"), default_timeout=120)
    at.switch_page("pages/1_Content.py")
    at.query_params["item"] = item
    at.run()
    if section:
        at.get("button_group")[0].set_value(section).run()
    widget = "_kcd_text_w0:" + json.dumps([rel, path])   # kcd.apps.editor.textfield.STATE_PREFIX + the field key
    wall, cpu = [], []
    for index in range(rounds):
        at.session_state[widget] = {"value": typed(index)}
        start, cpu_start = time.perf_counter(), time.process_time()
        at.run()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
    assert not at.exception, at.exception
    return wall, cpu


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
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--skip-playtest", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "content"
        shutil.copytree(REPO / "content", root)
        wall, cpu = edit_latency(root)
        print(f"keystroke -> validation result: median {statistics.median(wall[1:]):.1f} ms "
              f"(CPU {statistics.median(cpu[1:]):.1f} ms), first {wall[0]:.1f} ms, max {max(wall[1:]):.1f} ms "
              f"over {len(wall) - 1} warm keystrokes (target median <= 100 ms)")
        for label, item, rel, path, section in (
                ("Season card", "season_cards/least-flower", SEASON, [3, "victor"], None),
                ("flock, Side B", "flocks/green", GREEN, ["side_b", "track", 3, "benefit"], "Side B")):
            times, cpus = page_latency(root, item, rel, path, section)
            print(f"Content page rerun per keystroke ({label}, AppTest): median {statistics.median(times[1:]):.1f} ms "
                  f"(CPU {statistics.median(cpus[1:]):.1f} ms), max {max(times[1:]):.1f} ms")
        if args.skip_playtest:
            return
        playtest_figures(root, args.games, args.players, args.jobs)


if __name__ == "__main__":
    main()
