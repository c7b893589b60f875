"""The interpreter of the compositional DSL: `if`, `for each`, phrases (verbs on selectors), event triggers
with filters and parameterised modifiers, as programs of the rules machine (interpreter/engine/machine.py).

Each statement kind and each verb on selectors is one program (its id the statement's or the verb's, e.g.
`compose.push_to`), whose env holds the DSL node as written (a node of the rules, saved by its address) and the
context. A statement is lowered to its program by `frame_of` (effects.run hands this module the nodes of
ast.COMPOSED); a phrase's verb by its lowering, the `lower` hook of its registry entry or the function this module
registers for an engine verb (`VerbTable.lower`): (the phrase with its chosen players filled in, a `Lowering`) ->
the continuation that runs it. So a new verb on selectors is one registry entry plus one lowering function.

A selection that leaves a choice asks the player one small decision at a time: which piece, then where. Work is
bounded before play (interpreter/dsl/compose_check.py) and by the state: a `for each` walks a snapshot of the
elements its selector named when it started. Labels and prompts are Texts (a template and plain values), built when
read. A continuation loaded from a save is checked (`check`): its node is a node of its kind, its elements, hexes,
players and counters are well formed for where it waits; the program that asked the pending decision recomputes
what it asks there from the loaded state, and `check_answer` refuses a pending decision that is not that one
(another kind, player or options).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from kcd.dsl import ast, registry
from kcd.core import action_types as A
from kcd.engine import effects, move, placing, push
from kcd.core.board import board_of
from kcd.core.state import Kiwi
from kcd.engine.compose_load import check_ctx, check_index, check_question, need, well_formed
from kcd.engine.context import Ctx, EngineError, Runtime, Turn
from kcd.core.decisions import Decision, Option, option
from kcd.engine.machine import (Ask, Call, Cont, Do, Emit, Env, ForEach, If, Jump, Label, Program, Question, Return,
                                While, program)
from kcd.engine.powers import immune, table
from kcd.engine.selectors import Element, Scope, holds, live, plain, quantity, select
from kcd.engine.verb_table import TABLE

__all__ = ["frame_of", "possible", "scope", "amount", "phrase_of", "event_frame", "Lowering",
           "VERB_PARAMS", "VERB_VARS", "MAX_AMOUNT"]

MAX_AMOUNT = 99   # a quantity given to a verb is capped like an `int` literal


def scope(rt: Runtime, ctx: Ctx, purpose: str = "default") -> Scope:
    """The names of a selector at this point of play."""
    ab = ctx.ability
    return Scope(ctx.flock, it=ctx.it, here=ctx.here, landing=ab.landing if ab else None,
                 starting=ab.start if ab else None, passed=tuple(ab.passed) if ab else (), purpose=purpose)


def amount(rt: Runtime, value: ast.Expr | int, ctx: Ctx) -> int:
    """A verb's quantity (a number, or a quantity of the language evaluated now), capped at MAX_AMOUNT."""
    return min(MAX_AMOUNT, quantity(rt.state, value, scope(rt, ctx)))


def _run(rt: Runtime, body: ast.Node | None, ctx: Ctx) -> Any:
    """The procedure running an effect node (a statement's body) for `ctx.flock`."""
    return effects.run_frame(rt, body, ctx)


def frame_of(rt: Runtime, node: ast.Node, ctx: Ctx) -> Cont:
    """The continuation executing an `if`, `for each`, `choose <players>`, `this action:` or phrase (the statement
    lowered to its program; effects.run pushes it)."""
    prog = _STATEMENTS.get(type(node))
    if prog is not None:
        return prog.start(node, ctx)
    if type(node) is ast.Phrase:
        return PHRASE.start(node, ctx, [])
    raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")


def _check_statement(rt: Runtime, env: Env, pid: str, node_type: type, what: str) -> None:
    need(isinstance(env["node"], node_type), pid, f"not {what}")
    check_ctx(rt, pid, env["ctx"])


# --- `if` and `this action:`: one body, once or not at all ---------------------------------------------
def _if_body(rt: Runtime, env: Env) -> Any:
    """The branch the condition picks now (None: no branch)."""
    node, ctx = env["node"], env["ctx"]
    body = node.then if holds(rt.state, node.cond, scope(rt, ctx)) else node.orelse
    return _run(rt, body, ctx) if body is not None else None


