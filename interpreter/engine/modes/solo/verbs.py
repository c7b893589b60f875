"""The DSL in a solo game: the Kiwibot verbs of the Solo card segments (R-SOLO-10) and Kiwibot's own way of
some core verbs (R-SOLO-8), picked by `verb_for` for `effects.run`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from kcd.dsl import ast
from kcd.dsl.render_solo import segment_text
from kcd.engine import build as build_mod
from kcd.engine import effects, placing
from kcd.engine import feed as feed_mod
from kcd.engine.context import Ctx, EngineError, Runtime
from kcd.engine.decisions import Steps
from kcd.engine.frames import Call, Done, Entry, Frame, FrameDataError, Return, Signal, drive, register_frame
from kcd.engine.modes.solo.marking import mark_now
from kcd.engine.modes.solo.moves import Node, amount, gather_scatter_frame, move_frame, plan, push_frame
from kcd.engine.selectors import Scope
from kcd.engine.modes.solo.patterns import build_hex, feed_choice
from kcd.engine.modes.solo.state import is_bot, solo_of
from kcd.engine.verb_table import TABLE
from kcd.memo import per_object

Verb = Callable[[Runtime, Node, Ctx], Entry]


# a segment of the compiled rules is told once per process: hashing its whole tree on every Kiwibot turn would
# cost more than telling it
@per_object(4096)
def describe_segment(node: Any) -> str:
    """A Solo card segment's rules text, all of it what Kiwibot does (dsl/render_solo.py; kept per node)."""
    text = segment_text(node)
    return text


def segment_frame(rt: Runtime, node: Any, ctx: Ctx) -> Frame:
    """Resolve a Solo card segment for Kiwibot (R-SOLO-10): its effect, with the segment read ahead (`plan`)."""
    if node is None:
        return Done()
    return effects.run_frame(rt, node, ctx.sub(segment=plan(node, rt, ctx), depth=ctx.depth + 1))


def run_segment(rt: Runtime, node: Any, ctx: Ctx) -> Steps[Any]:
    """Resolve a Solo card segment for Kiwibot (R-SOLO-10)."""
    return (yield from drive(rt, segment_frame(rt, node, ctx)))


def bonus_frame(rt: Runtime, ctx: Ctx, action: str) -> Frame:
    """A bonus action resolves that row's bonus segment of the top Solo card (R-SOLO-8); logged now."""
    pile = solo_of(rt.state)["pile"]
    if not pile:
        return Done()
    segment = rt.rules.solo_cards[pile[0]].sections[action][3]
    rt.emit("kiwibot-bonus", ctx.flock, flock=ctx.flock, action=action, segment=describe_segment(segment))
    return segment_frame(rt, segment, ctx)


def bonus(rt: Runtime, ctx: Ctx, action: str) -> Steps[Any]:
    """A bonus action resolves that row's bonus segment of the top Solo card (R-SOLO-8)."""
    return (yield from drive(rt, bonus_frame(rt, ctx, action)))


@register_frame("solo.bonuses")
@dataclass(eq=False)
class BonusesFrame(Frame):
    """`n` bonus actions of one row, one after another (each logged when it starts), then `trigger`'s powers."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    ctx: Ctx
    action: str
    n: int
    trigger: str = ""
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the next bonus; 1: the powers, then done."""
        if self.pc == 1:
            return Return()
        if self.n > 0:
            self.n -= 1
            return Call(bonus_frame(rt, self.ctx, self.action))
        self.pc = 1
        if self.trigger:
            return Call(effects.EMIT.start(self.ctx, self.trigger))
        return Return()


# --- feeding (R-SOLO-10 Feed) -------------------------------------------------------------------------------------
def feed_frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry:
    """Kiwibot feeds for free, still gaining the feed's domain markers (R-SOLO-8/10; R-FEED-3..5)."""
    bot = ctx.flock
    found = feed_choice(rt, call.arg("what"), Scope(bot, it=ctx.it, here=ctx.here))
    if found is None:
        rt.emit("kiwibot-no-feed", bot, flock=bot)   # decision: no feed, no markers
        return Done()
    hex_id, kiwi = found
    return feed_mod.resolve_frame(ctx, hex_id, kiwi.id)   # as a paid feed, without the payment (R-SOLO-8)


def bot_feed(rt: Runtime, call: Node, ctx: Ctx) -> Steps[Any]:
    """Kiwibot feeds for free, still gaining the feed's domain markers (R-SOLO-8/10; R-FEED-3..5)."""
    return (yield from drive(rt, feed_frame(rt, call, ctx)))


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


