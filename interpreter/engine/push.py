"""Pushing (R-PUSH-1..3, R-LEAD-4/5, R-FEED-5): one Kiwi or Leader at a time, to an adjacent hex or off the island."""
from __future__ import annotations

from typing import Generator

from interpreter.engine.board import board_of
from interpreter.engine.compose import immune, push_limit
from interpreter.engine.context import Runtime
from interpreter.engine.decisions import Option, ask
from interpreter.engine.modifiers import param
from interpreter.engine.placing import find_kiwi, kref, remove_from_hex
from interpreter.engine.state import Kiwi

OFF = "off"


def _targets(rt: Runtime, hex_id: str) -> list[str]:
    b = board_of(rt.state)
    out = b.adjacent(hex_id)
    if b.is_edge(hex_id):
        out = out + [OFF]
    return out


def pieces(rt: Runtime, hex_id: str, max_size: int | None, skip_leader: str | None = None) -> list[tuple[str, str]]:
    """(ref, label) of pushable pieces in a hex: Kiwi (size <= max_size) and Leaders (size-3 Kiwi, R-LEAD-1).

    Tokens covering domain markers are not Kiwi and never pushed (R-DM-3).
    """
    out = []
    shield = immune(rt)   # `<pieces> cannot be pushed` powers
    for k in rt.state.hexes[hex_id].kiwi:
        if (max_size is None or k.size <= max_size) and not (shield and k.id in shield[0]):
            out.append((kref(k.flock, k.size, hex_id), f"{k.flock} size-{k.size} Kiwi"))
    if max_size is None or max_size >= rt.rules.max_size:
        for f in rt.state.leaders_in(hex_id):
            if f != skip_leader and not (shield and f in shield[1]):
                out.append((f"leader-{f}@{hex_id}", f"{f} Leader"))
    return out


def push_options(rt: Runtime, hex_id: str, max_size: int | None, skip_leader: str | None = None) -> list[Option]:
    """Every (piece, destination) push from a hex."""
    opts = []
    seen = set()
    dests = _targets(rt, hex_id)
    for ref, label in pieces(rt, hex_id, max_size, skip_leader):
        if ref in seen:
            continue
        seen.add(ref)
        for d in dests:
            opts.append(Option(f"push:{ref}->{d}", f"Push the {label} {'off the island' if d == OFF else 'to ' + d}"))
    return opts


def do_push(rt: Runtime, pusher: str, option_id: str, *, leave_origin: bool) -> Generator:
    """Carry out a `push:<ref>-><dest>` option; a Leader pushed off is placed on an edge hex by the pusher."""
    ref, dest = option_id.split(":", 1)[1].rsplit("->", 1)
    st = rt.state
    if ref.startswith("leader-"):
        flock, origin = ref[len("leader-"):].rsplit("@", 1)
        if dest == OFF:
            # R-LEAD-4: never removed; the pusher picks any edge hex. R-LEAD-5: a push by an ability must
            # land elsewhere than the origin, so there the origin is excluded.
            edges = [h for h in board_of(st).edge_hexes() if not (leave_origin and h == origin)]
            choice = yield from ask(pusher, "place-leader", f"Place the {flock} Leader on an edge hex",
                                    [Option(f"edge:{flock}->{h}", f"Place the {flock} Leader on {h}") for h in edges])
            dest = choice.rsplit("->", 1)[1]
        st.flocks[flock].leader_hex = dest
        rt.log("push", f"{pusher} pushes the {flock} Leader from {origin} to {dest}", pusher)
        return
    hex_id, kiwi = find_kiwi(rt, ref)
    push_kiwi(rt, pusher, hex_id, kiwi, dest)


def push_kiwi(rt: Runtime, pusher: str, origin: str, kiwi: Kiwi, dest: str) -> None:
    """Move this very Kiwi from its hex to `dest`, or off the island into its owner's Reserve (R-PUSH-2/3)."""
    remove_from_hex(rt, origin, kiwi)
    st = rt.state
    if dest == OFF:
        st.flocks[kiwi.flock].reserve_kiwi += kiwi.size   # R-PUSH-3
        rt.log("push", f"{pusher} pushes a {kiwi.flock} size-{kiwi.size} Kiwi off the island from {origin}", pusher)
    else:
        st.hexes[dest].kiwi.append(kiwi)
        rt.log("push", f"{pusher} pushes a {kiwi.flock} size-{kiwi.size} Kiwi from {origin} to {dest}", pusher)


def after_move(rt: Runtime, flock: str, hex_id: str, mover_size: int, mover_id: int | None,
               mover_leader: bool) -> Generator:
    """R-PUSH-1: the Kiwi that ended its move may push up to `limits.push` smaller Kiwi, one at a time."""
    limit = mover_size if param(rt, flock, "push_same_size") else mover_size - 1   # R-ASYM-5 same size
    if limit < 1:
        return
    for _ in range(push_limit(rt, flock)):
        opts = push_options(rt, hex_id, limit, skip_leader=flock if mover_leader else None)
        if mover_id is not None:
            # the mover does not push itself: drop options naming it when it is the only Kiwi of its kind
            here = rt.state.hexes[hex_id].kiwi
            mover = next((k for k in here if k.id == mover_id), None)
            if mover is not None and not any(k.flock == mover.flock and k.size == mover.size and k.id != mover_id
                                              for k in here):
                own_ref = kref(mover.flock, mover.size, hex_id)
                opts = [o for o in opts if not o.id.startswith(f"push:{own_ref}->")]
        if not opts:
            return
        opts.append(Option("stop", "Stop pushing"))
        choice = yield from ask(flock, "push", f"Push a smaller Kiwi out of {hex_id}?", opts)
        if choice == "stop":
            return
        yield from _push_not_mover(rt, flock, choice, mover_id)


def _push_not_mover(rt: Runtime, flock: str, choice: str, mover_id: int | None) -> Generator:
    """Push, making sure the mover itself is never the Kiwi taken when twins stand in the hex."""
    ref = choice.split(":", 1)[1].rsplit("->", 1)[0]
    if mover_id is not None and not ref.startswith("leader-"):
        hex_id = ref.rsplit("@", 1)[1]
        lst = rt.state.hexes[hex_id].kiwi
        # move the mover to the end so find_kiwi picks a twin first
        for i, k in enumerate(lst):
            if k.id == mover_id:
                lst.append(lst.pop(i))
                break
    yield from do_push(rt, flock, choice, leave_origin=False)


def push_all(rt: Runtime, pusher: str, hex_id: str, skip_leader: str | None, leave_origin: bool) -> Generator:
    """Push every Kiwi and Leader out of a hex, one at a time, each where the pusher chooses (R-FEED-5, R-LEAD-5)."""
    while True:
        opts = push_options(rt, hex_id, None, skip_leader)
        if not opts:
            return
        choice = yield from ask(pusher, "push", f"Push every Kiwi out of {hex_id}", opts)
        yield from do_push(rt, pusher, choice, leave_origin=leave_origin)


def push_some(rt: Runtime, pusher: str, hex_id: str, n: int, skip_leader: str | None) -> Generator:
    """Push up to n Kiwi of any size (Leaders included) out of a hex, with a stop option."""
    for _ in range(n):
        opts = push_options(rt, hex_id, None, skip_leader)
        if not opts:
            return
        opts.append(Option("stop", "Stop pushing"))
        choice = yield from ask(pusher, "push", f"Push a Kiwi out of {hex_id}?", opts)
        if choice == "stop":
            return
        yield from do_push(rt, pusher, choice, leave_origin=True)
