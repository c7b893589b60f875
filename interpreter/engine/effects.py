"""The DSL effect interpreter: walks a bound AST; one mapping registry verb id -> procedure.

Unknown nodes or verbs are errors, never no-ops. `repeat` is bounded by its literal (and MAX_REPEAT),
effect nesting and trigger chains by MAX_DEPTH, and a trigger's effect never re-fires the trigger
that ran it (it is added to `Ctx.suppressed`). Every procedure is a generator that yields Decisions.
"""
from __future__ import annotations

from typing import Callable

from interpreter.dsl import ast
from interpreter.engine import action_types as A
from interpreter.engine import payment
from interpreter.engine.context import MAX_DEPTH, MAX_REPEAT, Ctx, EngineError, Runtime
from interpreter.engine.decisions import Steps, ask_action, option
from interpreter.engine.describe import describe
from interpreter.engine.verb_table import TABLE, Verb, count as _n


class _Unpaid(Exception):
    """A mandatory payment inside an effect could not be made: the rest of that sequence is skipped."""


def run(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Steps[None]:
    """Execute an effect node for `ctx.flock`."""
    if node is None:
        return
    if ctx.depth > MAX_DEPTH:
        raise EngineError(f"effect nesting deeper than {MAX_DEPTH} ({ctx.source})")
    if isinstance(node, ast.Seq):
        try:
            for stmt in node.stmts:
                yield from run(rt, stmt, ctx)
        except _Unpaid:
            rt.emit("cannot-pay", ctx.flock, flock=ctx.flock, effect=describe(node))
        return
    if isinstance(node, ast.Call):
        fn = rt.verbs.run.get(node.primitive or "")
        mode_verb = rt.mode.verb_for
        if mode_verb is not None:   # the mode's own way of verbs (solo: the Kiwibot verbs, R-SOLO-8/10)
            fn = mode_verb(rt, node, ctx, fn)
        if fn is None:
            raise EngineError(f"no engine procedure for DSL verb `{node.primitive}` ({describe(node)})")
        yield from fn(rt, node, ctx)
        return
    if isinstance(node, ast.Choose):
        opts = [option(A.Choice(i + 1), describe(o)) for i, o in enumerate(node.options) if possible(rt, o, ctx)]
        if not opts:
            return
        act = yield from ask_action(ctx.flock, "choose", "Choose one", opts)
        yield from run(rt, node.options[act.index - 1], ctx)
        return
    if isinstance(node, ast.May):
        if not possible(rt, node.body, ctx):
            return
        text = describe(node.body)
        may = yield from ask_action(ctx.flock, "may", f"You may: {text}",
                                    [option(A.May(True), f"Yes: {text}"), option(A.May(False), "No")])
        if may.yes:
            yield from run(rt, node.body, ctx)
        return
    if isinstance(node, ast.COMPOSED):   # the compositional layer: if, for each, phrases (compose.py)
        if rt.verbs.composed_run is None:
            raise EngineError("the compositional layer is not registered (import interpreter.engine.verbs)")
        yield from rt.verbs.composed_run(rt, node, ctx)
        return
    if isinstance(node, ast.Repeat):
        if node.count > MAX_REPEAT:
            raise EngineError(f"repeat {node.count} exceeds the limit {MAX_REPEAT}")
        for _ in range(node.count):
            yield from run(rt, node.body, ctx)
        return
    raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")


def possible(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> bool:
    """Whether an effect can be performed now (used for choose options, may and card play modes)."""
    if node is None:
        return True
    if isinstance(node, ast.Seq):
        return all(possible(rt, s, ctx) for s in node.stmts)
    if isinstance(node, ast.Choose):
        return any(possible(rt, o, ctx) for o in node.options)
    if isinstance(node, ast.May):
        return True
    if isinstance(node, ast.Repeat):
        return possible(rt, node.body, ctx)
    if isinstance(node, ast.Call):
        check = rt.verbs.possible.get(node.primitive or "")
        return True if check is None else check(rt, node, ctx)
    if isinstance(node, ast.COMPOSED):
        check = rt.verbs.composed_possible
        return True if check is None else check(rt, node, ctx)
    return False


def emit(rt: Runtime, ctx: Ctx, trigger: str) -> Steps[None]:
    """Fire the flock's powers listening to `trigger`, unless this chain already runs it."""
    if trigger in ctx.suppressed:
        return
    fl = rt.state.flocks[ctx.flock]
    side = rt.rules.flocks.get(ctx.flock, {}).get(fl.side)
    if side is None:
        return
    for power in side.powers:
        if power.trigger == trigger:
            rt.emit("power", ctx.flock, flock=ctx.flock, trigger=trigger[2:])
            yield from run(rt, power.effect, ctx.sub(suppressed=ctx.suppressed | {trigger}, depth=ctx.depth + 1,
                                                     source=f"power {trigger}"))


# --- verbs ---------------------------------------------------------------------------------------
def gain_fruit(rt: Runtime, ctx: Ctx, n: int) -> Steps[None]:
    """Draw n fruit at random (fewer if the bag runs out), then the fruit limit (R-LIMIT-1)."""
    fl = rt.state.flocks[ctx.flock]
    got = []
    for _ in range(n):
        c = rt.state.draw_from(rt.state.fruit_bag)
        if c is None:
            break
        fl.fruit[c] = fl.fruit.get(c, 0) + 1
        got.append(c)
    rt.emit("gain-fruit", ctx.flock, flock=ctx.flock, fruit=list(got))
    yield from payment.enforce_fruit_limit(rt, ctx.flock)


def gain_domain(rt: Runtime, ctx: Ctx, n: int) -> Steps[None]:
    """Draw n domain markers into the private reserve; an empty bag gives nothing (R-DM-5)."""
    fl = rt.state.flocks[ctx.flock]
    got = 0
    for _ in range(n):
        t = rt.state.draw_from(rt.state.domain_bag)
        if t is None:
            break
        fl.domain.append(t)
        got += 1
    fl.domain.sort()
    rt.emit("gain-domain", ctx.flock, flock=ctx.flock, count=got)
    if got:
        yield from emit(rt, ctx, "t-gain-domain")


def return_domain(rt: Runtime, ctx: Ctx, n: int) -> Steps[None]:
    """Return up to n markers of the player's choice to the bag."""
    fl = rt.state.flocks[ctx.flock]
    for _ in range(n):
        if not fl.domain:
            return
        act = yield from ask_action(ctx.flock, "return-domain", "Return a domain marker to the bag",
                                    [option(A.ReturnMarker(t), f"Return a {t} marker") for t in sorted(set(fl.domain))])
        t = act.terrain
        fl.domain.remove(t)
        rt.state.domain_bag[t] = rt.state.domain_bag.get(t, 0) + 1
        rt.emit("return-domain", ctx.flock, flock=ctx.flock)


def _pay(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    req = payment.req_of_call(call)
    if not payment.can_meet(rt.state.flocks[ctx.flock], req, rt.rules.fruits):
        raise _Unpaid()
    yield from payment.pay(rt, ctx.flock, req)


def _gain_vp(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    if ctx.no_vp:   # R-ASYM-4: doubled Nest benefits exclude Victory Points
        return
    rt.state.flocks[ctx.flock].season_vp += _n(call)
    rt.emit("gain-vp", ctx.flock, flock=ctx.flock, vp=_n(call))
    yield from ()


def _can_pay_call(rt: Runtime, call: ast.Call, ctx: Ctx) -> bool:
    return payment.can_meet(rt.state.flocks[ctx.flock], payment.req_of_call(call), rt.rules.fruits)


# the gains and payments; the other rule modules register their own verbs (interpreter/engine/verb_table.py)
TABLE.register("gain-fruit", lambda rt, c, ctx: gain_fruit(rt, ctx, _n(c)))
TABLE.register("gain-domain", lambda rt, c, ctx: gain_domain(rt, ctx, _n(c)))
TABLE.register("gain-vp", _gain_vp)
for _verb in ("pay-fruit", "pay-fruit-of", "pay-domain"):
    TABLE.register(_verb, _pay, _can_pay_call)
TABLE.register("return-domain", lambda rt, c, ctx: return_domain(rt, ctx, _n(c)))
VERBS: dict[str, Verb] = TABLE.run      # the table, by its old names
POSSIBLE: dict[str, Callable[[Runtime, ast.Call, Ctx], bool]] = TABLE.possible
