"""Rules loose ends: the solo VP tie (R-SOLO-1/6 and the solo Objective) and one notion of dominance
per purpose (Z-4)."""
from __future__ import annotations

from pathlib import Path

from test_engine_support import ruleset

from kcd.engine import Game
from kcd.engine.scoring import ranking, score, tiebreak
from kcd.core.state import Kiwi
from kcd.analysis.sim import GameRecord, solo_summary

PLAYER, BOT = "green", "red"


def _tied_solo_state() -> Game:
    """A solo game whose final totals are equal while every R-END-3 tiebreaker favours the player."""
    game = Game.new(ruleset(), players=[PLAYER, BOT], seed=3, mode="solo")
    st = game.state
    for h in list(st.hexes.values()):
        st.set_kiwi(h.id, [k for k in h.kiwi if k.flock != BOT])      # Kiwibot: no Kiwi at all on the island
        st.set_domain(h.id, None)
    some_hex = next(iter(st.hexes))
    st.add_kiwi(some_hex, Kiwi(9999, PLAYER, 3))                     # the player: a size-3 Kiwi
    st.flocks[BOT].domain = []
    st.flocks[BOT].kept_season_cards = []
    st.flocks[BOT].nests_built = []
    st.flocks[PLAYER].nests_built = []
    st.flocks[PLAYER].season_vp = 5
    st.flocks[BOT].season_vp = 5
    return game


def test_R_SOLO_6_a_vp_tie_is_kiwibots_not_the_tiebreakers() -> None:
    """The solo objective is MORE Victory Points than Kiwibot (rulebook "Objective"; R-SOLO-1, R-SOLO-6): with equal
    totals Kiwibot ranks first although the R-END-3 tiebreakers favour the player; one VP more and the player wins."""
    game = _tied_solo_state()
    st = game.state
    totals = {f: s["total"] for f, s in score(st).items()}
    assert totals[PLAYER] == totals[BOT]
    assert tiebreak(st, PLAYER) > tiebreak(st, BOT)
    assert ranking(st)[0] == BOT and game.ranking() == [BOT, PLAYER]
    st.flocks[PLAYER].season_vp += 1
    assert game.ranking() == [PLAYER, BOT]
    st.flocks[PLAYER].season_vp -= 2
    assert game.ranking() == [BOT, PLAYER]


def test_R_SOLO_6_the_simulator_counts_a_vp_tie_as_kiwibots_win() -> None:
    """The simulator's player-vs-Kiwibot count takes the engine's solo ranking: a tied game is a Kiwibot win."""
    game = _tied_solo_state()
    scores = game.scores()
    record = GameRecord(seed=3, players=[PLAYER, BOT], leaders={}, sides={}, scores=scores,
                        ranking=game.ranking(), decisions=0, season_cards=[], mode="solo", kiwibot=BOT,
                        seats=list(game.state.seats), bots=["random", "kiwibot"])
    summary = solo_summary([record])
    assert summary["player"]["wins"] == 0 and summary["kiwibot"]["wins"] == 1


def test_R_END_3_standard_games_still_use_the_tiebreakers() -> None:
    """Outside solo mode a VP tie goes to the R-END-3 tiebreakers, as before."""
    game = Game.new(ruleset(), players=[PLAYER, BOT], seed=3)
    st = game.state
    for h in list(st.hexes.values()):
        st.set_kiwi(h.id, [k for k in h.kiwi if k.flock != BOT])
    for f in (PLAYER, BOT):
        st.flocks[f].season_vp = 5
    assert score(st)[PLAYER]["total"] == score(st)[BOT]["total"]
    assert game.ranking()[0] == PLAYER


Z4_POSITION = """\
edition: [base, prototype]
players: [red, green]
island:
  - {id: A, q: 0, r: 0, terrain: mountain}
  - {id: B, q: 1, r: 0, terrain: flower}
season_card: most-dominance
hexes:
  A:
    kiwi: {red: [1], green: [2]}
    leaders: [red]
  B:
    kiwi: {green: [1]}
"""


def _z4(tmp_path: Path, edition: str = "[base, prototype]") -> dict:
    from kcd.analysis.position import analyse, load_position

    path = tmp_path / "z4.yaml"
    path.write_text(Z4_POSITION.replace("[base, prototype]", edition), encoding="utf-8")
    return analyse(load_position(path))


def test_Z_4_position_reports_dominance_per_purpose_where_the_edition_makes_them_differ(tmp_path: Path) -> None:
    """Z-4: in the prototype the Leader counts 1 for building and marking, 3 in the general figure; `kcd position`
    keeps `strength`/`dominant` as the general figure and adds `by_purpose` with the figures each purpose uses."""
    hexes = _z4(tmp_path)["hexes"]
    a = hexes["A"]
    assert a["strength"] == {"red": 4, "green": 2} and a["dominant"] == "red"        # Leader 3 (R-DOM-2)
    assert set(a["by_purpose"]) == {"build", "marking"}   # the Season card counts the Leader 3 (R-LEAD-1)
    for purpose in ("build", "marking"):
        assert a["by_purpose"][purpose] == {"strength": {"red": 2, "green": 2}, "dominant": None}   # Leader 1: tie
    assert hexes["B"]["by_purpose"]["marking"] == {"strength": {"green": 1}, "dominant": "green"}


def test_Z_4_R_LEAD_1_the_dominated_hexes_season_card_counts_the_leader_3(tmp_path: Path) -> None:
    """R-SCARD-5 "most hexes with dominance" uses game.yaml `season_cards.dominated_hexes` (objective): a Season card
    counts a Leader 3 (R-SCARD-4, R-LEAD-1), so in the prototype too hex A is red's for the card (Z-4's Leader of 1
    names only building and marking); each has one hex and the card is tied, as in the base game."""
    proto = _z4(tmp_path)
    assert proto["season_card"]["values"] == {"red": 1, "green": 1} and proto["season_card"]["victor"] is None
    base = _z4(tmp_path, "[base]")
    assert "by_purpose" not in base["hexes"]["A"]                     # the purposes agree: no extra figures
    assert base["season_card"]["values"] == {"red": 1, "green": 1} and base["season_card"]["victor"] is None


def test_Z_4_R_LEAD_1_the_card_counts_the_general_figure_marking_the_prototypes(tmp_path: Path) -> None:
    """One notion per purpose: the hexes the card counts for a flock are those the general (objective) figure gives it,
    the Leader 3; in the prototype marking counts the Leader 1 (Z-4), so there A is nobody's."""
    from kcd.core import dominance
    from kcd.analysis.position import load_position

    path = tmp_path / "z4.yaml"
    path.write_text(Z4_POSITION, encoding="utf-8")
    state = load_position(path).state
    for flock in ("red", "green"):
        general = sum(1 for h in state.hexes if dominance.dominant(state, h, "objective") == flock)
        assert _z4(tmp_path)["season_card"]["values"][flock] == general
    assert dominance.dominant(state, "A", "objective") == "red" and dominance.dominant(state, "A", "marking") is None


def test_position_cli_prints_the_per_purpose_columns(tmp_path: Path) -> None:
    """The table output shows the per-purpose figures too."""
    from typer.testing import CliRunner

    from kcd.apps.cli.main import app

    path = tmp_path / "z4.yaml"
    path.write_text(Z4_POSITION, encoding="utf-8")
    result = CliRunner().invoke(app, ["position", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "marking (strength: dominant)" in result.output and "red 2, green 2: -" in result.output
