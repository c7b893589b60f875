"""Move actions (R-MOVE-1..4), the Leader's ability as a Move action (R-LEAD-2/5) and the leader verbs."""
from __future__ import annotations

from typing import Any, Callable, cast

from kcd.dsl import ast
from kcd.dsl.types import LEADER_MOVES
from kcd.engine import effects, payment, powers, push
from kcd.core.board import Board, board_of
from kcd.engine.context import Ability, Ctx, EngineError, Runtime
from kcd.core import action_types as A
from kcd.core.decisions import Option, lazy_option, option, shared_option_caches
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Do, Env, If, Jump, Label, Question, Return, While, program
from kcd.engine.placing import kiwi_of
from kcd.engine.verb_table import TABLE, count
from kcd.core.memo import per_object


def _first_call(node: ast.Node | None) -> ast.Call | None:
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


def _kiwi_hops(key: tuple[int, int, str, int, str], b: Board) -> tuple[Option[A.MoveKiwi], ...]:
    """The Move options of one Kiwi (`_HOPS`'s key) to each hex adjacent to it on the island `b`, kept in `_HOPS`."""
    _, kid, flock, size, hid = key
    kind = A.MoveKiwi
    prefix = kind.id_of(kid, flock, size, hid, "")   # the id ends with the destination (`...->A4`)
    hops: list[Option[A.MoveKiwi]] = []
    for d in b.adj[hid]:
        values = (kid, flock, size, hid, d)
        # lazy_option(kind, values, label) written out; the label is a Text (decisions.Text), built when read
        hops.append(Option(prefix + d, (_MOVE_KIWI, values), (kind, values)))
    out = tuple(hops)
    shared_option_caches.keep(_HOPS, key, (b, out))
    return out


def move_options(rt: Runtime, ctx: Ctx) -> list[Option[A.Action]]:
    """All legal Move actions for the flock this turn (R-MOVE-2, R-MOVE-4)."""
    st = rt.state
    flock = ctx.flock
    fl = st.flocks[flock]
    b = board_of(st)
    opts: list[Option[A.Action]] = []
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


# --- the Move action as a program: ask, carry out the answer, then its pushes or the ability's effect ---------
def _ask_move(rt: Runtime, env: Env) -> Question | None:
    """The Move action to take (None: none is possible); a Move that is not mandatory may stop."""
    ctx = env["ctx"]
    opts = move_options(rt, ctx)
    if not opts:
        return None
    if not env["mandatory"]:
        opts.append(option(A.word("stop"), "Stop moving"))
    return Question(ctx.flock, "move", "Take a Move action", opts)


def _take_move(rt: Runtime, env: Env) -> Any:
    """Carry out the chosen Move: the ability's effect, or the pushes after the move (None: nothing follows). No
    Move possible, or the player stopped: none is taken (`moved` False)."""
    ctx = env["ctx"]
    act = env.pop("act", None)
    if act is None or act.kind == "stop":
        env["moved"] = False
        return None
    st = rt.state
    flock = ctx.flock
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
        return effects.run_frame(rt, ability, sub)
    dest = act.to
    if isinstance(act, A.MoveLeader):
        st.flocks[flock].leader_hex = dest
        ctx.turn.leader_moved = True
        rt.emit("move-leader", flock, flock=flock, hex=act.hex, to=dest)
        # R-LEAD-1: the Leader moves as a size-3 Kiwi, so it may push like one
        return push.after_move_frame(rt, flock, dest, rt.rules.max_size, None, True, ctx.during or ())
    hex_id, kiwi = kiwi_of(rt, act)
    st.move_kiwi(hex_id, dest, kiwi.id)
    ctx.turn.moved.add(kiwi.id)
    rt.emit("move-kiwi", flock, flock=flock, size=kiwi.size, hex=hex_id, to=dest, kiwi=kiwi.id)
    return push.after_move_frame(rt, flock, dest, kiwi.size, kiwi.id, False, ctx.during or ())


def _moved(rt: Runtime, env: Env) -> bool:
    moved: bool = env.pop("moved", True)
    return moved


# One Move action: move an unmoved Kiwi (then push) or use the Leader's ability. Returns False if none was
# possible (or, when not `mandatory`, the player stopped)
MOVE_ACTION = program(
    "move.action", ("ctx", "mandatory"), {"ctx": Ctx, "mandatory": bool, "act": A.Action, "moved": bool},
    Ask("move", _ask_move, into="act", kinds={"move": ("move", "move-leader", "ability", "stop")}),
    Call("after", _take_move),
    Return(_moved))


@per_object(256)
def _moves_leader(ability: Any) -> bool:
    """Whether an ability's effect has a Leader movement (R-LEAD-5; every ability but one set aside by content)."""
    return any(getattr(n, "primitive", None) in LEADER_MOVES for n in ast.walk(ability)) if ability is not None else True


