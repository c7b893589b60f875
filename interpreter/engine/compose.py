"""The interpreter of the compositional DSL: `if`, `for each`, phrases (verbs on selectors), event triggers
with filters and parameterised modifiers. Hooked into effects.run / effects.possible, feed, build and push.

A selection that leaves a choice asks the player one small decision at a time (`decisions.ask`): which
piece, then where. Work is bounded before play (interpreter/dsl/compose_check.py) and by the state: a
`for each` walks a snapshot of the elements its selector named when it started.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from interpreter.dsl import ast
from interpreter.engine import action_types as A
from interpreter.engine import effects, move, placing, push
from interpreter.engine.board import board_of
from interpreter.engine.context import Ctx, EngineError, Runtime, Turn
from interpreter.engine.decisions import Option, Steps, option
from interpreter.engine.frames import Ask, Call, Done, Frame, GenFrame, Return, Signal, drive, register_frame
from interpreter.engine.powers import immune, table
from interpreter.engine.selectors import Element, Scope, holds, live, plain, quantity, select
from interpreter.engine.verb_table import TABLE

__all__ = ["run", "frame_of", "possible", "scope", "emit_event", "event_frame", "MAX_AMOUNT"]

MAX_AMOUNT = 99   # a quantity given to a verb is capped like an `int` literal


def scope(rt: Runtime, ctx: Ctx, purpose: str = "default") -> Scope:
    """The names of a selector at this point of play."""
    ab = ctx.ability
    return Scope(ctx.flock, it=ctx.it, here=ctx.here, landing=ab.landing if ab else None,
                 starting=ab.start if ab else None, passed=tuple(ab.passed) if ab else (), purpose=purpose)


def _amount(rt: Runtime, value, ctx: Ctx) -> int:
    return min(MAX_AMOUNT, quantity(rt.state, value, scope(rt, ctx)))


def run(rt: Runtime, node, ctx: Ctx) -> Steps[Any]:
    """Execute an `if`, `for each` or phrase for `ctx.flock` (its frame: `frame_of`)."""
    return (yield from drive(rt, frame_of(rt, node, ctx)))


def frame_of(rt: Runtime, node, ctx: Ctx) -> Frame:
    """The frame that executes an `if`, `for each` or phrase (effects.RunFrame pushes it)."""
    if isinstance(node, ast.If):
        return IfFrame(node, ctx)
    if isinstance(node, ast.ForEach):
        return ForEachFrame(node, ctx)
    if isinstance(node, ast.Phrase):
        return PhraseFrame(node, ctx)
    raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")


@register_frame("compose.if")
@dataclass(eq=False)
class IfFrame(Frame):
    """`if <condition> { } else { }`: the branch the condition picks now."""

    node: Any
    ctx: Ctx
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: test the condition and run the branch; 1: done."""
        if self.pc == 1:
            return Return()
        self.pc = 1
        node = self.node
        branch = node.then if holds(rt.state, node.cond, scope(rt, self.ctx)) else node.orelse
        return Call(effects.RunFrame(branch, self.ctx)) if branch is not None else Return()


@register_frame("compose.for_each")
@dataclass(eq=False)
class ForEachFrame(Frame):
    """`for each <selector> { }`: the body once per element the selector named when it started (a snapshot, kept
    as plain data: a Kiwi by its id); over players the element player does the body."""

    node: Any
    ctx: Ctx
    els: list | None = None
    i: int = 0
    max_pc: ClassVar[int] = 0

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """The next element's body."""
        node, ctx = self.node, self.ctx
        if self.els is None:
            els = select(rt.state, node.sel, scope(rt, ctx))
            if node.cap is not None:
                els = els[:_amount(rt, node.cap, ctx)]
            self.els = [plain(e) for e in els]
        if self.i >= len(self.els):
            return Return()
        el = self.els[self.i]
        self.i += 1
        if el[0] == "player":   # "each opponent ... returns": the element player does the body
            sub = Ctx(el[2], suppressed=ctx.suppressed, depth=ctx.depth + 1, source=ctx.source, it=el, here=ctx.here)
        else:
            sub = ctx.sub(it=el, depth=ctx.depth + 1)
        return Call(effects.RunFrame(node.body, sub))


