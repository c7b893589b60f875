"""The Build action (R-BUILD-1..6): a hex without Nest, >= min tokens and dominance; row order; cost; benefits."""
from __future__ import annotations

from typing import Generator

from interpreter.dsl import ast
from interpreter.engine import action_types as A
from interpreter.engine import compose, dominance, effects, labels, payment
from interpreter.engine.context import Ctx, Runtime
from interpreter.engine.decisions import ask_action, option
from interpreter.engine.modifiers import param
from interpreter.engine.verb_table import TABLE


def hexes(rt: Runtime, flock: str) -> list[str]:
    """Hexes where the flock may build (R-BUILD-1; Leader counts 3 tokens there, R-LEAD-1)."""
    st = rt.state
    out = []
    mine = st.presence(flock)
    for h in st.hexes.values():
        if h.nest is not None or h.id not in mine:
            continue
        counts = dominance.strengths(st, h.id, "build")
        if counts.get(flock, 0) >= rt.rules.build_min_tokens and dominance.leader_of(counts) == flock:
            out.append(h.id)
    return out


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
        if payment.can_pay(fl, payment.reqs_of(nest.get("cost")), rt.rules.fruits):
            out.append(nest_id)
    return out


def _lower_rows(rt: Runtime, nest_id: str) -> list[str]:
    """The flock's Nests of the same type one row lower (R-BUILD-2), cached on the rules."""
    cache = rt.rules.lower_rows
    if nest_id not in cache:
        nest = rt.rules.nests[nest_id]
        row = int(nest.get("row", 1))
        cache[nest_id] = [n for n in rt.rules.flock_nests if rt.rules.nests[n].get("type") == nest.get("type")
                          and int(rt.rules.nests[n].get("row", 1)) == row - 1]
    return cache[nest_id]


def possible(rt: Runtime, flock: str) -> bool:
    """True when some Build can be taken now."""
    return bool(hexes(rt, flock)) and bool(available_nests(rt, flock))


def build(rt: Runtime, ctx: Ctx) -> Generator:
    """One Build action: hex, Nest, pay, place, placement benefit (R-BUILD-3)."""
    flock = ctx.flock
    nests = available_nests(rt, flock)
    where = hexes(rt, flock) if nests else []
    if not where:
        rt.emit("cannot-build", flock, flock=flock)
        return
    act = yield from ask_action(flock, "build-hex", "Choose a hex to build on",
                                [option(A.Build(h), f"Build on {h}") for h in where])
    hex_id = act.hex
    act = yield from ask_action(flock, "build-nest", "Choose a Nest",
                                [option(A.Nest(n), labels.nest_label(n, rt.rules.nests[n])) for n in nests])
    nest_id = act.nest
    nest = rt.rules.nests[nest_id]
    yield from payment.pay_all(rt, flock, payment.reqs_of(nest.get("cost")))
    rt.state.hexes[hex_id].nest = (flock, nest_id)
    rt.state.flocks[flock].nests_built.append(nest_id)
    rt.emit("build", flock, flock=flock, nest=nest_id, hex=hex_id)
    yield from nest_benefit(rt, ctx, nest.get("on_place"), f"{nest_id} placement", here=hex_id)
    yield from effects.emit(rt, ctx, "t-build")
    yield from compose.emit_event(rt, ctx, "build", hex_id)   # triggers with filters (`build on <hexes>`)


def nest_benefit(rt: Runtime, ctx: Ctx, effect: ast.Node | None, source: str, here: str | None = None) -> Generator:
    """A Nest benefit, twice under the `nest benefits twice` modifier, the second time without VP (R-ASYM-4);
    `here` is the Nest's hex (`this hex` in its effect)."""
    if effect is None:
        return
    for i in range(param(rt, ctx.flock, "nest_benefit_times", ("nest", here) if here is not None else None)):
        yield from effects.run(rt, effect, ctx.sub(no_vp=i > 0, depth=ctx.depth + 1, source=source,
                                                   here=here if here is not None else ctx.here))


TABLE.register("build", lambda rt, c, ctx: build(rt, ctx), lambda rt, c, ctx: possible(rt, ctx.flock))
