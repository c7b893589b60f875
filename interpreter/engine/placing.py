"""Kiwi tokens: taking one (track, then Reserve, then island, R-RES-2), placing (R-RES-3), growing,
removing, and the Kiwi track benefits (R-TRACK-1/2)."""
from __future__ import annotations

from typing import Any, cast

from kcd.engine import effects
from kcd.engine.context import Ctx, EngineError, Runtime, Turn
from kcd.core import action_types as A
from kcd.core.decisions import Option, option, shared_option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Cont as Entry
from kcd.engine.machine import Ask, Call, Cont, Do, Env, If, Jump, Label, Question, Return, While, program
from kcd.core.state import Kiwi
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


# --- the player picks one of their face-up island tokens; the Kiwi is downsized or removed (R-RES-2). Returns
# False when the player, allowed to (`optional`), takes none -----------------------------------------------------
def _ask_island_token(rt: Runtime, env: Env) -> Question:
    flock, exclude = env["flock"], env["exclude"]
    opts: list[Option[A.Action]] = [shared_option(A.TakeToken, (k.id, flock, k.size, h),
                                                  ("Take a token from your size-{} Kiwi on {}", (k.size, h)))
                                    for h, k in rt.state.own_kiwi(flock) if k.id != exclude]
    if env["optional"]:
        opts.append(option(A.TakeNoToken(), "Take no token (the Kiwi is not placed)"))
    return Question(flock, "take-token", cast(str, ("No token on your track or in your Reserve: take one for {}",
                                                     (env["why"],))), opts)


def _take_island_token(rt: Runtime, env: Env) -> None:
    """Take the token chosen off its Kiwi (a size-0 Kiwi leaves the hex), or none."""
    flock = env["flock"]
    chosen = env.pop("token")
    env["took"] = took = isinstance(chosen, A.TakeToken)
    if not took:
        rt.emit("no-token", flock, flock=flock)
        return
    hex_id, kiwi = kiwi_of(rt, chosen)
    rt.state.resize_kiwi(hex_id, kiwi.id, -1)
    rt.emit("token", flock, flock=flock, hex=hex_id, kiwi=kiwi.id)


def _took(rt: Runtime, env: Env) -> bool:
    took: bool = env["took"]
    return took


TAKE_ISLAND = program(
    "placing.take_island", ("flock", "exclude", "why", "optional"),
    {"flock": str, "exclude": (int, type(None)), "why": str, "optional": bool, "token": A.Action, "took": bool},
    Ask("token", _ask_island_token, into="token", kinds={"take-token": ("take-token", "take-none")}),
    Do(_take_island_token),
    Return(_took))


_ISLAND = "island"   # `token_now`: the token must come from the island (the player is asked)


def token_now(rt: Runtime, flock: str, exclude: int | None) -> tuple[str, int] | str | None:
    """The next token when no one is asked: the mode's taker (Kiwibot), the track (("track", slot)), the Reserve
    (("reserve", 0)); None when there is none at all; `_ISLAND` when it must be taken from the island."""
    fl = rt.state.flocks[flock]
    taker = rt.mode.token_taker(rt.state, flock)
    if taker is not None:   # the mode takes this flock's tokens without asking (R-SOLO-11: Kiwibot's pattern)
        taken: tuple[str, int] | None = taker(rt, flock, exclude)   # the mode's procedures are untyped (Any)
        return taken
    if fl.track > 0:
        fl.track -= 1
        fl.supply += 1
        return ("track", rt.rules.track_tokens - fl.track)
    if fl.reserve_kiwi > 0:
        fl.reserve_kiwi -= 1
        fl.supply += 1
        return ("reserve", 0)
    return _ISLAND if token_available(rt, flock, exclude) else None


# --- taking the next token: track (returns the uncovered slot), else Reserve, else island; None if none. The
# token is held in `Flock.supply` until the caller puts it down, so every component stays accounted for while the
# player decides where it goes. `optional`: the island token may be refused -------------------------------------
def _token_from_island(rt: Runtime, env: Env) -> bool:
    """Take the next token if no one is asked (env["source"]: track, Reserve, or None); True when it must come from
    the island (the player is asked)."""
    env["source"] = source = token_now(rt, env["flock"], env["exclude"])
    return source == _ISLAND


