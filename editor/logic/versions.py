"""Every version of a content file the designer may compare (the Playtest page's A/B lists these): the unsaved
edits (autosaved), the explicit draft, the saved file and the earlier saves kept in `.kcd-history/`."""
from __future__ import annotations

import time
from pathlib import Path

from kcd.apps.editor.logic import autosave, store

SAVED = "Saved file"


def _when(seconds: float) -> str:
    """A local time stamp for a label."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds))


def _history_label(path: Path) -> str:
    """`Earlier save 2026-12-01 09:40:12` from a history file name `000003-20261201T094012.bak`."""
    stamp = path.name.split("-", 1)[-1].removesuffix(".bak")
    try:
        shown = time.strftime("%Y-%m-%d %H:%M:%S", time.strptime(stamp, "%Y%m%dT%H%M%S"))
    except ValueError:
        shown = stamp
    return f"Earlier save {shown} (#{int(path.name.split('-', 1)[0])})"


def versions(root: Path, rel: str, session: str = "") -> list[tuple[str, str]]:
    """(label, text) of every version of `rel`, newest first: one browser session's unsaved edits, the draft, the
    saved file, then earlier saves. Versions with the same text as one already listed are left out."""
    out: list[tuple[str, str]] = []
    pending = autosave.load(root, rel, session)
    if pending is not None:
        out.append((f"Unsaved edits (autosaved {_when(pending.saved_at)})", pending.text()))
    draft = store.draft_path(root, rel)
    if draft.is_file():
        out.append((f"Draft ({store.DRAFTS_DIR}/{rel}, {_when(draft.stat().st_mtime)})",
                    draft.read_text(encoding="utf-8")))
    if store.inside(root, rel).is_file():
        out.append((SAVED, store.disk_text(root, rel)))
    for path in reversed(store.history(root, rel)):
        out.append((_history_label(path), path.read_text(encoding="utf-8")))
    seen: set[str] = set()
    unique = []
    for label, text in out:
        if text not in seen:
            seen.add(text)
            unique.append((label, text))
    return unique
