"""Pushing (R-PUSH-1..3, R-LEAD-4/5, R-FEED-5): one Kiwi or Leader at a time, to an adjacent hex or off the island."""
from __future__ import annotations

from typing import Any, cast

from kcd.core.board import board_of
from kcd.dsl import ast
from kcd.engine.context import Runtime
from kcd.core import action_types as A
from kcd.core.decisions import Option, Text, option, shared_option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Do, Env, Jump, Label, Question, program
from kcd.engine.modifiers import param
from kcd.engine.placing import kiwi_of, remove_from_hex
from kcd.engine.powers import immune, push_limit
from kcd.core.state import Kiwi

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
                 mover: int | None = None, cause: str | None = None) -> list[Option[Any]]:
    """Every (piece, destination) push from a hex (never the `mover` Kiwi itself, never to the hex itself: R-LEAD-5,
    R-PUSH-1 "to an adjacent hex"); `cause` as `pieces`."""
    # returned as Option[Any]: callers append a stop option to the list, and read a PushKiwi's or PushLeader's
    # fields off its options
    opts: list[Option[A.Action]] = []
    dests = _targets(rt, hex_id)
    for piece, _ in pieces(rt, hex_id, max_size, skip_leader, mover, cause):
        for d in dests:
            if isinstance(piece, str):
                values: tuple[Any, ...] = (piece, hex_id, d)
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


def _edge_ask(rt: Runtime, pusher: str, action: A.PushLeader, leave_origin: bool) -> Question:
    """R-LEAD-4: a Leader pushed off is never removed; the pusher picks any edge hex. R-LEAD-5: a push by an
    ability must land elsewhere than the origin, so there the origin is excluded."""
    flock, origin = action.flock, action.hex
    edges = [h for h in board_of(rt.state).edge_hexes() if not (leave_origin and h == origin)]
    return Question(pusher, "place-leader", cast(str, ("Place the {} Leader on an edge hex", (flock,))),
                    [option(A.Edge(flock, h), ("Place the {} Leader on {}", (flock, h))) for h in edges])


def _leader_to(rt: Runtime, pusher: str, action: A.PushLeader, dest: str) -> None:
    """The pushed Leader lands on `dest`."""
    rt.state.flocks[action.flock].leader_hex = dest
    rt.emit("push-leader", pusher, flock=pusher, leader=action.flock, hex=action.hex, to=dest)


# --- carrying out a push action; a Leader pushed off is placed on an edge hex by the pusher ------------------
def _push_or_ask_edge(rt: Runtime, env: Env) -> Question | None:
    """Where a Leader pushed off the island lands; any other push is carried out at once (None: nothing to
    ask)."""
    pusher, action = env["pusher"], env["action"]
    if isinstance(action, A.PushLeader):
        if action.to == OFF:
            return _edge_ask(rt, pusher, action, env["leave_origin"])
        _leader_to(rt, pusher, action, action.to)
        return None
    hex_id, kiwi = kiwi_of(rt, action)
    push_kiwi(rt, pusher, hex_id, kiwi, action.to)
    return None


def _to_edge(rt: Runtime, env: Env) -> None:
    _leader_to(rt, env["pusher"], env["action"], env.pop("edge").to)


def _check_do(rt: Runtime, env: Env, at: str) -> None:
    """A loaded push names hexes of the island."""
    action = env["action"]
    if getattr(action, 'hex', None) not in rt.state.hexes or action.kind not in ('push', 'push-leader'):
        raise FrameDataError("push.do: not a hex of the island or not a push")


DO_PUSH = program(
    "push.do", ("pusher", "action", "leave_origin"),
    {"pusher": str, "action": A.Action, "leave_origin": bool, "edge": A.Edge},
    Ask("edge", _push_or_ask_edge, into="edge", kinds={"place-leader": ("edge",)}, otherwise="end"),
    Do(_to_edge),
    Label("end"),
    check=_check_do)


