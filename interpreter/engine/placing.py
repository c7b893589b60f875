"""Kiwi tokens: taking one (track, then Reserve, then island, R-RES-2), placing (R-RES-3), growing,
removing, and the Kiwi track benefits (R-TRACK-1/2)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, cast

from kcd.engine import effects
from kcd.engine.context import Ctx, EngineError, Runtime, Turn
from kcd.engine import action_types as A
from kcd.engine.decisions import Option, Steps, option, shared_option
from kcd.engine.frames import (Ask, Call, Done, Frame, FrameDataError, Return, Signal, drive, register_frame,
                                       RETURN)
from kcd.engine.state import Kiwi
from kcd.engine.verb_table import TABLE, count


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
    """Take a Kiwi (by its piece id) off its hex."""
    rt.state.remove_kiwi(hex_id, kiwi.id)


def token_available(rt: Runtime, flock: str, exclude: int | None = None) -> bool:
    """True when the flock can take a token from somewhere (R-RES-2)."""
    fl = rt.state.flocks[flock]
    if fl.track > 0 or fl.reserve_kiwi > 0:
        return True
    return any(k.flock == flock and k.id != exclude for h in rt.state.hexes.values() for k in h.kiwi)


def kiwi_by_id(rt: Runtime, hex_id: str, kiwi_id: int) -> tuple[str, Kiwi]:
    """(hex, Kiwi) of the Kiwi stack with this piece id: on `hex_id`, else anywhere on the island (EngineError
    when gone)."""
    for k in rt.state.hexes[hex_id].kiwi:
        if k.id == kiwi_id:
            return hex_id, k
    for h in rt.state.hexes.values():
        for k in h.kiwi:
            if k.id == kiwi_id:
                return h.id, k
    raise EngineError(f"no Kiwi {kiwi_id} on the island")


@register_frame("placing.take_island")
@dataclass(eq=False)
class TakeIslandFrame(Frame):
    """The player picks one of their face-up island tokens; the Kiwi is downsized or removed (R-RES-2).

    Returns False when the player, allowed to (`optional`), takes none.
    """

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"take-token": ("take-token", "take-none")}}
    flock: str
    exclude: int | None
    why: str
    optional: bool = False
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask; 1: take the token chosen (or none)."""
        flock = self.flock
        if self.pc == 0:
            opts: list[Option[A.Action]] = [shared_option(A.TakeToken, (k.id, flock, k.size, h),
                           ("Take a token from your size-{} Kiwi on {}", (k.size, h)))
                    for h, k in rt.state.own_kiwi(flock) if k.id != self.exclude]
            if self.optional:
                opts.append(option(A.TakeNoToken(), "Take no token (the Kiwi is not placed)"))
            self.pc = 1
            return Ask(flock, "take-token", cast(str, ("No token on your track or in your Reserve: take one for {}",
                                                       (self.why,))), opts)
        if not isinstance(value, A.TakeToken):
            rt.emit("no-token", flock, flock=flock)
            return Return(False)
        hex_id, kiwi = kiwi_of(rt, value)
        rt.state.resize_kiwi(hex_id, kiwi.id, -1)   # a size-0 Kiwi leaves the hex
        rt.emit("token", flock, flock=flock, hex=hex_id, kiwi=kiwi.id)
        return Return(True)


def take_from_island(rt: Runtime, flock: str, exclude: int | None, why: str, optional: bool = False) -> Steps[Any]:
    """The player picks one of their face-up island tokens (TakeIslandFrame); False when they take none."""
    return (yield from drive(rt, TakeIslandFrame(flock, exclude, why, optional)))


_ISLAND = "island"   # `token_now`: the token must come from the island (the player is asked)


def token_now(rt: Runtime, flock: str, exclude: int | None) -> tuple | str | None:
    """The next token when no one is asked: the mode's taker (Kiwibot), the track (("track", slot)), the Reserve
    (("reserve", 0)); None when there is none at all; `_ISLAND` when it must be taken from the island."""
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
    return _ISLAND if token_available(rt, flock, exclude) else None


