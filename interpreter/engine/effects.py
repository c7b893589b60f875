"""The DSL effect interpreter: walks a bound AST; one mapping registry verb id -> procedure.

Unknown nodes or verbs are errors, never no-ops. `repeat` is bounded by its literal (and MAX_REPEAT),
effect nesting and trigger chains by MAX_DEPTH, and a trigger's effect never re-fires the trigger
that ran it (it is added to `Ctx.suppressed`). The procedures are explicit frames (interpreter/engine/frames.py);
their old names are generators that drive them, for callers that are generators themselves.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Generator

from kcd.dsl import ast
from kcd.engine import action_types as A
from kcd.engine import labels, payment
from kcd.engine.context import MAX_DEPTH, MAX_REPEAT, Ctx, EngineError, Runtime
from kcd.engine.decisions import Option, Steps, option
from kcd.engine.frames import (Ask, Call, Done, Entry, Frame, FrameDataError, GenFrame, Signal, as_frame, drive,
                                       register_frame, RETURN)
from kcd.engine.describe import describe
from kcd.engine.verb_table import TABLE, Verb, count as _n
from kcd.engine.view import reserves_revealed
from kcd.memo import per_object


class _Unpaid(Exception):
    """A mandatory payment inside an effect could not be made: the rest of that sequence is skipped."""


def run(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Steps[Any]:
    """Execute an effect node for `ctx.flock` (RunFrame)."""
    return (yield from drive(rt, RunFrame(node, ctx)))


@register_frame("effects.run")
@dataclass(eq=False)
class RunFrame(Frame):
    """Execute an effect node for `ctx.flock`: a sequence (a mandatory payment that cannot be made skips the rest
    of it), a verb, `choose`, `may`, `repeat`, or a node of the compositional layer."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"choose": ("choice",), "may": ("may",)}}

    node: Any
    ctx: Ctx
    i: int = 0           # the next statement of a Seq, the next round of a Repeat
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start (or the next statement / round); pc 1: the answer to choose / may; pc 2: done."""
        node, ctx = self.node, self.ctx
        kind = type(node)
        if self.pc == 1:
            self.pc = 2
            if kind is ast.Choose:
                return Call(RunFrame(node.options[value.index - 1], ctx))
            return Call(RunFrame(node.body, ctx)) if value.yes else RETURN
        if self.pc == 2:
            return RETURN
        if node is None:
            return RETURN
        if kind is ast.Seq:
            if self.i == 0 and ctx.depth > MAX_DEPTH:
                raise EngineError(f"effect nesting deeper than {MAX_DEPTH} ({ctx.source})")
            if self.i >= len(node.stmts):
                return RETURN
            self.i += 1
            stmt = node.stmts[self.i - 1]
            if type(stmt) is ast.Call:   # a verb straight from its sequence (what RunFrame(stmt) would push)
                try:
                    return _verb_call(rt, stmt, ctx)
                except _Unpaid as exc:
                    return self.fail(rt, exc)
            return Call(RunFrame(stmt, ctx))
        if kind is ast.Repeat:
            if self.i == 0:
                if ctx.depth > MAX_DEPTH:
                    raise EngineError(f"effect nesting deeper than {MAX_DEPTH} ({ctx.source})")
                if node.count > MAX_REPEAT:
                    raise EngineError(f"repeat {node.count} exceeds the limit {MAX_REPEAT}")
            if self.i >= node.count:
                return RETURN
            self.i += 1
            return Call(RunFrame(node.body, ctx))
        if ctx.depth > MAX_DEPTH:
            raise EngineError(f"effect nesting deeper than {MAX_DEPTH} ({ctx.source})")
        self.pc = 2
        if kind is ast.Call:
            return _verb_call(rt, node, ctx)
        if kind is ast.Choose:
            shared = _choice_options(node)
            opts = [shared[i] for i, o in enumerate(node.options) if possible(rt, o, ctx)]
            if not opts:
                return RETURN
            self.pc = 1
            return Ask(ctx.flock, "choose", "Choose one", opts)
        if kind is ast.May:
            if not possible(rt, node.body, ctx):
                return RETURN
            prompt, yes, no = _may_options(node)
            self.pc = 1
            return Ask(ctx.flock, "may", prompt, [yes, no])
        if isinstance(node, ast.COMPOSED):   # the compositional layer: if, for each, phrases (compose.py)
            if rt.verbs.composed_run is None:
                raise EngineError("the compositional layer is not registered (import kcd.engine.verbs)")
            return Call(as_frame(rt.verbs.composed_run(rt, node, ctx)))
        raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")

    def check(self, rt: Runtime) -> None:
        """A loaded frame runs an effect node (or nothing), at a step of that node."""
        node = self.node
        if node is not None and not isinstance(node, (ast.Seq, ast.Call, ast.Choose, ast.May, ast.Repeat, ast.COMPOSED)):
            raise FrameDataError(f"effects.run: a {type(node).__name__} is not an effect")
        if type(self.i) is not int or self.i < 0 or self.pc == 1 and not isinstance(node, (ast.Choose, ast.May)):
            raise FrameDataError("effects.run: a step the effect does not have")

    def fail(self, rt: Runtime, exc: Exception) -> Signal:
        """A sequence catches a mandatory payment that cannot be made: the rest of it is skipped."""
        if type(self.node) is ast.Seq and isinstance(exc, _Unpaid):
            rt.emit("cannot-pay", self.ctx.flock, flock=self.ctx.flock, effect=describe(self.node))
            return RETURN
        raise exc


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


def _verb_call(rt: Runtime, node: ast.Call, ctx: Ctx) -> Signal:
    """Run a verb: its frame when it has one (pushed on the stack, so the step stays copyable), else its
    generator procedure (the mode's own way of the verb, or a verb not written as a frame)."""
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
    frame = verbs.frames.get(prim)
    if frame is not None and fn is verbs.run.get(prim):
        return Call(frame(rt, node, ctx))
    return Call(as_frame(fn(rt, node, ctx)))   # the mode's verbs may be frames too (modes/solo/verbs.py)


def verb_call(rt: Runtime, node: ast.Call, ctx: Ctx) -> Signal:
    """Run a verb call as `effects.run` does, the mode's own way of it included (compose.py: a phrase's verb once
    its quantities are numbers)."""
    return _verb_call(rt, node, ctx)


def emit_call(rt: Runtime, ctx: Ctx, trigger: str, here: str | None = None) -> Signal | None:
    """`Call(EmitFrame(ctx, trigger))` when one of the flock's powers listens to `trigger` (None: nothing fires);
    `here`: the event's hex, `this hex` in the powers' effects (the built hex, the fed Kiwi's)."""
    if trigger in ctx.suppressed:
        return None
    side = rt.rules.flocks.get(ctx.flock, {}).get(rt.state.flocks[ctx.flock].side)
    if side is None or not any(p.trigger == trigger for p in side.powers):
        return None
    return Call(EmitFrame(ctx if here is None else ctx.sub(here=here), trigger))


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


def emit(rt: Runtime, ctx: Ctx, trigger: str) -> Steps[Any]:
    """Fire the flock's powers listening to `trigger`, unless this chain already runs it (EmitFrame)."""
    return (yield from drive(rt, EmitFrame(ctx, trigger)))


@register_frame("effects.emit")
@dataclass(eq=False)
class EmitFrame(Frame):
    """Fire the flock's powers listening to `trigger`, unless this chain already runs it."""

    asks: ClassVar[frozenset[int] | None] = frozenset()

    ctx: Ctx
    trigger: str
    i: int = 0     # the next power of the flock's side

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Each matching power in the side's order."""
        ctx, trigger = self.ctx, self.trigger
        if trigger in ctx.suppressed:
            return RETURN
        fl = rt.state.flocks[ctx.flock]
        side = rt.rules.flocks.get(ctx.flock, {}).get(fl.side)
        if side is None:
            return RETURN
        powers = side.powers
        while self.i < len(powers):
            power = powers[self.i]
            self.i += 1
            if power.trigger == trigger:
                rt.emit("power", ctx.flock, flock=ctx.flock, trigger=trigger[2:])
                return Call(RunFrame(power.effect, ctx.sub(suppressed=ctx.suppressed | {trigger},
                                                           depth=ctx.depth + 1, source=f"power {trigger}")))
        return RETURN


# --- verbs ---------------------------------------------------------------------------------------
def _gain_fruit(rt: Runtime, ctx: Ctx, n: int) -> Entry:
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
    return payment.fruit_limit_frame(ctx.flock) if sum(fl.fruit.values()) > rt.rules.fruit_limit else Done()


def gain_fruit(rt: Runtime, ctx: Ctx, n: int) -> Steps[Any]:
    """Draw n fruit at random (fewer if the bag runs out), then the fruit limit (R-LIMIT-1)."""
    return (yield from drive(rt, _gain_fruit(rt, ctx, n)))


def _gain_domain(rt: Runtime, ctx: Ctx, n: int) -> Frame:
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
    return EmitFrame(ctx, "t-gain-domain") if got else Done()


def gain_domain(rt: Runtime, ctx: Ctx, n: int) -> Steps[Any]:
    """Draw n domain markers into the private reserve; an empty bag gives nothing (R-DM-5)."""
    return (yield from drive(rt, _gain_domain(rt, ctx, n)))


@register_frame("effects.return_domain")
@dataclass(eq=False)
class ReturnDomainFrame(Frame):
    """Return up to n markers of the player's choice to the bag."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"return-domain": ("return-marker",)}}

    ctx: Ctx
    n: int
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 1: return the chosen marker; then ask again while markers and returns are left."""
        ctx = self.ctx
        fl = rt.state.flocks[ctx.flock]
        if self.pc == 1:
            t = value.terrain
            fl.domain.remove(t)
            rt.state.domain_bag[t] = rt.state.domain_bag.get(t, 0) + 1
            rt.emit("return-domain", ctx.flock, flock=ctx.flock)
        if self.n <= 0 or not fl.domain:
            return RETURN
        self.n -= 1
        self.pc = 1
        # asked even with markers of one terrain only: others know how many markers the reserve holds, not their
        # terrains (R-SETUP-4), until every reserve is revealed (R-END-1)
        return Ask(ctx.flock, "return-domain", "Return a domain marker to the bag",
                   [option(A.ReturnMarker(t), ("Return a {} marker", (t,))) for t in sorted(set(fl.domain))],
                   not reserves_revealed(rt))


def return_domain(rt: Runtime, ctx: Ctx, n: int) -> Steps[None]:
    """Return up to n markers of the player's choice to the bag."""
    return (yield from drive(rt, ReturnDomainFrame(ctx, n)))


def _pay_frame(rt: Runtime, call: ast.Call, ctx: Ctx) -> Entry:
    req = payment.req_of_call(call)
    if not payment.can_meet(rt.state.flocks[ctx.flock], req, rt.rules.fruits):
        raise _Unpaid()
    return payment.pay_frame(ctx.flock, req)


def _gain_vp_frame(rt: Runtime, call: ast.Call, ctx: Ctx) -> Frame:
    if not ctx.no_vp:   # R-ASYM-4: doubled Nest benefits exclude Victory Points
        rt.state.flocks[ctx.flock].season_vp += _n(call)
        rt.emit("gain-vp", ctx.flock, flock=ctx.flock, vp=_n(call))
    return Done()


def _can_pay_call(rt: Runtime, call: ast.Call, ctx: Ctx) -> bool:
    return payment.can_meet(rt.state.flocks[ctx.flock], payment.req_of_call(call), rt.rules.fruits)


def _verb(frame: Callable[[Runtime, ast.Call, Ctx], Entry]) -> Verb:
    """The generator form of a verb's frame (for callers that `yield from` a verb procedure)."""
    def procedure(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[Any]:
        return (yield from drive(rt, frame(rt, call, ctx)))
    return procedure


# the gains and payments; the other rule modules register their own verbs (interpreter/engine/verb_table.py)
_FRAMES: dict[str, Callable[[Runtime, ast.Call, Ctx], Entry]] = {
    "gain-fruit": lambda rt, c, ctx: _gain_fruit(rt, ctx, _n(c)),
    "gain-domain": lambda rt, c, ctx: _gain_domain(rt, ctx, _n(c)),
    "gain-vp": _gain_vp_frame,
    "return-domain": lambda rt, c, ctx: ReturnDomainFrame(ctx, _n(c)),
    **{verb: _pay_frame for verb in ("pay-fruit", "pay-fruit-of", "pay-domain")},
}
for _id, _frame in _FRAMES.items():
    TABLE.register(_id, _verb(_frame), _can_pay_call if _id.startswith("pay-") else None, frame=_frame)
VERBS: dict[str, Verb] = TABLE.run      # the table, by its old names
POSSIBLE: dict[str, Callable[[Runtime, ast.Call, Ctx], bool]] = TABLE.possible
