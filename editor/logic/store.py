"""Saving that loses nothing: snapshots, diffs, compare-and-swap writes under a lock, history and undo.

Every write goes to a temporary file in the target's own folder (hidden, `.NAME.<random>.tmp`: the same
filesystem, so the rename is atomic), fsynced, then renamed over the file and the folder fsynced: at every
instant the content file is there, holding the old text or the new one, also when the writer is killed. A save
is a compare-and-swap under an fcntl lock (`.kcd-tmp/lock`): the file on disk must still be the text the editor
loaded. The swap itself is `renameat2(RENAME_EXCHANGE)` where the system has it (Linux): the new file and the
old one trade names in one step, so the file just replaced is in hand and is compared; an outside write that
landed after the check goes back and the save is refused (ConflictError carries both versions). Elsewhere
`os.replace` after a last check of the file's inode (an outside rename in the microseconds between that check
and the replace is the one race left there). Leftovers of a killed save (`.*.tmp`) are removed by `clean_tmp`
at the next start.
"""
from __future__ import annotations

import contextlib
import ctypes
import difflib
import errno
import fcntl
import hashlib
import os
import shutil
import time
import uuid
from urllib.parse import unquote
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator, Sequence

from kcd.apps.editor.logic.confine import inside

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


class NotAFileError(ValueError, OSError):
    """A store path that names no file: empty, `.`, a folder, or below a file (an OSError too, so the pages
    that show OSError messages show this one)."""


def file_path(root: Path, rel: str | Path) -> Path:
    """The absolute path of the content file `rel` (confined to `root`); NotAFileError when `rel` is empty or
    `.`, names a folder, or goes through a file."""
    text = str(rel).replace("\\", "/")
    if not text.strip() or PurePosixPath(text) == PurePosixPath("."):
        raise NotAFileError(f"`{text}` names no file: give a content file's path relative to the content folder, "
                            "e.g. base/nests.yaml")
    path = inside(root, text)
    if path.is_dir():
        raise NotAFileError(f"`{text}` is a folder, not a file: give a file inside it, e.g. {text.rstrip('/')}/x.yaml")
    parts = PurePosixPath(text).parts
    for depth in range(1, len(parts)):
        if path.parents[len(parts) - 1 - depth].is_file():
            raise NotAFileError(f"`{text}`: `{'/'.join(parts[:depth])}` is a file, not a folder")
    return path


def digest(text: str) -> str:
    """sha256 hex of the text (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read(root: Path, rel: str) -> Snapshot:
    """Load a content file (confined to `root`) as a snapshot; a missing file reads as empty text."""
    path = file_path(root, rel)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return Snapshot(Path(root), rel, text, digest(text))


def disk_text(root: Path, rel: str) -> str:
    """The file's text on disk now ("" when it does not exist)."""
    path = file_path(root, rel)
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


