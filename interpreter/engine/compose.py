"""The interpreter of the compositional DSL: `if`, `for each`, phrases (verbs on selectors), event triggers
with filters and parameterised modifiers. Hooked into effects.run / effects.possible, feed, build and push.

A selection that leaves a choice asks the player one small decision at a time (`decisions.ask`): which
piece, then where. Work is bounded before play (interpreter/dsl/compose_check.py) and by the state: a
`for each` walks a snapshot of the elements its selector named when it started.

Every procedure is an explicit frame (interpreter/engine/frames.py) holding plain data. Labels and prompts are Texts
(a template and plain values), built when read. A frame loaded from a save is checked (`check`): its node is a node
of its kind, its elements, hexes, players and counters are well formed and at a step it can be at (`asks`: the steps
that wait for an answer); the frame that asked the pending decision recomputes what it asks there from the loaded
state (`asked`), and `check_answer` refuses a pending decision that is not that one (another kind, player or options).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from kcd.dsl import ast
from kcd.engine import action_types as A
from kcd.engine import effects, move, placing, push
from kcd.engine.board import board_of
from kcd.engine.context import Ctx, EngineError, Runtime, Turn
from kcd.engine.compose_load import AskingFrame, check_ctx, check_index, need, well_formed
from kcd.engine.decisions import Option, Steps, option
from kcd.engine.frames import Ask, Call, Done, Frame, GenFrame, Return, Signal, drive, register_frame
from kcd.engine.powers import immune, table
from kcd.engine.selectors import Element, Scope, holds, live, plain, quantity, select
from kcd.engine.verb_table import TABLE

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
    if isinstance(node, ast.ChoosePlayer):
        return ChoosePlayerFrame(node, ctx)
    if isinstance(node, ast.During):
        return DuringFrame(node, ctx)
    raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")


@dataclass(eq=False)
class _OneBodyFrame(Frame, ABC):
    """A statement that runs one body once (or none): which, and in which context, is the statement's `branch`."""

    node: Any
    ctx: Ctx
    max_pc: ClassVar[int] = 1
    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    node_type: ClassVar[type]
    what: ClassVar[str]

    def check(self, rt: Runtime) -> None:
        """A loaded frame runs a node of its statement."""
        need(isinstance(self.node, self.node_type), self, f"not {self.what}")
        check_ctx(rt, self, self.ctx)

    @abstractmethod
    def branch(self, rt: Runtime) -> tuple[Any, Ctx] | None:
        """The body to run now and its context (None: nothing to run)."""

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: run the body; 1: done."""
        if self.pc == 1:
            return Return()
        self.pc = 1
        found = self.branch(rt)
        return Call(effects.RunFrame(*found)) if found is not None else Return()


@register_frame("compose.if")
@dataclass(eq=False)
class IfFrame(_OneBodyFrame):
    """`if <condition> { } else { }`: the branch the condition picks now."""

    node_type: ClassVar[type] = ast.If
    what: ClassVar[str] = "an `if`"

    def branch(self, rt: Runtime) -> tuple[Any, Ctx] | None:
        """The branch the condition picks now."""
        node = self.node
        body = node.then if holds(rt.state, node.cond, scope(rt, self.ctx)) else node.orelse
        return (body, self.ctx) if body is not None else None


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
    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself

    def check(self, rt: Runtime) -> None:
        """A loaded `for each` runs a `for each` node over elements of the game."""
        need(isinstance(self.node, ast.ForEach), self, "not a `for each`")
        check_ctx(rt, self, self.ctx)
        need(self.els is None or all(well_formed(rt.state, e) for e in self.els), self,
              "an element that is not of the game")
        check_index(self, self.els, self.i)

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


def _player_ask(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> Ask | None:
    """The acting player's choice of one of the players the selector names (None: it names nobody)."""
    who = [e[2] for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "player"]
    if not who:
        return None
    return Ask(ctx.flock, "choose-player", "Choose a player",
               [option(A.ChoosePlayer(f), ("Choose {}", (f,))) for f in who])