def _take_from_island(rt: Runtime, env: Env) -> Cont:
    return TAKE_ISLAND.start(env["flock"], env["exclude"], env["why"], env["optional"])


def _island_source(rt: Runtime, env: Env) -> None:
    """The island token taken is in hand (None: the player took none)."""
    if env.pop("took"):
        rt.state.flocks[env["flock"]].supply += 1
        env["source"] = ("island", 0)
    else:
        env["source"] = None


def _source(rt: Runtime, env: Env) -> Any:
    return env["source"]


TAKE_TOKEN = program(
    "placing.take_token", ("flock", "why", "exclude", "optional"),
    {"flock": str, "why": str, "exclude": (int, type(None)), "optional": bool, "source": (tuple, str, type(None)),
     "took": bool},
    If(_token_from_island, (Call("island", _take_from_island, into="took"), Do(_island_source))),
    Return(_source))


def take_token_frame(flock: str, why: str, exclude: int | None = None, optional: bool = False) -> Cont:
    """The continuation taking the next token (the program placing.take_token): it returns where the token came
    from (("track", slot), ("reserve", 0), ("island", 0)), or None when there is none (or none was taken)."""
    return TAKE_TOKEN.start(flock, why, exclude, optional)


def track_benefit_frame(rt: Runtime, flock: str, source: tuple[str, int] | None, ctx: Ctx) -> Entry | None:
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
    frame: Entry | None = effects.run_frame(
        rt, benefit, Ctx(flock, turn=ctx.turn if ctx.flock == flock else Turn(), suppressed=ctx.suppressed,
                         depth=ctx.depth + 1, source=f"track slot {slot}"))
    return frame


def placeable_hexes(rt: Runtime, flock: str) -> list[str]:
    """Hexes where the flock already has Kiwi, its Leader included (R-RES-3)."""
    mine = rt.state.presence(flock)
    return [h for h in rt.state.hexes if h in mine]


# --- placing one size-1 Kiwi (R-RES-2, R-RES-3), then any uncovered track benefit. Decision R-RES-2: with the
# track and Reserve empty the player "may" take an island token, so they may also decline (else a Kiwi would be
# forced to hop to another hex, or a growth undone, for nothing) ------------------------------------------------
def _new_kiwi_token_from_island(rt: Runtime, env: Env) -> bool:
    """Take the track or Reserve token at once (env["source"]; None: none at all); True when it must come from the
    island (a child asks)."""
    env["source"] = source = token_now(rt, env["flock"], None)
    return source == _ISLAND


def _new_kiwi_from_island(rt: Runtime, env: Env) -> Cont:
    return TAKE_TOKEN.start(env["flock"], "a new Kiwi", None, True)


def _ask_place_hex(rt: Runtime, env: Env) -> Question | None:
    """The hex for the token in hand (None: no token)."""
    if env["source"] is None:
        return None
    flock = env["flock"]
    return Question(flock, "place-kiwi", "Place a size-1 Kiwi on a hex where you have Kiwi",
                    [shared_option(A.Place, (h,), ("Place on {}", (h,))) for h in placeable_hexes(rt, flock)])


def _place_new_kiwi(rt: Runtime, env: Env) -> Any:
    """Place the Kiwi on the hex chosen, then the benefit of the track slot its token uncovered (None: none).
    Without a token nothing is placed: logged when there is none at all (else the player declined an island
    token)."""
    flock = env["flock"]
    on = env.pop("on", None)
    if on is None:
        if not token_available(rt, flock):
            rt.emit("no-kiwi", flock, flock=flock)
        return None
    hex_id = on.hex
    rt.state.flocks[flock].supply -= 1
    new = rt.state.place_new_kiwi(hex_id, flock, 1)
    rt.emit("place", flock, flock=flock, hex=hex_id, kiwi=new.id)
    return track_benefit_frame(rt, flock, env["source"], env["ctx"])


PLACE_ONE = program(
    "placing.place_one", ("flock", "ctx"),
    {"flock": str, "ctx": Ctx, "source": (tuple, str, type(None)), "on": A.Place},
    If(_new_kiwi_token_from_island, (Call("token", _new_kiwi_from_island, into="source"),)),
    Ask("hex", _ask_place_hex, into="on", kinds={"place-kiwi": ("place",)}),
    Call("benefit", _place_new_kiwi))


