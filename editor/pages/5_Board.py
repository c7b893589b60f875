"""Board page: the island as SVG for a played game (stepped, or played automatically, decision by decision, to
the final scores and the winner), a layout, or a position from the content folder or uploaded."""
from __future__ import annotations

import streamlit as st

from kcd.content import available_packs
from kcd.apps.editor import ui
from kcd.apps.editor.logic import board, playtest
from kcd.apps.editor.logic.board_svg import as_img_tag, board_svg, legend_svg, scroll_box
from kcd.core.diagnostics import ContentError
from kcd.analysis.position import PositionError

st.set_page_config(page_title="Board - Kiwi Chow Down editor", layout="wide")
st.title("Board")
root = ui.root()
PLAY_SECONDS = 0.8   # one decision per this many seconds while playing

source = st.radio("Show", ["Played game", "Layout", "Position"], horizontal=True, key="board_source")
overlay_ids = [p.id for p in available_packs(root)]
overlays = (st.multiselect("Editions and mods (applied in this order on base)", overlay_ids, key="board_overlays")
            if source != "Position" else [])
try:
    ruleset = playtest.load(root, overlays)
except ContentError as exc:
    st.error("The content does not load; fix it on the Validate page:")
    for diag in exc.diagnostics[:10]:
        ui.error_box(diag.format())
    st.stop()


def show_board(view: dict, rules: object, highlight: tuple[str, ...] = ()) -> None:
    """The island (hexes the last decision changed outlined) in a box that scrolls rather than shrinks."""
    svg = board_svg(view, board.flock_colours(rules), nests=board.nest_glyphs(rules), highlight=highlight)
    st.html(scroll_box(as_img_tag(svg)))


def show_legend(rules: object) -> None:
    """What the board's colours and shapes mean, from the content."""
    with st.expander("Legend", expanded=True):
        st.html(scroll_box(as_img_tag(legend_svg(board.flock_colours(rules), board.flock_names(rules),
                                                 board.nest_glyphs(rules), board.terrains(rules)),
                                      alt="legend")))


def show_tables(view: dict, names: dict, rules: object) -> None:
    """The flocks' state, the Season cards and the solo block of a view."""
    rows = board.scoreboard(view)
    if rows and any(r.get("side") for r in rows):
        st.dataframe([{**r, "flock": names.get(r["flock"], r["flock"])} for r in rows], hide_index=True)
    panel = board.solo_panel(view)
    cards = board.season_card_rows(view, board.season_card_names(rules))
    if panel or cards:
        left, right = st.columns(2)
        if panel:
            left.markdown("**Solo mode**")
            left.dataframe(panel, hide_index=True, key="board_solo_panel")
        if cards:
            right.markdown("**Season cards**")
            right.dataframe(cards, hide_index=True, key="board_season_cards")


def _go(step: int) -> None:
    """Callback of the step buttons: move to a decision (the slider follows)."""
    st.session_state["board_step"] = step
    st.session_state["board_playing"] = False


