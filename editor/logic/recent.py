"""Home page facts: the recent saves (from `.kcd-history/`) and a cached summary of the whole-set validation."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from kcd.apps.editor.logic import store


@dataclass(frozen=True)
class Save:
    """One earlier save: the file, when, and the kept version before it."""

    rel: str
    when: float
    backup: Path


def recent_saves(root: Path, limit: int = 8) -> list[Save]:
    """The newest saves across every file, newest first (each save kept the version before it)."""
    folder = Path(root) / store.HISTORY_DIR
    if not folder.is_dir():
        return []
    found = []
    for path in folder.rglob("*.bak"):
        rel = path.parent.relative_to(folder).as_posix()
        found.append(Save(rel, path.stat().st_mtime, path))
    return sorted(found, key=lambda s: s.when, reverse=True)[:limit]


def ago(seconds: float, now: float | None = None) -> str:
    """`3 min ago`, `2 h ago`, or the date."""
    delta = (now if now is not None else time.time()) - seconds
    if delta < 60:
        return "just now"
    if delta < 3600:
        return f"{int(delta // 60)} min ago"
    if delta < 86400:
        return f"{int(delta // 3600)} h ago"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))
