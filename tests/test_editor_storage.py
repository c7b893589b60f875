"""Editor storage: compare-and-swap under a lock, so an outside write that lands
between the editor's check and its write is never lost, both where names can be exchanged in one step
(renameat2) and where they cannot (os.replace after a last check); temporary files are hidden beside their file
and cleaned at the next start, also after SIGKILL; modes kept (new files 0644); file and folder fsynced.
"""
from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kcd.apps.editor.logic import store

REPO = Path(__file__).resolve().parent.parent
REL = "base/nests.yaml"
TEXT = "- id: tree-1\n  vp: 0\n"


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A content folder with one file."""
    base = tmp_path / "content"
    (base / "base").mkdir(parents=True)
    (base / REL).write_text(TEXT)
    return base


def ok(_text: str) -> list[str]:
    """No validation problems."""
    return []


def stray_files(root: Path) -> list[str]:
    """Temporary or moved-aside files anywhere but `.kcd-tmp/`."""
    return [p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() and (p.name.endswith((".tmp", ".old")) or p.name.startswith("."))
            and store.TMP_DIR not in p.relative_to(root).parts]


def outside_in_place(path: Path, text: str) -> None:
    """An outside editor that truncates and rewrites the same file."""
    with open(path, "w") as handle:
        handle.write(text)


def outside_by_rename(path: Path, text: str) -> None:
    """An outside editor that writes a new file and renames it over the old one."""
    tmp = path.with_name("outside-editor.swp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _paused_save(root: Path, monkeypatch: pytest.MonkeyPatch, new_text: str):
    """Start a save in a thread that stops right after its check; returns (thread, checked, go, outcome)."""
    checked, go = threading.Event(), threading.Event()
    real = store.check_unchanged

    def check_then_wait(snapshot: store.Snapshot) -> None:
        real(snapshot)
        checked.set()
        assert go.wait(10)

    monkeypatch.setattr(store, "check_unchanged", check_then_wait)
    snap = store.read(root, REL)
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["result"] = store.save(snap, new_text, ok)
        except store.ConflictError as exc:
            outcome["conflict"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    assert checked.wait(10)
    return thread, go, outcome


@pytest.fixture(params=["exchange", "replace"])
def swap(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with the one-step name exchange (Linux) and with the os.replace fallback of other systems."""
    if request.param == "replace":
        monkeypatch.setattr(store, "_exchange", lambda a, b: False)
    return str(request.param)


@pytest.mark.parametrize("writer", [outside_in_place, outside_by_rename])
def test_outside_write_between_check_and_write_is_never_lost(root: Path, monkeypatch: pytest.MonkeyPatch,
                                                             writer, swap: str) -> None:
    thread, go, outcome = _paused_save(root, monkeypatch, "- id: tree-1\n  vp: 5\n")
    writer(root / REL, "- id: tree-1\n  vp: 0\n# written elsewhere\n")
    go.set()
    thread.join(10)
    conflict = outcome.get("conflict")
    assert conflict is not None, "the save must be refused"
    assert conflict.loaded_text == TEXT and conflict.disk_text.endswith("# written elsewhere\n")
    assert (root / REL).read_text().endswith("# written elsewhere\n")
    assert store.history(root, REL) == []          # the refused save keeps no stray history version
    assert not stray_files(root)


