"""Content page: every item in a table (click a row, or search, to open it); a form per item in sections, lists
as sub-forms, validation on every keystroke, rules text and a card preview; saving that loses nothing."""
from __future__ import annotations

from typing import Any, Callable

import streamlit as st
from kcd.apps.editor import textfield as tf
from kcd.apps.editor import ui
from kcd.apps.editor.logic import buffers as buf
from kcd.apps.editor.logic import card_svg
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import fields as fl
from kcd.apps.editor.logic import merge, reference, rules_text, store, validation, yamlrt

st.set_page_config(page_title="Content - Kiwi Chow Down editor", layout="wide")
st.title("Content")
root = ui.root()
B = ui.buffers()
notices = ui.show_flash()
DEBOUNCE_MS = 150   # keystrokes reach the validator after this pause (and on Enter)


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
        ui.flash(str(exc) + " (your edits are kept)", "error")
        return
    except store.InvalidContentError as exc:
        ui.flash(f"{rel} not saved: fix the {len(exc.messages)} problem(s) first (your edits are kept)", "error")
        return
    except (yamlrt.EditError, OSError) as exc:   # OSError: a read-only folder, a full disk
        ui.flash(f"{rel} not saved: {exc} (your edits are kept)", "error")
        return
    ui.saved(rel, result, "; Undo puts it back")


def do_draft(rel: str) -> None:
    """Write the pending edits to drafts/<rel> without validating (the edits stay, unsaved)."""
    snap = ui.snapshot(rel)
    try:
        path = store.save_draft(snap, buf.edited_text(B, rel, snap.text))
    except (yamlrt.EditError, OSError) as exc:
        ui.flash(f"draft not written: {exc}", "error")
        return
    ui.flash(f"Draft written to {path.relative_to(root).as_posix()} (the real file is unchanged; drafts feed "
             "nothing until you reopen one on the Files and drafts page or pick it for an A/B)")


def do_undo(rel: str) -> None:
    """Put back the version before the last save."""
    try:
        ui.snapshots()[rel] = store.undo(root, rel, ui.snapshot(rel))
    except (store.NothingToUndoError, store.ConflictError, OSError) as exc:
        ui.flash(str(exc), "error")
        return
    ui.forget_unsaved(rel)
    ui.flash(f"Undone: {rel} is back to its previous version")


def do_discard(rel: str) -> None:
    """Forget the pending edits of a file."""
    ui.forget_unsaved(rel)
    ui.flash(f"Edits of {rel} discarded", "info")


def do_reload(rel: str) -> None:
    """Take the file as it is on disk now and merge the designer's edits into it field by field."""
    snap = ui.snapshot(rel)
    disk = store.read(root, rel)
    try:
        merged = merge.merge(snap.text, buf.edits_for(B, rel), disk.text)
    except yamlrt.EditError as exc:
        ui.flash(f"{rel} on disk cannot be read ({exc}); fix it in the raw file view", "error")
        return
    ui.snapshots()[rel] = disk
    buf.set_all(B, rel, merged.edits)
    st.session_state.get("kcd_conflicts", {}).pop(rel, None)
    clashes = st.session_state.setdefault("kcd_clashes", {})
    clashes[rel] = merged.clashes
    st.session_state.setdefault("kcd_clash_from", {})[rel] = "on disk"
    ui.refresh_widgets(rel)
    ui.flash(f"Reloaded {rel} from disk: {len(merged.edits)} of your edits kept on fields only you changed"
             + (f"; {len(merged.clashes)} field(s) changed on both sides: choose below" if merged.clashes else "")
             + (f"; {len(merged.same)} already on disk" if merged.same else ""), "info")