def do_push_frame(pusher: str, action: A.Action, leave_origin: bool) -> Cont:
    """The continuation carrying out a push action (a Leader pushed off: the pusher places it on an edge hex)."""
    return DO_PUSH.start(pusher, action, leave_origin)


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


def push_reach(rt: Runtime, flock: str, mover_size: int, mover: tuple[str, Any] | None = None,
               during: tuple[ast.Call, ...] = ()) -> int:
    """The largest size a mover of `mover_size` may push: one less (R-PUSH-1), the same under R-ASYM-5, any size
    under `can push kiwi of any size`, when a modifier names the mover (`mover`: `("kiwi", id)` / `("leader", flock)`;
    None: any modifier of the flock); `during`: the modifiers of the `this action:` the move is made in."""
    mods = rt.modifiers(flock)
    if (during or "m-push-any" in mods) and param(rt, flock, "push_any_size", mover, during):
        return rt.rules.max_size
    same = (during or "m-push-same" in mods) and param(rt, flock, "push_same_size", mover, during)
    return mover_size if same else mover_size - 1


def after_move_frame(rt: Runtime, flock: str, hex_id: str, mover_size: int, mover_id: int | None,
                     mover_leader: bool, during: tuple[ast.Call, ...] = ()) -> Cont | None:
    """The pushes after a move (the program push.after_move), or None when the mover may push nothing (a size-1
    Kiwi). What the mover may push (R-ASYM-5 same size) and how many pushes (`push limit N`, else limits.push) are
    read now, under a `this action:` (`during`) with its modifiers."""
    if push_reach(rt, flock, mover_size, None, during) < 1:
        return None
    mover = ("leader", flock) if mover_leader else ("kiwi", mover_id)   # what a modifier names
    # (the env built at once: the program has more parameters than `start` binds fastest)
    return Cont(AFTER_MOVE, {"flock": flock, "hex": hex_id, "mover_id": mover_id, "mover_leader": mover_leader,
                             "limit": push_reach(rt, flock, mover_size, mover, during),
                             "left": push_limit(rt, flock, mover, during)})


# --- R-PUSH-1: the Kiwi that ended its move may push up to `limits.push` smaller Kiwi, one at a time. The mover
# never pushes itself: the options name its twin, if it has one, by piece id ------------------------------------
def _ask_push_after(rt: Runtime, env: Env) -> Question | None:
    """The next push, or stop (None: it may push nothing, no push is left, or nothing can be pushed)."""
    limit, left = env["limit"], env["left"]
    if limit < 1 or left <= 0:
        return None
    env["left"] = left - 1
    flock, hex_id = env["flock"], env["hex"]
    opts = push_options(rt, hex_id, limit, skip_leader=flock if env["mover_leader"] else None,
                        mover=env["mover_id"], cause="moves")
    if not opts:
        return None
    opts.append(option(A.word("stop"), "Stop pushing"))
    return Question(flock, "push", cast(str, ("Push a smaller Kiwi out of {}?", (hex_id,))), opts)


def _push_after(rt: Runtime, env: Env) -> Cont | None:
    """Push the piece chosen: a Kiwi at once, a Leader as push.do (it may ask where it lands). Stopping leaves no
    push (None: nothing to call)."""
    value = env.pop("push")
    flock = env["flock"]
    if value.kind == "stop":
        env["left"] = 0
        return None
    if value.kind == "push-leader":
        return DO_PUSH.start(flock, value, False)
    hex_id, kiwi = kiwi_of(rt, value)
    push_kiwi(rt, flock, hex_id, kiwi, value.to)
    return None


def _check_after_move(rt: Runtime, env: Env, at: str) -> None:
    """A loaded push after a move names hexes of the island and its mover stands there."""
    hexes = rt.state.hexes
    hex_id, mover_id = env["hex"], env["mover_id"]
    if hex_id not in hexes or (mover_id is not None and all(k.id != mover_id for k in hexes[hex_id].kiwi)):
        raise FrameDataError("push.after_move: not a hex of the island or the mover is not on it")


