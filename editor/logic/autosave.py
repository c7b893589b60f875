"""Autosave of in-progress edits: what the designer typed goes to `.kcd-autosave/.tabs/<session>/<file>.json` inside
the content folder as it changes, so it comes back after a browser refresh, a crash or a restart (never into the
content itself: the real file changes only on Save).

Autosaves are kept per browser session (a token the page keeps in its URL) and file: a save in one tab clears
only that tab's autosave, and a refreshed tab takes back only its own edits. Another session's edits of a file
are offered, and merged field by field (kcd.apps.editor.logic.merge) into this session's when taken. The session ""
is the folder's top level (autosaves written before sessions existed, and callers that have no session)."""
from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from kcd.apps.editor.logic import store, yamlrt
from kcd.apps.editor.logic.confine import inside

AUTOSAVE_DIR = ".kcd-autosave"
SESSIONS_DIR = ".tabs"      # inside AUTOSAVE_DIR; a leading dot: never a content folder's name
_FORMAT = 1
_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


@dataclass(frozen=True)
class Pending:
    """The unsaved edits of one file: the text they were made on, the field edits (doc path -> value) or a
    whole edited text (from the raw file view), and when they were last written."""

    rel: str
    base_text: str
    edits: dict[tuple, Any] = field(default_factory=dict)
    raw: str | None = None
    saved_at: float = 0.0
    session: str = ""

    def text(self) -> str:
        """The file text with these edits (the raw text when there is one)."""
        if self.raw is not None:
            return self.raw
        try:
            return yamlrt.apply_edits(self.base_text, dict(sorted(self.edits.items(), key=lambda kv: len(kv[0]))))
        except yamlrt.EditError:
            return self.base_text

    @property
    def empty(self) -> bool:
        """Nothing unsaved."""
        return not self.edits and self.raw is None

    def is_edit(self, disk_text: str | None = None) -> bool:
        """Whether these edits change anything: not when they leave the text as loaded, or as it is on disk now
        (an edit typed back to the file's value, or recorded just as a save wrote it, is no edit)."""
        if self.empty:
            return False
        text = self.text()
        return text != self.base_text and (disk_text is None or text != disk_text)


def new_token() -> str:
    """A fresh browser-session token (URL-safe, unguessable)."""
    return secrets.token_urlsafe(12)


def valid_token(token: object) -> TypeGuard[str]:
    """Whether `token` can name a session folder (URL-safe letters, 8 to 64 of them)."""
    return isinstance(token, str) and _TOKEN.fullmatch(token) is not None


def _folder(root: Path, session: str) -> Path:
    """The autosave folder of one session ("" is the top level)."""
    if session and not valid_token(session):
        raise ValueError(f"not a session token: {session!r}")
    return Path(root) / AUTOSAVE_DIR / SESSIONS_DIR / session if session else Path(root) / AUTOSAVE_DIR


def _rel_dir(session: str) -> str:
    """The content-relative folder of a session's autosaves."""
    return f"{AUTOSAVE_DIR}/{SESSIONS_DIR}/{session}" if session else AUTOSAVE_DIR


def _path(root: Path, rel: str, session: str = "") -> Path:
    """Where the autosave of `rel` of one session lives."""
    _folder(root, session)
    return inside(root, f"{_rel_dir(session)}/{rel}.json")


def encode(pending: Pending) -> str:
    """The JSON text of an autosave (paths as lists, so ints stay ints)."""
    return json.dumps({"format": _FORMAT, "rel": pending.rel, "base_text": pending.base_text,
                       "edits": [[list(p), v] for p, v in pending.edits.items()], "raw": pending.raw,
                       "saved_at": pending.saved_at, "session": pending.session}, ensure_ascii=False,
                      sort_keys=True)


