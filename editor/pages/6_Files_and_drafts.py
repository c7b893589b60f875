"""Files and drafts: any content file as text, with each located problem under its line (so a YAML syntax error
can be fixed here and saved, only when valid, or kept as a draft); every draft listed, to reopen or delete."""
from __future__ import annotations

import time

import streamlit as st

from kcd.apps.editor import textfield as tf
from kcd.apps.editor import ui
from kcd.apps.editor.logic import buffers as buf
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import rawview, store, validation

st.set_page_config(page_title="Files and drafts - Kiwi Chow Down editor", layout="wide")
st.title("Files and drafts")
root = ui.root()
B = ui.buffers()
notices = ui.show_flash()
RAW = ui.raw_edits()


def do_save(rel: str) -> None:
    """Save the whole edited text: refused when invalid or changed on disk (compare-and-swap)."""
    text = RAW.get(rel)
    if text is None:
        return
    problems = lambda t: validation.blocking(validation.validate_edit(root, rel, t), rel)  # noqa: E731
    try:
        result = store.save(ui.snapshot(rel), text, problems)
    except store.ConflictError as exc:
        ui.flash(f"{exc}. Your text is kept here; compare it with the disk below.", "error")
        st.session_state.setdefault("kcd_raw_conflict", {})[rel] = exc.disk_text
        return
    except store.InvalidContentError as exc:
        ui.flash(f"{rel} not saved: fix the {len(exc.messages)} problem(s) first, or save it as a draft", "error")
        return
    except OSError as exc:   # a read-only folder, a full disk
        ui.flash(f"{rel} not saved: {exc} (your text is kept)", "error")
        return
    ui.saved(rel, result)


def do_draft(rel: str) -> None:
    """Keep the edited text as drafts/<rel> (not validated, feeds nothing)."""
    try:
        path = store.save_draft(ui.snapshot(rel), RAW.get(rel, ui.snapshot(rel).text))
    except OSError as exc:
        ui.flash(f"draft not written: {exc}", "error")
        return
    ui.flash(f"Draft written to {path.relative_to(root).as_posix()}; the real file is unchanged")


def do_discard(rel: str) -> None:
    """Forget the unsaved text."""
    ui.forget_unsaved(rel)
    st.session_state.get("kcd_raw_conflict", {}).pop(rel, None)
    ui.flash(f"Edits of {rel} discarded", "info")


def do_reload(rel: str) -> None:
    """Take the disk's version as the new base, keeping the edited text (to be saved over it)."""
    ui.snapshots()[rel] = store.read(root, rel)
    st.session_state.get("kcd_raw_conflict", {}).pop(rel, None)


def do_reopen(rel: str, text: str) -> None:
    """Open a draft's text as this file's unsaved edits (nothing is written until Save)."""
    buf.clear(B, rel)
    RAW[rel] = text
    st.session_state["kcd_file"] = rel
    st.query_params["file"] = rel
    ui.refresh_widgets(rel)
    ui.flash(f"Draft of {rel} reopened as unsaved edits: check it, then Save (only when valid) or Discard", "info")


def do_delete(rel: str) -> None:
    """Delete a draft."""
    store.discard_draft(root, rel)
    ui.flash(f"Draft of {rel} deleted", "info")


files = cat.content_files(root)
_, broken = ui.catalog()
wanted = st.query_params.get("file")
if wanted and wanted != st.session_state.get("kcd_file_linked"):
    if wanted in files:
        st.session_state["kcd_file_linked"] = wanted
        st.session_state["kcd_file"] = wanted
    else:   # a stale or mistyped link: say so, then show a file there is
        notices.warning(f"No content file `{wanted}` in this content folder; showing another file instead.")
current = st.session_state.get("kcd_file")
if current not in files:
    current = broken[0] if broken else (files[0] if files else None)
if current is None:
    st.info("No content files.")
    st.stop()
st.session_state["raw_file"] = current
rel = st.selectbox("File", files, key="raw_file", format_func=lambda f: f + ("  (YAML error)" if f in broken else ""),
                   on_change=lambda: st.session_state.update(kcd_file=st.session_state["raw_file"]))
st.session_state["kcd_file"] = rel
st.query_params["file"] = rel
st.session_state["kcd_file_linked"] = rel

snap = ui.snapshot(rel)
start = RAW.get(rel)
if start is None:
    start = buf.edited_text(B, rel, snap.text) if buf.edits_for(B, rel) else snap.text
# checked as typed (after a short pause), like the Content page's fields
text = tf.text_field(f"Text of {rel} (checked as you type)", start, f"raw{ui.generation(rel)}:{rel}", debounce=300,
                     rows=22)
if text != snap.text:
    if RAW.get(rel) != text:
        buf.clear(B, rel)        # the whole text now carries every edit of this file
        RAW[rel] = text
elif rel in RAW:
    RAW.pop(rel)
ui.autosave_now([rel])

problems = validation.validate_edit(root, rel, text)
mine = [p for p in problems if p.rel == rel]
errors = validation.blocking(problems, rel)
if mine:
    st.error(f"{len(mine)} problem(s) in {rel}, each under its line:")
else:
    st.success(f"{rel}: valid" + (" (with your edits)" if text != snap.text else ""))
st.code(rawview.annotate(text, problems, rel), language=None)
for problem in [p for p in problems if p.rel not in (rel, None) and p.severity == "error"][:5]:
    ui.error_box(problem.text, severity="warning")

disk_now = store.disk_text(root, rel)
conflict = st.session_state.get("kcd_raw_conflict", {}).get(rel)
if store.digest(disk_now) != snap.digest:
    st.warning(f"{rel} changed on disk since it was loaded; saving is refused until you take the disk's "
               "version as the base (your text is kept).")
    st.code(store.unified_diff(snap.text, disk_now, rel) or "(same text)", language="diff")
    st.button("Use the disk's version as the base (keep my text)", key="raw_reload", on_click=do_reload,
              args=(rel,))
elif conflict is not None:
    st.session_state["kcd_raw_conflict"].pop(rel, None)
diff = store.unified_diff(snap.text, text, rel)
if diff:
    st.code(diff, language="diff")
cols = st.columns(3)
cols[0].button("Save", key="raw_save", type="primary", on_click=do_save, args=(rel,),
               disabled=not diff or bool(errors) or store.digest(disk_now) != snap.digest)
cols[1].button("Save as draft", key="raw_draft", on_click=do_draft, args=(rel,), disabled=not diff)
cols[2].button("Discard edits", key="raw_discard", on_click=do_discard, args=(rel,),
               disabled=not diff and rel not in RAW and not buf.edits_for(B, rel))

st.subheader("Drafts")
st.caption(f"Drafts live in `{store.DRAFTS_DIR}/` inside the content folder. A draft feeds nothing (no playtest, "
           "no validation of the set) until you reopen it here or pick it as a version in an A/B.")
drafts = store.drafts(root)
if not drafts:
    st.write("No drafts.")
for index, (draft_rel, draft_text) in enumerate(drafts.items()):
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(store.draft_path(root, draft_rel).stat().st_mtime))
    row = st.columns([5, 1, 1])
    row[0].markdown(f"`{store.DRAFTS_DIR}/{draft_rel}` ({when}, "
                    f"{len(store.unified_diff(store.disk_text(root, draft_rel), draft_text, draft_rel).splitlines())} diff lines)")
    row[1].button("Reopen", key=f"draft_open_{index}", on_click=do_reopen, args=(draft_rel, draft_text))
    row[2].button("Delete", key=f"draft_delete_{index}", on_click=do_delete, args=(draft_rel,))
