"""Domain Marking (R-DM-1..5, R-END-1): unmarked hex, dominance, matching marker, covered by a token."""
from __future__ import annotations

from interpreter.engine import dominance, effects
from interpreter.engine.context import Ctx, Runtime
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Option, Steps, ask_action, option
from interpreter.engine.placing import kiwi_of, remove_from_hex, token_available
from interpreter.engine.verb_table import TABLE


def markable(rt: Runtime, flock: str) -> list[str]:
    """Hexes the flock may mark now (R-DM-2, R-DM-4); a covering token must exist (R-DM-3)."""
    st = rt.state
    fl = st.flocks[flock]
    if not fl.domain or not token_available(rt, flock):
        return []
    have = set(fl.domain)
    mine = st.presence(flock)
    # R-DM-2 asks for dominance only: an own Nest that counts (a Control Nest, R-BUILD-5) can give it with
    # no own Kiwi in the hex, so those hexes are candidates too (presence is only a cheap pre-filter)
    return [h.id for h in st.hexes.values()
            if h.domain is None and h.terrain in have
            and (h.id in mine or (h.nest is not None and h.nest[0] == flock))
            and dominance.dominant(st, h.id, "marking") == flock]


def mark(rt: Runtime, ctx: Ctx, optional: bool) -> Steps[bool]:
    """Place one marker (or pass when optional). Returns True when a marker was placed."""
    flock = ctx.flock
    where = markable(rt, flock)
    if not where:
        return False
    opts: list[Option[A.Action]] = [option(A.Mark(h), f"Mark {h} ({rt.state.hexes[h].terrain})") for h in where]
    if optional:
        opts.append(option(A.word("pass"), "Place no marker"))
    act = yield from ask_action(flock, "mark", "Place a domain marker?", opts)
    if not isinstance(act, A.Mark):   # `pass`
        return False
    yield from cover(rt, flock, act.hex)
    return True


def cover(rt: Runtime, flock: str, hex_id: str) -> Steps[None]:
    """Put the marker down and cover it with a token from track, Reserve or island, as chosen (R-DM-3)."""
    st = rt.state
    fl = st.flocks[flock]
    opts: list[Option[A.Action]] = []
    if fl.reserve_kiwi > 0:
        opts.append(option(A.CoverFrom("reserve"), "Cover with a token from your Reserve"))
    if fl.track > 0:
        opts.append(option(A.CoverFrom("track"), "Cover with a token from your Kiwi track (no track benefit)"))
    for h, k in st.own_kiwi(flock):
        opts.append(option(A.Cover(k.id, flock, k.size, h), f"Cover with a token from your size-{k.size} Kiwi on {h}"))
    act = yield from ask_action(flock, "cover", f"Take a token to cover the marker on {hex_id}", opts)
    if isinstance(act, A.CoverFrom) and act.source == "reserve":
        fl.reserve_kiwi -= 1
    elif isinstance(act, A.CoverFrom):
        fl.track -= 1          # R-DM-3: a token from the track grants no benefit
    else:
        h, kiwi = kiwi_of(rt, act)
        kiwi.size -= 1
        if kiwi.size == 0:
            remove_from_hex(rt, h, kiwi)
    terrain = st.hexes[hex_id].terrain
    fl.domain.remove(terrain)
    fl.covers += 1
    st.hexes[hex_id].domain = (flock, terrain)
    rt.emit("mark", flock, flock=flock, hex=hex_id, terrain=terrain)


def marking_turn(rt: Runtime, flock: str) -> Steps[None]:
    """A flock's Domain Marking: one marker in seasons 1-3, as many as possible in the last (R-DM-1, R-END-1).

    Decision R-DM-1/R-END-1: every marker is optional ("may place"), even in the last season.
    """
    per = rt.rules.marking_per_season
    idx = min(rt.state.season, len(per)) - 1
    count = per[idx] if per else 1
    ctx = Ctx(flock, source="domain marking")
    placed = 0
    while count is None or placed < count:
        done = yield from mark(rt, ctx, optional=True)
        if not done:
            break
        placed += 1
    # Decision R-ASYM-2: the power places a *second* marker, so it fires only after the flock placed one
    if placed:
        yield from effects.emit(rt, ctx, "t-domain-marking")


TABLE.register("mark-domain", lambda rt, c, ctx: mark(rt, ctx, optional=False),
               lambda rt, c, ctx: bool(markable(rt, ctx.flock)))
