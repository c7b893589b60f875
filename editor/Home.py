"""Kiwi Chow Down editor: the home page (Streamlit). Pages live in editor/pages/; logic in editor/logic/."""
from __future__ import annotations

import streamlit as st

from editor import ui
from editor.logic import buffers as buf
from editor.logic import catalog as cat

st.set_page_config(page_title="Kiwi Chow Down editor", layout="wide")
st.title("Kiwi Chow Down editor")
root = ui.root()
st.caption(f"Content folder: `{root}` (the editor writes only inside it)")
ui.show_flash()

packs = cat.packs(root)
items, unreadable = ui.catalog()
st.write(f"{len(items)} items in {len(cat.content_files(root))} files; packs: "
         + ", ".join(f"{p.id} ({p.kind})" for p in packs))
for line in unreadable:
    st.error(line)

st.page_link(ui.PAGES["content"], label="Content: browse and edit every item")
st.page_link(ui.PAGES["validate"], label="Validate: the whole set, every edition and mod")
st.page_link(ui.PAGES["new_pack"], label="New leader / New flock: write a mod pack")
st.page_link(ui.PAGES["playtest"], label="Playtest: simulate games, charts, A/B against your edits")
st.page_link(ui.PAGES["board"], label="Board: draw a layout, a position or a played game")

pending = buf.files_with_edits(ui.buffers())
if pending:
    st.warning("Unsaved edits in: " + ", ".join(pending))