def do_choose(rel: str, index: int, mine: bool) -> None:
    """Settle one field both sides changed: keep the designer's value or take the disk's."""
    clashes = st.session_state.get("kcd_clashes", {}).get(rel, [])
    if not 0 <= index < len(clashes):
        return
    clash = clashes.pop(index)
    written = yamlrt.plain(yamlrt.get_in_or_none(yamlrt.load(ui.snapshot(rel).text), clash.path))
    # theirs: the disk's value (then no edit is left) or the other tab's (an edit like any other)
    buf.put(B, rel, clash.path, clash.mine if mine else clash.theirs, written)
    ui.refresh_widgets(rel)


def do_select(key: str) -> None:
    """Open an item (from the table, the search or the item list)."""
    st.session_state["kcd_item"] = key


def do_list(rel: str, list_path: tuple, op: str, index: int, template) -> None:
    """Add, remove or move an element of a list (track slots, powers, cards) as one edit of the whole list."""
    snap = ui.snapshot(rel)
    current = yamlrt.plain(yamlrt.get_in(yamlrt.load(buf.edited_text(B, rel, snap.text)), list_path))
    new = fl.list_op(current, op, index, template)
    written = yamlrt.get_in_or_none(yamlrt.load(snap.text), list_path)
    buf.drop_under(B, rel, list_path)
    buf.put(B, rel, list_path, new, yamlrt.plain(written))
    ui.refresh_widgets(rel)


items, broken = ui.catalog()
with notices:
    ui.broken_notice(broken)

# --- finding an item: deep link, table click, search ------------------------------------------------------
wanted = st.query_params.get("item")
if wanted and wanted != st.session_state.get("kcd_linked"):
    st.session_state["kcd_linked"] = wanted       # a link (or a refresh) opens its item once
    found = cat.find(items, wanted)
    if found is not None:
        st.session_state["kcd_item"] = found.key
    else:
        notices.warning(f"No item `{wanted}` in this content folder.")
present = list(dict.fromkeys(i.kind for i in items))
left, right = st.columns([1, 2])
with left:
    kinds = st.multiselect("Kinds", present, format_func=lambda k: cat.KIND_LABELS.get(k, k), key="content_kinds")
with right:
    query = tf.text_field("Search (id, name, pack, file): the first match opens", "", "content_search",
                          debounce=200)
shown = cat.search(items, kinds, query or "")
current = st.session_state.get("kcd_item")
if cat.find(items, current or "") is None:
    current = items[0].key if items else None
if (query or "").strip() and shown and current not in [i.key for i in shown] \
        and query != st.session_state.get("kcd_searched"):
    current = shown[0].key                         # a search selects its first match
st.session_state["kcd_searched"] = query
table_key = "content_table:" + str(hash(tuple(i.key for i in shown)))
event = st.dataframe(cat.rows(shown), hide_index=True, width="stretch", height=240, on_select="rerun",
                     selection_mode=["single-row", "single-cell"], key=table_key)   # a cell click opens its row
picked = cat.clicked_row(event.selection) if event is not None else None
if picked is not None and 0 <= picked < len(shown):
    clicked = shown[picked].key
    if st.session_state.get("kcd_clicked") != (table_key, clicked):
        st.session_state["kcd_clicked"] = (table_key, clicked)
        current = clicked
if current is None:
    st.info("No item in this content folder.")
    st.stop()
st.session_state["kcd_item"] = current
keys = [i.key for i in shown]
if current not in keys:
    keys.insert(0, current)
labels = {i.key: f"{cat.KIND_LABELS.get(i.kind, i.kind)} / {i.id}  [{i.pack}]" for i in items}
st.session_state["content_item"] = current
st.selectbox("Item", keys, format_func=lambda k: labels.get(k, k), key="content_item",
             on_change=lambda: do_select(st.session_state["content_item"]))
selected = cat.find(items, current)
assert selected is not None   # `current` is an item's key: the one kept, the first, a search's match or a click
item = selected               # an ItemRef, also in the functions below that read it
st.query_params["item"] = item.link
st.session_state["kcd_linked"] = item.link     # our own URL update is not a new link to follow
rel = item.rel

