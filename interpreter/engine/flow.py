"""Seasons and phases as small resumable steps (R-SEASON-1, R-SC-1..3, R-ACT-1, R-SCARD-1..3, R-DM-1).

The state's (season, phase, step) names the step; `step_procedure` returns the generator that runs it (the
game's mode, interpreter/engine/modes, maps each phase to its procedure), or None when the phase has no more
steps; `advance` moves to the next phase or season. The standard game's shared procedures live here.
"""
from __future__ import annotations



from interpreter.engine import action_types as A
from interpreter.engine import build, effects, labels, queries
from interpreter.engine.context import Ctx, Runtime
from interpreter.engine.decisions import Steps, ask_action, option


def step_procedure(rt: Runtime) -> Steps[None] | None:
    """The generator of the current step, or None when the current phase is finished (the game's mode says)."""
    return rt.mode.step(rt)


def advance(rt: Runtime) -> None:
    """Leave the finished phase: next phase, next season, or the end of the game."""
    st = rt.state
    phases = rt.mode.phases(rt.rules)
    if st.phase == "setup":
        st.phase, st.step, st.season = phases[0], 0, 1
        return
    idx = phases.index(st.phase)
    if idx + 1 < len(phases):
        st.phase, st.step = phases[idx + 1], 0
        return
    if st.season >= rt.mode.seasons(rt.rules):
        st.over = True
        st.phase, st.step = "over", 0
        rt.emit("end")
        return
    st.season += 1
    st.phase, st.step = phases[0], 0


def season_change_start(rt: Runtime) -> Steps[None]:
    """R-SC-1: the first Season Change only flips the Turn Order nests. R-SC-2: later ones pass the First
    Player marker, discard the played cards and turn used Leader cards face up."""
    st = rt.state
    passes = rt.mode.passes_marker_at_season_change(rt.rules)
    if passes or st.season == 1:   # otherwise a phase of the mode began the season (R-VTO-3 Wake up)
        rt.emit("season-begins", season=st.season)
    rt.mode.on_season_change(rt)   # e.g. R-SOLO-4: the season's face-down Season cards are flipped
    if st.season > 1:
        if passes:
            st.first = (st.first + 1) % len(st.seats)
        for f in st.seats:
            fl = st.flocks[f]
            fl.discard.extend(fl.played)
            fl.played = []
            fl.facedown = []
            fl.leader_used = False
        if passes:
            rt.emit("first-player", flock=st.seats[st.first])
    yield from ()


def nest_benefits(rt: Runtime, flock: str) -> Steps[None]:
    """R-SC-3: the season-change benefit of every built Nest, in the order the player chooses."""
    fl = rt.state.flocks[flock]
    left = [n for n in fl.nests_built if rt.rules.nests[n].on_season_change is not None]
    ctx = Ctx(flock, source="season change")
    while left:
        act = yield from ask_action(flock, "nest-order", "Which Nest benefit next?",
                                    [option(A.Nest(n), f"{labels.nest_name(n, rt.rules.nests[n])}: "
                                            f"{effects.describe(rt.rules.nests[n].on_season_change)}")
                                     for n in left])
        nest_id = act.nest
        left.remove(nest_id)
        here = next((h.id for h in rt.state.hexes.values() if h.nest == (flock, nest_id)), None)   # `this hex`
        yield from build.nest_benefit(rt, ctx, rt.rules.nests[nest_id].on_season_change,
                                      f"{nest_id} season change", here=here)


def season_card(rt: Runtime) -> Steps[None]:
    """Resolve the season's card (R-SCARD-1..3)."""
    st = rt.state
    if st.season > len(st.season_cards):
        return
    card_id = st.season_cards[st.season - 1]
    card = rt.rules.season_cards[card_id]
    order = st.turn_order()
    best, values = queries.winners(st, card.objective, order)
    # the result as data for tools (sim, editor): they must not parse the text, which is for people
    result = {"card": card_id, "season": st.season, "values": {f: values[f] for f in order},
              "victor": best[0] if len(best) == 1 else None, "tied": list(best) if len(best) > 1 else []}
    rt.emit("season-card", data=result, card=card_id, values={f: values[f] for f in order})
    others = card.others
    if len(best) == 1:
        victor = best[0]
        rt.emit("season-card-victor", victor, flock=victor, card=card_id)
        before = st.flocks[victor].season_vp
        yield from effects.run(rt, card.victor, Ctx(victor, source=card_id))
        if st.flocks[victor].season_vp > before:   # R-SCARD-3: VP cards are kept
            st.flocks[victor].kept_season_cards.append(card_id)
        for f in order:
            if f != victor and others is not None:
                yield from effects.run(rt, others, Ctx(f, source=card_id))
        return
    rt.emit("season-card-tie", card=card_id, tied=list(best))
    if others is None:
        return
    for f in order:   # R-SCARD-2: the tied players may take the right benefit; the rest get nothing
        if f in best:
            act = yield from ask_action(f, "season-tie", f"Tie on “{labels.season_card_name(card_id, card)}”: take the benefit "
                                    f"“{effects.describe(others)}”?",
                                    [option(A.word("take"), "Take it"), option(A.word("decline"), "Decline")])
            if act.kind == "take":
                yield from effects.run(rt, others, Ctx(f, source=card_id))
