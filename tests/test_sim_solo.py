"""Solo mode in simulation (R-SOLO-1..12): play_game/simulate with mode="solo", the record and the summary."""
from __future__ import annotations

import pytest

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.engine.setup import SetupError
from kcd.analysis.sim import (
    KIWIBOT,
    GameRecord,
    SimReport,
    default_flocks,
    play_game,
    simulate,
    solo_sides,
    solo_summary,
)


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_R_SOLO_6_play_game_records_mode_kiwibot_seats_and_solo_vp(ruleset) -> None:
    """R-SOLO-1/3/6/7: players=[player, kiwibot]; only the player decides; Kiwibot sits where solo.yaml says; the
    record names Kiwibot, the marker side, and every flock's `solo` VP (Kiwibot: 1 per 3 unplaced markers)."""
    player, kiwibot = default_flocks(ruleset, 2)
    seen: dict = {}
    deciders: set[str] = set()
    rec = play_game(ruleset, [player, kiwibot], 11, ("random",), mode="solo",
                    on_start=lambda g: seen.setdefault("game", g),
                    on_decision=lambda g, d, o, a: deciders.add(d.player))
    game: Game = seen["game"]
    assert game.is_over and deciders == {player}
    assert rec.mode == "solo" and rec.kiwibot == kiwibot and rec.player == player
    assert rec.players == [player, kiwibot] and rec.bots == ["random", KIWIBOT]
    seat = int(ruleset.solo["setup"]["kiwibot_seat"])
    assert rec.seats == ([kiwibot, player] if seat == 1 else [player, kiwibot]) == game.state.seats
    assert rec.solo_side is None and rec.marker_side in solo_sides(ruleset)
    assert rec.marker_side == game.view(None)["solo"]["marker_side"]
    for flock in (player, kiwibot):
        s = rec.scores[flock]
        assert s["total"] == s["domain"] + s["nests"] + s["season_cards"] + s["solo"]
    assert rec.scores[player]["solo"] == 0
    per_vp = int(ruleset.solo["setup"]["domain_per_vp"])
    assert rec.scores[kiwibot]["solo"] == len(game.state.flocks[kiwibot].domain) // per_vp
    assert rec.scores == {f: dict(s) for f, s in game.scores().items()}
    # two Season cards a season, each with its standard result (R-SOLO-4/5: Kiwibot wins ties)
    assert [c["season"] for c in rec.season_cards] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [c["id"] for c in rec.season_cards] == list(game.state.season_cards)
    for card in rec.season_cards:
        values = card["values"]
        assert set(values) == {player, kiwibot}
        if values[player] == values[kiwibot]:
            assert card["victor"] == kiwibot
        assert card["victor"] in (player, kiwibot)
    # the same call replays the game
    assert play_game(ruleset, rec.players, rec.seed, rec.bots[:1], mode="solo", solo_side=rec.solo_side) == rec


def test_R_SOLO_12_solo_side_is_passed_to_the_engine(ruleset) -> None:
    """R-SOLO-12: solo_side picks the Solo-mode marker side; each known side plays and is recorded."""
    flocks = default_flocks(ruleset, 2)
    for side in solo_sides(ruleset):
        rec = play_game(ruleset, flocks, 5, ("random",), mode="solo", solo_side=side)
        assert rec.solo_side == rec.marker_side == side
    with pytest.raises(SetupError, match="unknown Solo-mode marker side `nope`"):
        play_game(ruleset, flocks, 5, ("random",), mode="solo", solo_side="nope")
    with pytest.raises(SetupError, match="solo_side is only for mode='solo'"):
        play_game(ruleset, flocks, 5, ("random",), solo_side=solo_sides(ruleset)[0])


def test_R_SOLO_1_only_the_first_bot_plays_the_player(ruleset) -> None:
    """R-SOLO-7: the player's bot is the first of `bots`; further names (or a Bot object) are for no one else."""
    flocks = default_flocks(ruleset, 2)
    rec = play_game(ruleset, flocks, 8, ("greedy", "random"), mode="solo")
    assert rec.bots == ["greedy", KIWIBOT]

    class First:
        name = "first"

        def choose(self, game: Game) -> str:
            return game.pending.options[0].id

    rec = play_game(ruleset, flocks, 8, (First(),), mode="solo")
    assert rec.bots == ["first", KIWIBOT] and rec.decisions > 20


