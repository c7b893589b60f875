"""The Build action (R-BUILD-1..6): a hex without Nest, >= min tokens and dominance; row order; cost; benefits."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generator, Iterator

from kcd.dsl import ast
from kcd.engine import action_types as A
from kcd.engine import compose, dominance, effects, labels, payment
from kcd.engine.context import Ctx, Runtime
from kcd.engine.decisions import Steps, option, shared_option
from kcd.engine.frames import (Ask, Call, Done, Frame, FrameDataError, Signal, as_frame, drive,
                                       register_frame, RETURN)
from kcd.engine.modifiers import param
from kcd.engine.verb_table import TABLE


def hexes(rt: Runtime, flock: str) -> list[str]:
    """Hexes where the flock may build (R-BUILD-1; Leader counts 3 tokens there, R-LEAD-1)."""
    return list(_hexes(rt, flock))


def _hexes(rt: Runtime, flock: str) -> Iterator[str]:
    """`hexes`, one at a time: a hex without a Nest where the flock has at least `build_min_tokens` and dominates."""
    st = rt.state
    leader_hex = st.flocks[flock].leader_hex
    need = rt.rules.build_min_tokens
    for h in st.hexes.values():
        if h.nest is not None:
            continue
        if h.id != leader_hex:
            # without its Leader here the flock counts at most its Kiwi's sizes (by size, or one per Kiwi), and
            # a hex without its Kiwi or Leader is never one (R-BUILD-1)
            own = 0
            for k in h.kiwi:
                if k.flock == flock:
                    own += k.size
            if own == 0 or own < need:
                continue
        counts = dominance.strengths(st, h.id, "build")
        if counts.get(flock, 0) >= need and dominance.leader_of(counts) == flock:
            yield h.id


def available_nests(rt: Runtime, flock: str) -> list[str]:
    """Unbuilt Nests whose row rule is met (R-BUILD-2) and whose cost the flock can pay."""
    fl = rt.state.flocks[flock]
    out = []
    for nest_id in rt.rules.flock_nests:
        if nest_id in fl.nests_built:
            continue
        nest = rt.rules.nests[nest_id]
        if not all(n in fl.nests_built for n in _lower_rows(rt, nest_id)):
            continue
        if payment.can_pay(fl, payment.cost_reqs(nest.cost), rt.rules.fruits):
            out.append(nest_id)
    return out


def _lower_rows(rt: Runtime, nest_id: str) -> list[str]:
    """The flock's Nests of the same type one row lower (R-BUILD-2), cached on the rules."""
    cache = rt.rules.lower_rows
    if nest_id not in cache:
        nest = rt.rules.nests[nest_id]
        cache[nest_id] = [n for n in rt.rules.flock_nests if rt.rules.nests[n].type == nest.type
                          and rt.rules.nests[n].row == nest.row - 1]
    return cache[nest_id]


def possible(rt: Runtime, flock: str) -> bool:
    """True when some Build can be taken now: `hexes` and `available_nests` would both be non-empty (each check
    stops at its first hit; a card's play modes ask this on every turn)."""
    fl = rt.state.flocks[flock]
    fruits = rt.rules.fruits
    built = fl.nests_built
    for nest_id in rt.rules.flock_nests:
        if nest_id in built:
            continue
        for lower in _lower_rows(rt, nest_id):
            if lower not in built:
                break
        else:
            if payment.can_pay(fl, payment.cost_reqs(rt.rules.nests[nest_id].cost), fruits):
                break
    else:
        return False
    return next(_hexes(rt, flock), None) is not None


