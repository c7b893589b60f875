"""Autosave of in-progress edits: what the designer typed goes to `.kcd-autosave/<file>.json` inside the content
folder as it changes, so it comes back after a browser refresh, a crash or a restart (never into the content
itself: the real file changes only on Save)."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from editor.logic import store, yamlrt
from editor.logic.confine import inside

AUTOSAVE_DIR = ".kcd-autosave"
_FORMAT = 1


@dataclass(frozen=True)
class Pending:
    """The unsaved edits of one file: the text they were made on, the field edits (doc path -> value) or a
    whole edited text (from the raw file view), and when they were last written."""

    rel: str
    base_text: str
    edits: dict[tuple, Any] = field(default_factory=dict)
    raw: str | None = None
    saved_at: float = 0.0

    def text(self) -> str:
        """The file text with these edits (the raw text when there is one)."""
        if self.raw is not None:
            return self.raw
        try:
            return yamlrt.apply_edits(self.base_text, self.edits)
        except yamlrt.EditError:
            return self.base_text

    @property
    def empty(self) -> bool:
        """Nothing unsaved."""
        return not self.edits and self.raw is None


def _path(root: Path, rel: str) -> Path:
    """Where the autosave of `rel` lives."""
    return inside(root, f"{AUTOSAVE_DIR}/{rel}.json")


def encode(pending: Pending) -> str:
    """The JSON text of an autosave (paths as lists, so ints stay ints)."""
    return json.dumps({"format": _FORMAT, "rel": pending.rel, "base_text": pending.base_text,
                       "edits": [[list(p), v] for p, v in pending.edits.items()], "raw": pending.raw,
                       "saved_at": pending.saved_at}, ensure_ascii=False, sort_keys=True)


def decode(text: str) -> Pending | None:
    """An autosave from its JSON text (None when it is not one)."""
    try:
        data = json.loads(text)
        edits = {tuple(p): v for p, v in data.get("edits", [])}
        raw = data.get("raw")
        return Pending(str(data["rel"]), str(data["base_text"]), edits,
                       raw if isinstance(raw, str) else None, float(data.get("saved_at", 0)))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def record(root: Path, pending: Pending) -> str | None:
    """Write (or, with nothing unsaved, remove) the autosave of a file; returns what was written."""
    path = _path(root, pending.rel)
    if pending.empty:
        if path.exists():
            path.unlink()
        return None
    stamped = Pending(pending.rel, pending.base_text, dict(pending.edits), pending.raw, time.time())
    text = encode(stamped)
    store.write_file(root, f"{AUTOSAVE_DIR}/{pending.rel}.json", text)
    return text


def clear(root: Path, rel: str) -> None:
    """Forget the autosave of a file (after Save or Discard)."""
    path = _path(root, rel)
    if path.exists():
        path.unlink()


def load(root: Path, rel: str) -> Pending | None:
    """The autosave of one file, if any."""
    path = _path(root, rel)
    if not path.is_file():
        return None
    found = decode(path.read_text(encoding="utf-8"))
    return found if found is not None and found.rel == rel and not found.empty else None


def load_all(root: Path) -> dict[str, Pending]:
    """Every autosaved file: content-relative path -> its pending edits."""
    folder = Path(root) / AUTOSAVE_DIR
    if not folder.is_dir():
        return {}
    out: dict[str, Pending] = {}
    for path in sorted(folder.rglob("*.json")):
        rel = path.relative_to(folder).as_posix()[:-5]
        found = load(root, rel)
        if found is not None:
            out[rel] = found
    return out