# --- where it comes from --------------------------------------------------------------------------------
st.subheader(f"{cat.KIND_LABELS.get(item.kind, item.kind)}: {item.id}")
if item.kind == "file":
    st.error(f"`{rel}` cannot be read as YAML, so its items are not listed. Fix it in the raw file view: "
             "the error is shown under its line.")
    st.page_link(ui.PAGES["files"], label=f"Open {rel} in the raw file view", query_params={"file": rel})
    st.stop()
origin = f"From **{item.pack}** ({item.pack_kind}), `{rel}` line {item.line}"
if item.op:
    origin += f", `op: {item.op}`"
st.markdown(origin)
if item.overrides:
    st.info("Changed by overlays: " + ", ".join(item.overrides))
if item.overridden_target:
    base_item = next((i for i in items if i.pack_kind == "base" and i.kind == item.kind and i.id == item.id), None)
    what = item.op or "patch"
    st.info(f"This {what.rstrip('e')}es the base item {item.kind}/{item.id}"
            + (f" (`{base_item.rel}` line {base_item.line})" if base_item else ""))
if rel in ui.raw_edits():
    st.warning(f"`{rel}` has unsaved whole-text edits from the raw file view; finish them there first.")
    st.page_link(ui.PAGES["files"], label=f"Open {rel} in the raw file view", query_params={"file": rel})
    st.stop()

ui.other_sessions_notice(notices, [rel])
snap = ui.snapshot(rel)
conflicts = st.session_state.setdefault("kcd_conflicts", {})

try:
    edited = buf.edited_text(B, rel, snap.text)
    doc = yamlrt.load(edited)
    node = yamlrt.plain(yamlrt.get_in(doc, item.path))
    # values as the file holds them, with list changes applied (typing a field back to these drops its edit)
    lists_only = {p: v for p, v in buf.edits_for(B, rel).items() if isinstance(v, list)}
    written_doc = yamlrt.load(yamlrt.apply_edits(snap.text, buf.ordered(lists_only)))
    field_list = fl.item_fields(edited, item)
except yamlrt.EditError as exc:
    st.error(f"{rel} cannot be edited here: {exc}")
    st.page_link(ui.PAGES["files"], label=f"Open {rel} in the raw file view", query_params={"file": rel})
    st.stop()

by_path = {f.path: f for f in field_list}
gen = ui.generation(rel)
ctx = rules_text.check_context(root, rel)
slots: dict[tuple, st.delta_generator.DeltaGenerator] = {}
list_set = set(fl.list_paths(node))


@st.cache_data(show_spinner=False, max_entries=16)
def _reference(kind: str, stamp: str) -> str:
    """The DSL reference table of one field kind (cached; `stamp` is the game.yaml context)."""
    return reference.markdown(kind, ctx)


