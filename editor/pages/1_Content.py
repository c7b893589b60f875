"""Content page: every item in a searchable table; edit fields with live located validation and rules text."""
from __future__ import annotations


import streamlit as st

from editor import ui
from editor.logic import buffers as buf
from editor.logic import catalog as cat
from editor.logic import fields as fl
from editor.logic import rules_text, store, validation, yamlrt

st.set_page_config(page_title="Content - Kiwi Chow Down editor", layout="wide")
st.title("Content")
root = ui.root()
B = ui.buffers()
ui.show_flash()


def _problems_of(rel: str):
    """Blocking problems of a file text, for store.save."""
    return lambda text: validation.blocking(validation.validate_edit(root, rel, text), rel)


def do_save(rel: str) -> None:
    """Save the file's pending edits (refused when invalid or changed on disk)."""
    snap = ui.snapshot(rel)
    try:
        new_text = buf.edited_text(B, rel, snap.text)
        result = store.save(snap, new_text, _problems_of(rel))
    except store.ConflictError as exc:
        st.session_state.setdefault("kcd_conflicts", {})[rel] = (exc.loaded_text, exc.disk_text)
        ui.flash(str(exc), "error")
        return
    except store.InvalidContentError as exc:
        ui.flash(f"{rel} not saved: fix the {len(exc.messages)} problem(s) first (your edits are kept)", "error")
        return
    except yamlrt.EditError as exc:
        ui.flash(f"{rel} not saved: {exc}", "error")
        return
    ui.snapshots()[rel] = result.snapshot
    buf.clear(B, rel)
    store.discard_draft(root, rel)
    ui.drop_widgets(rel)
    ui.flash(f"Saved {rel} (previous version kept in {store.HISTORY_DIR}/; Undo puts it back)")


def do_draft(rel: str) -> None:
    """Write the pending edits to drafts/<rel> without validating."""
    snap = ui.snapshot(rel)
    try:
        path = store.save_draft(snap, buf.edited_text(B, rel, snap.text))
    except yamlrt.EditError as exc:
        ui.flash(f"draft not written: {exc}", "error")
        return
    ui.flash(f"Draft written to {path.relative_to(root).as_posix()} (the real file is unchanged)")


def do_undo(rel: str) -> None:
    """Put back the version before the last save."""
    try:
        ui.snapshots()[rel] = store.undo(root, rel, ui.snapshot(rel))
    except (store.NothingToUndoError, store.ConflictError) as exc:
        ui.flash(str(exc), "error")
        return
    ui.drop_widgets(rel)
    ui.flash(f"Undone: {rel} is back to its previous version")


def do_discard(rel: str) -> None:
    """Forget the pending edits of a file."""
    buf.clear(B, rel)
    ui.drop_widgets(rel)
    ui.flash(f"Edits of {rel} discarded", "info")


def do_reload(rel: str) -> None:
    """Take the file as it is on disk now; pending edits are kept and re-applied to it."""
    ui.snapshots()[rel] = store.read(root, rel)
    st.session_state.get("kcd_conflicts", {}).pop(rel, None)
    ui.flash(f"Reloaded {rel} from disk; your edits are re-applied on top", "info")


items, unreadable = ui.catalog()
for line in unreadable:
    st.error(line)

# --- the table -------------------------------------------------------------------------------------------
present = list(dict.fromkeys(i.kind for i in items))
kinds = st.multiselect("Kinds", present, format_func=lambda k: cat.KIND_LABELS.get(k, k), key="content_kinds")
query = st.text_input("Search (id, name, pack, file)", key="content_search")
shown = cat.search(items, kinds, query)
st.dataframe(cat.rows(shown), hide_index=True, width="stretch", height=260)

# A link from the Validate page selects its item (query param `item`).
wanted = st.query_params.get("item")
if wanted and wanted != st.session_state.get("kcd_linked") and cat.find(items, wanted):
    st.session_state["kcd_linked"] = wanted
    st.session_state["content_item"] = wanted
keys = [i.key for i in shown]
current = st.session_state.get("content_item")
if current and current not in keys and cat.find(items, current):
    keys.insert(0, current)
if not keys:
    st.info("No item matches.")
    st.stop()
labels = {i.key: f"{cat.KIND_LABELS.get(i.kind, i.kind)} / {i.id}  [{i.pack}]" for i in items}
choice = st.selectbox("Item", keys, format_func=lambda k: labels.get(k, k), key="content_item")
st.query_params["item"] = choice
st.session_state["kcd_linked"] = choice  # our own URL update is not a new link to follow
item = cat.find(items, choice)
rel = item.rel

# --- where it comes from --------------------------------------------------------------------------------
st.subheader(f"{cat.KIND_LABELS.get(item.kind, item.kind)}: {item.id}")
origin = f"From **{item.pack}** ({item.pack_kind}), `{rel}` line {item.line}"
if item.op:
    origin += f", `op: {item.op}`"
st.markdown(origin)
if item.overrides:
    st.info("Changed by overlays: " + ", ".join(item.overrides))
if item.overridden_target:
    base_item = next((i for i in items if i.pack_kind == "base" and i.kind == item.kind and i.id == item.id), None)
    what = item.op or "patch"
    st.info(f"This {what}s the base item {item.kind}/{item.id}"
            + (f" (`{base_item.rel}` line {base_item.line})" if base_item else ""))

