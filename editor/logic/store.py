"""Saving that loses nothing: snapshots, diffs, compare-and-swap writes under a lock, history and undo.

Every write into the content folder goes through a temporary file in the private folder `.kcd-tmp/`
(never beside the content) and is committed by `_swap`: under an fcntl lock the file on disk is moved
aside, compared with what the editor loaded, and only then replaced; an outside write that landed after
the check is put back and the save refused (ConflictError carries both versions). Leftovers of a killed
save stay in `.kcd-tmp/` and are removed by `clean_tmp` at the next start.
"""
from __future__ import annotations

import contextlib
import difflib
import fcntl
import hashlib
import os
import shutil
import time
import uuid
from urllib.parse import quote, unquote
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from editor.logic.confine import inside

HISTORY_DIR = ".kcd-history"
DRAFTS_DIR = "drafts"
TMP_DIR = ".kcd-tmp"
LOCK_NAME = "lock"
HISTORY_KEEP = 20  # versions kept per file; enough to undo a working session
NEW_FILE_MODE = 0o644  # the usual mode of a new text file (mkstemp would give 0600)
# folders of the content root that hold the editor's own files, never content
PRIVATE_DIRS = (HISTORY_DIR, DRAFTS_DIR, TMP_DIR, ".kcd-autosave")


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
    """Load a content file (confined to `root`) as a snapshot; a missing file reads as empty text."""
    path = inside(root, rel)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return Snapshot(Path(root), rel, text, digest(text))


def disk_text(root: Path, rel: str) -> str:
    """The file's text on disk now ("" when it does not exist)."""
    path = inside(root, rel)
    return path.read_text(encoding="utf-8") if path.exists() else ""


def unified_diff(old: str, new: str, rel: str) -> str:
    """The unified diff (difflib) between two versions of a file, as shown before saving."""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"a/{rel}", tofile=f"b/{rel}"))


# --- the private temporary folder and the lock ----------------------------------------------------------------