def field_widget(field: fl.Field) -> None:
    """One input for one field, its value from the buffers or the file; records what is typed."""
    written = yamlrt.plain(yamlrt.get_in_or_none(written_doc, field.doc_path))
    value = buf.get(B, rel, field.doc_path, written)
    wkey = f"w{gen}:" + buf.key(rel, field.doc_path)
    push = st.session_state.get("kcd_push", {}).get(rel, {}).pop(wkey, None)
    if push is not None:
        show_new(field, wkey, *push)
    label = fl.word(field.path[-1]) if not isinstance(field.path[-1], int) else fl.human_path(field.path, node)
    if field.schema.dsl:
        label += f" (DSL {field.schema.dsl})"
    help_text = (field.schema.description or "") + f"\n\nIn the file: `{yamlrt.format_path(field.path)}`"
    kind = input_kind(field, value)
    seed = seeds().get(wkey, 0)
    raw: object   # what the widget gives: text, a colour, an enum value, a bool or a number
    dsl = field.schema.dsl   # set exactly when the widget is "dsl"
    if kind in ("keyup", "textarea") and field.widget == "dsl" and dsl:
        cols = st.columns([5, 1])
        with cols[0]:
            if kind == "keyup":
                raw = tf.text_field(label, fl.display(value).rstrip("\n"), wkey, seed=seed, debounce=DEBOUNCE_MS)
            else:
                raw = tf.text_field(label, fl.display(value), wkey, seed=seed, debounce=DEBOUNCE_MS,
                                    rows=max(3, fl.display(value).count("\n") + 1))
        with cols[1].popover("?", help=f"What this field is, and the language reference for {dsl} fields"):
            st.markdown(help_text)
            st.markdown(_reference(dsl, repr(ctx)))
        if fl.display(value).endswith("\n") and raw == fl.display(value).rstrip("\n"):
            raw = fl.display(value)     # a block scalar's final newline is not an edit
    elif kind == "colour":
        raw = st.color_picker(label, value=str(value), key=wkey, help=help_text)
    elif kind == "enum":
        options = list(field.schema.enum)
        if value not in options:
            options.append(value)
        raw = st.selectbox(label, options, index=options.index(value), key=wkey, help=help_text)
    elif kind == "bool":
        raw = st.checkbox(label, value=bool(value), key=wkey, help=help_text)
    elif kind == "int":
        raw = st.number_input(label, value=int(value), step=1, key=wkey, help=help_text)
    else:
        raw = tf.text_field(label, fl.display(value), wkey, seed=seed, debounce=DEBOUNCE_MS)
    buf.put(B, rel, field.doc_path, fl.to_value(field, raw), written)
    slots[field.path] = st.container()


def seeds() -> dict[str, int]:
    """The seed of each text input (raised to put a value from disk into it, see kcd.apps.editor.textfield)."""
    return st.session_state.setdefault("kcd_seed", {})


def input_kind(field: fl.Field, value) -> str:
    """Which input shows a field: keyup (text and one-line DSL, validated per keystroke), textarea (multi-line
    DSL), colour, enum, bool or int."""
    if field.widget == "dsl":
        return "textarea" if "\n" in fl.display(value).rstrip("\n") else "keyup"
    if fl.is_colour(field):
        return "colour"
    if field.widget in ("enum", "bool"):
        return field.widget
    if field.widget == "int" and isinstance(value, int) and not isinstance(value, bool):
        return "int"
    return "keyup"


def show_new(field: fl.Field, wkey: str, old, new) -> None:
    """After the file changed on disk (and the designer had typed nothing in it): put the disk's value into an
    input that still shows the old one, keeping its key, so a keystroke in flight is never dropped; an input
    the designer has typed into meanwhile keeps what was typed (it becomes an edit on the new version)."""
    kind = input_kind(field, new)
    if kind != input_kind(field, old):
        return
    if kind in ("keyup", "textarea"):
        shown = tf.reported(st.session_state.get(tf.STATE_PREFIX + wkey), seeds().get(wkey, 0))
        if shown is None or shown.rstrip("\n") == fl.display(old).rstrip("\n"):
            seeds()[wkey] = seeds().get(wkey, 0) + 1    # the browser shows the new value unless typed into
        return
    widgets: dict[str, Callable[[Any], object]] = {"colour": str, "enum": lambda v: v, "bool": bool, "int": int}
    widget = widgets[kind]
    if wkey not in st.session_state or st.session_state[wkey] == widget(old):
        st.session_state[wkey] = widget(new)


def list_template(list_path: tuple):
    """The shape a new element of this list takes: its last element, else a same-named list elsewhere."""
    current = yamlrt.get_in_or_none(node, list_path) if list_path else None
    if current:
        return current[-1]
    for other in fl.list_paths(node):
        found = yamlrt.get_in_or_none(node, other)
        if other[-1] == list_path[-1] and found:
            return found[-1]
    return None


