"""The Feed action (R-FEED-1..6): feed any non-Leader Kiwi, pay different fruit, grow or explode, gain markers."""
from __future__ import annotations

from typing import Generator

from interpreter.engine import compose, effects, payment, push
from interpreter.engine.context import Ctx, Runtime
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Option, ask_action, lazy_option
from interpreter.engine.placing import grow_one, kiwi_of, remove_from_hex
from interpreter.engine.powers import feed_discount
from interpreter.engine.state import Kiwi
from interpreter.engine.verb_table import TABLE


def cost(rt: Runtime, size: int, flock: str | None = None) -> payment.Req:
    """Fruit to feed a Kiwi of this size: game.yaml feed.cost by the size reached, or explode (R-FEED-2),
    less the feeder's `feed costs N fruit less` discount (at least 1)."""
    n = rt.rules.feed_cost[min(size + 1, rt.rules.max_size + 1)]
    return payment.Req("fruit", max(1, n - feed_discount(rt, flock)), rt.rules.feed_rule)


def targets(rt: Runtime, flock: str) -> list[Option]:
    """Kiwi the flock can afford to feed; Leaders are never fed (R-FEED-1, R-LEAD-3)."""
    fl = rt.state.flocks[flock]
    afford: dict[int, bool] = {}
    opts = []
    for h in rt.state.hexes.values():
        for k in h.kiwi:
            if k.size not in afford:
                afford[k.size] = payment.can_meet(fl, cost(rt, k.size, flock), rt.rules.fruits)
            if afford[k.size]:
                what = "explode" if k.size >= rt.rules.max_size else f"grow to size {k.size + 1}"
                opts.append(lazy_option(A.Feed, (k.id, k.flock, k.size, h.id), f"Feed the {k.flock} size-{k.size} Kiwi on {h.id} ({what})"))
    return opts


def possible(rt: Runtime, flock: str) -> bool:
    """True when some Feed is affordable."""
    fl = rt.state.flocks[flock]
    sizes = {k.size for h in rt.state.hexes.values() for k in h.kiwi}
    return any(payment.can_meet(fl, cost(rt, s, flock), rt.rules.fruits) for s in sizes)


def feed(rt: Runtime, ctx: Ctx) -> Generator:
    """One Feed action."""
    flock = ctx.flock
    opts = targets(rt, flock)
    if not opts:
        rt.emit("cannot-feed", flock, flock=flock)
        return
    act = yield from ask_action(flock, "feed", "Choose a Kiwi to feed", opts)
    hex_id, kiwi = kiwi_of(rt, act)
    yield from payment.pay(rt, flock, cost(rt, kiwi.size, flock))
    yield from resolve(rt, ctx, hex_id, kiwi)


def resolve(rt: Runtime, ctx: Ctx, hex_id: str, kiwi: Kiwi) -> Generator:
    """A paid (or, for Kiwibot, free) feed of `kiwi` by `ctx.flock`: grow or explode, then the feeder's markers."""
    flock = ctx.flock
    owner = kiwi.flock
    if kiwi.size >= rt.rules.max_size:
        # R-FEED-5/6: explode; the tokens go to the owner's Reserve, no token is taken from the track
        remove_from_hex(rt, hex_id, kiwi)
        rt.state.flocks[owner].reserve_kiwi += kiwi.size
        rt.emit("explode", flock, flock=flock, owner=owner, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)
        # R-FEED-5: "pushes ALL the Kiwi in that hex"; decision: Leaders are Kiwi too and are pushed.
        # Every piece leaves the hex: a Leader pushed off is not put back on the exploded hex (else
        # "push all" would never empty it). Decision: from an edge hex a Kiwi may be pushed off the island
        # here too, as in every push (R-PUSH-3)
        yield from push.push_all(rt, flock, hex_id, None, leave_origin=True)
    else:
        rt.emit("feed", flock, flock=flock, owner=owner, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)
        # R-FEED-3: the owner stacks a token; the owner resolves any track benefit it uncovers
        yield from grow_one(rt, hex_id, kiwi, Ctx(owner, depth=ctx.depth + 1, suppressed=ctx.suppressed)
                            if owner != flock else ctx, why="the fed Kiwi")
    n = rt.rules.feed_domain_own if owner == flock else rt.rules.feed_domain_opponent   # R-FEED-4
    yield from effects.gain_domain(rt, ctx, n)
    yield from effects.emit(rt, ctx, "t-feed")
    yield from compose.emit_event(rt, ctx, "feed", hex_id, kiwi)   # triggers with filters (`feed <pieces>`)


TABLE.register("feed", lambda rt, c, ctx: feed(rt, ctx), lambda rt, c, ctx: possible(rt, ctx.flock))
