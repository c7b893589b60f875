"""Kiwibot's Domain Marking (R-SOLO-11 Marking Domain; R-DM-1..4 counts and covers)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kcd.engine import dominance, effects, placing
from kcd.engine.context import Ctx, Runtime
from kcd.engine.decisions import Steps
from kcd.engine.frames import Call, Done, Frame, Return, Signal, drive, register_frame
from kcd.engine.modes.solo.marker import marker_order
from kcd.engine.modes.solo.patterns import cover
from kcd.engine.modes.solo.state import pattern_steps


def _markable(rt: Runtime, bot: str) -> list[str]:
    """Unmarked hexes Kiwibot dominates, in marker order, while it has a token to cover a marker (R-DM-2/3)."""
    if not placing.token_available(rt, bot):
        return []
    st = rt.state
    return [h for h in marker_order(st) if st.hexes[h].domain is None and dominance.dominant(st, h, "marking") == bot]


def mark_now(rt: Runtime, ctx: Ctx) -> tuple[bool, bool]:
    """One Kiwibot marker: reveal markers until one fits a hex it dominates (R-SOLO-11); it asks nothing.
    Returns (placed, had_a_hex)."""
    st = rt.state
    bot = ctx.flock
    fl = st.flocks[bot]
    hexes = _markable(rt, bot)
    if not hexes:
        return False, False
    terrains = {st.hexes[h].terrain for h in hexes}
    # the face-down reserve is revealed one marker at a time in a random order: a shuffled copy
    revealed = list(fl.domain)
    st.shuffle(revealed)
    fit = next((t for t in revealed if t in terrains), None)
    if fit is None:
        rt.emit("kiwibot-no-marker", bot, flock=bot)
        return False, True
    hex_id = next(h for h in hexes if st.hexes[h].terrain == fit)
    if not cover(rt, bot, hex_id):
        return False, True
    fl.domain.remove(fit)
    fl.covers += 1
    st.set_domain(hex_id, (bot, fit))
    rt.emit("mark", bot, flock=bot, hex=hex_id, terrain=fit)
    return True, True


def mark_one(rt: Runtime, ctx: Ctx) -> Steps[Any]:
    """One Kiwibot marker (mark_now), for generator callers. Returns (placed, had_a_hex)."""
    return (yield from drive(rt, Done(mark_now(rt, ctx))))


@register_frame("solo.marking_turn")
@dataclass(eq=False)
class MarkingTurnFrame(Frame):
    """Kiwibot's Domain Marking (R-SOLO-11; R-DM-1 counts): as many as the season allows; if it dominated a
    hex but no marker fitted, it gains one marker instead.

    Decision R-SOLO-11: revealed markers that do not fit go back face down in seasons 1-3 (the state never
    shows them); in the last season every reserve is revealed anyway (R-END-1), so nothing differs there.
    "Doesn't have a marker of the proper type" needs a hex it dominates: with none, no marker is gained.
    """

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    bot: str
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: every marker (none asks anything), then the marker gained instead or the powers; 1: done."""
        bot = self.bot
        if self.pc == 1:
            return Return()
        per = rt.rules.marking_per_season
        count = per[min(rt.state.season, len(per)) - 1] if per else 1
        ctx = Ctx(bot, source="domain marking")
        placed, had_hex = 0, False
        while count is None or placed < count:
            done, hexes = mark_now(rt, ctx)
            had_hex = had_hex or hexes
            if not done:
                break
            placed += 1
        self.pc = 1
        if not placed and had_hex and "gain-if-none-fits" in pattern_steps(rt, "marking-domain"):
            rt.emit("kiwibot-marker-instead", bot, flock=bot)
            return Call(effects._gain_domain(rt, ctx, 1))
        if placed:
            return Call(effects.EMIT.start(ctx, "t-domain-marking"))
        return Return()


def marking_turn(rt: Runtime, bot: str) -> Steps[Any]:
    """Kiwibot's Domain Marking (R-SOLO-11; R-DM-1 counts; MarkingTurnFrame)."""
    return (yield from drive(rt, MarkingTurnFrame(bot)))
