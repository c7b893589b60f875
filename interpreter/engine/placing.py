"""Kiwi tokens: taking one (track, then Reserve, then island, R-RES-2), placing (R-RES-3), growing,
removing, and the Kiwi track benefits (R-TRACK-1/2)."""
from __future__ import annotations

from typing import Generator

from interpreter.engine import effects
from interpreter.engine.context import Ctx, Runtime, Turn
from interpreter.engine import action_types as A
from interpreter.engine.decisions import ask_action, option
from interpreter.engine.state import Kiwi
from interpreter.engine.verb_table import TABLE, count


def kref(flock: str, size: int, hex_id: str) -> str:
    """Readable reference to a Kiwi: `red/2@A3`."""
    return f"{flock}/{size}@{hex_id}"


def kiwi_of(rt: Runtime, action: "A.Action") -> tuple[str, Kiwi]:
    """(hex, Kiwi) of the piece an action names by id (`action.kiwi` on `action.hex`)."""
    hex_id = getattr(action, "hex")
    for k in rt.state.hexes[hex_id].kiwi:
        if k.id == getattr(action, "kiwi"):
            return hex_id, k
    raise KeyError(f"no Kiwi {getattr(action, 'kiwi')} on {hex_id}")


def remove_from_hex(rt: Runtime, hex_id: str, kiwi: Kiwi) -> None:
    """Take a Kiwi off its hex."""
    lst = rt.state.hexes[hex_id].kiwi
    for i, k in enumerate(lst):
        if k is kiwi:
            del lst[i]
            return


def token_available(rt: Runtime, flock: str, exclude: int | None = None) -> bool:
    """True when the flock can take a token from somewhere (R-RES-2)."""
    fl = rt.state.flocks[flock]
    if fl.track > 0 or fl.reserve_kiwi > 0:
        return True
    return any(k.flock == flock and k.id != exclude for h in rt.state.hexes.values() for k in h.kiwi)


def take_from_island(rt: Runtime, flock: str, exclude: int | None, why: str, optional: bool = False) -> Generator:
    """The player picks one of their face-up island tokens; the Kiwi is downsized or removed (R-RES-2).

    Returns False when the player, allowed to (`optional`), takes none.
    """
    opts = [option(A.TakeToken(k.id, flock, k.size, h), ("Take a token from your size-{} Kiwi on {}", (k.size, h)))
            for h, k in rt.state.own_kiwi(flock) if k.id != exclude]
    if optional:
        opts.append(option(A.TakeNoToken(), "Take no token (the Kiwi is not placed)"))
    act = yield from ask_action(flock, "take-token", ("No token on your track or in your Reserve: take one for {}", (why,)),
                                opts)
    if not isinstance(act, A.TakeToken):
        rt.emit("no-token", flock, flock=flock)
        return False
    hex_id, kiwi = kiwi_of(rt, act)
    kiwi.size -= 1
    if kiwi.size == 0:
        remove_from_hex(rt, hex_id, kiwi)
    rt.emit("token", flock, flock=flock, hex=hex_id, kiwi=kiwi.id)
    return True


def take_token(rt: Runtime, flock: str, why: str, exclude: int | None = None, optional: bool = False) -> Generator:
    """Take the next token: track (returns the uncovered slot), else Reserve, else island. None if none.

    The token is held in `Flock.supply` until the caller puts it down, so every component stays
    accounted for while the player decides where it goes. `optional`: the island token may be refused.
    """
    fl = rt.state.flocks[flock]
    taker = rt.mode.token_taker(rt.state, flock)
    if taker is not None:   # the mode takes this flock's tokens without asking (R-SOLO-11: Kiwibot's pattern)
        return taker(rt, flock, exclude)
    if fl.track > 0:
        fl.track -= 1
        fl.supply += 1
        return ("track", rt.rules.track_tokens - fl.track)
    if fl.reserve_kiwi > 0:
        fl.reserve_kiwi -= 1
        fl.supply += 1
        return ("reserve", 0)
    if not token_available(rt, flock, exclude):
        return None
    taken = yield from take_from_island(rt, flock, exclude, why, optional)
    if not taken:
        return None
    fl.supply += 1
    return ("island", 0)


def track_benefit(rt: Runtime, flock: str, source: tuple | None, ctx: Ctx) -> Generator:
    """Benefit of a just-uncovered track slot, from slot `benefits_from_slot` on, never in Season Change (R-TRACK-1)."""
    if not source or source[0] != "track":
        return
    slot = source[1]
    if slot < rt.rules.track_from or rt.state.phase == "season_change":
        return
    fl = rt.state.flocks[flock]
    side = rt.rules.flocks.get(flock, {}).get(fl.side)
    benefit = side.track.get(slot) if side else None
    if benefit is None:
        return
    rt.emit("track", flock, flock=flock, slot=slot)
    yield from effects.run(rt, benefit, Ctx(flock, turn=ctx.turn if ctx.flock == flock else Turn(),
                                            suppressed=ctx.suppressed, depth=ctx.depth + 1, source=f"track slot {slot}"))