@register_frame("compose.choose_player")
@dataclass(eq=False)
class ChoosePlayerFrame(AskingFrame):
    """`choose <players> { }`: the acting player picks one of the players named (a decision of their own, seen by
    everyone as any choice of a player is), then does the body with `them` that player; nobody named: nothing."""

    node: Any
    ctx: Ctx
    max_pc: ClassVar[int] = 2
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded choice runs a `choose <players>` node."""
        need(isinstance(self.node, ast.ChoosePlayer), self, "not a `choose <players>`")
        check_ctx(rt, self, self.ctx)

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: which player (None: the selector names nobody)."""
        return _player_ask(rt, self.node.sel, self.ctx) if self.pc == 1 else None

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask which player; 1: the body for the one picked; 2: done."""
        if self.pc == 2:
            return Return()
        if self.pc == 1:
            self.pc = 2
            el = ("player", None, value.flock)
            return Call(effects.RunFrame(self.node.body, self.ctx.sub(it=el, depth=self.ctx.depth + 1)))
        self.pc = 1
        ask = self.asked(rt)
        if ask is None:
            self.pc = 2
            return Return()
        return ask


@register_frame("compose.during")
@dataclass(eq=False)
class DuringFrame(_OneBodyFrame):
    """`this action: <modifier>; ...`: the statements after it run with the modifier added to the context's
    (`Ctx.during`), which the rules it changes read where they apply (push.after_move_frame)."""

    node_type: ClassVar[type] = ast.During
    what: ClassVar[str] = "a `this action:`"

    def branch(self, rt: Runtime) -> tuple[Any, Ctx] | None:
        """The statements after it, with the modifier."""
        ctx = self.ctx
        body = self.node.body
        return (body, ctx.sub(during=(ctx.during or ()) + (self.node.modifier,))) if body is not None else None


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


def _check_chosen(rt: Runtime, frame: Frame, node: Any, chosen: list, done: bool) -> None:
    """A loaded phrase's node is a phrase, and its chosen players are playing (or "": nobody), all of them picked
    (`done`) or some still to pick."""
    need(isinstance(node, ast.Phrase), frame, "not a phrase")
    wanted = len(_chosen_sels(node))
    need(all(type(f) is str and (f == "" or f in rt.state.flocks) for f in chosen), frame,
          "a chosen player who is not playing")
    need(len(chosen) == wanted if done else len(chosen) < wanted, frame,
          f"{len(chosen)} chosen players for {wanted} choices")


@register_frame("compose.phrase")
@dataclass(eq=False)
class PhraseFrame(AskingFrame):
    """A phrase: first the player picks each `a chosen opponent`, then the verb runs on the selectors (its frame,
    or its generator procedure), or, for a first-language verb given quantities, on the numbers they give now."""

    node: Any
    ctx: Ctx
    chosen: list = field(default_factory=list)
    max_pc: ClassVar[int] = 2
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded phrase: its players chosen so far (all of them once its verb runs)."""
        _check_chosen(rt, self, self.node, self.chosen, self.pc == 2)
        check_ctx(rt, self, self.ctx)

    def asked(self, rt: Runtime) -> Ask | None:
        """The player to pick for the next `a chosen ...` (None: nobody to pick)."""
        pending = _chosen_sels(self.node)
        if len(self.chosen) >= len(pending):
            return None
        return _player_ask(rt, replace(pending[len(self.chosen)], ref=None), self.ctx)

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
            ask = self.asked(rt)
            if ask is None:
                self.chosen.append("")
                continue
            self.pc = 1
            return ask
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
        return effects.verb_call(rt, call, ctx)   # as effects.run does: the mode's own way too (Kiwibot's, R-SOLO-8)


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
    if isinstance(node, (ast.ForEach, ast.ChoosePlayer)):
        return True
    if isinstance(node, ast.During):
        return node.body is None or effects.possible(rt, node.body, ctx.sub(during=(ctx.during or ()) + (node.modifier,)))
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


