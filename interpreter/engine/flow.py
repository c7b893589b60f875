"""Seasons and phases as small resumable steps (R-SEASON-1, R-SC-1..3, R-ACT-1, R-SCARD-1..3, R-DM-1).

The state's (season, phase, step) names the step; `step_procedure` returns the frame (or generator) that runs it (the
game's mode, interpreter/engine/modes, maps each phase to its procedure), or None when the phase has no more
steps; `advance` moves to the next phase or season. The standard game's shared procedures live here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generator

from kcd.engine import action_types as A
from kcd.engine import build, effects, labels, queries
from kcd.engine.context import Ctx, Runtime
from kcd.engine.decisions import Steps, option
from kcd.engine.frames import Ask, Call, Frame, FrameDataError, Signal, drive, register_frame, RETURN


def step_procedure(rt: Runtime) -> "Frame | Steps[Any] | None":
    """The procedure (a frame or a generator) of the current step, or None when the current phase is finished (the game's mode says)."""
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
    return (yield from drive(rt, SeasonChangeStartFrame()))


@register_frame("flow.season_change_start")
@dataclass(eq=False)
class SeasonChangeStartFrame(Frame):
    """The start of Season Change (R-SC-1/2); it asks nothing."""

    asks: ClassVar[frozenset[int] | None] = frozenset()

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """All of it at once."""
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
        return RETURN


@register_frame("flow.nest_benefits")
@dataclass(eq=False)
class NestBenefitsFrame(Frame):
    """R-SC-3: the season-change benefit of every built Nest, in the order the player chooses."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"nest-order": ("nest",)}}

    flock: str
    left: list
    ctx: Ctx
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask which Nest next (while any is left); pc 1: run the chosen one's benefit; 2: the flock's
        `at season change` powers ran."""
        flock = self.flock
        if self.pc == 2:
            return RETURN
        if self.pc == 1:
            self.pc = 0
            nest_id = value.nest
            self.left.remove(nest_id)
            here = next((h.id for h in rt.state.hexes.values() if h.nest == (flock, nest_id)), None)   # `this hex`
            return Call(build.nest_benefit_frame(rt, self.ctx, rt.rules.nests[nest_id].on_season_change,
                                                  f"{nest_id} season change", here))
        if not self.left:
            # Decision R-SC-3: a flock's `at season change` powers fire right after its own Nest benefits
            self.pc = 2
            fire = effects.emit_call(rt, self.ctx, "t-season-change")
            return RETURN if fire is None else fire
        self.pc = 1
        return Ask(flock, "nest-order", "Which Nest benefit next?",
                   [option(A.Nest(n), ("{}: {}", (labels.lazy(labels.nest_name, n, rt.rules.nests[n]),
                                                labels.lazy(effects.describe, rt.rules.nests[n].on_season_change))))
                    for n in self.left])

    def check(self, rt: Runtime) -> None:
        """The Nests left are built Nests of the flock with a season-change benefit."""
        built = rt.state.flocks[self.flock].nests_built
        if not all(isinstance(n, str) and n in built and rt.rules.nests[n].on_season_change is not None
                   for n in self.left):
            raise FrameDataError("flow.nest_benefits: a Nest without a season-change benefit")


def nest_benefits_frame(rt: Runtime, flock: str) -> NestBenefitsFrame:
    """The frame of R-SC-3 for one flock."""
    fl = rt.state.flocks[flock]
    left = [n for n in fl.nests_built if rt.rules.nests[n].on_season_change is not None]
    return NestBenefitsFrame(flock, left, Ctx(flock, source="season change"))


def nest_benefits(rt: Runtime, flock: str) -> Steps[None]:
    """R-SC-3: the season-change benefit of every built Nest, in the order the player chooses."""
    return (yield from drive(rt, nest_benefits_frame(rt, flock)))


@register_frame("flow.season_card")
@dataclass(eq=False)
class SeasonCardFrame(Frame):
    """Resolve the season's card (R-SCARD-1..3): the victor's benefit (a VP card is kept), the others'; on a tie
    each tied player in turn order may take the others' benefit (R-SCARD-2)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({4})
    ask_kinds = {4: {"season-tie": ("take", "decline")}}

    card: str = ""
    victor: str | None = None
    order: list = field(default_factory=list)
    best: list = field(default_factory=list)
    before: int = 0
    i: int = 0
    max_pc: ClassVar[int] = 4

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: score the card; 1: after the victor's benefit; 2: the others' benefits; 3: tie questions;
        4: a tied player's answer."""
        st = rt.state
        if self.pc == 0:
            if st.season > len(st.season_cards):
                return RETURN
            self.card = card_id = st.season_cards[st.season - 1]
            card = rt.rules.season_cards[card_id]
            order = st.turn_order()
            best, values = queries.winners(st, card.objective, order)
            self.order, self.best = list(order), list(best)
            # the result as data for tools (sim, editor): they must not parse the text, which is for people
            result = {"card": card_id, "season": st.season, "values": {f: values[f] for f in order},
                      "victor": best[0] if len(best) == 1 else None, "tied": list(best) if len(best) > 1 else []}
            rt.emit("season-card", data=result, card=card_id, values={f: values[f] for f in order})
            if len(best) == 1:
                self.victor = victor = best[0]
                rt.emit("season-card-victor", victor, flock=victor, card=card_id)
                self.before = st.flocks[victor].season_vp
                self.pc = 1
                return Call(effects.RunFrame(card.victor, Ctx(victor, source=card_id)))
            rt.emit("season-card-tie", card=card_id, tied=list(best))
            if card.others is None:
                return RETURN
            self.pc = 3
        card_id = self.card
        card = rt.rules.season_cards[card_id]
        others = card.others
        if self.pc == 1:
            victor = self.victor or ""
            if st.flocks[victor].season_vp > self.before:   # R-SCARD-3: VP cards are kept
                st.flocks[victor].kept_season_cards.append(card_id)
            self.pc = 2
        if self.pc == 2:
            while self.i < len(self.order):
                f = self.order[self.i]
                self.i += 1
                if f != self.victor and others is not None:
                    return Call(effects.RunFrame(others, Ctx(f, source=card_id)))
            return RETURN
        if self.pc == 4:
            self.pc = 3
            if value.kind == "take":
                return Call(effects.RunFrame(others, Ctx(self.order[self.i - 1], source=card_id)))
        while self.i < len(self.order):   # R-SCARD-2: the tied players may take the right benefit; the rest nothing
            f = self.order[self.i]
            self.i += 1
            if f in self.best:
                self.pc = 4
                return Ask(f, "season-tie", ("Tie on “{}”: take the benefit “{}”?", (labels.lazy(labels.season_card_name, card_id, card),
                                                                       labels.lazy(effects.describe, others))),
                           [option(A.word("take"), "Take it"), option(A.word("decline"), "Decline")])
        return RETURN

    def check(self, rt: Runtime) -> None:
        """A loaded card is a Season card of the content (pc > 0) and its players are playing."""
        if self.pc > 0 and self.card not in rt.rules.season_cards:
            raise FrameDataError(f"flow.season_card: unknown Season card `{str(self.card)[:40]}`")
        seats = rt.state.seats
        if (not all(f in seats for f in self.order + self.best) or type(self.before) is not int
                or self.victor is not None and self.victor not in seats or not 0 <= self.i <= len(self.order)
                or self.pc in (1, 2) and self.victor is None):
            raise FrameDataError("flow.season_card: players that are not playing")


def season_card(rt: Runtime) -> Steps[None]:
    """Resolve the season's card (R-SCARD-1..3)."""
    return (yield from drive(rt, SeasonCardFrame()))