def render(value, path: tuple) -> None:
    """Inputs for a part of the item: fields, nested sections, list elements with their buttons."""
    if isinstance(value, dict):
        element = bool(path) and isinstance(path[-1], int) and path[:-1] in list_set
        # a list element's own fields side by side (a track slot is one row: benefit | source)
        scalars = [k for k, sub in value.items() if (path + (str(k),)) in by_path and not (element and k == "slot")]
        columns = st.columns(2) if element and len(scalars) > 1 else None
        placed = 0
        for key, sub in value.items():
            sub_path = path + (str(key),)
            if isinstance(sub, (dict, list)) and sub_path not in by_path:
                if len(sub_path) == 2:
                    # a part of a section (a flock side's track, its power) folds: side B is ~3,200 px open;
                    # a part with unsaved edits or a problem opens by itself
                    with st.expander(fl.human_path(sub_path, node), expanded=unfolded(item.path + sub_path)):
                        render_part(sub, sub_path, heading=False)
                else:
                    render_part(sub, sub_path)
            elif key in scalars:   # a track's `slot` is its place: shown in the header, renumbered
                if columns is None:
                    field_widget(by_path[sub_path])
                else:
                    with columns[placed % 2]:
                        field_widget(by_path[sub_path])
                    placed += 1
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            sub_path = path + (index,)
            if sub_path in by_path:
                field_widget(by_path[sub_path])
            else:
                render(sub, sub_path)


def render_part(value, path: tuple, heading: bool = True) -> None:
    """A nested section or list of the item, under its heading (none in an expander, which has the label)."""
    if path in list_set:
        render_list(value, path)
    else:
        if heading:
            st.markdown(f"**{fl.human_path(path, node)}**")
        render(value, path)


def unfolded(doc_path: tuple) -> bool:
    """Whether a folded part opens: it holds an unsaved edit, or a located problem of the last check, when the
    part is first shown (kept after that: an expander that changes its state while the designer types in it
    would be drawn afresh, with the input inside it)."""
    inside = lambda p: len(p) >= len(doc_path) and tuple(p[: len(doc_path)]) == doc_path  # noqa: E731
    shown = st.session_state.setdefault("kcd_unfold", {})
    return shown.setdefault(f"w{gen}:" + buf.key(rel, doc_path), any(inside(p) for p in buf.edits_for(B, rel)) or any(
        inside(item.path + tuple(p)) for p in st.session_state.get("kcd_problem_paths", {}).get(rel, ())))


def render_list(elements: list, list_path: tuple) -> None:
    """A list of mappings as sub-forms: each element in a box with move and remove buttons, then Add."""
    name = fl.SINGULAR.get(str(list_path[-1]), fl.word(list_path[-1]) + " item")
    st.markdown(f"**{fl.human_path(list_path, node)}** ({len(elements)})")
    bkey = f"l{gen}:" + buf.key(rel, item.path + list_path)
    for index, element in enumerate(elements):
        with st.container(border=True):
            head = st.columns([6, 1, 1, 1])
            head[0].markdown(f"*{fl.element_name(list_path[-1], index, element)}*")
            args = (rel, item.path + list_path)
            head[1].button("↑", key=f"{bkey}:up:{index}", on_click=do_list, args=args + ("up", index, None),
                           disabled=index == 0, help=f"Move {name.lower()} up")
            head[2].button("↓", key=f"{bkey}:down:{index}", on_click=do_list, args=args + ("down", index, None),
                           disabled=index == len(elements) - 1, help=f"Move {name.lower()} down")
            head[3].button("✕", key=f"{bkey}:remove:{index}", on_click=do_list,
                           args=args + ("remove", index, None), help=f"Remove this {name.lower()}")
            render(element, list_path + (index,))
    st.button(f"Add {name.lower()}", key=f"{bkey}:add", on_click=do_list,
              args=(rel, item.path + list_path, "add", -1, list_template(list_path)))