def stepper() -> None:
    """A played game, one frame at a time: controls, the board with the last move, its events, the scores."""
    rec, frames = st.session_state["board_game"]
    last = len(frames) - 1
    playing = st.session_state.get("board_playing", False)
    if playing:   # the timer of this fragment fired: one decision on
        st.session_state["board_step"] = min(int(st.session_state.get("board_step", 0)) + 1, last)
    step = int(st.session_state.get("board_step", 0))
    c = st.columns([1, 1, 1, 1, 1, 4])
    c[0].button("First", key="board_first", on_click=_go, args=(0,), disabled=step == 0)
    c[1].button("Previous", key="board_prev", on_click=_go, args=(max(step - 1, 0),), disabled=step == 0)
    if playing:
        if c[2].button("Pause", key="board_pause"):
            st.session_state["board_playing"] = False
            st.rerun()
    elif c[2].button("Play", key="board_play_auto", disabled=step == last,
                     help=f"Step through the game on its own, one decision every {PLAY_SECONDS:g} s"):
        st.session_state["board_playing"] = True
        st.rerun()
    c[3].button("Next", key="board_next", on_click=_go, args=(min(step + 1, last),), disabled=step == last)
    c[4].button("Last", key="board_last", on_click=_go, args=(last,), disabled=step == last)
    st.slider("Decision", 0, last, key="board_step", on_change=lambda: st.session_state.update(board_playing=False))
    frame = frames[step]
    names = board.flock_names(ruleset)
    st.caption("Start of the game" if step == 0 else f"After decision {step} of {last}: {frame.label}")
    if frame.over:
        st.success(board.winner_text(frame, names))
    left, right = st.columns(2)   # the decision and the running log beside each other, the board below
    with left:
        st.markdown("**This decision**" if step else "**Setup**")
        st.text("\n".join(frame.events) or "(no events: a choice on the way to the next one)")
        if frame.changed:
            st.caption("Changed hexes (outlined): " + ", ".join(frame.changed))
        pending = frame.view.get("pending")
        if pending:
            st.caption(f"Next: {names.get(pending.get('player'), pending.get('player'))}: {pending.get('prompt')}")
    with right:
        st.markdown("**Game log** (newest first)")
        with st.container(height=260, key="board_log"):
            st.text("\n".join(reversed(board.game_log(frames, step))) or "(nothing yet)")
    # a static table: every column and row shown whole, never cut behind a scroll bar
    st.markdown("**Final scores**" if frame.over else "**Scores so far**")
    st.table(board.result_rows(frame, names))
    show_board(frame.view, ruleset, frame.changed)
    show_tables(frame.view, names, ruleset)
    if playing and step >= last:
        st.session_state["board_playing"] = False
        st.rerun()


if source == "Played game":
    flock_ids = board.flock_order(ruleset)
    names = board.flock_names(ruleset)
    leader_ids = [i.id for i in ruleset.items("leaders")]
    mode_ids = playtest.modes(ruleset)
    m1, m2, m3 = st.columns(3)
    mode_label = m1.selectbox("Game", list(mode_ids), key="board_mode",
                              help="Solo: the bot plays the first flock against Kiwibot (R-SOLO-1..12).")
    game_mode = playtest.mode_of(mode_ids.get(mode_label))
    against = playtest.against_engine(game_mode)   # one player against the engine's seat (solo: Kiwibot)
    chosen_options: dict[str, str | None] = {}
    for option, choices in playtest.setup_options(ruleset, game_mode):   # the mode's own (solo: the marker side)
        picked = m2.selectbox(option.label, list(choices), key=f"board_{option.name}", help=option.help)
        chosen_options[option.name] = choices.get(picked)
    variant_ids = playtest.variants(ruleset)
    variant_label = m3.selectbox("Variant", list(variant_ids), key="board_variant",
                                 disabled=not game_mode.takes_variants,
                                 help="Variable Turn Order (R-VTO) is a multiplayer variant; solo plays the standard "
                                      "rules.")
    c1, c2, c3, c4 = st.columns(4)
    players = c1.number_input("Players", 2, min(4, len(flock_ids)), 2, key="board_players",
                              disabled=game_mode.player_count is not None)
    count = game_mode.player_count or int(players)
    seed = c2.number_input("Seed", 0, value=1, key="board_seed")
    setup_mode = c3.selectbox("Setup", ["first-game", "advanced"], key="board_setup_mode")
    bots = c4.multiselect("The player's bot" if against else "Bots (one per seat, cycling)", playtest.bot_names(),
                          default=[playtest.default_bot()], key="board_bots")
    flocks = st.multiselect("The player's flock, then Kiwibot's" if against else "Flocks in seat order",
                            flock_ids, default=flock_ids[:count], key="board_flocks", max_selections=count,
                            format_func=lambda f: names.get(f, f))
    sides, leaders = {}, {}
    with st.expander("Sides and leaders per flock"):
        for flock in flocks:
            a, b = st.columns(2)
            side = a.selectbox(f"{names.get(flock, flock)}: flock board side", ["A", "B"], key=f"board_side_{flock}")
            leader = b.selectbox(f"{names.get(flock, flock)}: leader", ["(dealt from the seed)"] + leader_ids,
                                 key=f"board_leader_{flock}")
            if side != "A":
                sides[flock] = side
            if leader in leader_ids:
                leaders[flock] = leader
    if leaders and len(leaders) != len(flocks):
        # Game.new takes a leader for every flock or none (then it deals them from the seed, R-SETUP-3)
        st.warning("Choose a leader for every flock, or none: leaders are dealt from the seed otherwise.")
        leaders = {}
    ready = len(flocks) == count
    if not ready:
        st.info(f"Choose {count} flocks.")
    if st.button("Play a game", key="board_play", type="primary", disabled=not ready):
        with st.spinner("Playing and replaying..."):
            try:
                rec = board.record_game(ruleset, flocks, int(seed), bots or [playtest.default_bot()],
                                        setup=setup_mode, mode=game_mode.name,
                                        solo_side=chosen_options.get("solo_side"),
                                        variant=variant_ids.get(variant_label) if game_mode.takes_variants else None,
                                        leaders=leaders or None, sides=sides or None, overlays=overlays)
                st.session_state["board_game"] = (rec, board.replay(ruleset, rec))
                st.session_state["board_step"] = 0
                st.session_state["board_playing"] = False
            except (ValueError, RuntimeError) as exc:   # the engine's SetupError or SimError, in words
                st.error(f"The game could not be played: {exc}")
    if "board_game" in st.session_state:
        rec = st.session_state["board_game"][0]
        played = [f"seed {rec.seed}", ", ".join(names.get(f, f) for f in rec.players),
                  "base" + "".join(f" + {o}" for o in rec.overlays), rec.setup,
                  playtest.mode_of(rec.mode).title if playtest.against_engine(playtest.mode_of(rec.mode)) else
                  next(label for label, vid in variant_ids.items() if vid == rec.variant), "bots " + ", ".join(rec.bots)]
        st.caption("Played: " + "; ".join(played))
        st.fragment(stepper, run_every=PLAY_SECONDS if st.session_state.get("board_playing") else None)()