def _temp_copy(path: Path, text: str, mode: int) -> Path:
    """A new fsynced file beside `path` (hidden, `.NAME.<random>.tmp`: same folder, so same filesystem and an
    atomic rename) holding `text` with `mode`; the caller renames or removes it."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
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


_RENAME_EXCHANGE = 2   # linux/fs.h: renameat2 swaps the two names in one step
_AT_FDCWD = -100
_LIBC: list[Callable[..., int] | None] = []   # renameat2 of the C library, looked up once (None: not there)


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap the names `a` and `b` (renameat2 RENAME_EXCHANGE); False where the system or the
    filesystem cannot (then the caller falls back to os.replace)."""
    if not _LIBC:
        try:
            _LIBC.append(getattr(ctypes.CDLL(None, use_errno=True), "renameat2"))
        except (OSError, AttributeError):
            _LIBC.append(None)
    call = _LIBC[0]
    if call is None:
        return False
    if call(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _text_or_none(path: Path) -> str | None:
    """The file's text, or None when it is gone or not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def clean_tmp(root: Path) -> list[str]:
    """Remove what killed saves left: temporary files (`.*.tmp`, beside content or in the editor's folders) and
    anything in `.kcd-tmp/` but the lock; a file an older editor had moved aside there (`*.old`) goes back to its
    place. Returns the removed paths, content-relative."""
    removed: list[str] = []
    base = Path(root)
    if not (base / TMP_DIR).is_dir() and not any(base.rglob(".*.tmp")):
        return removed
    with locked(root):
        for path in sorted((base / TMP_DIR).iterdir()):
            if path.name == LOCK_NAME or not path.is_file() or path.is_symlink():
                continue
            if path.name.endswith(".old"):
                # a save of the older editor, killed between moving the file aside and linking the new one
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

def _replace(tmp: Path, path: Path) -> None:
    """Rename the fsynced `tmp` over `path` (the file is never absent) and make it durable; `tmp` is gone after."""
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def write_file(root: Path, rel: str, text: str) -> Path:
    """Write `text` to `rel` (confined) through a temporary file beside it and a rename, keeping the file's mode
    (new files 0644) and fsyncing file and folder; no comparison (for drafts, history and new pack files)."""
    path = file_path(root, rel)
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else NEW_FILE_MODE
    _replace(_temp_copy(path, text, mode), path)
    return path


def atomic_write(path: Path, text: str) -> None:
    """Write text to a path outside any content folder (scratch copies) via a temp file in its folder."""
    path = Path(path)
    if path.is_dir():
        raise NotAFileError(f"{path} is a folder, not a file")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else NEW_FILE_MODE
    _replace(_temp_copy(path, text, mode), path)


def _swap(root: Path, rel: str, expected: Snapshot, text: str) -> None:
    """Compare-and-swap (caller holds the lock): replace `rel` with `text` only if the file is still the
    snapshot's text. The content file is never absent: the new text is renamed over it in one step, and what
    it replaced is compared; a file that changed goes back and the save is refused."""
    path = file_path(root, rel)
    exists = path.exists()
    mode = path.stat().st_mode & 0o7777 if exists else NEW_FILE_MODE
    new = _temp_copy(path, text, mode)
    try:
        if not exists:
            if expected.text:
                raise ConflictError(rel, expected.text, "")
            try:
                os.link(new, path)   # fails if someone created the file meanwhile
            except FileExistsError:
                raise ConflictError(rel, expected.text, disk_text(root, rel)) from None
            _fsync_dir(path.parent)
        else:
            _check_still(path, expected)
            if _exchange(new, path):
                _check_exchanged(root, rel, expected, text, new)
            else:
                _replace_checked(root, rel, expected, new)
    finally:
        new.unlink(missing_ok=True)


def _check_still(path: Path, expected: Snapshot) -> None:
    """ConflictError unless `path` still holds the snapshot's text. Checked again just before the swap (the
    history copy written since the first check takes milliseconds), so an outside write rarely lands in between
    and a refused text is almost never seen on disk, even for the instant before it is put back."""
    current = _text_or_none(path)
    if current is None or digest(current) != expected.digest:
        raise ConflictError(expected.rel, expected.text, "" if current is None else current)


def _check_exchanged(root: Path, rel: str, expected: Snapshot, text: str, new: Path) -> None:
    """After the exchange `new` names the file `rel` held the instant before: the snapshot's text, or an outside
    write that landed after the check, which goes back (ConflictError). Nothing is lost: a third version that
    landed during the put-back stays in place and the one it displaced becomes the newest history version."""
    path = inside(root, rel)
    replaced = _text_or_none(new)
    if replaced is not None and digest(replaced) == expected.digest:
        _fsync_dir(path.parent)
        return
    _exchange(new, path)                    # the outside version back in place
    back = _text_or_none(new)
    if back is not None and back != text:   # yet another outside write replaced ours meanwhile: it is the newest
        _exchange(new, path)
        _keep_previous(root, rel, _text_or_none(new) or "")
    _fsync_dir(path.parent)
    raise ConflictError(rel, expected.text, disk_text(root, rel))


def _replace_checked(root: Path, rel: str, expected: Snapshot, new: Path) -> None:
    """The compare-and-swap where names cannot be exchanged: a second hard link holds the file while it is
    compared (so an in-place outside write after the check is still seen and put back), and its inode is
    checked right before os.replace."""
    path = inside(root, rel)
    held = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        os.link(path, held)
    except FileNotFoundError:
        raise ConflictError(rel, expected.text, disk_text(root, rel)) from None
    try:
        old = _text_or_none(held)
        if old is None or digest(old) != expected.digest or os.stat(path).st_ino != os.stat(held).st_ino:
            raise ConflictError(rel, expected.text, disk_text(root, rel))
        _replace(new, path)
        if _text_or_none(held) != old:      # written in place after the check: that write goes back
            _replace(held, path)
            raise ConflictError(rel, expected.text, disk_text(root, rel))
    finally:
        held.unlink(missing_ok=True)


def _put_back(root: Path, rel: str, aside: Path) -> None:
    """Return a moved-aside file (an older editor's killed save) to its place; if a newer file already took it,
    the later one stays and the moved-aside one becomes the newest history version (no outside write is lost)."""
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
    file_path(root, rel)
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
    path = file_path(root, rel)
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
    file_path(snapshot.root, snapshot.rel)
    return write_file(snapshot.root, f"{DRAFTS_DIR}/{snapshot.rel}", new_text)


def draft_path(root: Path, rel: str) -> Path:
    """Where the draft of `rel` lives (it may not exist)."""
    file_path(root, rel)
    return file_path(root, f"{DRAFTS_DIR}/{rel}")


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