def sections(value) -> list[tuple[str, list]]:
    """Tabs for an item: `General` for its top-level fields, one per top-level section or list."""
    if not isinstance(value, dict):
        return [("General", [])]
    general = [k for k, v in value.items() if not isinstance(v, (dict, list)) or (str(k),) in by_path]
    out = [("General", general)] if general else []
    out += [(fl.word(k), [k]) for k, v in value.items() if isinstance(v, (dict, list)) and (str(k),) not in by_path]
    return out


# --- the form and the card preview -----------------------------------------------------------------------------
form_col, preview_col = st.columns([3, 1]) if item.kind in card_svg.PREVIEWED else (st.container(), None)
with form_col:
    parts = dict(sections(node))
    chosen = next(iter(parts))
    if len(parts) > 1:
        # one section at a time (a flock is General, Side A, Side B): a short page, and a fast rerun per keystroke
        chosen = st.segmented_control("Section", list(parts), key=f"section:{item.kind}", default=chosen,
                                      required=True) or chosen
        if chosen not in parts:
            chosen = next(iter(parts))
    if isinstance(node, dict):
        render({k: node[k] for k in parts[chosen]}, ())
    else:
        render(node, ())

# the file changed on disk since it was loaded: checked after the inputs recorded what was just typed, so a
# keystroke is never applied to a version it was not typed on
disk_now = store.disk_text(root, rel)
if store.digest(disk_now) != snap.digest and rel not in conflicts:
    if not buf.edits_for(B, rel) and rel not in st.session_state.get("kcd_clashes", {}):
        new_snap = store.read(root, rel)     # nothing typed here: just show the new file
        try:
            new_doc = yamlrt.load(new_snap.text)
            same_shape = fl.list_paths(yamlrt.plain(yamlrt.get_in(new_doc, item.path))) == fl.list_paths(node) and [
                f.path for f in fl.item_fields(new_snap.text, item)] == [f.path for f in field_list]
        except yamlrt.EditError:
            same_shape, new_doc = False, None
        if same_shape:
            st.session_state.setdefault("kcd_push", {})[rel] = {
                f"w{gen}:" + buf.key(rel, f.doc_path): (f.value, yamlrt.plain(yamlrt.get_in(new_doc, f.doc_path)))
                for f in field_list if f.value != yamlrt.plain(yamlrt.get_in(new_doc, f.doc_path))}
        else:
            ui.refresh_widgets(rel)          # other fields or list lengths: fresh inputs
        ui.snapshots()[rel] = new_snap
        ui.flash(f"{rel} changed on disk; you had no edits in it, so the page shows the new version.", "info")
        st.rerun()
    conflicts[rel] = (snap.text, disk_now)

try:
    edited = buf.edited_text(B, rel, snap.text)
except yamlrt.EditError as exc:
    st.error(f"Edits cannot be applied: {exc}")
    ui.autosave_now([rel])
    st.stop()

problems = validation.validate_edit(root, rel, edited)
placed = validation.place(problems, rel, edited, item, fl.item_fields(edited, item))
st.session_state.setdefault("kcd_problem_paths", {})[rel] = [p for p, found in placed.by_field.items() if found]
edited_doc = yamlrt.load(edited)
for path, box in slots.items():
    for problem in placed.by_field.get(path, []):
        ui.error_box(problem.text, box)
    field = by_path[path]
    if field.schema.dsl and ctx is not None:
        shown_value = yamlrt.get_in_or_none(edited_doc, field.doc_path)
        rendered = rules_text.render_field(None if shown_value is None else str(shown_value), field.schema.dsl, ctx)
        if rendered.text is not None:
            box.caption(f"Rules text: {rendered.text}")