@register_frame("placing.take_token")
@dataclass(eq=False)
class TakeTokenFrame(Frame):
    """Take the next token: track (returns the uncovered slot), else Reserve, else island. None if none.

    The token is held in `Flock.supply` until the caller puts it down, so every component stays
    accounted for while the player decides where it goes. `optional`: the island token may be refused.
    """

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    flock: str
    why: str
    exclude: int | None = None
    optional: bool = False
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the track, the Reserve, or ask for an island token; 1: the island token was taken (or not)."""
        flock = self.flock
        if self.pc == 1:
            if not value:
                return Return(None)
            rt.state.flocks[flock].supply += 1
            return Return(("island", 0))
        source = token_now(rt, flock, self.exclude)
        if source != _ISLAND:
            return Return(source)
        self.pc = 1
        return Call(TakeIslandFrame(flock, self.exclude, self.why, self.optional))


def take_token(rt: Runtime, flock: str, why: str, exclude: int | None = None, optional: bool = False) -> Steps[Any]:
    """Take the next token: track (returns the uncovered slot), else Reserve, else island. None if none
    (TakeTokenFrame)."""
    return (yield from drive(rt, TakeTokenFrame(flock, why, exclude, optional)))


def track_benefit_frame(rt: Runtime, flock: str, source: tuple | None, ctx: Ctx) -> Frame | None:
    """Benefit of a just-uncovered track slot, from slot `benefits_from_slot` on, never in Season Change (R-TRACK-1):
    the frame that runs it (logged now), or None when there is none."""
    if not source or source[0] != "track":
        return None
    slot = source[1]
    if slot < rt.rules.track_from or rt.state.phase == "season_change":
        return None
    fl = rt.state.flocks[flock]
    side = rt.rules.flocks.get(flock, {}).get(fl.side)
    benefit = side.track.get(slot) if side else None
    if benefit is None:
        return None
    rt.emit("track", flock, flock=flock, slot=slot)
    return effects.run_frame(rt, benefit, Ctx(flock, turn=ctx.turn if ctx.flock == flock else Turn(),
                                         suppressed=ctx.suppressed, depth=ctx.depth + 1, source=f"track slot {slot}"))


def track_benefit(rt: Runtime, flock: str, source: tuple | None, ctx: Ctx) -> Steps[Any]:
    """Benefit of a just-uncovered track slot, from slot `benefits_from_slot` on, never in Season Change (R-TRACK-1)."""
    return (yield from drive(rt, track_benefit_frame(rt, flock, source, ctx) or Done()))


def placeable_hexes(rt: Runtime, flock: str) -> list[str]:
    """Hexes where the flock already has Kiwi, its Leader included (R-RES-3)."""
    mine = rt.state.presence(flock)
    return [h for h in rt.state.hexes if h in mine]


@register_frame("placing.place_one")
@dataclass(eq=False)
class PlaceOneFrame(Frame):
    """Place one size-1 Kiwi (R-RES-2, R-RES-3), then any uncovered track benefit.

    Decision R-RES-2: with the track and Reserve empty the player "may" take an island token, so they may
    also decline (else a Kiwi would be forced to hop to another hex, or a growth undone, for nothing).
    """

    asks: ClassVar[frozenset[int] | None] = frozenset({2})   # the steps that wait for an answer
    ask_kinds = {2: {"place-kiwi": ("place",)}}
    flock: str
    ctx: Ctx
    source: tuple | None = None    # where the token came from (take_token)
    max_pc: ClassVar[int] = 3

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: take a token; 1: ask the hex; 2: place it and the track benefit; 3: done."""
        flock = self.flock
        if self.pc == 0:
            self.pc = 1
            value = token_now(rt, flock, None)   # the track or Reserve: no child frame needed
            if value == _ISLAND:
                return Call(TakeTokenFrame(flock, "a new Kiwi", None, True))
        if self.pc == 1:
            if value is None:
                if not token_available(rt, flock):   # else the player declined an island token (logged)
                    rt.emit("no-kiwi", flock, flock=flock)
                return RETURN
            self.source = value
            self.pc = 2
            return Ask(flock, "place-kiwi", "Place a size-1 Kiwi on a hex where you have Kiwi",
                       [shared_option(A.Place, (h,), ("Place on {}", (h,))) for h in placeable_hexes(rt, flock)])
        if self.pc == 2:
            hex_id = value.hex
            rt.state.flocks[flock].supply -= 1
            new = rt.state.place_new_kiwi(hex_id, flock, 1)
            rt.emit("place", flock, flock=flock, hex=hex_id, kiwi=new.id)
            self.pc = 3
            benefit = track_benefit_frame(rt, flock, self.source, self.ctx)
            return RETURN if benefit is None else Call(benefit)
        return RETURN


