"""Modifiers scoped by a selector, as content of the `scoped` mod
and shown on a position: dominance weights for the pieces a selector names (R-DOM-1/2) and a Feed discount for the
Kiwi a selector names (R-FEED-2). Also: a weight that reads dominance is refused before play (tests/test_dsl_compose.py
holds the checker's messages) and, built by hand past the checker, stopped by the engine instead of recursing."""
from __future__ import annotations

from pathlib import Path

import pytest

from kcd.content import load_ruleset
from kcd.dsl import CheckContext, ast, compile_field
from kcd.engine import Game, effects, feed, queries
from kcd.core import dominance
from kcd.engine.context import Ctx, EngineError
from kcd.engine.selectors import Scope, quantity
from kcd.engine.setup import params_of
from kcd.analysis.position import load_position
from kcd.testing import checked_game, drive, steps

POSITION = Path(__file__).parent / "golden" / "positions" / "scoped" / "moss.yaml"
HEXES = ("A", "B", "C", "D", "E", "F")


def _game() -> Game:
    return load_position(POSITION)


def _node(rt, text: str, kind: str):
    node, issues = compile_field(text, kind, CheckContext(tuple(rt.rules.fruits), tuple(rt.rules.terrains), 3))
    return node, issues


def test_the_mod_validates_and_its_weights_are_plain_data_in_the_params() -> None:
    rs = load_ruleset(["scoped"])
    params = params_of(Game.new(rs, players=["moss", "green"], seed=1).rules)
    assert list(params["dominance_weights"]) == ["moss"]
    assert [n for _, n in params["dominance_weights"]["moss"]["B"]] == [2, 1, 1]
    assert "dominance_weights" not in params_of(Game.new(load_ruleset(), players=["red", "green"], seed=1).rules)


def test_R_DOM_2_the_pieces_each_power_names_count_its_weight() -> None:
    """Moss's Kiwi on flower count 2 each (A: 4 beats green's 3; F: a size-3 Kiwi counts 2), its Nests 1 (B: a tie
    with green's 1), opponents' Leaders 1 (C: moss's 2 beats green's Leader), moss's own Leader 3 as usual (D)."""
    st = _game().rt.state
    assert {h: dominance.strengths(st, h) for h in HEXES} == {
        "A": {"moss": 4, "green": 3}, "B": {"green": 1, "moss": 1}, "C": {"moss": 2, "green": 1},
        "D": {"moss": 4}, "E": {"moss": 1}, "F": {"moss": 2}}
    every = dominance.dominant_all(st)
    assert every == {"A": "moss", "B": None, "C": "moss", "D": "moss", "E": "moss", "F": "moss"}
    assert every == {h: dominance.dominant(st, h) for h in HEXES}
    for purpose in ("build", "marking"):   # every dominance count, not only the default one
        assert {h: dominance.dominant(st, h, purpose) for h in HEXES} == every


def test_R_DOM_1_without_the_powers_the_usual_weights_count_again() -> None:
    """Side A has none of these powers: by size, the Control Nest's 2 and a Leader's 3 (green wins A and C)."""
    st = _game().rt.state
    st.flocks["moss"].side = "A"
    assert dominance.strengths(st, "A") == {"moss": 2, "green": 3}
    assert dominance.dominant_all(st) == {"A": "green", "B": "moss", "C": "green", "D": "moss", "E": "moss",
                                          "F": "moss"}


def test_R_DOM_2_the_weights_follow_the_pieces_as_they_move() -> None:
    """A selector is read on the state now: moss's Kiwi in E moves to flower F and counts 2 there."""
    st = _game().rt.state
    st.move_kiwi("E", "F", st.hexes["E"].kiwi[-1].id)
    assert dominance.strengths(st, "F") == {"moss": 4}


def test_R_SCARD_5_selectors_and_objectives_read_the_same_dominance() -> None:
    """`hexes dominated by me` and the Season card objective of hexes with established dominance count A, C, D,
    E and F for moss (not B, a tie), none for green."""
    rt = _game().rt
    node, issues = _node(rt, "gain count(hexes dominated by me) fruit", "effect")
    assert issues == []
    assert [quantity(rt.state, node.stmts[0].arg("n"), Scope(f)) for f in ("moss", "green")] == [5, 0]
    objective = rt.rules.season_cards["most-dominance"].objective
    assert [queries.evaluate(rt.state, objective, f) for f in ("moss", "green")] == [5, 0]