@register_frame("build.build")
@dataclass(eq=False)
class BuildFrame(Frame):
    """One Build action: hex, Nest, pay, place, placement benefit (R-BUILD-3), then the build triggers."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1, 2})
    ask_kinds = {1: {"build-hex": ("build",)}, 2: {"build-nest": ("nest",)}}

    ctx: Ctx
    nests: list = field(default_factory=list)
    hex: str = ""
    nest: str = ""
    max_pc: ClassVar[int] = 6

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the hex; 1: ask the Nest; 2: pay; 3: place and benefit; 4: powers; 5: filtered triggers."""
        ctx = self.ctx
        flock = ctx.flock
        pc = self.pc
        if pc == 0:
            self.nests = nests = available_nests(rt, flock)
            where = hexes(rt, flock) if nests else []
            if not where:
                rt.emit("cannot-build", flock, flock=flock)
                return RETURN
            self.pc = 1
            return Ask(flock, "build-hex", "Choose a hex to build on", [shared_option(A.Build, (h,), ("Build on {}", (h,))) for h in where])
        if pc == 1:
            self.hex = value.hex
            self.pc = 2
            return Ask(flock, "build-nest", "Choose a Nest",
                       [option(A.Nest(n), labels.lazy(labels.nest_label, n, rt.rules.nests[n])) for n in self.nests])
        if pc == 2:
            self.nest = value.nest
            self.pc = 3
            return Call(payment.PayAllFrame(flock, tuple(payment.reqs_of(rt.rules.nests[self.nest].cost))))
        if pc == 3:
            hex_id, nest_id = self.hex, self.nest
            rt.state.set_nest(hex_id, (flock, nest_id))
            rt.state.flocks[flock].nests_built.append(nest_id)
            rt.emit("build", flock, flock=flock, nest=nest_id, hex=hex_id)
            self.pc = 4
            return Call(NestBenefitFrame.of(rt, ctx, rt.rules.nests[nest_id].on_place,
                                            f"{nest_id} placement", hex_id))
        if pc == 4:
            self.pc = pc = 5
            fire = effects.emit_call(rt, ctx, "t-build", self.hex)
            if fire is not None:
                return fire
        if pc == 5:
            self.pc = 6
            return Call(compose.event_frame(rt, ctx, "build", self.hex))   # `build on <hexes>` triggers
        return RETURN

    def check(self, rt: Runtime) -> None:
        """A loaded Build names Nests of the content, the chosen one unbuilt on a hex without a Nest until it is
        placed, and then standing there."""
        st = rt.state
        built = st.flocks[self.ctx.flock].nests_built
        if not all(isinstance(n, str) and n in rt.rules.nests and (self.pc >= 4 or n not in built) for n in self.nests):
            raise FrameDataError("build.build: a Nest that cannot be built")
        if self.pc >= 2 and self.hex not in st.hexes:
            raise FrameDataError("build.build: a hex that cannot be built on")
        if self.pc == 3 and (self.nest not in self.nests or st.hexes[self.hex].nest is not None):
            raise FrameDataError("build.build: a Nest that cannot be built there")
        if self.pc >= 4 and st.hexes[self.hex].nest != (self.ctx.flock, self.nest):
            raise FrameDataError("build.build: the built Nest is not on its hex")


def build(rt: Runtime, ctx: Ctx) -> Steps[Any]:
    """One Build action: hex, Nest, pay, place, placement benefit (R-BUILD-3)."""
    return (yield from drive(rt, BuildFrame(ctx)))


@register_frame("build.nest_benefit")
@dataclass(eq=False)
class NestBenefitFrame(Frame):
    """A Nest benefit, twice under the `nest benefits twice` modifier, the second time without VP (R-ASYM-4);
    `here` is the Nest's hex (`this hex` in its effect)."""

    asks: ClassVar[frozenset[int] | None] = frozenset()

    ctx: Ctx
    effect: Any
    source: str
    here: str | None
    times: int = -1     # how often it runs, read when it starts
    i: int = 0

    @classmethod
    def of(cls, rt: Runtime, ctx: Ctx, effect: ast.Node | None, source: str, here: str | None = None) -> Frame:
        """The frame of a Nest benefit (one that returns at once for a Nest without one)."""
        return Done() if effect is None else cls(ctx, effect, source, here)

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Each run in turn."""
        ctx = self.ctx
        if self.times < 0:
            self.times = param(rt, ctx.flock, "nest_benefit_times", ("nest", self.here) if self.here is not None else None)
        if self.i >= self.times:
            return RETURN
        i = self.i
        self.i += 1
        return Call(effects.RunFrame(self.effect, ctx.sub(no_vp=i > 0, depth=ctx.depth + 1, source=self.source,
                                                          here=self.here if self.here is not None else ctx.here)))


def nest_benefit(rt: Runtime, ctx: Ctx, effect: ast.Node | None, source: str, here: str | None = None) -> Steps[Any]:
    """A Nest benefit, twice under the `nest benefits twice` modifier, the second time without VP (R-ASYM-4)."""
    return (yield from drive(rt, NestBenefitFrame.of(rt, ctx, effect, source, here)))


TABLE.register("build", lambda rt, c, ctx: build(rt, ctx), lambda rt, c, ctx: possible(rt, ctx.flock),
               frame=lambda rt, c, ctx: BuildFrame(ctx))