def _pick_options(els: list, verb: str, word: str = "") -> tuple[list[Option], dict[A.Action, Element]]:
    """One option per distinct action (identical Kiwi in a hex are one choice, the first stands for them), each
    labelled `<word> <the piece>` (built when read), and the element each action names."""
    by_action: dict[A.Action, Element] = {}
    opts: list[Option] = []
    seen: set[str] = set()
    for e in els:
        act = _pick(e, verb)
        if act.id() in seen:
            continue
        seen.add(act.id())
        by_action[act] = e
        opts.append(option(act, _piece_text(e, "{} ", "", (word,))))
    return opts, by_action


# the words naming a piece, and the templates of the labels and prompts that name one (built once, here: a label
# is a template and plain values, formatted when read)
_PIECE = {"kiwi": "the {} size-{} Kiwi on {}", "leader": "the {} Leader on {}", None: "the {} on {}"}
_TEMPLATES: dict[tuple[str | None, str, str], str] = {}


def _piece_values(el) -> tuple:
    """The plain values `_PIECE` names a piece with (a Kiwi's size as it is now: a label must not change later)."""
    kind, hex_id, thing = el
    if kind == "kiwi":
        return (thing.flock, thing.size, hex_id)
    return (thing, hex_id) if kind == "leader" else (kind, hex_id)


def _piece_text(el, before: str, after: str, values: tuple = (), more: tuple = ()) -> tuple[str, tuple]:
    """A Text naming the piece: `before` + its words + `after`, with `values` before its values and `more` after."""
    kind = el[0] if el[0] in ("kiwi", "leader") else None
    key = (kind, before, after)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = before + _PIECE[kind] + after
    return template, (*values, *_piece_values(el), *more)


def _label(el) -> str:
    """The words naming a piece now (event fields)."""
    return _PIECE[el[0] if el[0] in ("kiwi", "leader") else None].format(*_piece_values(el))


