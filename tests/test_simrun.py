"""Where games run (interpreter/analysis/simrun.py): local processes, a Dask cluster, cancel and Ctrl-C; the cover design."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from kcd.content import load_ruleset
from kcd.analysis.sim import GameRecord, SimError, deal_leaders, simulate
from processes import interruptible

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def _group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is `pgid` (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(entry))
    return out


def test_dask_cluster_gives_the_same_records_as_local_processes(ruleset):
    distributed = pytest.importorskip("distributed")
    local = simulate(ruleset, 6, players=2, seed=11, bots=("random",), jobs=2, variant="vto")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        seen: list[int] = []
        remote = simulate(ruleset, 6, players=2, seed=11, bots=("random",), variant="vto",
                          scheduler=cluster.scheduler_address, progress=lambda done, total: seen.append(done))
        worker = next(iter(cluster.workers.values())).address
        with pytest.raises(SimError, match=r"is a Dask (Nanny|Worker), not its scheduler"):
            simulate(ruleset, 2, players=2, seed=11, bots=("random",), scheduler=worker)
    assert remote.records == local.records and not remote.cancelled
    assert seen[-1] == 6 and seen == sorted(seen)
    # the VTO records carry the tracker slots: at setup (season 1) and in the Wake up of seasons 2-4 (R-VTO-2/3)
    assert all(len(slots) == 4 for rec in remote.records for slots in rec.tracker_slots.values())


def test_a_port_that_answers_garbage_is_no_scheduler_and_the_run_exits_at_once():
    """`kcd simulate --scheduler` at a service that is not Dask (it answers bytes that are no Dask message) exits 1
    with "cannot reach the Dask scheduler", promptly and with no traceback (a half-started Client would wait
    20 s at exit and print one)."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    port = server.getsockname()[1]

    def answer() -> None:
        for _ in range(4):
            try:
                conn, _ = server.accept()
            except OSError:
                return
            conn.sendall(b"\xff" * 64 + b"HTTP/1.0 400 Bad Request\r\n\r\n")
            conn.close()

    threading.Thread(target=answer, daemon=True).start()
    start = time.monotonic()
    try:
        result = subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "simulate", "--games", "2", "--players", "2",
                                 "--scheduler", f"tcp://127.0.0.1:{port}"], capture_output=True, text=True,
                                cwd=ROOT, timeout=60)
    finally:
        server.close()
    assert result.returncode == 1, result.stderr
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr and time.monotonic() - start < 15


def test_cancel_stops_a_pool_run_and_every_worker_ends(ruleset):
    import multiprocessing

    stop = threading.Event()

    def progress(done: int, total: int) -> None:
        if done >= 2:
            stop.set()

    report = simulate(ruleset, 40, players=2, seed=0, bots=("random",), jobs=2, progress=progress, cancel=stop)
    assert report.cancelled and 2 <= len(report.records) < 40
    assert [r.seed for r in report.records] == list(range(len(report.records)))   # a prefix, in order
    assert multiprocessing.active_children() == []
    # one process: a callable token, checked between games
    calls = iter(range(100))
    report = simulate(ruleset, 10, players=2, seed=0, bots=("random",), cancel=lambda: next(calls) >= 3)
    assert report.cancelled and len(report.records) == 3


def test_ctrl_c_stops_kcd_simulate_and_leaves_no_process(tmp_path):
    """SIGINT to the process group (what a terminal's Ctrl-C sends) ends kcd simulate and all its workers, also when
    the suite itself runs in the background with SIGINT ignored (the child gets default handling back)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)   # as a suite started in the background has it
    try:
        proc = subprocess.Popen([sys.executable, "-m", "kcd.apps.cli.main", "simulate", "--games", "400", "--players",
                                 "2", "--bots", "greedy", "--jobs", "2"], cwd=ROOT, **interruptible(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    pgid = proc.pid
    deadline = time.monotonic() + 60
    while len(_group_members(pgid)) < 3 and time.monotonic() < deadline:   # the parent and its two workers
        time.sleep(0.2)
    assert len(_group_members(pgid)) >= 3, "the workers never started"
    time.sleep(1.0)
    os.killpg(pgid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(0.5)
    assert _group_members(pgid) == []


def test_cover_plays_both_sides_and_every_leader_card(ruleset):
    report = simulate(ruleset, 56, players=4, seed=3, bots=("random",), cover=True, jobs=2)
    records = report.records
    # each flock on each side half the time, and on each side in each seat equally (blocks of 2n = 8 games)
    by_flock_side = Counter((f, r.sides[f]) for r in records for f in r.players)
    assert set(by_flock_side.values()) == {28}
    by_seat_side = Counter((r.seat_order.index(f), r.sides[f]) for r in records for f in r.players)
    assert set(by_seat_side.values()) == {28}
    cards = Counter(card for r in records for card in r.leader_cards.values())
    all_cards = {item.id for item in ruleset.items("leader_cards")}
    assert set(cards) == all_cards
    for r in records:   # every card is its own Leader's
        for f, card in r.leader_cards.items():
            assert ruleset.item("leader_cards", card).parent == r.leaders[f]
    summary = report.summary()
    assert set(summary["win_rate"]["side"]) == {"A", "B"}
    assert set(summary["win_rate"]["leader_card"]) == all_cards


def test_fixed_choices_stay_fixed_under_cover(ruleset):
    report = simulate(ruleset, 8, players=2, seed=1, bots=("random",), cover=True,
                      sides={"red": "B"}, leaders={"green": "kahu"}, leader_cards={"green": "kahu-2"})
    for r in report.records:
        assert r.sides["red"] == "B" and r.leaders["green"] == "kahu" and r.leader_cards["green"] == "kahu-2"
    assert {r.sides["green"] for r in report.records} == {"A", "B"}


def test_deal_leaders_fills_in_the_rest_from_the_seed(ruleset):
    a = deal_leaders(ruleset, ["red", "green", "purple"], 5, {"green": "kahu"})
    assert a["green"] == "kahu" and len(set(a.values())) == 3
    assert a == deal_leaders(ruleset, ["red", "green", "purple"], 5, {"green": "kahu"})
    dealt = {tuple(deal_leaders(ruleset, ["red", "green"], s, {}).values()) for s in range(20)}
    assert len(dealt) > 5   # the seed deals different Leaders
    from kcd.engine.setup import SetupError

    with pytest.raises(SetupError, match="Leader `kahu` is given to two flocks"):
        deal_leaders(ruleset, ["red", "green"], 0, {"red": "kahu", "green": "kahu"})


def test_record_round_trip_and_old_records(ruleset):
    rec = simulate(ruleset, 1, players=2, seed=2, bots=("random",)).records[0]
    assert GameRecord.from_dict(rec.to_dict()) == rec
    assert sum(len(n) for n in rec.nests.values()) >= 1
    old = rec.to_dict()
    for key in ("leader_cards", "nests", "tracker_slots"):
        old.pop(key)
    old["some_future_field"] = 1
    back = GameRecord.from_dict(old)
    assert back.leader_cards == {} and back.seed == rec.seed
