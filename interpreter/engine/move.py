"""Move actions (R-MOVE-1..4), the Leader's ability as a Move action (R-LEAD-2/5) and the leader verbs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, cast

from kcd.dsl import ast
from kcd.dsl.types import LEADER_MOVES
from kcd.engine import effects, payment, powers, push
from kcd.engine.board import board_of
from kcd.engine.context import Ability, Ctx, EngineError, Runtime
from kcd.engine import action_types as A
from kcd.engine.decisions import Option, Steps, lazy_option, option, shared_option_caches
from kcd.engine.frames import (Ask, Call, Done, Frame, FrameDataError, Return, Signal, drive, register_frame,
                                       RETURN)
from kcd.engine.placing import kiwi_of, verb_procedure
from kcd.engine.verb_table import TABLE, count
from kcd.memo import per_object


def _first_call(node) -> ast.Call | None:
    while isinstance(node, ast.Seq):
        if not node.stmts:
            return None
        node = node.stmts[0]
    return node if isinstance(node, ast.Call) else None


def ability_possible(rt: Runtime, flock: str, ability: ast.Node | None) -> bool:
    """Can the Leader's ability be used now (its leader move has a legal destination)?"""
    fl = rt.state.flocks[flock]
    if ability is None or fl.leader_hex is None:
        return False
    call = _first_call(ability)
    if call is None:
        first = ability.stmts[0] if isinstance(ability, ast.Seq) and ability.stmts else ability
        if isinstance(first, ast.Phrase):   # `leader jumps to <hexes>`
            return powers.ability_possible(rt, flock, first)
        return True
    b = board_of(rt.state)
    n = int(call.arg("n", 1) or 1)
    return _leader_reach(b, call.primitive or "", fl.leader_hex, n)


# (id(board), leader verb, hex, n) -> (board, whether the Leader has a destination): geometry only, and a Move
# decision asks it every time (the entry keeps its board, so the id is not reused while cached)
_REACH: dict[tuple[int, str, str, int], tuple[Any, bool]] = {}


def _leader_reach(b: Any, primitive: str, hex_id: str, n: int) -> bool:
    """Whether a leader move verb has a legal destination from `hex_id` on the island `b`."""
    key = (id(b), primitive, hex_id, n)
    hit = _REACH.get(key)
    if hit is not None and hit[0] is b:
        return hit[1]
    if primitive == "leader-straight":
        ok = any(b.line(hex_id, d, n) for d in range(6))
    elif primitive == "leader-walk":
        ok = bool(b.adjacent(hex_id))
    elif primitive == "leader-jump":
        ok = any(b.distance(hex_id, h) == n for h in b.coords)
    else:
        ok = True
    if len(_REACH) >= 10_000:
        _REACH.clear()
    _REACH[key] = (b, ok)
    return ok


# option labels as templates, formatted only when a label is read (decisions.Text): a Move decision offers dozens
_MOVE_KIWI = "Move your size-{2} Kiwi from {3} to {4}"    # formatted with the MoveKiwi values
_MOVE_LEADER = "Move your Leader from {} to {}"
_LEADER_TO = "Leader to {}"
_STEP = "Leader steps to {}"


# (id(board), Kiwi id, flock, size, hex) -> (board, that Kiwi's Move options to each neighbour). An option is a
# value (frozen; its label and action are built once, when first read, the same for every reader) and the same Kiwi
# offers the same moves turn after turn and game after game, so they are built once: this loop made most of a
# random game's options, and making and freeing them was 7% of its instructions. The entry keeps its board, so the
# id is not reused while cached; bounded: started again when full.
_HOPS = shared_option_caches.new(5_000)


def _kiwi_hops(key: tuple, b: Any) -> tuple[Option, ...]:
    """The Move options of one Kiwi (`_HOPS`'s key) to each hex adjacent to it on the island `b`, kept in `_HOPS`."""
    _, kid, flock, size, hid = key
    kind = A.MoveKiwi
    prefix = kind.id_of(kid, flock, size, hid, "")   # the id ends with the destination (`...->A4`)
    hops: list[Option] = []
    for d in b.adj[hid]:
        values = (kid, flock, size, hid, d)
        # lazy_option(kind, values, label) written out; the label is a Text (decisions.Text), built when read
        hops.append(Option(prefix + d, (_MOVE_KIWI, values), (kind, values)))
    out = tuple(hops)
    shared_option_caches.keep(_HOPS, key, (b, out))
    return out


