"""New leader / New flock: guided forms that write a mod pack under mods/NAME/ (base files are never edited)."""
from __future__ import annotations

import streamlit as st

from kcd.apps.editor import ui
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import newpack, rules_text

st.set_page_config(page_title="New pack - Kiwi Chow Down editor", layout="wide")
st.title("New leader / New flock")
root = ui.root()
ui.show_flash()
st.caption("Writes a new mod pack under `mods/NAME/` (pack.yaml plus leaders.yaml or flocks/ID.yaml). "
           "It is validated on a copy of the content first and written only if it loads cleanly.")
# a malformed game.yaml gives an empty context (unknown fruits/terrains are then reported), never an exception
ctx = rules_text.check_context(root, "base/game.yaml")


def pack_form(prefix: str) -> newpack.PackInfo:
    """The pack.yaml inputs."""
    c1, c2 = st.columns(2)
    pack_id = c1.text_input("Pack id (folder name under mods/)", key=f"{prefix}_pack_id")
    name = c2.text_input("Pack name", key=f"{prefix}_pack_name")
    description = st.text_input("Description", key=f"{prefix}_pack_desc")
    reason = st.text_input("Design rationale (written as `source: designed: ...`)", key=f"{prefix}_reason")
    return newpack.PackInfo(pack_id.strip(), name.strip() or pack_id.strip(), description.strip(),
                            reason.strip() or "new content from the editor")


def preview(text: str, kind: str) -> None:
    """Live rules text (or DSL problems) under an effect input."""
    if ctx is None or not text.strip():
        return
    rendered = rules_text.render_field(text, kind, ctx)
    if rendered.text is not None:
        st.caption(f"Rules text: {rendered.text}")
    for issue in rendered.issues:
        st.error(issue)


def create(pack_id: str, files: dict[str, str]) -> None:
    """Validate and write the pack; show what happened (the page stays on the same form)."""
    try:
        problems = newpack.create_pack(root, pack_id, files)
    except (newpack.PackError, ValueError) as exc:
        st.error(str(exc))
        return
    if problems:
        st.error(f"Not written: the pack has {len(problems)} problem(s)")
        for problem in problems:
            ui.error_box(problem.text)
        return
    st.session_state["kcd_new_pack"] = pack_id
    ui.flash(f"Created mods/{pack_id}/: " + ", ".join(sorted(files)))
    st.rerun()


if st.session_state.get("kcd_new_pack"):
    st.success(f"Pack `{st.session_state['kcd_new_pack']}` is ready: playtest it on the Playtest page "
               "(tick it under editions and mods).")

def fill_card_ids() -> None:
    """Card ids follow the leader id (`tane` -> `tane-1`, `tane-2`) until the designer types their own."""
    new = newpack.card_ids(st.session_state.get("leader_id", "").strip())
    old = st.session_state.get("leader_card_ids_auto", ("", ""))
    for n in (1, 2):
        key = f"leader_card{n}_id"
        if st.session_state.get(key, "") in ("", old[n - 1]):
            st.session_state[key] = new[n - 1]
    st.session_state["leader_card_ids_auto"] = new


# a segmented control, not tabs: the choice is state, so creating a flock leaves the page on the flock form
form = st.segmented_control("Write", ["New leader", "New flock"], key="newpack_form", default="New leader",
                            required=True)
if form == "New leader":
    info = pack_form("leader")
    c1, c2 = st.columns(2)
    leader_id = c1.text_input("Leader id", key="leader_id", on_change=fill_card_ids)
    leader_name = c2.text_input("Leader name", key="leader_name")
    cards = []
    for n in (1, 2):
        st.markdown(f"**Card {n}** (R-LEAD-2: used once per season as a Move action)")
        a, b = st.columns(2)
        card_id = a.text_input(f"Card {n} id (filled in from the leader id)", key=f"leader_card{n}_id")
        card_name = b.text_input(f"Card {n} name", key=f"leader_card{n}_name")
        ability = st.text_area(f"Card {n} ability (DSL, context ability)", key=f"leader_card{n}_ability",
                               value="leader moves 2 straight; push the pieces out of the landing hex", height=68)
        preview(ability, "ability")
        cards.append(newpack.LeaderCard(card_id.strip(), card_name.strip() or card_id.strip(), ability.strip()))
    if st.button("Create leader pack", key="btn_create_leader", type="primary"):
        try:
            files = newpack.leader_files(info, newpack.NewLeader(leader_id.strip(), leader_name.strip()
                                                                 or leader_id.strip(), (cards[0], cards[1])))
        except newpack.PackError as exc:
            st.error(str(exc))
        else:
            create(info.id, files)

else:
    info = pack_form("flock")
    templates = [rel for rel in cat.content_files(root) if cat.holds(rel, "flocks")]
    c1, c2, c3 = st.columns(3)
    flock_id = c1.text_input("Flock id", key="flock_id")
    flock_name = c2.text_input("Flock name", key="flock_name")
    colour = c3.color_picker("Colour", value=newpack.default_colour(newpack.flock_colours(root)), key="flock_colour",
                             help="Starts at a colour far from every flock's in the content")
    template = st.selectbox("Start from", templates, key="flock_template") if templates else None
    extra_move = st.text_input("Extra Move cost (both sides; empty keeps the template's)", key="flock_extra")
    if extra_move.strip():
        preview(extra_move, "cost")
    st.markdown("**Side B power** (R-ASYM-1; leave empty to keep the template's)")
    kind = st.radio("Power kind", ["trigger", "modifier"], horizontal=True, key="flock_power_kind")
    when = do = modifier = ""
    if kind == "trigger":
        when = st.text_input("When (trigger)", key="flock_when")
        do = st.text_area("Do (effect)", key="flock_do", height=68)
        preview(do, "effect")
    else:
        modifier = st.text_input("Modifier", key="flock_modifier")
    printed = st.text_input("Printed power text (empty: written from the new power's rules text)", key="flock_printed")
    if st.button("Create flock pack", key="btn_create_flock", type="primary", disabled=template is None) \
            and template is not None:
        try:
            files = newpack.flock_files(root, info, newpack.NewFlock(
                flock_id.strip(), flock_name.strip() or flock_id.strip(), colour, template,
                extra_move.strip() or None, when.strip() or None, do.strip() or None, modifier.strip() or None,
                printed.strip() or None))
        except newpack.PackError as exc:
            st.error(str(exc))
        else:
            create(info.id, files)