@register_frame("solo.build")
@dataclass(eq=False)
class BotBuildFrame(Frame):
    """Kiwibot builds its next Nest of the column for free; no hex or Nest: 1 Kiwi and a bonus Move (R-SOLO-10)."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    ctx: Ctx
    column: int
    hex: str = ""
    nest: str = ""
    where: ast.Selector | None = None   # the hexes it may build on (`on <hexes>`; a node of the compiled rules)
    max_pc: ClassVar[int] = 4

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: build (or place a Kiwi); 1: the bonus Move; 2: the placement benefit done: powers; 3, 4: done."""
        ctx = self.ctx
        bot = ctx.flock
        if self.pc == 0:
            nest_id = next_nest(rt, bot, self.column)
            hex_id = build_hex(rt, bot, self.where, Scope(bot, it=ctx.it, here=ctx.here)) if nest_id else None
            if nest_id is None or hex_id is None:
                rt.emit("kiwibot-cannot-build", bot, flock=bot)
                self.pc = 1
                return Call(placing.PlaceOneFrame(bot, ctx))
            st = rt.state
            st.set_nest(hex_id, (bot, nest_id))
            st.flocks[bot].nests_built.append(nest_id)
            rt.emit("build", bot, flock=bot, nest=nest_id, hex=hex_id)
            self.hex, self.nest = hex_id, nest_id
            self.pc = 2
            return Call(build_mod.nest_benefit_frame(rt, ctx, rt.rules.nests[nest_id].on_place,
                                                      f"{nest_id} placement", hex_id))
        if self.pc == 1:
            self.pc = 4
            return Call(bonus_frame(rt, ctx, "move"))
        if self.pc == 2:
            self.pc = 3
            return Call(effects.EMIT.start(ctx, "t-build"))
        return Return()

    def check(self, rt: Runtime) -> None:
        """A loaded Kiwibot build names a Nest of the content."""
        if self.nest and self.nest not in rt.rules.nests:
            raise FrameDataError("solo.build: unknown Nest")
        if self.where is not None and not isinstance(self.where, ast.Selector):
            raise FrameDataError("solo.build: not a selector of hexes")


def build_frame(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    """The Kiwibot build verbs as a frame (`on <hexes>`: among the hexes named)."""
    return BotBuildFrame(ctx, amount(rt, call.arg("n", 1), ctx), where=call.arg("where"))


def bot_build(rt: Runtime, call: Node, ctx: Ctx) -> Steps[Any]:
    """Kiwibot builds its next Nest of the column for free; no hex or Nest: 1 Kiwi and a bonus Move (R-SOLO-10)."""
    return (yield from drive(rt, build_frame(rt, call, ctx)))


def place_frame(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    """Kiwibot places n size-1 Kiwi; each hex by the Pushing / placing pattern (answered in solo_answers)."""
    return placing.place_frame(ctx, amount(rt, call.arg("n", 1), ctx))


def bot_place(rt: Runtime, call: Node, ctx: Ctx) -> Steps[Any]:
    """Kiwibot places n size-1 Kiwi; each hex by the Pushing / placing pattern (answered in solo_answers)."""
    return (yield from drive(rt, place_frame(rt, call, ctx)))


def bonus_verb_frame(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    """A bonus action of the Solo card (R-SOLO-8)."""
    return bonus_frame(rt, ctx, str(call.arg("a")))


def bot_bonus(rt: Runtime, call: Node, ctx: Ctx) -> Steps[Any]:
    """A bonus action of the Solo card (R-SOLO-8)."""
    return (yield from drive(rt, bonus_verb_frame(rt, call, ctx)))


# --- Kiwibot's own way of some core verbs (R-SOLO-8) ---------------------------------------------------------
def _no_fruit(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    rt.emit("kiwibot-no-fruit", ctx.flock, flock=ctx.flock)   # R-SOLO-3/8
    return Done()


def _bonus_moves(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    # decision R-SOLO-8: each Move action Kiwibot gains (a Control Nest, a track slot) is a bonus Move
    return BonusesFrame(ctx, "move", int(call.arg("n", 1)), "t-gain-move")


def _skip(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    # R-SOLO-8: Kiwibot never pays for extra Moves (a Nest or track benefit may offer them). It never uses its
    # Leader's ability either, which needs no override: ability verbs run only from a Leader card played in
    # an ordinary Actions turn, and Kiwibot's turns reveal cards instead (bot_turn)
    return Done()


def _mark(rt: Runtime, call: Node, ctx: Ctx) -> Frame:
    mark_now(rt, ctx)
    return Done()


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
    def frame(rt: Runtime, call: Node, ctx: Ctx) -> Entry:
        if not is_bot(rt.state, ctx.flock):
            raise EngineError(f"the Kiwibot verb `{effects.describe(call)}` ran for {ctx.flock}, not Kiwibot")
        return make(rt, call, ctx)

    def procedure(rt: Runtime, call: Node, ctx: Ctx) -> Steps[Any]:
        return (yield from drive(rt, frame(rt, call, ctx)))
    TABLE.register(prim, procedure, frame=frame)
    return frame


for _prim, _make in SOLO_VERBS.items():
    _kiwibot_only(_prim, _make)


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
