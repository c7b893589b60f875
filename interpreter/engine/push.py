"""Pushing (R-PUSH-1..3, R-LEAD-4/5, R-FEED-5): one Kiwi or Leader at a time, to an adjacent hex or off the island."""
from __future__ import annotations

from typing import Generator

from interpreter.engine.board import board_of
from interpreter.engine.context import Runtime
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Option, ask_action, option
from interpreter.engine.modifiers import param
from interpreter.engine.placing import kiwi_of, remove_from_hex
from interpreter.engine.powers import immune, push_limit
from interpreter.engine.state import Kiwi

OFF = "off"


def _targets(rt: Runtime, hex_id: str) -> list[str]:
    b = board_of(rt.state)
    out = b.adjacent(hex_id)
    if b.is_edge(hex_id):
        out = out + [OFF]
    return out


def pieces(rt: Runtime, hex_id: str, max_size: int | None, skip_leader: str | None = None,
           mover: int | None = None) -> list[tuple[Kiwi | str, str]]:
    """(Kiwi or Leader's flock, label) of pushable pieces in a hex: Kiwi (size <= max_size) and Leaders (size-3
    Kiwi, R-LEAD-1), in the hex's order; identical Kiwi (same flock and size) once, as the first of them that
    is not the `mover` (the Kiwi that pushes never pushes itself), placed where the first of them stands.

    Tokens covering domain markers are not Kiwi and never pushed (R-DM-3).
    """
    out: list[tuple[Kiwi | str, str]] = []
    slot: dict[tuple[str, int], int] = {}
    shield = immune(rt)   # `<pieces> cannot be pushed` powers
    for k in rt.state.hexes[hex_id].kiwi:
        if (max_size is not None and k.size > max_size) or (shield and k.id in shield[0]):
            continue
        key = (k.flock, k.size)
        if key not in slot:
            slot[key] = len(out)
            out.append((k, f"{k.flock} size-{k.size} Kiwi"))
        elif out[slot[key]][0].id == mover:   # a twin of the mover stands in for it
            out[slot[key]] = (k, out[slot[key]][1])
    out = [(k, label) for k, label in out if k.id != mover]
    if max_size is None or max_size >= rt.rules.max_size:
        for f in rt.state.leaders_in(hex_id):
            if f != skip_leader and not (shield and f in shield[1]):
                out.append((f, f"{f} Leader"))
    return out


def push_options(rt: Runtime, hex_id: str, max_size: int | None, skip_leader: str | None = None,
                 mover: int | None = None) -> list[Option]:
    """Every (piece, destination) push from a hex (never the `mover` Kiwi itself)."""
    opts = []
    dests = _targets(rt, hex_id)
    for piece, label in pieces(rt, hex_id, max_size, skip_leader, mover):
        for d in dests:
            action = (A.PushLeader(piece, hex_id, d) if isinstance(piece, str)
                      else A.PushKiwi(piece.id, piece.flock, piece.size, hex_id, d))
            opts.append(option(action, f"Push the {label} {'off the island' if d == OFF else 'to ' + d}"))
    return opts


def do_push(rt: Runtime, pusher: str, action: A.Action, *, leave_origin: bool) -> Generator:
    """Carry out a push action; a Leader pushed off is placed on an edge hex by the pusher."""
    dest = action.to
    st = rt.state
    if isinstance(action, A.PushLeader):
        flock, origin = action.flock, action.hex
        if dest == OFF:
            # R-LEAD-4: never removed; the pusher picks any edge hex. R-LEAD-5: a push by an ability must
            # land elsewhere than the origin, so there the origin is excluded.
            edges = [h for h in board_of(st).edge_hexes() if not (leave_origin and h == origin)]
            act = yield from ask_action(pusher, "place-leader", f"Place the {flock} Leader on an edge hex",
                                        [option(A.Edge(flock, h), f"Place the {flock} Leader on {h}") for h in edges])
            dest = act.to
        st.flocks[flock].leader_hex = dest
        rt.emit("push-leader", pusher, flock=pusher, leader=flock, hex=origin, to=dest)
        return
    hex_id, kiwi = kiwi_of(rt, action)
    push_kiwi(rt, pusher, hex_id, kiwi, dest)


def push_kiwi(rt: Runtime, pusher: str, origin: str, kiwi: Kiwi, dest: str) -> None:
    """Move this very Kiwi from its hex to `dest`, or off the island into its owner's Reserve (R-PUSH-2/3)."""
    remove_from_hex(rt, origin, kiwi)
    st = rt.state
    if dest == OFF:
        st.flocks[kiwi.flock].reserve_kiwi += kiwi.size   # R-PUSH-3
        rt.emit("push-off", pusher, flock=pusher, owner=kiwi.flock, size=kiwi.size, hex=origin)
    else:
        st.hexes[dest].kiwi.append(kiwi)
        rt.emit("push", pusher, flock=pusher, owner=kiwi.flock, size=kiwi.size, hex=origin, to=dest)


def after_move(rt: Runtime, flock: str, hex_id: str, mover_size: int, mover_id: int | None,
               mover_leader: bool) -> Generator:
    """R-PUSH-1: the Kiwi that ended its move may push up to `limits.push` smaller Kiwi, one at a time."""
    mover = ("leader", flock) if mover_leader else ("kiwi", mover_id)   # what a modifier's selector must name
    limit = mover_size if param(rt, flock, "push_same_size", mover) else mover_size - 1   # R-ASYM-5 same size
    if limit < 1:
        return
    for _ in range(push_limit(rt, flock, mover)):
        # the mover never pushes itself: the options name its twin, if it has one, by piece id
        opts = push_options(rt, hex_id, limit, skip_leader=flock if mover_leader else None, mover=mover_id)
        if not opts:
            return
        opts.append(option(A.word("stop"), "Stop pushing"))
        act = yield from ask_action(flock, "push", f"Push a smaller Kiwi out of {hex_id}?", opts)
        if act.kind == "stop":
            return
        yield from do_push(rt, flock, act, leave_origin=False)


def push_all(rt: Runtime, pusher: str, hex_id: str, skip_leader: str | None, leave_origin: bool) -> Generator:
    """Push every Kiwi and Leader out of a hex, one at a time, each where the pusher chooses (R-FEED-5, R-LEAD-5)."""
    while True:
        opts = push_options(rt, hex_id, None, skip_leader)
        if not opts:
            return
        act = yield from ask_action(pusher, "push", f"Push every Kiwi out of {hex_id}", opts)
        yield from do_push(rt, pusher, act, leave_origin=leave_origin)


def push_some(rt: Runtime, pusher: str, hex_id: str, n: int, skip_leader: str | None) -> Generator:
    """Push up to n Kiwi of any size (Leaders included) out of a hex, with a stop option."""
    for _ in range(n):
        opts = push_options(rt, hex_id, None, skip_leader)
        if not opts:
            return
        opts.append(option(A.word("stop"), "Stop pushing"))
        act = yield from ask_action(pusher, "push", f"Push a Kiwi out of {hex_id}?", opts)
        if act.kind == "stop":
            return
        yield from do_push(rt, pusher, act, leave_origin=True)
