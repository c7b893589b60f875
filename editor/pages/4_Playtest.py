"""Playtest page: simulate games with bots in a child process (progress, Cancel), chart the results, and A/B
two versions of a file on the same seeds."""
from __future__ import annotations

import os

import streamlit as st

from dataclasses import replace

from kcd.content import available_packs
from kcd.apps.editor import ui, watch
from kcd.apps.editor.logic import buffers as buf
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import playtest
from kcd.analysis.abtest import GROUPS, MIN_PAIRS, games_for_width
from kcd.core.diagnostics import ContentError

st.set_page_config(page_title="Playtest - Kiwi Chow Down editor", layout="wide")
st.title("Playtest")
root = ui.root()
ui.show_flash()

overlay_ids = [p.id for p in available_packs(root)]
overlays = st.multiselect("Editions and mods (applied in this order on base)", overlay_ids, key="pt_overlays")
try:
    ruleset = playtest.load(root, overlays)
except ContentError as exc:  # show the located messages, never a traceback
    st.error("The content does not load:")
    for diag in exc.diagnostics[:20]:
        ui.error_box(diag.format())
    st.stop()
labels = playtest.Labels.of(ruleset)

flock_ids = [i.id for i in ruleset.items("flocks")]
leader_ids = [i.id for i in ruleset.items("leaders")]
mode_ids = playtest.modes(ruleset)
m1, m2 = st.columns(2)
mode_label = m1.selectbox("Game", list(mode_ids), key="pt_mode",
                          help="Solo: one bot plays against Kiwibot, the automatic opponent of the solo rules "
                               "(R-SOLO-1..12); two flocks, no variant.")
game_mode = playtest.mode_of(mode_ids.get(mode_label))
against = playtest.against_engine(game_mode)   # one player against the engine's seat (solo: Kiwibot)
chosen_options: dict[str, str | None] = {}
for option, choices in playtest.setup_options(ruleset, game_mode):   # the mode's own (solo: the marker side)
    picked = m2.selectbox(option.label, list(choices), key=f"pt_{option.name}", help=option.help)
    chosen_options[option.name] = choices.get(picked)
c1, c2, c3, c4, c5 = st.columns(5)
fixed = game_mode.player_count
players = c1.number_input("Players", min_value=2, max_value=min(4, len(flock_ids)), value=2, step=1, key="pt_players",
                          disabled=fixed is not None,
                          help=f"A {game_mode.name} game is {game_mode.seats_text}." if fixed is not None else None)
if fixed is not None:
    players = fixed
games = c2.number_input("Games", min_value=1, max_value=5000, value=20, step=10, key="pt_games")
seed = c3.number_input("First seed", min_value=0, value=0, step=1, key="pt_seed",
                       help="Game i is played with seed first + i; an A/B plays the same seeds on both versions.")
setup_mode = c4.selectbox("Setup", ["first-game", "advanced"], key="pt_setup",
                          help="first-game: the fixed starting positions (R-SETUP-5); advanced: the placement draft (R-SETUP-6)")
variant_ids = playtest.variants(ruleset)
variant_label = c5.selectbox("Variant", list(variant_ids), key="pt_variant", disabled=not game_mode.takes_variants,
                             help="Rules variant the content offers (game.yaml `variants`): Variable Turn Order "
                                  "puts a turn tracker on the Season board (R-VTO-1..5). Not in solo games.")
flocks = st.multiselect("The player's flock, then Kiwibot's (empty: the first two of the seat order)" if against else
                        "Flocks in seat order (empty: the default order); seats rotate between games",
                        flock_ids, key="pt_flocks", max_selections=int(players))
b1, b2 = st.columns([3, 1])
cores = os.cpu_count() or 1
bots = b1.multiselect("The player's bot (the first one plays; Kiwibot plays itself)" if against else
                      "Bots (one per seat, cycling)", playtest.bot_names(), default=[playtest.default_bot()],
                      key="pt_bots", help="greedy looks one decision ahead; random picks any legal option.")
jobs = b2.number_input("Processes", min_value=1, max_value=max(cores, 8), value=min(2, cores), step=1, key="pt_jobs",
                       help=f"Games run in this many worker processes (this machine has {cores} cores); the "
                            "results are the same, only faster.")
used = flocks or flock_ids[: int(players)]
sides, leaders = {}, {}
with st.expander("Sides and leaders per flock"):
    for flock in used:
        a, b = st.columns(2)
        side = a.selectbox(f"{labels.name('flock', flock)}: flock board side", ["A", "B"], key=f"pt_side_{flock}")
        leader = b.selectbox(f"{labels.name('flock', flock)}: leader", ["(random)"] + leader_ids,
                             key=f"pt_leader_{flock}", format_func=lambda v: v if v == "(random)" else
                             labels.name("leader", v))
        if side != "A":
            sides[flock] = side
        if leader != "(random)":
            leaders[flock] = leader