# --- n Move actions, each taken while one is possible (R-MOVE-1: both free moves are mandatory); then, for the
# `move N` verb, the flock's powers on `trigger` (R-ASYM-5: "play or gain Move actions") -----------------------
def _move_again(rt: Runtime, env: Env) -> bool:
    """Another Move action is due: one is left, and the last one was possible (else no more are taken, logged)."""
    if not env.pop("moved", True):
        flock = env["ctx"].flock
        rt.emit("no-move", flock, flock=flock)
        env["n"] = 0
    n: int = env["n"]
    return n > 0


def _next_move(rt: Runtime, env: Env) -> Cont:
    env["n"] -= 1
    return MOVE_ACTION.start(env["ctx"], True)


def _move_powers(rt: Runtime, env: Env) -> Any:
    """The powers listening to `trigger` (None: no trigger, or no power)."""
    trigger = env["trigger"]
    return effects.emit_call(rt, env["ctx"], trigger) if trigger else None


MOVES = program(
    "move.moves", ("ctx", "n", "trigger"), {"ctx": Ctx, "n": int, "trigger": str, "moved": bool},
    While(_move_again, (Call("move", _next_move, into="moved"),)),
    Call("powers", _move_powers))


# --- R-MOVE-3: pay the flock side's extra-move cost for each further Move action, as often as wished ----------
def _extra_cost(rt: Runtime, flock: str) -> tuple[payment.Req, ...] | None:
    """The requirements of the flock side's extra-move cost (None: the side has no extra moves)."""
    side = rt.rules.flocks.get(flock, {}).get(rt.state.flocks[flock].side)
    cost = side.extra_move if side else None
    return None if cost is None else tuple(payment.reqs_of(cost))


def _ask_extra(rt: Runtime, env: Env) -> Question | None:
    """Whether to pay for another Move action (None: no extra moves, or none can be paid or taken). The cost is
    read when it starts."""
    ctx = env["ctx"]
    if "reqs" not in env:
        env["reqs"] = _extra_cost(rt, ctx.flock)
    reqs = env["reqs"]
    if reqs is None or not (payment.can_pay(rt.state.flocks[ctx.flock], list(reqs), rt.rules.fruits)
                            and can_move(rt, ctx)):
        return None
    return Question(ctx.flock, "extra-move", "Pay for another Move action?",
                    [option(A.Extra("move"), "Pay for another Move action"), option(A.Extra("stop"), "Stop")])


def _wants_extra(rt: Runtime, env: Env) -> bool:
    extra: A.Extra = env.pop("extra")
    return extra.choice != "stop"


def _pay_extra(rt: Runtime, env: Env) -> Any:
    return payment.pay_all_frame(env["ctx"].flock, env["reqs"] or ())


def _extra_move(rt: Runtime, env: Env) -> Cont:
    return MOVE_ACTION.start(env["ctx"], True)


EXTRA_MOVES = program(
    "move.extra", ("ctx",), {"ctx": Ctx, "reqs": (tuple, type(None)), "extra": A.Extra},
    Label("again"),
    Ask("extra", _ask_extra, into="extra", kinds={"extra-move": ("extra",)}, otherwise="end"),
    If(_wants_extra, (Call("pay", _pay_extra), Call("move", _extra_move), Jump("again"))),
    Label("end"))


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


# --- the Leader moves exactly n hexes in one direction; the line stays on the island ------------------------
def _ask_straight(rt: Runtime, env: Env) -> Question | None:
    """The landing hex of each straight line (None: no line of n hexes stays on the island)."""
    ctx, n = env["ctx"], env["n"]
    ab = _need_ability(ctx)
    b = board_of(rt.state)
    env["lines"] = lines = {}   # landing hex -> the hexes walked to it
    for d in range(6):
        path = b.line(ab.start, d, n)
        if path:
            lines[path[-1]] = path
    if not lines:
        return None
    return Question(ctx.flock, "leader-move", cast(str, ("Your Leader moves {} hexes in a straight line", (n,))),
                    [option(A.LeaderTo(ab.start, end), (_LEADER_TO, (end,))) for end in lines])


def _land_straight(rt: Runtime, env: Env) -> None:
    end = env.pop("to").to
    # R-LEAD-6 decision: the hexes "passed" are those strictly between start and landing
    _land(rt, env["ctx"], end, env["lines"][end][:-1])


def _check_straight(rt: Runtime, env: Env, at: str) -> None:
    """A loaded straight Leader move names hexes of the island."""
    hexes = rt.state.hexes
    if not all(isinstance(p, list) and e in hexes and all(h in hexes for h in p)
               for e, p in env.get("lines", {}).items()):
        raise FrameDataError("move.leader_straight: not a hex of the island")


LEADER_STRAIGHT = program(
    "move.leader_straight", ("ctx", "n"), {"ctx": Ctx, "n": int, "lines": dict, "to": A.LeaderTo},
    Ask("landing", _ask_straight, into="to", kinds={"leader-move": ("leader",)}, otherwise="end"),
    Do(_land_straight),
    Label("end"),
    check=_check_straight)


# --- the Leader takes up to n steps to adjacent hexes and must end elsewhere than its start (R-LEAD-5) --------
def _walk_from_start(rt: Runtime, env: Env) -> None:
    env["i"] = 0                                   # steps asked so far
    env["cur"] = _need_ability(env["ctx"]).start
    env["path"] = []


