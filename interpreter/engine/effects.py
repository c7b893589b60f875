"""The DSL effect interpreter: walks a bound AST; one mapping registry verb id -> procedure.

Unknown nodes or verbs are errors, never no-ops. `repeat` is bounded by its literal (and MAX_REPEAT),
effect nesting and trigger chains by MAX_DEPTH, and a trigger's effect never re-fires the trigger
that ran it (it is added to `Ctx.suppressed`). The procedures are programs (interpreter/engine/machine.py):
`run_frame` gives the continuation that executes a node.
"""
from __future__ import annotations

from typing import Any, Callable

from kcd.dsl import ast
from kcd.core import action_types as A
from kcd.engine import labels, payment
from kcd.engine.context import MAX_DEPTH, MAX_REPEAT, Ctx, EngineError, Runtime
from kcd.core.decisions import Option, option
from kcd.engine.values import Call as CallSignal
from kcd.engine.values import FrameDataError, Signal
from kcd.engine.machine import Cont as Entry
from kcd.engine.machine import Ask, Call, Cont, Do, Env, ForEach, Label, Question, While, program
from kcd.engine.describe import describe as describe   # re-exported: flow, the modes and the service read it here
from kcd.engine.verb_table import TABLE, Verb, count as _n
from kcd.engine.view import reserves_revealed
from kcd.core.memo import per_object


class _Unpaid(Exception):
    """A mandatory payment inside an effect could not be made: the rest of that sequence is skipped."""


# --- running an effect node ----------------------------------------------------------------------------------
# A sequence (a mandatory payment that cannot be made skips the rest of it), a verb, `repeat` or a node of the
# compositional layer runs its statements one by one (a repeat its body once per round, a verb or a composed node
# itself): the program effects.run. `choose` and `may` ask first: the program effects.choice.
_ASKING = frozenset({ast.Choose, ast.May})
_PAYING = frozenset({"pay-fruit", "pay-fruit-of", "pay-domain"})   # the verbs that raise _Unpaid (_pay_frame)


def _too_deep(ctx: Ctx) -> EngineError:
    return EngineError(f"effect nesting deeper than {MAX_DEPTH} ({ctx.source})")


def _statements(rt: Runtime, env: Env) -> tuple[ast.Node, ...]:
    """The statements to run in order, read when the effect starts (its depth and its repeat count checked)."""
    node, ctx = env["node"], env["ctx"]
    if node is None:
        return ()
    if ctx.depth > MAX_DEPTH:
        raise _too_deep(ctx)
    kind = type(node)
    if kind is ast.Seq:
        stmts: tuple[ast.Node, ...] = node.stmts
        return stmts
    if kind is ast.Repeat:
        count: int = node.count
        if count > MAX_REPEAT:
            raise EngineError(f"repeat {count} exceeds the limit {MAX_REPEAT}")
        return (node.body,) * count
    if kind is ast.Call or isinstance(node, ast.COMPOSED):
        return (node,)
    raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")


def _run_stmt(rt: Runtime, env: Env) -> Any:
    """One statement: a verb straight from its sequence (what running it as an effect would push), a node of the
    compositional layer (if, for each, phrases: compose.py), else the statement as an effect."""
    stmt, ctx = env["stmt"], env["ctx"]
    if type(stmt) is ast.Call:
        try:
            return _verb_call(rt, stmt, ctx)
        except _Unpaid:
            if type(env["node"]) is not ast.Seq:
                raise
            # run as an effect of its own, the payment fails in the child, which the sequence's catch sees
            return RUN.start(stmt, ctx)
    if stmt is env["node"]:
        if rt.verbs.composed_run is None:
            raise EngineError("the compositional layer is not registered (import kcd.engine.verbs)")
        return rt.verbs.composed_run(rt, stmt, ctx)
    return run_frame(rt, stmt, ctx)


_EFFECT_NODES = (ast.Seq, ast.Call, ast.Choose, ast.May, ast.Repeat, ast.COMPOSED)


def _check_run(rt: Runtime, env: Env, at: str) -> None:
    """A loaded effect runs an effect node (or nothing) that has statements."""
    node = env["node"]
    if node is not None and not isinstance(node, _EFFECT_NODES):
        raise FrameDataError(f"effects.run: a {type(node).__name__} is not an effect")
    if type(node) in _ASKING:
        raise FrameDataError("effects.run: a step the effect does not have")


