"""Simulation API (SPEC.md "Bots and simulation"): play_game, simulate, summary with Wilson intervals."""
from __future__ import annotations

import pytest

from kcd.content import load_ruleset
from kcd.analysis.sim import GameRecord, SimReport, default_flocks, play_game, simulate, wilson


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_wilson_interval_known_values() -> None:
    """95% Wilson interval: 5/10 -> (0.2366, 0.7634); 0/10 -> (0, 0.2775); no games -> (0, 0)."""
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0)


def test_default_flocks_follow_content_seat_order(ruleset) -> None:
    """The default seats come from content (game.yaml flock.seat_order, else flock order), truncated."""
    four = default_flocks(ruleset, 4)
    assert default_flocks(ruleset, 2) == four[:2]
    declared = ruleset.game["flock"].get("seat_order")
    assert four == (list(declared) if declared else [i.id for i in ruleset.items("flocks")])
    with pytest.raises(ValueError):
        default_flocks(ruleset, 9)

    class Declared:
        game = {"flock": {"seat_order": ["red", "green", "purple", "yellow"]}}

        def items(self, kind):
            raise AssertionError("the declared order wins")

    assert default_flocks(Declared(), 3) == ["red", "green", "purple"]


def test_play_game_record(ruleset) -> None:
    """A whole game gives a complete record: scores by source, ranking of all players, decisions, Season cards."""
    players = default_flocks(ruleset, 3)
    rec = play_game(ruleset, players, 42, ("random",))
    assert isinstance(rec, GameRecord)
    assert rec.players == players and sorted(rec.ranking) == sorted(players)
    for flock in players:
        s = rec.scores[flock]
        assert s["total"] == s["domain"] + s["nests"] + s["season_cards"]
        assert rec.leaders[flock] and rec.sides[flock] in ("A", "B")
    totals = [rec.scores[f]["total"] for f in rec.ranking]
    assert totals == sorted(totals, reverse=True)
    assert rec.decisions > 50
    assert len(rec.season_cards) == 4 and all("id" in c and "victor" in c for c in rec.season_cards)
    assert play_game(ruleset, players, 42, ("random",)) == rec  # deterministic


def test_simulate_summary_shape_progress_and_seats(ruleset) -> None:
    """simulate(): progress after each game, seats rotate, summary has rates with intervals and means."""
    calls: list[tuple[int, int]] = []
    report = simulate(ruleset, 4, players=2, seed=10, progress=lambda d, t: calls.append((d, t)))
    assert isinstance(report, SimReport)
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]
    flocks = default_flocks(ruleset, 2)
    assert [r.players for r in report.records] == [flocks, flocks[::-1], flocks, flocks[::-1]]
    assert [r.seed for r in report.records] == [10, 11, 12, 13]
    s = report.summary()
    assert s["games"] == 4
    assert set(s["win_rate"]) >= {"seat", "flock", "leader"}
    assert sum(r["wins"] for r in s["win_rate"]["seat"].values()) == 4
    for r in s["win_rate"]["flock"].values():
        assert set(r) == {"wins", "games", "rate", "lo", "hi"} and r["lo"] <= r["rate"] <= r["hi"]
    assert set(s["mean_vp"]) == {"domain", "nests", "season_cards", "total"}
    assert s["mean_decisions"] > 0
    assert sum(c["played"] for c in s["season_cards"].values()) == 16


def test_simulate_parallel_equals_serial(ruleset) -> None:
    """jobs=2 gives exactly the records of jobs=1 (each game seeded from the simulation seed)."""
    serial = simulate(ruleset, 4, players=3, seed=3, jobs=1)
    parallel = simulate(ruleset, 4, players=3, seed=3, jobs=2)
    assert serial.records == parallel.records


def test_simulate_unknown_bot(ruleset) -> None:
    """An unknown bot fails before any game runs."""
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(ruleset, 1, bots=("nope",))


class _WithoutVariants:
    """The shipped ruleset with game.yaml `variants` removed (content that does not offer Variable Turn Order)."""

    def __init__(self, base) -> None:
        self.game = {k: v for k, v in base.game.items() if k != "variants"}
        self.hash = "no-variants"
        self._base = base

    def items(self, kind):
        return self._base.items(kind)


