"""Board page: the island as SVG for a layout, a position file, or a played game stepped decision by decision."""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from editor import ui
from editor.logic import board, playtest
from editor.logic.board_svg import as_img_tag, board_svg
from interpreter.bots import BOTS
from interpreter.diagnostics import ContentError

st.set_page_config(page_title="Board - Kiwi Chow Down editor", layout="wide")
st.title("Board")
root = ui.root()
try:
    ruleset = playtest.load(root, [])
except ImportError as exc:
    st.warning(f"The board waits on the loader: {exc}")
    st.stop()
except ContentError:
    st.error("The content does not load; fix it on the Validate page.")
    st.stop()
colours = board.flock_colours(ruleset)
source = st.radio("Show", ["Layout", "Position file", "Played game"], horizontal=True, key="board_source")
view = None

if source == "Layout":
    layouts = [i.id for i in ruleset.items("layouts")]
    layout = st.selectbox("Layout", layouts, key="board_layout")
    setups = ["(none)"] + [i.id for i in ruleset.items("setups") if i.raw.get("layout") == layout]
    setup = st.selectbox("First-game setup", setups, key="board_setup")
    view = board.layout_view(ruleset, layout, None if setup == "(none)" else setup)
elif source == "Position file":
    path = st.text_input("Position YAML (path)", key="board_position")
    if path.strip():
        try:
            view, _game = board.position_view(Path(path.strip()).expanduser())
        except ImportError as exc:
            st.warning(f"Positions wait on interpreter.position: {exc}")
        except Exception as exc:  # PositionError carries located diagnostics
            diags = getattr(exc, "diagnostics", None)
            if diags:
                for diag in diags:
                    ui.error_box(diag.format())
            else:
                st.error(f"{path}: {exc}")
else:
    flock_ids = board.flock_order(ruleset)
    mode_ids = playtest.modes(ruleset)
    m1, m2 = st.columns(2)
    mode_label = m1.selectbox("Game", list(mode_ids), key="board_mode",
                              help="Solo: the bot plays the first flock against Kiwibot (R-SOLO-1..12).")
    solo = mode_ids.get(mode_label) == "solo"
    side_ids = playtest.marker_sides(ruleset) if solo else {}
    side_label = (m2.selectbox("Solo-mode marker side", list(side_ids), key="board_solo_side",
                               help="R-SOLO-12") if solo else None)
    variant_ids = playtest.variants(ruleset)
    variant_label = st.selectbox("Variant", list(variant_ids), key="board_variant", disabled=solo,
                                 help="Variable Turn Order (R-VTO) is a multiplayer variant; solo plays the standard rules.")
    c1, c2, c3 = st.columns(3)
    players = c1.number_input("Players", 2, min(4, len(flock_ids)), 2, key="board_players", disabled=solo)
    seed = c2.number_input("Seed", 0, value=1, key="board_seed")
    bot = c3.selectbox("The player's bot" if solo else "Bots", list(BOTS), key="board_bot")
    if st.button("Play a game", key="board_play"):
        with st.spinner("Playing and replaying..."):
            rec = board.record_game(ruleset, flock_ids[: 2 if solo else int(players)], int(seed), [bot],
                                    mode="solo" if solo else "standard",
                                    solo_side=side_ids.get(side_label) if solo else None,
                                    variant=None if solo else variant_ids.get(variant_label))
            st.session_state["board_game"] = (rec, board.replay_views(ruleset, rec))
    if "board_game" in st.session_state:
        rec, views = st.session_state["board_game"]
        step = st.slider("Decision", 0, len(rec.decisions), 0, key="board_step")
        st.caption("Start of the game" if step == 0 else f"After decision {step}: {rec.labels[step - 1]}")
        # Kiwibot's turns come between the player's decisions (R-SOLO-7): what it did to reach this view
        done = rec.opening if step == 0 else (rec.kiwibot[step - 1] if step <= len(rec.kiwibot) else [])
        if done:
            with st.expander(f"Kiwibot since the {'start' if step == 0 else 'decision'} ({len(done)} lines)",
                             expanded=True):
                st.text("\n".join(done))
        view = views[step]

if view is not None:
    st.html(as_img_tag(board_svg(view, colours)))
    rows = board.scoreboard(view)
    if rows and any(r.get("side") for r in rows):
        st.dataframe(rows, hide_index=True)
    panel = board.solo_panel(view)
    cards = board.season_card_rows(view)
    if panel or cards:
        left, right = st.columns(2)
        if panel:
            left.markdown("**Solo mode**")
            left.dataframe(panel, hide_index=True, key="board_solo_panel")
        if cards:
            right.markdown("**Season cards**")
            right.dataframe(cards, hide_index=True, key="board_season_cards")
    if view.get("pending"):
        st.caption(f"Next: {view['pending'].get('player')}: {view['pending'].get('prompt')}")
