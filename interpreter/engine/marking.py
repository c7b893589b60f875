"""Domain Marking (R-DM-1..5, R-END-1): unmarked hex, dominance, matching marker, covered by a token."""
from __future__ import annotations

from typing import Any

from kcd.core import dominance
from kcd.engine import effects
from kcd.engine.context import Ctx, Runtime
from kcd.core import action_types as A
from kcd.core.decisions import Option, option, shared_option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Do, Env, Label, Question, Return, While, program
from kcd.engine.placing import kiwi_of, token_available
from kcd.engine.verb_table import TABLE
from kcd.engine.view import reserves_revealed


def markable(rt: Runtime, flock: str, any_terrain: bool = False) -> list[str]:
    """Hexes the flock may mark now (R-DM-2, R-DM-4); a covering token must exist (R-DM-3). `any_terrain`: the hexes
    it could mark with a marker of any terrain, which is what everyone else knows of it (`asked`)."""
    st = rt.state
    fl = st.flocks[flock]
    if not fl.domain or not token_available(rt, flock):
        return []
    have = None if any_terrain else set(fl.domain)
    fast = dominance.compiled(st, "marking")
    if fast is not None:   # the native engine: the same hexes from the compiled kernel (kcd.core.native)
        kernels, by_size, leader, nest_values = fast
        hexes: list[str] = kernels.mark_hexes(st.hexes, flock, fl.leader_hex, have, dominance.leaders_by_hex(st),
                                              by_size, leader, nest_values)
        return hexes
    mine = st.presence(flock)
    # R-DM-2 asks for dominance only: an own Nest that counts (a Control Nest, R-BUILD-5) can give it with
    # no own Kiwi in the hex, so those hexes are candidates too (presence is only a cheap pre-filter)
    return [h.id for h in st.hexes.values()
            if h.domain is None and (have is None or h.terrain in have)
            and (h.id in mine or (h.nest is not None and h.nest[0] == flock))
            and dominance.dominant(st, h.id, "marking") == flock]


def asked(rt: Runtime, flock: str, where: list[str], hidden: bool) -> bool:
    """Whether the flock is asked to mark, `where` being the hexes it may mark (`markable`). While the reserves are
    `hidden` (before R-END-1) everyone sees how many markers a flock holds but not their terrains (R-SETUP-4), so a
    flock with a marker, a covering token and a hex it dominates is asked (with a pass option when none of its
    markers fits), whatever it holds; the terrains decide only the options, which no one else sees."""
    return bool(where) or hidden and bool(markable(rt, flock, any_terrain=True))


# --- one marker (or a pass when optional): returns the hex marked (False when none was placed) ----------------
def _ask_mark(rt: Runtime, env: Env) -> Question | None:
    """Where to mark (None: the flock is not asked)."""
    flock = env["ctx"].flock
    hexes = rt.state.hexes
    hidden = not reserves_revealed(rt)
    where = markable(rt, flock)
    if not asked(rt, flock, where, hidden):
        return None
    opts: list[Option[A.Action]] = [shared_option(A.Mark, (h,), ("Mark {} ({})", (h, hexes[h].terrain))) for h in where]
    optional = env["optional"]
    if optional or not where:
        # a marker that must be placed but fits no hex (one the others could not tell from one that fits)
        opts.append(option(A.word("pass"), "Place no marker" if optional else "No marker fits: place none"))
    return Question(flock, "mark", "Place a domain marker?", opts, hidden)


def _cover_marked(rt: Runtime, env: Env) -> Cont | None:
    """Cover the chosen hex's marker (None: the flock passed)."""
    answer = env.pop("answer")
    if answer.kind == "pass":
        env["marked"] = False
        return None
    env["marked"] = answer.hex
    return COVER.start(env["ctx"].flock, answer.hex)


def _marked(rt: Runtime, env: Env) -> str | bool:
    marked: str | bool = env["marked"]
    return marked


def _none_marked(rt: Runtime, env: Env) -> bool:
    return False


MARK = program(
    "marking.mark", ("ctx", "optional"), {"ctx": Ctx, "optional": bool, "answer": A.Action, "marked": (str, bool)},
    Ask("mark", _ask_mark, into="answer", kinds={"mark": ("mark", "pass")}, otherwise="not asked"),
    Call("cover", _cover_marked),
    Return(_marked),
    Label("not asked"),
    Return(_none_marked))


