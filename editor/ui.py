"""Shared Streamlit glue for the pages: the content root, session buffers, snapshots, cached catalog."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import streamlit as st

from kcd.apps.editor.logic import autosave
from kcd.apps.editor.logic import buffers as buf
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import store
from kcd.apps.editor.logic.config import content_root

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


SESSION_PARAM = "tab"   # the URL query parameter that keeps a browser tab's session token across refreshes


def session() -> str:
    """This browser tab's session token: from the URL on a refresh, else new; kept in the URL (page switches
    drop query parameters, so it is put back on every run). Autosaves are kept per token and file."""
    token: str | None = st.session_state.get("kcd_session")
    if token is None:
        given = st.query_params.get(SESSION_PARAM)
        token = given if autosave.valid_token(given) else autosave.new_token()
        st.session_state["kcd_session"] = token
    if st.query_params.get(SESSION_PARAM) != token:
        st.query_params[SESSION_PARAM] = token
    return token


def root() -> Path:
    """The content folder this session edits (fixed for the session on first use)."""
    session()
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
    return autosave.Pending(rel, snapshot(rel).text, buf.edits_for(buffers(), rel), raw_edits().get(rel),
                            session=session())


def autosave_now(rels: list[str] | None = None) -> None:
    """Write the unsaved edits of these files (default: every file touched) to `.kcd-autosave/` when they
    changed since the last write; the keystroke debounce of the inputs keeps this to a few writes a second."""
    written = st.session_state.setdefault("kcd_autosaved", {})
    touched = set(buf.files_with_edits(buffers())) | set(raw_edits()) | set(written)
    for rel in sorted(touched if rels is None else set(rels)):
        pending = pending_of(rel)
        fingerprint_ = autosave.encode(autosave.Pending(rel, pending.base_text, pending.edits, pending.raw, 0,
                                                        pending.session))
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
        if not pending.is_edit():
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
    autosave.clear(root(), rel, session())
    st.session_state.setdefault("kcd_autosaved", {}).pop(rel, None)
    st.session_state.get("kcd_recovered", {}).pop(rel, None)
    if refresh:
        refresh_widgets(rel)


def saved(rel: str, result: store.SaveResult, note: str = "") -> None:
    """After a successful save: the new snapshot, nothing unsaved left, a message."""
    snapshots()[rel] = result.snapshot
    forget_unsaved(rel, refresh=rel in raw_edits())   # a raw text area is re-seeded; form inputs keep their keys
    flash(f"Saved {rel} (previous version kept in {store.HISTORY_DIR}/{note})")


def _recover(base: Path) -> None:
    """A new browser session of this tab (refresh, crash, restart): bring back its own autosaved edits; the
    banner of `recovered_banner` says so until they are kept or discarded."""
    recovered = autosave.load_all(base, session())
    for rel, pending in recovered.items():
        snapshots()[rel] = store.Snapshot(base, rel, pending.base_text, store.digest(pending.base_text))
        if pending.raw is not None:
            raw_edits()[rel] = pending.raw
        else:
            buf.set_all(buffers(), rel, pending.edits)
        st.session_state.setdefault("kcd_autosaved", {})[rel] = autosave.encode(
            autosave.Pending(rel, pending.base_text, pending.edits, pending.raw, 0, pending.session))
        st.session_state.setdefault("kcd_recovered", {})[rel] = pending.saved_at


def _keep_recovered(rel: str) -> None:
    """The designer keeps the recovered edits: no more banner for them."""
    st.session_state.get("kcd_recovered", {}).pop(rel, None)


def _discard_recovered(rel: str) -> None:
    """The designer discards the recovered edits of a file."""
    forget_unsaved(rel)
    flash(f"Recovered edits of {rel} discarded", "info")


def recovered_banner(box: Any) -> None:
    """One banner per file whose autosaved edits came back, with Keep and Discard buttons that work (a
    file whose edits were saved or discarded meanwhile has no banner)."""
    recovered = st.session_state.get("kcd_recovered", {})
    for rel in sorted(recovered):
        if not pending_of(rel).is_edit():
            recovered.pop(rel, None)
            continue
        when = time.strftime("%H:%M:%S", time.localtime(recovered[rel]))
        with box.container(border=True):
            st.info(f"Recovered unsaved edits of {rel} (autosaved at {when}). They are not saved yet: Save or "
                    "Save as draft them on the Content page, or discard them.")
            keep, drop = st.columns(2)
            keep.button("Keep them", key=f"recovered_keep:{rel}", on_click=_keep_recovered, args=(rel,))
            drop.button(f"Discard the edits of {rel}", key=f"recovered_discard:{rel}", on_click=_discard_recovered,
                        args=(rel,))


def merge_other(rel: str, other: str) -> None:
    """Take another session's autosaved edits of a file into this tab's, field by field; fields both changed
    become clashes to choose on the Content page. Their autosave goes (it lives on in this tab's)."""
    theirs = autosave.load(root(), rel, other)
    if theirs is None:
        flash(f"The other tab's edits of {rel} are gone (saved or discarded there)", "info")
        return
    try:
        edits, clashes = autosave.merge_in(pending_of(rel), theirs)
    except ValueError as exc:
        flash(f"Not merged: {exc}. Finish one of them in the raw file view first.", "error")
        return
    buf.set_all(buffers(), rel, edits)
    if clashes:
        st.session_state.setdefault("kcd_clashes", {})[rel] = clashes
        st.session_state.setdefault("kcd_clash_from", {})[rel] = "the other tab"
    autosave.clear(root(), rel, other)
    refresh_widgets(rel)
    flash(f"Merged the other tab's edits of {rel} into yours"
          + (f"; {len(clashes)} field(s) changed in both: choose below" if clashes else ""), "info")


def discard_other(rel: str, other: str) -> None:
    """Delete another session's autosaved edits of a file."""
    autosave.clear(root(), rel, other)
    flash(f"The other tab's unsaved edits of {rel} discarded", "info")


def other_sessions_notice(box: Any, rels: list[str] | None = None) -> None:
    """For each file another tab or an earlier session has unsaved edits of (these files, or all): say so and
    offer Merge into this tab's edits, or Discard."""
    found = (autosave.others(root(), session()) if rels is None
             else [p for rel in rels for p in autosave.others(root(), session(), rel)])
    for pending in found:
        when = time.strftime("%H:%M:%S", time.localtime(pending.saved_at))
        tag = f"{pending.session or 'old'}:{pending.rel}"
        with box.container(border=True):
            st.warning(f"Another tab (or an earlier session) has unsaved edits of {pending.rel}, autosaved at "
                       f"{when}. Merge them into your edits field by field, or discard them.")
            merge_col, drop_col = st.columns(2)
            merge_col.button("Merge them into mine", key=f"other_merge:{tag}", on_click=merge_other,
                             args=(pending.rel, pending.session))
            drop_col.button("Discard them", key=f"other_discard:{tag}", on_click=discard_other,
                            args=(pending.rel, pending.session))


def broken_notice(broken: list[str]) -> None:
    """One short line per file the editor cannot read (YAML syntax), linking to the raw file view."""
    for rel in broken:
        st.warning(f"`{rel}` has a YAML syntax error, so its items cannot be listed.")
        st.page_link(PAGES["files"], label=f"Fix {rel} in the raw file view", query_params={"file": rel})


FLASH_SECONDS = 8.0   # inputs may rerun the page right after an action (a new input reports its value)


def flash(message: str, kind: str = "success") -> None:
    """A message shown at the top of the page for the next few seconds of reruns."""
    st.session_state.setdefault("kcd_flash", []).append((kind, message, time.time()))


def show_flash() -> Any:
    """Show the recent messages; forget those older than FLASH_SECONDS. Returns their container, for the page's
    other passing notices: always one element, so a message appearing or expiring never moves the inputs below
    it (Streamlit would mount them afresh)."""
    now = time.time()
    kept = [m for m in st.session_state.get("kcd_flash", []) if now - m[2] < FLASH_SECONDS]
    st.session_state["kcd_flash"] = kept
    box = st.container()
    for kind, message, _ in kept:
        getattr(box, kind, box.info)(message)
    recovered_banner(box)
    return box


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