def _chosen_sels(node: ast.Phrase) -> list[ast.Selector]:
    """The `a chosen <player>` selectors of a phrase, in the order the player is asked about them."""
    out: list[ast.Selector] = []

    def visit(sel: ast.Selector) -> None:
        if sel.ref == "chosen":
            out.append(sel)
            return
        for f in sel.filters:
            if f.arg is not None:
                visit(f.arg)
    for _, value in node.args:
        if isinstance(value, ast.Selector):
            visit(value)
    return out


def _fixed(node: ast.Phrase, chosen: list) -> ast.Phrase:
    """The phrase with its chosen players filled in (`chosen`: the flocks picked, in `_chosen_sels` order; ""
    names nobody)."""
    if not chosen:
        return node
    answers = iter(chosen)

    def fix(sel: ast.Selector) -> ast.Selector:
        if sel.ref == "chosen":
            return replace(sel, ref="flock:" + next(answers))
        return replace(sel, filters=tuple(replace(f, arg=fix(f.arg)) if f.arg is not None else f
                                          for f in sel.filters))
    return replace(node, args=tuple((n, fix(v) if isinstance(v, ast.Selector) else v) for n, v in node.args))


@register_frame("compose.phrase")
@dataclass(eq=False)
class PhraseFrame(Frame):
    """A phrase: first the player picks each `a chosen opponent`, then the verb runs on the selectors (its frame,
    or its generator procedure), or, for a first-language verb given quantities, on the numbers they give now."""

    node: Any
    ctx: Ctx
    chosen: list = field(default_factory=list)
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the next chosen player, or run the verb; 1: the player picked; 2: done."""
        if self.pc == 2:
            return Return()
        ctx = self.ctx
        if self.pc == 1:
            self.chosen.append(value.flock)
            self.pc = 0
        pending = _chosen_sels(self.node)
        while len(self.chosen) < len(pending):
            sel = pending[len(self.chosen)]
            who = [e[2] for e in select(rt.state, replace(sel, ref=None), scope(rt, ctx)) if e[0] == "player"]
            if not who:
                self.chosen.append("")
                continue
            self.pc = 1
            return Ask(ctx.flock, "choose-player", "Choose a player",
                       [option(A.ChoosePlayer(f), f"Choose {f}") for f in who])
        self.pc = 2
        node = _fixed(self.node, self.chosen)
        prim = node.primitive or ""
        fn = PHRASES.get(prim)
        if fn is not None and any(isinstance(v, ast.Selector) for _, v in node.args):
            make = PHRASE_FRAMES.get(prim)
            return Call(make(self.node, list(self.chosen), ctx) if make is not None else GenFrame(fn(rt, node, ctx)))
        verb = rt.verbs.run.get(prim)
        if verb is None:
            raise EngineError(f"no engine procedure for DSL verb `{node.primitive}`")
        call = _concrete(rt, node, ctx)
        if call is None:
            return Return()
        frame = rt.verbs.frames.get(prim)
        return Call(frame(rt, call, ctx) if frame is not None else GenFrame(verb(rt, call, ctx)))


def _concrete(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> ast.Call | None:
    """A first-language call with the phrase's quantities evaluated now (None when an amount is 0)."""
    args = []
    for name, value in node.args:
        if isinstance(value, (ast.QCall, ast.BinOp, ast.Num)):
            value = _amount(rt, value, ctx)
            if value <= 0:
                return None
        args.append((name, value))
    return ast.Call(node.words, node.span, node.primitive, tuple(args))


def possible(rt: Runtime, node, ctx: Ctx) -> bool:
    """Whether the node can be performed now (a `choose` option, a `may`, a card's play mode)."""
    if isinstance(node, ast.If):
        branch = node.then if holds(rt.state, node.cond, scope(rt, ctx)) else node.orelse
        return True if branch is None else effects.possible(rt, branch, ctx)
    if isinstance(node, ast.ForEach):
        return True
    if isinstance(node, ast.Phrase):
        if node.primitive in PHRASES:
            check = PHRASE_POSSIBLE.get(node.primitive)
            return True if check is None else check(rt, node, ctx)
        call = _concrete(rt, node, ctx)
        return True if call is None else effects.possible(rt, call, ctx)
    return False


# --- verbs on selectors -------------------------------------------------------------------------------

def _pick(el, verb: str) -> A.Action:
    """The action naming a Kiwi or a Leader a verb acts on."""
    kind, hex_id, thing = el
    if kind == "kiwi":
        return A.PickKiwi(verb, thing.id, thing.flock, thing.size, hex_id)
    return A.PickLeader(verb, thing, hex_id)