def place_one_frame(flock: str, ctx: Ctx) -> Cont:
    """The continuation placing one size-1 Kiwi of `flock` (R-RES-2, R-RES-3), then its track benefit."""
    return PLACE_ONE.start(flock, ctx)


def growable(rt: Runtime, flock: str, skip: set[int]) -> list[tuple[str, Kiwi]]:
    """Own Kiwi that can grow by one (not at the size limit; Leaders are not Kiwi tokens)."""
    return [(h, k) for h, k in rt.state.own_kiwi(flock) if k.size < rt.rules.max_size and k.id not in skip]


# --- stacking one token on a Kiwi (R-FEED-3): track, else Reserve, else island; then the track benefit.
# Decision R-TRACK-1: growing takes the next token like any other, so it uncovers track slots too. `optional`: an
# island token may be refused (own growth effects, R-RES-2); a fed Kiwi's owner must stack (R-FEED-3). The Kiwi
# is held by piece id (`kiwi`, its owner `owner`), found on `hex` when needed ------------------------------------
def _growth_token_from_island(rt: Runtime, env: Env) -> bool:
    """Take the track or Reserve token at once (env["source"]; None: none at all); True when it must come from the
    island (a child asks)."""
    env["source"] = source = token_now(rt, env["owner"], env["kiwi"])
    return source == _ISLAND


def _growth_from_island(rt: Runtime, env: Env) -> Cont:
    return TAKE_TOKEN.start(env["owner"], env["why"], env["kiwi"], env["optional"])


def _grow_kiwi(rt: Runtime, env: Env) -> Any:
    """Stack the token in hand, then the benefit of the track slot it uncovered (None: none, or no token)."""
    owner, hex_id = env["owner"], env["hex"]
    where, kiwi = kiwi_by_id(rt, hex_id, env["kiwi"])
    source = env["source"]
    if source is None:
        if not token_available(rt, owner, exclude=kiwi.id):   # else the player declined (logged)
            rt.emit("no-growth", owner, flock=owner, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)
        return None
    rt.state.flocks[owner].supply -= 1
    kiwi = rt.state.resize_kiwi(where, kiwi.id, 1)
    rt.emit("grow", owner, flock=owner, hex=hex_id, size=kiwi.size, kiwi=kiwi.id)
    return track_benefit_frame(rt, owner, source, env["ctx"])


def _check_grow_one(rt: Runtime, env: Env, at: str) -> None:
    """A loaded growth names hexes of the island and a Kiwi on the island."""
    hexes = rt.state.hexes
    if env["hex"] not in hexes or all(k.id != env["kiwi"] for h in hexes.values() for k in h.kiwi):
        raise FrameDataError("placing.grow_one: not a hex of the island or the Kiwi is not on the island")


GROW_ONE = program(
    "placing.grow_one", ("hex", "kiwi", "owner", "ctx", "why", "optional"),
    {"hex": str, "kiwi": int, "owner": str, "ctx": Ctx, "why": str, "optional": bool,
     "source": (tuple, str, type(None))},
    If(_growth_token_from_island, (Call("token", _growth_from_island, into="source"),)),
    Call("benefit", _grow_kiwi),
    check=_check_grow_one)


def grow_one_frame(hex_id: str, kiwi: Kiwi, ctx: Ctx, why: str = "growing", optional: bool = False) -> Cont:
    """The continuation stacking one token on `kiwi` (on `hex_id`; its owner stacks), then the track benefit."""
    # (the env built at once: the program has more parameters than `start` binds fastest)
    return Cont(GROW_ONE, {"hex": hex_id, "kiwi": kiwi.id, "owner": kiwi.flock, "ctx": ctx, "why": why,
                           "optional": optional})