def _steps_left(rt: Runtime, env: Env) -> bool:
    i: int = env["i"]
    n: int = env["n"]
    return i < n


def _ask_step(rt: Runtime, env: Env) -> Question:
    """The next step (or, after a step off the start, the end of the walk)."""
    ctx, cur = env["ctx"], env["cur"]
    ab = _need_ability(ctx)
    b = board_of(rt.state)
    opts: list[Option[A.Action]] = [option(A.Step(cur, d), (_STEP, (d,))) for d in b.adjacent(cur)]
    if env["i"] > 0 and cur != ab.start:
        opts.append(option(A.word("stop"), "End the Leader's move here"))
    env["i"] += 1
    return Question(ctx.flock, "leader-move", "Your Leader walks", opts)


def _stepped(rt: Runtime, env: Env) -> None:
    """The Leader steps to the hex chosen; stopping ends the walk (no step is asked again)."""
    step = env.pop("step")
    if step.kind == "stop":
        env["i"] = env["n"]
        return
    env["cur"] = step.to
    env["path"].append(step.to)


def _ask_away(rt: Runtime, env: Env) -> Question | None:
    """Walked back to the start with no steps left: R-LEAD-5 demands a different hex, so one step more (None:
    the walk ends elsewhere)."""
    ctx, cur = env["ctx"], env["cur"]
    if cur != _need_ability(ctx).start:
        return None
    return Question(ctx.flock, "leader-move", "Your Leader must end elsewhere",
                    [option(A.Step(cur, d), (_STEP, (d,))) for d in board_of(rt.state).adjacent(cur)])


def _land_walk(rt: Runtime, env: Env) -> None:
    """Land where the walk ends; the hexes passed are those walked through, never the start or the landing."""
    ctx, cur = env["ctx"], env["cur"]
    start = _need_ability(ctx).start
    passed: list[str] = []
    for h in env["path"][:-1]:
        if h != start and h != cur and h not in passed:
            passed.append(h)
    _land(rt, ctx, cur, passed)


def _check_walk(rt: Runtime, env: Env, at: str) -> None:
    """A loaded Leader walk names hexes of the island."""
    hexes = rt.state.hexes
    if env.get("cur") not in hexes or not all(h in hexes for h in env.get("path", ())):
        raise FrameDataError("move.leader_walk: not a hex of the island")


LEADER_WALK = program(
    "move.leader_walk", ("ctx", "n"),
    {"ctx": Ctx, "n": int, "i": int, "cur": str, "path": list, "step": A.Action},
    Do(_walk_from_start),
    While(_steps_left, (Ask("step", _ask_step, into="step", kinds={"leader-move": ("step", "stop")}),
                        Do(_stepped))),
    Ask("away", _ask_away, into="step", kinds={"leader-move": ("step",)}, otherwise="land"),
    Do(_stepped),
    Label("land"),
    Do(_land_walk),
    check=_check_walk)


# --- the Leader lands on a hex at distance exactly n ---------------------------------------------------------
def _ask_jump(rt: Runtime, env: Env) -> Question | None:
    """The landing hex (None: no hex of the island is that far)."""
    ctx, n = env["ctx"], env["n"]
    ab = _need_ability(ctx)
    b = board_of(rt.state)
    dests = [h for h in b.coords if b.distance(ab.start, h) == n]
    if not dests:
        return None
    return Question(ctx.flock, "leader-move", cast(str, ("Your Leader jumps {} hexes", (n,))),
                    [option(A.LeaderTo(ab.start, h), (_LEADER_TO, (h,))) for h in dests])


def _land_jump(rt: Runtime, env: Env) -> None:
    ctx = env["ctx"]
    end = env.pop("to").to
    # decision R-LEAD-5: a jump "passes" the hexes of the straight line between, when there is one
    _land(rt, ctx, end, board_of(rt.state).between(_need_ability(ctx).start, end))


LEADER_JUMP = program(
    "move.leader_jump", ("ctx", "n"), {"ctx": Ctx, "n": int, "to": A.LeaderTo},
    Ask("landing", _ask_jump, into="to", kinds={"leader-move": ("leader",)}, otherwise="end"),
    Do(_land_jump),
    Label("end"))


_FRAMES: dict[str, Callable[[Runtime, ast.Call, Ctx], Cont]] = {
    "move": lambda rt, c, ctx: MOVES.start(ctx, count(c), "t-gain-move"),
    "extra-moves": lambda rt, c, ctx: EXTRA_MOVES.start(ctx),
    "leader-straight": lambda rt, c, ctx: LEADER_STRAIGHT.start(ctx, count(c)),
    "leader-walk": lambda rt, c, ctx: LEADER_WALK.start(ctx, count(c)),
    "leader-jump": lambda rt, c, ctx: LEADER_JUMP.start(ctx, count(c)),
}
for _id, _frame in _FRAMES.items():
    TABLE.register(_id, _frame, (lambda rt, c, ctx: can_move(rt, ctx)) if _id == "move" else None)
