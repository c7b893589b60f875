"""The compiled kernels (kcd._native, wrapped by kcd.core.native) against their Python reference in
kcd.core.dominance and kcd.engine.objective_plans, on random islands: the same counts in the same order, the same
dominant flock of each hex and of every hex at once, the same sums of pieces by owner for a Season card objective; and input that is not an island is refused with a Python error, never a crash.

Skipped where the extension is not built.
"""
from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings, strategies as st

from kcd.core import dominance, native
from kcd.core.state import Hex, Kiwi

pytestmark = pytest.mark.skipif(not native.available(), reason=native.missing_reason())
K = native.kernels

FLOCKS = ["red", "green", "blue", "yellow", "kiwibot"]
NESTS = ["n1", "n2", "n3"]

flocks = st.sampled_from(FLOCKS)
kiwi = st.builds(Kiwi, st.integers(0, 10**6), flocks, st.integers(0, 6))
# a flock id as a new str object, so the kernels' comparison by value (not identity) is exercised
fresh_flocks = flocks.map(lambda f: "".join(list(f)))
nest = st.none() | st.tuples(fresh_flocks, st.sampled_from(NESTS + ["unknown"]))


@st.composite
def islands(draw):
    """(hexes, leaders by hex, Kiwi by size, Leader weight, nest values or None)."""
    n = draw(st.integers(0, 20))
    hexes = {}
    for i in range(n):
        hid = f"h{i}"
        hexes[hid] = Hex(hid, i, -i, "forest", tuple(draw(st.lists(kiwi, max_size=5))), draw(nest), None)
    leaders = {}
    for f in draw(st.lists(fresh_flocks, unique=True, max_size=4)):
        if hexes:
            leaders.setdefault(draw(st.sampled_from(sorted(hexes))), []).append(f)
    values = draw(st.none() | st.dictionaries(st.sampled_from(NESTS), st.integers(-2, 5)))
    return hexes, leaders, draw(st.booleans()), draw(st.integers(0, 5)), values


@settings(max_examples=400, deadline=None)
@given(islands())
def test_counts_and_dominance_of_each_hex_match_python(island) -> None:
    hexes, leaders, by_size, leader, values = island
    for hid, h in hexes.items():
        here = leaders.get(hid)
        ref = dominance._counts(h, here or (), by_size, leader, values)
        got = K.counts(h, here, by_size, leader, values)
        assert list(got.items()) == list(ref.items())
        assert K.dominant(h, here, by_size, leader, values) == dominance.leader_of(ref)
        assert K.leader_of(ref) == dominance.leader_of(ref)


@settings(max_examples=400, deadline=None)
@given(islands())
def test_dominance_of_every_hex_matches_python(island) -> None:
    hexes, leaders, by_size, leader, values = island
    ref = {hid: dominance.leader_of(dominance._counts(h, leaders.get(hid, ()), by_size, leader, values))
           for hid, h in hexes.items()}
    got = K.dominant_all(hexes, leaders, by_size, leader, values)
    assert list(got.items()) == list(ref.items())


@given(st.dictionaries(fresh_flocks, st.integers(-3, 9)))
def test_leader_of_matches_python(counts) -> None:
    assert K.leader_of(counts) == dominance.leader_of(counts)


def test_what_is_not_an_island_is_refused() -> None:
    h = Hex("h1", 0, 0, "forest", (Kiwi(1, "red", 2),), ("red", "n1"), None)
    with pytest.raises(TypeError, match="Hex"):
        K.dominant_all({"h1": object()}, {}, True, 3, None)
    with pytest.raises(TypeError, match="list"):
        K.counts(h, ("red",), True, 3, None)
    with pytest.raises(TypeError, match="dict"):
        K.counts(h, None, True, 3, ["n1"])
    with pytest.raises(TypeError, match="int"):
        K.counts(h, None, True, 3, {"n1": "2"})
    with pytest.raises(TypeError, match="str"):
        K.leader_of({1: 2})
    with pytest.raises(OverflowError):
        K.counts(Hex("h2", 0, 0, "forest", (Kiwi(1, "red", 2**70),), None, None), None, True, 3, None)


def test_the_engine_switch() -> None:
    assert native.check("python") == "python"
    with pytest.raises(ValueError, match="choose one of native, python"):
        native.check("cython")
    params, other = {"a": 1}, {}
    assert native.bind(params, "python") == "python" and native.bind(other, "native") == "native"
    assert type(params) is dict and params == {"a": 1}   # the state's JSON is unchanged
    assert native.engine_of(params) == "python" and native.kernels_for(params) is None
    assert native.kernels_for(other) is K
    assert native.engine_of({"a": 1}) == native.default()   # an equal dict no game was bound to


@functools.lru_cache(maxsize=None)
def _game_state():
    from kcd.analysis.sim import default_flocks
    from kcd.content import load_ruleset
    from kcd.engine import Game

    ruleset = load_ruleset()
    return Game.new(ruleset, default_flocks(ruleset, 4), seed=3, engine="python").state.copy()