def move_options(rt: Runtime, ctx: Ctx) -> list[Option]:
    """All legal Move actions for the flock this turn (R-MOVE-2, R-MOVE-4)."""
    st = rt.state
    flock = ctx.flock
    fl = st.flocks[flock]
    b = board_of(st)
    opts: list[Option] = []
    add = opts.append
    extend = opts.extend
    moved = ctx.turn.moved
    board_id = id(b)
    for h in st.hexes.values():
        if not h.kiwi:
            continue
        sizes: list[int] | None = None   # sizes offered from this hex: twins (same flock and size) are one choice
        for k in h.kiwi:
            if k.flock != flock or k.id in moved:
                continue
            size = k.size
            if sizes is None:
                sizes = [size]
            elif size in sizes:
                continue
            else:
                sizes.append(size)
            key = (board_id, k.id, flock, size, h.id)
            hit = _HOPS.get(key)
            extend(hit[1] if hit is not None and hit[0] is b else _kiwi_hops(key, b))
    if fl.leader_hex is not None and not ctx.turn.leader_moved and not ctx.turn.ability_used:
        leader_kind, leader_hex = A.MoveLeader, fl.leader_hex
        leader_id = leader_kind.id_of
        for d in b.adjacent(leader_hex):
            hop = (leader_hex, d)   # lazy_option written out, as for the Kiwi above
            add(Option(leader_id(leader_hex, d), (_MOVE_LEADER, hop), (leader_kind, hop)))
        ability = rt.rules.leader_ability(fl.leader_card)
        if not fl.leader_used and ability_possible(rt, flock, ability):
            opts.append(option(A.word("ability"), "Use your Leader's ability"))
    return opts


def can_move(rt: Runtime, ctx: Ctx) -> bool:
    """Fast check that some Move action exists (same rules as `move_options`)."""
    st = rt.state
    b = board_of(st)
    fl = st.flocks[ctx.flock]
    if (fl.leader_hex is not None and not ctx.turn.leader_moved and not ctx.turn.ability_used
            and b.adjacent(fl.leader_hex)):
        return True
    for h in st.hexes.values():
        for k in h.kiwi:
            if k.flock == ctx.flock and k.id not in ctx.turn.moved and b.adjacent(h.id):
                return True
    return False


@register_frame("move.action")
@dataclass(eq=False)
class MoveActionFrame(Frame):
    """One Move action: move an unmoved Kiwi (then push) or use the Leader's ability. Returns False if none was
    possible (or, when not `mandatory`, the player stopped)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"move": ("move", "move-leader", "ability", "stop")}}
    ctx: Ctx
    mandatory: bool = True
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask; 1: carry out the answer; 2: its pushes or ability are done."""
        ctx = self.ctx
        if self.pc == 2:
            return Return(True)
        if self.pc == 0:
            opts = move_options(rt, ctx)
            if not opts:
                return Return(False)
            if not self.mandatory:
                opts.append(option(A.word("stop"), "Stop moving"))
            self.pc = 1
            return Ask(ctx.flock, "move", "Take a Move action", opts)
        act = value
        if act.kind == "stop":
            return Return(False)
        st = rt.state
        flock = ctx.flock
        self.pc = 2
        if act.kind == "ability":
            fl = st.flocks[flock]
            assert fl.leader_hex is not None   # the ability was offered because the Leader is on the island
            fl.leader_used = True           # R-LEAD-2: flip the card
            ctx.turn.ability_used = True    # R-MOVE-4
            rt.emit("ability", flock, flock=flock)
            ability = rt.rules.leader_ability(fl.leader_card)
            # a card whose `exceptions` set R-LEAD-5 aside may not move the Leader: it lands where it stands
            stays = None if _moves_leader(ability) else fl.leader_hex
            sub = ctx.sub(ability=Ability(start=fl.leader_hex, landing=stays), depth=ctx.depth + 1,
                          source="leader ability")
            return Call(effects.run_frame(rt, ability, sub))
        dest = act.to
        if isinstance(act, A.MoveLeader):
            st.flocks[flock].leader_hex = dest
            ctx.turn.leader_moved = True
            rt.emit("move-leader", flock, flock=flock, hex=act.hex, to=dest)
            # R-LEAD-1: the Leader moves as a size-3 Kiwi, so it may push like one
            pushes = push.after_move_frame(rt, flock, dest, rt.rules.max_size, None, True, ctx.during or ())
            return Return(True) if pushes is None else Call(pushes)
        hex_id, kiwi = kiwi_of(rt, act)
        st.move_kiwi(hex_id, dest, kiwi.id)
        ctx.turn.moved.add(kiwi.id)
        rt.emit("move-kiwi", flock, flock=flock, size=kiwi.size, hex=hex_id, to=dest, kiwi=kiwi.id)
        pushes = push.after_move_frame(rt, flock, dest, kiwi.size, kiwi.id, False, ctx.during or ())
        return Return(True) if pushes is None else Call(pushes)