def test_R_SOLO_simulate_summary_player_vs_kiwibot(ruleset) -> None:
    """simulate(mode="solo"): flocks stay [player, kiwibot] every game (no rotation), seats/flocks/leaders keep
    their win rates, the summary adds the `solo` VP source and the player-vs-Kiwibot rate with a 95% interval."""
    calls: list[tuple[int, int]] = []
    report = simulate(ruleset, 6, seed=20, mode="solo", progress=lambda d, t: calls.append((d, t)))
    player, kiwibot = default_flocks(ruleset, 2)
    assert calls[-1] == (6, 6)
    assert all(r.players == [player, kiwibot] and r.kiwibot == kiwibot for r in report.records)
    assert [r.seed for r in report.records] == list(range(20, 26))
    s = report.summary()
    assert set(s["mean_vp"]) == {"domain", "nests", "season_cards", "solo", "total"}
    assert sum(r["wins"] for r in s["win_rate"]["seat"].values()) == 6
    assert set(s["win_rate"]["flock"]) == {player, kiwibot} and set(s["win_rate"]["bot"]) == {"random", KIWIBOT}
    assert sum(r["games"] for r in s["win_rate"]["leader"].values()) == 12
    solo = s["solo"]
    assert solo["games"] == 6
    assert solo["player"]["wins"] + solo[KIWIBOT]["wins"] == 6
    assert solo["player"]["wins"] == sum(r.ranking[0] == player for r in report.records)
    assert solo["player"]["wins"] == s["win_rate"]["flock"][player]["wins"]
    for r in (solo["player"], solo[KIWIBOT], *solo["by_side"].values()):
        assert r["lo"] <= r["rate"] <= r["hi"]
    assert sum(r["games"] for r in solo["by_side"].values()) == 6
    assert solo["mean_vp"]["player"]["solo"] == 0
    assert solo["mean_vp"][KIWIBOT]["total"] == pytest.approx(
        sum(r.scores[kiwibot]["total"] for r in report.records) / 6)
    assert sum(solo["season_cards"].values()) == 48 == sum(c["played"] for c in s["season_cards"].values())
    assert solo["player_flocks"] == [player] and solo["kiwibot_flocks"] == [kiwibot]
    assert simulate(ruleset, 6, seed=20, mode="solo", jobs=2).records == report.records


def test_R_SOLO_simulate_flocks_and_side(ruleset) -> None:
    """`flocks` picks [player, kiwibot]; `solo_side` holds for every game; the standard summary has no solo block."""
    flocks = default_flocks(ruleset, 4)
    pair = [flocks[2], flocks[3]]
    side = solo_sides(ruleset)[-1]
    report = simulate(ruleset, 2, seed=1, flocks=pair, mode="solo", solo_side=side)
    assert [r.players for r in report.records] == [pair, pair]
    assert {r.marker_side for r in report.records} == {side}
    assert set(report.summary()["solo"]["by_side"]) == {side}
    standard = simulate(ruleset, 1, players=2, seed=1).summary()
    assert "solo" not in standard and "solo" not in standard["mean_vp"]


def test_R_SOLO_1_simulate_refuses_what_solo_cannot_play(ruleset) -> None:
    """R-SOLO-1: two flocks only; no variant; a known side; a known mode: clear SetupErrors before any game."""
    with pytest.raises(SetupError, match="solo mode is two flocks"):
        simulate(ruleset, 1, players=3, mode="solo")
    with pytest.raises(SetupError, match="solo mode is two flocks"):
        simulate(ruleset, 1, flocks=default_flocks(ruleset, 3), mode="solo")
    with pytest.raises(SetupError, match="without Variable Turn Order"):
        simulate(ruleset, 1, mode="solo", variant="vto")
    with pytest.raises(SetupError, match=r"sides: bot-side, player-side"):
        simulate(ruleset, 1, mode="solo", solo_side="sideways")
    with pytest.raises(SetupError, match="mode must be 'standard' or 'solo'"):
        simulate(ruleset, 1, players=2, mode="duo")
    assert simulate(ruleset, 0, mode="solo").records == []


def _record(seed: int, winner: str, side: str, victors: list[str | None]) -> GameRecord:
    scores = {"red": {"domain": 4, "nests": 2, "season_cards": 1, "solo": 0, "total": 7},
              "green": {"domain": 6, "nests": 0, "season_cards": 3, "solo": 2, "total": 11}}
    return GameRecord(seed=seed, players=["red", "green"], leaders={"red": "a", "green": "b"},
                      sides={"red": "A", "green": "A"}, scores=scores,
                      ranking=[winner, "green" if winner == "red" else "red"], decisions=10,
                      season_cards=[{"season": 1, "id": f"card-{i}", "victor": v, "values": {}}
                                    for i, v in enumerate(victors)],
                      bots=["random", KIWIBOT], mode="solo", marker_side=side, kiwibot="green",
                      seats=["green", "red"])


def test_R_SOLO_5_solo_summary_counts_roles_sides_and_cards() -> None:
    """R-SOLO-5/6: the player-vs-Kiwibot tally by hand-made records: 2 of 3 won, per marker side, per card."""
    records = [_record(1, "red", "bot-side", ["red", "green"]), _record(2, "red", "player-side", ["red", None]),
               _record(3, "green", "bot-side", ["green", "green"])]
    solo = solo_summary(records)
    assert solo["player"]["wins"] == 2 and solo["player"]["games"] == 3
    assert solo["player"]["rate"] == pytest.approx(2 / 3) and solo[KIWIBOT]["wins"] == 1
    assert solo["by_side"]["bot-side"]["wins"] == 1 and solo["by_side"]["bot-side"]["games"] == 2
    assert solo["by_side"]["player-side"]["wins"] == 1 and solo["by_side"]["player-side"]["games"] == 1
    assert solo["mean_vp"]["player"]["total"] == 7 and solo["mean_vp"][KIWIBOT]["solo"] == 2
    assert solo["season_cards"] == {"player": 2, KIWIBOT: 3, "ties": 1}
    assert solo["season_cards_by_card"]["card-1"] == {"played": 3, "player": 0, KIWIBOT: 2, "ties": 1}
    summary = SimReport(records).summary()
    # the seat win rate follows the engine's seats: Kiwibot sat first in these records
    assert summary["win_rate"]["seat"]["1"]["wins"] == 1 and summary["win_rate"]["seat"]["2"]["wins"] == 2
    assert summary["mean_vp"]["solo"] == pytest.approx(1.0)