AFTER_MOVE = program(
    "push.after_move", ("flock", "hex", "mover_id", "mover_leader", "limit", "left"),
    {"flock": str, "hex": str, "mover_id": (int, type(None)), "mover_leader": bool, "limit": int, "left": int,
     "push": A.Action},
    Label("next"),
    Ask("push", _ask_push_after, into="push", kinds={"push": ("push", "push-leader", "stop")}, otherwise="end"),
    Call("pushed", _push_after),
    Jump("next"),
    Label("end"),
    check=_check_after_move)


# --- push every Kiwi and Leader out of a hex, one at a time, each where the pusher chooses (R-FEED-5, R-LEAD-5) --
def _ask_push_all(rt: Runtime, env: Env) -> Question | None:
    """The next piece to push (None: the hex is empty of what can be pushed)."""
    hex_id = env["hex"]
    opts = push_options(rt, hex_id, None, env["skip_leader"], cause="explosions")   # only R-FEED-5 pushes all
    if not opts:
        return None
    return Question(env["pusher"], "push", cast(str, ("Push every Kiwi out of {}", (hex_id,))), opts)


def _push_one_of_all(rt: Runtime, env: Env) -> Cont:
    return DO_PUSH.start(env["pusher"], env.pop("push"), env["leave_origin"])


def _check_push_all(rt: Runtime, env: Env, at: str) -> None:
    """A loaded push names hexes of the island."""
    if env["hex"] not in rt.state.hexes:
        raise FrameDataError("push.all: not a hex of the island")


PUSH_ALL = program(
    "push.all", ("pusher", "hex", "skip_leader", "leave_origin"),
    {"pusher": str, "hex": str, "skip_leader": (str, type(None)), "leave_origin": bool, "push": A.Action},
    Label("next"),
    Ask("push", _ask_push_all, into="push", kinds={"push": ("push", "push-leader")}, otherwise="end"),
    Call("pushed", _push_one_of_all),
    Jump("next"),
    Label("end"),
    check=_check_push_all)


def push_all_frame(pusher: str, hex_id: str, skip_leader: str | None, leave_origin: bool) -> Cont:
    """The continuation pushing every Kiwi and Leader out of a hex, each where the pusher chooses (R-FEED-5)."""
    return PUSH_ALL.start(pusher, hex_id, skip_leader, leave_origin)


# --- push up to n Kiwi of any size (Leaders included) out of a hex, with a stop option ---------------------------
def _check_push_some(rt: Runtime, env: Env, at: str) -> None:
    """A loaded push names hexes of the island."""
    if env["hex"] not in rt.state.hexes:
        raise FrameDataError("push.some: not a hex of the island")


def _ask_push_some(rt: Runtime, env: Env) -> Question | None:
    """The next push, or stop (None: n pushed, or nothing can be pushed)."""
    n = env["n"]
    if n <= 0:
        return None
    env["n"] = n - 1
    hex_id = env["hex"]
    opts = push_options(rt, hex_id, None, env["skip_leader"])
    if not opts:
        return None
    opts.append(option(A.word("stop"), "Stop pushing"))
    return Question(env["pusher"], "push", cast(str, ("Push a Kiwi out of {}?", (hex_id,))), opts)


def _push_some_chosen(rt: Runtime, env: Env) -> Cont | None:
    """The push chosen, as push.do; stopping leaves no push (None: nothing to call)."""
    value = env.pop("push")
    if value.kind == "stop":
        env["n"] = 0
        return None
    return DO_PUSH.start(env["pusher"], value, True)


PUSH_SOME = program(
    "push.some", ("pusher", "hex", "n", "skip_leader"),
    {"pusher": str, "hex": str, "n": int, "skip_leader": (str, type(None)), "push": A.Action},
    Label("next"),
    Ask("push", _ask_push_some, into="push", kinds={"push": ("push", "push-leader", "stop")}, otherwise="end"),
    Call("pushed", _push_some_chosen),
    Jump("next"),
    Label("end"),
    check=_check_push_some)