snap = ui.snapshot(rel)
conflicts = st.session_state.get("kcd_conflicts", {})
disk_now = store.inside(root, rel).read_text(encoding="utf-8") if store.inside(root, rel).exists() else ""
if store.digest(disk_now) != snap.digest and rel not in conflicts:
    conflicts[rel] = (snap.text, disk_now)
    st.session_state["kcd_conflicts"] = conflicts

try:
    written_fields = fl.item_fields(snap.text, item)
except yamlrt.EditError as exc:
    st.error(f"{rel} cannot be edited here: {exc}")
    st.stop()

# --- the form: one input per field; messages and rules text filled in after validation ---------------------
# a malformed game.yaml gives an empty context (unknown fruits/terrains are then reported), never an exception
ctx = rules_text.check_context(root, rel)
slots = {}
for field in written_fields:
    value = buf.get(B, rel, field.doc_path, field.value)
    wkey = "w:" + buf.key(rel, field.doc_path)
    help_text = field.schema.description or None
    label = field.label + (f"  (DSL {field.schema.dsl})" if field.schema.dsl else "")
    if field.widget == "dsl":
        ui.reset_value(rel, wkey, fl.display(value))
        raw = st.text_area(label, value=fl.display(value), key=wkey, help=help_text, height=68)
    elif field.widget == "enum":
        options = list(field.schema.enum)
        if value not in options:
            options.append(value)
        ui.reset_value(rel, wkey, value)
        raw = st.selectbox(label, options, index=options.index(value), key=wkey, help=help_text)
    elif field.widget == "bool":
        ui.reset_value(rel, wkey, bool(value))
        raw = st.checkbox(label, value=bool(value), key=wkey, help=help_text)
    elif field.widget == "int" and isinstance(value, int) and not isinstance(value, bool):
        ui.reset_value(rel, wkey, int(value))
        raw = st.number_input(label, value=int(value), step=1, key=wkey, help=help_text)
    else:
        ui.reset_value(rel, wkey, fl.display(value))
        raw = st.text_input(label, value=fl.display(value), key=wkey, help=help_text)
    buf.put(B, rel, field.doc_path, fl.to_value(field, raw), field.value)
    slots[field.path] = st.container()
ui.reset_done(rel)

try:
    edited = buf.edited_text(B, rel, snap.text)
except yamlrt.EditError as exc:
    st.error(f"Edits cannot be applied: {exc}")
    st.stop()

try:
    problems = validation.validate_edit(root, rel, edited)
    validated = True
except ImportError as exc:
    problems, validated = [], False
    st.warning(f"Live validation waits on the loader (interpreter.content.validate_text): {exc}")

placed = validation.place(problems, rel, edited, item, fl.item_fields(edited, item))
for field in written_fields:
    box = slots[field.path]
    for problem in placed.by_field.get(field.path, []):
        ui.error_box(problem.text, box)
    if field.schema.dsl and ctx is not None:
        shown_value = yamlrt.get_in_or_none(yamlrt.load(edited), field.doc_path)
        rendered = rules_text.render_field(None if shown_value is None else str(shown_value), field.schema.dsl, ctx)
        if rendered.text is not None:
            box.caption(f"Rules text: {rendered.text}")
for problem in placed.item:
    ui.error_box(problem.text)
others = [p for p in placed.elsewhere if p.rel == rel]
if others:
    with st.expander(f"{len(others)} other problem(s) in {rel}", expanded=True):
        for problem in others:
            ui.error_box(problem.text)
errors = validation.blocking(problems, rel)
elsewhere = [p for p in placed.elsewhere if p.rel != rel]
if elsewhere:
    with st.expander(f"{len(elsewhere)} problem(s) in other files of the set (they do not block this save)"):
        for problem in elsewhere:
            ui.error_box(problem.text)
if validated and not errors:
    st.success(f"{rel} with your edits: valid")

# --- conflict, diff, save ---------------------------------------------------------------------------------
if rel in conflicts:
    loaded_text, disk_text = conflicts[rel]
    st.error(f"{rel} changed on disk since it was loaded: saving is refused so nothing is overwritten.")
    left, right = st.columns(2)
    left.caption("As loaded (your edits apply to this)")
    left.code(loaded_text, language="yaml")
    right.caption("On disk now")
    right.code(disk_text, language="yaml")
    st.code(store.unified_diff(loaded_text, disk_text, rel) or "(same text)", language="diff")
    st.button("Reload from disk (keep my edits)", on_click=do_reload, args=(rel,), key="btn_reload")

diff = store.unified_diff(snap.text, edited, rel)
if diff:
    st.subheader("Changes to be saved")
    st.code(diff, language="diff")
cols = st.columns(4)
cols[0].button("Save", on_click=do_save, args=(rel,), disabled=not diff or bool(errors) or not validated
               or rel in conflicts, type="primary", key="btn_save")
cols[1].button("Save as draft", on_click=do_draft, args=(rel,), disabled=not diff, key="btn_draft")
cols[2].button("Discard edits", on_click=do_discard, args=(rel,), disabled=not diff, key="btn_discard")
cols[3].button("Undo last save", on_click=do_undo, args=(rel,), disabled=not store.history(root, rel),
               key="btn_undo")
if store.draft_path(root, rel).exists():
    st.caption(f"A draft of this file exists: {store.DRAFTS_DIR}/{rel}")
pending = [f for f in buf.files_with_edits(B) if f != rel]
if pending:
    st.caption("Also unsaved: " + ", ".join(pending))