if preview_col is not None and ctx is not None:
    with preview_col:
        st.markdown("**Card preview**")
        flocks = [i for i in items if i.kind == "flocks" and i.pack_kind == "base"]
        now = yamlrt.plain(yamlrt.get_in_or_none(edited_doc, item.path)) or {}

        def _text(value, kind: str) -> str:
            """Rules text of a DSL value on the card (the DSL text itself while it does not compile)."""
            rendered = rules_text.render_field(None if value is None else str(value), kind, ctx)
            return rendered.text if rendered.text is not None else f"[{value}]"

        colours = {f.id: str(yamlrt.plain(yamlrt.load(store.disk_text(root, f.rel))).get("colour", "#555555"))
                   for f in flocks}
        colour = "#444444"
        if colours:
            chosen = st.selectbox("Flock colour", list(colours), key="card_flock")
            colour = colours[chosen]
        cards = ([(c, str(now.get("name") or now.get("id"))) for c in now.get("cards", []) if isinstance(c, dict)]
                 if item.kind == "leaders" else [(now, "")])
        for card, owner in cards:
            st.html(card_svg.img_tag(card_svg.svg(card_svg.face(item.kind, card, _text, colour, owner))))

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
if not errors:
    st.success(f"{rel} with your edits: valid")

# --- conflicts, diff, save ---------------------------------------------------------------------------------
if rel in conflicts:
    loaded_text, disk_text = conflicts[rel]
    st.error(f"{rel} changed on disk since it was loaded: saving is refused so nothing is overwritten.")
    left, right = st.columns(2)
    left.caption("As loaded (your edits apply to this)")
    left.code(loaded_text, language="yaml")
    right.caption("On disk now")
    right.code(disk_text, language="yaml")
    st.code(store.unified_diff(loaded_text, disk_text, rel) or "(same text)", language="diff")
    st.button("Reload from disk (keep my edits where only I changed a field)", on_click=do_reload, args=(rel,),
              key="btn_reload")
clashes = st.session_state.get("kcd_clashes", {}).get(rel, [])
clash_from = st.session_state.get("kcd_clash_from", {}).get(rel, "on disk")
if clashes:
    st.error(f"{len(clashes)} field(s) changed both by you and {clash_from}: choose which value to keep.")
    for index, clash in enumerate(clashes):
        with st.container(border=True):
            st.markdown(f"**{fl.human_path(clash.path[len(item.path):], node) if clash.path[:len(item.path)] == item.path else yamlrt.format_path(clash.path)}**")
            mine_col, theirs_col = st.columns(2)
            mine_col.caption("Yours")
            mine_col.code(fl.display(clash.mine) or "(empty)", language=None)
            mine_col.button("Keep mine", key=f"clash_mine_{index}", on_click=do_choose, args=(rel, index, True))
            theirs_col.caption(clash_from[:1].upper() + clash_from[1:])
            theirs_col.code(fl.display(clash.theirs) or "(empty)", language=None)
            theirs_col.button("Take theirs", key=f"clash_theirs_{index}", on_click=do_choose,
                              args=(rel, index, False))

diff = store.unified_diff(snap.text, edited, rel)
if diff:
    st.subheader("Changes to be saved")
    st.code(diff, language="diff")
cols = st.columns(4)
cols[0].button("Save", on_click=do_save, args=(rel,), disabled=not diff or bool(errors) or rel in conflicts
               or bool(clashes), type="primary", key="btn_save")
cols[1].button("Save as draft", on_click=do_draft, args=(rel,), disabled=not diff, key="btn_draft")
cols[2].button("Discard edits", on_click=do_discard, args=(rel,), key="btn_discard",
               disabled=not diff and not buf.edits_for(B, rel) and not clashes)
cols[3].button("Undo last save", on_click=do_undo, args=(rel,), disabled=not store.history(root, rel),
               key="btn_undo")
if store.draft_path(root, rel).exists():
    st.caption(f"A draft of this file exists: {store.DRAFTS_DIR}/{rel} (it feeds nothing; reopen or delete it "
               "on the Files and drafts page)")
pending = [f for f in buf.files_with_edits(B) if f != rel]
if pending:
    st.caption("Also unsaved: " + ", ".join(pending))

# last, so the validation result reaches the browser first: keep what was typed for a refresh, crash or restart
ui.autosave_now([rel])