def _catch_unpaid(rt: Runtime, env: Env, exc: Exception) -> str | None:
    """A sequence catches a mandatory payment that cannot be made: the rest of it is skipped."""
    node = env["node"]
    if type(node) is ast.Seq and isinstance(exc, _Unpaid):
        flock = env["ctx"].flock
        rt.emit("cannot-pay", flock, flock=flock, effect=describe(node))
        return None
    raise exc


RUN = program(
    "effects.run", ("node", "ctx"), {"node": None, "ctx": Ctx, "stmt": None},
    ForEach("stmt", _statements, (Call("stmt", _run_stmt),)),
    check=_check_run, catch=_catch_unpaid)


def _ask_choice(rt: Runtime, env: Env) -> Question | None:
    """The branch of a `choose` among those that can be performed, or whether to do a `may` (None: nothing can
    be done)."""
    node, ctx = env["node"], env["ctx"]
    if ctx.depth > MAX_DEPTH:
        raise _too_deep(ctx)
    if type(node) is ast.Choose:
        shared = _choice_options(node)
        opts = [shared[i] for i, o in enumerate(node.options) if possible(rt, o, ctx)]
        return Question(ctx.flock, "choose", "Choose one", opts) if opts else None
    if not possible(rt, node.body, ctx):
        return None
    prompt, yes, no = _may_options(node)
    return Question(ctx.flock, "may", prompt, [yes, no])


def _run_branch(rt: Runtime, env: Env) -> Any:
    """The chosen branch, or the body of an accepted `may` (None: declined)."""
    node, answer = env["node"], env.pop("answer")
    if type(node) is ast.Choose:
        return run_frame(rt, node.options[answer.index - 1], env["ctx"])
    return run_frame(rt, node.body, env["ctx"]) if answer.yes else None


def _check_choice(rt: Runtime, env: Env, at: str) -> None:
    """A loaded choice runs a `choose` or a `may`."""
    if type(env["node"]) not in _ASKING:
        raise FrameDataError(f"effects.choice: a {type(env['node']).__name__} is not a choose or may")


CHOICE = program(
    "effects.choice", ("node", "ctx"), {"node": None, "ctx": Ctx, "answer": (A.Choice, A.May)},
    Ask("choice", _ask_choice, into="answer", kinds={"choose": ("choice",), "may": ("may",)}, otherwise="end"),
    Call("branch", _run_branch),
    Label("end"),
    check=_check_choice)

_run_start = RUN.start
_choice_start = CHOICE.start
_new = object.__new__


