"""Saving that loses nothing: snapshots, diffs, conflict detection, atomic writes, history and undo."""
from __future__ import annotations

import difflib
import hashlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from editor.logic.confine import inside

HISTORY_DIR = ".kcd-history"
DRAFTS_DIR = "drafts"
HISTORY_KEEP = 20  # versions kept per file; enough to undo a working session


@dataclass(frozen=True)
class Snapshot:
    """A content file as the editor loaded it: its text and a fingerprint to detect later changes on disk."""

    root: Path
    rel: str
    text: str
    digest: str


@dataclass(frozen=True)
class SaveResult:
    """What a save did: the path written, the history copy of the previous version, the new snapshot."""

    path: Path
    backup: Path | None
    snapshot: Snapshot


class ConflictError(RuntimeError):
    """The file changed on disk since it was loaded; carries both versions so the user can compare."""

    def __init__(self, rel: str, loaded_text: str, disk_text: str) -> None:
        super().__init__(f"{rel} changed on disk since it was loaded; not overwriting it")
        self.rel = rel
        self.loaded_text = loaded_text
        self.disk_text = disk_text


class InvalidContentError(RuntimeError):
    """Refused to save because the new text does not validate; carries the formatted messages."""

    def __init__(self, rel: str, messages: Sequence[str]) -> None:
        super().__init__(f"{rel} not saved: {len(messages)} problem(s)\n" + "\n".join(messages))
        self.rel = rel
        self.messages = list(messages)


class NothingToUndoError(RuntimeError):
    """No earlier version of the file is kept."""


def digest(text: str) -> str:
    """sha256 hex of the text (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read(root: Path, rel: str) -> Snapshot:
    """Load a content file (confined to `root`) as a snapshot."""
    path = inside(root, rel)
    text = path.read_text(encoding="utf-8")
    return Snapshot(Path(root), rel, text, digest(text))


def unified_diff(old: str, new: str, rel: str) -> str:
    """The unified diff (difflib) between two versions of a file, as shown before saving."""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"a/{rel}", tofile=f"b/{rel}"))


def atomic_write(path: Path, text: str) -> None:
    """Write text through a temp file in the same folder and os.replace, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _history_folder(root: Path, rel: str) -> Path:
    """Where earlier versions of `rel` are kept."""
    return inside(root, f"{HISTORY_DIR}/{rel}")


def history(root: Path, rel: str) -> list[Path]:
    """Kept earlier versions of `rel`, oldest first."""
    folder = _history_folder(root, rel)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.endswith(".bak"))


def _keep_previous(root: Path, rel: str, text: str) -> Path:
    """Store `text` as the newest history version of `rel`; prune the oldest beyond HISTORY_KEEP."""
    folder = _history_folder(root, rel)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    index = len(history(root, rel))
    existing = history(root, rel)
    if existing:
        index = int(existing[-1].name.split("-", 1)[0]) + 1
    backup = folder / f"{index:06d}-{stamp}.bak"
    atomic_write(backup, text)
    for old in history(root, rel)[:-HISTORY_KEEP]:
        old.unlink()
    return backup


def check_unchanged(snapshot: Snapshot) -> None:
    """Raise ConflictError when the file on disk is no longer what the snapshot holds."""
    path = inside(snapshot.root, snapshot.rel)
    disk = path.read_text(encoding="utf-8") if path.exists() else ""
    if digest(disk) != snapshot.digest:
        raise ConflictError(snapshot.rel, snapshot.text, disk)


def save(snapshot: Snapshot, new_text: str, problems: Callable[[str], Sequence[str]]) -> SaveResult:
    """Write new_text over the snapshot's file: only when `problems(new_text)` is empty and the file is
    unchanged on disk; the previous version goes to history so the save can be undone."""
    path = inside(snapshot.root, snapshot.rel)
    found = list(problems(new_text))
    if found:
        raise InvalidContentError(snapshot.rel, found)
    check_unchanged(snapshot)
    backup = _keep_previous(snapshot.root, snapshot.rel, snapshot.text) if path.exists() else None
    atomic_write(path, new_text)
    return SaveResult(path, backup, Snapshot(snapshot.root, snapshot.rel, new_text, digest(new_text)))


def save_draft(snapshot: Snapshot, new_text: str) -> Path:
    """Write an unvalidated edit as a draft under `drafts/<rel>` (never over the real file)."""
    path = inside(snapshot.root, f"{DRAFTS_DIR}/{snapshot.rel}")
    atomic_write(path, new_text)
    return path


def draft_path(root: Path, rel: str) -> Path:
    """Where the draft of `rel` lives (it may not exist)."""
    return inside(root, f"{DRAFTS_DIR}/{rel}")


def drafts(root: Path) -> dict[str, str]:
    """Every saved draft: content-relative path of the real file -> draft text."""
    folder = inside(root, DRAFTS_DIR)
    if not folder.is_dir():
        return {}
    out = {}
    for path in sorted(folder.rglob("*.yaml")):
        out[path.relative_to(folder).as_posix()] = path.read_text(encoding="utf-8")
    return out


def discard_draft(root: Path, rel: str) -> None:
    """Delete the draft of `rel` if there is one."""
    path = draft_path(root, rel)
    if path.exists():
        path.unlink()


def undo(root: Path, rel: str, current: Snapshot | None = None) -> Snapshot:
    """Put back the newest kept version of `rel` (removing it from history); refuses if the file changed
    on disk since `current` was loaded."""
    kept = history(root, rel)
    if not kept:
        raise NothingToUndoError(f"no earlier version of {rel} is kept")
    if current is not None:
        check_unchanged(current)
    text = kept[-1].read_text(encoding="utf-8")
    atomic_write(inside(root, rel), text)
    kept[-1].unlink()
    return Snapshot(Path(root), rel, text, digest(text))


def copy_content(root: Path, dest: Path) -> Path:
    """Copy the content folder (without history and drafts) to dest, for playtests of draft content."""
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(HISTORY_DIR, DRAFTS_DIR, ".*.tmp"),
                    dirs_exist_ok=True, symlinks=False)
    return dest
