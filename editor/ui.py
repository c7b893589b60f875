"""Shared Streamlit glue for the pages: the content root, session buffers, snapshots, cached catalog."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import streamlit as st

from editor.logic import autosave
from editor.logic import buffers as buf
from editor.logic import catalog as cat
from editor.logic import store
from editor.logic.config import content_root

PAGES = {
    "content": "pages/1_Content.py", "validate": "pages/2_Validate.py", "new_pack": "pages/3_New_pack.py",
    "playtest": "pages/4_Playtest.py", "board": "pages/5_Board.py", "files": "pages/6_Files_and_drafts.py",
}


@st.cache_resource(show_spinner=False)
def _started(base: str) -> list[str]:
    """Once per server process and content folder: remove what killed saves left in `.kcd-tmp/`."""
    try:
        return store.clean_tmp(Path(base))
    except OSError:   # a read-only content folder: nothing can be left there either
        return []


def root() -> Path:
    """The content folder this session edits (fixed for the session on first use)."""
    if "kcd_root" not in st.session_state:
        st.session_state["kcd_root"] = str(content_root())
        _started(st.session_state["kcd_root"])
        _recover(Path(st.session_state["kcd_root"]))
    return Path(st.session_state["kcd_root"])


def buffers() -> dict[str, Any]:
    """The session's edit buffers (file + field -> typed value); survive reruns and page switches."""
    return st.session_state.setdefault("kcd_buffers", {})


def snapshots() -> dict[str, store.Snapshot]:
    """Files as loaded in this session (for conflict detection)."""
    return st.session_state.setdefault("kcd_snapshots", {})


def snapshot(rel: str) -> store.Snapshot:
    """The session's snapshot of a file, read from disk the first time."""
    snaps = snapshots()
    if rel not in snaps:
        snaps[rel] = store.read(root(), rel)
    return snaps[rel]


def fingerprint(base: Path) -> str:
    """Changes whenever a content file is added, removed or written (mtime and size of every YAML)."""
    parts = []
    for path in sorted(base.rglob("*.yaml")):
        rel = path.relative_to(base).as_posix()
        if store.is_private(rel):
            continue
        stat = path.stat()
        parts.append((rel, stat.st_mtime_ns, stat.st_size))
    return json.dumps(parts)


@st.cache_data(show_spinner=False, max_entries=8)
def _catalog(base: str, stamp: str) -> tuple[list[cat.ItemRef], list[str]]:
    """Catalog cached per content fingerprint."""
    return cat.catalog(Path(base))


def catalog() -> tuple[list[cat.ItemRef], list[str]]:
    """Every item of the content folder (re-read when files change)."""
    stamp = fingerprint(root())
    return _catalog(str(root()), stamp)


def generation(rel: str) -> int:
    """The widget generation of a file: part of every widget key, bumped when the form must show new values
    (after save, undo, discard, reload or a list change), so no widget keeps showing stale text."""
    return st.session_state.setdefault("kcd_gen", {}).get(rel, 0)


def refresh_widgets(rel: str) -> None:
    """Give the file's widgets new keys: they show the values of the buffers and the file afresh."""
    gens = st.session_state.setdefault("kcd_gen", {})
    gens[rel] = gens.get(rel, 0) + 1


def raw_edits() -> dict[str, str]:
    """Whole-text edits made in the raw file view (file -> text), unsaved."""
    return st.session_state.setdefault("kcd_raw", {})


def pending_of(rel: str) -> autosave.Pending:
    """What is unsaved of one file in this session (field edits or a raw text) on its loaded text."""
    return autosave.Pending(rel, snapshot(rel).text, buf.edits_for(buffers(), rel), raw_edits().get(rel))


def autosave_now(rels: list[str] | None = None) -> None:
    """Write the unsaved edits of these files (default: every file touched) to `.kcd-autosave/` when they
    changed since the last write; the keystroke debounce of the inputs keeps this to a few writes a second."""
    written = st.session_state.setdefault("kcd_autosaved", {})
    touched = set(buf.files_with_edits(buffers())) | set(raw_edits()) | set(written)
    for rel in sorted(touched if rels is None else set(rels)):
        pending = pending_of(rel)
        fingerprint_ = autosave.encode(autosave.Pending(rel, pending.base_text, pending.edits, pending.raw, 0))
        if written.get(rel) == fingerprint_:
            continue
        try:
            autosave.record(root(), pending)
        except OSError as exc:   # a read-only content folder: say so once per file, the session keeps the edits
            if st.session_state.setdefault("kcd_autosave_failed", {}).get(rel) != str(exc):
                st.session_state["kcd_autosave_failed"][rel] = str(exc)
                st.warning(f"Autosave of {rel} failed ({exc}): your edits live only in this browser session "
                           "until you save them.")
            continue
        if pending.empty:
            written.pop(rel, None)
        else:
            written[rel] = fingerprint_


