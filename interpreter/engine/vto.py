"""The Variable Turn Order variant (R-VTO-1..5): a turn tracker on the Season board and a Wake up phase.

A game plays it when created with `Game.new(..., variant="vto")` (stored as `State.variant`); the mode
interpreter/engine/modes/vto.py plugs these procedures into the flow. The slots
and their effects are content (turn_order.yaml `tracker`); the season's phases are `Rules.vto_phases`,
read from game.yaml `variants.vto.phases` (content without that list does not offer the variant).
Turn order itself is `State.turn_order()`, which sorts by the tracker slots the flocks hold (R-VTO-4).
"""
from __future__ import annotations

from interpreter.dsl import ast
from interpreter.engine import effects
from interpreter.engine.context import Ctx, Runtime
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Steps, ask_action, option

VARIANT = "vto"
WAKE_UP = "wake_up"
PAY_VERBS = frozenset({"pay-fruit", "pay-fruit-of", "pay-domain"})


def phases(rt: Runtime) -> list[str]:
    """The phases of a season in this game (its mode's: the variant's list under Variable Turn Order)."""
    return rt.mode.phases(rt.rules)


def run_if_possible(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Steps[None]:
    """Run a slot effect; each payment in it is made only if possible (R-VTO-3 "or pay, if possible").

    Decision R-VTO-3: the payments are independent; a player who can pay one but not the other pays
    the one they can (the rulebook never stops anyone from taking a slot).
    """
    if node is None:
        return
    if isinstance(node, ast.Seq):
        for stmt in node.stmts:
            yield from run_if_possible(rt, stmt, ctx)
        return
    if isinstance(node, ast.Call) and node.primitive in PAY_VERBS and not effects.possible(rt, node, ctx):
        rt.emit("tracker-cannot-pay", ctx.flock, flock=ctx.flock, effect=effects.describe(node))
        return
    yield from effects.run(rt, node, ctx)


def _take_slot(rt: Runtime, flock: str, forbidden: int | None, prompt: str) -> Steps[None]:
    """The flock puts its tracker token on an empty slot (not `forbidden`) and gains or pays its effect."""
    st = rt.state
    taken = {st.flocks[f].tracker_slot for f in st.seats}
    free = [n for n in rt.rules.tracker if n not in taken]
    allowed = [n for n in free if n != forbidden]
    # Decision R-VTO-3: if the only empty slot is the player's previous one (content with as many slots
    # as players), they keep it rather than be left with nowhere to go
    slots = allowed or free
    act = yield from ask_action(flock, "tracker-slot", prompt,
                                [option(A.Slot(n), f"Slot {n}: {effects.describe(rt.rules.tracker[n].effect)}")
                                 for n in slots])
    slot = act.slot
    st.flocks[flock].tracker_slot = slot
    rt.emit("tracker-slot", flock, flock=flock, slot=slot)
    yield from run_if_possible(rt, rt.rules.tracker[slot].effect, Ctx(flock, source=f"tracker slot {slot}"))


def setup_tracker(rt: Runtime) -> Steps[None]:
    """R-VTO-2: in Turn Order nest order each puts the first token of its Kiwi track on an empty slot.

    The token leaves the track without its track benefit (R-VTO-2, as in R-DM-3) and stays on the tracker
    all game (`Flock.on_tracker`). Decision: this is the last setup step, after the starting positions.
    """
    st = rt.state
    for f in sorted(st.seats, key=lambda x: st.flocks[x].seat):
        fl = st.flocks[f]
        if fl.track > 0:
            fl.track -= 1
        elif fl.reserve_kiwi > 0:     # only with content giving no track tokens at all
            fl.reserve_kiwi -= 1
        fl.on_tracker = 1
        yield from _take_slot(rt, f, None, "Place your Kiwi token on an empty turn tracker slot")


def wake_up_start(rt: Runtime) -> Steps[None]:
    """R-VTO-3 steps 1-2: pass the First Player marker left; every token goes below its previous slot."""
    st = rt.state
    rt.emit("season-begins", season=st.season)
    st.first = (st.first + 1) % len(st.seats)
    rt.emit("first-player", flock=st.seats[st.first])
    for f in st.seats:
        fl = st.flocks[f]
        fl.tracker_prev, fl.tracker_slot = fl.tracker_slot, None
    yield from ()


def wake_up_turn(rt: Runtime, flock: str) -> Steps[None]:
    """R-VTO-3 step 3: the flock moves its token to a different empty slot and gains or pays its effect."""
    prev = rt.state.flocks[flock].tracker_prev
    yield from _take_slot(rt, flock, prev, f"Wake up: move your tracker token to a slot other than {prev}")