def test_a_save_carries_the_weights_and_plays_on_with_them() -> None:
    game = _game()
    loaded = Game.from_json(game.ruleset, game.to_json())
    assert loaded.rt.state.params == game.rt.state.params
    assert {h: dominance.strengths(loaded.rt.state, h) for h in HEXES} == \
        {h: dominance.strengths(game.rt.state, h) for h in HEXES}


def test_a_weight_given_by_a_quantity_is_read_on_the_state_now() -> None:
    """`my kiwi count count(my nests) for dominance`: 1 while moss has one Nest; with none, its lone Kiwi in E counts
    0 and dominates nothing (R-DOM-1: a count of 0 never dominates)."""
    st = _game().rt.state
    node, issues = _node(_game().rt, "my kiwi count count(my nests) for dominance", "modifier")
    assert issues == []
    st.params = {**st.params, "dominance_weights": {"moss": {"B": [[ast.to_data(node.arg("who")),
                                                                       ast.to_data(node.arg("n"))]]}}}
    assert dominance.strengths(st, "A") == {"moss": 2, "green": 3}
    st.set_nest("B", None)
    assert dominance.strengths(st, "E") == {"moss": 0}
    assert dominance.dominant(st, "E") is None and dominance.dominant_all(st)["E"] is None


def test_a_weight_that_reads_dominance_is_refused_and_never_recurses() -> None:
    """The checker refuses `dominated by` in a dominance weight (located, tests/test_dsl_compose.py); a weight put in
    the params by hand past the checker stops with an EngineError instead of recursing."""
    game = _game()
    st = game.rt.state
    node, issues = _node(game.rt, "my kiwi in hexes dominated by me count 2 for dominance", "modifier")
    assert [i.code for i in issues] == ["dsl-context"]
    st.params = {**st.params, "dominance_weights": {"moss": {"B": [[ast.to_data(node.arg("who")), 2]]}}}
    with pytest.raises(EngineError, match="asks who dominates"):
        dominance.strengths(st, "A")


def test_R_FEED_2_feeding_own_kiwi_on_grass_costs_1_fruit_less() -> None:
    """With 1 fruit moss can feed only its Kiwi in grass D (2 - 1); its Kiwi on sand and green's Kiwi on grass B
    cost the full 2. The Feed pays 1 and grows the Kiwi."""
    rt = _game().rt
    assert [o.id for o in feed.targets(rt, "moss")] == ["feed:moss/1@D"]
    assert feed.possible(rt, "moss")
    drive(steps(rt, effects.run_frame(rt, _node(rt, "feed", "effect")[0], Ctx("moss"))))   # one target, one way to pay: no decision
    assert sum(rt.state.flocks["moss"].fruit.values()) == 0
    assert [k.size for k in rt.state.hexes["D"].kiwi] == [2]
    rt.state.flocks["moss"].side = "A"   # no discount on side A: nothing is affordable with 1 fruit
    rt.state.flocks["moss"].fruit["red"] = 1
    rt.state.flocks["moss"].domain = []   # the Feed's marker (R-FEED-4) could stand in for a fruit (R-PAY-1)
    assert feed.targets(rt, "moss") == [] and not feed.possible(rt, "moss")


def test_scoped_mod_plays_random_games_with_every_invariant_after_every_decision() -> None:
    """Content that validates plays: 6 random games with moss on side B, every token, fruit and marker accounted
    for after every decision."""
    games = [(seed, flocks, {"sides": {f: "B" for f in flocks}})
             for seed in range(6) for flocks in [["moss", "green", "red"] if seed % 2 else ["green", "moss"]]]
    rs = load_ruleset(["scoped"])
    for seed, flocks, kw in games:
        record = checked_game(rs, flocks, seed, checks=("invariants",), **kw)
        assert record.ranking and record.decisions > 50


def test_games_in_threads_work_out_their_weights_apart() -> None:
    """The recursion guard is per thread: four threads counting copies of the position at once (a Dask worker's
    pool, a server) all get the position's counts, none a false "asks who dominates"."""
    import sys
    import threading

    st = _game().rt.state
    want = dominance.dominant_all(st)
    errors: list[BaseException] = []

    def count(copy) -> None:
        try:
            for _ in range(150):
                assert dominance.dominant_all(copy) == want
                assert dominance.dominant(copy, "A") == "moss"
        except BaseException as exc:   # reported below, in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=count, args=(st.copy(),)) for _ in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)   # switch threads often, inside the weights' evaluation too
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert errors == []