def _dest_hexes(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> list[str]:
    return [e[1] for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "hex"]


@dataclass(eq=False)
class _PhraseVerb(AskingFrame):
    """A verb of a phrase as a frame: the phrase as written (a node of the rules, saved by its address), the
    players picked for its `a chosen ...` selectors, and the context."""

    node: Any
    chosen: list
    ctx: Ctx

    def check(self, rt: Runtime) -> None:
        """A loaded verb runs a phrase of its own verb, with all its chosen players picked."""
        _check_chosen(rt, self, self.node, self.chosen, True)
        need(PHRASE_FRAMES.get(self.node.primitive or "") is type(self), self, "a phrase of another verb")
        check_ctx(rt, self, self.ctx)

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
    asks: ClassVar[frozenset[int] | None] = frozenset({1, 2})   # the steps that wait for an answer
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

    def stays(self, rt: Runtime, el: tuple) -> None:
        """The piece has no hex to go to (it stays)."""

    def check(self, rt: Runtime) -> None:
        """A loaded step: the pieces named (Kiwi and Leaders of the game), the one asked about still in its hex."""
        super().check(rt)
        els = self.els
        need(els is None or all(well_formed(rt.state, e, ("kiwi", "leader")) for e in els), self,
              "a piece that is not of the game")
        check_index(self, els, self.i)
        need(self.pc != 1 or els is None, self, "a piece to pick after the pieces were named")
        need(self.pc != 2 or els is not None and self.i > 0 and _now(rt, els[self.i - 1]) is not None, self,
              "no piece to ask about")

    def _pick_ask(self, els: list) -> Ask:
        return Ask(self.ctx.flock, self.verb, ("Choose what to {}", (self.verb,)),
                   _pick_options(els, self.verb, self.verb.capitalize())[0])

    def _dest_ask(self, rt: Runtime, el: tuple, node: Any) -> Ask | None:
        """Where this piece goes (None: nowhere, it stays)."""
        dests = self.dests(rt, el, node)
        if not dests:
            return None
        word = self.verb.capitalize()
        return Ask(self.ctx.flock, self.ask_kind, _piece_text(el, "{} ", "", (word,)),
                   [option(self.act(el, d), _piece_text(el, "{} ", " to {}", (word,), (d,))) for d in dests])

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: which piece; 2: where the last one goes."""
        node = _fixed(self.node, self.chosen)
        if self.pc == 1:
            sel = node.arg("what")
            els = self.named(rt, sel)
            return self._pick_ask(els) if sel.quant == "one" and len(els) > 1 else None
        el = _now(rt, self.els[self.i - 1]) if self.pc == 2 and self.els else None
        return self._dest_ask(rt, el, node) if el is not None else None

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: start, or the next piece; 1: the piece picked; 2: where the last one goes."""
        node = _fixed(self.node, self.chosen)
        sel = node.arg("what")
        if self.pc == 2:
            assert self.els is not None   # pc 2 asked about one of them
            asked = _now(rt, self.els[self.i - 1])
            assert asked is not None   # asked just now: it is still there
            self.apply(rt, asked, value.to)
        elif self.pc == 1:
            _, by_action = _pick_options(self.named(rt, sel), self.verb)
            self.els = self.kept(rt, [by_action[value]])
        elif self.els is None:
            els = self.named(rt, sel)
            if sel.quant == "one" and len(els) > 1:
                self.pc = 1
                return self._pick_ask(els)
            self.els = self.kept(rt, els)
        els = self.els
        while self.i < len(els):
            el = _now(rt, els[self.i])
            self.i += 1
            if el is None:
                continue
            ask = self._dest_ask(rt, el, node)
            if ask is None:
                self.stays(rt, el)
                continue
            self.pc = 2
            return ask
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
        shield = immune(rt, _cause(self.ctx))
        if shield is not None:
            els = [e for e in els if not (e[2].id in shield[0] if e[0] == "kiwi" else e[2] in shield[1])]
        return [plain(e) for e in els]

    def dests(self, rt: Runtime, el: tuple, node: Any) -> list[str]:
        """The adjacent hexes the destination names."""
        allowed = set(_dest_hexes(rt, node.arg("dest"), self.ctx))
        return [d for d in board_of(rt.state).adjacent(el[1]) if d in allowed and d != el[1]]

    def stays(self, rt: Runtime, el: tuple) -> None:
        """No hex to push it to: it stays, and the log says so."""
        rt.emit("push-stays", self.ctx.flock, flock=self.ctx.flock, piece=_label(el))

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


def _cause(ctx: Ctx) -> str:
    """What a push verb's pushes are, for `cannot be pushed by <cause>`: a Leader ability's, or an effect's."""
    return "abilities" if ctx.ability is not None else "effects"


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
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded push out of hexes of the island, at one of them, with pushes left as its phrase allows."""
        super().check(rt)
        hexes = self.hexes
        need(hexes is None or all(type(h) is str and h in rt.state.hexes for h in hexes), self,
              "not a hex of the island")
        check_index(self, hexes, self.i)
        need(self.pc == 0 or hexes is not None and self.i < len(hexes), self, "no hex to push out of")
        upto = self.node.arg("n") is not None
        need(hexes is None or (0 <= self.budget <= MAX_AMOUNT if upto else self.budget == -1), self,
              f"{self.budget} pushes left")

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: which piece to push out of the hex it is at (or, `up to n`, stop)."""
        if self.pc != 1 or self.hexes is None or self.budget == 0:
            return None
        return self._ask_at(rt, _fixed(self.node, self.chosen), self.hexes[self.i])

    def _ask_at(self, rt: Runtime, node: Any, hex_id: str) -> Ask | None:
        """The pushes of the pieces named out of this hex (None: none is left there)."""
        ctx = self.ctx
        skip = ctx.flock if ctx.ability is not None else None
        named = select(rt.state, node.arg("what"), scope(rt, ctx))
        kiwi = {e[2].id for e in named if e[0] == "kiwi" and e[1] == hex_id}
        leaders = {e[2] for e in named if e[0] == "leader" and e[1] == hex_id}
        opts = [o for o in push.push_options(rt, hex_id, None, skip, cause=_cause(ctx))
                if (a := o.action) is not None
                and (a.flock in leaders if isinstance(a, A.PushLeader) else a.kiwi in kiwi)]
        if not opts:
            return None
        if self.budget < 0:
            return Ask(ctx.flock, "push", ("Push every Kiwi out of {}", (hex_id,)), opts)
        opts.append(option(A.word("stop"), "Stop pushing"))
        return Ask(ctx.flock, "push", ("Push a Kiwi out of {}?", (hex_id,)), opts)

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
            return Call(push.do_push_frame(ctx.flock, value, True))
        while self.i < len(self.hexes) and self.budget != 0:
            ask = self._ask_at(rt, node, self.hexes[self.i])
            if ask is None:
                self.i += 1
                continue
            self.pc = 1
            return ask
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
    source: Any = None   # where the token came from (placing.TakeTokenFrame): ("track", slot), ("reserve", 0) ...
    max_pc: ClassVar[int] = 3
    asks: ClassVar[frozenset[int] | None] = frozenset({2})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded placing: Kiwi left to place, hexes of the island, and at step 2 a token in hand to place."""
        super().check(rt)
        need(-1 <= self.left <= MAX_AMOUNT, self, f"{self.left} Kiwi left")
        need(all(type(h) is str and h in rt.state.hexes for h in self.hexes), self, "not a hex of the island")
        source = self.source
        need(source is None or type(source) is tuple and len(source) == 2 and type(source[0]) is str
              and type(source[1]) is int, self, "not where a token comes from")
        need(self.pc != 2 or source is not None and rt.state.flocks[self.ctx.flock].supply > 0, self,
              "no token taken to place")

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 2: the hex for the token taken."""
        return self._ask_hex(rt, _fixed(self.node, self.chosen)) if self.pc == 2 else None

    def _ask_hex(self, rt: Runtime, node: Any) -> Ask:
        hexes = _dest_hexes(rt, node.arg("where"), self.ctx) or self.hexes   # an island token may change nothing
        return Ask(self.ctx.flock, "place-kiwi", "Place a size-1 Kiwi",
                   [option(A.Place(h), ("Place on {}", (h,))) for h in hexes])

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the next Kiwi: take a token; 1: the token taken, ask the hex; 2: place it; 3: its track benefit
        ran, next."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        if self.pc == 1:
            if value is None:
                return Return()
            self.source = value
            self.pc = 2
            return self._ask_hex(rt, node)
        if self.pc == 2:
            hex_id = value.hex
            rt.state.flocks[ctx.flock].supply -= 1
            new = rt.state.place_new_kiwi(hex_id, ctx.flock, 1)
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
        return Call(placing.take_token_frame(ctx.flock, "a new Kiwi", None, True))


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
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded growth: Kiwi of the game, still to pick at step 1."""
        super().check(rt)
        need(self.els is None or all(well_formed(rt.state, e, ("kiwi",)) for e in self.els), self,
              "a Kiwi that is not of the game")
        check_index(self, self.els, self.i)
        need(self.pc != 1 or self.els is None, self, "a Kiwi to pick after the Kiwi were named")

    def _growing(self, rt: Runtime, sel: ast.Selector) -> tuple[Ask | None, list]:
        """The Kiwi that grow, or the question which one (`a kiwi ...` naming several that can)."""
        top = rt.rules.max_size
        els = [e for e in select(rt.state, sel, scope(rt, self.ctx)) if e[0] == "kiwi" and e[2].size < top]
        if sel.quant == "one" and len(els) > 1:
            every = self.named(rt, sel, ("kiwi",))
            if len(every) > 1:
                opts, _ = _pick_options(every, "grow", "Grow")
                return Ask(self.ctx.flock, "grow", "Choose what to grow", opts), every
            els = every
        return None, els

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: which Kiwi grows."""
        return self._growing(rt, _fixed(self.node, self.chosen).arg("what"))[0] if self.pc == 1 else None

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the Kiwi named (or ask which); 1: the one picked; 2: the next Kiwi grows."""
        ctx = self.ctx
        top = rt.rules.max_size
        sel = _fixed(self.node, self.chosen).arg("what")
        if self.pc == 1:
            _, by_action = _pick_options(self.named(rt, sel, ("kiwi",)), "grow")
            self.els = [plain(by_action[value])]
        elif self.els is None:
            ask, els = self._growing(rt, sel)
            if ask is not None:
                self.pc = 1
                return ask
            self.els = [plain(e) for e in els]
        self.pc = 2
        while self.i < len(self.els):
            el = live(rt.state, self.els[self.i])
            self.i += 1
            if el is not None and el[2].size < top:
                kiwi = el[2]
                return Call(placing.grow_one_frame(el[1], kiwi, ctx, optional=kiwi.flock == ctx.flock))
        return Return()



def _grow(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Steps[Any]:
    """Grow each Kiwi named by one (GrowSelFrame)."""
    return (yield from drive(rt, GrowSelFrame(node, [], ctx)))


def _shrink_els(rt: Runtime, els: list, ctx: Ctx) -> None:
    """Shrink each Kiwi by one; the token goes to its owner's Reserve, a size-0 Kiwi leaves."""
    for _, hex_id, kiwi in els:
        if not any(k.id == kiwi.id for k in rt.state.hexes[hex_id].kiwi):
            continue
        kiwi = rt.state.resize_kiwi(hex_id, kiwi.id, -1)   # a size-0 Kiwi leaves the hex
        rt.state.flocks[kiwi.flock].reserve_kiwi += 1
        rt.emit("shrink", ctx.flock, flock=ctx.flock, owner=kiwi.flock, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)


def _remove_els(rt: Runtime, els: list, ctx: Ctx) -> None:
    """Remove each Kiwi to its owner's Reserve."""
    for _, hex_id, kiwi in els:
        if any(k.id == kiwi.id for k in rt.state.hexes[hex_id].kiwi):
            kiwi = rt.state.remove_kiwi(hex_id, kiwi.id)
            rt.state.flocks[kiwi.flock].reserve_kiwi += kiwi.size
            rt.emit("remove-piece", ctx.flock, flock=ctx.flock, owner=kiwi.flock, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)


_ACTS = {"shrink-sel": ("shrink", _shrink_els), "remove-sel": ("remove", _remove_els)}


@register_frame("compose.act_on_kiwi")
@dataclass(eq=False)
class ActOnKiwiFrame(_PhraseVerb):
    """`shrink <pieces>` / `remove <pieces>`: every Kiwi named, or (`a kiwi ...`) the one the player picks."""

    max_pc: ClassVar[int] = 1
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def _ask(self, verb: str, sel: ast.Selector, els: list) -> Ask | None:
        """Which Kiwi (`a kiwi ...` naming several), else None."""
        if sel.quant != "one" or len(els) < 2:
            return None
        return Ask(self.ctx.flock, verb, ("Choose what to {}", (verb,)), _pick_options(els, verb, verb.capitalize())[0])

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: which Kiwi."""
        node = _fixed(self.node, self.chosen)
        sel = node.arg("what")
        return self._ask(_ACTS[node.primitive or ""][0], sel, self.named(rt, sel, ("kiwi",))) if self.pc == 1 else None

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the Kiwi named (or ask which); 1: the one picked."""
        node = _fixed(self.node, self.chosen)
        verb, act = _ACTS[node.primitive or ""]
        sel = node.arg("what")
        els = self.named(rt, sel, ("kiwi",))
        if self.pc == 1:
            _, by_action = _pick_options(els, verb)
            els = [by_action[value]]
        elif (ask := self._ask(verb, sel, els)) is not None:
            self.pc = 1
            return ask
        act(rt, els, self.ctx)
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
        rt.state.move_kiwi(origin, dest, thing.id)
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
    asks: ClassVar[frozenset[int] | None] = frozenset({1, 2})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded swap: the first piece is of the game, and known when the second is asked."""
        super().check(rt)
        need(self.first is None or well_formed(rt.state, self.first, ("kiwi", "leader")), self,
              "a piece that is not of the game")
        need(self.pc != 2 or self.first is not None, self, "no first piece")

    def _which(self, rt: Runtime, node: Any, verb: str) -> tuple[Ask | None, list]:
        """The pieces `a` (verb swap) or `b` (swap-with) names, and the question which, when several."""
        els = self.named(rt, node.arg("a" if verb == "swap" else "b"))
        if len(els) < 2:
            return None, els
        return Ask(self.ctx.flock, verb, "Choose a piece to swap", _pick_options(els, verb, "Swap")[0]), els

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: the first piece; 2: the second."""
        return self._which(rt, _fixed(self.node, self.chosen), "swap" if self.pc == 1 else "swap-with")[0]

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the first piece (or ask); 1: the first picked, now the second (or ask); 2: the second picked."""
        ctx = self.ctx
        node = _fixed(self.node, self.chosen)
        if self.pc == 0:
            ask, els = self._which(rt, node, "swap")
            if ask is not None:
                self.pc = 1
                return ask
            if not els:
                return Return()
            value, self.pc = None, 1
            self.first = plain(els[0])
        if self.pc == 1:
            if value is not None:
                _, by_action = _pick_options(self.named(rt, node.arg("a")), "swap")
                self.first = plain(by_action[value])
            ask, els = self._which(rt, node, "swap-with")
            if ask is not None:
                self.pc = 2
                return ask
            if not els:
                return Return()
            second = els[0]
        else:
            _, by_action = _pick_options(self.named(rt, node.arg("b")), "swap-with")
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
class ReturnFruitFrame(AskingFrame):
    """Return up to n fruit of the player's choice to the bag, one at a time."""

    call: Any
    ctx: Ctx
    left: int = -1
    max_pc: ClassVar[int] = 1
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded `return n fruit`, with fruit left to return."""
        need(isinstance(self.call, (ast.Phrase, ast.Call)) and self.call.primitive == "return-fruit", self,
              "not a `return ... fruit`")
        need(-1 <= self.left <= MAX_AMOUNT and (self.pc == 0 or self.left >= 0), self, f"{self.left} fruit left")
        check_ctx(rt, self, self.ctx)

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: which fruit (None: the player has none)."""
        colours = sorted(c for c, k in rt.state.flocks[self.ctx.flock].fruit.items() if k > 0)
        if self.pc != 1 or not colours:
            return None
        return Ask(self.ctx.flock, "return-fruit", "Return a fruit to the bag",
                   [option(A.GiveFruit(c), ("Return a {} fruit", (c,))) for c in colours])

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
        self.pc = 1
        ask = self.asked(rt)
        return ask if ask is not None else Return()


def _return_fruit(rt: Runtime, node: ast.Phrase | ast.Call, ctx: Ctx) -> Steps[Any]:
    """Return up to n fruit of the player's choice to the bag (ReturnFruitFrame)."""
    return (yield from drive(rt, ReturnFruitFrame(node, ctx)))


@register_frame("compose.jump_to")
@dataclass(eq=False)
class JumpToFrame(_PhraseVerb):
    """The Leader lands on a chosen hex the selector names, other than its start (R-LEAD-5)."""

    max_pc: ClassVar[int] = 2
    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer

    def check(self, rt: Runtime) -> None:
        """A loaded jump runs inside a Leader ability."""
        super().check(rt)
        need(self.ctx.ability is not None, self, "a Leader jump outside a Leader ability")

    def asked(self, rt: Runtime) -> Ask | None:
        """pc 1: the landing hex."""
        return self._ask(rt) if self.pc == 1 else None

    def _ask(self, rt: Runtime) -> Ask | None:
        ctx = self.ctx
        ab = ctx.ability
        assert ab is not None   # resume and check refuse a jump outside an ability
        dests = [h for h in _dest_hexes(rt, _fixed(self.node, self.chosen).arg("dest"), ctx) if h != ab.start]
        if not dests:
            return None
        return Ask(ctx.flock, "leader-move", "Your Leader jumps",
                   [option(A.LeaderTo(ab.start, h), ("Leader to {}", (h,))) for h in dests])

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
        ask = self._ask(rt)
        if ask is None:
            return Return()
        self.pc = 1
        return ask


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
    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself

    def check(self, rt: Runtime) -> None:
        """A loaded event names an event with triggers, a hex of the island and a seat and power to look at."""
        need(self.event in _EVENT_TRIGGERS and self.hex in rt.state.hexes, self, "not an event on a hex of the island")
        need(0 <= self.fi <= len(rt.state.seats) and self.pi >= 0, self, "not a seat and power to look at")
        check_ctx(rt, self, self.ctx)

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
