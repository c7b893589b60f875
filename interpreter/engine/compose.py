"""The interpreter of the compositional DSL: `if`, `for each`, phrases (verbs on selectors), event triggers
with filters and parameterised modifiers. Hooked into effects.run / effects.possible, feed, build and push.

A selection that leaves a choice asks the player one small decision at a time (`decisions.ask`): which
piece, then where. Work is bounded before play (interpreter/dsl/compose_check.py) and by the state: a
`for each` walks a snapshot of the elements its selector named when it started.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Generator

from interpreter.dsl import ast
from interpreter.engine import placing
from interpreter.engine.board import board_of
from interpreter.engine.context import Ctx, EngineError, Runtime, Turn
from interpreter.engine.decisions import Option, ask
from interpreter.engine.selectors import Scope, holds, quantity, select

__all__ = ["run", "possible", "scope", "emit_event", "leader_weights", "push_limit", "ability_possible", "MAX_AMOUNT"]

MAX_AMOUNT = 99   # a quantity given to a verb is capped like an `int` literal


def scope(rt: Runtime, ctx: Ctx, purpose: str = "default") -> Scope:
    """The names of a selector at this point of play."""
    ab = ctx.ability
    return Scope(ctx.flock, it=ctx.it, here=ctx.here, landing=ab.landing if ab else None,
                 starting=ab.start if ab else None, passed=tuple(ab.passed) if ab else (), purpose=purpose)


def _amount(rt: Runtime, value, ctx: Ctx) -> int:
    return min(MAX_AMOUNT, quantity(rt.state, value, scope(rt, ctx)))


def run(rt: Runtime, node, ctx: Ctx) -> Generator:
    """Execute an `if`, `for each` or phrase for `ctx.flock`."""
    from interpreter.engine import effects
    if isinstance(node, ast.If):
        branch = node.then if holds(rt.state, node.cond, scope(rt, ctx)) else node.orelse
        if branch is not None:
            yield from effects.run(rt, branch, ctx)
        return
    if isinstance(node, ast.ForEach):
        els = select(rt.state, node.sel, scope(rt, ctx))
        if node.cap is not None:
            els = els[:_amount(rt, node.cap, ctx)]
        for el in els:
            if el[0] == "player":   # "each opponent ... returns": the element player does the body
                sub = Ctx(el[2], suppressed=ctx.suppressed, depth=ctx.depth + 1, source=ctx.source, it=el,
                          here=ctx.here)
            else:
                sub = ctx.sub(it=el, depth=ctx.depth + 1)
            yield from effects.run(rt, node.body, sub)
        return
    if isinstance(node, ast.Phrase):
        node = yield from _fix_chosen(rt, node, ctx)
        fn = PHRASES.get(node.primitive or "")
        if fn is not None and any(isinstance(v, ast.Selector) for _, v in node.args):
            yield from fn(rt, node, ctx)
            return
        verb = effects.VERBS.get(node.primitive or "")
        if verb is None:
            raise EngineError(f"no engine procedure for DSL verb `{node.primitive}`")
        call = _concrete(rt, node, ctx)
        if call is not None:
            yield from verb(rt, call, ctx)
        return
    raise EngineError(f"cannot execute DSL node {type(node).__name__} as an effect")


def _fix_chosen(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """The phrase with each `a chosen <player>` replaced by the player the acting player picks now."""
    args = []
    for name, value in node.args:
        if isinstance(value, ast.Selector):
            value = yield from _fix_sel(rt, value, ctx)
        args.append((name, value))
    return replace(node, args=tuple(args))


def _fix_sel(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> Generator:
    if sel.ref == "chosen":
        who = [e[2] for e in select(rt.state, replace(sel, ref=None), scope(rt, ctx)) if e[0] == "player"]
        if not who:
            return replace(sel, ref="flock:")
        choice = yield from ask(ctx.flock, "choose-player", "Choose a player",
                                [Option(f"player:{f}", f"Choose {f}") for f in who])
        return replace(sel, ref="flock:" + choice.split(":", 1)[1])
    filters = []
    for f in sel.filters:
        if f.arg is not None:
            f = replace(f, arg=(yield from _fix_sel(rt, f.arg, ctx)))
        filters.append(f)
    return replace(sel, filters=tuple(filters))


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
    from interpreter.engine import effects
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

def _ref(el) -> str:
    kind, hex_id, thing = el
    if kind == "kiwi":
        return placing.kref(thing.flock, thing.size, hex_id)
    if kind == "leader":
        return f"leader-{thing}@{hex_id}"
    return f"{kind}@{hex_id}"


def _label(el) -> str:
    kind, hex_id, thing = el
    if kind == "kiwi":
        return f"the {thing.flock} size-{thing.size} Kiwi on {hex_id}"
    if kind == "leader":
        return f"the {thing} Leader on {hex_id}"
    return f"the {kind} on {hex_id}"


def _still_there(rt: Runtime, el) -> bool:
    kind, hex_id, thing = el
    if kind == "kiwi":
        return any(k is thing for k in rt.state.hexes[hex_id].kiwi)
    if kind == "leader":
        return rt.state.flocks[thing].leader_hex == hex_id
    return True


def _chosen(rt: Runtime, sel: ast.Selector, ctx: Ctx, kinds: tuple[str, ...], verb: str) -> Generator:
    """The elements a verb acts on: all of them, or (`a ...`) the one the player picks."""
    els = [e for e in select(rt.state, sel, scope(rt, ctx)) if e[0] in kinds]
    if sel.quant != "one" or len(els) <= 1:
        return els
    opts = {}
    for i, e in enumerate(els):
        opts.setdefault(f"{verb}:{_ref(e)}", (Option(f"{verb}:{_ref(e)}", f"{verb.capitalize()} {_label(e)}"), i))
    choice = yield from ask(ctx.flock, verb, f"Choose what to {verb}", [o for o, _ in opts.values()])
    return [els[opts[choice][1]]]


def _dest_hexes(rt: Runtime, sel: ast.Selector, ctx: Ctx) -> list[str]:
    return [e[1] for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "hex"]


def _push_to(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Push each piece named, one at a time, to an adjacent hex the destination names (R-PUSH-2)."""
    els = yield from _chosen(rt, node.arg("what"), ctx, ("kiwi", "leader"), "push")
    shield = immune(rt)
    if shield is not None:
        els = [e for e in els if not (e[2].id in shield[0] if e[0] == "kiwi" else e[2] in shield[1])]
    b = board_of(rt.state)
    for el in els:
        if not _still_there(rt, el):
            continue
        kind, origin, thing = el
        allowed = set(_dest_hexes(rt, node.arg("dest"), ctx))
        dests = [d for d in b.adjacent(origin) if d in allowed and d != origin]
        if not dests:
            rt.log("push", f"{_label(el)} has no hex to be pushed to and stays", ctx.flock)
            continue
        choice = yield from ask(ctx.flock, "push", f"Push {_label(el)}",
                                [Option(f"push:{_ref(el)}->{d}", f"Push {_label(el)} to {d}") for d in dests])
        dest = choice.rsplit("->", 1)[1]
        if kind == "kiwi":
            from interpreter.engine import push   # push.py reads this module's modifiers at import
            push.push_kiwi(rt, ctx.flock, origin, thing, dest)
        else:
            rt.state.flocks[thing].leader_hex = dest
            rt.log("push", f"{ctx.flock} pushes the {thing} Leader from {origin} to {dest}", ctx.flock)


