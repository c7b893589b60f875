"""The Build action (R-BUILD-1..6): a hex without Nest, >= min tokens and dominance; row order; cost; benefits."""
from __future__ import annotations

from typing import Any, Iterator

from kcd.dsl import ast
from kcd.core import action_types as A
from kcd.engine import compose, effects, labels, payment
from kcd.core import dominance
from kcd.engine.context import Ctx, Runtime
from kcd.core.decisions import option, shared_option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Emit, Env, ForEach, Label, Question, Return, program
from kcd.engine.modifiers import param
from kcd.engine.verb_table import TABLE


def hexes(rt: Runtime, flock: str) -> list[str]:
    """Hexes where the flock may build (R-BUILD-1; Leader counts 3 tokens there, R-LEAD-1)."""
    return list(_hexes(rt, flock))


def _hexes(rt: Runtime, flock: str) -> Iterator[str]:
    """`hexes`, one at a time: a hex without a Nest where the flock has at least `build_min_tokens` and dominates."""
    st = rt.state
    leader_hex = st.flocks[flock].leader_hex
    need = rt.rules.build_min_tokens
    fast = dominance.compiled(st, "build")
    if fast is not None:   # the native engine: the same hexes from the compiled kernel (kcd.core.native)
        kernels, by_size, leader, _ = fast
        yield from kernels.build_hexes(st.hexes, flock, leader_hex, need, dominance.leaders_by_hex(st), by_size,
                                       leader)
        return
    for h in st.hexes.values():
        if h.nest is not None:
            continue
        if h.id != leader_hex:
            # without its Leader here the flock counts at most its Kiwi's sizes (by size, or one per Kiwi), and
            # a hex without its Kiwi or Leader is never one (R-BUILD-1)
            own = 0
            for k in h.kiwi:
                if k.flock == flock:
                    own += k.size
            if own == 0 or own < need:
                continue
        counts = dominance.strengths(st, h.id, "build")
        if counts.get(flock, 0) >= need and dominance.leader_of(counts) == flock:
            yield h.id


def available_nests(rt: Runtime, flock: str) -> list[str]:
    """Unbuilt Nests whose row rule is met (R-BUILD-2) and whose cost the flock can pay."""
    fl = rt.state.flocks[flock]
    out = []
    for nest_id in rt.rules.flock_nests:
        if nest_id in fl.nests_built:
            continue
        nest = rt.rules.nests[nest_id]
        if not all(n in fl.nests_built for n in _lower_rows(rt, nest_id)):
            continue
        if payment.can_pay(fl, payment.cost_reqs(nest.cost), rt.rules.fruits):
            out.append(nest_id)
    return out


def _lower_rows(rt: Runtime, nest_id: str) -> list[str]:
    """The flock's Nests of the same type one row lower (R-BUILD-2), cached on the rules."""
    cache = rt.rules.lower_rows
    if nest_id not in cache:
        nest = rt.rules.nests[nest_id]
        cache[nest_id] = [n for n in rt.rules.flock_nests if rt.rules.nests[n].type == nest.type
                          and rt.rules.nests[n].row == nest.row - 1]
    return cache[nest_id]


def possible(rt: Runtime, flock: str) -> bool:
    """True when some Build can be taken now: `hexes` and `available_nests` would both be non-empty (each check
    stops at its first hit; a card's play modes ask this on every turn)."""
    fl = rt.state.flocks[flock]
    fruits = rt.rules.fruits
    built = fl.nests_built
    for nest_id in rt.rules.flock_nests:
        if nest_id in built:
            continue
        for lower in _lower_rows(rt, nest_id):
            if lower not in built:
                break
        else:
            if payment.can_pay(fl, payment.cost_reqs(rt.rules.nests[nest_id].cost), fruits):
                break
    else:
        return False
    return next(_hexes(rt, flock), None) is not None


# --- the Build action as a program: hex, Nest, pay, place, placement benefit (R-BUILD-3), the build triggers ---
def _ask_hex(rt: Runtime, env: Env) -> Question | None:
    """The hex to build on (None: no Nest can be built, or nowhere)."""
    flock = env["ctx"].flock
    env["nests"] = nests = available_nests(rt, flock)
    where = hexes(rt, flock) if nests else []
    if not where:
        return None
    return Question(flock, "build-hex", "Choose a hex to build on",
                    [shared_option(A.Build, (h,), ("Build on {}", (h,))) for h in where])


def _cannot_build(rt: Runtime, env: Env) -> tuple[str, dict[str, Any]]:
    flock = env["ctx"].flock
    return flock, {"flock": flock}


def _ask_nest(rt: Runtime, env: Env) -> Question:
    """The Nest to build on the chosen hex."""
    env["hex"] = env.pop("on").hex
    return Question(env["ctx"].flock, "build-nest", "Choose a Nest",
                    [option(A.Nest(n), labels.lazy(labels.nest_label, n, rt.rules.nests[n])) for n in env["nests"]])