@per_object(256)
def _moves_leader(ability: Any) -> bool:
    """Whether an ability's effect has a Leader movement (R-LEAD-5; every ability but one set aside by content)."""
    return any(getattr(n, "primitive", None) in LEADER_MOVES for n in ast.walk(ability)) if ability is not None else True


def move_action(rt: Runtime, ctx: Ctx, mandatory: bool = True) -> Steps[Any]:
    """One Move action: move an unmoved Kiwi (then push) or use the Leader's ability. False if none possible."""
    return (yield from drive(rt, MoveActionFrame(ctx, mandatory)))


@register_frame("move.moves")
@dataclass(eq=False)
class MovesFrame(Frame):
    """n Move actions, each taken while one is possible (R-MOVE-1: both free moves are mandatory); then, for the
    `move N` verb, the flock's powers on `trigger` (R-ASYM-5: "play or gain Move actions")."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    ctx: Ctx
    n: int
    trigger: str = ""
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the next Move action; 1: it was taken (or none was possible); 2: the powers are done."""
        if self.pc == 2:
            return RETURN
        if self.pc == 1 and not value:
            rt.emit("no-move", self.ctx.flock, flock=self.ctx.flock)
            self.n = 0
        if self.n <= 0:
            self.pc = 2
            fire = effects.emit_call(rt, self.ctx, self.trigger) if self.trigger else None
            return RETURN if fire is None else fire
        self.n -= 1
        self.pc = 1
        return Call(MoveActionFrame(self.ctx, True))


def moves(rt: Runtime, ctx: Ctx, n: int) -> Steps[Any]:
    """n Move actions, each taken while one is possible (R-MOVE-1: both free moves are mandatory)."""
    return (yield from drive(rt, MovesFrame(ctx, n)))


@register_frame("move.extra")
@dataclass(eq=False)
class ExtraMovesFrame(Frame):
    """R-MOVE-3: pay the flock side's extra-move cost for each further Move action, as often as wished."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"extra-move": ("extra",)}}
    ctx: Ctx
    reqs: tuple | None = None    # the cost's requirements, read when it starts
    max_pc: ClassVar[int] = 3

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start or ask again; 1: the answer; 2: paid, the Move action; 3: that Move is done."""
        ctx = self.ctx
        if self.pc == 1:
            if value.choice == "stop":
                return RETURN
            self.pc = 2
            return Call(payment.pay_all_frame(ctx.flock, self.reqs or ()))
        if self.pc == 2:
            self.pc = 3
            return Call(MoveActionFrame(ctx, True))
        fl = rt.state.flocks[ctx.flock]
        if self.reqs is None:
            side = rt.rules.flocks.get(ctx.flock, {}).get(fl.side)
            cost = side.extra_move if side else None
            if cost is None:
                return RETURN
            self.reqs = tuple(payment.reqs_of(cost))
        if not (payment.can_pay(fl, list(self.reqs), rt.rules.fruits) and can_move(rt, ctx)):
            return RETURN
        self.pc = 1
        return Ask(ctx.flock, "extra-move", "Pay for another Move action?",
                   [option(A.Extra("move"), "Pay for another Move action"), option(A.Extra("stop"), "Stop")])


