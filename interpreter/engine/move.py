"""Move actions (R-MOVE-1..4), the Leader's ability as a Move action (R-LEAD-2/5) and the leader verbs."""
from __future__ import annotations

from typing import Generator

from interpreter.dsl import ast
from interpreter.engine import effects, payment, powers, push
from interpreter.engine.board import board_of
from interpreter.engine.context import Ability, Ctx, EngineError, Runtime
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Option, ask_action, lazy_option, option
from interpreter.engine.placing import kiwi_of, kref, remove_from_hex
from interpreter.engine.verb_table import TABLE, count


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
    if call.primitive == "leader-straight":
        return any(b.line(fl.leader_hex, d, n) for d in range(6))
    if call.primitive in ("leader-walk", "leader-walk-upto"):
        return bool(b.adjacent(fl.leader_hex))
    if call.primitive == "leader-jump":
        return any(b.distance(fl.leader_hex, h) == n for h in b.coords)
    return True


def move_options(rt: Runtime, ctx: Ctx) -> list[Option]:
    """All legal Move actions for the flock this turn (R-MOVE-2, R-MOVE-4)."""
    st = rt.state
    flock = ctx.flock
    fl = st.flocks[flock]
    b = board_of(st)
    opts: list[Option] = []
    seen: set[str] = set()
    for h in st.hexes.values():
        adj = None
        for k in h.kiwi:
            if k.flock != flock or k.id in ctx.turn.moved:
                continue
            ref = kref(flock, k.size, h.id)
            if ref in seen:
                continue
            seen.add(ref)
            if adj is None:
                adj = b.adjacent(h.id)
            for d in adj:
                opts.append(lazy_option(A.MoveKiwi, (k.id, flock, k.size, h.id, d),
                                        f"Move your size-{k.size} Kiwi from {h.id} to {d}"))
    if fl.leader_hex is not None and not ctx.turn.leader_moved and not ctx.turn.ability_used:
        for d in b.adjacent(fl.leader_hex):
            opts.append(option(A.MoveLeader(fl.leader_hex, d), f"Move your Leader from {fl.leader_hex} to {d}"))
        ability = rt.rules.leader_cards.get(fl.leader_card)
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


def move_action(rt: Runtime, ctx: Ctx, mandatory: bool = True) -> Generator:
    """One Move action: move an unmoved Kiwi (then push) or use the Leader's ability. False if none possible."""
    opts = move_options(rt, ctx)
    if not opts:
        return False
    if not mandatory:
        opts.append(option(A.word("stop"), "Stop moving"))
    act = yield from ask_action(ctx.flock, "move", "Take a Move action", opts)
    if act.kind == "stop":
        return False
    st = rt.state
    flock = ctx.flock
    if act.kind == "ability":
        fl = st.flocks[flock]
        fl.leader_used = True           # R-LEAD-2: flip the card
        ctx.turn.ability_used = True    # R-MOVE-4
        rt.emit("ability", flock, flock=flock)
        ability = rt.rules.leader_cards.get(fl.leader_card)
        sub = ctx.sub(ability=Ability(start=fl.leader_hex), depth=ctx.depth + 1, source="leader ability")
        yield from effects.run(rt, ability, sub)
        return True
    dest = act.to
    if isinstance(act, A.MoveLeader):
        origin = act.hex
        st.flocks[flock].leader_hex = dest
        ctx.turn.leader_moved = True
        rt.emit("move-leader", flock, flock=flock, hex=origin, to=dest)
        # R-LEAD-1: the Leader moves as a size-3 Kiwi, so it may push like one
        yield from push.after_move(rt, flock, dest, rt.rules.max_size, None, True)
        return True
    hex_id, kiwi = kiwi_of(rt, act)
    remove_from_hex(rt, hex_id, kiwi)
    st.hexes[dest].kiwi.append(kiwi)
    ctx.turn.moved.add(kiwi.id)
    rt.emit("move-kiwi", flock, flock=flock, size=kiwi.size, hex=hex_id, to=dest)
    yield from push.after_move(rt, flock, dest, kiwi.size, kiwi.id, False)
    return True


def moves(rt: Runtime, ctx: Ctx, n: int) -> Generator:
    """n Move actions, each taken while one is possible (R-MOVE-1: both free moves are mandatory)."""
    for _ in range(n):
        done = yield from move_action(rt, ctx, mandatory=True)
        if not done:
            rt.emit("no-move", ctx.flock, flock=ctx.flock)
            return