def _pay_for_nest(rt: Runtime, env: Env) -> Any:
    env["nest"] = nest = env.pop("picked").nest
    return payment.pay_all_frame(env["ctx"].flock, payment.reqs_of(rt.rules.nests[nest].cost))


def _place_nest(rt: Runtime, env: Env) -> Any:
    """Place the paid Nest, then its placement benefit."""
    ctx, hex_id, nest_id = env["ctx"], env["hex"], env["nest"]
    flock = ctx.flock
    rt.state.set_nest(hex_id, (flock, nest_id))
    rt.state.flocks[flock].nests_built.append(nest_id)
    rt.emit("build", flock, flock=flock, nest=nest_id, hex=hex_id)
    return nest_benefit_frame(rt, ctx, rt.rules.nests[nest_id].on_place, f"{nest_id} placement", hex_id)


def _build_powers(rt: Runtime, env: Env) -> Any:
    """The builder's powers that listen to building (None: none)."""
    return effects.emit_call(rt, env["ctx"], "t-build", env["hex"])


def _build_triggers(rt: Runtime, env: Env) -> Any:
    """`build on <hexes>` triggers."""
    return compose.event_frame(rt, env["ctx"], "build", env["hex"])


_PLACED = frozenset({"benefit", "powers", "triggers"})


def _check_build(rt: Runtime, env: Env, at: str) -> None:
    """A loaded Build names Nests of the content, the chosen one unbuilt on a hex without a Nest until it is
    placed, and then standing there."""
    st = rt.state
    built = st.flocks[env["ctx"].flock].nests_built
    placed = at in _PLACED
    nests, hex_id = env.get("nests", ()), env.get("hex", "")
    if not all(isinstance(n, str) and n in rt.rules.nests and (placed or n not in built) for n in nests):
        raise FrameDataError("build.build: a Nest that cannot be built")
    if at != "hex" and hex_id not in st.hexes:
        raise FrameDataError("build.build: a hex that cannot be built on")
    if at == "pay" and (env.get("nest") not in nests or st.hexes[hex_id].nest is not None):
        raise FrameDataError("build.build: a Nest that cannot be built there")
    if placed and st.hexes[hex_id].nest != (env["ctx"].flock, env.get("nest")):
        raise FrameDataError("build.build: the built Nest is not on its hex")


BUILD = program(
    "build.build", ("ctx",),
    {"ctx": Ctx, "nests": list, "on": A.Build, "hex": str, "picked": A.Nest, "nest": str},
    Ask("hex", _ask_hex, into="on", kinds={"build-hex": ("build",)}, otherwise="cannot"),
    Ask("nest", _ask_nest, into="picked", kinds={"build-nest": ("nest",)}),
    Call("pay", _pay_for_nest),
    Call("benefit", _place_nest),
    Call("powers", _build_powers),
    Call("triggers", _build_triggers),
    Return(),
    Label("cannot"),
    Emit("cannot-build", _cannot_build),
    check=_check_build)


# --- a Nest benefit, twice under the `nest benefits twice` modifier, the second time without VP (R-ASYM-4) ----
# `here` is the Nest's hex (`this hex` in its effect)
def _benefit_runs(rt: Runtime, env: Env) -> range:
    """How often the benefit runs, read when it starts."""
    here = env["here"]
    return range(param(rt, env["ctx"].flock, "nest_benefit_times", ("nest", here) if here is not None else None))


def _run_benefit(rt: Runtime, env: Env) -> Any:
    ctx, here = env["ctx"], env["here"]
    return effects.run_frame(rt, env["effect"], ctx.sub(no_vp=env["i"] > 0, depth=ctx.depth + 1, source=env["source"],
                                                    here=here if here is not None else ctx.here))


NEST_BENEFIT = program(
    "build.nest_benefit", ("ctx", "effect", "source", "here"),
    {"ctx": Ctx, "effect": None, "source": str, "here": (str, type(None)), "i": int},
    ForEach("i", _benefit_runs, (Call("run", _run_benefit),)))


def nest_benefit_frame(rt: Runtime, ctx: Ctx, effect: ast.Node | None, source: str, here: str | None = None) -> Any:
    """The continuation of a Nest benefit (a frame that returns at once for a Nest without one). Run once, the
    benefit is its effect's frame alone (how often it runs is read now, as the program would when it starts)."""
    if effect is None:
        return None
    if param(rt, ctx.flock, "nest_benefit_times", ("nest", here) if here is not None else None) == 1:
        return effects.run_frame(rt, effect, ctx.sub(no_vp=False, depth=ctx.depth + 1, source=source,
                                                here=here if here is not None else ctx.here))
    return NEST_BENEFIT.start(ctx, effect, source, here)


TABLE.register("build", lambda rt, c, ctx: BUILD.start(ctx), lambda rt, c, ctx: possible(rt, ctx.flock))
