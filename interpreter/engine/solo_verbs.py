"""The DSL in a solo game: the Kiwibot verbs of the Solo card segments (R-SOLO-10) and Kiwibot's own way of
some core verbs (R-SOLO-8), picked by `verb_for` for `effects.run`."""
from __future__ import annotations

from typing import Callable

from interpreter.dsl import ast
from interpreter.engine import build as build_mod
from interpreter.engine import effects, placing
from interpreter.engine import feed as feed_mod
from interpreter.engine.context import Ctx, EngineError, Runtime
from interpreter.engine.solo_marking import mark_one
from interpreter.engine.solo_moves import bot_gather_scatter, bot_move, bot_push, plan
from interpreter.engine.solo_patterns import build_hex, feed_target
from interpreter.engine.solo_state import is_bot, solo_of
from interpreter.engine.decisions import Steps

Verb = Callable[[Runtime, ast.Call, Ctx], Steps[object]]


def run_segment(rt: Runtime, node: ast.Node | None, ctx: Ctx) -> Steps[None]:
    """Resolve a Solo card segment for Kiwibot (R-SOLO-10)."""
    if node is None:
        return
    yield from effects.run(rt, node, ctx.sub(segment=plan(node), depth=ctx.depth + 1))


def bonus(rt: Runtime, ctx: Ctx, action: str) -> Steps[None]:
    """A bonus action resolves that row's bonus segment of the top Solo card (R-SOLO-8)."""
    pile = solo_of(rt.state)["pile"]
    if not pile:
        return
    segment = rt.rules.solo_cards[pile[0]].sections[action][3]
    rt.emit("kiwibot-bonus", ctx.flock, flock=ctx.flock, action=action, segment=effects.describe(segment))
    yield from run_segment(rt, segment, ctx)


# --- feeding (R-SOLO-10 Feed) -------------------------------------------------------------------------------------
def bot_feed(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    """Kiwibot feeds for free, still gaining the feed's domain markers (R-SOLO-8/10; R-FEED-3..5)."""
    st = rt.state
    bot = ctx.flock
    owner = bot if call.primitive == "bot-feed-own" else solo_of(st)["player"]
    found = feed_target(rt, owner, int(call.arg("s", 1)))
    if found is None:
        rt.emit("kiwibot-no-feed", bot, flock=bot)   # decision: no feed, no markers
        return
    hex_id, kiwi = found
    yield from feed_mod.resolve(rt, ctx, hex_id, kiwi)   # as a paid feed, without the payment (R-SOLO-8)


# --- building and placing (R-SOLO-10 Build / Wildcard) -----------------------------------------------------------
def _columns(rt: Runtime) -> list[str]:
    """Nest types in flock-board column order (first appearance in game.yaml flock.nests)."""
    out: list[str] = []
    for n in rt.rules.flock_nests:
        t = rt.rules.nests[n].type
        if t not in out:
            out.append(t)
    return out


def next_nest(rt: Runtime, bot: str, column: int) -> str | None:
    """Kiwibot's next available Nest of a column: the lowest unbuilt row, first row first (R-SOLO-10, R-BUILD-2)."""
    cols = _columns(rt)
    if not 1 <= column <= len(cols):
        return None
    built = rt.state.flocks[bot].nests_built
    cands = [n for n in rt.rules.flock_nests if rt.rules.nests[n].type == cols[column - 1] and n not in built]
    cands.sort(key=lambda n: rt.rules.nests[n].row)
    for n in cands:
        if all(m in built for m in build_mod._lower_rows(rt, n)):
            return n
    return None


def bot_build(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    """Kiwibot builds its next Nest of the column for free; no hex or Nest: 1 Kiwi and a bonus Move (R-SOLO-10)."""
    bot = ctx.flock
    nest_id = next_nest(rt, bot, int(call.arg("n", 1)))
    hex_id = build_hex(rt, bot) if nest_id else None
    if nest_id is None or hex_id is None:
        rt.emit("kiwibot-cannot-build", bot, flock=bot)
        yield from placing.place_one(rt, bot, ctx)
        yield from bonus(rt, ctx, "move")
        return
    st = rt.state
    st.hexes[hex_id].nest = (bot, nest_id)
    st.flocks[bot].nests_built.append(nest_id)
    rt.emit("build", bot, flock=bot, nest=nest_id, hex=hex_id)
    yield from build_mod.nest_benefit(rt, ctx, rt.rules.nests[nest_id].on_place, f"{nest_id} placement",
                                      here=hex_id)
    yield from effects.emit(rt, ctx, "t-build")


def bot_place(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    """Kiwibot places n size-1 Kiwi; each hex by the Pushing / placing pattern (answered in solo_answers)."""
    for _ in range(int(call.arg("n", 1))):
        yield from placing.place_one(rt, ctx.flock, ctx)


def bot_bonus(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    """A bonus action of the Solo card (R-SOLO-8)."""
    yield from bonus(rt, ctx, str(call.arg("a")))


# --- Kiwibot's own way of some core verbs (R-SOLO-8) ---------------------------------------------------------
def _no_fruit(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    rt.emit("kiwibot-no-fruit", ctx.flock, flock=ctx.flock)   # R-SOLO-3/8
    yield from ()


def _bonus_moves(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    # decision R-SOLO-8: each Move action Kiwibot gains (a Control Nest, a track slot) is a bonus Move
    for _ in range(int(call.arg("n", 1))):
        yield from bonus(rt, ctx, "move")
    yield from effects.emit(rt, ctx, "t-gain-move")


def _skip(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    # R-SOLO-8: Kiwibot never pays for extra Moves (a Nest or track benefit may offer them). It never uses its
    # Leader's ability either, which needs no override: ability verbs run only from a Leader card played in
    # an ordinary Actions turn, and Kiwibot's turns reveal cards instead (bot_turn)
    yield from ()


def _mark(rt: Runtime, call: ast.Call, ctx: Ctx) -> Steps[None]:
    yield from mark_one(rt, ctx)


SOLO_VERBS: dict[str, Verb] = {
    "bot-move": bot_move, "bot-move-terrain": bot_move, "bot-move-player-most": bot_move,
    "bot-move-bot-most": bot_move, "bot-gather": bot_gather_scatter, "bot-scatter": bot_gather_scatter,
    "bot-push-own": bot_push, "bot-push-player": bot_push, "bot-feed-own": bot_feed, "bot-feed-player": bot_feed,
    "bot-build": bot_build, "bot-place": bot_place, "bot-bonus": bot_bonus,
}
BOT_OVERRIDES: dict[str, Verb] = {
    "move": _bonus_moves, "build": lambda rt, c, ctx: bonus(rt, ctx, "build"),
    "feed": lambda rt, c, ctx: bonus(rt, ctx, "feed"), "extra-moves": _skip, "mark-domain": _mark,
}


def verb_for(rt: Runtime, call: ast.Call, ctx: Ctx, fn: Callable | None) -> Callable | None:
    """The procedure of a DSL verb in a solo game: the Kiwibot verbs, and Kiwibot's way of core verbs."""
    prim = call.primitive or ""
    if prim in SOLO_VERBS:
        if not is_bot(rt.state, ctx.flock):
            raise EngineError(f"the Kiwibot verb `{effects.describe(call)}` ran for {ctx.flock}, not Kiwibot")
        return SOLO_VERBS[prim]
    if is_bot(rt.state, ctx.flock):
        if prim == "gain-fruit" and not solo_of(rt.state).get("kiwibot_fruit"):
            return _no_fruit
        return BOT_OVERRIDES.get(prim, fn)
    return fn