def decode(text: str) -> Pending | None:
    """An autosave from its JSON text (None when it is not one)."""
    try:
        data = json.loads(text)
        edits = {tuple(p): v for p, v in data.get("edits", [])}
        raw = data.get("raw")
        session = data.get("session") or ""
        return Pending(str(data["rel"]), str(data["base_text"]), edits, raw if isinstance(raw, str) else None,
                       float(data.get("saved_at", 0)), session if valid_token(session) else "")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def record(root: Path, pending: Pending) -> str | None:
    """Write the autosave of a file in its session; with nothing unsaved, or edits that change nothing, remove
    it. Returns what was written."""
    path = _path(root, pending.rel, pending.session)
    if not pending.is_edit():
        clear(root, pending.rel, pending.session)
        return None
    stamped = Pending(pending.rel, pending.base_text, dict(pending.edits), pending.raw, time.time(), pending.session)
    text = encode(stamped)
    store.write_file(root, f"{_rel_dir(pending.session)}/{pending.rel}.json", text)
    return text


def clear(root: Path, rel: str, session: str = "") -> None:
    """Forget one session's autosave of a file (after Save or Discard, or once merged into another session);
    a session folder left empty goes too."""
    path = _path(root, rel, session)
    if path.exists():
        path.unlink()
    _prune(path.parent.resolve(), Path(root).resolve() / AUTOSAVE_DIR)


def _prune(folder: Path, top: Path) -> None:
    """Remove empty folders from `folder` up to (not including) `top`."""
    while folder != top and top in folder.parents:
        try:
            folder.rmdir()
        except OSError:   # not empty (or gone): stop here
            return
        folder = folder.parent


def load(root: Path, rel: str, session: str = "") -> Pending | None:
    """One session's autosave of one file, if it holds an edit (of the text it was made on, and of the file as
    it is now)."""
    path = _path(root, rel, session)
    if not path.is_file():
        return None
    found = decode(path.read_text(encoding="utf-8"))
    if found is None or found.rel != rel:
        return None
    found = Pending(found.rel, found.base_text, found.edits, found.raw, found.saved_at, session)
    disk = inside(root, rel)
    return found if found.is_edit(disk.read_text(encoding="utf-8") if disk.is_file() else None) else None


def _rels(folder: Path) -> list[str]:
    """The files autosaved in one session folder (not in the sessions' own folder)."""
    if not folder.is_dir():
        return []
    out = []
    for path in sorted(folder.rglob("*.json")):
        rel = path.relative_to(folder).as_posix()
        if not rel.startswith(SESSIONS_DIR + "/"):
            out.append(rel[:-5])
    return out


def load_all(root: Path, session: str = "") -> dict[str, Pending]:
    """Every file one session autosaved: content-relative path -> its pending edits."""
    out: dict[str, Pending] = {}
    for rel in _rels(_folder(root, session)):
        found = load(root, rel, session)
        if found is not None:
            out[rel] = found
    return out


def sessions(root: Path) -> list[str]:
    """Every session with an autosave folder ("" first when the top level holds autosaves)."""
    folder = Path(root) / AUTOSAVE_DIR / SESSIONS_DIR
    named = sorted(p.name for p in folder.iterdir() if p.is_dir() and valid_token(p.name)) if folder.is_dir() else []
    return ([""] if _rels(Path(root) / AUTOSAVE_DIR) else []) + named


def others(root: Path, session: str, rel: str | None = None) -> list[Pending]:
    """The autosaved edits of every other session (of one file, or of all), newest first."""
    found = []
    for other in sessions(root):
        if other == session:
            continue
        if rel is None:
            found += list(load_all(root, other).values())
        else:
            pending = load(root, rel, other)
            if pending is not None:
                found.append(pending)
    return sorted(found, key=lambda p: -p.saved_at)


def merge_in(mine: Pending, theirs: Pending) -> tuple[dict[tuple, Any], list[Any]]:
    """Another session's field edits taken into mine, field by field (kcd.apps.editor.logic.merge): (my new edits,
    clashes). A field only they changed takes their value; a field we both changed to different values is a
    Clash whose `mine` is my value and `theirs` is theirs. Whole-text (raw) edits cannot be merged by field:
    ValueError."""
    from kcd.apps.editor.logic import merge

    if mine.raw is not None or theirs.raw is not None:
        raise ValueError(f"{mine.rel}: whole-text edits from the raw file view cannot be merged field by field")
    mine_text = mine.text()
    merged = merge.merge(theirs.base_text, theirs.edits, mine_text)
    edits = dict(mine.edits)
    edits.update(merged.edits)
    clashes = [merge.Clash(c.path, c.base, c.theirs, c.mine) for c in merged.clashes]
    return edits, clashes