def place_one(rt: Runtime, flock: str, ctx: Ctx) -> Steps[Any]:
    """Place one size-1 Kiwi (R-RES-2, R-RES-3), then any uncovered track benefit (PlaceOneFrame)."""
    return (yield from drive(rt, PlaceOneFrame(flock, ctx)))


def growable(rt: Runtime, flock: str, skip: set[int]) -> list[tuple[str, Kiwi]]:
    """Own Kiwi that can grow by one (not at the size limit; Leaders are not Kiwi tokens)."""
    return [(h, k) for h, k in rt.state.own_kiwi(flock) if k.size < rt.rules.max_size and k.id not in skip]


@register_frame("placing.grow_one")
@dataclass(eq=False)
class GrowOneFrame(Frame):
    """Stack one token on a Kiwi (R-FEED-3): track, else Reserve, else island; then the track benefit.

    Decision R-TRACK-1: growing takes the next token like any other, so it uncovers track slots too.
    `optional`: an island token may be refused (own growth effects, R-RES-2); a fed Kiwi's owner must stack
    (R-FEED-3). The Kiwi is held by piece id (`kiwi`, its owner `owner`), found on `hex` when needed.
    """

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    hex: str
    kiwi: int
    owner: str
    ctx: Ctx
    why: str = "growing"
    optional: bool = False
    max_pc: ClassVar[int] = 2

    @classmethod
    def of(cls, hex_id: str, kiwi: Kiwi, ctx: Ctx, why: str = "growing", optional: bool = False) -> "GrowOneFrame":
        """The frame growing this Kiwi."""
        return cls(hex_id, kiwi.id, kiwi.flock, ctx, why, optional)

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: take a token; 1: stack it and the track benefit; 2: done."""
        owner = self.owner
        if self.pc == 0:
            self.pc = 1
            value = token_now(rt, owner, self.kiwi)   # the track or Reserve: no child frame needed
            if value == _ISLAND:
                return Call(TakeTokenFrame(owner, self.why, self.kiwi, self.optional))
        elif self.pc == 2:
            return RETURN
        where, kiwi = kiwi_by_id(rt, self.hex, self.kiwi)
        if value is None:
            if not token_available(rt, owner, exclude=kiwi.id):   # else the player declined (logged)
                rt.emit("no-growth", owner, flock=owner, hex=self.hex, size=kiwi.size, kiwi=kiwi.id)
            return RETURN
        rt.state.flocks[owner].supply -= 1
        kiwi = rt.state.resize_kiwi(where, kiwi.id, 1)
        rt.emit("grow", owner, flock=owner, hex=self.hex, size=kiwi.size, kiwi=kiwi.id)
        self.pc = 2
        benefit = track_benefit_frame(rt, owner, value, self.ctx)
        return RETURN if benefit is None else Call(benefit)

    def check(self, rt: Runtime) -> None:
        """A loaded growth names hexes of the island and a Kiwi on the island."""
        hexes = rt.state.hexes
        if self.hex not in hexes or all(k.id != self.kiwi for h in hexes.values() for k in h.kiwi):
            raise FrameDataError("placing.grow_one: not a hex of the island or the Kiwi is not on the island")


def grow_one(rt: Runtime, hex_id: str, kiwi: Kiwi, ctx: Ctx, why: str = "growing",
             optional: bool = False) -> Steps[Any]:
    """Stack one token on a Kiwi (R-FEED-3), then the track benefit (GrowOneFrame)."""
    return (yield from drive(rt, GrowOneFrame.of(hex_id, kiwi, ctx, why, optional)))


@register_frame("placing.grow")
@dataclass(eq=False)
class GrowFrame(Frame):
    """Increase by one the size of n different own Kiwi (as many as possible)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"grow-kiwi": ("grow",)}}
    flock: str
    n: int
    ctx: Ctx
    done: set = field(default_factory=set)   # piece ids already grown
    max_pc: ClassVar[int] = 2

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the next Kiwi; 1: grow it; 2: grown: the next one."""
        flock = self.flock
        if self.pc == 1:
            hex_id, kiwi = kiwi_of(rt, value)
            self.done.add(kiwi.id)
            self.pc = 2
            return Call(GrowOneFrame.of(hex_id, kiwi, self.ctx, optional=True))   # decision R-RES-2, as in place_one
        if self.n <= 0:
            return RETURN
        self.n -= 1
        cands = growable(rt, flock, self.done)
        if not cands or not token_available(rt, flock):
            return RETURN
        self.pc = 1
        return Ask(flock, "grow-kiwi", "Choose a Kiwi of yours to grow",
                   [shared_option(A.Grow, (k.id, flock, k.size, h), ("Grow your size-{} Kiwi on {}", (k.size, h)))
                    for h, k in cands])


def grow(rt: Runtime, flock: str, n: int, ctx: Ctx) -> Steps[Any]:
    """Increase by one the size of n different own Kiwi (as many as possible; GrowFrame)."""
    return (yield from drive(rt, GrowFrame(flock, n, ctx)))


@register_frame("placing.remove")
@dataclass(eq=False)
class RemoveFrame(Frame):
    """Remove n own Kiwi (any size, never the Leader) from the island to the Reserve (R-TRACK-2)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"remove-kiwi": ("remove",)}}
    flock: str
    n: int
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: ask the next Kiwi; 1: remove it."""
        flock = self.flock
        if self.pc == 1:
            hex_id, kiwi = kiwi_of(rt, value)
            remove_from_hex(rt, hex_id, kiwi)
            rt.state.flocks[flock].reserve_kiwi += kiwi.size
            rt.emit("remove", flock, flock=flock, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)
        if self.n <= 0:
            return RETURN
        self.n -= 1
        cands = rt.state.own_kiwi(flock)
        if not cands:
            return RETURN
        self.pc = 1
        return Ask(flock, "remove-kiwi", "Remove one of your Kiwi from the island",
                   [option(A.Remove(k.id, flock, k.size, h), ("Remove your size-{} Kiwi on {}", (k.size, h)))
                    for h, k in cands])


def remove(rt: Runtime, flock: str, n: int) -> Steps[Any]:
    """Remove n own Kiwi (any size, never the Leader) from the island to the Reserve (RemoveFrame)."""
    return (yield from drive(rt, RemoveFrame(flock, n)))


@register_frame("placing.place")
@dataclass(eq=False)
class PlaceFrame(Frame):
    """The `place N kiwi` verb: N Kiwi placed one after another."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    ctx: Ctx
    n: int

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """One PlaceOneFrame per Kiwi."""
        if self.n <= 0:
            return RETURN
        self.n -= 1
        return Call(PlaceOneFrame(self.ctx.flock, self.ctx))


