"""The DSL effect interpreter: walks a bound AST; one mapping registry verb id -> procedure.

Unknown nodes or verbs are errors, never no-ops. `repeat` is bounded by its literal (and MAX_REPEAT),
effect nesting and trigger chains by MAX_DEPTH, and a trigger's effect never re-fires the trigger
that ran it (it is added to `Ctx.suppressed`). Every procedure is a generator that yields Decisions.
"""
from __future__ import annotations

import functools
from typing import Callable, Generator

from interpreter.dsl import ast, render
from interpreter.engine import build as build_mod
from interpreter.engine import feed as feed_mod
from interpreter.engine import compose, marking, move, payment, placing
from interpreter.engine.context import MAX_DEPTH, MAX_REPEAT, Ctx, EngineError, Runtime
from interpreter.engine.decisions import Option, ask


class _Unpaid(Exception):
    """A mandatory payment inside an effect could not be made: the rest of that sequence is skipped."""


@functools.lru_cache(maxsize=4096)
def _rendered(node) -> str:
    try:
        return render(node)
    except Exception:  # a label must never stop the game; fall back to the words as written
        return _words(node)


def describe(node: ast.Node | None) -> str:
    """Readable rules text of a node (the DSL renderer; the words as written as a fallback)."""
    if node is None:
        return "nothing"
    try:
        return _rendered(node)
    except TypeError:   # unhashable node
        return _words(node)


def _words(node) -> str:
    """The node's words as written."""
    if node is None:
        return "nothing"
    if isinstance(node, ast.Call):
        return " ".join(w.text for w in node.words) or (node.primitive or "?")
    if isinstance(node, ast.Seq):
        return "; ".join(_words(s) for s in node.stmts)
    if isinstance(node, ast.May):
        return f"may {{ {_words(node.body)} }}"
    if isinstance(node, ast.Repeat):
        return f"repeat {node.count} {{ {_words(node.body)} }}"
    if isinstance(node, ast.Choose):
        return " or ".join(f"{{ {_words(o)} }}" for o in node.options)
    return type(node).__name__