def run_frame(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Any:
    """What executes an effect node for `ctx.flock`: a continuation of effects.run or effects.choice; for a sequence
    of one verb that pays nothing, the verb's own procedure at once (what that sequence would run: the caller hands
    it on to be run next, the verb's choices and events come as they would); for a sequence of one `choose` or
    `may`, its effects.choice."""
    kind = type(node)
    if kind is ast.Seq:
        stmts = node.stmts   # type: ignore[union-attr]
        if len(stmts) == 1:
            stmt = stmts[0]
            if type(stmt) is ast.Call and stmt.primitive not in _PAYING and ctx.depth <= MAX_DEPTH:
                return _verb_call(rt, stmt, ctx).frame
            if type(stmt) in _ASKING:
                # its branches are sequences of their own, which catch their payments: this one would catch none
                return _choice_start(stmt, ctx)
        # RUN.start written out (most effects are sequences)
        cont = _new(Cont)
        cont.program, cont.at, cont.env = RUN, 0, {"node": node, "ctx": ctx}
        return cont
    if kind is ast.Choose or kind is ast.May:
        return _choice_start(node, ctx)
    return _run_start(node, ctx)


@per_object(4096)
def _choice_options(node: ast.Choose) -> list[Option[A.Action]]:
    """The option of each branch of a `choose`, built once per node and shared by its questions
    (decisions.SharedOptionCaches); the labels (the rules text of each branch) are rendered only when read."""
    return [option(act, labels.lazy(describe, o)) for act, o in
            ((A.Choice(i + 1), o) for i, o in enumerate(node.options))]


@per_object(4096)
def _may_options(node: ast.May) -> tuple[Any, Option[A.Action], Option[A.Action]]:
    """The prompt Text and the yes and no options of a `may`, built once per node and shared by its questions
    (the rules text of its body rendered only when read)."""
    text = labels.lazy(describe, node.body)
    return ("You may: {}", (text,)), option(A.May(True), ("Yes: {}", (text,))), option(A.May(False), "No")


def _verb_call(rt: Runtime, node: ast.Call, ctx: Ctx) -> CallSignal:
    """Run a verb: the continuation of its program (the mode's own way of the verb when it has one), pushed on the
    stack."""
    if ctx.depth > MAX_DEPTH:
        raise EngineError(f"effect nesting deeper than {MAX_DEPTH} ({ctx.source})")
    prim = node.primitive or ""
    verbs = rt.verbs
    fn = verbs.run.get(prim)
    mode_verb = rt.mode.verb_for
    if mode_verb is not None:   # the mode's own way of verbs (solo: the Kiwibot verbs, R-SOLO-8/10)
        fn = mode_verb(rt, node, ctx, fn)
    if fn is None:
        raise EngineError(f"no engine procedure for DSL verb `{node.primitive}` ({describe(node)})")
    return CallSignal(fn(rt, node, ctx))


def verb_call(rt: Runtime, node: ast.Call, ctx: Ctx) -> Signal:
    """Run a verb call as `effects.run` does, the mode's own way of it included (compose.py: a phrase's verb once
    its quantities are numbers)."""
    return _verb_call(rt, node, ctx)


def emit_call(rt: Runtime, ctx: Ctx, trigger: str, here: str | None = None) -> Signal | None:
    """`Call(EMIT.start(ctx, trigger))` when one of the flock's powers listens to `trigger` (None: nothing fires);
    `here`: the event's hex, `this hex` in the powers' effects (the built hex, the fed Kiwi's)."""
    if trigger in ctx.suppressed:
        return None
    side = rt.rules.flocks.get(ctx.flock, {}).get(rt.state.flocks[ctx.flock].side)
    if side is None:
        return None
    for p in side.powers:
        if p.trigger == trigger:
            return CallSignal(EMIT.start(ctx if here is None else ctx.sub(here=here), trigger))
    return None


def possible(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> bool:
    """Whether an effect can be performed now (used for choose options, may and card play modes)."""
    if node is None:
        return True
    kind = type(node)   # (the AST classes have no subclasses: a type test, cheaper than isinstance)
    if kind is ast.Call:
        check = rt.verbs.possible.get(node.primitive or "")   # type: ignore[union-attr]
        return True if check is None else check(rt, node, ctx)
    if kind is ast.Seq:
        for s in node.stmts:   # type: ignore[union-attr]
            if not possible(rt, s, ctx):
                return False
        return True
    if kind is ast.Choose:
        return any(possible(rt, o, ctx) for o in node.options)   # type: ignore[union-attr]
    if kind is ast.May:
        return True
    if kind is ast.Repeat:
        return possible(rt, node.body, ctx)   # type: ignore[union-attr]
    if isinstance(node, ast.COMPOSED):
        check = rt.verbs.composed_possible
        return True if check is None else check(rt, node, ctx)
    return False


# --- the flock's powers listening to `trigger`, unless this chain already runs it -----------------------------
def _listening(rt: Runtime, env: Env) -> list[int]:
    """The flock's powers listening to the trigger, by their place on its side (read when it starts)."""
    ctx, trigger = env["ctx"], env["trigger"]
    if trigger in ctx.suppressed:
        return []
    side = rt.rules.flocks.get(ctx.flock, {}).get(rt.state.flocks[ctx.flock].side)
    if side is None:
        return []
    return [i for i, p in enumerate(side.powers) if p.trigger == trigger]


def _fire_power(rt: Runtime, env: Env) -> Any:
    ctx, trigger = env["ctx"], env["trigger"]
    power = rt.rules.flocks[ctx.flock][rt.state.flocks[ctx.flock].side].powers[env["power"]]
    rt.emit("power", ctx.flock, flock=ctx.flock, trigger=trigger[2:])
    return run_frame(rt, power.effect, ctx.sub(suppressed=ctx.suppressed | {trigger}, depth=ctx.depth + 1,
                                           source=f"power {trigger}"))


# each matching power in the side's order
EMIT = program(
    "effects.emit", ("ctx", "trigger"), {"ctx": Ctx, "trigger": str, "power": int},
    ForEach("power", _listening, (Call("power", _fire_power),)))


# --- verbs ---------------------------------------------------------------------------------------
def _gain_fruit(rt: Runtime, ctx: Ctx, n: int) -> Entry | None:
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
    # the fruit limit (R-LIMIT-1) asks only when over it: under it, no frame to push
    return payment.fruit_limit_frame(ctx.flock) if sum(fl.fruit.values()) > rt.rules.fruit_limit else None


def _gain_domain(rt: Runtime, ctx: Ctx, n: int) -> Entry | None:
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
    return EMIT.start(ctx, "t-gain-domain") if got else None


# --- up to n markers of the player's choice returned to the bag ----------------------------------------------
def _may_return(rt: Runtime, env: Env) -> bool:
    return env["n"] > 0 and bool(rt.state.flocks[env["ctx"].flock].domain)


def _ask_marker(rt: Runtime, env: Env) -> Question:
    flock = env["ctx"].flock
    env["n"] -= 1
    # asked even with markers of one terrain only: others know how many markers the reserve holds, not their
    # terrains (R-SETUP-4), until every reserve is revealed (R-END-1)
    return Question(flock, "return-domain", "Return a domain marker to the bag",
                    [option(A.ReturnMarker(t), ("Return a {} marker", (t,)))
                     for t in sorted(set(rt.state.flocks[flock].domain))],
                    not reserves_revealed(rt))


def _return_marker(rt: Runtime, env: Env) -> None:
    flock = env["ctx"].flock
    t = env.pop("marker").terrain
    rt.state.flocks[flock].domain.remove(t)
    rt.state.domain_bag[t] = rt.state.domain_bag.get(t, 0) + 1
    rt.emit("return-domain", flock, flock=flock)


RETURN_DOMAIN = program(
    "effects.return_domain", ("ctx", "n"), {"ctx": Ctx, "n": int, "marker": A.ReturnMarker},
    While(_may_return, (Ask("marker", _ask_marker, into="marker", kinds={"return-domain": ("return-marker",)}),
                        Do(_return_marker))))


def _pay_frame(rt: Runtime, call: ast.Call, ctx: Ctx) -> Entry | None:
    req = payment.req_of_call(call)
    if not payment.can_meet(rt.state.flocks[ctx.flock], req, rt.rules.fruits):
        raise _Unpaid()
    return payment.pay_frame(ctx.flock, req)


def _gain_vp_frame(rt: Runtime, call: ast.Call, ctx: Ctx) -> Entry | None:
    if not ctx.no_vp:   # R-ASYM-4: doubled Nest benefits exclude Victory Points
        rt.state.flocks[ctx.flock].season_vp += _n(call)
        rt.emit("gain-vp", ctx.flock, flock=ctx.flock, vp=_n(call))
    return None


def _can_pay_call(rt: Runtime, call: ast.Call, ctx: Ctx) -> bool:
    return payment.can_meet(rt.state.flocks[ctx.flock], payment.req_of_call(call), rt.rules.fruits)


# the gains and payments; the other rule modules register their own verbs (interpreter/engine/verb_table.py)
_FRAMES: dict[str, Callable[[Runtime, ast.Call, Ctx], Entry | None]] = {
    "gain-fruit": lambda rt, c, ctx: _gain_fruit(rt, ctx, _n(c)),
    "gain-domain": lambda rt, c, ctx: _gain_domain(rt, ctx, _n(c)),
    "gain-vp": _gain_vp_frame,
    "return-domain": lambda rt, c, ctx: RETURN_DOMAIN.start(ctx, _n(c)),
    **{verb: _pay_frame for verb in ("pay-fruit", "pay-fruit-of", "pay-domain")},
}
for _id, _frame in _FRAMES.items():
    TABLE.register(_id, _frame, _can_pay_call if _id.startswith("pay-") else None)
VERBS: dict[str, Verb] = TABLE.run      # the table, by its old names
POSSIBLE: dict[str, Callable[[Runtime, ast.Call, Ctx], bool]] = TABLE.possible
