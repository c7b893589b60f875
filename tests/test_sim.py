"""Simulation API (SPEC.md "Bots and simulation"): play_game, simulate, summary with Wilson intervals."""
from __future__ import annotations

import pytest

from interpreter.content import load_ruleset
from interpreter.sim import GameRecord, SimReport, default_flocks, play_game, simulate, wilson


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