def tmp_folder(root: Path) -> Path:
    """`.kcd-tmp/` of the content root (created, private to the user)."""
    folder = inside(root, TMP_DIR)
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@contextlib.contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold the content folder's write lock (fcntl.flock on `.kcd-tmp/lock`): editor writers take turns."""
    handle = os.open(tmp_folder(root) / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(handle, fcntl.LOCK_UN)
        os.close(handle)


def _fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in `folder` durable."""
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _temp_copy(folder: Path, text: str, mode: int) -> Path:
    """A new fsynced file in `folder` holding `text` with `mode` (the caller renames or removes it)."""
    tmp = folder / f"{uuid.uuid4().hex}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def clean_tmp(root: Path) -> list[str]:
    """Remove what killed saves left: everything in `.kcd-tmp/` but the lock, and temporary files of the
    older editor (`.NAME.yaml.*.tmp` beside content). Returns the removed paths, content-relative."""
    removed: list[str] = []
    base = Path(root)
    if not (base / TMP_DIR).is_dir() and not any(base.rglob(".*.tmp")):
        return removed
    with locked(root):
        for path in sorted((base / TMP_DIR).iterdir()):
            if path.name == LOCK_NAME or not path.is_file() or path.is_symlink():
                continue
            if path.name.endswith(".old"):
                # a save killed between moving the file aside and linking the new one: the file goes back
                rel = unquote(path.name.split(".", 1)[0])
                try:
                    inside(root, rel)
                except ValueError:
                    pass
                else:
                    _put_back(root, rel, path)
                    removed.append(f"{TMP_DIR}/{path.name} (put back as {rel})")
                    continue
            path.unlink()
            removed.append(f"{TMP_DIR}/{path.name}")
        for path in sorted(base.rglob(".*.tmp")):
            if path.is_file() and not path.is_symlink() and TMP_DIR not in path.relative_to(base).parts:
                path.unlink()
                removed.append(path.relative_to(base).as_posix())
    return removed


# --- writing ---------------------------------------------------------------------------------------------------

def write_file(root: Path, rel: str, text: str) -> Path:
    """Write `text` to `rel` (confined) through `.kcd-tmp/` and a rename, keeping the file's mode (new files
    0644) and fsyncing file and folder; no comparison (for drafts, history and new pack files)."""
    path = inside(root, rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else NEW_FILE_MODE
    tmp = _temp_copy(tmp_folder(root), text, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)
    return path


def atomic_write(path: Path, text: str) -> None:
    """Write text to a path outside any content folder (scratch copies) via a temp file in its folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else NEW_FILE_MODE
    tmp = _temp_copy(path.parent, text, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _swap(root: Path, rel: str, expected: Snapshot, text: str) -> None:
    """Compare-and-swap (caller holds the lock): replace `rel` with `text` only if the file is still the
    snapshot's text. The current file is first moved aside into `.kcd-tmp/` in one rename, so whatever an
    outside writer put there, even after the check, is what gets compared; a changed file goes back and
    the save is refused. A file that reappears in the instant between (an outside write) wins too."""
    path = inside(root, rel)
    folder = tmp_folder(root)
    exists = path.exists()
    mode = path.stat().st_mode & 0o7777 if exists else NEW_FILE_MODE
    new = _temp_copy(folder, text, mode)
    try:
        if not exists:
            if expected.text:
                raise ConflictError(rel, expected.text, "")
            try:
                os.link(new, path)   # fails if someone created the file meanwhile
            except FileExistsError:
                raise ConflictError(rel, expected.text, disk_text(root, rel)) from None
            _fsync_dir(path.parent)
            return
        # the name says whose file it is, so `clean_tmp` can put it back after a kill at this very moment
        aside = folder / f"{quote(rel, safe='').replace('.', '%2E')}.{uuid.uuid4().hex}.old"
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            raise ConflictError(rel, expected.text, "") from None
        try:
            old = aside.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            old = None
        if old is None or digest(old) != expected.digest:
            _put_back(root, rel, aside)
            raise ConflictError(rel, expected.text, disk_text(root, rel))
        try:
            os.link(new, path)
        except FileExistsError:
            # an outside writer created the file while ours was aside: theirs is newer, keep it
            aside.unlink()
            raise ConflictError(rel, expected.text, disk_text(root, rel)) from None
        except BaseException:
            _put_back(root, rel, aside)
            raise
        aside.unlink()
        _fsync_dir(path.parent)
    finally:
        new.unlink(missing_ok=True)


def _put_back(root: Path, rel: str, aside: Path) -> None:
    """Return a moved-aside file to its place; if a newer file already took it, the later one stays and the
    moved-aside one becomes the newest history version (so no outside write is lost)."""
    path = inside(root, rel)
    try:
        os.link(aside, path)
    except FileExistsError:
        text = aside.read_text(encoding="utf-8", errors="replace")
        kept = history(root, rel)
        if not kept or kept[-1].read_text(encoding="utf-8", errors="replace") != text:
            _keep_previous(root, rel, text)
    aside.unlink()
    _fsync_dir(path.parent)


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
    existing = history(root, rel)
    index = int(existing[-1].name.split("-", 1)[0]) + 1 if existing else 0
    stamp = time.strftime("%Y%m%dT%H%M%S")
    backup = write_file(root, f"{HISTORY_DIR}/{rel}/{index:06d}-{stamp}.bak", text)
    for old in history(root, rel)[:-HISTORY_KEEP]:
        old.unlink()
    return backup


def check_unchanged(snapshot: Snapshot) -> None:
    """Raise ConflictError when the file on disk is no longer what the snapshot holds."""
    disk = disk_text(snapshot.root, snapshot.rel)
    if digest(disk) != snapshot.digest:
        raise ConflictError(snapshot.rel, snapshot.text, disk)


def save(snapshot: Snapshot, new_text: str, problems: Callable[[str], Sequence[str]]) -> SaveResult:
    """Write new_text over the snapshot's file: only when `problems(new_text)` is empty and the file is still
    the snapshot's text (compare-and-swap under the lock); the previous version goes to history first."""
    root, rel = snapshot.root, snapshot.rel
    path = inside(root, rel)
    found = list(problems(new_text))
    if found:
        raise InvalidContentError(rel, found)
    with locked(root):
        check_unchanged(snapshot)
        backup = _keep_previous(root, rel, snapshot.text) if path.exists() else None
        try:
            _swap(root, rel, snapshot, new_text)
        except ConflictError:
            if backup is not None:
                backup.unlink(missing_ok=True)
            raise
    return SaveResult(path, backup, Snapshot(Path(root), rel, new_text, digest(new_text)))


def undo(root: Path, rel: str, current: Snapshot | None = None) -> Snapshot:
    """Put back the newest kept version of `rel` (removing it from history); refuses if the file changed
    on disk since `current` was loaded."""
    with locked(root):
        kept = history(root, rel)
        if not kept:
            raise NothingToUndoError(f"no earlier version of {rel} is kept")
        current = current if current is not None else read(root, rel)
        check_unchanged(current)
        text = kept[-1].read_text(encoding="utf-8")
        _swap(root, rel, current, text)
        kept[-1].unlink()
    return Snapshot(Path(root), rel, text, digest(text))


# --- drafts (explicit, never fed into anything without the designer choosing them) ------------------------------

def save_draft(snapshot: Snapshot, new_text: str) -> Path:
    """Write an unvalidated edit as a draft under `drafts/<rel>` (never over the real file)."""
    return write_file(snapshot.root, f"{DRAFTS_DIR}/{snapshot.rel}", new_text)


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
        _fsync_dir(path.parent)


def copy_content(root: Path, dest: Path) -> Path:
    """Copy the content folder (without the editor's private folders) to dest, for scratch validation."""
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(*PRIVATE_DIRS, ".*.tmp"),
                    dirs_exist_ok=True, symlinks=False)
    return dest


def is_private(rel: str) -> bool:
    """True for the editor's own files (history, drafts, temporary files, autosave), never content."""
    return rel.split("/", 1)[0] in PRIVATE_DIRS
