"""Kiwibot's Domain Marking (R-SOLO-11 Marking Domain; R-DM-1..4 counts and covers)."""
from __future__ import annotations

from typing import Any

from kcd.core import dominance
from kcd.engine import effects, placing
from kcd.engine.context import Ctx, Runtime
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Call, Do, Env, If, program
from kcd.modes.solo.marker import marker_order
from kcd.modes.solo.patterns import cover
from kcd.modes.solo.state import is_bot, pattern_steps


def _markable(rt: Runtime, bot: str) -> list[str]:
    """Unmarked hexes Kiwibot dominates, in marker order, while it has a token to cover a marker (R-DM-2/3)."""
    if not placing.token_available(rt, bot):
        return []
    st = rt.state
    return [h for h in marker_order(st) if st.hexes[h].domain is None and dominance.dominant(st, h, "marking") == bot]


def mark_now(rt: Runtime, ctx: Ctx) -> tuple[bool, bool]:
    """One Kiwibot marker: reveal markers until one fits a hex it dominates (R-SOLO-11); it asks nothing.
    Returns (placed, had_a_hex)."""
    st = rt.state
    bot = ctx.flock
    fl = st.flocks[bot]
    hexes = _markable(rt, bot)
    if not hexes:
        return False, False
    terrains = {st.hexes[h].terrain for h in hexes}
    # the face-down reserve is revealed one marker at a time in a random order: a shuffled copy
    revealed = list(fl.domain)
    st.shuffle(revealed)
    fit = next((t for t in revealed if t in terrains), None)
    if fit is None:
        rt.emit("kiwibot-no-marker", bot, flock=bot)
        return False, True
    hex_id = next(h for h in hexes if st.hexes[h].terrain == fit)
    if not cover(rt, bot, hex_id):
        return False, True
    fl.domain.remove(fit)
    fl.covers += 1
    st.set_domain(hex_id, (bot, fit))
    rt.emit("mark", bot, flock=bot, hex=hex_id, terrain=fit)
    return True, True


def _mark_all(rt: Runtime, env: Env) -> None:
    """Every marker the season allows (none asks anything)."""
    per = rt.rules.marking_per_season
    count = per[min(rt.state.season, len(per)) - 1] if per else 1
    ctx = Ctx(env["bot"], source="domain marking")
    placed, had_hex = 0, False
    while count is None or placed < count:
        done, hexes = mark_now(rt, ctx)
        had_hex = had_hex or hexes
        if not done:
            break
        placed += 1
    env["placed"], env["had_hex"] = placed, had_hex


def _none_fitted(rt: Runtime, env: Env) -> bool:
    """It dominated a hex but no marker fitted (and its pattern gains one then)."""
    return not env["placed"] and env["had_hex"] and "gain-if-none-fits" in pattern_steps(rt, "marking-domain")


def _marker_instead(rt: Runtime, env: Env) -> Any:
    bot = env["bot"]
    rt.emit("kiwibot-marker-instead", bot, flock=bot)
    return effects._gain_domain(rt, Ctx(bot, source="domain marking"), 1)


def _marking_powers(rt: Runtime, env: Env) -> Any:
    """The powers that listen to Domain Marking, when it placed a marker (None: it placed none)."""
    return effects.EMIT.start(Ctx(env["bot"], source="domain marking"), "t-domain-marking") if env["placed"] else None


def _check_marking_turn(rt: Runtime, env: Env, at: str) -> None:
    """A loaded Kiwibot marking is Kiwibot's."""
    if not is_bot(rt.state, env["bot"]):
        raise FrameDataError("solo.marking_turn: not Kiwibot's marking")


# Kiwibot's Domain Marking (R-SOLO-11; R-DM-1 counts): as many as the season allows; if it dominated a hex but no
# marker fitted, it gains one marker instead.
# Decision R-SOLO-11: revealed markers that do not fit go back face down in seasons 1-3 (the state never shows
# them); in the last season every reserve is revealed anyway (R-END-1), so nothing differs there. "Doesn't have a
# marker of the proper type" needs a hex it dominates: with none, no marker is gained.
MARKING_TURN = program(
    "solo.marking_turn", ("bot",), {"bot": str, "placed": int, "had_hex": bool},
    Do(_mark_all),
    If(_none_fitted, (Call("instead", _marker_instead),), (Call("powers", _marking_powers),)),
    check=_check_marking_turn)