def test_second_editor_save_waits_for_the_lock_and_then_conflicts(root: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    other_snap = store.read(root, REL)
    thread, go, outcome = _paused_save(root, monkeypatch, "- id: tree-1\n  vp: 5\n")
    monkeypatch.setattr(store, "check_unchanged", _plain_check)   # only the first save pauses
    second: dict = {}

    def other() -> None:
        try:
            store.save(other_snap, "- id: tree-1\n  vp: 7\n", ok)
        except store.ConflictError as exc:
            second["conflict"] = exc

    rival = threading.Thread(target=other)
    rival.start()
    time.sleep(0.3)
    assert rival.is_alive()          # blocked on the lock while the first save is between check and write
    go.set()
    thread.join(10)
    rival.join(10)
    assert "result" in outcome and "conflict" in second
    assert (root / REL).read_text() == "- id: tree-1\n  vp: 5\n"


def _plain_check(snapshot: store.Snapshot) -> None:
    """store.check_unchanged as shipped (the first save's pause is patched in only for that thread's call)."""
    if store.digest(store.disk_text(snapshot.root, snapshot.rel)) != snapshot.digest:
        raise store.ConflictError(snapshot.rel, snapshot.text, store.disk_text(snapshot.root, snapshot.rel))


def test_outside_writes_racing_many_saves_are_all_kept_or_refused(root: Path) -> None:
    """A writer thread appends numbered lines by rename while the editor saves in a loop: every outside line
    that was written is still in the file at the end (the editor never overwrote one it had not seen). Only
    where names can be exchanged (Linux): the os.replace fallback leaves an outside rename that lands in the
    microseconds between its last check and its replace unseen, which a thread in this loop does hit."""
    stop = threading.Event()
    written: list[int] = []

    def writer() -> None:
        n = 0
        while not stop.is_set() and n < 400:
            path = root / REL
            text = path.read_text()       # never absent, not even while a save swaps it
            outside_by_rename(path, text + f"# outside {n}\n")
            written.append(n)
            n += 1
            time.sleep(0.008)

    thread = threading.Thread(target=writer)
    thread.start()
    saves = conflicts = 0
    start = time.time()
    while time.time() < start + 8 and (saves < 20 or time.time() < start + 1.5):
        snap = store.read(root, REL)
        try:
            store.save(snap, snap.text + f"# editor {saves}\n", ok)
            saves += 1
        except store.ConflictError:
            conflicts += 1
    stop.set()
    thread.join(10)
    final = (root / REL).read_text()
    lost = [n for n in written if f"# outside {n}\n" not in final]
    assert not lost, f"outside writes lost: {lost[:5]} ({saves} saves, {conflicts} refused)"
    assert saves > 0 and not stray_files(root)


def _write_at_the_swap(monkeypatch: pytest.MonkeyPatch, writes: list) -> None:
    """Make the outside writes `writes` (callables) land one by one at the last instant before each rename
    onto the content file (after every check the editor makes)."""
    for name in ("_exchange", "_replace"):
        real = getattr(store, name)

        def wrapped(a: Path, b: Path, real=real) -> object:
            if writes and Path(b).name == Path(REL).name and store.HISTORY_DIR not in Path(b).parts:
                writes.pop(0)()
            return real(a, b)

        monkeypatch.setattr(store, name, wrapped)


@pytest.mark.parametrize("writer", [outside_in_place, outside_by_rename])
def test_an_outside_write_at_the_very_swap_goes_back_and_the_save_is_refused(root: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          writer) -> None:
    """The exchange hands over the file it replaced: one the editor had not seen is put back, never lost."""
    outside = "- id: tree-1\n  vp: 0\n# at the swap\n"
    _write_at_the_swap(monkeypatch, [lambda: writer(root / REL, outside)])
    snap = store.read(root, REL)
    with pytest.raises(store.ConflictError) as caught:
        store.save(snap, "- id: tree-1\n  vp: 5\n", ok)
    assert caught.value.disk_text == outside and (root / REL).read_text() == outside
    assert store.history(root, REL) == [] and not stray_files(root)


def test_an_in_place_write_at_the_very_replace_goes_back_where_names_cannot_be_exchanged(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The os.replace fallback holds a second link to the checked file: an in-place write is still seen."""
    monkeypatch.setattr(store, "_exchange", lambda a, b: False)
    outside = "- id: tree-1\n  vp: 0\n# in place\n"
    _write_at_the_swap(monkeypatch, [lambda: outside_in_place(root / REL, outside)])
    with pytest.raises(store.ConflictError):
        store.save(store.read(root, REL), "- id: tree-1\n  vp: 5\n", ok)
    assert (root / REL).read_text() == outside and not stray_files(root)


def test_a_second_outside_write_during_the_put_back_stays_and_the_first_goes_to_history(
        root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = "# first outside\n", "# second outside\n"
    _write_at_the_swap(monkeypatch, [lambda: outside_by_rename(root / REL, first),
                                     lambda: outside_by_rename(root / REL, second)])
    with pytest.raises(store.ConflictError):
        store.save(store.read(root, REL), "- id: tree-1\n  vp: 5\n", ok)
    assert (root / REL).read_text() == second
    assert [p.read_text() for p in store.history(root, REL)] == [first]
    assert not stray_files(root)


READER = r"""
import json, sys, time
path, valid, stop = sys.argv[1], set(json.load(open(sys.argv[2]))), sys.argv[3]
import os
reads = missing = bad = 0
while not os.path.exists(stop):
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except FileNotFoundError:
        missing += 1
        continue
    reads += 1
    bad += text not in valid
print(json.dumps({"reads": reads, "missing": missing, "bad": bad}))
"""


def _saving_forever(root: Path, texts: list[str]) -> None:
    """The killed writer (a forked child): save, save again, undo, for ever, as an editor does."""
    n = 0
    while True:
        snap = store.read(root, REL)
        try:
            snap = store.save(snap, texts[n % len(texts)], ok).snapshot
            store.save(snap, texts[(n + 3) % len(texts)], ok)
            store.undo(root, REL)
        except store.ConflictError:
            pass
        n += 1


@pytest.mark.parametrize("swap_kind,kills", [("exchange", 500), ("replace", 150)])
def test_a_writer_killed_at_random_points_never_leaves_the_file_missing_or_partial(
        root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swap_kind: str, kills: int) -> None:
    """SIGKILL a saving process at random moments, `kills` times, while another process reads the file in a
    loop: every read finds the file, holding one whole text the editor wrote (the old or the new one); after
    the clean-up of the next start nothing is left beside the content. Bounded: about 15 s for 500 kills."""
    import json
    import random

    if swap_kind == "replace":
        monkeypatch.setattr(store, "_exchange", lambda a, b: False)
    pad = "# padding so that a half-written file would show\n" * 4000
    texts = [f"- id: tree-1\n  vp: {n}\n{pad}" for n in range(5)]
    (root / REL).write_text(texts[0])
    (tmp_path / "valid.json").write_text(json.dumps(texts))
    stop = tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(root / REL), str(tmp_path / "valid.json"),
                               str(stop)], stdout=subprocess.PIPE, text=True)
    rng = random.Random(20)
    start = time.monotonic()
    try:
        for kill in range(kills):
            ready_r, ready_w = os.pipe()
            pid = os.fork()
            if pid == 0:   # the child never returns into pytest
                try:
                    os.close(ready_r)
                    # a kill is no power cut: without the disk waits of fsync the saves are fast, and the kills
                    # land inside their rename steps far more often
                    os.fsync = lambda fd: None
                    os.write(ready_w, b"!")
                    _saving_forever(root, texts)
                finally:
                    os._exit(1)
            os.close(ready_w)
            try:
                # the clock starts when the child is saving, not when it was forked: on a loaded machine a fork
                # can take longer than the whole window, and the kills would then never land inside a save
                os.read(ready_r, 1)
                time.sleep(rng.uniform(0, 0.004))   # a save and an undo take about a millisecond: kill inside them
            finally:   # never leave a writer running, whatever stops the test
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                os.close(ready_r)
            text = (root / REL).read_text() if (root / REL).exists() else None
            assert text in texts, f"after kill {kill} the file is {'missing' if text is None else 'not whole'}"
            assert time.monotonic() - start < 60, "the kill test must stay under a minute"
    finally:
        stop.write_text("")
        out, _ = reader.communicate(timeout=30)
    seen = json.loads(out)
    assert seen["missing"] == 0 and seen["bad"] == 0, seen
    assert seen["reads"] > kills
    store.clean_tmp(root)
    assert not stray_files(root)
    assert sorted(p.name for p in (root / store.TMP_DIR).iterdir()) == [store.LOCK_NAME]
    assert store.history(root, REL), "the writers must have saved"


KILL_LOOP = r"""
import sys
from pathlib import Path
from kcd.apps.editor.logic import store
root = Path(sys.argv[1])
print("ready", flush=True)
n = 0
while True:
    snap = store.read(root, "base/nests.yaml")
    try:
        store.save(snap, f"- id: tree-1\n  vp: {n % 7}\n", lambda t: [])
        store.save_draft(snap, f"draft {n}\n")
    except store.ConflictError:
        pass
    n += 1
"""


def test_sigkill_during_saves_leaves_no_temp_file_beside_content(root: Path) -> None:
    """Kill a process that saves in a loop, again and again: after the next start's clean-up the file is
    whole (one of the texts it saved), nothing is left beside the content, and `.kcd-tmp/` is empty."""
    valid = {f"- id: tree-1\n  vp: {n}\n" for n in range(7)} | {TEXT}
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for attempt in range(12):
        proc = subprocess.Popen([sys.executable, "-c", KILL_LOOP, str(root)], env=env, stdout=subprocess.PIPE,
                                text=True)
        # wait for the import (0.3 s, or far more on a loaded machine), then kill at varied moments in the loop
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        time.sleep(0.1 + 0.037 * attempt)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        store.clean_tmp(root)               # what the editor does when it starts
        assert not stray_files(root)
        assert (root / REL).read_text() in valid
        assert sorted(p.name for p in (root / store.TMP_DIR).iterdir()) == [store.LOCK_NAME]
    assert store.history(root, REL), "the loop must have saved at least once"


def test_clean_tmp_puts_back_a_file_moved_aside_by_a_killed_save(root: Path) -> None:
    folder = store.tmp_folder(root)
    aside = folder / "base%2Fnests%2Eyaml.0123.old"
    os.rename(root / REL, aside)
    (folder / "abc.tmp").write_text("half")
    removed = store.clean_tmp(root)
    assert (root / REL).read_text() == TEXT
    assert sorted(p.name for p in folder.iterdir()) == [store.LOCK_NAME]
    assert any("put back as base/nests.yaml" in r for r in removed)


def test_old_style_temp_files_beside_content_are_cleaned(root: Path) -> None:
    (root / "base" / ".nests.yaml.x1y2.tmp").write_text("half")
    store.clean_tmp(root)
    assert not stray_files(root)


def test_modes_kept_and_new_files_0644(root: Path) -> None:
    os.chmod(root / REL, 0o640)
    snap = store.read(root, REL)
    store.save(snap, "- id: tree-1\n  vp: 2\n", ok)
    assert stat.S_IMODE((root / REL).stat().st_mode) == 0o640
    draft = store.save_draft(snap, "draft\n")
    assert stat.S_IMODE(draft.stat().st_mode) == 0o644
    new = store.write_file(root, "mods/x/pack.yaml", "id: x\n")
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    fresh = store.Snapshot(root, "base/leaders.yaml", "", store.digest(""))
    store.save(fresh, "[]\n", ok)
    assert stat.S_IMODE((root / "base/leaders.yaml").stat().st_mode) == 0o644
    assert stat.S_IMODE(store.history(root, REL)[0].stat().st_mode) == 0o644


def test_save_fsyncs_the_file_and_its_folder(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    store.save(store.read(root, REL), "- id: tree-1\n  vp: 3\n", ok)
    assert "file" in synced and "dir" in synced
    assert synced[-1] == "dir"      # the rename into the content folder is made durable last


def test_creating_a_file_someone_else_just_created_is_refused(root: Path) -> None:
    fresh = store.Snapshot(root, "base/leaders.yaml", "", store.digest(""))
    (root / "base/leaders.yaml").write_text("# theirs\n")
    with pytest.raises(store.ConflictError):
        store.save(fresh, "[]\n", ok)
    assert (root / "base/leaders.yaml").read_text() == "# theirs\n"


# --- versions (the A/B page lists these) ------------------------------------------------------------------------

def test_versions_lists_unsaved_draft_saved_and_earlier_saves(root: Path) -> None:
    from kcd.apps.editor.logic import autosave
    from kcd.apps.editor.logic.versions import SAVED, versions

    assert versions(root, REL) == [(SAVED, TEXT)]
    snap = store.read(root, REL)
    snap = store.save(snap, "- id: tree-1\n  vp: 1\n", ok).snapshot
    store.save(snap, "- id: tree-1\n  vp: 2\n", ok)
    store.save_draft(snap, "- id: tree-1\n  vp: 9\n")
    autosave.record(root, autosave.Pending(REL, "- id: tree-1\n  vp: 2\n", {(0, "vp"): 4}))
    found = versions(root, REL)
    labels = [label for label, _ in found]
    assert [text for _, text in found] == ["- id: tree-1\n  vp: 4\n", "- id: tree-1\n  vp: 9\n",
                                           "- id: tree-1\n  vp: 2\n", "- id: tree-1\n  vp: 1\n", TEXT]
    assert labels[0].startswith("Unsaved edits (autosaved ") and labels[1].startswith("Draft (drafts/base/nests.yaml")
    assert labels[2] == SAVED and labels[3].startswith("Earlier save ") and "(#1)" in labels[3]


# --- paths that name no file ------------------------------------------------------------------

@pytest.mark.parametrize("rel,words", [
    ("", "names no file"), (".", "names no file"), ("./", "names no file"), ("  ", "names no file"),
    ("base", "is a folder, not a file"), ("base/", "is a folder, not a file"),
    ("base/nests.yaml/x.yaml", "`base/nests.yaml` is a file, not a folder"),
])
def test_an_empty_path_a_dot_or_a_folder_gets_a_clear_error_from_every_store_call(root: Path, rel: str,
                                                                                 words: str) -> None:
    snap = store.Snapshot(root, rel, "", store.digest(""))
    calls = {
        "read": lambda: store.read(root, rel), "disk_text": lambda: store.disk_text(root, rel),
        "save": lambda: store.save(snap, "x: 1\n", ok), "write_file": lambda: store.write_file(root, rel, "x\n"),
        "save_draft": lambda: store.save_draft(snap, "x\n"), "undo": lambda: store.undo(root, rel),
        "history": lambda: store.history(root, rel), "draft_path": lambda: store.draft_path(root, rel),
        "discard_draft": lambda: store.discard_draft(root, rel), "check_unchanged": lambda: store.check_unchanged(snap),
    }
    for name, call in calls.items():
        with pytest.raises(store.NotAFileError) as caught:
            call()
        assert words in str(caught.value), (name, str(caught.value))
        # a ValueError for callers checking arguments, an OSError for the pages that show OSError messages
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, OSError)
    assert (root / REL).read_text() == TEXT and not stray_files(root)


def test_a_scratch_write_onto_a_folder_gets_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(store.NotAFileError, match="is a folder, not a file"):
        store.atomic_write(tmp_path, "x\n")