def extra_moves(rt: Runtime, ctx: Ctx) -> Generator:
    """R-MOVE-3: pay the flock side's extra-move cost for each further Move action, as often as wished."""
    fl = rt.state.flocks[ctx.flock]
    side = rt.rules.flocks.get(ctx.flock, {}).get(fl.side)
    cost = side.extra_move if side else None
    if cost is None:
        return
    reqs = payment.reqs_of(cost)
    while payment.can_pay(fl, reqs, rt.rules.fruits) and can_move(rt, ctx):
        act = yield from ask_action(ctx.flock, "extra-move", "Pay for another Move action?",
                                    [option(A.Extra("move"), "Pay for another Move action"),
                                     option(A.Extra("stop"), "Stop")])
        if act.choice == "stop":
            return
        yield from payment.pay_all(rt, ctx.flock, reqs)
        yield from move_action(rt, ctx, mandatory=True)


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


def leader_straight(rt: Runtime, ctx: Ctx, n: int) -> Generator:
    """The Leader moves exactly n hexes in one direction; the line stays on the island."""
    ab = _need_ability(ctx)
    b = board_of(rt.state)
    lines = {}
    for d in range(6):
        path = b.line(ab.start, d, n)
        if path:
            lines[path[-1]] = path
    if not lines:
        return
    act = yield from ask_action(ctx.flock, "leader-move", f"Your Leader moves {n} hexes in a straight line",
                                [option(A.LeaderTo(ab.start, end), f"Leader to {end}") for end in lines])
    end = act.to
    # R-LEAD-6 decision: the hexes "passed" are those strictly between start and landing
    _land(rt, ctx, end, lines[end][:-1])


def leader_walk(rt: Runtime, ctx: Ctx, n: int) -> Generator:
    """The Leader takes up to n steps to adjacent hexes and must end elsewhere than its start (R-LEAD-5)."""
    ab = _need_ability(ctx)
    b = board_of(rt.state)
    cur, path = ab.start, []
    for i in range(n):
        opts = [option(A.Step(cur, d), f"Leader steps to {d}") for d in b.adjacent(cur)]
        if i > 0 and cur != ab.start:
            opts.append(option(A.word("stop"), "End the Leader's move here"))
        act = yield from ask_action(ctx.flock, "leader-move", "Your Leader walks", opts)
        if act.kind == "stop":
            break
        cur = act.to
        path.append(cur)
    if cur == ab.start:
        # walked back to the start with no steps left: R-LEAD-5 demands a different hex; step once more
        opts = [option(A.Step(cur, d), f"Leader steps to {d}") for d in b.adjacent(cur)]
        act = yield from ask_action(ctx.flock, "leader-move", "Your Leader must end elsewhere", opts)
        cur = act.to
        path.append(cur)
    passed = []
    for h in path[:-1]:
        if h != ab.start and h != cur and h not in passed:
            passed.append(h)
    _land(rt, ctx, cur, passed)


def leader_jump(rt: Runtime, ctx: Ctx, n: int) -> Generator:
    """The Leader lands on a hex at distance exactly n."""
    ab = _need_ability(ctx)
    b = board_of(rt.state)
    dests = [h for h in b.coords if b.distance(ab.start, h) == n]
    if not dests:
        return
    act = yield from ask_action(ctx.flock, "leader-move", f"Your Leader jumps {n} hexes",
                                [option(A.LeaderTo(ab.start, h), f"Leader to {h}") for h in dests])
    end = act.to
    # decision R-LEAD-5: a jump "passes" the hexes of the straight line between, when there is one
    _land(rt, ctx, end, b.between(ab.start, end))


def _move(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    yield from moves(rt, ctx, count(call))
    yield from effects.emit(rt, ctx, "t-gain-move")   # R-ASYM-5: "play or gain Move actions"


TABLE.register("move", _move, lambda rt, c, ctx: can_move(rt, ctx))
TABLE.register("extra-moves", lambda rt, c, ctx: extra_moves(rt, ctx))
TABLE.register("leader-straight", lambda rt, c, ctx: leader_straight(rt, ctx, count(c)))
TABLE.register("leader-walk", lambda rt, c, ctx: leader_walk(rt, ctx, count(c)))
TABLE.register("leader-jump", lambda rt, c, ctx: leader_jump(rt, ctx, count(c)))