if against and leaders and used[0] not in leaders:
    # R-SOLO-1: Kiwibot's Leader may be dealt at random, the player's is chosen with it or dealt too
    st.warning("Choose the player's leader too (Kiwibot's may stay random), or none.")
    leaders = {}
elif not against and leaders and len(leaders) != len(used):
    # Game.new takes a leader for every flock or none (then it deals them at random, R-SETUP-3)
    st.warning("Choose a leader for every flock, or none: leaders are dealt at random otherwise.")
    leaders = {}
setup = playtest.PlaytestSetup(players=int(players), games=int(games), seed=int(seed),
                               bots=tuple(bots or [playtest.default_bot()]),
                               flocks=tuple(flocks) if flocks and len(flocks) == int(players) else None,
                               leaders=leaders or None, sides=sides or None, setup=setup_mode,
                               variant=variant_ids.get(variant_label) if game_mode.takes_variants else None,
                               overlays=tuple(overlays), jobs=int(jobs), mode=game_mode.name,
                               solo_side=chosen_options.get("solo_side"))

st.divider()
WHOLE, ONE_FILE = "A/B: a whole change", "A/B: two versions of a file"
what = st.radio("Run", ["Playtest", WHOLE, ONE_FILE], horizontal=True, key="pt_what",
                help="A/B plays the same seeds on both versions and shows each change with its paired 95% interval. "
                     "A whole change is every file it touches (Season cards and Nests together), or a pack.")
ab_choice = None        # (label of A, Change A, label of B, Change B)
if what == WHOLE:
    unsaved = {rel: ui.pending_of(rel).text() for rel in sorted(set(buf.files_with_edits(ui.buffers()))
                                                                 | set(ui.raw_edits()))
               if ui.pending_of(rel).is_edit()}
    found = playtest.changes(root, unsaved, overlays)
    if not found:
        st.info("Nothing to compare yet: edit files on the Content page (this tab's unsaved edits of every file "
                "count as one change), write drafts, or add a mod or edition pack.")
    else:
        by_label = {c.label: c for c in found}
        v1, v2 = st.columns(2)
        b_label = v1.selectbox("B (the change)", list(by_label), key="pt_change_b")
        change = by_label[b_label]
        a_label = v2.selectbox("A (compared against)", playtest.baselines(change), key=f"pt_change_a:{b_label}")
        base = playtest.baseline(root, change, a_label)
        if a_label == playtest.BEFORE_LAST_SAVE and not base.overrides:
            st.warning("None of these files was saved in this editor yet: A would be the saved content.")
        files_changed = sorted(change.overrides)
        if files_changed:
            st.caption("Files in the change: " + ", ".join(f"`{f}`" for f in files_changed))
        ab_choice = (a_label, base, b_label, change)
elif what == ONE_FILE:
    files = playtest.ab_files(root, cat.content_files(root), ui.session())
    if not files:
        st.info("No file has two versions yet. Edit a file on the Content page (unsaved edits and drafts count), "
                "or save a change: earlier saves are kept and can be compared.")
    else:
        rel = st.selectbox("File", list(files), key="pt_ab_file",
                           format_func=lambda r: f"{r} ({len(files[r])} versions)")
        names = [label for label, _ in files[rel]]
        default_a, default_b = playtest.default_pair(names)
        v1, v2 = st.columns(2)
        version_a = v1.selectbox("A (before)", names, index=default_a, key=f"pt_ab_a:{rel}")
        version_b = v2.selectbox("B (after)", names, index=default_b, key=f"pt_ab_b:{rel}")
        if version_a == version_b:
            st.warning("Choose two different versions.")
        else:
            texts = dict(files[rel])
            ab_choice = (f"{version_a} of {rel}", playtest.Change(version_a, {rel: texts[version_a]}),
                         f"{version_b} of {rel}", playtest.Change(version_b, {rel: texts[version_b]}))