def forget_unsaved(rel: str, refresh: bool = True) -> None:
    """After Save or Discard: no buffers, raw text or autosave of the file remain; `refresh` gives the inputs
    new keys (not after a save: they already show the saved values, and keeping their keys means a keystroke
    typed right after clicking Save is not dropped)."""
    buf.clear(buffers(), rel)
    raw_edits().pop(rel, None)
    st.session_state.get("kcd_clashes", {}).pop(rel, None)
    autosave.clear(root(), rel)
    st.session_state.setdefault("kcd_autosaved", {}).pop(rel, None)
    if refresh:
        refresh_widgets(rel)


def saved(rel: str, result: store.SaveResult, note: str = "") -> None:
    """After a successful save: the new snapshot, nothing unsaved left, a message."""
    snapshots()[rel] = result.snapshot
    forget_unsaved(rel, refresh=rel in raw_edits())   # a raw text area is re-seeded; form inputs keep their keys
    flash(f"Saved {rel} (previous version kept in {store.HISTORY_DIR}/{note})")


def _recover(base: Path) -> None:
    """A new browser session (refresh, crash, restart): bring back the autosaved edits, with a banner."""
    recovered = autosave.load_all(base)
    for rel, pending in recovered.items():
        snapshots()[rel] = store.Snapshot(base, rel, pending.base_text, store.digest(pending.base_text))
        if pending.raw is not None:
            raw_edits()[rel] = pending.raw
        else:
            buf.set_all(buffers(), rel, pending.edits)
        st.session_state.setdefault("kcd_autosaved", {})[rel] = autosave.encode(
            autosave.Pending(rel, pending.base_text, pending.edits, pending.raw, 0))
    if recovered:
        when = time.strftime("%H:%M:%S", time.localtime(max(p.saved_at for p in recovered.values())))
        flash(f"Recovered unsaved edits of {', '.join(sorted(recovered))} (autosaved at {when}). "
              "They are not saved yet: Save, Save as draft or Discard them on the Content page.", "info")


def broken_notice(broken: list[str]) -> None:
    """One short line per file the editor cannot read (YAML syntax), linking to the raw file view."""
    for rel in broken:
        st.warning(f"`{rel}` has a YAML syntax error, so its items cannot be listed.")
        st.page_link(PAGES["files"], label=f"Fix {rel} in the raw file view", query_params={"file": rel})


FLASH_SECONDS = 8.0   # inputs may rerun the page right after an action (a new input reports its value)


def flash(message: str, kind: str = "success") -> None:
    """A message shown at the top of the page for the next few seconds of reruns."""
    st.session_state.setdefault("kcd_flash", []).append((kind, message, time.time()))


def show_flash() -> None:
    """Show the recent messages; forget those older than FLASH_SECONDS."""
    now = time.time()
    kept = [m for m in st.session_state.get("kcd_flash", []) if now - m[2] < FLASH_SECONDS]
    st.session_state["kcd_flash"] = kept
    for kind, message, _ in kept:
        getattr(st, kind, st.info)(message)


def _markdown_line(text: str) -> str:
    """One plain line for Markdown: `<` outside `code spans` escaped so `<n>` is not taken for HTML."""
    parts = text.split("`")
    if len(parts) % 2 == 0:   # an odd number of backticks: no code spans to keep
        return text.replace("<", "\\<")
    return "`".join(p if i % 2 else p.replace("<", "\\<") for i, p in enumerate(parts))


def error_box(text: str, container: Any = None, severity: str = "error") -> None:
    """A located diagnostic: its header as wrapping text, the source line and caret monospaced below.

    The header (`file:line:col: error[code]: message`) is often wider than the page; in a code block it
    would be cut off behind a scroll bar, so only the lines whose columns matter stay in the block.
    """
    header, _, rest = text.partition("\n")
    body = "**" + _markdown_line(header).replace("**", "") + "**"
    if rest.strip():
        body += "\n```text\n" + rest + "\n```"
    box = container or st
    (box.warning if severity == "warning" else box.error)(body)