def placeable_hexes(rt: Runtime, flock: str) -> list[str]:
    """Hexes where the flock already has Kiwi, its Leader included (R-RES-3)."""
    mine = rt.state.presence(flock)
    return [h for h in rt.state.hexes if h in mine]


def place_one(rt: Runtime, flock: str, ctx: Ctx) -> Generator:
    """Place one size-1 Kiwi (R-RES-2, R-RES-3), then any uncovered track benefit.

    Decision R-RES-2: with the track and Reserve empty the player "may" take an island token, so they may
    also decline (else a Kiwi would be forced to hop to another hex, or a growth undone, for nothing).
    """
    source = yield from take_token(rt, flock, "a new Kiwi", optional=True)
    if source is None:
        if not token_available(rt, flock):   # else the player declined an island token (logged)
            rt.emit("no-kiwi", flock, flock=flock)
        return
    hexes = placeable_hexes(rt, flock)
    act = yield from ask_action(flock, "place-kiwi", "Place a size-1 Kiwi on a hex where you have Kiwi",
                                [option(A.Place(h), ("Place on {}", (h,))) for h in hexes])
    hex_id = act.hex
    rt.state.flocks[flock].supply -= 1
    new = rt.state.new_kiwi(flock, 1)
    rt.state.hexes[hex_id].kiwi.append(new)
    rt.emit("place", flock, flock=flock, hex=hex_id, kiwi=new.id)
    yield from track_benefit(rt, flock, source, ctx)


def growable(rt: Runtime, flock: str, skip: set[int]) -> list[tuple[str, Kiwi]]:
    """Own Kiwi that can grow by one (not at the size limit; Leaders are not Kiwi tokens)."""
    return [(h, k) for h, k in rt.state.own_kiwi(flock) if k.size < rt.rules.max_size and k.id not in skip]


def grow_one(rt: Runtime, hex_id: str, kiwi: Kiwi, ctx: Ctx, why: str = "growing",
             optional: bool = False) -> Generator:
    """Stack one token on a Kiwi (R-FEED-3): track, else Reserve, else island; then the track benefit.

    Decision R-TRACK-1: growing takes the next token like any other, so it uncovers track slots too.
    `optional`: an island token may be refused (own growth effects, R-RES-2); a fed Kiwi's owner must stack (R-FEED-3).
    """
    source = yield from take_token(rt, kiwi.flock, why, exclude=kiwi.id, optional=optional)
    if source is None:
        if not token_available(rt, kiwi.flock, exclude=kiwi.id):   # else the player declined (logged)
            rt.emit("no-growth", kiwi.flock, flock=kiwi.flock, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)
        return
    rt.state.flocks[kiwi.flock].supply -= 1
    kiwi.size += 1
    rt.emit("grow", kiwi.flock, flock=kiwi.flock, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)
    yield from track_benefit(rt, kiwi.flock, source, ctx)


def grow(rt: Runtime, flock: str, n: int, ctx: Ctx) -> Generator:
    """Increase by one the size of n different own Kiwi (as many as possible)."""
    done: set[int] = set()
    for _ in range(n):
        cands = growable(rt, flock, done)
        if not cands or not token_available(rt, flock):
            return
        act = yield from ask_action(flock, "grow-kiwi", "Choose a Kiwi of yours to grow",
                                    [option(A.Grow(k.id, flock, k.size, h), ("Grow your size-{} Kiwi on {}", (k.size, h)))
                                     for h, k in cands])
        hex_id, kiwi = kiwi_of(rt, act)
        done.add(kiwi.id)
        yield from grow_one(rt, hex_id, kiwi, ctx, optional=True)   # decision R-RES-2, as in place_one


def remove(rt: Runtime, flock: str, n: int) -> Generator:
    """Remove n own Kiwi (any size, never the Leader) from the island to the Reserve (R-TRACK-2)."""
    for _ in range(n):
        cands = rt.state.own_kiwi(flock)
        if not cands:
            return
        act = yield from ask_action(flock, "remove-kiwi", "Remove one of your Kiwi from the island",
                                    [option(A.Remove(k.id, flock, k.size, h), ("Remove your size-{} Kiwi on {}", (k.size, h)))
                                     for h, k in cands])
        hex_id, kiwi = kiwi_of(rt, act)
        remove_from_hex(rt, hex_id, kiwi)
        rt.state.flocks[flock].reserve_kiwi += kiwi.size
        rt.emit("remove", flock, flock=flock, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)


def _place(rt: Runtime, call, ctx: Ctx) -> Generator:
    for _ in range(count(call)):
        yield from place_one(rt, ctx.flock, ctx)


TABLE.register("place-kiwi", _place)
TABLE.register("grow-kiwi", lambda rt, c, ctx: grow(rt, ctx.flock, count(c), ctx),
               lambda rt, c, ctx: bool(growable(rt, ctx.flock, set())))
TABLE.register("remove-kiwi", lambda rt, c, ctx: remove(rt, ctx.flock, count(c)),
               lambda rt, c, ctx: bool(rt.state.own_kiwi(ctx.flock)))