UNTIL, FIXED = "Until the interval on the main effect is narrow enough", "A fixed number of games"
width = main = None
if what != "Playtest":
    how = st.radio("How many games", [UNTIL, FIXED], horizontal=True, key="pt_ab_how",
                   help="The question sets the number of games: how precisely do you want to know the main effect?")
    if how == UNTIL:
        w1, w2, w3 = st.columns(3)
        points = w1.number_input("Interval width (points of win rate; 10 = within ±5 points)", min_value=1.0,
                                 max_value=100.0, value=10.0, step=1.0, key="pt_ab_width",
                                 help="For a main effect that is a mean (VP, Nests built per game) the width is in "
                                      "hundredths of its unit.")
        cap = w2.number_input("At most (paired games)", min_value=30, max_value=20000, value=2000, step=10,
                              key="pt_ab_cap")
        main_text = w3.text_input("Main effect (group:id; empty: the first edited item)", key="pt_ab_main",
                                  help="e.g. flock:red, seat:1, season_card:most-nests, nest:tree-1")
        width = points / 100.0
        main = main_text.strip() or None
        if main is not None and (":" not in main or main.split(":", 1)[0] not in GROUPS):
            st.warning(f"`{main}` is not group:id; groups: {', '.join(GROUPS)}")
            ab_choice = None
        st.caption(f"Games are played in batches of {10 * int(players)} until the 95% interval on the main effect "
                   f"is at most {points:.0f} points wide (at least {MIN_PAIRS} pairs), or {int(cap)} paired games, "
                   "after which the page says how many would do. Without any game: about "
                   f"{games_for_width(width)} pairs if the two versions shared no luck; paired games share most of "
                   "it, so the run usually stops far sooner.")
        setup = replace(setup, games=int(cap))

active = st.session_state.get("pt_active")
can_run = active is None and (what == "Playtest" or ab_choice is not None)
if st.button("Run A/B" if what != "Playtest" else "Run playtest", type="primary", key="pt_run", disabled=not can_run):
    if ab_choice:
        label_a, side_a, label_b, side_b = ab_choice
        run = playtest.start_change(root, setup, side_a, side_b, width, main, batch=10 * int(players))
        st.session_state["pt_active"] = ("ab", run, {"file": label_b, "A": label_a, "B": label_b})
    else:
        st.session_state["pt_active"] = ("one", playtest.start(root, setup), {})
    watch.watch(st.session_state["pt_active"][1])
    st.session_state.pop("pt_result", None)
    st.rerun()   # draw the page again with Run disabled and the progress shown


def _progress() -> None:
    """The running playtest: its progress and a Cancel button; when it ends, its result for the page."""
    current = st.session_state.get("pt_active")
    if current is None:
        return
    kind, run, info = current
    if st.button("Cancel", key="pt_cancel"):
        status = run.cancel()
        st.session_state.pop("pt_active", None)
        ui.flash(f"Playtest {status.text()}; no process is left running.", "info")
        st.rerun()
    status = run.poll()
    st.progress(status.done / max(status.total, 1), text=status.text())
    if status.interval:
        st.caption(playtest.interval_text(status.interval))
    if status.finished:
        st.session_state.pop("pt_active", None)
        st.session_state["pt_result"] = (kind, status, info)
        st.rerun()


if active is not None:
    st.fragment(_progress, run_every=0.5)()

result = st.session_state.get("pt_result")
if result:
    kind, status, info = result
    if status.error:
        st.error(f"Playtest failed: {status.error}")
        for diag in status.diagnostics[:20]:
            ui.error_box(diag)
    elif kind == "ab":
        report = playtest.compare(status.records["A"], status.records["B"], status.focus, status.names)
        st.subheader(f"A/B: {info['B']} (B) against {info['A']} (A)")
        until = playtest.sequential_of(status)
        if until is not None:
            (st.success if until.reached else st.warning)(until.summary_text().split("\n", 1)[0])
        st.text(playtest.ab_summary(report, status.names))
        st.altair_chart(playtest.ab_chart(report), width="stretch")
        st.dataframe(playtest.ab_frame(report), hide_index=True, key="pt_ab_table")
    if status.succeeded:
        shown = [("B", f"B in detail: {info.get('B')}"), ("A", f"A in detail: {info.get('A')}")] \
            if kind == "ab" else [("A", None)]
        for side, heading in shown:
            report = playtest.report_of(status.records[side])
            box = st.expander(heading) if heading else st.container()
            summary = report.summary()
            box.write(f"{summary['games']} games ({playtest.played(report, variant_ids)}), mean length "
                     f"{summary['mean_decisions']:.0f} decisions")
            charts = playtest.charts(report, labels)
            if "solo" in charts:
                won = summary["solo"]["player"]
                box.write(f"The player won {won['wins']} of {won['games']} games against Kiwibot "
                         f"({won['rate']:.0%}, 95% interval {won['lo']:.0%} - {won['hi']:.0%}).")
                box.altair_chart(charts["solo"], width="stretch")
            left, right = box.columns(2)
            left.altair_chart(charts["seat"], width="stretch")
            right.altair_chart(charts["flock"], width="stretch")
            left.altair_chart(charts["leader"], width="stretch")
            right.altair_chart(charts["vp"], width="stretch")
            left.altair_chart(charts["season_cards"], width="stretch")
            right.altair_chart(charts["length"], width="stretch")
