"""Kiwi Chow Down editor: the home page (Streamlit): where to start, validation status, recent saves, unsaved
work. Pages live in editor/pages/; logic in editor/logic/."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from kcd.content import content_packs
from kcd.apps.editor import ui
from kcd.apps.editor.logic import buffers as buf
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import recent, store, validation

st.set_page_config(page_title="Kiwi Chow Down editor", layout="wide")
st.title("Kiwi Chow Down editor")
root = ui.root()
st.caption(f"Content folder: `{root}` (the editor writes only inside it). Stop the editor with Ctrl+C in the "
           "terminal where `kcd editor` runs.")
ui.show_flash()

packs = content_packs(root)
items, broken = ui.catalog()
st.write(f"{len(items)} items in {len(cat.content_files(root))} files; packs: "
         + ", ".join(f"{p.id} ({p.kind})" for p in packs))
ui.broken_notice(broken)


@st.cache_data(show_spinner="Validating the whole set…", max_entries=4)
def _status(base: str, stamp: str) -> tuple[int, int, list[str]]:
    """(errors, warnings, files with errors) of the whole set, cached per content fingerprint."""
    problems = validation.whole_report(Path(base))
    errors = [p for p in problems if p.severity == "error"]
    return len(errors), len(problems) - len(errors), sorted({p.rel or "?" for p in errors})


st.subheader("Validation")
n_errors, n_warnings, bad_files = _status(str(root), ui.fingerprint(root))
if n_errors:
    st.error(f"{n_errors} problem(s) in {', '.join(bad_files)}")
else:
    st.success("The whole set is valid: base" + "".join(f" + {p.id}" for p in packs if p.kind != "base")
               + (f" ({n_warnings} warning(s))" if n_warnings else ""))
st.page_link(ui.PAGES["validate"], label="Validate: the whole report, each problem linked to its item")

st.subheader("Where to start")
st.page_link(ui.PAGES["content"], label="Content: find an item (click a row or search), edit it, see its card "
             "and rules text, save")
st.page_link(ui.PAGES["content"], label="For example: the Season card “Most Nests”",
             query_params={"item": "season_cards/most-nests"})
st.page_link(ui.PAGES["new_pack"], label="New leader / New flock: write a mod pack from a template")
st.page_link(ui.PAGES["playtest"], label="Playtest: simulate games, charts, A/B between versions")
st.page_link(ui.PAGES["board"], label="Board: draw a layout, a position or a played game")
st.page_link(ui.PAGES["files"], label="Files and drafts: any file as text, drafts to reopen or delete")

st.subheader("Unsaved work")
pending = sorted(set(buf.files_with_edits(ui.buffers())) | set(ui.raw_edits()))
if pending:
    st.warning("Unsaved edits (autosaved, they survive a refresh or a restart) in: " + ", ".join(pending))
else:
    st.write("No unsaved edits.")
ui.other_sessions_notice(st.container())
drafts = store.drafts(root)
if drafts:
    st.write(f"{len(drafts)} draft(s): " + ", ".join(drafts) + " (they feed nothing until reopened)")

st.subheader("Recent saves")
saves = recent.recent_saves(root)
if not saves:
    st.write("No saves yet in this content folder.")
for save in saves:
    found = next((i for i in items if i.rel == save.rel), None)
    st.markdown(f"- `{save.rel}` saved {recent.ago(save.when)}"
                + (" (Undo on its Content page puts the previous version back)" if found else ""))