# --- the marker put down and covered with a token from track, Reserve or island, as chosen (R-DM-3) ------------
def _ask_cover(rt: Runtime, env: Env) -> Question:
    st = rt.state
    flock = env["flock"]
    fl = st.flocks[flock]
    opts: list[Option[A.Action]] = []
    if fl.reserve_kiwi > 0:
        opts.append(option(A.CoverFrom("reserve"), "Cover with a token from your Reserve"))
    if fl.track > 0:
        opts.append(option(A.CoverFrom("track"), "Cover with a token from your Kiwi track (no track benefit)"))
    for h, k in st.own_kiwi(flock):
        opts.append(shared_option(A.Cover, (k.id, flock, k.size, h), ("Cover with a token from your size-{} Kiwi on {}", (k.size, h))))
    return Question(flock, "cover", ("Take a token to cover the marker on {}", (env["hex"],)), opts)


def _cover(rt: Runtime, env: Env) -> None:
    """Take the chosen token and place the marker."""
    st = rt.state
    flock = env["flock"]
    fl = st.flocks[flock]
    act = env.pop("token")
    if isinstance(act, A.CoverFrom) and act.source == "reserve":
        fl.reserve_kiwi -= 1
    elif isinstance(act, A.CoverFrom):
        fl.track -= 1          # R-DM-3: a token from the track grants no benefit
    else:
        h, kiwi = kiwi_of(rt, act)
        st.resize_kiwi(h, kiwi.id, -1)   # a size-0 Kiwi leaves the hex
    hex_id = env["hex"]
    terrain = st.hexes[hex_id].terrain
    fl.domain.remove(terrain)
    fl.covers += 1
    st.set_domain(hex_id, (flock, terrain))
    rt.emit("mark", flock, flock=flock, hex=hex_id, terrain=terrain)


def _check_cover(rt: Runtime, env: Env, at: str) -> None:
    """A loaded cover is on an unmarked hex whose terrain marker the flock holds."""
    h = rt.state.hexes.get(env["hex"])
    if h is None or h.domain is not None or h.terrain not in rt.state.flocks[env["flock"]].domain:
        raise FrameDataError("marking.cover: a hex the flock cannot mark")


COVER = program(
    "marking.cover", ("flock", "hex"), {"flock": str, "hex": str, "token": (A.CoverFrom, A.Cover)},
    Ask("token", _ask_cover, into="token", kinds={"cover": ("cover", "cover-from")}),
    Do(_cover),
    check=_check_cover)


# --- a flock's Domain Marking: one marker in seasons 1-3, as many as possible in the last (R-DM-1, R-END-1) ----
# Decision R-DM-1/R-END-1: every marker is optional ("may place"), even in the last season.
def _may_mark(rt: Runtime, env: Env) -> bool:
    """Another marker while the last one was placed and the season allows more."""
    count = env["count"]
    return env.get("marked", True) is not False and (count is None or env["placed"] < count)


def _mark_one(rt: Runtime, env: Env) -> Cont:
    return MARK.start(env["ctx"], True)


def _count_mark(rt: Runtime, env: Env) -> None:
    marked = env["marked"]
    if marked:
        env["placed"] += 1
        env["ctx"] = env["ctx"].sub(here=marked)   # `this hex` of the power: the last hex marked


def _marking_powers(rt: Runtime, env: Env) -> Any:
    """Decision R-ASYM-2: the power places a *second* marker, so it fires only after the flock placed one; a flock
    that places none does not fire `domain marking` (any power on it), and `this hex` is the last hex marked."""
    return effects.emit_call(rt, env["ctx"], "t-domain-marking") if env["placed"] else None


MARKING_TURN = program(
    "marking.turn", ("ctx", "count", "placed"),
    {"ctx": Ctx, "count": (int, type(None)), "placed": int, "marked": (str, bool)},
    While(_may_mark, (Call("mark", _mark_one, into="marked"), Do(_count_mark))),
    Call("powers", _marking_powers))


def marking_turn_frame(rt: Runtime, flock: str) -> Cont:
    """The continuation of a flock's Domain Marking (R-DM-1, R-END-1)."""
    per = rt.rules.marking_per_season
    idx = min(rt.state.season, len(per)) - 1
    return MARKING_TURN.start(Ctx(flock, source="domain marking"), per[idx] if per else 1, 0)


TABLE.register("mark-domain", lambda rt, c, ctx: MARK.start(ctx, False),
               lambda rt, c, ctx: asked(rt, ctx.flock, markable(rt, ctx.flock), not reserves_revealed(rt)))