elif source == "Layout":
    layouts = [i.id for i in ruleset.items("layouts")]
    layout = st.selectbox("Layout", layouts, key="board_layout")
    setups = ["(none)"] + [i.id for i in ruleset.items("setups") if i.raw.get("layout") == layout]
    setup = st.selectbox("First-game setup", setups, key="board_setup")
    show_board(board.layout_view(ruleset, layout, None if setup == "(none)" else setup), ruleset)
else:
    files = board.position_files(root)
    where = st.radio("Position from", ["the content folder", "an uploaded file"], horizontal=True,
                     key="board_position_from")
    loaded = None
    try:
        if where == "the content folder":
            if not files:
                st.info(f"The content folder has no position files yet: put YAML positions in "
                        f"`{board.POSITIONS_DIR}/` inside it (the format is in the README, section Positions), "
                        "or upload one.")
            else:
                rel = st.selectbox("Position file", files, key="board_position")
                loaded = board.position_file_view(root, rel)
        else:
            upload = st.file_uploader("Position (YAML)", type=["yaml", "yml"], key="board_upload")
            if upload is not None:
                loaded = board.position_view(root, upload.name, upload.getvalue())
    except PositionError as exc:   # located messages about the position itself, never another file's text
        for diag in exc.diagnostics[:20]:
            ui.error_box(diag.format())
    if loaded is not None:
        view, game = loaded
        frame = board.position_frame(game)
        names = board.flock_names(game.ruleset)
        st.markdown("**Scores now** (R-END-2; ties broken as in R-END-3)")
        st.dataframe(board.result_rows(frame, names), hide_index=True)
        show_board(view, game.ruleset)
        show_tables(view, names, game.ruleset)
        ruleset = game.ruleset
show_legend(ruleset)