@st.composite
def objective_sums(draw):
    """A game state with a random island and Leaders, and the arguments of objective_plans._sum_pieces."""
    base = _game_state()
    seats = list(base.seats)
    nest_ids = sorted(base.params["nest_dominance"]) + ["unknown"]
    terrains = ["forest", "flower", "water", "mountain"]
    owners = st.sampled_from(seats).map(lambda f: "".join(list(f)))
    hexes = {}
    for i in range(draw(st.integers(0, 16))):
        hid = f"x{i}"
        stack = tuple(draw(st.lists(st.builds(Kiwi, st.integers(0, 999), owners, st.integers(1, 4)), max_size=4)))
        nest = draw(st.none() | st.tuples(owners, st.sampled_from(nest_ids)))
        domain = draw(st.none() | st.tuples(owners, st.sampled_from(terrains)))
        hexes[hid] = Hex(hid, i, 0, draw(st.sampled_from(terrains)), stack, nest, domain)
    py = base.copy()
    py.hexes = hexes
    for f in seats:
        py.flocks[f].leader_hex = draw(st.none() | st.sampled_from(sorted(hexes))) if hexes else None
    nat = py.copy()
    nat.params = dict(py.params)
    native.bind(py.params, "python")
    native.bind(nat.params, "native")
    ids = sorted(hexes)
    subset = st.sets(st.sampled_from(ids)) if ids else st.just(set())
    args = (draw(st.sampled_from(["kiwi", "piece", "leader", "nest", "marker"])), draw(st.booleans()),
            draw(st.none() | st.integers(1, 4)), draw(st.none() | subset), draw(subset),
            draw(st.none() | st.sets(st.sampled_from(terrains))), draw(st.booleans()))
    return py, nat, args


@settings(max_examples=400, deadline=None)
@given(objective_sums())
def test_objective_piece_sums_match_python(case) -> None:
    from kcd.engine import objective_plans

    py, nat, args = case
    assert native.kernels_for(py.params) is None and native.kernels_for(nat.params) is K
    ref = objective_plans._sum_pieces(py, *args)
    got = objective_plans._sum_pieces(nat, *args)
    assert [(k, list(v.items())) for k, v in got.items()] == [(k, list(v.items())) for k, v in ref.items()]


@st.composite
def flock_hexes(draw):
    """Random islands with Leaders and domain markers in a real game state, on both engines, and a flock."""
    base = _game_state()
    seats = list(base.seats)
    nest_ids = sorted(base.params["nest_dominance"]) + ["unknown"]
    terrains = sorted({h.terrain for h in base.hexes.values()})
    owners = st.sampled_from(seats).map(lambda f: "".join(list(f)))
    hexes = {}
    for i in range(draw(st.integers(0, 16))):
        hid = f"x{i}"
        stack = tuple(draw(st.lists(st.builds(Kiwi, st.integers(0, 999), owners, st.integers(1, 4)), max_size=4)))
        nest = draw(st.none() | st.tuples(owners, st.sampled_from(nest_ids)))
        domain = draw(st.none() | st.tuples(owners, st.sampled_from(terrains)))
        hexes[hid] = Hex(hid, i, 0, draw(st.sampled_from(terrains)), stack, nest, domain)
    py = base.copy()
    py.hexes = hexes
    for f in seats:
        py.flocks[f].leader_hex = draw(st.none() | st.sampled_from(sorted(hexes))) if hexes else None
        py.flocks[f].domain = draw(st.lists(st.sampled_from(terrains), min_size=1, max_size=3))
    nat = py.copy()
    nat.params = dict(py.params)
    native.bind(py.params, "python")
    native.bind(nat.params, "native")
    return py, nat, draw(st.sampled_from(seats)), draw(st.booleans())


@functools.lru_cache(maxsize=None)
def _rules():
    from kcd.content.rules import compile_rules

    return compile_rules(_game_ruleset())


@functools.lru_cache(maxsize=None)
def _game_ruleset():
    from kcd.content import load_ruleset

    return load_ruleset()


FOUND = {"build": 0, "mark": 0}


@settings(max_examples=400, deadline=None)
@given(flock_hexes())
def _build_and_mark_hexes_match_python(case) -> None:
    """build._hexes and marking.markable on both engines (run by the test below, which then checks the
    examples were not all empty)."""
    from kcd.engine import build, marking
    from kcd.engine.context import Runtime

    py, nat, flock, any_terrain = case
    assert dominance.compiled(py, "build") is None and dominance.compiled(nat, "build") is not None
    rp, rn = Runtime(_rules(), py, [], None), Runtime(_rules(), nat, [], None)
    built = list(build._hexes(rp, flock))
    assert list(build._hexes(rn, flock)) == built
    marked = marking.markable(rp, flock, any_terrain)
    assert marking.markable(rn, flock, any_terrain) == marked
    FOUND["build"] += bool(built)
    FOUND["mark"] += bool(marked)


def test_build_and_mark_hexes_match_python() -> None:
    """The hexes to build and to mark on are the same on both engines, and the random islands give some often
    (the comparison is not of empty lists)."""
    FOUND.update(build=0, mark=0)
    _build_and_mark_hexes_match_python()
    assert FOUND["build"] > 40 and FOUND["mark"] > 40, FOUND
