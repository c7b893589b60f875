"""The Variable Turn Order variant (R-VTO-1..5): a turn tracker on the Season board and a Wake up phase.

A game plays it when created with `Game.new(..., variant="vto")` (stored as `State.variant`); the mode
interpreter/engine/modes/vto/__init__.py plugs these procedures into the flow. The slots
and their effects are content (turn_order.yaml `tracker`); the season's phases are `Rules.vto_phases`,
read from game.yaml `variants.vto.phases` (content without that list does not offer the variant).
Turn order itself is `State.turn_order()`, which sorts by the tracker slots the flocks hold (R-VTO-4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generator

from kcd.dsl import ast
from kcd.engine import effects, labels
from kcd.engine.context import Ctx, Runtime
from kcd.engine import action_types as A
from kcd.engine.decisions import Steps, option
from kcd.engine.frames import Ask, Call, Frame, Return, Signal, drive, register_frame

VARIANT = "vto"
WAKE_UP = "wake_up"
PAY_VERBS = frozenset({"pay-fruit", "pay-fruit-of", "pay-domain"})


def phases(rt: Runtime) -> list[str]:
    """The phases of a season in this game (its mode's: the variant's list under Variable Turn Order)."""
    return rt.mode.phases(rt.rules)


@register_frame("vto.run_if_possible")
@dataclass(eq=False)
class RunIfPossibleFrame(Frame):
    """Run a slot effect; each payment in it is made only if possible (R-VTO-3 "or pay, if possible").

    Decision R-VTO-3: the payments are independent; a player who can pay one but not the other pays
    the one they can (the rulebook never stops anyone from taking a slot).
    """

    asks: ClassVar[frozenset[int] | None] = frozenset()

    node: Any
    ctx: Ctx
    i: int = 0
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """A sequence statement by statement; a payment only if possible; anything else as an effect."""
        node, ctx = self.node, self.ctx
        if node is None or self.pc == 1:
            return Return()
        if isinstance(node, ast.Seq):
            if self.i >= len(node.stmts):
                return Return()
            self.i += 1
            return Call(RunIfPossibleFrame(node.stmts[self.i - 1], ctx))
        if isinstance(node, ast.Call) and node.primitive in PAY_VERBS and not effects.possible(rt, node, ctx):
            rt.emit("tracker-cannot-pay", ctx.flock, flock=ctx.flock, effect=effects.describe(node))
            return Return()
        self.pc = 1
        return Call(effects.RunFrame(node, ctx))


def run_if_possible(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Steps[Any]:
    """Run a slot effect; each payment in it is made only if possible (R-VTO-3, RunIfPossibleFrame)."""
    return (yield from drive(rt, RunIfPossibleFrame(node, ctx)))


@register_frame("vto.take_slot")
@dataclass(eq=False)
class TakeSlotFrame(Frame):
    """The flock puts its tracker token on an empty slot (not `forbidden`) and gains or pays its effect."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"tracker-slot": ("slot",)}}

    flock: str
    forbidden: int | None
    prompt: str
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the slot; 1: take it and run its effect; 2: done."""
        st = rt.state
        flock = self.flock
        if self.pc == 0:
            taken = {st.flocks[f].tracker_slot for f in st.seats}
            free = [n for n in rt.rules.tracker if n not in taken]
            allowed = [n for n in free if n != self.forbidden]
            # Decision R-VTO-3: if the only empty slot is the player's previous one (content with as many slots
            # as players), they keep it rather than be left with nowhere to go
            slots = allowed or free
            self.pc = 1
            return Ask(flock, "tracker-slot", self.prompt,
                       [option(A.Slot(n), ("Slot {}: {}", (n, labels.lazy(effects.describe, rt.rules.tracker[n].effect))))
                        for n in slots])
        if self.pc == 1:
            slot = value.slot
            st.flocks[flock].tracker_slot = slot
            rt.emit("tracker-slot", flock, flock=flock, slot=slot)
            self.pc = 2
            return Call(RunIfPossibleFrame(rt.rules.tracker[slot].effect, Ctx(flock, source=f"tracker slot {slot}")))
        return Return()


def _take_slot(rt: Runtime, flock: str, forbidden: int | None, prompt: str) -> Steps[None]:
    """The flock puts its tracker token on an empty slot (not `forbidden`) and gains or pays its effect."""
    return (yield from drive(rt, TakeSlotFrame(flock, forbidden, prompt)))


@register_frame("vto.setup_tracker")
@dataclass(eq=False)
class SetupTrackerFrame(Frame):
    """R-VTO-2: in Turn Order nest order each puts the first token of its Kiwi track on an empty slot.

    The token leaves the track without its track benefit (R-VTO-2, as in R-DM-3) and stays on the tracker
    all game (`Flock.on_tracker`). Decision: this is the last setup step, after the starting positions.
    """

    asks: ClassVar[frozenset[int] | None] = frozenset()

    i: int = 0

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Each flock in Turn Order nest order."""
        st = rt.state
        order = sorted(st.seats, key=lambda x: st.flocks[x].seat)
        if self.i >= len(order):
            return Return()
        f = order[self.i]
        self.i += 1
        fl = st.flocks[f]
        if fl.track > 0:
            fl.track -= 1
        elif fl.reserve_kiwi > 0:     # only with content giving no track tokens at all
            fl.reserve_kiwi -= 1
        fl.on_tracker = 1
        return Call(TakeSlotFrame(f, None, "Place your Kiwi token on an empty turn tracker slot"))


def setup_tracker(rt: Runtime) -> Steps[Any]:
    """R-VTO-2: in Turn Order nest order each puts the first token of its Kiwi track on an empty slot."""
    return (yield from drive(rt, SetupTrackerFrame()))


@register_frame("vto.wake_up_start")
@dataclass(eq=False)
class WakeUpStartFrame(Frame):
    """R-VTO-3 steps 1-2: pass the First Player marker left; every token goes below its previous slot."""

    asks: ClassVar[frozenset[int] | None] = frozenset()

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """All of it at once."""
        st = rt.state
        rt.emit("season-begins", season=st.season)
        st.first = (st.first + 1) % len(st.seats)
        rt.emit("first-player", flock=st.seats[st.first])
        for f in st.seats:
            fl = st.flocks[f]
            fl.tracker_prev, fl.tracker_slot = fl.tracker_slot, None
        return Return()


def wake_up_start(rt: Runtime) -> Steps[None]:
    """R-VTO-3 steps 1-2: pass the First Player marker left; every token goes below its previous slot."""
    return (yield from drive(rt, WakeUpStartFrame()))


def wake_up_frame(rt: Runtime, flock: str) -> TakeSlotFrame:
    """R-VTO-3 step 3: the flock moves its token to a different empty slot and gains or pays its effect."""
    prev = rt.state.flocks[flock].tracker_prev
    return TakeSlotFrame(flock, prev, f"Wake up: move your tracker token to a slot other than {prev}")


def wake_up_turn(rt: Runtime, flock: str) -> Steps[None]:
    """R-VTO-3 step 3: the flock moves its token to a different empty slot and gains or pays its effect."""
    return (yield from drive(rt, wake_up_frame(rt, flock)))
