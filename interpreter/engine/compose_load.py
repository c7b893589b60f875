"""Checks of compose frames loaded from a save: the plain data they may hold, and the question the
frame that asked the pending decision asks (interpreter/engine/compose.py).

A save's frames are checked by frames.stack_from_data (kinds, fields, simple types) and then by each frame's own
`check(rt)` against the loaded state; Game.from_json then hands the pending decision to the top frame's
`check_answer`. Nothing changes the state between a question and its answer, so a compose frame recomputes its
question from the state (`asked`) and a pending decision that is not that one (another kind, player or options) is
refused: resuming the frame with it would fail deep in play instead.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kcd.engine.context import Ctx, Runtime
from kcd.engine.decisions import Decision, distinct
from kcd.engine.frames import Ask, Frame, FrameDataError

__all__ = ["AskingFrame", "check_ctx", "check_index", "need", "well_formed"]

_KINDS = ("kiwi", "leader", "nest", "marker", "hex", "player")


def well_formed(st: Any, el: Any, kinds: tuple[str, ...] = _KINDS) -> bool:
    """Whether a loaded value is a plain element (selectors.plain) of one of these kinds, naming hexes of the island
    and flocks that play (the piece itself may have left since: `live` finds it or not)."""
    if type(el) is not tuple or len(el) != 3 or el[0] not in kinds:
        return False
    kind, hex_id, thing = el
    if kind == "player":
        return hex_id is None and type(thing) is str and thing in st.flocks
    if type(hex_id) is not str or hex_id not in st.hexes:
        return False
    if kind == "kiwi":
        return (type(thing) is tuple and len(thing) == 2 and type(thing[0]) is int and type(thing[1]) is str
                and thing[1] in st.flocks)
    if kind == "leader":
        return type(thing) is str and thing in st.flocks
    if kind == "hex":
        return thing == hex_id
    return (type(thing) in (tuple, list) and len(thing) == 2 and all(type(t) is str for t in thing)
            and thing[0] in st.flocks)


def need(ok: bool, frame: Frame, what: str) -> None:
    """Refuse a loaded frame whose data is not what it can hold."""
    if not ok:
        raise FrameDataError(f"{frame.kind}: {what}")


def check_ctx(rt: Runtime, frame: Frame, ctx: Ctx) -> None:
    """The context's `it`, `this hex` and Leader ability name the island's hexes and pieces."""
    hexes = rt.state.hexes
    need(ctx.it is None or well_formed(rt.state, ctx.it), frame, "`it` is not an element of the game")
    need(ctx.here is None or ctx.here in hexes, frame, "`this hex` is not a hex of the island")
    ab = ctx.ability
    need(ab is None or ab.start in hexes and (ab.landing is None or ab.landing in hexes)
         and all(h in hexes for h in ab.passed), frame, "the Leader ability names hexes off the island")


def check_index(frame: Frame, items: list | None, i: int) -> None:
    """`i` counts the items already done (0 before a snapshot is taken)."""
    need(0 <= i <= (len(items) if items is not None else 0), frame, f"step {i} of {len(items or ())} items")


@dataclass(eq=False)
class AskingFrame(Frame):
    """A compose frame that asks: at a step of `asks`, `asked(rt)` is what it asks there, recomputed from the state
    (nothing changes the state between a question and its answer, so a loaded save can be checked against it)."""

    def asked(self, rt: Runtime) -> Ask | None:
        """The question this frame waits for the answer to at its step (None: it cannot be waiting)."""
        raise NotImplementedError(f"{type(self).__name__} has no asked")

    def check_answer(self, rt: Runtime, decision: Decision) -> None:
        """Refuse a loaded pending decision that is not the one this frame asks now (kind, player, options)."""
        ask = self.asked(rt)
        need(ask is not None and ask.kind == decision.kind and ask.player == decision.player
             and [o.id for o in distinct(tuple(ask.options))] == decision.option_ids(), self,
             f"the pending {decision.kind[:40]} decision is not the one it asks at step {self.pc}")
