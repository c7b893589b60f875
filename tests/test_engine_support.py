"""Shared helpers for the engine tests (no tests here): the shipped ruleset and hand-built states.

`blank_runtime` builds a real game state (setup done by the engine) and empties the island so a test
can place exactly the pieces it needs; running a program by hand (`steps`, `drive`) and random games
(`play_random`) are kcd.testing's.
"""
from __future__ import annotations

import functools

from kcd.content import load_ruleset
from kcd.engine.context import Runtime
from kcd.content.rules import compile_rules
from kcd.engine.setup import new_state


@functools.lru_cache(maxsize=None)
def ruleset():
    """The shipped base ruleset (loaded once)."""
    return load_ruleset()


def rules():
    """Compiled rules of the base ruleset."""
    return compile_rules(ruleset())


def blank_runtime(players=("red", "green"), seed=1, sides=None, leaders=None, phase="actions", season=1,
                  leader_hexes=None) -> Runtime:
    """A runtime on a real state with an empty island, no fruit, no markers, Leaders placed as given."""
    r = rules()
    if leaders is None:
        leaders = {p: "chopan" for p in players}
    st = new_state(r, list(players), seed, leaders, None, sides, "first-game")
    for hex_id in st.hexes:
        st.set_kiwi(hex_id, ())
    for i, f in enumerate(players):
        fl = st.flocks[f]
        fl.supply = 0
        fl.fruit = {c: 0 for c in r.fruits}
        fl.leader_hex = (leader_hexes or {}).get(f)
    st.phase, st.season, st.step = phase, season, 0
    return Runtime(r, st)


def put(rt: Runtime, hex_id: str, flock: str, *sizes: int):
    """Place Kiwi of the given sizes on a hex (tokens taken from the flock's setup supply accounting)."""
    out = [rt.state.place_new_kiwi(hex_id, flock, s) for s in sizes]
    return out[0] if len(out) == 1 else out


def now(rt: Runtime, kiwi):
    """The Kiwi with this one's piece id as it stands on the island now (a Kiwi is an immutable value: one that
    grew or shrank is a new Kiwi with the same id), or None when it is no longer on the island."""
    return next((k for h in rt.state.hexes.values() for k in h.kiwi if k.id == kiwi.id), None)


def fruit(rt: Runtime, flock: str, **counts: int) -> None:
    """Give a flock fruit (taken from the bag)."""
    for c, n in counts.items():
        rt.state.flocks[flock].fruit[c] += n
        rt.state.fruit_bag[c] -= n


def markers(rt: Runtime, flock: str, *terrains: str) -> None:
    """Give a flock domain markers (taken from the bag)."""
    for t in terrains:
        rt.state.flocks[flock].domain.append(t)
        rt.state.domain_bag[t] -= 1
    rt.state.flocks[flock].domain.sort()


def totals(st) -> dict:
    """Accounting of every component: per flock tokens, fruit and markers in total."""
    out = {}
    for f in st.seats:
        fl = st.flocks[f]
        out[f] = fl.track + fl.reserve_kiwi + fl.supply + fl.covers + fl.on_tracker + st.island_tokens(f)
    fruit_total = sum(st.fruit_bag.values()) + sum(sum(st.flocks[f].fruit.values()) for f in st.seats)
    dom_total = (sum(st.domain_bag.values()) + sum(len(st.flocks[f].domain) for f in st.seats)
                 + sum(1 for h in st.hexes.values() if h.domain))
    return {"tokens": out, "fruit": fruit_total, "domain": dom_total}


def dsl(text: str, kind: str = "effect"):
    """A bound DSL node from text (fails the test on any issue)."""
    from kcd.dsl import CheckContext, compile_field
    r = rules()
    node, issues = compile_field(text, kind, CheckContext(tuple(r.fruits), tuple(r.terrains), r.max_size))
    assert not issues, issues
    return node