def _place_on(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Place n size-1 Kiwi, each on a hex the selector names; tokens as in R-RES-2."""
    n = _amount(rt, node.arg("n"), ctx)
    for _ in range(n):
        hexes = _dest_hexes(rt, node.arg("where"), ctx)
        if not hexes:
            rt.log("place", f"{ctx.flock} has no hex to place a Kiwi on", ctx.flock)
            return
        source = yield from placing.take_token(rt, ctx.flock, "a new Kiwi", optional=True)
        if source is None:
            return
        hexes = _dest_hexes(rt, node.arg("where"), ctx) or hexes   # taking an island token may change nothing
        choice = yield from ask(ctx.flock, "place-kiwi", "Place a size-1 Kiwi",
                                [Option(f"place:{h}", f"Place on {h}") for h in hexes])
        hex_id = choice.split(":", 1)[1]
        rt.state.flocks[ctx.flock].supply -= 1
        rt.state.hexes[hex_id].kiwi.append(rt.state.new_kiwi(ctx.flock, 1))
        rt.log("place", f"{ctx.flock} places a size-1 Kiwi on {hex_id}", ctx.flock)
        yield from placing.track_benefit(rt, ctx.flock, source, ctx)


def _grow(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Grow each Kiwi named by one (its owner stacks a token, R-FEED-3); a Kiwi at the size limit stays."""
    sel = node.arg("what")
    els = [e for e in select(rt.state, sel, scope(rt, ctx)) if e[0] == "kiwi" and e[2].size < rt.rules.max_size]
    if sel.quant == "one" and len(els) > 1:
        sub = ast.Selector(sel.head, sel.filters, sel.span, sel.kind, sel.owner, sel.ref, sel.terrains, "one")
        els = yield from _chosen(rt, sub, ctx, ("kiwi",), "grow")
    for _, hex_id, kiwi in els:
        if kiwi.size < rt.rules.max_size and any(k is kiwi for k in rt.state.hexes[hex_id].kiwi):
            yield from placing.grow_one(rt, hex_id, kiwi, ctx, optional=kiwi.flock == ctx.flock)


def _shrink(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Shrink each Kiwi named by one; the token goes to its owner's Reserve, a size-0 Kiwi leaves."""
    els = yield from _chosen(rt, node.arg("what"), ctx, ("kiwi",), "shrink")
    for _, hex_id, kiwi in els:
        if not any(k is kiwi for k in rt.state.hexes[hex_id].kiwi):
            continue
        kiwi.size -= 1
        rt.state.flocks[kiwi.flock].reserve_kiwi += 1
        if kiwi.size == 0:
            placing.remove_from_hex(rt, hex_id, kiwi)
        rt.log("shrink", f"{ctx.flock} shrinks a {kiwi.flock} Kiwi on {hex_id} to size {kiwi.size}", ctx.flock)


def _remove(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Remove each Kiwi named to its owner's Reserve."""
    els = yield from _chosen(rt, node.arg("what"), ctx, ("kiwi",), "remove")
    for _, hex_id, kiwi in els:
        if any(k is kiwi for k in rt.state.hexes[hex_id].kiwi):
            placing.remove_from_hex(rt, hex_id, kiwi)
            rt.state.flocks[kiwi.flock].reserve_kiwi += kiwi.size
            rt.log("remove", f"{ctx.flock} removes a {kiwi.flock} size-{kiwi.size} Kiwi from {hex_id}", ctx.flock)


def _relocate(rt: Runtime, el, dest: str, who: str) -> None:
    kind, origin, thing = el
    if kind == "kiwi":
        placing.remove_from_hex(rt, origin, thing)
        rt.state.hexes[dest].kiwi.append(thing)
    else:
        rt.state.flocks[thing].leader_hex = dest
    rt.log("move", f"{who} moves {_label(el)} to {dest}", who)


def _move_to(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Move each piece named to a hex the destination names (no push)."""
    els = yield from _chosen(rt, node.arg("what"), ctx, ("kiwi", "leader"), "move")
    for el in els:
        if not _still_there(rt, el):
            continue
        dests = [h for h in _dest_hexes(rt, node.arg("dest"), ctx) if h != el[1]]
        if not dests:
            continue
        choice = yield from ask(ctx.flock, "move-to", f"Move {_label(el)}",
                                [Option(f"moveto:{_ref(el)}->{d}", f"Move {_label(el)} to {d}") for d in dests])
        _relocate(rt, el, choice.rsplit("->", 1)[1], ctx.flock)


def _one(rt: Runtime, sel: ast.Selector, ctx: Ctx, verb: str) -> Generator:
    els = [e for e in select(rt.state, sel, scope(rt, ctx)) if e[0] in ("kiwi", "leader")]
    if len(els) <= 1:
        return els[0] if els else None
    opts = {f"{verb}:{_ref(e)}": (Option(f"{verb}:{_ref(e)}", f"Swap {_label(e)}"), e) for e in els}
    choice = yield from ask(ctx.flock, verb, "Choose a piece to swap", [o for o, _ in opts.values()])
    return opts[choice][1]


def _swap(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """Exchange the hexes of two pieces (the player picks each when several are named)."""
    a = yield from _one(rt, node.arg("a"), ctx, "swap")
    if a is None:
        return
    b = yield from _one(rt, node.arg("b"), ctx, "swap-with")
    if b is None or b[1] == a[1] or b is a:
        return
    _relocate(rt, a, b[1], ctx.flock)
    _relocate(rt, b, a[1], ctx.flock)


def _return_fruit(rt: Runtime, node: ast.Phrase | ast.Call, ctx: Ctx) -> Generator:
    """Return up to n fruit of the player's choice to the bag."""
    fl = rt.state.flocks[ctx.flock]
    n = _amount(rt, node.arg("n"), ctx)
    for _ in range(n):
        colours = sorted(c for c, k in fl.fruit.items() if k > 0)
        if not colours:
            return
        choice = yield from ask(ctx.flock, "return-fruit", "Return a fruit to the bag",
                                [Option(f"return-fruit:{c}", f"Return a {c} fruit") for c in colours])
        c = choice.split(":", 1)[1]
        fl.fruit[c] -= 1
        rt.state.fruit_bag[c] = rt.state.fruit_bag.get(c, 0) + 1
        rt.log("return", f"{ctx.flock} returns a {c} fruit to the bag", ctx.flock)


def _jump_to(rt: Runtime, node: ast.Phrase, ctx: Ctx) -> Generator:
    """The Leader lands on a chosen hex the selector names, other than its start."""
    from interpreter.engine import move
    ab = ctx.ability
    if ab is None:
        raise EngineError("a leader verb ran outside a Leader ability")
    dests = [h for h in _dest_hexes(rt, node.arg("dest"), ctx) if h != ab.start]
    if not dests:
        return
    choice = yield from ask(ctx.flock, "leader-move", "Your Leader jumps",
                            [Option(f"leader:{ab.start}->{h}", f"Leader to {h}") for h in dests])
    end = choice.rsplit("->", 1)[1]
    move.land(rt, ctx, end, board_of(rt.state).between(ab.start, end))


def ability_possible(rt: Runtime, flock: str, node: ast.Phrase) -> bool:
    """Whether a Leader movement phrase has somewhere to go from the Leader's hex."""
    if node.primitive != "leader-jump-to":
        return True
    start = rt.state.flocks[flock].leader_hex
    sc = Scope(flock, starting=start)
    return any(e[0] == "hex" and e[1] != start for e in select(rt.state, node.arg("dest"), sc))


PHRASES = {
    "push-to": _push_to, "place-on": _place_on, "grow-sel": _grow, "shrink-sel": _shrink, "remove-sel": _remove,
    "move-to": _move_to, "swap": _swap, "return-fruit": _return_fruit, "leader-jump-to": _jump_to,
}
PHRASE_POSSIBLE = {
    "return-fruit": lambda rt, n, ctx: sum(rt.state.flocks[ctx.flock].fruit.values()) > 0,
}


def _walk_upto(rt: Runtime, call, ctx: Ctx) -> Generator:
    from interpreter.engine import move
    yield from move.leader_walk(rt, ctx, int(call.arg("n", 1)))


# registry verb id -> procedure, joined into effects.VERBS (a phrase or a first-language call)
VERBS = {**PHRASES, "leader-walk-upto": _walk_upto}
POSSIBLE = dict(PHRASE_POSSIBLE)


# --- event triggers with filters ----------------------------------------------------------------------

_EVENT_TRIGGERS = {"feed": ("t-feed-of", "t-feed-by"), "build": ("t-build-on", "t-build-by")}


def emit_event(rt: Runtime, ctx: Ctx, kind: str, hex_id: str, target=None) -> Generator:
    """Fire every flock's compositional triggers on an engine event (`feed` of `target` in `hex_id`, `build`
    on `hex_id`) whose filters match: who acted (`by`), the piece (`feed <pieces>`), where (`on <hexes>`)."""
    ids = _EVENT_TRIGGERS.get(kind, ())
    table = _table(rt.rules)
    if not any(t in table for t in ids):
        return
    for flock in rt.state.seats:
        side = rt.rules.flocks.get(flock, {}).get(rt.state.flocks[flock].side)
        if side is None:
            continue
        for power in side.powers:
            if power.trigger not in ids or power.trigger in ctx.suppressed:
                continue
            when = power.when
            sc = Scope(flock, here=hex_id)
            by = when.arg("who")
            if by is None:
                if ctx.flock != flock:
                    continue
            elif not any(e[2] == ctx.flock for e in select(rt.state, by, sc) if e[0] == "player"):
                continue
            what = when.arg("what")
            if what is not None and not any(e[2] is target for e in select(rt.state, what, sc)):
                continue
            where = when.arg("where")
            if where is not None and hex_id not in {e[1] for e in select(rt.state, where, sc)}:
                continue
            rt.log("power", f"{flock}'s power fires ({kind})", flock)
            from interpreter.engine import effects
            sub = Ctx(flock, turn=ctx.turn if flock == ctx.flock else Turn(),
                      suppressed=ctx.suppressed | {power.trigger}, depth=ctx.depth + 1,
                      source=f"power {power.trigger}", here=hex_id)
            yield from effects.run(rt, power.effect, sub)


# --- modifiers with values ------------------------------------------------------------------------------

def leader_weights(rules) -> dict:
    """{flock: {side: weight}} of `my leader counts N for dominance` powers ({} when none: params unchanged)."""
    out: dict = {}
    for flock, sides in rules.flocks.items():
        for side, sd in sides.items():
            for p in sd.powers:
                if p.modifier == "m-leader-weight" and p.modifier_node is not None:
                    out.setdefault(flock, {})[side] = int(p.modifier_node.arg("n"))
    return out


def push_limit(rt: Runtime, flock: str) -> int:
    """How many Kiwi a moved Kiwi of this flock may push (R-PUSH-1; `push limit N` powers)."""
    nodes = _valued(rt, flock, "m-push-limit")
    return int(nodes[-1].arg("n")) if nodes else rt.rules.push_count


def _table(rules) -> dict:
    """{modifier or trigger id: {(flock, side): [bound nodes]}} of the rules' powers, built once per Rules
    (the hot paths, push options and every feed, ask it; most content has none of these powers)."""
    table = rules.compose_table
    if table:
        return table
    table["@built"] = {}
    for flock, sides in rules.flocks.items():
        for side, sd in sides.items():
            for p in sd.powers:
                if p.modifier_node is not None and p.modifier:
                    table.setdefault(p.modifier, {}).setdefault((flock, side), []).append(p.modifier_node)
                if p.trigger:
                    table.setdefault(p.trigger, {}).setdefault((flock, side), []).append(p)
    return table


def _valued(rt: Runtime, flock: str, modifier: str) -> list:
    """The bound nodes of one flock's powers with this modifier id (its current board side)."""
    by_side = _table(rt.rules).get(modifier)
    if not by_side:
        return []
    return by_side.get((flock, rt.state.flocks[flock].side), [])


def immune(rt: Runtime) -> tuple[set[int], set[str]] | None:
    """Kiwi ids and Leader flocks no one may push (`<pieces> cannot be pushed`); None when no power says so."""
    if "m-immune" not in _table(rt.rules):
        return None
    kiwi: set[int] = set()
    leaders: set[str] = set()
    found = False
    for flock in rt.state.seats:
        for node in _valued(rt, flock, "m-immune"):
            found = True
            for kind, _, thing in select(rt.state, node.arg("who"), Scope(flock)):
                if kind == "kiwi":
                    kiwi.add(thing.id)
                elif kind == "leader":
                    leaders.add(thing)
    return (kiwi, leaders) if found else None


def feed_discount(rt: Runtime, flock: str | None) -> int:
    """Fruit off a Feed action's cost for this flock (`feed costs N fruit less`)."""
    if flock is None:
        return 0
    return sum(int(node.arg("n")) for node in _valued(rt, flock, "m-feed-discount"))