def test_R_VTO_1_play_game_and_simulate_pass_the_variant(ruleset) -> None:
    """R-VTO-1/2: play_game(variant="vto") plays the variant (tracker tokens placed) and records it; simulate too."""
    from kcd.analysis.sim import KNOWN_VARIANTS, variants

    assert variants(ruleset) == {"vto": KNOWN_VARIANTS["vto"]}
    players = default_flocks(ruleset, 3)
    seen = {}

    def start(game) -> None:
        seen["variant"] = game.state.variant

    rec = play_game(ruleset, players, 5, ("random",), variant="vto", on_start=start)
    assert seen["variant"] == "vto" and rec.variant == "vto" and rec.setup == "first-game"
    assert rec != play_game(ruleset, players, 5, ("random",))   # the tracker changes the game
    assert play_game(ruleset, players, 5, ("random",)).variant is None
    report = simulate(ruleset, 3, players=3, seed=5, variant="vto")
    assert [r.variant for r in report.records] == ["vto"] * 3
    assert report.records[0] == rec
    assert simulate(ruleset, 3, players=3, seed=5, variant="vto", jobs=2).records == report.records


def test_R_VTO_1_variant_missing_from_content_is_a_setup_error(ruleset) -> None:
    """R-VTO-1: without game.yaml `variants.vto.phases` the variant is not offered: a clear SetupError, before any game."""
    from kcd.engine import Game
    from kcd.engine.setup import SetupError
    from kcd.analysis.sim import variants

    bare = _WithoutVariants(ruleset)
    assert variants(bare) == {}
    with pytest.raises(SetupError, match=r"Variable Turn Order is not available with this content: game.yaml has no "
                                         r"`variants.vto.phases`"):
        Game.new(bare, players=default_flocks(ruleset, 2), seed=1, variant="vto")
    with pytest.raises(SetupError, match="not available"):
        simulate(bare, 2, players=2, variant="vto")
    with pytest.raises(SetupError, match="variant must be None or 'vto'"):
        simulate(ruleset, 2, players=2, variant="turbo")
    assert play_game(bare, default_flocks(ruleset, 2), 1).variant is None   # the standard game still plays


def test_R_VTO_1_phases_come_from_content(ruleset) -> None:
    """R-VTO-1, R-VTO-3: the variant's phases are game.yaml `variants.vto.phases` (Wake up first), read by the engine."""
    from kcd.content.rules import compile_rules

    declared = ruleset.game["variants"]["vto"]["phases"]
    assert declared[0] == "wake_up" and declared[1:] == ruleset.game["phases"]
    assert compile_rules(ruleset).vto_phases == declared
    assert compile_rules(_WithoutVariants(ruleset)).vto_phases == []


def test_R_SCARD_1_season_card_results_come_from_event_data(ruleset) -> None:
    """R-SCARD-1/2: each Season card's result is read from the engine event's data (card, season, values, victor),
    not its wording; the victor is the single best value of the card's objective, a tie has none."""
    from kcd.engine import Game
    from kcd.analysis.sim import season_card_results

    players = default_flocks(ruleset, 4)
    game = Game.new(ruleset, players=players, seed=8)
    import random as _random

    rnd = _random.Random(8)
    while not game.is_over:
        assert game.apply(rnd.choice(game.pending.options).id).ok
    results = season_card_results(game)
    assert [r["season"] for r in results] == [1, 2, 3, 4]
    assert [r["id"] for r in results] == list(game.state.season_cards)
    events = [e for e in game.events if e.kind == "season-card" and e.data]
    for r, event in zip(results, events):
        assert event.text == f"{r['id']}: " + ", ".join(f"{f} {v}" for f, v in r["values"].items())  # text unchanged
        objective = ruleset.item("season_cards", r["id"]).data["objective"]
        best = (max if objective.direction == "most" else min)(r["values"].values())
        top = [f for f, v in r["values"].items() if v == best]
        assert r["victor"] == (top[0] if len(top) == 1 else None)
        assert event.data["tied"] == (top if len(top) > 1 else [])
    # the text is for people: rewording it changes nothing
    game.rt.events[:] = [type(e)(e.kind, "reworded", e.player, e.data) for e in game.events]
    assert season_card_results(game) == results
    # the payload survives a save and load
    assert season_card_results(Game.from_json(ruleset, game.to_json())) == results
