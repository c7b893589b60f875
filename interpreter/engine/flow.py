"""Seasons and phases as small resumable steps (R-SEASON-1, R-SC-1..3, R-ACT-1, R-SCARD-1..3, R-DM-1).

The state's (season, phase, step) names the step; `step_procedure` returns the procedure that runs it (the
game's mode, interpreter/modes, maps each phase to its procedure), or None when the phase has no more
steps; `advance` moves to the next phase or season. The standard game's shared procedures live here.
"""
from __future__ import annotations

from typing import Any

from kcd.core import action_types as A
from kcd.engine import build, effects, labels, queries
from kcd.engine.context import Ctx, Runtime
from kcd.engine.describe import describe
from kcd.core.decisions import option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Do, Emit, Env, ForEach, If, Question, Return, While, program


def step_procedure(rt: Runtime) -> "Cont | None":
    """The procedure (a program's continuation) of the current step, or None when the current phase is finished
    (the game's mode says)."""
    proc: Cont | None = rt.mode.step(rt)   # the Runtime holds its mode untyped (Any)
    return proc


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


# --- the start of Season Change (R-SC-1/2): it asks nothing ---------------------------------------------------
def _season_change_start(rt: Runtime, env: Env) -> None:
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


SEASON_CHANGE_START = program("flow.season_change_start", (), {}, Do(_season_change_start))


# --- R-SC-3: the season-change benefit of every built Nest, in the order the player chooses -------------------
def _nests_left(rt: Runtime, env: Env) -> bool:
    return bool(env["left"])


def _ask_nest_order(rt: Runtime, env: Env) -> Question:
    nests = rt.rules.nests
    return Question(env["flock"], "nest-order", "Which Nest benefit next?",
                    [option(A.Nest(n), ("{}: {}", (labels.lazy(labels.nest_name, n, nests[n]),
                                                 labels.lazy(describe, nests[n].on_season_change))))
                     for n in env["left"]])


def _run_nest_benefit(rt: Runtime, env: Env) -> Any:
    """The chosen Nest's season-change benefit (`this hex`: the Nest's hex)."""
    flock = env["flock"]
    nest_id = env.pop("picked").nest
    env["left"].remove(nest_id)
    here = next((h.id for h in rt.state.hexes.values() if h.nest == (flock, nest_id)), None)
    return build.nest_benefit_frame(rt, env["ctx"], rt.rules.nests[nest_id].on_season_change,
                                    f"{nest_id} season change", here)


def _season_change_powers(rt: Runtime, env: Env) -> Any:
    """Decision R-SC-3: a flock's `at season change` powers fire right after its own Nest benefits."""
    return effects.emit_call(rt, env["ctx"], "t-season-change")


def _check_nest_benefits(rt: Runtime, env: Env, at: str) -> None:
    """The Nests left are built Nests of the flock with a season-change benefit."""
    built = rt.state.flocks[env["flock"]].nests_built
    if not all(isinstance(n, str) and n in built and rt.rules.nests[n].on_season_change is not None
               for n in env["left"]):
        raise FrameDataError("flow.nest_benefits: a Nest without a season-change benefit")


NEST_BENEFITS = program(
    "flow.nest_benefits", ("flock", "left", "ctx"), {"flock": str, "left": list, "ctx": Ctx, "picked": A.Nest},
    While(_nests_left, (Ask("nest", _ask_nest_order, into="picked", kinds={"nest-order": ("nest",)}),
                        Call("benefit", _run_nest_benefit))),
    Call("powers", _season_change_powers),
    check=_check_nest_benefits)


def nest_benefits_frame(rt: Runtime, flock: str) -> Cont:
    """The continuation of R-SC-3 for one flock."""
    fl = rt.state.flocks[flock]
    left = [n for n in fl.nests_built if rt.rules.nests[n].on_season_change is not None]
    return NEST_BENEFITS.start(flock, left, Ctx(flock, source="season change"))


# --- the season's card (R-SCARD-1..3): the victor's benefit (a VP card is kept), the others'; on a tie each tied
# player in turn order may take the others' benefit (R-SCARD-2) -------------------------------------------------
def _no_card(rt: Runtime, env: Env) -> bool:
    st = rt.state
    return st.season > len(st.season_cards)


