"""The DSL in a solo game: the Kiwibot verbs of the Solo card segments (R-SOLO-10) and Kiwibot's own way of
some core verbs (R-SOLO-8), picked by `verb_for` for `effects.run`."""
from __future__ import annotations

from typing import Any, Callable

from kcd.dsl import ast
from kcd.dsl.render_solo import segment_text
from kcd.engine import build as build_mod
from kcd.engine import effects, placing
from kcd.engine import feed as feed_mod
from kcd.engine.context import Ctx, EngineError, Runtime
from kcd.engine.describe import describe
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Cont as Entry
from kcd.engine.machine import Call, Cont, Do, Env, If, Return, While, program
from kcd.modes.solo.marking import mark_now
from kcd.modes.solo.moves import Node, amount, gather_scatter_frame, move_frame, plan, push_frame
from kcd.engine.selectors import Scope
from kcd.modes.solo.patterns import build_hex, feed_choice
from kcd.modes.solo.state import is_bot, solo_of
from kcd.engine.verb_table import TABLE
from kcd.core.memo import per_object

Verb = Callable[[Runtime, Node, Ctx], "Entry | None"]


# a segment of the compiled rules is told once per process: hashing its whole tree on every Kiwibot turn would
# cost more than telling it
@per_object(4096)
def describe_segment(node: Any) -> str:
    """A Solo card segment's rules text, all of it what Kiwibot does (dsl/render_solo.py; kept per node)."""
    text = segment_text(node)
    return text


def segment_frame(rt: Runtime, node: Any, ctx: Ctx) -> Entry | None:
    """Resolve a Solo card segment for Kiwibot (R-SOLO-10): its effect, with the segment read ahead (`plan`)."""
    if node is None:
        return None
    frame: Entry | None = effects.run_frame(rt, node, ctx.sub(mode_ctx=plan(node, rt, ctx), depth=ctx.depth + 1))
    return frame


def bonus_frame(rt: Runtime, ctx: Ctx, action: str) -> Entry | None:
    """A bonus action resolves that row's bonus segment of the top Solo card (R-SOLO-8); logged now."""
    pile = solo_of(rt.state).pile
    if not pile:
        return None
    segment = rt.rules.solo_cards[pile[0]].sections[action][3]
    rt.emit("kiwibot-bonus", ctx.flock, flock=ctx.flock, action=action, segment=describe_segment(segment))
    return segment_frame(rt, segment, ctx)


def _bonuses_left(rt: Runtime, env: Env) -> bool:
    n: int = env["n"]
    return n > 0


def _next_bonus(rt: Runtime, env: Env) -> Any:
    """The next bonus, logged when it starts."""
    env["n"] -= 1
    return bonus_frame(rt, env["ctx"], env["action"])


def _bonus_powers(rt: Runtime, env: Env) -> Any:
    """`trigger`'s powers (None: no trigger)."""
    return effects.EMIT.start(env["ctx"], env["trigger"]) if env["trigger"] else None


# `n` bonus actions of one row, one after another (each logged when it starts), then `trigger`'s powers
BONUSES = program(
    "solo.bonuses", ("ctx", "action", "n", "trigger"), {"ctx": Ctx, "action": str, "n": int, "trigger": str},
    While(_bonuses_left, (Call("bonus", _next_bonus),)),
    Call("powers", _bonus_powers))


# --- feeding (R-SOLO-10 Feed) -------------------------------------------------------------------------------------
def feed_frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    """Kiwibot feeds for free, still gaining the feed's domain markers (R-SOLO-8/10; R-FEED-3..5)."""
    bot = ctx.flock
    found = feed_choice(rt, call.arg("what"), Scope(bot, it=ctx.it, here=ctx.here))
    if found is None:
        rt.emit("kiwibot-no-feed", bot, flock=bot)   # decision: no feed, no markers
        return None
    hex_id, kiwi = found
    return feed_mod.resolve_frame(ctx, hex_id, kiwi.id)   # as a paid feed, without the payment (R-SOLO-8)


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


def _choose_site(rt: Runtime, env: Env) -> None:
    """Kiwibot's next Nest of the column and its hex (R-SOLO-10; env nest and hex unset: nowhere to build)."""
    ctx = env["ctx"]
    bot = ctx.flock
    nest_id = next_nest(rt, bot, env["column"])
    hex_id = build_hex(rt, bot, env["where"], Scope(bot, it=ctx.it, here=ctx.here)) if nest_id else None
    if nest_id is None or hex_id is None:
        rt.emit("kiwibot-cannot-build", bot, flock=bot)
        return
    env["nest"], env["hex"] = nest_id, hex_id


def _nowhere(rt: Runtime, env: Env) -> bool:
    return "nest" not in env


def _place_instead(rt: Runtime, env: Env) -> Any:
    """No hex or Nest: 1 Kiwi instead."""
    ctx = env["ctx"]
    return placing.place_one_frame(ctx.flock, ctx)


def _bonus_move(rt: Runtime, env: Env) -> Any:
    """... and a bonus Move (R-SOLO-10)."""
    return bonus_frame(rt, env["ctx"], "move")


