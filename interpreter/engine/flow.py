"""Seasons and phases as small resumable steps (R-SEASON-1, R-SC-1..3, R-ACT-1, R-SCARD-1..3, R-DM-1).

The state's (season, phase, step) names the step; `step_procedure` returns the generator that runs it,
or None when the phase has no more steps; `advance` moves to the next phase or season.
"""
from __future__ import annotations

from typing import Generator

from interpreter.engine import actions, build, effects, labels, marking, queries, setup, solo, vto
from interpreter.engine.context import Ctx, EngineError, Runtime
from interpreter.engine.decisions import Option, ask


def step_procedure(rt: Runtime) -> Generator | None:
    """The generator of the current step, or None when the current phase is finished."""
    st = rt.state
    phase, i, n = st.phase, st.step, len(st.seats)
    if phase == "setup":
        return setup.setup_step(rt) if i == 0 else None
    if phase == vto.WAKE_UP:
        # R-VTO-3: Wake up only at the beginning of seasons 2-4
        if st.season <= 1:
            return None
        if i == 0:
            return vto.wake_up_start(rt)
        return vto.wake_up_turn(rt, st.marker_order()[i - 1]) if i <= n else None
    if phase == "season_change":
        if i == 0:
            return season_change_start(rt)
        return nest_benefits(rt, st.turn_order()[i - 1]) if i <= n and st.season > 1 else None
    if phase == "actions":
        if i >= n * rt.rules.cards_per_season:
            return None
        flock = st.turn_order()[i % n]
        # solo: Kiwibot reveals a card and resolves the Solo card instead of playing a hand (R-SOLO-7)
        return solo.bot_turn(rt, flock) if solo.is_bot(st, flock) else actions.turn(rt, flock)
    if phase == "season_card":
        if i != 0:
            return None
        return solo.season_card_step(rt) if st.solo is not None else season_card(rt)   # solo: R-SOLO-5
    if phase == "domain_marking":
        if i < n:
            flock = st.turn_order()[i]
            return solo.marking_turn(rt, flock) if solo.is_bot(st, flock) else marking.marking_turn(rt, flock)
        # solo: one more step after everyone marked discards the top Solo card (R-SOLO-9)
        return solo.discard_solo_card(rt) if st.solo is not None and i == n else None
    raise EngineError(f"unknown phase `{phase}` in game.yaml phases")


def advance(rt: Runtime) -> None:
    """Leave the finished phase: next phase, next season, or the end of the game."""
    st = rt.state
    phases = vto.phases(rt)
    if st.phase == "setup":
        st.phase, st.step, st.season = phases[0], 0, 1
        return
    idx = phases.index(st.phase)
    if idx + 1 < len(phases):
        st.phase, st.step = phases[idx + 1], 0
        return
    if st.season >= rt.rules.seasons:
        st.over = True
        st.phase, st.step = "over", 0
        rt.log("end", "The game is over")
        return
    st.season += 1
    st.phase, st.step = phases[0], 0


def season_change_start(rt: Runtime) -> Generator:
    """R-SC-1: the first Season Change only flips the Turn Order nests. R-SC-2: later ones pass the First
    Player marker, discard the played cards and turn used Leader cards face up."""
    st = rt.state
    wake_up = vto.marker_passes_in_wake_up(rt)
    if not (wake_up and st.season > 1):   # under R-VTO-3 Wake up began the season
        rt.log("season", f"Season {st.season} begins")
    if st.solo is not None:   # solo: the season's face-down Season cards are flipped (R-SOLO-4)
        solo.flip_season_cards(rt)
    if st.season > 1:
        if not wake_up:   # R-VTO-3: the marker already passed in Wake up
            st.first = (st.first + 1) % len(st.seats)
        for f in st.seats:
            fl = st.flocks[f]
            fl.discard.extend(fl.played)
            fl.played = []
            fl.facedown = []
            fl.leader_used = False
        if not wake_up:
            rt.log("season", f"{st.seats[st.first]} is the First Player")
    yield from ()


def nest_benefits(rt: Runtime, flock: str) -> Generator:
    """R-SC-3: the season-change benefit of every built Nest, in the order the player chooses."""
    fl = rt.state.flocks[flock]
    left = [n for n in fl.nests_built if rt.rules.nests[n].get("on_season_change") is not None]
    ctx = Ctx(flock, source="season change")
    while left:
        choice = yield from ask(flock, "nest-order", "Which Nest benefit next?",
                                [Option(f"nest:{n}", f"{labels.nest_name(n, rt.rules.nests[n])}: "
                                        f"{effects.describe(rt.rules.nests[n]['on_season_change'])}")
                                 for n in left])
        nest_id = choice.split(":", 1)[1]
        left.remove(nest_id)
        here = next((h.id for h in rt.state.hexes.values() if h.nest == (flock, nest_id)), None)   # `this hex`
        yield from build.nest_benefit(rt, ctx, rt.rules.nests[nest_id]["on_season_change"],
                                      f"{nest_id} season change", here=here)


def season_card(rt: Runtime) -> Generator:
    """Resolve the season's card (R-SCARD-1..3)."""
    st = rt.state
    if st.season > len(st.season_cards):
        return
    card_id = st.season_cards[st.season - 1]
    card = rt.rules.season_cards[card_id]
    order = st.turn_order()
    best, values = queries.winners(st, card["objective"], order)
    # the result as data for tools (sim, editor): they must not parse the text, which is for people
    result = {"card": card_id, "season": st.season, "values": {f: values[f] for f in order},
              "victor": best[0] if len(best) == 1 else None, "tied": list(best) if len(best) > 1 else []}
    rt.log("season-card", f"{card_id}: " + ", ".join(f"{f} {values[f]}" for f in order), data=result)
    others = card.get("others")
    if len(best) == 1:
        victor = best[0]
        rt.log("season-card", f"{victor} wins {card_id}", victor)
        before = st.flocks[victor].season_vp
        yield from effects.run(rt, card.get("victor"), Ctx(victor, source=card_id))
        if st.flocks[victor].season_vp > before:   # R-SCARD-3: VP cards are kept
            st.flocks[victor].kept_season_cards.append(card_id)
        for f in order:
            if f != victor and others is not None:
                yield from effects.run(rt, others, Ctx(f, source=card_id))
        return
    rt.log("season-card", f"{card_id}: tie between {', '.join(best)}")
    if others is None:
        return
    for f in order:   # R-SCARD-2: the tied players may take the right benefit; the rest get nothing
        if f in best:
            choice = yield from ask(f, "season-tie", f"Tie on “{labels.season_card_name(card_id, card)}”: take the benefit "
                                    f"“{effects.describe(others)}”?",
                                    [Option("take", "Take it"), Option("decline", "Decline")])
            if choice == "take":
                yield from effects.run(rt, others, Ctx(f, source=card_id))