def _score_card(rt: Runtime, env: Env) -> None:
    """Score the season's card: its values, the victor or the tied players."""
    st = rt.state
    env["card"] = card_id = st.season_cards[st.season - 1]
    card = rt.rules.season_cards[card_id]
    order = st.turn_order()
    best, values = queries.winners(st, card.objective, order)
    env["order"], env["best"] = list(order), list(best)
    # the result as data for tools (sim, editor): they must not parse the text, which is for people
    result = {"card": card_id, "season": st.season, "values": {f: values[f] for f in order},
              "victor": best[0] if len(best) == 1 else None, "tied": list(best) if len(best) > 1 else []}
    rt.emit("season-card", data=result, card=card_id, values={f: values[f] for f in order})


def _one_victor(rt: Runtime, env: Env) -> bool:
    return len(env["best"]) == 1


def _run_victor(rt: Runtime, env: Env) -> Any:
    """The victor's benefit (its VP before it, to tell whether the card is kept)."""
    card_id = env["card"]
    env["victor"] = victor = env["best"][0]
    rt.emit("season-card-victor", victor, flock=victor, card=card_id)
    env["before"] = rt.state.flocks[victor].season_vp
    return effects.run_frame(rt, rt.rules.season_cards[card_id].victor, Ctx(victor, source=card_id))


def _keep_vp_card(rt: Runtime, env: Env) -> None:
    """R-SCARD-3: VP cards are kept."""
    fl = rt.state.flocks[env["victor"]]
    if fl.season_vp > env["before"]:
        fl.kept_season_cards.append(env["card"])


def _others(rt: Runtime, env: Env) -> list[str]:
    """The players other than the victor, in turn order (none when the card has no benefit for them)."""
    if rt.rules.season_cards[env["card"]].others is None:
        return []
    victor = env["victor"]
    return [f for f in env["order"] if f != victor]


def _run_others(rt: Runtime, env: Env) -> Any:
    card_id = env["card"]
    return effects.run_frame(rt, rt.rules.season_cards[card_id].others, Ctx(env["other"], source=card_id))


def _tie(rt: Runtime, env: Env) -> tuple[None, dict[str, Any]]:
    return None, {"card": env["card"], "tied": list(env["best"])}


def _no_others(rt: Runtime, env: Env) -> bool:
    return rt.rules.season_cards[env["card"]].others is None


def _tied(rt: Runtime, env: Env) -> list[str]:
    """R-SCARD-2: the tied players in turn order; the rest get nothing."""
    best = env["best"]
    return [f for f in env["order"] if f in best]


def _ask_tie(rt: Runtime, env: Env) -> Question:
    card_id = env["card"]
    card = rt.rules.season_cards[card_id]
    return Question(env["tied"], "season-tie",
                    ("Tie on “{}”: take the benefit “{}”?", (labels.lazy(labels.season_card_name, card_id, card),
                                                             labels.lazy(describe, card.others))),
                    [option(A.word("take"), "Take it"), option(A.word("decline"), "Decline")])


def _take_others(rt: Runtime, env: Env) -> Any:
    """A tied player who takes it runs the others' benefit (None: declined)."""
    if env.pop("answer").kind != "take":
        return None
    card_id = env["card"]
    return effects.run_frame(rt, rt.rules.season_cards[card_id].others, Ctx(env["tied"], source=card_id))


_VICTOR = frozenset({"victor", "others"})


def _check_season_card(rt: Runtime, env: Env, at: str) -> None:
    """A loaded card is a Season card of the content and its players are playing."""
    card = env.get("card")
    if card not in rt.rules.season_cards:
        raise FrameDataError(f"flow.season_card: unknown Season card `{str(card)[:40]}`")
    seats = rt.state.seats
    victor = env.get("victor")
    if (not all(f in seats for f in env.get("order", []) + env.get("best", []))
            or victor is not None and victor not in seats or at in _VICTOR and victor is None):
        raise FrameDataError("flow.season_card: players that are not playing")


SEASON_CARD = program(
    "flow.season_card", (),
    {"card": str, "order": list, "best": list, "victor": str, "before": int, "other": str, "tied": str,
     "answer": A.Action},
    If(_no_card, (Return(),)),
    Do(_score_card),
    If(_one_victor, (Call("victor", _run_victor),
                     Do(_keep_vp_card),
                     ForEach("other", _others, (Call("others", _run_others),)),
                     Return())),
    Emit("season-card-tie", _tie),
    If(_no_others, (Return(),)),
    ForEach("tied", _tied, (Ask("tie", _ask_tie, into="answer", kinds={"season-tie": ("take", "decline")}),
                            Call("take", _take_others))),
    check=_check_season_card)