def extra_moves(rt: Runtime, ctx: Ctx) -> Steps[Any]:
    """R-MOVE-3: pay the flock side's extra-move cost for each further Move action, as often as wished."""
    return (yield from drive(rt, ExtraMovesFrame(ctx)))


# --- leader verbs (context ability) --------------------------------------------------------------
def _need_ability(ctx: Ctx) -> Ability:
    if ctx.ability is None:
        raise EngineError("a leader verb ran outside a Leader ability")
    return ctx.ability


def land(rt: Runtime, ctx: Ctx, landing: str, passed: list[str]) -> None:
    """The Leader of an ability ends its movement on `landing`, having passed `passed` (R-LEAD-5)."""
    _land(rt, ctx, landing, passed)


def _land(rt: Runtime, ctx: Ctx, landing: str, passed: list[str]) -> None:
    ab = _need_ability(ctx)
    rt.state.flocks[ctx.flock].leader_hex = landing
    ab.landing = landing
    ab.passed = passed
    ctx.turn.leader_moved = True
    rt.emit("leader-lands", ctx.flock, flock=ctx.flock, hex=ab.start, to=landing)


@register_frame("move.leader_straight")
@dataclass(eq=False)
class LeaderStraightFrame(Frame):
    """The Leader moves exactly n hexes in one direction; the line stays on the island."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"leader-move": ("leader",)}}
    ctx: Ctx
    n: int
    lines: dict = field(default_factory=dict)   # landing hex -> the hexes walked to it
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the landing hex; 1: land there."""
        ctx = self.ctx
        ab = _need_ability(ctx)
        if self.pc == 1:
            end = value.to
            # R-LEAD-6 decision: the hexes "passed" are those strictly between start and landing
            _land(rt, ctx, end, self.lines[end][:-1])
            return RETURN
        b = board_of(rt.state)
        for d in range(6):
            path = b.line(ab.start, d, self.n)
            if path:
                self.lines[path[-1]] = path
        if not self.lines:
            return RETURN
        self.pc = 1
        return Ask(ctx.flock, "leader-move", cast(str, ("Your Leader moves {} hexes in a straight line", (self.n,))),
                   [option(A.LeaderTo(ab.start, end), (_LEADER_TO, (end,))) for end in self.lines])

    def check(self, rt: Runtime) -> None:
        """A loaded straight Leader move names hexes of the island."""
        hexes = rt.state.hexes
        if not all(isinstance(p, list) and e in hexes and all(h in hexes for h in p) for e, p in self.lines.items()):
            raise FrameDataError("move.leader_straight: not a hex of the island")


def leader_straight(rt: Runtime, ctx: Ctx, n: int) -> Steps[Any]:
    """The Leader moves exactly n hexes in one direction; the line stays on the island."""
    return (yield from drive(rt, LeaderStraightFrame(ctx, n)))


