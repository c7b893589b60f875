"""Domain Marking (R-DM-1..5, R-END-1): unmarked hex, dominance, matching marker, covered by a token."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generator

from kcd.engine import dominance, effects
from kcd.engine.context import Ctx, Runtime
from kcd.engine import action_types as A
from kcd.engine.decisions import Option, Steps, option, shared_option
from kcd.engine.frames import Ask, Call, Frame, FrameDataError, Return, Signal, drive, register_frame, RETURN
from kcd.engine.placing import kiwi_of, token_available
from kcd.engine.verb_table import TABLE
from kcd.engine.view import reserves_revealed


def markable(rt: Runtime, flock: str, any_terrain: bool = False) -> list[str]:
    """Hexes the flock may mark now (R-DM-2, R-DM-4); a covering token must exist (R-DM-3). `any_terrain`: the hexes
    it could mark with a marker of any terrain, which is what everyone else knows of it (`asked`)."""
    st = rt.state
    fl = st.flocks[flock]
    if not fl.domain or not token_available(rt, flock):
        return []
    have = None if any_terrain else set(fl.domain)
    mine = st.presence(flock)
    # R-DM-2 asks for dominance only: an own Nest that counts (a Control Nest, R-BUILD-5) can give it with
    # no own Kiwi in the hex, so those hexes are candidates too (presence is only a cheap pre-filter)
    return [h.id for h in st.hexes.values()
            if h.domain is None and (have is None or h.terrain in have)
            and (h.id in mine or (h.nest is not None and h.nest[0] == flock))
            and dominance.dominant(st, h.id, "marking") == flock]


def asked(rt: Runtime, flock: str, where: list[str], hidden: bool) -> bool:
    """Whether the flock is asked to mark, `where` being the hexes it may mark (`markable`). While the reserves are
    `hidden` (before R-END-1) everyone sees how many markers a flock holds but not their terrains (R-SETUP-4), so a
    flock with a marker, a covering token and a hex it dominates is asked (with a pass option when none of its
    markers fits), whatever it holds; the terrains decide only the options, which no one else sees."""
    return bool(where) or hidden and bool(markable(rt, flock, any_terrain=True))


@register_frame("marking.mark")
@dataclass(eq=False)
class MarkFrame(Frame):
    """Place one marker (or pass when optional). Returns the hex marked (False when none was placed)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"mark": ("mark", "pass")}}

    ctx: Ctx
    optional: bool
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask where; 1: cover the chosen hex; 2: placed."""
        flock = self.ctx.flock
        if self.pc == 0:
            hexes = rt.state.hexes
            hidden = not reserves_revealed(rt)
            where = markable(rt, flock)
            if not asked(rt, flock, where, hidden):
                return Return(False)
            opts: list[Option[A.Action]] = [shared_option(A.Mark, (h,), ("Mark {} ({})", (h, hexes[h].terrain))) for h in where]
            if self.optional or not where:
                # a marker that must be placed but fits no hex (one the others could not tell from one that fits)
                opts.append(option(A.word("pass"), "Place no marker" if self.optional else "No marker fits: place none"))
            self.pc = 1
            return Ask(flock, "mark", "Place a domain marker?", opts, hidden)
        if self.pc == 1:
            if value.kind == "pass":
                return Return(False)
            self.pc = 2
            self.ctx = self.ctx.sub(here=value.hex)   # the hex marked, returned when it is covered
            return Call(CoverFrame(flock, value.hex))
        return Return(self.ctx.here)


def mark(rt: Runtime, ctx: Ctx, optional: bool) -> Steps[Any]:
    """Place one marker (or pass when optional). Returns the hex marked (False when none was placed)."""
    return (yield from drive(rt, MarkFrame(ctx, optional)))


@register_frame("marking.cover")
@dataclass(eq=False)
class CoverFrame(Frame):
    """Put the marker down and cover it with a token from track, Reserve or island, as chosen (R-DM-3)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"cover": ("cover", "cover-from")}}

    flock: str
    hex: str
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask which token; 1: take it and place the marker."""
        st = rt.state
        flock = self.flock
        fl = st.flocks[flock]
        if self.pc == 0:
            opts: list[Option[A.Action]] = []
            if fl.reserve_kiwi > 0:
                opts.append(option(A.CoverFrom("reserve"), "Cover with a token from your Reserve"))
            if fl.track > 0:
                opts.append(option(A.CoverFrom("track"), "Cover with a token from your Kiwi track (no track benefit)"))
            for h, k in st.own_kiwi(flock):
                opts.append(shared_option(A.Cover, (k.id, flock, k.size, h), ("Cover with a token from your size-{} Kiwi on {}", (k.size, h))))
            self.pc = 1
            return Ask(flock, "cover", ("Take a token to cover the marker on {}", (self.hex,)), opts)
        act = value
        if isinstance(act, A.CoverFrom) and act.source == "reserve":
            fl.reserve_kiwi -= 1
        elif isinstance(act, A.CoverFrom):
            fl.track -= 1          # R-DM-3: a token from the track grants no benefit
        else:
            h, kiwi = kiwi_of(rt, act)
            st.resize_kiwi(h, kiwi.id, -1)   # a size-0 Kiwi leaves the hex
        hex_id = self.hex
        terrain = st.hexes[hex_id].terrain
        fl.domain.remove(terrain)
        fl.covers += 1
        st.set_domain(hex_id, (flock, terrain))
        rt.emit("mark", flock, flock=flock, hex=hex_id, terrain=terrain)
        return RETURN

    def check(self, rt: Runtime) -> None:
        """A loaded cover is on an unmarked hex whose terrain marker the flock holds."""
        h = rt.state.hexes.get(self.hex) if isinstance(self.hex, str) else None
        if h is None or h.domain is not None or h.terrain not in rt.state.flocks[self.flock].domain:
            raise FrameDataError("marking.cover: a hex the flock cannot mark")


def cover(rt: Runtime, flock: str, hex_id: str) -> Steps[None]:
    """Put the marker down and cover it with a token from track, Reserve or island, as chosen (R-DM-3)."""
    return (yield from drive(rt, CoverFrame(flock, hex_id)))


@register_frame("marking.turn")
@dataclass(eq=False)
class MarkingTurnFrame(Frame):
    """A flock's Domain Marking: one marker in seasons 1-3, as many as possible in the last (R-DM-1, R-END-1).

    Decision R-DM-1/R-END-1: every marker is optional ("may place"), even in the last season.
    """

    asks: ClassVar[frozenset[int] | None] = frozenset()

    ctx: Ctx
    count: int | None
    placed: int = 0
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: mark while allowed; 1: after a mark (its result); 2: after the power."""
        if self.pc == 2:
            return RETURN
        if self.pc == 1:
            if value:
                self.placed += 1
                self.ctx = self.ctx.sub(here=value)   # `this hex` of the power: the last hex marked
            else:
                return self._done(rt)
        if self.count is None or self.placed < self.count:
            self.pc = 1
            return Call(MarkFrame(self.ctx, True))
        return self._done(rt)

    def _done(self, rt: Runtime) -> Signal:
        # Decision R-ASYM-2: the power places a *second* marker, so it fires only after the flock placed one; a flock
        # that places none does not fire `domain marking` (any power on it), and `this hex` is the last hex marked
        if self.placed:
            self.pc = 2
            fire = effects.emit_call(rt, self.ctx, "t-domain-marking")
            if fire is not None:
                return fire
        return RETURN


def marking_turn_frame(rt: Runtime, flock: str) -> MarkingTurnFrame:
    """The frame of a flock's Domain Marking (R-DM-1, R-END-1)."""
    per = rt.rules.marking_per_season
    idx = min(rt.state.season, len(per)) - 1
    return MarkingTurnFrame(Ctx(flock, source="domain marking"), per[idx] if per else 1)


def marking_turn(rt: Runtime, flock: str) -> Steps[Any]:
    """A flock's Domain Marking: one marker in seasons 1-3, as many as possible in the last (R-DM-1, R-END-1)."""
    return (yield from drive(rt, marking_turn_frame(rt, flock)))


TABLE.register("mark-domain", lambda rt, c, ctx: mark(rt, ctx, optional=False),
               lambda rt, c, ctx: asked(rt, ctx.flock, markable(rt, ctx.flock), not reserves_revealed(rt)), frame=lambda rt, c, ctx: MarkFrame(ctx, False))