def run(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Generator:
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
            rt.log("effect", f"{ctx.flock} cannot pay: the rest of `{describe(node)}` is skipped", ctx.flock)
        return
    if isinstance(node, ast.Call):
        fn = VERBS.get(node.primitive or "")
        if rt.state.solo is not None:   # solo: the Kiwibot verbs, and Kiwibot's way of some core verbs (R-SOLO-8/10)
            from interpreter.engine import solo
            fn = solo.verb_for(rt, node, ctx, fn)
        if fn is None:
            raise EngineError(f"no engine procedure for DSL verb `{node.primitive}` ({describe(node)})")
        yield from fn(rt, node, ctx)
        return
    if isinstance(node, ast.Choose):
        opts = [Option(f"choice:{i + 1}", describe(o)) for i, o in enumerate(node.options) if possible(rt, o, ctx)]
        if not opts:
            return
        choice = yield from ask(ctx.flock, "choose", "Choose one", opts)
        yield from run(rt, node.options[int(choice.split(":")[1]) - 1], ctx)
        return
    if isinstance(node, ast.May):
        if not possible(rt, node.body, ctx):
            return
        text = describe(node.body)
        choice = yield from ask(ctx.flock, "may", f"You may: {text}",
                                [Option("may:yes", f"Yes: {text}"), Option("may:no", "No")])
        if choice == "may:yes":
            yield from run(rt, node.body, ctx)
        return
    if isinstance(node, ast.COMPOSED):   # the compositional layer: if, for each, phrases (compose.py)
        yield from compose.run(rt, node, ctx)
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
        check = POSSIBLE.get(node.primitive or "")
        return True if check is None else check(rt, node, ctx)
    if isinstance(node, ast.COMPOSED):
        return compose.possible(rt, node, ctx)
    return False


def emit(rt: Runtime, ctx: Ctx, trigger: str) -> Generator:
    """Fire the flock's powers listening to `trigger`, unless this chain already runs it."""
    if trigger in ctx.suppressed:
        return
    fl = rt.state.flocks[ctx.flock]
    side = rt.rules.flocks.get(ctx.flock, {}).get(fl.side)
    if side is None:
        return
    for power in side.powers:
        if power.trigger == trigger:
            rt.log("power", f"{ctx.flock}'s power fires ({trigger[2:]})", ctx.flock)
            yield from run(rt, power.effect, ctx.sub(suppressed=ctx.suppressed | {trigger}, depth=ctx.depth + 1,
                                                     source=f"power {trigger}"))


# --- verbs ---------------------------------------------------------------------------------------
def _n(call: ast.Call) -> int:
    return int(call.arg("n", 1))


def gain_fruit(rt: Runtime, ctx: Ctx, n: int) -> Generator:
    """Draw n fruit at random (fewer if the bag runs out), then the fruit limit (R-LIMIT-1)."""
    fl = rt.state.flocks[ctx.flock]
    got = []
    for _ in range(n):
        c = rt.state.draw_from(rt.state.fruit_bag)
        if c is None:
            break
        fl.fruit[c] = fl.fruit.get(c, 0) + 1
        got.append(c)
    rt.log("gain", f"{ctx.flock} gains {len(got)} fruit" + (f" ({', '.join(got)})" if got else " (the bag is empty)"),
           ctx.flock)
    yield from payment.enforce_fruit_limit(rt, ctx.flock)


def gain_domain(rt: Runtime, ctx: Ctx, n: int) -> Generator:
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
    rt.log("gain", f"{ctx.flock} gains {got} domain marker{'s' if got != 1 else ''}", ctx.flock)
    if got:
        yield from emit(rt, ctx, "t-gain-domain")


def return_domain(rt: Runtime, ctx: Ctx, n: int) -> Generator:
    """Return up to n markers of the player's choice to the bag."""
    fl = rt.state.flocks[ctx.flock]
    for _ in range(n):
        if not fl.domain:
            return
        choice = yield from ask(ctx.flock, "return-domain", "Return a domain marker to the bag",
                                [Option(f"return:{t}", f"Return a {t} marker") for t in sorted(set(fl.domain))])
        t = choice.split(":", 1)[1]
        fl.domain.remove(t)
        rt.state.domain_bag[t] = rt.state.domain_bag.get(t, 0) + 1
        rt.log("return", f"{ctx.flock} returns a domain marker", ctx.flock)


def _pay(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    req = payment.req_of_call(call)
    if not payment.can_meet(rt.state.flocks[ctx.flock], req, rt.rules.fruits):
        raise _Unpaid()
    yield from payment.pay(rt, ctx.flock, req)


def _gain_vp(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    if ctx.no_vp:   # R-ASYM-4: doubled Nest benefits exclude Victory Points
        return
    rt.state.flocks[ctx.flock].season_vp += _n(call)
    rt.log("vp", f"{ctx.flock} gains {_n(call)} VP", ctx.flock)
    yield from ()


def _place(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    for _ in range(_n(call)):
        yield from placing.place_one(rt, ctx.flock, ctx)


def _move(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    yield from move.moves(rt, ctx, _n(call))
    yield from emit(rt, ctx, "t-gain-move")   # R-ASYM-5: "play or gain Move actions"


def _mark(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    yield from marking.mark(rt, ctx, optional=False)


VERBS: dict[str, Callable[[Runtime, ast.Call, Ctx], Generator]] = {
    "gain-fruit": lambda rt, c, ctx: gain_fruit(rt, ctx, _n(c)),
    "gain-domain": lambda rt, c, ctx: gain_domain(rt, ctx, _n(c)),
    "gain-vp": _gain_vp,
    "pay-fruit": _pay,
    "pay-fruit-of": _pay,
    "pay-domain": _pay,
    "return-domain": lambda rt, c, ctx: return_domain(rt, ctx, _n(c)),
    "place-kiwi": _place,
    "grow-kiwi": lambda rt, c, ctx: placing.grow(rt, ctx.flock, _n(c), ctx),
    "remove-kiwi": lambda rt, c, ctx: placing.remove(rt, ctx.flock, _n(c)),
    "move": _move,
    "extra-moves": lambda rt, c, ctx: move.extra_moves(rt, ctx),
    "build": lambda rt, c, ctx: build_mod.build(rt, ctx),
    "feed": lambda rt, c, ctx: feed_mod.feed(rt, ctx),
    "mark-domain": _mark,
    "leader-straight": lambda rt, c, ctx: move.leader_straight(rt, ctx, _n(c)),
    "leader-walk": lambda rt, c, ctx: move.leader_walk(rt, ctx, _n(c)),
    "leader-jump": lambda rt, c, ctx: move.leader_jump(rt, ctx, _n(c)),
    "push-passed": lambda rt, c, ctx: move.push_passed(rt, ctx),
    "push-landing": lambda rt, c, ctx: move.push_landing(rt, ctx),
    "push-some-landing": lambda rt, c, ctx: move.push_some_landing(rt, ctx, _n(c)),
}


def _can_pay_call(rt: Runtime, call: ast.Call, ctx: Ctx) -> bool:
    return payment.can_meet(rt.state.flocks[ctx.flock], payment.req_of_call(call), rt.rules.fruits)


POSSIBLE: dict[str, Callable[[Runtime, ast.Call, Ctx], bool]] = {
    "pay-fruit": _can_pay_call, "pay-fruit-of": _can_pay_call, "pay-domain": _can_pay_call,
    "build": lambda rt, c, ctx: build_mod.possible(rt, ctx.flock),
    "feed": lambda rt, c, ctx: feed_mod.possible(rt, ctx.flock),
    "mark-domain": lambda rt, c, ctx: bool(marking.markable(rt, ctx.flock)),
    "move": lambda rt, c, ctx: move.can_move(rt, ctx),
    "grow-kiwi": lambda rt, c, ctx: bool(placing.growable(rt, ctx.flock, set())),
    "remove-kiwi": lambda rt, c, ctx: bool(rt.state.own_kiwi(ctx.flock)),
}
# verbs of the compositional layer (selectors, quantities) live in compose.py
VERBS.update(compose.VERBS)
POSSIBLE.update(compose.POSSIBLE)