def _pick_options(els: list, verb: str, label) -> tuple[list[Option], dict[A.Action, Element]]:
    """One option per distinct action (identical Kiwi in a hex are one choice, the first stands for them),
    and the element each action names."""
    by_action: dict[A.Action, Element] = {}
    opts: list[Option] = []
    seen: set[str] = set()
    for e in els:
        act = _pick(e, verb)
        if act.id() in seen:
            continue
        seen.add(act.id())
        by_action[act] = e
        opts.append(option(act, label(e)))
    return opts, by_action


def _label(el) -> str:
    kind, hex_id, thing = el
    if kind == "kiwi":
        return f"the {thing.flock} size-{thing.size} Kiwi on {hex_id}"
    if kind == "leader":
        return f"the {thing} Leader on {hex_id}"
    return f"the {kind} on {hex_id}"


def _dest_hexes(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> list[str]:
    return [e[1] for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "hex"]


@dataclass(eq=False)
class _PhraseVerb(Frame):
    """A verb of a phrase as a frame: the phrase as written (a node of the rules, saved by its address), the
    players picked for its `a chosen ...` selectors, and the context."""

    node: Any
    chosen: list
    ctx: Ctx

    def named(self, rt: Runtime, sel: ast.Selector, kinds: tuple[str, ...] = ("kiwi", "leader")) -> list:
        """The elements of these kinds the selector names now."""
        return [e for e in select(rt.state, sel, scope(rt, self.ctx)) if e[0] in kinds]


def _now(rt: Runtime, ref) -> tuple | None:
    """A plain element as it stands now: None when the piece left the hex it was named in."""
    el = live(rt.state, ref)
    if el is not None and el[0] == "leader" and rt.state.flocks[el[2]].leader_hex != el[1]:
        return None
    return el


@dataclass(eq=False)
class _EachToFrame(_PhraseVerb, ABC):
    """Take each piece named (`a ...`: the player first picks which) to a hex the destination names, one small
    decision per piece: the steps `push <pieces> to <hexes>` and `move <pieces> to <hexes>` share. A piece that left
    its hex, or has no hex to go to, stays."""

    els: list | None = None
    i: int = 0
    max_pc: ClassVar[int] = 2
    verb: ClassVar[str]         # the picking action's verb and the labels' first word
    ask_kind: ClassVar[str]     # the kind of the decision where a piece goes

    def kept(self, rt: Runtime, els: list) -> list:
        """The named elements the verb acts on, as plain data."""
        return [plain(e) for e in els]

    @abstractmethod
    def dests(self, rt: Runtime, el: tuple, node: Any) -> list[str]:
        """The hexes this piece may go to (none: it stays)."""

    @abstractmethod
    def act(self, el: tuple, dest: str) -> A.Action:
        """The action taking this piece to `dest`."""

    @abstractmethod
    def apply(self, rt: Runtime, el: tuple, dest: str) -> None:
        """Take the piece to the hex chosen."""

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start, or the next piece; 1: the piece picked; 2: where the last one goes."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        sel = node.arg("what")
        word = self.verb.capitalize()
        if self.pc == 2:
            assert self.els is not None   # pc 2 asked about one of them
            asked = _now(rt, self.els[self.i - 1])
            assert asked is not None   # asked just now: it is still there
            self.apply(rt, asked, value.to)
        elif self.pc == 1:
            _, by_action = _pick_options(self.named(rt, sel), self.verb, lambda e: "")
            self.els = self.kept(rt, [by_action[value]])
        elif self.els is None:
            els = self.named(rt, sel)
            if sel.quant == "one" and len(els) > 1:
                opts, _ = _pick_options(els, self.verb, lambda e: f"{word} {_label(e)}")
                self.pc = 1
                return Ask(ctx.flock, self.verb, f"Choose what to {self.verb}", opts)
            self.els = self.kept(rt, els)
        els = self.els
        while self.i < len(els):
            el = _now(rt, els[self.i])
            self.i += 1
            if el is None:
                continue
            dests = self.dests(rt, el, node)
            if not dests:
                continue
            self.pc = 2
            return Ask(ctx.flock, self.ask_kind, f"{word} {_label(el)}",
                       [option(self.act(el, d), f"{word} {_label(el)} to {d}") for d in dests])
        return Return()


@register_frame("compose.push_to")
@dataclass(eq=False)
class PushToFrame(_EachToFrame):
    """Push each piece named, one at a time, to an adjacent hex the destination names (R-PUSH-2); pieces that
    cannot be pushed (`... cannot be pushed` powers) are left out."""

    verb: ClassVar[str] = "push"
    ask_kind: ClassVar[str] = "push"

    def kept(self, rt: Runtime, els: list) -> list:
        """The named pieces no power shields."""
        shield = immune(rt)
        if shield is not None:
            els = [e for e in els if not (e[2].id in shield[0] if e[0] == "kiwi" else e[2] in shield[1])]
        return [plain(e) for e in els]

    def dests(self, rt: Runtime, el: tuple, node: Any) -> list[str]:
        """The adjacent hexes the destination names; none: the piece stays, and the log says so."""
        allowed = set(_dest_hexes(rt, node.arg("dest"), self.ctx))
        out = [d for d in board_of(rt.state).adjacent(el[1]) if d in allowed and d != el[1]]
        if not out:
            rt.emit("push-stays", self.ctx.flock, flock=self.ctx.flock, piece=_label(el))
        return out

    def act(self, el: tuple, dest: str) -> A.Action:
        """A push of this Kiwi or Leader."""
        kind, origin, thing = el
        return A.PushKiwi(thing.id, thing.flock, thing.size, origin, dest) if kind == "kiwi" else A.PushLeader(thing, origin, dest)

    def apply(self, rt: Runtime, el: tuple, dest: str) -> None:
        """Push it (R-PUSH-2)."""
        kind, origin, thing = el
        flock = self.ctx.flock
        if kind == "kiwi":
            push.push_kiwi(rt, flock, origin, thing, dest)
        else:
            rt.state.flocks[thing].leader_hex = dest
            rt.emit("push-leader", flock, flock=flock, leader=thing, hex=origin, to=dest)


def _push_to(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Push each piece named to an adjacent hex the destination names (PushToFrame)."""
    return (yield from drive(rt, PushToFrame(node, [], ctx)))


@register_frame("compose.push_out")
@dataclass(eq=False)
class PushOutFrame(_PhraseVerb):
    """Push the pieces named out of the hexes named, hex by hex in the order named, one at a time, each where the
    player picks (an adjacent hex, or off the island from an edge hex: R-PUSH-2/3, R-LEAD-4/5), until none of them
    is left in that hex; `push up to n of ...` pushes at most n in all and may stop. The Leader whose ability this
    is never pushes itself (R-LEAD-6: "all the other Kiwi")."""

    hexes: list | None = None
    i: int = 0
    budget: int = -1     # pushes left (`push up to n`); -1: no limit
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start, or the next push; 1: the player's answer; 2: that push is done."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        if self.hexes is None:
            self.hexes = list(dict.fromkeys(_dest_hexes(rt, node.arg("where"), ctx)))
            self.budget = _amount(rt, node.arg("n"), ctx) if node.arg("n") is not None else -1
        if self.pc == 1:
            if value.kind == "stop":
                return Return()
            if self.budget > 0:
                self.budget -= 1
            self.pc = 2
            return Call(push.DoPushFrame(ctx.flock, value, True))
        skip = ctx.flock if ctx.ability is not None else None
        while self.i < len(self.hexes) and self.budget != 0:
            hex_id = self.hexes[self.i]
            named = select(rt.state, node.arg("what"), scope(rt, ctx))
            kiwi = {e[2].id for e in named if e[0] == "kiwi" and e[1] == hex_id}
            leaders = {e[2] for e in named if e[0] == "leader" and e[1] == hex_id}
            opts = [o for o in push.push_options(rt, hex_id, None, skip)
                    if (a := o.action) is not None
                    and (a.flock in leaders if isinstance(a, A.PushLeader) else a.kiwi in kiwi)]
            if not opts:
                self.i += 1
                continue
            self.pc = 1
            if self.budget < 0:
                return Ask(ctx.flock, "push", f"Push every Kiwi out of {hex_id}", opts)
            opts.append(option(A.word("stop"), "Stop pushing"))
            return Ask(ctx.flock, "push", f"Push a Kiwi out of {hex_id}?", opts)
        return Return()


def _push_out(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Push the pieces named out of the hexes named (PushOutFrame; `node` has its chosen players filled in)."""
    return (yield from drive(rt, PushOutFrame(node, [], ctx)))


@register_frame("compose.place_on")
@dataclass(eq=False)
class PlaceOnFrame(_PhraseVerb):
    """Place n size-1 Kiwi, each on a hex the selector names; tokens as in R-RES-2 (an island token may be
    refused), each then uncovering its track slot's benefit (R-TRACK-1)."""

    left: int = -1
    hexes: list = field(default_factory=list)
    source: Any = None
    max_pc: ClassVar[int] = 3

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the next Kiwi: take a token; 1: the token taken, ask the hex; 2: place it; 3: its track benefit
        ran, next."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        if self.pc == 1:
            if value is None:
                return Return()
            self.source = value
            hexes = _dest_hexes(rt, node.arg("where"), ctx) or self.hexes   # an island token may change nothing
            self.pc = 2
            return Ask(ctx.flock, "place-kiwi", "Place a size-1 Kiwi", [option(A.Place(h), f"Place on {h}") for h in hexes])
        if self.pc == 2:
            hex_id = value.hex
            rt.state.flocks[ctx.flock].supply -= 1
            new = rt.state.new_kiwi(ctx.flock, 1)
            rt.state.hexes[hex_id].kiwi.append(new)
            rt.emit("place", ctx.flock, flock=ctx.flock, hex=hex_id, kiwi=new.id)
            self.pc = 3
            benefit = placing.track_benefit_frame(rt, ctx.flock, self.source, ctx)
            if benefit is not None:   # none uncovered: on to the next Kiwi at once (pc 3's work)
                return Call(benefit)
        if self.left < 0:
            self.left = _amount(rt, node.arg("n"), ctx)
        if self.left <= 0:
            return Return()
        self.left -= 1
        self.hexes = _dest_hexes(rt, node.arg("where"), ctx)
        if not self.hexes:
            rt.emit("no-place-hex", ctx.flock, flock=ctx.flock)
            return Return()
        self.pc = 1
        return Call(placing.TakeTokenFrame(ctx.flock, "a new Kiwi", None, True))


def _place_on(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Place n size-1 Kiwi, each on a hex the selector names (PlaceOnFrame)."""
    return (yield from drive(rt, PlaceOnFrame(node, [], ctx)))


@register_frame("compose.grow")
@dataclass(eq=False)
class GrowSelFrame(_PhraseVerb):
    """Grow each Kiwi named by one (its owner stacks a token, R-FEED-3); `a kiwi ...`: the one the player picks;
    a Kiwi at the size limit stays."""

    els: list | None = None
    i: int = 0
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the Kiwi named (or ask which); 1: the one picked; 2: the next Kiwi grows."""
        ctx = self.ctx
        top = rt.rules.max_size
        sel = _fixed(self.node, self.chosen).arg("what")
        if self.pc == 1:
            _, by_action = _pick_options(self.named(rt, sel, ("kiwi",)), "grow", lambda e: "")
            self.els = [plain(by_action[value])]
        elif self.els is None:
            els = [e for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "kiwi" and e[2].size < top]
            if sel.quant == "one" and len(els) > 1:
                every = self.named(rt, sel, ("kiwi",))
                if len(every) > 1:
                    opts, _ = _pick_options(every, "grow", lambda e: f"Grow {_label(e)}")
                    self.pc = 1
                    return Ask(ctx.flock, "grow", "Choose what to grow", opts)
                els = every
            self.els = [plain(e) for e in els]
        self.pc = 2
        while self.i < len(self.els):
            el = live(rt.state, self.els[self.i])
            self.i += 1
            if el is not None and el[2].size < top:
                kiwi = el[2]
                return Call(placing.GrowOneFrame.of(el[1], kiwi, ctx, optional=kiwi.flock == ctx.flock))
        return Return()



def _grow(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Grow each Kiwi named by one (GrowSelFrame)."""
    return (yield from drive(rt, GrowSelFrame(node, [], ctx)))


def _shrink_els(rt: Runtime, els: list, ctx: Ctx) -> None:
    """Shrink each Kiwi by one; the token goes to its owner's Reserve, a size-0 Kiwi leaves."""
    for _, hex_id, kiwi in els:
        if not any(k is kiwi for k in rt.state.hexes[hex_id].kiwi):
            continue
        kiwi.size -= 1
        rt.state.flocks[kiwi.flock].reserve_kiwi += 1
        if kiwi.size == 0:
            placing.remove_from_hex(rt, hex_id, kiwi)
        rt.emit("shrink", ctx.flock, flock=ctx.flock, owner=kiwi.flock, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)


def _remove_els(rt: Runtime, els: list, ctx: Ctx) -> None:
    """Remove each Kiwi to its owner's Reserve."""
    for _, hex_id, kiwi in els:
        if any(k is kiwi for k in rt.state.hexes[hex_id].kiwi):
            placing.remove_from_hex(rt, hex_id, kiwi)
            rt.state.flocks[kiwi.flock].reserve_kiwi += kiwi.size
            rt.emit("remove-piece", ctx.flock, flock=ctx.flock, owner=kiwi.flock, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)


_ACTS = {"shrink-sel": ("shrink", _shrink_els), "remove-sel": ("remove", _remove_els)}


@register_frame("compose.act_on_kiwi")
@dataclass(eq=False)
class ActOnKiwiFrame(_PhraseVerb):
    """`shrink <pieces>` / `remove <pieces>`: every Kiwi named, or (`a kiwi ...`) the one the player picks."""

    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the Kiwi named (or ask which); 1: the one picked."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        verb, act = _ACTS[node.primitive or ""]
        sel = node.arg("what")
        els = self.named(rt, sel, ("kiwi",))
        if self.pc == 1:
            _, by_action = _pick_options(els, verb, lambda e: "")
            els = [by_action[value]]
        elif sel.quant == "one" and len(els) > 1:
            opts, _ = _pick_options(els, verb, lambda e: f"{verb.capitalize()} {_label(e)}")
            self.pc = 1
            return Ask(ctx.flock, verb, f"Choose what to {verb}", opts)
        act(rt, els, ctx)
        return Return()


def _shrink(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Shrink each Kiwi named by one (ActOnKiwiFrame)."""
    return (yield from drive(rt, ActOnKiwiFrame(node, [], ctx)))


def _remove(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Remove each Kiwi named to its owner's Reserve (ActOnKiwiFrame)."""
    return (yield from drive(rt, ActOnKiwiFrame(node, [], ctx)))


def _relocate(rt: Runtime, el, dest: str, who: str) -> None:
    kind, origin, thing = el
    if kind == "kiwi":
        placing.remove_from_hex(rt, origin, thing)
        rt.state.hexes[dest].kiwi.append(thing)
    else:
        rt.state.flocks[thing].leader_hex = dest
    rt.emit("move-piece", who, flock=who, piece=_label(el), to=dest)


@register_frame("compose.move_to")
@dataclass(eq=False)
class MoveToFrame(_EachToFrame):
    """Move each piece named to a hex the destination names (no push); `a ...`: the one the player picks."""

    verb: ClassVar[str] = "move"
    ask_kind: ClassVar[str] = "move-to"

    def dests(self, rt: Runtime, el: tuple, node: Any) -> list[str]:
        """Any hex the destination names but its own."""
        return [h for h in _dest_hexes(rt, node.arg("dest"), self.ctx) if h != el[1]]

    def act(self, el: tuple, dest: str) -> A.Action:
        """A move of this Kiwi or Leader."""
        kind, origin, thing = el
        return A.MoveToKiwi(thing.id, thing.flock, thing.size, origin, dest) if kind == "kiwi" else A.MoveToLeader(thing, origin, dest)

    def apply(self, rt: Runtime, el: tuple, dest: str) -> None:
        """Move it."""
        _relocate(rt, el, dest, self.ctx.flock)


def _move_to(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Move each piece named to a hex the destination names (MoveToFrame)."""
    return (yield from drive(rt, MoveToFrame(node, [], ctx)))


@register_frame("compose.swap")
@dataclass(eq=False)
class SwapFrame(_PhraseVerb):
    """Exchange the hexes of two pieces (the player picks each when several are named)."""

    first: Any = None    # the first piece (plain), once known
    max_pc: ClassVar[int] = 2


    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the first piece (or ask); 1: the first picked, now the second (or ask); 2: the second picked."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        if self.pc == 0:
            els = self.named(rt, node.arg("a"))
            if len(els) > 1:
                opts, _ = _pick_options(els, "swap", lambda e: f"Swap {_label(e)}")
                self.pc = 1
                return Ask(ctx.flock, "swap", "Choose a piece to swap", opts)
            if not els:
                return Return()
            value, self.pc = None, 1
            self.first = plain(els[0])
        if self.pc == 1:
            if value is not None:
                _, by_action = _pick_options(self.named(rt, node.arg("a")), "swap", lambda e: "")
                self.first = plain(by_action[value])
            els = self.named(rt, node.arg("b"))
            if len(els) > 1:
                opts, _ = _pick_options(els, "swap-with", lambda e: f"Swap {_label(e)}")
                self.pc = 2
                return Ask(ctx.flock, "swap-with", "Choose a piece to swap", opts)
            if not els:
                return Return()
            second = els[0]
        else:
            _, by_action = _pick_options(self.named(rt, node.arg("b")), "swap-with", lambda e: "")
            second = by_action[value]
        first = live(rt.state, self.first)
        if first is None or second[1] == first[1]:
            return Return()
        _relocate(rt, first, second[1], ctx.flock)
        _relocate(rt, second, first[1], ctx.flock)
        return Return()


def _swap(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Exchange the hexes of two pieces (SwapFrame)."""
    return (yield from drive(rt, SwapFrame(node, [], ctx)))


@register_frame("compose.return_fruit")
@dataclass(eq=False)
class ReturnFruitFrame(Frame):
    """Return up to n fruit of the player's choice to the bag, one at a time."""

    call: Any
    ctx: Ctx
    left: int = -1
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start, or ask for the next fruit; 1: return the fruit picked."""
        ctx = self.ctx
        fl = rt.state.flocks[ctx.flock]
        if self.left < 0:
            self.left = _amount(rt, self.call.arg("n"), ctx)
        if self.pc == 1:
            c = value.fruit
            fl.fruit[c] -= 1
            rt.state.fruit_bag[c] = rt.state.fruit_bag.get(c, 0) + 1
            rt.emit("return-fruit", ctx.flock, flock=ctx.flock, fruit=c)
        if self.left <= 0:
            return Return()
        self.left -= 1
        colours = sorted(c for c, k in fl.fruit.items() if k > 0)
        if not colours:
            return Return()
        self.pc = 1
        return Ask(ctx.flock, "return-fruit", "Return a fruit to the bag",
                   [option(A.GiveFruit(c), f"Return a {c} fruit") for c in colours])


def _return_fruit(rt: Runtime, node: ast.Phrase | ast.Call, ctx: Ctx) -> Steps[Any]:
    """Return up to n fruit of the player's choice to the bag (ReturnFruitFrame)."""
    return (yield from drive(rt, ReturnFruitFrame(node, ctx)))


@register_frame("compose.jump_to")
@dataclass(eq=False)
class JumpToFrame(_PhraseVerb):
    """The Leader lands on a chosen hex the selector names, other than its start (R-LEAD-5)."""

    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the landing hex; 1: land there; 2: done."""
        ctx = self.ctx
        ab = ctx.ability
        if ab is None:
            raise EngineError("a leader verb ran outside a Leader ability")
        if self.pc == 2:
            return Return()
        if self.pc == 1:
            self.pc = 2
            move.land(rt, ctx, value.to, board_of(rt.state).between(ab.start, value.to))
            return Return()
        node = _fixed(self.node, self.chosen)
        dests = [h for h in _dest_hexes(rt, node.arg("dest"), ctx) if h != ab.start]
        if not dests:
            return Return()
        self.pc = 1
        return Ask(ctx.flock, "leader-move", "Your Leader jumps",
                   [option(A.LeaderTo(ab.start, h), f"Leader to {h}") for h in dests])


def _jump_to(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """The Leader lands on a chosen hex the selector names (JumpToFrame)."""
    return (yield from drive(rt, JumpToFrame(node, [], ctx)))


PHRASES = {
    "push-to": _push_to, "push-out": _push_out, "push-out-upto": _push_out, "place-on": _place_on, "grow-sel": _grow, "shrink-sel": _shrink, "remove-sel": _remove,
    "move-to": _move_to, "swap": _swap, "return-fruit": _return_fruit, "leader-jump-to": _jump_to,
}
PHRASE_POSSIBLE = {
    "return-fruit": lambda rt, n, ctx: sum(rt.state.flocks[ctx.flock].fruit.values()) > 0,
}


# phrases written as frames: (the phrase as written, the chosen players, ctx) -> the frame
PHRASE_FRAMES = {"push-out": PushOutFrame, "push-out-upto": PushOutFrame, "push-to": PushToFrame,
                 "leader-jump-to": JumpToFrame, "place-on": PlaceOnFrame, "grow-sel": GrowSelFrame,
                 "shrink-sel": ActOnKiwiFrame, "remove-sel": ActOnKiwiFrame, "move-to": MoveToFrame,
                 "swap": SwapFrame}
# verbs whose calls (numbers only) have a frame: (runtime, call, ctx) -> the frame
_CALL_FRAMES = {"return-fruit": lambda rt, c, ctx: ReturnFruitFrame(c, ctx)}

# registry verb id -> procedure in the engine's verb table (a phrase or a first-language call); if, for each
# and phrases are the node kinds effects.run hands this module through the table (as frames)
for _verb, _procedure in PHRASES.items():
    TABLE.register(_verb, _procedure, PHRASE_POSSIBLE.get(_verb), frame=_CALL_FRAMES.get(_verb))
TABLE.register_composed(frame_of, possible)


# --- event triggers with filters ----------------------------------------------------------------------

_EVENT_TRIGGERS = {"feed": ("t-feed-of", "t-feed-by"), "build": ("t-build-on", "t-build-by")}


def emit_event(rt: Runtime, ctx: Ctx, kind: str, hex_id: str, target=None) -> Steps[Any]:
    """Fire every flock's compositional triggers on an engine event (event_frame, as a generator)."""
    return (yield from drive(rt, event_frame(rt, ctx, kind, hex_id, target)))


def event_frame(rt: Runtime, ctx: Ctx, kind: str, hex_id: str, target=None) -> Frame:
    """The frame firing every flock's compositional triggers on an engine event (`feed` of the Kiwi `target` in
    `hex_id`, `build` on `hex_id`) whose filters match: who acted (`by`), the piece (`feed <pieces>`), where (`on
    <hexes>`); nothing to fire: a frame that returns at once."""
    ids = _EVENT_TRIGGERS.get(kind, ())
    powers = table(rt.rules)
    if not any(t in powers for t in ids):
        return Done()
    return EmitEventFrame(kind, hex_id, target.id if target is not None else None, ctx)


@register_frame("compose.emit_event")
@dataclass(eq=False)
class EmitEventFrame(Frame):
    """Fire the matching compositional triggers of every flock, in seat order and power order (emit_event)."""

    event: str
    hex: str
    target: int | None
    ctx: Ctx
    fi: int = 0          # the flock (seat index) and power index to look at next
    pi: int = 0
    max_pc: ClassVar[int] = 0

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """The next power that fires: its effect."""
        ctx, hex_id, ids = self.ctx, self.hex, _EVENT_TRIGGERS.get(self.event, ())
        seats = rt.state.seats
        while self.fi < len(seats):
            flock = seats[self.fi]
            side = rt.rules.flocks.get(flock, {}).get(rt.state.flocks[flock].side)
            side_powers = side.powers if side is not None else []
            while self.pi < len(side_powers):
                power = side_powers[self.pi]
                self.pi += 1
                trigger = power.trigger
                if trigger is None or trigger not in ids or trigger in ctx.suppressed:
                    continue
                when = power.when
                assert when is not None   # a power's trigger is its `when`'s primitive (rules._flock)
                sc = Scope(flock, here=hex_id)
                by = when.arg("who")
                if by is None:
                    if ctx.flock != flock:
                        continue
                elif not any(e[2] == ctx.flock for e in select(rt.state, by, sc) if e[0] == "player"):
                    continue
                what = when.arg("what")
                if what is not None and not any(e[0] == "kiwi" and e[2].id == self.target
                                                for e in select(rt.state, what, sc)):
                    continue
                where = when.arg("where")
                if where is not None and hex_id not in {e[1] for e in select(rt.state, where, sc)}:
                    continue
                rt.emit("power", flock, flock=flock, trigger=self.event)
                sub = Ctx(flock, turn=ctx.turn if flock == ctx.flock else Turn(),
                          suppressed=ctx.suppressed | {trigger}, depth=ctx.depth + 1,
                          source=f"power {power.trigger}", here=hex_id)
                return Call(effects.RunFrame(power.effect, sub))
            self.fi += 1
            self.pi = 0
        return Return()
