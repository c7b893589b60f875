"""The Variable Turn Order variant (R-VTO-1..5): a turn tracker on the Season board and a Wake up phase.

A game plays it when created with `Game.new(..., variant="vto")` (stored as `State.variant`); the mode
interpreter/modes/vto/__init__.py plugs these procedures into the flow. The slots
and their effects are content (turn_order.yaml `tracker`); the season's phases are `Rules.vto_phases`,
read from game.yaml `variants.vto.phases` (content without that list does not offer the variant).
Turn order itself is `State.turn_order()`, which sorts by the tracker slots the flocks hold (R-VTO-4).
"""
from __future__ import annotations

from typing import Any

from kcd.dsl import ast
from kcd.engine import effects, labels
from kcd.engine.context import Ctx, Runtime
from kcd.engine.describe import describe
from kcd.core import action_types as A
from kcd.core.decisions import option
from kcd.engine.machine import Ask, Call, Cont, Do, Emit, Env, ForEach, If, Question, Return, program

VARIANT = "vto"
WAKE_UP = "wake_up"
PAY_VERBS = frozenset({"pay-fruit", "pay-fruit-of", "pay-domain"})


def phases(rt: Runtime) -> list[str]:
    """The phases of a season in this game (its mode's: the variant's list under Variable Turn Order)."""
    out: list[str] = rt.mode.phases(rt.rules)
    return out


# --- a slot effect, each payment in it only if possible -------------------------------------------------------
# Decision R-VTO-3: the payments are independent; a player who can pay one but not the other pays the one they can
# (the rulebook never stops anyone from taking a slot).
def _is_seq(rt: Runtime, env: Env) -> bool:
    return type(env["node"]) is ast.Seq


def _stmts(rt: Runtime, env: Env) -> tuple[Any, ...]:
    stmts: tuple[Any, ...] = env["node"].stmts
    return stmts


def _run_stmt(rt: Runtime, env: Env) -> Cont:
    return RUN_IF_POSSIBLE.start(env["stmt"], env["ctx"])


def _unpayable(rt: Runtime, env: Env) -> bool:
    """A payment of the slot that cannot be made now."""
    node = env["node"]
    return type(node) is ast.Call and node.primitive in PAY_VERBS and not effects.possible(rt, node, env["ctx"])


def _cannot_pay(rt: Runtime, env: Env) -> tuple[str, dict[str, Any]]:
    flock = env["ctx"].flock
    return flock, {"flock": flock, "effect": describe(env["node"])}


def _run_effect(rt: Runtime, env: Env) -> Any:
    """Anything but a sequence or a payment that cannot be made: the effect itself (None: no effect)."""
    node = env["node"]
    return None if node is None else effects.run_frame(rt, node, env["ctx"])


# Run a slot effect; each payment in it is made only if possible (R-VTO-3 "or pay, if possible")
RUN_IF_POSSIBLE = program(
    "vto.run_if_possible", ("node", "ctx"), {"node": None, "ctx": Ctx, "stmt": None},
    If(_is_seq, (ForEach("stmt", _stmts, (Call("stmt", _run_stmt),)), Return())),
    If(_unpayable, (Emit("tracker-cannot-pay", _cannot_pay), Return())),
    Call("effect", _run_effect))


# --- taking a tracker slot ------------------------------------------------------------------------------------
def _ask_slot(rt: Runtime, env: Env) -> Question:
    """The empty slots the flock may take (not `forbidden`)."""
    st = rt.state
    taken = {st.flocks[f].tracker_slot for f in st.seats}
    free = [n for n in rt.rules.tracker if n not in taken]
    forbidden = env["forbidden"]
    allowed = [n for n in free if n != forbidden]
    # Decision R-VTO-3: if the only empty slot is the player's previous one (content with as many slots
    # as players), they keep it rather than be left with nowhere to go
    slots = allowed or free
    return Question(env["flock"], "tracker-slot", env["prompt"],
                    [option(A.Slot(n), ("Slot {}: {}", (n, labels.lazy(describe, rt.rules.tracker[n].effect))))
                     for n in slots])


def _slot_effect(rt: Runtime, env: Env) -> Cont:
    """Take the chosen slot, then gain or pay its effect."""
    flock = env["flock"]
    slot = env.pop("taken").slot
    rt.state.flocks[flock].tracker_slot = slot
    rt.emit("tracker-slot", flock, flock=flock, slot=slot)
    return RUN_IF_POSSIBLE.start(rt.rules.tracker[slot].effect, Ctx(flock, source=f"tracker slot {slot}"))


# The flock puts its tracker token on an empty slot (not `forbidden`) and gains or pays its effect
TAKE_SLOT = program(
    "vto.take_slot", ("flock", "forbidden", "prompt"),
    {"flock": str, "forbidden": (int, type(None)), "prompt": str, "taken": A.Slot},
    Ask("slot", _ask_slot, into="taken", kinds={"tracker-slot": ("slot",)}),
    Call("effect", _slot_effect))


# --- setting up the tracker -----------------------------------------------------------------------------------
# R-VTO-2: in Turn Order nest order each puts the first token of its Kiwi track on an empty slot. The token leaves
# the track without its track benefit (R-VTO-2, as in R-DM-3) and stays on the tracker all game (`Flock.on_tracker`).
# Decision: this is the last setup step, after the starting positions.
def _nest_order(rt: Runtime, env: Env) -> list[str]:
    st = rt.state
    return sorted(st.seats, key=lambda x: st.flocks[x].seat)


def _first_slot(rt: Runtime, env: Env) -> Cont:
    """The flock's first track token goes to an empty slot."""
    flock = env["flock"]
    fl = rt.state.flocks[flock]
    if fl.track > 0:
        fl.track -= 1
    elif fl.reserve_kiwi > 0:     # only with content giving no track tokens at all
        fl.reserve_kiwi -= 1
    fl.on_tracker = 1
    return TAKE_SLOT.start(flock, None, "Place your Kiwi token on an empty turn tracker slot")


SETUP_TRACKER = program(
    "vto.setup_tracker", (), {"flock": str},
    ForEach("flock", _nest_order, (Call("slot", _first_slot),)))


# --- Wake up --------------------------------------------------------------------------------------------------
def _wake_up(rt: Runtime, env: Env) -> None:
    """R-VTO-3 steps 1-2: pass the First Player marker left; every token goes below its previous slot."""
    st = rt.state
    rt.emit("season-begins", season=st.season)
    st.first = (st.first + 1) % len(st.seats)
    rt.emit("first-player", flock=st.seats[st.first])
    for f in st.seats:
        fl = st.flocks[f]
        fl.tracker_prev, fl.tracker_slot = fl.tracker_slot, None


WAKE_UP_START = program("vto.wake_up_start", (), {}, Do(_wake_up))


def wake_up_frame(rt: Runtime, flock: str) -> Cont:
    """R-VTO-3 step 3: the flock moves its token to a different empty slot and gains or pays its effect."""
    prev = rt.state.flocks[flock].tracker_prev
    return TAKE_SLOT.start(flock, prev, f"Wake up: move your tracker token to a slot other than {prev}")