def _build_nest(rt: Runtime, env: Env) -> Any:
    """Build the Nest for free, then its placement benefit."""
    ctx, hex_id, nest_id = env["ctx"], env["hex"], env["nest"]
    bot = ctx.flock
    st = rt.state
    st.set_nest(hex_id, (bot, nest_id))
    st.flocks[bot].nests_built.append(nest_id)
    rt.emit("build", bot, flock=bot, nest=nest_id, hex=hex_id)
    return build_mod.nest_benefit_frame(rt, ctx, rt.rules.nests[nest_id].on_place, f"{nest_id} placement", hex_id)


def _build_powers(rt: Runtime, env: Env) -> Any:
    return effects.EMIT.start(env["ctx"], "t-build")


def _check_bot_build(rt: Runtime, env: Env, at: str) -> None:
    """A loaded Kiwibot build names a Nest of the content."""
    if "nest" in env and env["nest"] not in rt.rules.nests:
        raise FrameDataError("solo.build: unknown Nest")


# Kiwibot builds its next Nest of the column for free; no hex or Nest: 1 Kiwi and a bonus Move (R-SOLO-10).
# `where`: the hexes it may build on (`on <hexes>`; a node of the compiled rules)
BOT_BUILD = program(
    "solo.build", ("ctx", "column", "where"),
    {"ctx": Ctx, "column": int, "where": (ast.Selector, type(None)), "nest": str, "hex": str},
    Do(_choose_site),
    If(_nowhere, (Call("place", _place_instead), Call("bonus", _bonus_move), Return())),
    Call("benefit", _build_nest),
    Call("powers", _build_powers),
    check=_check_bot_build)


def build_frame(rt: Runtime, call: Node, ctx: Ctx) -> Cont:
    """The Kiwibot build verbs as a program (`on <hexes>`: among the hexes named)."""
    return BOT_BUILD.start(ctx, amount(rt, call.arg("n", 1), ctx), call.arg("where"))


def place_frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    """Kiwibot places n size-1 Kiwi; each hex by the Pushing / placing pattern (answered in answers.py)."""
    frame: Entry | None = placing.place_frame(ctx, amount(rt, call.arg("n", 1), ctx))
    return frame


def bonus_verb_frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    """A bonus action of the Solo card (R-SOLO-8)."""
    return bonus_frame(rt, ctx, str(call.arg("a")))


# --- Kiwibot's own way of some core verbs (R-SOLO-8) ---------------------------------------------------------
def _no_fruit(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    rt.emit("kiwibot-no-fruit", ctx.flock, flock=ctx.flock)   # R-SOLO-3/8
    return None


def _bonus_moves(rt: Runtime, call: Node, ctx: Ctx) -> Cont:
    # decision R-SOLO-8: each Move action Kiwibot gains (a Control Nest, a track slot) is a bonus Move
    return BONUSES.start(ctx, "move", int(call.arg("n", 1)), "t-gain-move")


def _skip(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    # R-SOLO-8: Kiwibot never pays for extra Moves (a Nest or track benefit may offer them). It never uses its
    # Leader's ability either, which needs no override: ability verbs run only from a Leader card played in
    # an ordinary Actions turn, and Kiwibot's turns reveal cards instead (bot_turn)
    return None


def _mark(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
    mark_now(rt, ctx)
    return None


# every Kiwibot verb and override returns a frame (effects runs it on the stack)
SOLO_VERBS: dict[str, Verb] = {
    "bot-move": move_frame, "bot-move-to": move_frame, "bot-gather": gather_scatter_frame,
    "bot-scatter": gather_scatter_frame, "bot-push": push_frame, "bot-feed": feed_frame, "bot-build": build_frame,
    "bot-build-on": build_frame, "bot-place": place_frame, "bot-bonus": bonus_verb_frame,
}
BOT_OVERRIDES: dict[str, Verb] = {
    "move": _bonus_moves, "build": lambda rt, c, ctx: bonus_frame(rt, ctx, "build"),
    "feed": lambda rt, c, ctx: bonus_frame(rt, ctx, "feed"), "extra-moves": _skip, "mark-domain": _mark,
}


def _kiwibot_only(prim: str, make: Verb) -> Verb:
    """A Kiwibot verb as the engine's verb table runs it (a phrase with selectors or quantities goes there, not
    through the mode's `verb_for`): refused for anyone but Kiwibot."""
    def frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry | None:
        if not is_bot(rt.state, ctx.flock):
            raise EngineError(f"the Kiwibot verb `{describe(call)}` ran for {ctx.flock}, not Kiwibot")
        return make(rt, call, ctx)
    TABLE.register(prim, frame)
    return frame


for _prim, _make in SOLO_VERBS.items():
    _kiwibot_only(_prim, _make)


def verb_for(rt: Runtime, call: ast.Call, ctx: Ctx, fn: Callable[..., Any] | None) -> Callable[..., Any] | None:
    """The procedure of a DSL verb in a solo game: the Kiwibot verbs, and Kiwibot's way of core verbs."""
    prim = call.primitive or ""
    if prim in SOLO_VERBS:
        if not is_bot(rt.state, ctx.flock):
            raise EngineError(f"the Kiwibot verb `{describe(call)}` ran for {ctx.flock}, not Kiwibot")
        return SOLO_VERBS[prim]
    if is_bot(rt.state, ctx.flock):
        if prim == "gain-fruit" and not solo_of(rt.state).kiwibot_fruit:
            return _no_fruit
        return BOT_OVERRIDES.get(prim, fn)
    return fn