def _check_if(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `if` runs an `if` node."""
    _check_statement(rt, env, "compose.if", ast.If, "an `if`")


IF = program("compose.if", ("node", "ctx"), {"node": None, "ctx": Ctx},
             Call("body", _if_body), check=_check_if)


def _during_body(rt: Runtime, env: Env) -> Any:
    """`this action: <modifier>; ...`: the statements after it run with the modifier added to the context's
    (`Ctx.during`), which the rules it changes read where they apply (push.after_move_frame)."""
    node, ctx = env["node"], env["ctx"]
    body = node.body
    return _run(rt, body, ctx.sub(during=(ctx.during or ()) + (node.modifier,))) if body is not None else None


def _check_during(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `this action:` runs such a node."""
    _check_statement(rt, env, "compose.during", ast.During, "a `this action:`")


DURING = program("compose.during", ("node", "ctx"), {"node": None, "ctx": Ctx},
                 Call("body", _during_body), check=_check_during)


# --- `for each <selector> { }` -------------------------------------------------------------------------
def _for_each_els(rt: Runtime, env: Env) -> list[Element]:
    """The elements the selector names when the loop starts (a snapshot, as plain data: a Kiwi by its id)."""
    node, ctx = env["node"], env["ctx"]
    els = select(rt.state, node.sel, scope(rt, ctx))
    if node.cap is not None:
        els = els[:amount(rt, node.cap, ctx)]
    return [plain(e) for e in els]


def _for_each_body(rt: Runtime, env: Env) -> Any:
    """The body for one element; over players the element player does it."""
    node, ctx, el = env["node"], env["ctx"], env["el"]
    if el[0] == "player":   # "each opponent ... returns": the element player does the body
        sub = Ctx(el[2], suppressed=ctx.suppressed, depth=ctx.depth + 1, source=ctx.source, it=el, here=ctx.here)
    else:
        sub = ctx.sub(it=el, depth=ctx.depth + 1)
    return _run(rt, node.body, sub)


def _check_for_each(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `for each` runs a `for each` node over elements of the game."""
    pid = "compose.for_each"
    _check_statement(rt, env, pid, ast.ForEach, "a `for each`")
    els = env.get("el.items")
    need(els is None or type(els) is tuple and all(well_formed(rt.state, e) for e in els), pid,
         "an element that is not of the game")
    check_index(pid, els, env.get("el.i", 0))


FOR_EACH = program("compose.for_each", ("node", "ctx"), {"node": None, "ctx": Ctx, "el": tuple},
                   ForEach("el", _for_each_els, (Call("body", _for_each_body),)), check=_check_for_each)


# --- `choose <players> { }` ------------------------------------------------------------------------------
def _player_ask(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> Question | None:
    """The acting player's choice of one of the players the selector names (None: it names nobody)."""
    who = [e[2] for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "player"]
    if not who:
        return None
    return Question(ctx.flock, "choose-player", "Choose a player",
                    [option(A.ChoosePlayer(f), ("Choose {}", (f,))) for f in who])


_PLAYER_KINDS = {"choose-player": ("choose-player",)}


def _ask_player(rt: Runtime, env: Env) -> Question | None:
    """Which of the players named (None: nobody)."""
    return _player_ask(rt, env["node"].sel, env["ctx"])


def _chosen_body(rt: Runtime, env: Env) -> Any:
    """The body, with `them` the player picked."""
    ctx = env["ctx"]
    el = ("player", None, env.pop("picked").flock)
    return _run(rt, env["node"].body, ctx.sub(it=el, depth=ctx.depth + 1))


def _check_choose_player(rt: Runtime, env: Env, at: str) -> None:
    """A loaded choice runs a `choose <players>` node."""
    _check_statement(rt, env, "compose.choose_player", ast.ChoosePlayer, "a `choose <players>`")


def _answer_choose_player(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is the choice of a player it asks now."""
    check_question("compose.choose_player", at, _ask_player(rt, env), decision)


CHOOSE_PLAYER = program(
    "compose.choose_player", ("node", "ctx"), {"node": None, "ctx": Ctx, "picked": A.ChoosePlayer},
    Ask("player", _ask_player, into="picked", kinds=_PLAYER_KINDS, otherwise="nobody"),
    Call("body", _chosen_body),
    Label("nobody"),
    check=_check_choose_player, check_answer=_answer_choose_player)

_STATEMENTS: dict[type, Program] = {ast.If: IF, ast.ForEach: FOR_EACH, ast.ChoosePlayer: CHOOSE_PLAYER,
                                    ast.During: DURING}


# --- phrases: the chosen players, then the verb ------------------------------------------------------------
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


def _fixed(node: ast.Phrase, chosen: list[str]) -> ast.Phrase:
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




def _check_chosen(rt: Runtime, pid: str, node: Any, chosen: Any, done: bool) -> None:
    """A loaded phrase's node is a phrase, and its chosen players are playing (or "": nobody), all of them picked
    (`done`) or some still to pick."""
    need(isinstance(node, ast.Phrase), pid, "not a phrase")
    wanted = len(_chosen_sels(node))
    need(type(chosen) is list and all(type(f) is str and (f == "" or f in rt.state.flocks) for f in chosen), pid,
         "a chosen player who is not playing")
    need(len(chosen) == wanted if done else len(chosen) < wanted, pid,
         f"{len(chosen)} chosen players for {wanted} choices")


@dataclass(frozen=True)
class Lowering:
    """What a verb's lowering is handed besides the phrase: the phrase as written (a node of the rules), the players
    picked for its `a chosen ...` selectors and the context. `start(prog)` is the continuation of a verb program
    (parameters VERB_PARAMS) running the phrase."""

    node: ast.Phrase
    chosen: list[str]
    ctx: Ctx

    def start(self, prog: Program) -> Cont:
        """The continuation of `prog` running this phrase."""
        return prog.start(self.node, self.chosen, self.ctx)


# a verb program's parameters and their types: the phrase as written, its chosen players, the context
VERB_PARAMS = ("node", "chosen", "ctx")
VERB_VARS: dict[str, Any] = {"node": None, "chosen": list, "ctx": Ctx}


def _lowering(rt: Runtime, prim: str) -> Callable[[Any, Lowering], Any] | None:
    """The lowering of a verb: the engine's (VerbTable.lower), else its registry entry's `lower` hook."""
    lower = rt.verbs.lower.get(prim)
    if lower is None:
        entry = registry.BY_ID.get(prim)
        lower = entry.lower if entry is not None else None
    return lower


def _ask_chosen(rt: Runtime, env: Env) -> Question | None:
    """The player for the next `a chosen ...` (one naming nobody is "", and the next is asked); None once every one
    is picked."""
    chosen = env["chosen"]
    pending = _chosen_sels(env["node"])
    while len(chosen) < len(pending):
        ask = _player_ask(rt, replace(pending[len(chosen)], ref=None), env["ctx"])
        if ask is not None:
            return ask
        chosen.append("")
    return None


def _keep_chosen(rt: Runtime, env: Env) -> None:
    env["chosen"].append(env.pop("picked").flock)


def _phrase_verb(rt: Runtime, env: Env) -> Any:
    """The verb on the selectors (its lowering), or, for a first-language verb given quantities, on the numbers
    they give now (as effects.run does: the mode's own way of it too, Kiwibot's, R-SOLO-8)."""
    node, ctx, chosen = env["node"], env["ctx"], env["chosen"]
    prim = node.primitive or ""
    lower = _lowering(rt, prim)
    fixed = _fixed(node, chosen)
    if lower is not None:
        return lower(fixed, Lowering(node, list(chosen), ctx))
    if rt.verbs.run.get(prim) is None:
        raise EngineError(f"no engine procedure for DSL verb `{node.primitive}`")
    call = _concrete(rt, fixed, ctx)
    if call is None:
        return None
    return effects.verb_call(rt, call, ctx)


def _check_phrase(rt: Runtime, env: Env, at: str) -> None:
    """A loaded phrase: its players chosen so far (all of them once its verb runs)."""
    _check_chosen(rt, "compose.phrase", env["node"], env["chosen"], at == "verb")
    check_ctx(rt, "compose.phrase", env["ctx"])


def _answer_phrase(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is the choice of the next chosen player."""
    pending = _chosen_sels(env["node"])
    chosen = env["chosen"]
    ask = _player_ask(rt, replace(pending[len(chosen)], ref=None), env["ctx"]) if len(chosen) < len(pending) else None
    check_question("compose.phrase", at, ask, decision)


PHRASE = program(
    "compose.phrase", ("node", "ctx", "chosen"), {"node": None, "ctx": Ctx, "chosen": list,
                                                  "picked": A.ChoosePlayer},
    Label("choose"),
    Ask("player", _ask_chosen, into="picked", kinds=_PLAYER_KINDS, otherwise="verb"),
    Do(_keep_chosen),
    Jump("choose"),
    Label("verb"),
    Call("verb", _phrase_verb),
    check=_check_phrase, check_answer=_answer_phrase)


def phrase_frame(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Cont:
    """The continuation running a phrase for `ctx.flock` (a verb on selectors, as the verb table's frame)."""
    return PHRASE.start(node, ctx, [])


def _concrete(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> ast.Call | None:
    """A first-language call with the phrase's quantities evaluated now (None when an amount is 0)."""
    args = []
    for name, value in node.args:
        if isinstance(value, (ast.QCall, ast.BinOp, ast.Num)):
            value = amount(rt, value, ctx)
            if value <= 0:
                return None
        args.append((name, value))
    return ast.Call(node.words, node.span, node.primitive, tuple(args))



def possible(rt: Runtime, node: ast.Node, ctx: Ctx) -> bool:
    """Whether the node can be performed now (a `choose` option, a `may`, a card's play mode)."""
    if isinstance(node, ast.If):
        branch = node.then if holds(rt.state, node.cond, scope(rt, ctx)) else node.orelse
        return True if branch is None else effects.possible(rt, branch, ctx)
    if isinstance(node, (ast.ForEach, ast.ChoosePlayer)):
        return True
    if isinstance(node, ast.During):
        return node.body is None or effects.possible(rt, node.body, ctx.sub(during=(ctx.during or ()) + (node.modifier,)))
    if isinstance(node, ast.Phrase):
        prim = node.primitive or ""
        if _lowering(rt, prim) is not None:   # a lowered verb: its own check on the phrase, if it has one
            check = rt.verbs.possible.get(prim)
            return True if check is None else check(rt, node, ctx)
        call = _concrete(rt, node, ctx)
        return True if call is None else effects.possible(rt, call, ctx)
    return False


# --- verbs on selectors -------------------------------------------------------------------------------

def _pick(el: Element, verb: str) -> A.Action:
    """The action naming a Kiwi or a Leader a verb acts on."""
    kind, hex_id, thing = el
    if kind == "kiwi":
        return A.PickKiwi(verb, thing.id, thing.flock, thing.size, hex_id)
    return A.PickLeader(verb, thing, hex_id)


def _pick_options(els: list[Element], verb: str,
                  word: str = "") -> tuple[list[Option[A.Action]], dict[A.Action, Element]]:
    """One option per distinct action (identical Kiwi in a hex are one choice, the first stands for them), each
    labelled `<word> <the piece>` (built when read), and the element each action names."""
    by_action: dict[A.Action, Element] = {}
    opts: list[Option[A.Action]] = []
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


def _piece_values(el: Element) -> tuple[Any, ...]:
    """The plain values `_PIECE` names a piece with (a Kiwi's size as it is now: a label must not change later)."""
    kind, hex_id, thing = el
    if kind == "kiwi":
        return (thing.flock, thing.size, hex_id)
    return (thing, hex_id) if kind == "leader" else (kind, hex_id)


def _piece_text(el: Element, before: str, after: str, values: tuple[Any, ...] = (),
                more: tuple[Any, ...] = ()) -> tuple[str, tuple[Any, ...]]:
    """A Text naming the piece: `before` + its words + `after`, with `values` before its values and `more` after."""
    kind = el[0] if el[0] in ("kiwi", "leader") else None
    key = (kind, before, after)
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = before + _PIECE[kind] + after
    return template, (*values, *_piece_values(el), *more)


def _label(el: Element) -> str:
    """The words naming a piece now (event fields)."""
    return _PIECE[el[0] if el[0] in ("kiwi", "leader") else None].format(*_piece_values(el))


def _dest_hexes(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> list[str]:
    return [e[1] for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "hex"]


def _now(rt: Runtime, ref: Element) -> Element | None:
    """A plain element as it stands now: None when the piece left the hex it was named in."""
    el = live(rt.state, ref)
    if el is not None and el[0] == "leader" and rt.state.flocks[el[2]].leader_hex != el[1]:
        return None
    return el


def _named(rt: Runtime, env: Env, sel: ast.Selector, kinds: tuple[str, ...] = ("kiwi", "leader")) -> list[Element]:
    """The elements of these kinds the selector names now."""
    return [e for e in select(rt.state, sel, scope(rt, env["ctx"])) if e[0] in kinds]


def phrase_of(env: Env) -> ast.Phrase:
    """The phrase a verb program runs (its env's `node`) with its chosen players filled in: read its selectors and
    quantities from this, on every instruction (the node in the env is the one written, saved by its address)."""
    return _fixed(env["node"], env["chosen"])


def _check_verb(rt: Runtime, env: Env, pid: str, verbs: tuple[str, ...]) -> None:
    """A loaded verb runs a phrase of its own verb, with all its chosen players picked."""
    node = env["node"]
    _check_chosen(rt, pid, node, env["chosen"], True)
    need(node.primitive in verbs, pid, "a phrase of another verb")
    check_ctx(rt, pid, env["ctx"])


def _cause(ctx: Ctx) -> str:
    """What a push verb's pushes are, for `cannot be pushed by <cause>`: a Leader ability's, or an effect's."""
    return "abilities" if ctx.ability is not None else "effects"


# --- `push <pieces> to <hexes>` and `move <pieces> to <hexes>`: each piece named to a hex named ---------------
# Each piece named (`a ...`: the player first picks which) goes to a hex the destination names, one small decision
# per piece; a piece that left its hex, or has no hex to go to, stays.
@dataclass(frozen=True)
class _EachTo:
    """How one of the two verbs takes a piece: its picking verb (and the labels' first word), the kind of the
    decision where a piece goes, and its functions."""

    verb: str
    ask_kind: str
    kept: Callable[[Runtime, Ctx, list[Element]], list[Element]]      # the elements it acts on, as plain data
    dests: Callable[[Runtime, Element, ast.Phrase, Ctx], list[str]]   # the hexes a piece may go to (none: it stays)
    act: Callable[[Element, str], A.Action]                           # the action taking a piece to a hex
    apply: Callable[[Runtime, Element, str, str], None]               # take it there
    stays: Callable[[Runtime, Element, str], None] | None = None      # it has no hex to go to


def _push_kept(rt: Runtime, ctx: Ctx, els: list[Element]) -> list[Element]:
    """The named pieces no power shields (`... cannot be pushed`)."""
    shield = immune(rt, _cause(ctx))
    if shield is not None:
        els = [e for e in els if not (e[2].id in shield[0] if e[0] == "kiwi" else e[2] in shield[1])]
    return [plain(e) for e in els]


def _push_dests(rt: Runtime, el: Element, node: ast.Phrase, ctx: Ctx) -> list[str]:
    """The adjacent hexes the destination names (R-PUSH-2)."""
    allowed = set(_dest_hexes(rt, node.arg("dest"), ctx))
    return [d for d in board_of(rt.state).adjacent(el[1]) if d in allowed and d != el[1]]


def _push_act(el: Element, dest: str) -> A.Action:
    kind, origin, thing = el
    return A.PushKiwi(thing.id, thing.flock, thing.size, origin, dest) if kind == "kiwi" else A.PushLeader(thing, origin, dest)


def _push_apply(rt: Runtime, el: Element, dest: str, flock: str) -> None:
    kind, origin, thing = el
    if kind == "kiwi":
        push.push_kiwi(rt, flock, origin, thing, dest)
    else:
        rt.state.flocks[thing].leader_hex = dest
        rt.emit("push-leader", flock, flock=flock, leader=thing, hex=origin, to=dest)


def _push_stays(rt: Runtime, el: Element, flock: str) -> None:
    """No hex to push it to: it stays, and the log says so."""
    rt.emit("push-stays", flock, flock=flock, piece=_label(el))


def _move_kept(rt: Runtime, ctx: Ctx, els: list[Element]) -> list[Element]:
    return [plain(e) for e in els]


def _move_dests(rt: Runtime, el: Element, node: ast.Phrase, ctx: Ctx) -> list[str]:
    """Any hex the destination names but its own (no push)."""
    return [h for h in _dest_hexes(rt, node.arg("dest"), ctx) if h != el[1]]


def _move_act(el: Element, dest: str) -> A.Action:
    kind, origin, thing = el
    return A.MoveToKiwi(thing.id, thing.flock, thing.size, origin, dest) if kind == "kiwi" else A.MoveToLeader(thing, origin, dest)


def _move_apply(rt: Runtime, el: Element, dest: str, flock: str) -> None:
    _relocate(rt, el, dest, flock)


_EACH_TO = {"push-to": _EachTo("push", "push", _push_kept, _push_dests, _push_act, _push_apply, _push_stays),
            "move-to": _EachTo("move", "move-to", _move_kept, _move_dests, _move_act, _move_apply)}


def _pick_question(rt: Runtime, env: Env, how: _EachTo) -> Question | None:
    """Which piece (`a ...` naming several), else None."""
    sel = phrase_of(env).arg("what")
    els = _named(rt, env, sel)
    if sel.quant != "one" or len(els) < 2:
        return None
    verb = how.verb
    return Question(env["ctx"].flock, verb, ("Choose what to {}", (verb,)),
                    _pick_options(els, verb, verb.capitalize())[0])


def _dest_question(rt: Runtime, env: Env, how: _EachTo, el: Element) -> Question | None:
    """Where this piece goes (None: nowhere, it stays)."""
    dests = how.dests(rt, el, phrase_of(env), env["ctx"])
    if not dests:
        return None
    word = how.verb.capitalize()
    act = how.act
    return Question(env["ctx"].flock, how.ask_kind, _piece_text(el, "{} ", "", (word,)),
                    [option(act(el, d), _piece_text(el, "{} ", " to {}", (word,), (d,))) for d in dests])


def _ask_piece(rt: Runtime, env: Env) -> Question | None:
    """Which piece, when `a ...` names several; else every piece named is kept (None)."""
    how = _EACH_TO[env["node"].primitive]
    sel = phrase_of(env).arg("what")
    els = _named(rt, env, sel)
    if sel.quant == "one" and len(els) > 1:
        verb = how.verb
        return Question(env["ctx"].flock, verb, ("Choose what to {}", (verb,)),
                        _pick_options(els, verb, verb.capitalize())[0])
    env["els"] = how.kept(rt, env["ctx"], els)
    env["i"] = 0
    return None


def _keep_picked(rt: Runtime, env: Env) -> None:
    how = _EACH_TO[env["node"].primitive]
    _, by_action = _pick_options(_named(rt, env, phrase_of(env).arg("what")), how.verb)
    env["els"] = how.kept(rt, env["ctx"], [by_action[env.pop("picked")]])
    env["i"] = 0


def _ask_dest(rt: Runtime, env: Env) -> Question | None:
    """Where the next piece still in its hex goes (one with nowhere to go stays); None once every piece is done."""
    how = _EACH_TO[env["node"].primitive]
    els = env["els"]
    i = env["i"]
    while i < len(els):
        el = _now(rt, els[i])
        i += 1
        if el is None:
            continue
        ask = _dest_question(rt, env, how, el)
        if ask is None:
            if how.stays is not None:
                how.stays(rt, el, env["ctx"].flock)
            continue
        env["i"] = i
        return ask
    env["i"] = i
    return None


def _take(rt: Runtime, env: Env) -> None:
    """Take the piece asked about to the hex chosen."""
    how = _EACH_TO[env["node"].primitive]
    asked = _now(rt, env["els"][env["i"] - 1])
    assert asked is not None   # asked just now: it is still there
    how.apply(rt, asked, env.pop("to").to, env["ctx"].flock)


def _check_each_to(rt: Runtime, env: Env, at: str, pid: str, verb: str) -> None:
    """A loaded step: the pieces named (Kiwi and Leaders of the game), the one asked about still in its hex."""
    _check_verb(rt, env, pid, (verb,))
    els = env.get("els")
    need(els is None or type(els) is list and all(well_formed(rt.state, e, ("kiwi", "leader")) for e in els), pid,
         "a piece that is not of the game")
    check_index(pid, els, env.get("i", 0))
    need(at != "piece" or els is None, pid, "a piece to pick after the pieces were named")
    need(at != "dest" or els is not None and env.get("i", 0) > 0 and _now(rt, els[env["i"] - 1]) is not None, pid,
         "no piece to ask about")


def _answer_each_to(rt: Runtime, env: Env, at: str, decision: Decision, pid: str) -> None:
    """The pending decision is which piece, or where the last one goes, as asked now."""
    how = _EACH_TO[env["node"].primitive]
    if at == "piece":
        ask = _pick_question(rt, env, how)
    else:
        el = _now(rt, env["els"][env["i"] - 1])
        ask = _dest_question(rt, env, how, el) if el is not None else None
    check_question(pid, at, ask, decision)


def _check_push_to(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `push <pieces> to <hexes>`."""
    _check_each_to(rt, env, at, "compose.push_to", "push-to")


def _answer_push_to(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """Its pending decision is the one it asks now."""
    _answer_each_to(rt, env, at, decision, "compose.push_to")


def _check_move_to(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `move <pieces> to <hexes>`."""
    _check_each_to(rt, env, at, "compose.move_to", "move-to")


def _answer_move_to(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """Its pending decision is the one it asks now."""
    _answer_each_to(rt, env, at, decision, "compose.move_to")


_PICKS = ("pick-kiwi", "pick-leader")
_EACH_TO_VARS = {**VERB_VARS, "els": list, "i": int, "picked": (A.PickKiwi, A.PickLeader)}


def _each_to(pid: str, how: _EachTo, moves: tuple[type, ...], kinds: tuple[str, ...],
             check: Callable[[Runtime, Env, str], None], answer: Callable[[Runtime, Env, str, Decision], None]) -> Program:
    """The program of one of the two verbs (the same instructions, its own decision kinds and checks)."""
    return program(
        pid, VERB_PARAMS, {**_EACH_TO_VARS, "to": moves},
        Ask("piece", _ask_piece, into="picked", kinds={how.verb: _PICKS}, otherwise="each"),
        Do(_keep_picked),
        Label("each"),
        Ask("dest", _ask_dest, into="to", kinds={how.ask_kind: kinds}, otherwise="done"),
        Do(_take),
        Jump("each"),
        Label("done"),
        check=check, check_answer=answer)


PUSH_TO = _each_to("compose.push_to", _EACH_TO["push-to"], (A.PushKiwi, A.PushLeader), ("push", "push-leader"),
                   _check_push_to, _answer_push_to)
MOVE_TO = _each_to("compose.move_to", _EACH_TO["move-to"], (A.MoveToKiwi, A.MoveToLeader),
                   ("move-to", "move-to-leader"), _check_move_to, _answer_move_to)


# --- `push <pieces> out of <hexes>` (`push up to n of ...`) -------------------------------------------------
# The pieces named are pushed out of the hexes named, hex by hex in the order named, one at a time, each where the
# player picks (an adjacent hex, or off the island from an edge hex: R-PUSH-2/3, R-LEAD-4/5), until none of them is
# left in that hex; `push up to n of ...` pushes at most n in all and may stop. The Leader whose ability this is
# never pushes itself (R-LEAD-6: "all the other Kiwi").
def _push_out_start(rt: Runtime, env: Env) -> None:
    node, ctx = phrase_of(env), env["ctx"]
    env["hexes"] = list(dict.fromkeys(_dest_hexes(rt, node.arg("where"), ctx)))
    env["budget"] = amount(rt, node.arg("n"), ctx) if node.arg("n") is not None else -1
    env["i"] = 0


def _push_out_question(rt: Runtime, env: Env, hex_id: str) -> Question | None:
    """The pushes of the pieces named out of this hex (None: none is left there)."""
    ctx = env["ctx"]
    skip = ctx.flock if ctx.ability is not None else None
    named = select(rt.state, phrase_of(env).arg("what"), scope(rt, ctx))
    kiwi = {e[2].id for e in named if e[0] == "kiwi" and e[1] == hex_id}
    leaders = {e[2] for e in named if e[0] == "leader" and e[1] == hex_id}
    opts = [o for o in push.push_options(rt, hex_id, None, skip, cause=_cause(ctx))
            if (a := o.action) is not None
            and (a.flock in leaders if isinstance(a, A.PushLeader) else a.kiwi in kiwi)]
    if not opts:
        return None
    if env["budget"] < 0:
        return Question(ctx.flock, "push", ("Push every Kiwi out of {}", (hex_id,)), opts)
    opts.append(option(A.word("stop"), "Stop pushing"))
    return Question(ctx.flock, "push", ("Push a Kiwi out of {}?", (hex_id,)), opts)


def _ask_push_out(rt: Runtime, env: Env) -> Question | None:
    """The next push, out of the first hex named with a piece named left in it (None: done, or no push left)."""
    hexes = env["hexes"]
    while env["i"] < len(hexes) and env["budget"] != 0:
        ask = _push_out_question(rt, env, hexes[env["i"]])
        if ask is not None:
            return ask
        env["i"] += 1
    return None


def _stopped(rt: Runtime, env: Env) -> bool:
    kind: str = env["pushed"].kind
    return kind == "stop"


def _push_one(rt: Runtime, env: Env) -> Any:
    """The push chosen (one of the budget's)."""
    if env["budget"] > 0:
        env["budget"] -= 1
    return push.do_push_frame(env["ctx"].flock, env.pop("pushed"), True)


def _check_push_out(rt: Runtime, env: Env, at: str) -> None:
    """A loaded push out of hexes of the island, at one of them, with pushes left as its phrase allows."""
    pid = "compose.push_out"
    _check_verb(rt, env, pid, ("push-out", "push-out-upto"))
    hexes: Any = env.get("hexes")
    need(type(hexes) is list and all(type(h) is str and h in rt.state.hexes for h in hexes), pid,
         "not a hex of the island")
    check_index(pid, hexes, env.get("i"))
    need(env["i"] < len(hexes), pid, "no hex to push out of")
    budget = env.get("budget")
    upto = env["node"].arg("n") is not None
    need(type(budget) is int and (0 <= budget <= MAX_AMOUNT if upto else budget == -1), pid, f"{budget} pushes left")


def _answer_push_out(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is the push out of the hex it is at (or, `up to n`, stop)."""
    ask = _push_out_question(rt, env, env["hexes"][env["i"]]) if env["budget"] != 0 else None
    check_question("compose.push_out", at, ask, decision)


PUSH_OUT = program(
    "compose.push_out", VERB_PARAMS,
    {**VERB_VARS, "hexes": list, "i": int, "budget": int, "pushed": (A.PushKiwi, A.PushLeader, A.KINDS["stop"])},
    Do(_push_out_start),
    Label("next"),
    Ask("piece", _ask_push_out, into="pushed", kinds={"push": ("push", "push-leader", "stop")}, otherwise="done"),
    If(_stopped, (Return(),)),
    Call("push", _push_one),
    Jump("next"),
    Label("done"),
    check=_check_push_out, check_answer=_answer_push_out)


# --- `place n kiwi on <hexes>` -------------------------------------------------------------------------------
# n size-1 Kiwi, each on a hex the selector names; tokens as in R-RES-2 (an island token may be refused), each then
# uncovering its track slot's benefit (R-TRACK-1).
def _place_count(rt: Runtime, env: Env) -> None:
    env["left"] = amount(rt, phrase_of(env).arg("n"), env["ctx"])
    env["hexes"] = []


def _none_left(rt: Runtime, env: Env) -> bool:
    left: int = env["left"]
    return left <= 0


def _place_where(rt: Runtime, env: Env) -> None:
    env["left"] -= 1
    env["hexes"] = _dest_hexes(rt, phrase_of(env).arg("where"), env["ctx"])


def _no_hex(rt: Runtime, env: Env) -> bool:
    return not env["hexes"]


def _no_place_hex(rt: Runtime, env: Env) -> tuple[str, dict[str, Any]]:
    flock = env["ctx"].flock
    return flock, {"flock": flock}


def _take_token(rt: Runtime, env: Env) -> Any:
    return placing.take_token_frame(env["ctx"].flock, "a new Kiwi", None, True)


def _no_token(rt: Runtime, env: Env) -> bool:
    return env["source"] is None


def _place_question(rt: Runtime, env: Env) -> Question:
    """The hex for the token taken (an island token may change nothing: then the hexes named before it)."""
    hexes = _dest_hexes(rt, phrase_of(env).arg("where"), env["ctx"]) or env["hexes"]
    return Question(env["ctx"].flock, "place-kiwi", "Place a size-1 Kiwi",
                    [option(A.Place(h), ("Place on {}", (h,))) for h in hexes])


def _place_kiwi(rt: Runtime, env: Env) -> None:
    flock = env["ctx"].flock
    hex_id = env.pop("placed").hex
    rt.state.flocks[flock].supply -= 1
    new = rt.state.place_new_kiwi(hex_id, flock, 1)
    rt.emit("place", flock, flock=flock, hex=hex_id, kiwi=new.id)


def _track_benefit(rt: Runtime, env: Env) -> Any:
    """The benefit of the track slot the token uncovered (None: none)."""
    ctx = env["ctx"]
    return placing.track_benefit_frame(rt, ctx.flock, env.pop("source"), ctx)


def _check_place_on(rt: Runtime, env: Env, at: str) -> None:
    """A loaded placing: Kiwi left to place, hexes of the island, and while asking a token in hand to place."""
    pid = "compose.place_on"
    _check_verb(rt, env, pid, ("place-on",))
    left = env.get("left")
    need(type(left) is int and 0 <= left <= MAX_AMOUNT, pid, f"{left} Kiwi left")
    hexes = env.get("hexes")
    need(type(hexes) is list and all(type(h) is str and h in rt.state.hexes for h in hexes), pid,
         "not a hex of the island")
    source = env.get("source")
    need(source is None or type(source) is tuple and len(source) == 2 and type(source[0]) is str
         and type(source[1]) is int, pid, "not where a token comes from")
    need(at != "hex" or source is not None and rt.state.flocks[env["ctx"].flock].supply > 0, pid,
         "no token taken to place")


def _answer_place_on(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is the hex for the token taken."""
    check_question("compose.place_on", at, _place_question(rt, env), decision)


PLACE_ON = program(
    "compose.place_on", VERB_PARAMS,
    {**VERB_VARS, "left": int, "hexes": list, "source": tuple, "placed": A.Place},
    Do(_place_count),
    Label("next"),
    If(_none_left, (Return(),)),
    Do(_place_where),
    If(_no_hex, (Emit("no-place-hex", _no_place_hex), Return())),
    Call("token", _take_token, into="source"),
    If(_no_token, (Return(),)),
    Ask("hex", _place_question, into="placed", kinds={"place-kiwi": ("place",)}),
    Do(_place_kiwi),
    Call("benefit", _track_benefit),
    Jump("next"),
    check=_check_place_on, check_answer=_answer_place_on)


# --- `grow <pieces>` ------------------------------------------------------------------------------------------
# Each Kiwi named grows by one (its owner stacks a token, R-FEED-3); `a kiwi ...`: the one the player picks; a Kiwi
# at the size limit stays.
def _growing(rt: Runtime, env: Env) -> tuple[Question | None, list[Element]]:
    """The Kiwi that grow, or the question which one (`a kiwi ...` naming several that can)."""
    sel = phrase_of(env).arg("what")
    top = rt.rules.max_size
    els = [e for e in select(rt.state, sel, scope(rt, env["ctx"])) if e[0] == "kiwi" and e[2].size < top]
    if sel.quant == "one" and len(els) > 1:
        every = _named(rt, env, sel, ("kiwi",))
        if len(every) > 1:
            opts, _ = _pick_options(every, "grow", "Grow")
            return Question(env["ctx"].flock, "grow", "Choose what to grow", opts), every
        els = every
    return None, els


def _ask_grow(rt: Runtime, env: Env) -> Question | None:
    """Which Kiwi grows (`a kiwi ...` naming several); else every Kiwi that can is kept (None)."""
    ask, els = _growing(rt, env)
    if ask is None:
        env["els"] = [plain(e) for e in els]
        env["i"] = 0
    return ask


def _keep_grown(rt: Runtime, env: Env) -> None:
    _, by_action = _pick_options(_named(rt, env, phrase_of(env).arg("what"), ("kiwi",)), "grow")
    env["els"] = [plain(by_action[env.pop("picked")])]
    env["i"] = 0


def _grown_all(rt: Runtime, env: Env) -> bool:
    """Past the Kiwi that left or reached the size limit: none is left to grow."""
    els, top = env["els"], rt.rules.max_size
    i: int = env["i"]
    while i < len(els):
        el = live(rt.state, els[i])
        if el is not None and el[2].size < top:
            break
        i += 1
    env["i"] = i
    return i >= len(els)


def _grow_next(rt: Runtime, env: Env) -> Any:
    """The next Kiwi grows (its owner's growth; the acting player's own may be refused)."""
    ctx = env["ctx"]
    el = live(rt.state, env["els"][env["i"]])
    assert el is not None   # just found by _grown_all
    env["i"] += 1
    kiwi = el[2]
    return placing.grow_one_frame(el[1], kiwi, ctx, optional=kiwi.flock == ctx.flock)


def _check_grow(rt: Runtime, env: Env, at: str) -> None:
    """A loaded growth: Kiwi of the game, still to pick while asking."""
    pid = "compose.grow"
    _check_verb(rt, env, pid, ("grow-sel",))
    els = env.get("els")
    need(els is None or type(els) is list and all(well_formed(rt.state, e, ("kiwi",)) for e in els), pid,
         "a Kiwi that is not of the game")
    check_index(pid, els, env.get("i", 0))
    need(at != "kiwi" or els is None, pid, "a Kiwi to pick after the Kiwi were named")


def _answer_grow(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is which Kiwi grows."""
    check_question("compose.grow", at, _growing(rt, env)[0], decision)


GROW = program(
    "compose.grow", VERB_PARAMS, {**VERB_VARS, "els": list, "i": int, "picked": A.PickKiwi},
    Ask("kiwi", _ask_grow, into="picked", kinds={"grow": ("pick-kiwi",)}, otherwise="each"),
    Do(_keep_grown),
    Label("each"),
    If(_grown_all, (Return(),)),
    Call("grow", _grow_next),
    Jump("each"),
    check=_check_grow, check_answer=_answer_grow)


# --- `shrink <pieces>` / `remove <pieces>`: every Kiwi named, or (`a kiwi ...`) the one the player picks ---------
def _shrink_els(rt: Runtime, els: list[Element], ctx: Ctx) -> None:
    """Shrink each Kiwi by one; the token goes to its owner's Reserve, a size-0 Kiwi leaves."""
    for _, hex_id, kiwi in els:
        if not any(k.id == kiwi.id for k in rt.state.hexes[hex_id].kiwi):
            continue
        kiwi = rt.state.resize_kiwi(hex_id, kiwi.id, -1)   # a size-0 Kiwi leaves the hex
        rt.state.flocks[kiwi.flock].reserve_kiwi += 1
        rt.emit("shrink", ctx.flock, flock=ctx.flock, owner=kiwi.flock, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)


def _remove_els(rt: Runtime, els: list[Element], ctx: Ctx) -> None:
    """Remove each Kiwi to its owner's Reserve."""
    for _, hex_id, kiwi in els:
        if any(k.id == kiwi.id for k in rt.state.hexes[hex_id].kiwi):
            kiwi = rt.state.remove_kiwi(hex_id, kiwi.id)
            rt.state.flocks[kiwi.flock].reserve_kiwi += kiwi.size
            rt.emit("remove-piece", ctx.flock, flock=ctx.flock, owner=kiwi.flock, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)




def _relocate(rt: Runtime, el: Element, dest: str, who: str) -> None:
    kind, origin, thing = el
    if kind == "kiwi":
        rt.state.move_kiwi(origin, dest, thing.id)
    else:
        rt.state.flocks[thing].leader_hex = dest
    rt.emit("move-piece", who, flock=who, piece=_label(el), to=dest)


_ACTS = {"shrink-sel": ("shrink", _shrink_els), "remove-sel": ("remove", _remove_els)}


def _act_question(rt: Runtime, env: Env, els: list[Element]) -> Question | None:
    """Which Kiwi (`a kiwi ...` naming several), else None."""
    verb = _ACTS[env["node"].primitive][0]
    if phrase_of(env).arg("what").quant != "one" or len(els) < 2:
        return None
    return Question(env["ctx"].flock, verb, ("Choose what to {}", (verb,)),
                    _pick_options(els, verb, verb.capitalize())[0])


def _ask_act(rt: Runtime, env: Env) -> Question | None:
    """Which Kiwi, when `a kiwi ...` names several; else (None) every Kiwi named."""
    return _act_question(rt, env, _named(rt, env, phrase_of(env).arg("what"), ("kiwi",)))


def _act_picked(rt: Runtime, env: Env) -> None:
    verb, act = _ACTS[env["node"].primitive]
    _, by_action = _pick_options(_named(rt, env, phrase_of(env).arg("what"), ("kiwi",)), verb)
    act(rt, [by_action[env.pop("picked")]], env["ctx"])


def _act_all(rt: Runtime, env: Env) -> None:
    _ACTS[env["node"].primitive][1](rt, _named(rt, env, phrase_of(env).arg("what"), ("kiwi",)), env["ctx"])


def _check_act(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `shrink` or `remove` of pieces."""
    _check_verb(rt, env, "compose.act_on_kiwi", tuple(_ACTS))


def _answer_act(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is which Kiwi, as asked now."""
    check_question("compose.act_on_kiwi", at, _ask_act(rt, env), decision)


ACT_ON_KIWI = program(
    "compose.act_on_kiwi", VERB_PARAMS, {**VERB_VARS, "picked": A.PickKiwi},
    Ask("kiwi", _ask_act, into="picked", kinds={"shrink": ("pick-kiwi",), "remove": ("pick-kiwi",)},
        otherwise="every"),
    Do(_act_picked),
    Return(),
    Label("every"),
    Do(_act_all),
    check=_check_act, check_answer=_answer_act)


# --- `swap <piece> with <piece>`: exchange the hexes of two pieces (the player picks each when several are named) -----
def _which(rt: Runtime, env: Env, verb: str) -> tuple[Question | None, list[Element]]:
    """The pieces `a` (verb swap) or `b` (swap-with) names, and the question which, when several."""
    els = _named(rt, env, phrase_of(env).arg("a" if verb == "swap" else "b"))
    if len(els) < 2:
        return None, els
    return Question(env["ctx"].flock, verb, "Choose a piece to swap", _pick_options(els, verb, "Swap")[0]), els


def _ask_first(rt: Runtime, env: Env) -> Question | None:
    """The first piece, when several are named; else (None) the one named, if any."""
    ask, els = _which(rt, env, "swap")
    if ask is None and els:
        env["first"] = plain(els[0])
    return ask


def _keep_first(rt: Runtime, env: Env) -> None:
    _, by_action = _pick_options(_named(rt, env, phrase_of(env).arg("a")), "swap")
    env["first"] = plain(by_action[env.pop("picked")])


def _no_first(rt: Runtime, env: Env) -> bool:
    return "first" not in env


def _ask_second(rt: Runtime, env: Env) -> Question | None:
    """The second piece, when several are named; else (None) the one named, if any."""
    ask, els = _which(rt, env, "swap-with")
    if ask is None and els:
        env["second"] = plain(els[0])
    return ask


def _keep_second(rt: Runtime, env: Env) -> None:
    _, by_action = _pick_options(_named(rt, env, phrase_of(env).arg("b")), "swap-with")
    env["second"] = plain(by_action[env.pop("other")])


def _exchange(rt: Runtime, env: Env) -> None:
    """The two pieces exchange hexes (unless the first left, or both are on one hex)."""
    second = env.pop("second", None)
    if second is None:
        return
    first, second = live(rt.state, env["first"]), live(rt.state, second)
    if first is None or second is None or second[1] == first[1]:
        return
    flock = env["ctx"].flock
    _relocate(rt, first, second[1], flock)
    _relocate(rt, second, first[1], flock)


def _check_swap(rt: Runtime, env: Env, at: str) -> None:
    """A loaded swap: the first piece is of the game, and known when the second is asked."""
    pid = "compose.swap"
    _check_verb(rt, env, pid, ("swap",))
    first = env.get("first")
    need(first is None or well_formed(rt.state, first, ("kiwi", "leader")), pid, "a piece that is not of the game")
    need(at != "second" or first is not None, pid, "no first piece")


def _answer_swap(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is the first piece, or the second, as asked now."""
    check_question("compose.swap", at, _which(rt, env, "swap" if at == "first" else "swap-with")[0], decision)


_PIECE_PICKS = ("pick-kiwi", "pick-leader")
SWAP = program(
    "compose.swap", VERB_PARAMS, {**VERB_VARS, "first": tuple, "second": tuple, "picked": (A.PickKiwi, A.PickLeader),
                                  "other": (A.PickKiwi, A.PickLeader)},
    Ask("first", _ask_first, into="picked", kinds={"swap": _PIECE_PICKS}, otherwise="named"),
    Do(_keep_first),
    Jump("second"),
    Label("named"),
    If(_no_first, (Return(),)),
    Label("second"),
    Ask("second", _ask_second, into="other", kinds={"swap-with": _PIECE_PICKS}, otherwise="swap"),
    Do(_keep_second),
    Label("swap"),
    Do(_exchange),
    check=_check_swap, check_answer=_answer_swap)


# --- `return n fruit`: up to n fruit of the player's choice go back to the bag, one at a time -------------------
def _fruit_count(rt: Runtime, env: Env) -> None:
    env["left"] = amount(rt, env["call"].arg("n"), env["ctx"])


def _fruit_left(rt: Runtime, env: Env) -> bool:
    left: int = env["left"]
    return left > 0


def _fruit_question(rt: Runtime, env: Env) -> Question | None:
    """Which fruit (None: the player has none)."""
    flock = env["ctx"].flock
    colours = sorted(c for c, k in rt.state.flocks[flock].fruit.items() if k > 0)
    if not colours:
        return None
    return Question(flock, "return-fruit", "Return a fruit to the bag",
                    [option(A.GiveFruit(c), ("Return a {} fruit", (c,))) for c in colours])


def _ask_fruit(rt: Runtime, env: Env) -> Question | None:
    """The next fruit to return (None: the player has none left)."""
    env["left"] -= 1
    return _fruit_question(rt, env)


def _return_one(rt: Runtime, env: Env) -> None:
    flock = env["ctx"].flock
    c = env.pop("fruit").fruit
    rt.state.flocks[flock].fruit[c] -= 1
    rt.state.fruit_bag[c] = rt.state.fruit_bag.get(c, 0) + 1
    rt.emit("return-fruit", flock, flock=flock, fruit=c)


def _check_return_fruit(rt: Runtime, env: Env, at: str) -> None:
    """A loaded `return n fruit`, with fruit left to return."""
    pid = "compose.return_fruit"
    call = env["call"]
    need(isinstance(call, (ast.Phrase, ast.Call)) and call.primitive == "return-fruit", pid, "not a `return ... fruit`")
    left = env.get("left")
    need(type(left) is int and 0 <= left <= MAX_AMOUNT, pid, f"{left} fruit left")
    check_ctx(rt, pid, env["ctx"])


def _answer_return_fruit(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is which fruit, as asked now."""
    check_question("compose.return_fruit", at, _fruit_question(rt, env), decision)


RETURN_FRUIT = program(
    "compose.return_fruit", ("call", "ctx"), {"call": None, "ctx": Ctx, "left": int, "fruit": A.GiveFruit},
    Do(_fruit_count),
    While(_fruit_left, (Ask("fruit", _ask_fruit, into="fruit", kinds={"return-fruit": ("give-fruit",)},
                            otherwise="done"),
                        Do(_return_one))),
    Label("done"),
    check=_check_return_fruit, check_answer=_answer_return_fruit)


def _return_fruit_frame(rt: Runtime, call: ast.Call | ast.Phrase, ctx: Ctx) -> Cont:
    """The continuation returning a `return n fruit` call's fruit."""
    return RETURN_FRUIT.start(call, ctx)


def _can_return_fruit(rt: Runtime, call: ast.Call | ast.Phrase, ctx: Ctx) -> bool:
    return sum(rt.state.flocks[ctx.flock].fruit.values()) > 0


# --- `leader jumps to <hexes>`: the Leader lands on a chosen hex the selector names, other than its start (R-LEAD-5) -
def _jump_question(rt: Runtime, env: Env) -> Question | None:
    """The landing hex (None: the selector names none but the start)."""
    ctx = env["ctx"]
    ab = ctx.ability
    if ab is None:
        raise EngineError("a leader verb ran outside a Leader ability")
    dests = [h for h in _dest_hexes(rt, phrase_of(env).arg("dest"), ctx) if h != ab.start]
    if not dests:
        return None
    return Question(ctx.flock, "leader-move", "Your Leader jumps",
                    [option(A.LeaderTo(ab.start, h), ("Leader to {}", (h,))) for h in dests])


def _land(rt: Runtime, env: Env) -> None:
    ctx = env["ctx"]
    to = env.pop("to").to
    move.land(rt, ctx, to, board_of(rt.state).between(ctx.ability.start, to))


def _check_jump(rt: Runtime, env: Env, at: str) -> None:
    """A loaded jump runs inside a Leader ability."""
    pid = "compose.jump_to"
    _check_verb(rt, env, pid, ("leader-jump-to",))
    need(env["ctx"].ability is not None, pid, "a Leader jump outside a Leader ability")


def _answer_jump(rt: Runtime, env: Env, at: str, decision: Decision) -> None:
    """The pending decision is the landing hex, as asked now."""
    check_question("compose.jump_to", at, _jump_question(rt, env), decision)


JUMP_TO = program(
    "compose.jump_to", VERB_PARAMS, {**VERB_VARS, "to": A.LeaderTo},
    Ask("hex", _jump_question, into="to", kinds={"leader-move": ("leader",)}, otherwise="nowhere"),
    Do(_land),
    Label("nowhere"),
    check=_check_jump, check_answer=_answer_jump)


# --- the lowerings of the engine's verbs on selectors (a verb of a mod: its registry entry's `lower` hook) ---------
def _lower_push_to(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(PUSH_TO)


def _lower_push_out(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(PUSH_OUT)


def _lower_place_on(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(PLACE_ON)


def _lower_grow(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(GROW)


def _lower_act(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(ACT_ON_KIWI)


def _lower_move_to(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(MOVE_TO)


def _lower_swap(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(SWAP)


def _lower_jump_to(call: ast.Phrase, site: Lowering) -> Cont:
    return site.start(JUMP_TO)


def _lower_return_fruit(call: ast.Phrase, site: Lowering) -> Cont:
    return RETURN_FRUIT.start(site.node, site.ctx)   # its amount is read when it starts


for _verb, _lower in (("push-to", _lower_push_to), ("push-out", _lower_push_out), ("push-out-upto", _lower_push_out),
                      ("place-on", _lower_place_on), ("grow-sel", _lower_grow), ("shrink-sel", _lower_act),
                      ("remove-sel", _lower_act), ("move-to", _lower_move_to), ("swap", _lower_swap),
                      ("leader-jump-to", _lower_jump_to)):
    TABLE.register(_verb, phrase_frame)   # (a phrase runs through its lowering)
    TABLE.register_lowering(_verb, _lower)
TABLE.register("return-fruit", _return_fruit_frame, _can_return_fruit)
TABLE.register_lowering("return-fruit", _lower_return_fruit)
TABLE.register_composed(frame_of, possible)


# --- event triggers with filters ----------------------------------------------------------------------

_EVENT_TRIGGERS = {"feed": ("t-feed-of", "t-feed-by"), "build": ("t-build-on", "t-build-by")}


def event_frame(rt: Runtime, ctx: Ctx, kind: str, hex_id: str, target: Kiwi | None = None) -> Cont | None:
    """The continuation firing every flock's compositional triggers on an engine event (`feed` of the Kiwi `target`
    in `hex_id`, `build` on `hex_id`) whose filters match: who acted (`by`), the piece (`feed <pieces>`), where (`on
    <hexes>`); nothing to fire: a frame that returns at once."""
    powers = table(rt.rules)
    for t in _EVENT_TRIGGERS.get(kind, ()):
        if t in powers:
            return EMIT_EVENT.start(kind, hex_id, target.id if target is not None else None, ctx)
    return None


def _next_power(rt: Runtime, env: Env) -> bool:
    """Find the next power that fires, in seat order and power order (`fi`, `pi`: where to look next); False: none."""
    ctx, hex_id, ids = env["ctx"], env["hex"], _EVENT_TRIGGERS.get(env["event"], ())
    seats = rt.state.seats
    fi, pi = env["fi"], env["pi"]
    while fi < len(seats):
        flock = seats[fi]
        side = rt.rules.flocks.get(flock, {}).get(rt.state.flocks[flock].side)
        side_powers = side.powers if side is not None else []
        while pi < len(side_powers):
            power = side_powers[pi]
            pi += 1
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
            if what is not None and not any(e[0] == "kiwi" and e[2].id == env["target"]
                                            for e in select(rt.state, what, sc)):
                continue
            where = when.arg("where")
            if where is not None and hex_id not in {e[1] for e in select(rt.state, where, sc)}:
                continue
            env["fi"], env["pi"] = fi, pi
            return True
        fi += 1
        pi = 0
    env["fi"], env["pi"] = fi, pi
    return False


def _fire_power(rt: Runtime, env: Env) -> Any:
    """The power found fires: its effect, for its flock."""
    ctx, hex_id = env["ctx"], env["hex"]
    flock = rt.state.seats[env["fi"]]
    power = rt.rules.flocks[flock][rt.state.flocks[flock].side].powers[env["pi"] - 1]
    rt.emit("power", flock, flock=flock, trigger=env["event"])
    sub = Ctx(flock, turn=ctx.turn if flock == ctx.flock else Turn(), suppressed=ctx.suppressed | {power.trigger},
              depth=ctx.depth + 1, source=f"power {power.trigger}", here=hex_id)
    return _run(rt, power.effect, sub)


def _no_power_yet(rt: Runtime, env: Env) -> None:
    env["fi"] = env["pi"] = 0


def _check_emit_event(rt: Runtime, env: Env, at: str) -> None:
    """A loaded event names an event with triggers, a hex of the island and a seat and power to look at."""
    pid = "compose.emit_event"
    need(env["event"] in _EVENT_TRIGGERS and env["hex"] in rt.state.hexes, pid, "not an event on a hex of the island")
    fi, pi = env.get("fi"), env.get("pi")
    need(type(fi) is int and type(pi) is int and 0 <= fi < len(rt.state.seats) and pi > 0, pid,
         "not a seat and power to look at")
    check_ctx(rt, pid, env["ctx"])


EMIT_EVENT = program(
    "compose.emit_event", ("event", "hex", "target", "ctx"),
    {"event": str, "hex": str, "target": (int, type(None)), "ctx": Ctx, "fi": int, "pi": int},
    Do(_no_power_yet),
    While(_next_power, (Call("power", _fire_power),)),
    check=_check_emit_event)
