"""Pushing (R-PUSH-1..3, R-LEAD-4/5, R-FEED-5): one Kiwi or Leader at a time, to an adjacent hex or off the island."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

from kcd.engine.board import board_of
from kcd.engine.context import Runtime
from kcd.engine import action_types as A
from kcd.engine.decisions import Option, Steps, Text, option, shared_option
from kcd.engine.frames import Ask, Call, Frame, FrameDataError, Signal, drive, register_frame, RETURN
from kcd.engine.modifiers import param
from kcd.engine.placing import kiwi_of, remove_from_hex
from kcd.engine.powers import immune, push_limit
from kcd.engine.state import Kiwi

OFF = "off"


def _targets(rt: Runtime, hex_id: str) -> list[str]:
    b = board_of(rt.state)
    out = b.adjacent(hex_id)
    if b.is_edge(hex_id):
        out = out + [OFF]
    return out


def pieces(rt: Runtime, hex_id: str, max_size: int | None, skip_leader: str | None = None,
           mover: int | None = None, cause: str | None = None) -> list[tuple[Kiwi | str, Text]]:
    """(Kiwi or Leader's flock, its name as a decisions.Text) of pushable pieces in a hex: Kiwi (size <= max_size)
    and Leaders (size-3 Kiwi, R-LEAD-1), in the hex's order; identical Kiwi (same flock and size) once, as the first
    of them that is not the `mover` (the Kiwi that pushes never pushes itself), placed where the first of them stands.

    Tokens covering domain markers are not Kiwi and never pushed (R-DM-3). `cause` (abilities, moves, explosions,
    effects): what pushes, for the `cannot be pushed by <cause>` powers.
    """
    kiwi: list[tuple[Kiwi, Text]] = []
    slot: dict[tuple[str, int], int] = {}
    shield = immune(rt, cause)   # `<pieces> cannot be pushed` powers
    for k in rt.state.hexes[hex_id].kiwi:
        if (max_size is not None and k.size > max_size) or (shield and k.id in shield[0]):
            continue
        key = (k.flock, k.size)
        if key not in slot:
            slot[key] = len(kiwi)
            kiwi.append((k, ("{} size-{} Kiwi", (k.flock, k.size))))
        elif kiwi[slot[key]][0].id == mover:   # a twin of the mover stands in for it
            kiwi[slot[key]] = (k, kiwi[slot[key]][1])
    out: list[tuple[Kiwi | str, Text]] = [(k, label) for k, label in kiwi if k.id != mover]
    if max_size is None or max_size >= rt.rules.max_size:
        for f in rt.state.leaders_in(hex_id):
            if f != skip_leader and not (shield and f in shield[1]):
                out.append((f, ("{} Leader", (f,))))
    return out


def push_options(rt: Runtime, hex_id: str, max_size: int | None, skip_leader: str | None = None,
                 mover: int | None = None, cause: str | None = None) -> list[Option]:
    """Every (piece, destination) push from a hex (never the `mover` Kiwi itself, never to the hex itself: R-LEAD-5,
    R-PUSH-1 "to an adjacent hex"); `cause` as `pieces`."""
    opts: list[Option[A.Action]] = []
    dests = _targets(rt, hex_id)
    for piece, _ in pieces(rt, hex_id, max_size, skip_leader, mover, cause):
        for d in dests:
            if isinstance(piece, str):
                values: tuple = (piece, hex_id, d)
                opts.append(shared_option(A.PushLeader, values, (_PUSH_LEADER_OFF if d == OFF else _PUSH_LEADER, values)))
            else:
                values = (piece.id, piece.flock, piece.size, hex_id, d)
                opts.append(shared_option(A.PushKiwi, values, (_PUSH_KIWI_OFF if d == OFF else _PUSH_KIWI, values)))
    return opts


# labels as templates of the actions' values, formatted only when read (decisions.Text)
_PUSH_KIWI = "Push the {1} size-{2} Kiwi to {4}"
_PUSH_KIWI_OFF = "Push the {1} size-{2} Kiwi off the island"
_PUSH_LEADER = "Push the {0} Leader to {2}"
_PUSH_LEADER_OFF = "Push the {0} Leader off the island"


def _edge_ask(rt: Runtime, pusher: str, action: A.PushLeader, leave_origin: bool) -> Ask:
    """R-LEAD-4: a Leader pushed off is never removed; the pusher picks any edge hex. R-LEAD-5: a push by an
    ability must land elsewhere than the origin, so there the origin is excluded."""
    flock, origin = action.flock, action.hex
    edges = [h for h in board_of(rt.state).edge_hexes() if not (leave_origin and h == origin)]
    return Ask(pusher, "place-leader", cast(str, ("Place the {} Leader on an edge hex", (flock,))),
               [option(A.Edge(flock, h), ("Place the {} Leader on {}", (flock, h))) for h in edges])


def _leader_to(rt: Runtime, pusher: str, action: A.PushLeader, dest: str) -> None:
    """The pushed Leader lands on `dest`."""
    rt.state.flocks[action.flock].leader_hex = dest
    rt.emit("push-leader", pusher, flock=pusher, leader=action.flock, hex=action.hex, to=dest)


@register_frame("push.do")
@dataclass(eq=False)
class DoPushFrame(Frame):
    """Carry out a push action; a Leader pushed off is placed on an edge hex by the pusher."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"place-leader": ("edge",)}}
    pusher: str
    action: Any
    leave_origin: bool
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: push (or ask where a Leader pushed off lands); 1: it lands there."""
        action = self.action
        if self.pc == 1:
            _leader_to(rt, self.pusher, action, value.to)
            return RETURN
        if isinstance(action, A.PushLeader):
            if action.to == OFF:
                self.pc = 1
                return _edge_ask(rt, self.pusher, action, self.leave_origin)
            _leader_to(rt, self.pusher, action, action.to)
            return RETURN
        hex_id, kiwi = kiwi_of(rt, action)
        push_kiwi(rt, self.pusher, hex_id, kiwi, action.to)
        return RETURN

    def check(self, rt: Runtime) -> None:
        """A loaded push names hexes of the island."""
        hexes = rt.state.hexes
        if getattr(self.action, 'hex', None) not in hexes or self.action.kind not in ('push', 'push-leader'):
            raise FrameDataError("push.do: not a hex of the island or not a push")


def do_push(rt: Runtime, pusher: str, action: A.Action, *, leave_origin: bool) -> Steps[Any]:
    """Carry out a push action; a Leader pushed off is placed on an edge hex by the pusher (DoPushFrame)."""
    return (yield from drive(rt, DoPushFrame(pusher, action, leave_origin)))


def push_kiwi(rt: Runtime, pusher: str, origin: str, kiwi: Kiwi, dest: str) -> None:
    """Move this very Kiwi from its hex to `dest`, or off the island into its owner's Reserve (R-PUSH-2/3)."""
    st = rt.state
    kiwi = st.remove_kiwi(origin, kiwi.id)
    if dest == OFF:
        st.flocks[kiwi.flock].reserve_kiwi += kiwi.size   # R-PUSH-3
        rt.emit("push-off", pusher, flock=pusher, owner=kiwi.flock, size=kiwi.size, hex=origin, kiwi=kiwi.id)
    else:
        st.add_kiwi(dest, kiwi)
        rt.emit("push", pusher, flock=pusher, owner=kiwi.flock, size=kiwi.size, hex=origin, to=dest, kiwi=kiwi.id)


def push_reach(rt: Runtime, flock: str, mover_size: int, mover: tuple | None = None, during: tuple = ()) -> int:
    """The largest size a mover of `mover_size` may push: one less (R-PUSH-1), the same under R-ASYM-5, any size
    under `can push kiwi of any size`, when a modifier names the mover (`mover`: `("kiwi", id)` / `("leader", flock)`;
    None: any modifier of the flock); `during`: the modifiers of the `this action:` the move is made in."""
    mods = rt.modifiers(flock)
    if (during or "m-push-any" in mods) and param(rt, flock, "push_any_size", mover, during):
        return rt.rules.max_size
    same = (during or "m-push-same" in mods) and param(rt, flock, "push_same_size", mover, during)
    return mover_size if same else mover_size - 1


def after_move_frame(rt: Runtime, flock: str, hex_id: str, mover_size: int, mover_id: int | None,
                     mover_leader: bool, during: tuple = ()) -> "AfterMoveFrame | None":
    """The pushes after a move (AfterMoveFrame), or None when the mover may push nothing (a size-1 Kiwi). Under a
    `this action:` (`during`) what the mover may push is read now, with those modifiers."""
    if push_reach(rt, flock, mover_size, None, during) < 1:
        return None
    frame = AfterMoveFrame(flock, hex_id, mover_size, mover_id, mover_leader)
    if during:
        mover = ("leader", flock) if mover_leader else ("kiwi", mover_id)
        frame.limit = push_reach(rt, flock, mover_size, mover, during)
        frame.left = push_limit(rt, flock, mover, during)
    return frame


@register_frame("push.after_move")
@dataclass(eq=False)
class AfterMoveFrame(Frame):
    """R-PUSH-1: the Kiwi that ended its move may push up to `limits.push` smaller Kiwi, one at a time. The mover
    never pushes itself: the options name its twin, if it has one, by piece id."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"push": ("push", "push-leader", "stop")}}
    flock: str
    hex: str
    mover_size: int
    mover_id: int | None
    mover_leader: bool
    limit: int = -1      # the largest size it may push, read when it starts (R-ASYM-5 same size)
    left: int = 0        # pushes left (`push limit N`, else limits.push)
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start; 1: the answer (stop, or a push); 2: a Leader's push is done: the next one."""
        flock = self.flock
        if self.pc == 0:
            if self.limit < 0:   # (after_move_frame read it already under a `this action:`)
                mover = ("leader", flock) if self.mover_leader else ("kiwi", self.mover_id)   # what a modifier names
                self.limit = push_reach(rt, flock, self.mover_size, mover)
                self.left = push_limit(rt, flock, mover)
            if self.limit < 1:
                return RETURN
        elif self.pc == 1:
            if value.kind == "stop":
                return RETURN
            if value.kind == "push-leader":
                self.pc = 2
                return Call(DoPushFrame(flock, value, False))
            hex_id, kiwi = kiwi_of(rt, value)
            push_kiwi(rt, flock, hex_id, kiwi, value.to)
        if self.left <= 0:
            return RETURN
        self.left -= 1
        opts = push_options(rt, self.hex, self.limit, skip_leader=flock if self.mover_leader else None,
                            mover=self.mover_id, cause="moves")
        if not opts:
            return RETURN
        opts.append(option(A.word("stop"), "Stop pushing"))
        self.pc = 1
        return Ask(flock, "push", cast(str, ("Push a smaller Kiwi out of {}?", (self.hex,))), opts)

    def check(self, rt: Runtime) -> None:
        """A loaded push after a move names hexes of the island and its mover stands there."""
        hexes = rt.state.hexes
        if self.hex not in hexes or (self.mover_id is not None
                                     and all(k.id != self.mover_id for k in hexes[self.hex].kiwi)):
            raise FrameDataError("push.after_move: not a hex of the island or the mover is not on it")


def after_move(rt: Runtime, flock: str, hex_id: str, mover_size: int, mover_id: int | None,
               mover_leader: bool) -> Steps[Any]:
    """R-PUSH-1: the Kiwi that ended its move may push up to `limits.push` smaller Kiwi, one at a time."""
    return (yield from drive(rt, AfterMoveFrame(flock, hex_id, mover_size, mover_id, mover_leader)))


@register_frame("push.all")
@dataclass(eq=False)
class PushAllFrame(Frame):
    """Push every Kiwi and Leader out of a hex, one at a time, each where the pusher chooses (R-FEED-5, R-LEAD-5)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"push": ("push", "push-leader")}}
    pusher: str
    hex: str
    skip_leader: str | None
    leave_origin: bool
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the next push; 1: push it; 2: a Leader's push is done."""
        if self.pc == 1:
            self.pc = 2
            return Call(DoPushFrame(self.pusher, value, self.leave_origin))
        opts = push_options(rt, self.hex, None, self.skip_leader, cause="explosions")   # only R-FEED-5 pushes all
        if not opts:
            return RETURN
        self.pc = 1
        return Ask(self.pusher, "push", cast(str, ("Push every Kiwi out of {}", (self.hex,))), opts)

    def check(self, rt: Runtime) -> None:
        """A loaded push names hexes of the island."""
        hexes = rt.state.hexes
        if self.hex not in hexes:
            raise FrameDataError("push.all: not a hex of the island")


def push_all(rt: Runtime, pusher: str, hex_id: str, skip_leader: str | None, leave_origin: bool) -> Steps[Any]:
    """Push every Kiwi and Leader out of a hex, one at a time, each where the pusher chooses (PushAllFrame)."""
    return (yield from drive(rt, PushAllFrame(pusher, hex_id, skip_leader, leave_origin)))


@register_frame("push.some")
@dataclass(eq=False)
class PushSomeFrame(Frame):
    """Push up to n Kiwi of any size (Leaders included) out of a hex, with a stop option."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"push": ("push", "push-leader", "stop")}}
    pusher: str
    hex: str
    n: int
    skip_leader: str | None
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the next push; 1: stop, or push it; 2: that push is done."""
        if self.pc == 1:
            if value.kind == "stop":
                return RETURN
            self.pc = 2
            return Call(DoPushFrame(self.pusher, value, True))
        if self.n <= 0:
            return RETURN
        self.n -= 1
        opts = push_options(rt, self.hex, None, self.skip_leader)
        if not opts:
            return RETURN
        opts.append(option(A.word("stop"), "Stop pushing"))
        self.pc = 1
        return Ask(self.pusher, "push", cast(str, ("Push a Kiwi out of {}?", (self.hex,))), opts)

    def check(self, rt: Runtime) -> None:
        """A loaded push names hexes of the island."""
        hexes = rt.state.hexes
        if self.hex not in hexes:
            raise FrameDataError("push.some: not a hex of the island")


def push_some(rt: Runtime, pusher: str, hex_id: str, n: int, skip_leader: str | None) -> Steps[Any]:
    """Push up to n Kiwi of any size (Leaders included) out of a hex, with a stop option (PushSomeFrame)."""
    return (yield from drive(rt, PushSomeFrame(pusher, hex_id, n, skip_leader)))
