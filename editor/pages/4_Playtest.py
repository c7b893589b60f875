"""Playtest page: simulate games with bots, chart the results, and A/B the saved content against your edits."""
from __future__ import annotations

import os

import streamlit as st

from editor import ui
from editor.logic import buffers as buf
from editor.logic import catalog as cat
from editor.logic import playtest, store
from interpreter.bots import BOTS
from interpreter.diagnostics import ContentError

st.set_page_config(page_title="Playtest - Kiwi Chow Down editor", layout="wide")
st.title("Playtest")
root = ui.root()
ui.show_flash()

overlay_ids = [p.id for p in cat.packs(root) if p.kind != "base"]
overlays = st.multiselect("Editions and mods (applied in this order on base)", overlay_ids, key="pt_overlays")
try:
    ruleset = playtest.load(root, overlays)
except ImportError as exc:
    st.warning(f"Playtests wait on the loader/simulator: {exc}")
    st.stop()
except ContentError as exc:  # show the located messages, never a traceback
    st.error("The content does not load:")
    for diag in exc.diagnostics[:20]:
        ui.error_box(diag.format())
    st.stop()

flock_ids = [i.id for i in ruleset.items("flocks")]
leader_ids = [i.id for i in ruleset.items("leaders")]
mode_ids = playtest.modes(ruleset)
m1, m2 = st.columns(2)
mode_label = m1.selectbox("Game", list(mode_ids), key="pt_mode",
                          help="Solo: one bot plays against Kiwibot, the automatic opponent of the solo rules "
                               "(R-SOLO-1..12); two flocks, no variant.")
solo = mode_ids.get(mode_label) == "solo"
side_ids = playtest.marker_sides(ruleset) if solo else {}
side_label = None
if solo:
    side_label = m2.selectbox("Solo-mode marker side", list(side_ids), key="pt_solo_side",
                              help="The side of the Solo-mode marker Kiwibot's searches follow (R-SOLO-12).")
c1, c2, c3, c4, c5 = st.columns(5)
players = c1.number_input("Players", min_value=2, max_value=min(4, len(flock_ids)), value=2, step=1, key="pt_players",
                          disabled=solo, help="A solo game is the player and Kiwibot." if solo else None)
if solo:
    players = 2
games = c2.number_input("Games", min_value=1, max_value=5000, value=20, step=10, key="pt_games")
seed = c3.number_input("First seed", min_value=0, value=0, step=1, key="pt_seed")
setup_mode = c4.selectbox("Setup", ["first-game", "advanced"], key="pt_setup",
                          help="first-game: the fixed starting positions (R-SETUP-5); advanced: the placement draft (R-SETUP-6)")
variant_ids = playtest.variants(ruleset)
variant_label = c5.selectbox("Variant", list(variant_ids), key="pt_variant", disabled=solo,
                             help="Rules variant the content offers (game.yaml `variants`): Variable Turn Order "
                                  "puts a turn tracker on the Season board (R-VTO-1..5). Not in solo games.")
flocks = st.multiselect("The player's flock, then Kiwibot's (empty: the first two of the seat order)" if solo else
                        "Flocks in seat order (empty: the default order); seats rotate between games",
                        flock_ids, key="pt_flocks", max_selections=int(players))
jobs = st.number_input("Processes", min_value=1, max_value=os.cpu_count() or 1, value=1, step=1, key="pt_jobs",
                       help="Games run in this many processes; the results are the same, only faster.")
bots = st.multiselect("The player's bot (the first one plays; Kiwibot plays itself)" if solo else
                      "Bots (one per seat, cycling)", list(BOTS), default=["random"], key="pt_bots")
used = flocks or flock_ids[: int(players)]
sides, leaders = {}, {}
with st.expander("Sides and leaders per flock"):
    for flock in used:
        a, b = st.columns(2)
        side = a.selectbox(f"{flock}: flock board side", ["A", "B"], key=f"pt_side_{flock}")
        leader = b.selectbox(f"{flock}: leader", ["(random)"] + leader_ids, key=f"pt_leader_{flock}")
        if side != "A":
            sides[flock] = side
        if leader != "(random)":
            leaders[flock] = leader
if solo and leaders and used[0] not in leaders:
    # R-SOLO-1: Kiwibot's Leader may be dealt at random, the player's is chosen with it or dealt too
    st.warning("Choose the player's leader too (Kiwibot's may stay random), or none.")
    leaders = {}
elif not solo and leaders and len(leaders) != len(used):
    # Game.new takes a leader for every flock or none (then it deals them at random, R-SETUP-3)
    st.warning("Choose a leader for every flock, or none: leaders are dealt at random otherwise.")
    leaders = {}
setup = playtest.PlaytestSetup(players=int(players), games=int(games), seed=int(seed), bots=tuple(bots or ["random"]),
                               flocks=tuple(flocks) if flocks and len(flocks) == int(players) else None,
                               leaders=leaders or None, sides=sides or None, setup=setup_mode,
                               variant=None if solo else variant_ids.get(variant_label), overlays=tuple(overlays),
                               jobs=int(jobs), mode="solo" if solo else "standard",
                               solo_side=side_ids.get(side_label) if solo else None)

edited = {rel: buf.edited_text(ui.buffers(), rel, ui.snapshot(rel).text) for rel in buf.files_with_edits(ui.buffers())}
for rel, text in store.drafts(root).items():
    edited.setdefault(rel, text)
ab_mode = st.checkbox(f"A/B: saved content (A) against your edits and drafts (B) with the same seeds"
                      f" ({len(edited)} edited file(s))", key="pt_ab", disabled=not edited)

if st.button("Run", type="primary", key="pt_run"):
    bar = st.progress(0.0, text="starting")

    def progress(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=f"{done}/{total} games")

    try:
        if ab_mode and edited:
            report_a, report_b, delta = playtest.ab(root, edited, setup, progress)
            st.session_state["pt_result"] = ("ab", report_a, report_b, delta)
        else:
            st.session_state["pt_result"] = ("one", playtest.run(ruleset, setup, progress))
    except Exception as exc:  # a content error in the draft, an engine refusal: say it, keep the page
        diags = getattr(exc, "diagnostics", None)
        st.error(f"Playtest failed: {exc if not diags else 'the edited content does not load'}")
        for diag in (diags or [])[:20]:
            ui.error_box(diag.format())

result = st.session_state.get("pt_result")
if result:
    report = result[1] if result[0] == "one" else result[2]
    if result[0] == "ab":
        st.subheader("A/B: draft (B) minus saved (A)")
        st.altair_chart(playtest.delta_chart(result[3]), width="stretch")
        st.dataframe(result[3], hide_index=True)
        st.subheader("B (draft) in detail")
    summary = report.summary()
    rules = playtest.played(report, variant_ids)
    st.write(f"{summary['games']} games ({rules}), mean length {summary['mean_decisions']:.0f} decisions")
    charts = playtest.charts(report)
    if "solo" in charts:
        solo_summary = summary["solo"]
        won = solo_summary["player"]
        st.write(f"The player won {won['wins']} of {won['games']} games against Kiwibot "
                 f"({won['rate']:.0%}, 95% interval {won['lo']:.0%} - {won['hi']:.0%}).")
        st.altair_chart(charts["solo"], width="stretch")
    left, right = st.columns(2)
    left.altair_chart(charts["seat"], width="stretch")
    right.altair_chart(charts["flock"], width="stretch")
    left.altair_chart(charts["leader"], width="stretch")
    right.altair_chart(charts["vp"], width="stretch")
    left.altair_chart(charts["season_cards"], width="stretch")
    right.altair_chart(charts["length"], width="stretch")