def verb_procedure(frame: Callable[[Runtime, Any, Ctx], Frame]) -> Callable[[Runtime, Any, Ctx], Steps[Any]]:
    """The generator form of a verb's frame (the verb table's procedure, for callers that `yield from` it)."""
    def procedure(rt: Runtime, call: Any, ctx: Ctx) -> Steps[Any]:
        return (yield from drive(rt, frame(rt, call, ctx)))
    return procedure


def place_frame(ctx: Ctx, n: int) -> Frame:
    """The frame placing n Kiwi (one Kiwi: its PlaceOneFrame itself)."""
    return PlaceOneFrame(ctx.flock, ctx) if n == 1 else PlaceFrame(ctx, n)


def _place_frame(rt: Runtime, c: Any, ctx: Ctx) -> Frame:
    return place_frame(ctx, count(c))


def _grow_frame(rt: Runtime, c: Any, ctx: Ctx) -> Frame:
    return GrowFrame(ctx.flock, count(c), ctx)


def _remove_frame(rt: Runtime, c: Any, ctx: Ctx) -> Frame:
    return RemoveFrame(ctx.flock, count(c))


TABLE.register("place-kiwi", verb_procedure(_place_frame), frame=_place_frame)
TABLE.register("grow-kiwi", verb_procedure(_grow_frame), lambda rt, c, ctx: bool(growable(rt, ctx.flock, set())),
               frame=_grow_frame)
TABLE.register("remove-kiwi", verb_procedure(_remove_frame), lambda rt, c, ctx: bool(rt.state.own_kiwi(ctx.flock)),
               frame=_remove_frame)
