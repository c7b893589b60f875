"""Kiwibot's moves and the pushes after them (R-SOLO-10 Move, R-SOLO-11 Moving Kiwi and pushing patterns).

A Solo card segment is read ahead (`plan`) so each move knows the pushes that follow it and whether the
segment's moves gather into one hex or scatter.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from kcd.dsl import ast
from kcd.dsl.registry_solo import MOVES
from kcd.engine import push
from kcd.core.action_types import PushLeader
from kcd.core.board import board_of
from kcd.engine.compose import MAX_AMOUNT
from kcd.engine.context import Ctx, Runtime
from kcd.engine.values import FrameDataError, register_mutable
from kcd.engine.machine import Cont as Entry
from kcd.engine.machine import Call, Cont, Env, While, program
from kcd.engine.selectors import Scope, narrow, quantity
from kcd.modes.solo.marker import marker_order
from kcd.modes.solo.patterns import LeaderMover, best_push, element, push_limit, pushable
from kcd.modes.solo.state import pattern_steps
from kcd.core.state import Kiwi

Mover = Kiwi | LeaderMover
Node = ast.Call | ast.Phrase


@register_mutable("solo.segment")
@dataclass
class Segment:
    """One Solo card segment being resolved: what its moves must do and what they did (R-SOLO-10). Plain data
    (the latest mover by piece id, the pushes' selectors as nodes of the compiled rules), shared by the contexts
    of the segment like `Turn`."""

    pushes: dict[int, list[tuple[ast.Selector, int]]]   # span start of a move -> its pushes: (whose pieces, up to n)
    gather: bool = False
    scatter: bool = False
    dests: list[str] = field(default_factory=list)
    # the latest move: (its hex, the piece id or None for the Leader, its size for pushing, R-LEAD-1)
    last: tuple[str, int | None, int] | None = None
    pushed: int = 0                          # pushes made after the latest move

    def check_data(self, where: str) -> None:
        """A loaded segment holds what `plan` and the moves write (FrameDataError otherwise)."""
        ok = (isinstance(self.pushes, dict) and all(
                  type(k) is int and isinstance(v, list) and all(
                      isinstance(p, (list, tuple)) and len(p) == 2 and isinstance(p[0], ast.Selector)
                      and type(p[1]) is int for p in v) for k, v in self.pushes.items())
              and type(self.gather) is bool and type(self.scatter) is bool
              and isinstance(self.dests, list) and all(type(d) is str for d in self.dests)
              and type(self.pushed) is int and self.pushed >= 0
              and (self.last is None or (isinstance(self.last, tuple) and len(self.last) == 3
                                         and type(self.last[0]) is str and type(self.last[2]) is int
                                         and (self.last[1] is None or type(self.last[1]) is int))))
        if not ok:
            raise FrameDataError(f"{where}: not a Solo card segment")


def segment_of(ctx: Ctx) -> Segment | None:
    """The Kiwibot segment a context resolves (its mode value, `Ctx.mode_ctx`), None outside one."""
    seg = ctx.mode_ctx
    return seg if type(seg) is Segment else None


def _scope(ctx: Ctx, starting: str | None = None, memo: dict[str, Any] | None = None) -> Scope:
    """What a Kiwibot verb's selectors name: `my` is Kiwibot; in a move's destination `the starting hex` is the
    hex the moving piece starts from. `memo`: per-hex counts kept while the state does not change."""
    return Scope(ctx.flock, it=ctx.it, here=ctx.here, starting=starting, memo=memo)


def amount(rt: Runtime, value: Any, ctx: Ctx) -> int:
    """A verb's number: a literal, or a quantity evaluated now (capped like an `int` literal)."""
    if isinstance(value, int):
        return value
    return min(MAX_AMOUNT, quantity(rt.state, value, _scope(ctx)))


def plan(node: Any, rt: Runtime | None = None, ctx: Ctx | None = None) -> Segment:
    """Read a segment ahead: which pushes follow each move (their numbers evaluated now, when they are
    quantities), and whether its moves gather or scatter."""
    seg = Segment({})
    current: int | None = None
    for n in ast.walk(node) if node is not None else ():
        if not isinstance(n, (ast.Call, ast.Phrase)):
            continue
        if n.primitive in MOVES:
            current = n.span.start
            seg.pushes[current] = []
        elif n.primitive == "bot-push" and current is not None:
            up_to = n.arg("n", 1)
            if not isinstance(up_to, int):
                up_to = amount(rt, up_to, ctx) if rt is not None and ctx is not None else 1
            seg.pushes[current].append((n.arg("what"), up_to))
        elif n.primitive == "bot-gather":
            seg.gather = True
        elif n.primitive == "bot-scatter":
            seg.scatter = True
    return seg


def _targets(rt: Runtime, call: Node, ctx: Ctx, origin: str) -> list[str]:
    """The adjacent hexes a move may end in: all of them, or those its destination names, `the starting hex`
    being `origin` (a terrain, the hex where the player or Kiwibot has the most Kiwi tokens ...)."""
    st = rt.state
    adj = board_of(st).adjacent(origin)
    dest = call.arg("dest")
    if dest is None:
        return list(adj)
    # the hexes around one origin are tested on one state: their per-hex counts (`tokens(... in it)`, the
    # `largest` over the origin's neighbours) are computed once (selectors.Scope.memo)
    return [e[1] for e in narrow(st, dest, [("hex", h, h) for h in adj], _scope(ctx, origin, {}))]


def _unmoved(rt: Runtime, ctx: Ctx, order: list[str]) -> list[tuple[str, Mover]]:
    """Kiwibot's pieces that may still move this turn, "first" by the marker (R-MOVE-2/4, R-SOLO-11/12).

    R-LEAD-1/R-MOVE-2: the Leader is a size-3 Kiwi for movement, so the Moving Kiwi pattern considers it too.
    Decision R-SOLO-11: within one hex the Kiwi tokens come first (placement order), the Leader last: it
    anchors the marker search and weighs 3 in its hex's dominance, so Kiwibot moves it only when no token fits.
    """
    st = rt.state
    bot = ctx.flock
    leader = st.flocks[bot].leader_hex
    can_lead = leader is not None and not ctx.turn.leader_moved and not ctx.turn.ability_used
    out: list[tuple[str, Mover]] = []
    for h in order:
        out += [(h, k) for k in st.hexes[h].kiwi if k.flock == bot and k.id not in ctx.turn.moved]
        if can_lead and h == leader:
            out.append((h, LeaderMover(bot, rt.rules.max_size)))
    return out


def choose_move(rt: Runtime, ctx: Ctx, call: Node) -> tuple[str, Mover, str] | None:
    """Kiwibot's move for a move call: the Moving Kiwi pattern, pieces and hexes by the marker (R-SOLO-11/12).

    The pieces the call names are the indicated Kiwi of the pattern's step 1; steps 2-3 take "the first Kiwi (of
    any size)" of Kiwibot's, so the Leader (a size-3 Kiwi for movement, R-LEAD-1) may answer a "size-2" segment
    there. Decisions R-SOLO-11: the indicated hex (the destination) binds every step, step 3 drops the push
    requirement; "can push as indicated" means every indicated push has a piece to push there, step 2 at least
    one; gather / scatter are preferences: kept when some move meets them, dropped otherwise. No step applying
    means no move.
    """
    st = rt.state
    bot = ctx.flock
    seg = segment_of(ctx)
    what = call.arg("what")
    pushes = seg.pushes.get(call.span.start, []) if seg else []
    order = marker_order(st)
    ranks = {h: i for i, h in enumerate(order)}
    unmoved = _unmoved(rt, ctx, order)
    sc = _scope(ctx)
    indicated = [what is not None and bool(narrow(st, what, [element(st, what, h, piece)], sc))
                 for h, piece in unmoved]
    targets: dict[str, list[str]] = {}

    def dests(origin: str) -> list[str]:
        found = targets.get(origin)
        if found is None:
            found = targets[origin] = sorted(_targets(rt, call, ctx, origin), key=lambda h: ranks[h])
        return found

    def can_push(kiwi: Mover, dest: str, need_all: bool) -> bool:
        if not pushes:
            return True
        limit = push_limit(rt, bot, kiwi.size)
        have = [len(pushable(rt, dest, whose, sc, limit, kiwi.id)) >= (n if need_all else 1) for whose, n in pushes]
        return all(have) if need_all else any(have)

    constraints: list[Callable[[str], bool] | None] = [None]
    if seg and seg.dests and seg.gather:
        constraints.insert(0, lambda d: d == seg.dests[0])
    elif seg and seg.dests and seg.scatter:
        constraints.insert(0, lambda d: d not in seg.dests)
    for constraint in constraints:
        for step in pattern_steps(rt, "moving"):
            for i, (origin, kiwi) in enumerate(unmoved):
                if step == "indicated-size-can-push" and not indicated[i]:
                    continue
                for dest in dests(origin):
                    if constraint is not None and not constraint(dest):
                        continue
                    if step == "indicated-size-can-push" and not can_push(kiwi, dest, True):
                        continue
                    if step == "any-size-can-push-one" and not (pushes and can_push(kiwi, dest, False)):
                        continue
                    return origin, kiwi, dest
    return None


def move_now(rt: Runtime, call: Node, ctx: Ctx) -> None:
    """Kiwibot moves one Kiwi (its Leader included, R-LEAD-1) to an adjacent hex (R-SOLO-10: the segment
    resolves once); it asks nothing."""
    found = choose_move(rt, ctx, call)
    seg = segment_of(ctx)
    if seg is not None:
        seg.last, seg.pushed = None, 0
    if found is None:
        rt.emit("kiwibot-cannot-move", ctx.flock, flock=ctx.flock)
        return
    origin, kiwi, dest = found
    if isinstance(kiwi, LeaderMover):
        rt.state.flocks[ctx.flock].leader_hex = dest
        ctx.turn.leader_moved = True   # R-MOVE-4: the Leader moves once per turn
        rt.emit("move-leader", ctx.flock, flock=ctx.flock, hex=origin, to=dest)
    else:
        rt.state.move_kiwi(origin, dest, kiwi.id)
        ctx.turn.moved.add(kiwi.id)   # R-MOVE-4: a Kiwi moves once per turn
        rt.emit("move-kiwi", ctx.flock, flock=ctx.flock, size=kiwi.size, hex=origin, to=dest, kiwi=kiwi.id)
    if seg is not None:
        seg.last = (dest, kiwi.id, kiwi.size)
        seg.dests.append(dest)


def move_frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    """The Kiwibot move verbs as a frame: the move is made at once (nothing is asked)."""
    move_now(rt, call, ctx)
    return None


def _push_more(rt: Runtime, env: Env) -> bool:
    n: int = env["n"]
    return n > 0


def _push_next(rt: Runtime, env: Env) -> Any:
    """One push: a Kiwi pushed at once, a Leader's push a child (it may ask where the Leader lands); no push
    left (none after a move, the pushes' limit reached, nothing to push) ends the pushes (`n` 0)."""
    ctx = env["ctx"]
    seg = segment_of(ctx)
    if seg is None or seg.last is None:
        env["n"] = 0
        return None
    env["n"] -= 1
    if seg.pushed >= rt.rules.push_count:
        env["n"] = 0
        return None
    hex_id, mover_id, mover_size = seg.last
    limit = push_limit(rt, ctx.flock, mover_size)
    found = best_push(rt, hex_id, pushable(rt, hex_id, env["whose"], _scope(ctx), limit, mover_id))
    if found is None:
        env["n"] = 0
        return None
    seg.pushed += 1
    piece, dest = found
    if piece[0] == "leader":
        return push.do_push_frame(ctx.flock, PushLeader(piece[1], hex_id, dest), False)
    push.push_kiwi(rt, ctx.flock, hex_id, piece[1], dest)
    return None


def _check_push(rt: Runtime, env: Env, at: str) -> None:
    """A loaded push names the pieces it pushes by a selector."""
    if type(env["n"]) is not int or env["n"] < 0:
        raise FrameDataError("solo.push: not a Kiwibot push")


# The piece just moved pushes up to n of the smaller pieces the selector `whose` names (R-SOLO-10/11); a Leader
# pushes as the size-3 Kiwi it moved as (R-LEAD-1).
# Decision R-SOLO-10: the pushes after one move never exceed `limits.push` (R-PUSH-1) in total. A pushed Kiwi is
# moved as the very piece chosen (by piece id, never a twin of the mover); a Leader pushed off the island goes to
# an edge hex (R-LEAD-4, push.do_push_frame).
BOT_PUSH = program(
    "solo.push", ("ctx", "whose", "n"), {"ctx": Ctx, "whose": ast.Selector, "n": int},
    While(_push_more, (Call("leader", _push_next),)),
    check=_check_push)


def push_frame(rt: Runtime, call: Node, ctx: Ctx) -> Cont:
    """The Kiwibot push verb as a program."""
    return BOT_PUSH.start(ctx, call.arg("what"), amount(rt, call.arg("n", 1), ctx))


def gather_scatter_frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    """gather / scatter: read ahead by `plan`; nothing to do when reached."""
    return None