# --- increasing by one the size of n different own Kiwi (as many as possible) -----------------------------------
def _ask_grow(rt: Runtime, env: Env) -> Question | None:
    """The next Kiwi to grow (None: n grown, or none can grow)."""
    n = env["n"]
    if n <= 0:
        return None
    env["n"] = n - 1
    flock = env["flock"]
    cands = growable(rt, flock, env.get("done") or set())
    if not cands or not token_available(rt, flock):
        return None
    return Question(flock, "grow-kiwi", "Choose a Kiwi of yours to grow",
                    [shared_option(A.Grow, (k.id, flock, k.size, h), ("Grow your size-{} Kiwi on {}", (k.size, h)))
                     for h, k in cands])


def _grow_chosen(rt: Runtime, env: Env) -> Cont:
    hex_id, kiwi = kiwi_of(rt, env.pop("grow"))
    env.setdefault("done", set()).add(kiwi.id)   # piece ids already grown
    return grow_one_frame(hex_id, kiwi, env["ctx"], optional=True)   # decision R-RES-2, as in place_one


GROW = program(
    "placing.grow", ("flock", "n", "ctx"), {"flock": str, "n": int, "ctx": Ctx, "done": set, "grow": A.Grow},
    Label("next"),
    Ask("kiwi", _ask_grow, into="grow", kinds={"grow-kiwi": ("grow",)}, otherwise="end"),
    Call("grown", _grow_chosen),
    Jump("next"),
    Label("end"))


# --- removing n own Kiwi (any size, never the Leader) from the island to the Reserve (R-TRACK-2) -------------------
def _ask_remove(rt: Runtime, env: Env) -> Question | None:
    """The next Kiwi to remove (None: n removed, or none is left)."""
    n = env["n"]
    if n <= 0:
        return None
    env["n"] = n - 1
    flock = env["flock"]
    cands = rt.state.own_kiwi(flock)
    if not cands:
        return None
    return Question(flock, "remove-kiwi", "Remove one of your Kiwi from the island",
                    [option(A.Remove(k.id, flock, k.size, h), ("Remove your size-{} Kiwi on {}", (k.size, h)))
                     for h, k in cands])


def _remove_chosen(rt: Runtime, env: Env) -> None:
    flock = env["flock"]
    hex_id, kiwi = kiwi_of(rt, env.pop("gone"))
    remove_from_hex(rt, hex_id, kiwi)
    rt.state.flocks[flock].reserve_kiwi += kiwi.size
    rt.emit("remove", flock, flock=flock, size=kiwi.size, hex=hex_id, kiwi=kiwi.id)


REMOVE = program(
    "placing.remove", ("flock", "n"), {"flock": str, "n": int, "gone": A.Remove},
    Label("next"),
    Ask("kiwi", _ask_remove, into="gone", kinds={"remove-kiwi": ("remove",)}, otherwise="end"),
    Do(_remove_chosen),
    Jump("next"),
    Label("end"))


# --- the `place N kiwi` verb: N Kiwi placed one after another -----------------------------------------------------
def _places_left(rt: Runtime, env: Env) -> bool:
    n: int = env["n"]
    return n > 0


def _place_next(rt: Runtime, env: Env) -> Cont:
    env["n"] -= 1
    ctx = env["ctx"]
    return PLACE_ONE.start(ctx.flock, ctx)


PLACE = program(
    "placing.place", ("ctx", "n"), {"ctx": Ctx, "n": int},
    While(_places_left, (Call("kiwi", _place_next),)))


def place_frame(ctx: Ctx, n: int) -> Cont:
    """The continuation placing n Kiwi (one Kiwi: placing.place_one itself)."""
    return PLACE_ONE.start(ctx.flock, ctx) if n == 1 else PLACE.start(ctx, n)


def _place_frame(rt: Runtime, c: Any, ctx: Ctx) -> Cont:
    return place_frame(ctx, count(c))


def _grow_frame(rt: Runtime, c: Any, ctx: Ctx) -> Cont:
    return GROW.start(ctx.flock, count(c), ctx)


def _remove_frame(rt: Runtime, c: Any, ctx: Ctx) -> Cont:
    return REMOVE.start(ctx.flock, count(c))


TABLE.register("place-kiwi", _place_frame)
TABLE.register("grow-kiwi", _grow_frame, lambda rt, c, ctx: bool(growable(rt, ctx.flock, set())))
TABLE.register("remove-kiwi", _remove_frame, lambda rt, c, ctx: bool(rt.state.own_kiwi(ctx.flock)))
