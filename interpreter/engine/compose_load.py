"""Checks of compose continuations loaded from a save: the plain data they may hold, and the question the program
that asked the pending decision asks (interpreter/engine/compose.py).

A save's continuations are checked by machine.stack_from_data (program ids, resume points, env names and types) and
then by each program's own `check(rt, env, at)` against the loaded state; Game.from_json then hands the pending
decision to the top program's `check_answer`. Nothing changes the state between a question and its answer, so a
compose program recomputes its question from the state and a pending decision that is not that one (another kind,
player or options) is refused: resuming the program with it would fail deep in play instead.
"""
from __future__ import annotations

from typing import Any

from kcd.engine.context import Ctx, Runtime
from kcd.core.decisions import Decision, distinct
from kcd.engine.values import Ask, FrameDataError

__all__ = ["check_ctx", "check_index", "check_question", "need", "well_formed"]

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
        return bool(thing == hex_id)
    return (type(thing) in (tuple, list) and len(thing) == 2 and all(type(t) is str for t in thing)
            and thing[0] in st.flocks)


def need(ok: bool, program: str, what: str) -> None:
    """Refuse a loaded continuation of `program` whose data is not what it can hold."""
    if not ok:
        raise FrameDataError(f"{program}: {what}")


def check_ctx(rt: Runtime, program: str, ctx: Ctx) -> None:
    """The context's `it`, `this hex` and Leader ability name the island's hexes and pieces."""
    hexes = rt.state.hexes
    need(ctx.it is None or well_formed(rt.state, ctx.it), program, "`it` is not an element of the game")
    need(ctx.here is None or ctx.here in hexes, program, "`this hex` is not a hex of the island")
    ab = ctx.ability
    need(ab is None or ab.start in hexes and (ab.landing is None or ab.landing in hexes)
         and all(h in hexes for h in ab.passed), program, "the Leader ability names hexes off the island")


def check_index(program: str, items: Any, i: Any) -> None:
    """`i` counts the items already done (0 before a snapshot is taken)."""
    need(type(i) is int and 0 <= i <= (len(items) if items is not None else 0), program,
         f"step {i} of {len(items or ())} items")


def check_question(program: str, at: str, ask: Ask | None, decision: Decision) -> None:
    """Refuse a loaded pending decision that is not the question `ask` the program asks now at `at` (kind, player,
    options)."""
    need(ask is not None and ask.kind == decision.kind and ask.player == decision.player
         and [o.id for o in distinct(tuple(ask.options))] == decision.option_ids(), program,
         f"the pending {decision.kind[:40]} decision is not the one it asks at {at}")
