"""Validate page: the whole-set report (base, every edition, every mod), each problem linked to its item."""
from __future__ import annotations

import streamlit as st

from kcd.content import content_packs
from kcd.apps.editor import ui
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import validation

st.set_page_config(page_title="Validate - Kiwi Chow Down editor", layout="wide")
st.title("Validate")
root = ui.root()
ui.show_flash()
packs = content_packs(root)
st.caption("Checks base alone, then base + each edition and base + each mod ("
           + ", ".join(p.id for p in packs if p.kind != "base") + "), like `kcd validate`.")

items, broken = ui.catalog()
ui.broken_notice(broken)
try:
    problems = validation.whole_report(root)
except ImportError as exc:
    st.warning(f"Validation waits on the loader (kcd.content.load_ruleset): {exc}")
    st.stop()

errors = [p for p in problems if p.severity == "error"]
if not errors:
    st.success(f"OK: {len(cat.content_files(root))} files, {len(items)} items, "
               + " + ".join(p.id for p in packs)
               + (f" ({len(problems)} warning(s))" if problems else ""))
else:
    files = {p.rel for p in errors}
    st.error(f"{len(errors)} problem(s) in {len(files)} file(s)")
for problem, item in validation.link(problems, items):
    ui.error_box(problem.text, severity=problem.severity)
    where = "seen with " + ", ".join(problem.packs) if problem.packs else ""
    # a problem with an item or in a broken file names its file (`rel`)
    if problem.rel is not None and (item is not None and item.kind == "file" or item is None and problem.rel in broken):
        st.page_link(ui.PAGES["files"], label=f"Fix {problem.rel} in the raw file view (the error under its line)",
                     query_params={"file": problem.rel})
    elif item is not None:
        st.page_link(ui.PAGES["content"], label=f"Open {cat.KIND_LABELS.get(item.kind, item.kind)} / {item.id} "
                     f"({item.pack}) on the Content page", query_params={"item": item.link})
    st.caption(where)
