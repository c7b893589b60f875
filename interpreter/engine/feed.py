"""The Feed action (R-FEED-1..6): feed any non-Leader Kiwi, pay different fruit, grow or explode, gain markers."""
from __future__ import annotations

from typing import Any

from kcd.engine import compose, effects, payment, push
from kcd.engine.context import Ctx, EngineError, Runtime
from kcd.core import action_types as A
from kcd.core.decisions import Option, lazy_option, shared_option_caches
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Emit, Env, Label, Question, Return, program
from kcd.engine.placing import grow_one_frame, kiwi_of, remove_from_hex
from kcd.engine.powers import feed_discount, feed_discounts
from kcd.core.state import Kiwi
from kcd.engine.verb_table import TABLE


def cost(rt: Runtime, size: int, flock: str | None = None, kiwi: int | None = None,
         off: int | None = None) -> payment.Req:
    """Fruit to feed a Kiwi of this size: game.yaml feed.cost by the size reached, or explode (R-FEED-2), less the
    feeder's `feeding <pieces> costs N fruit less` discount for that Kiwi (`off` when already known; at least 1)."""
    n = rt.rules.feed_cost[min(size + 1, rt.rules.max_size + 1)]
    if off is None:
        off = feed_discount(rt, flock, kiwi) if kiwi is not None else 0
    return payment.fruit_req(max(1, n - off), rt.rules.feed_rule)


def targets(rt: Runtime, flock: str) -> list[Option[A.Feed]]:
    """Kiwi the flock can afford to feed; Leaders are never fed (R-FEED-1, R-LEAD-3)."""
    fl = rt.state.flocks[flock]
    offs = feed_discounts(rt, flock)   # None without discount powers: the cost depends on the size alone
    afford: dict[object, str | None] = {}   # size (or size, discount) -> what feeding does (None: not affordable)
    opts: list[Option[A.Feed]] = []
    kind = A.Feed
    id_of = kind.id_of
    for h in rt.state.hexes.values():
        for k in h.kiwi:
            size = k.size
            off = offs.get(k.id, 0) if offs is not None else 0
            key: object = size if offs is None else (size, off)
            what = afford.get(key, "")
            if what == "":
                ok = payment.can_meet(fl, cost(rt, size, flock, off=off), rt.rules.fruits)
                what = afford[key] = (None if not ok else "explode" if size >= rt.rules.max_size
                                      else f"grow to size {size + 1}")
            if what is not None:
                key = (k.id, k.flock, size, h.id, what)
                shared = _FEEDS.get(key)
                if shared is None:
                    # lazy_option(kind, values, label) written out; the label is a Text (decisions.Text)
                    values = key[:4]
                    fed: Option[A.Feed] = Option(id_of(*values), (_FEED, (k.flock, size, h.id, what)), (kind, values))
                    shared = shared_option_caches.keep(_FEEDS, key, fed)
                opts.append(shared)
    return opts


_FEED = "Feed the {} size-{} Kiwi on {} ({})"
# (Kiwi id, flock, size, hex, what feeding does) -> its Feed option, shared between decisions and games
# (decisions.SharedOptionCaches: an option is a value the key determines)
_FEEDS = shared_option_caches.new(5_000)


def possible(rt: Runtime, flock: str) -> bool:
    """True when some Feed is affordable."""
    fl = rt.state.flocks[flock]
    fruits = rt.rules.fruits
    offs = feed_discounts(rt, flock)   # None without discount powers
    tried: set[object] = set()
    for h in rt.state.hexes.values():
        for k in h.kiwi:
            off = offs.get(k.id, 0) if offs is not None else 0
            key: object = k.size if offs is None else (k.size, off)
            if key not in tried:
                if payment.can_meet(fl, cost(rt, k.size, flock, off=off), fruits):
                    return True
                tried.add(key)
    return False


# --- the Feed action as a program ------------------------------------------------------------------------
def _ask_kiwi(rt: Runtime, env: Env) -> Question | None:
    """The Kiwi to feed (None: none is affordable)."""
    flock = env["ctx"].flock
    opts = targets(rt, flock)
    return Question(flock, "feed", "Choose a Kiwi to feed", opts) if opts else None


def _cannot_feed(rt: Runtime, env: Env) -> tuple[str, dict[str, Any]]:
    flock = env["ctx"].flock
    return flock, {"flock": flock}


def _pay_for_kiwi(rt: Runtime, env: Env) -> Cont:
    """Pay the chosen Kiwi's cost (the Kiwi kept by hex and piece id)."""
    flock = env["ctx"].flock
    env["hex"], kiwi = kiwi_of(rt, env.pop("fed"))
    env["kiwi"] = kiwi.id
    return payment.pay_frame(flock, cost(rt, kiwi.size, flock, kiwi.id))


def _resolve_fed(rt: Runtime, env: Env) -> Cont:
    return RESOLVE.start(env["ctx"], env["hex"], env["kiwi"])


