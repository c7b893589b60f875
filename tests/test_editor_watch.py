"""A playtest whose browser tab is gone is stopped (editor/watch.py): the Watcher cancels a run once its session
has been disconnected for the grace period, leaves a connected session's run alone, forgets finished runs, and
a real child process it cancels leaves no process behind."""
from __future__ import annotations

import shutil
from pathlib import Path

from kcd.apps.editor import watch
from kcd.apps.editor.logic import playtest, runner

REPO = Path(__file__).resolve().parent.parent


class FakeRun:
    """A run that finishes when told to, and records a cancel."""

    def __init__(self) -> None:
        self.finished = False
        self.cancelled = 0

    def poll(self) -> "FakeRun":
        return self

    def cancel(self) -> "FakeRun":
        self.cancelled += 1
        self.finished = True
        return self


def test_a_run_of_a_gone_session_is_cancelled_after_the_grace():
    now = [100.0]
    alive = {"tab-a": True, "tab-b": True}
    watcher = watch.Watcher(lambda sid: alive[sid], grace=5.0, clock=lambda: now[0])
    a, b, done = FakeRun(), FakeRun(), FakeRun()
    watcher.add(a, "tab-a")
    watcher.add(b, "tab-b")
    watcher.add(done, "tab-a")
    done.finished = True
    assert watcher.sweep() == [] and set(map(id, watcher.watched())) == {id(a), id(b)}   # finished: forgotten
    alive["tab-b"] = False                       # tab b closed
    assert watcher.sweep() == [] and b.cancelled == 0
    now[0] += 4.0
    assert watcher.sweep() == []                 # within the grace: a reconnect keeps it
    now[0] += 1.5
    assert watcher.sweep() == [b] and b.cancelled == 1 and a.cancelled == 0
    assert watcher.watched() == [a]
    alive["tab-a"] = False
    now[0] += 1
    watcher.sweep()
    alive["tab-a"] = True                        # back before the grace ran out
    now[0] += 10
    assert watcher.sweep() == [] and a.cancelled == 0


def test_a_cancelled_real_playtest_leaves_no_process(tmp_path: Path):
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    run = playtest.start(root, playtest.PlaytestSetup(games=500, bots=("random",), jobs=2))
    gone = {"alive": True}
    watcher = watch.Watcher(lambda sid: gone["alive"], grace=0.0)
    watcher.add(run, "tab")
    assert watcher.sweep() == []
    gone["alive"] = False
    watcher.sweep()                              # noted as gone
    assert watcher.sweep() == [run]
    assert run.status.cancelled and runner.group_members(run.pid) == [] and not run.folder.exists()
