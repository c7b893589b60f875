"""Shared Streamlit glue for the pages: the content root, session buffers, snapshots, cached catalog."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import streamlit as st

from editor.logic import catalog as cat
from editor.logic import store
from editor.logic.config import content_root

PAGES = {
    "content": "pages/1_Content.py", "validate": "pages/2_Validate.py", "new_pack": "pages/3_New_pack.py",
    "playtest": "pages/4_Playtest.py", "board": "pages/5_Board.py",
}


@st.cache_resource(show_spinner=False)
def _started(base: str) -> list[str]:
    """Once per server process and content folder: remove what killed saves left in `.kcd-tmp/`."""
    return store.clean_tmp(Path(base))


def root() -> Path:
    """The content folder this session edits (fixed for the session on first use)."""
    if "kcd_root" not in st.session_state:
        st.session_state["kcd_root"] = str(content_root())
    _started(st.session_state["kcd_root"])
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


def drop_widgets(rel: str) -> None:
    """Forget widget values of a file's fields (after save, undo, discard or reload) so they show the file."""
    prefix = "w:" + json.dumps([rel])[:-1] + ","
    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(prefix)]:
        del st.session_state[key]
    # A browser keeps showing what was typed in a keyed widget whose state was merely deleted; the page
    # writes the file's values into these widgets on its next run (see `reset_value`).
    st.session_state.setdefault("kcd_reset", set()).add(rel)


def reset_value(rel: str, key: str, value: Any) -> None:
    """After save/undo/discard of `rel`: put the file's value into widget `key` so the browser shows it."""
    if rel in st.session_state.get("kcd_reset", set()):
        st.session_state[key] = value


def reset_done(rel: str) -> None:
    """Every widget of `rel` has been given its file value."""
    st.session_state.get("kcd_reset", set()).discard(rel)


def flash(message: str, kind: str = "success") -> None:
    """A message shown once at the top of the next run."""
    st.session_state.setdefault("kcd_flash", []).append((kind, message))


def show_flash() -> None:
    """Show and clear pending messages."""
    for kind, message in st.session_state.pop("kcd_flash", []):
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