def _check_feed(rt: Runtime, env: Env, at: str) -> None:
    """A loaded feed names a hex of the island once a Kiwi is chosen."""
    if at != "kiwi" and env.get("hex") not in rt.state.hexes:
        raise FrameDataError("feed.feed: not a hex of the island")


FEED = program(
    "feed.feed", ("ctx",), {"ctx": Ctx, "fed": A.Feed, "hex": str, "kiwi": int},
    Ask("kiwi", _ask_kiwi, into="fed", kinds={"feed": ("feed",)}, otherwise="cannot"),
    Call("pay", _pay_for_kiwi),
    Call("resolve", _resolve_fed),
    Return(),
    Label("cannot"),
    Emit("cannot-feed", _cannot_feed),
    check=_check_feed)


def _on(rt: Runtime, hex_id: str | None, kiwi_id: int) -> Kiwi | None:
    """The Kiwi with this piece id on this hex (None: on any hex), or None when it is not there."""
    for h in ([rt.state.hexes[hex_id]] if hex_id is not None else rt.state.hexes.values()):
        for k in h.kiwi:
            if k.id == kiwi_id:
                return k
    return None


# --- resolving a feed: a paid (or, for Kiwibot, free) feed of a Kiwi by `ctx.flock` ----------------------------
# The Kiwi is held by piece id (with its owner), and looked up on the hex when it is needed again.
def _grow_or_explode(rt: Runtime, env: Env) -> Any:
    """Grow the fed Kiwi, or explode it at its largest size."""
    ctx, hex_id = env["ctx"], env["hex"]
    flock = ctx.flock
    kiwi = _on(rt, hex_id, env["kiwi"])
    if kiwi is None:
        raise EngineError(f"feed: no Kiwi {env['kiwi']} on {hex_id}")
    env["owner"] = owner = kiwi.flock
    if kiwi.size >= rt.rules.max_size:
        # R-FEED-5/6: explode; the tokens go to the owner's Reserve, no token is taken from the track
        remove_from_hex(rt, hex_id, kiwi)
        rt.state.flocks[owner].reserve_kiwi += kiwi.size
        rt.emit("explode", flock, flock=flock, owner=owner, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)
        # R-FEED-5: "pushes ALL the Kiwi in that hex"; decision: Leaders are Kiwi too and are pushed.
        # Every piece leaves the hex: a Leader pushed off is not put back on the exploded hex (else
        # "push all" would never empty it). Decision: from an edge hex a Kiwi may be pushed off the island
        # here too, as in every push (R-PUSH-3)
        return push.push_all_frame(flock, hex_id, None, True)
    rt.emit("feed", flock, flock=flock, owner=owner, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)
    # R-FEED-3: the owner stacks a token; the owner resolves any track benefit it uncovers
    return grow_one_frame(hex_id, kiwi, Ctx(owner, depth=ctx.depth + 1, suppressed=ctx.suppressed)
                          if owner != flock else ctx, why="the fed Kiwi")


def _feeder_markers(rt: Runtime, env: Env) -> Any:
    """The feeder's domain markers (R-FEED-4): more for feeding its own Kiwi."""
    ctx = env["ctx"]
    n = rt.rules.feed_domain_own if env["owner"] == ctx.flock else rt.rules.feed_domain_opponent
    return effects._gain_domain(rt, ctx, n)


def _feed_powers(rt: Runtime, env: Env) -> Any:
    """The feeder's powers that listen to feeding (None: none)."""
    return effects.emit_call(rt, env["ctx"], "t-feed", env["hex"])


def _feed_triggers(rt: Runtime, env: Env) -> Any:
    """Triggers with filters (`feed <pieces>`): the fed Kiwi wherever it is now (an exploded one is no longer on
    the island, so no selector names it)."""
    return compose.event_frame(rt, env["ctx"], "feed", env["hex"], _on(rt, None, env["kiwi"]))


def _check_resolve(rt: Runtime, env: Env, at: str) -> None:
    """A loaded feed is on a hex of the island, of a Kiwi still there before it is resolved."""
    if env["hex"] not in rt.state.hexes or at == "start" and _on(rt, env["hex"], env["kiwi"]) is None:
        raise FrameDataError("feed.resolve: the fed Kiwi is not on its hex")


RESOLVE = program(
    "feed.resolve", ("ctx", "hex", "kiwi"), {"ctx": Ctx, "hex": str, "kiwi": int, "owner": str},
    Call("grow", _grow_or_explode),
    Call("markers", _feeder_markers),
    Call("powers", _feed_powers),
    Call("triggers", _feed_triggers),
    check=_check_resolve)


def resolve_frame(ctx: Ctx, hex_id: str, kiwi_id: int) -> Cont:
    """The continuation resolving a paid (or free) feed of the Kiwi `kiwi_id` on `hex_id` by `ctx.flock`."""
    return RESOLVE.start(ctx, hex_id, kiwi_id)


TABLE.register("feed", lambda rt, c, ctx: FEED.start(ctx), lambda rt, c, ctx: possible(rt, ctx.flock))