@register_frame("move.leader_walk")
@dataclass(eq=False)
class LeaderWalkFrame(Frame):
    """The Leader takes up to n steps to adjacent hexes and must end elsewhere than its start (R-LEAD-5)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1, 2})   # the steps that wait for an answer
    ask_kinds = {1: {"leader-move": ("step", "stop")}, 2: {"leader-move": ("step",)}}
    ctx: Ctx
    n: int
    i: int = 0                  # steps asked so far
    cur: str = ""
    path: list = field(default_factory=list)
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start; 1: a step (or stop) was chosen; 2: the step forced back off the start."""
        ctx = self.ctx
        ab = _need_ability(ctx)
        b = board_of(rt.state)
        if self.pc == 0:
            self.cur = ab.start
        elif self.pc == 2:
            self.cur = value.to
            self.path.append(self.cur)
            return self._land(rt, ab)
        else:
            if value.kind == "stop":
                return self._after_walk(rt, ab, b)
            self.cur = value.to
            self.path.append(self.cur)
        if self.i >= self.n:
            return self._after_walk(rt, ab, b)
        cur = self.cur
        opts: list[Option[A.Action]] = [option(A.Step(cur, d), (_STEP, (d,))) for d in b.adjacent(cur)]
        if self.i > 0 and cur != ab.start:
            opts.append(option(A.word("stop"), "End the Leader's move here"))
        self.i += 1
        self.pc = 1
        return Ask(ctx.flock, "leader-move", "Your Leader walks", opts)

    def _after_walk(self, rt: Runtime, ab: Ability, b: Any) -> Signal:
        if self.cur == ab.start:
            # walked back to the start with no steps left: R-LEAD-5 demands a different hex; step once more
            self.pc = 2
            return Ask(self.ctx.flock, "leader-move", "Your Leader must end elsewhere",
                       [option(A.Step(self.cur, d), (_STEP, (d,))) for d in b.adjacent(self.cur)])
        return self._land(rt, ab)

    def _land(self, rt: Runtime, ab: Ability) -> Signal:
        cur = self.cur
        passed: list[str] = []
        for h in self.path[:-1]:
            if h != ab.start and h != cur and h not in passed:
                passed.append(h)
        _land(rt, self.ctx, cur, passed)
        return RETURN

    def check(self, rt: Runtime) -> None:
        """A loaded Leader walk names hexes of the island."""
        hexes = rt.state.hexes
        if self.pc > 0 and self.cur not in hexes or not all(h in hexes for h in self.path):
            raise FrameDataError("move.leader_walk: not a hex of the island")


def leader_walk(rt: Runtime, ctx: Ctx, n: int) -> Steps[Any]:
    """The Leader takes up to n steps to adjacent hexes and must end elsewhere than its start (R-LEAD-5)."""
    return (yield from drive(rt, LeaderWalkFrame(ctx, n)))


@register_frame("move.leader_jump")
@dataclass(eq=False)
class LeaderJumpFrame(Frame):
    """The Leader lands on a hex at distance exactly n."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"leader-move": ("leader",)}}
    ctx: Ctx
    n: int
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the landing hex; 1: land there."""
        ctx = self.ctx
        ab = _need_ability(ctx)
        b = board_of(rt.state)
        if self.pc == 1:
            end = value.to
            # decision R-LEAD-5: a jump "passes" the hexes of the straight line between, when there is one
            _land(rt, ctx, end, b.between(ab.start, end))
            return RETURN
        dests = [h for h in b.coords if b.distance(ab.start, h) == self.n]
        if not dests:
            return RETURN
        self.pc = 1
        return Ask(ctx.flock, "leader-move", cast(str, ("Your Leader jumps {} hexes", (self.n,))),
                   [option(A.LeaderTo(ab.start, h), (_LEADER_TO, (h,))) for h in dests])


def leader_jump(rt: Runtime, ctx: Ctx, n: int) -> Steps[Any]:
    """The Leader lands on a hex at distance exactly n."""
    return (yield from drive(rt, LeaderJumpFrame(ctx, n)))




_FRAMES: dict[str, Callable[[Runtime, ast.Call, Ctx], Frame]] = {
    "move": lambda rt, c, ctx: MovesFrame(ctx, count(c), "t-gain-move"),
    "extra-moves": lambda rt, c, ctx: ExtraMovesFrame(ctx),
    "leader-straight": lambda rt, c, ctx: LeaderStraightFrame(ctx, count(c)),
    "leader-walk": lambda rt, c, ctx: LeaderWalkFrame(ctx, count(c)),
    "leader-jump": lambda rt, c, ctx: LeaderJumpFrame(ctx, count(c)),
}
for _id, _frame in _FRAMES.items():
    TABLE.register(_id, verb_procedure(_frame), (lambda rt, c, ctx: can_move(rt, ctx)) if _id == "move" else None,
                   frame=_frame)
