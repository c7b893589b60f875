"""Positions: hand-written YAML in, the engine's own analysis out (`kcd position`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kcd.apps.cli.main import app
from kcd.analysis.position import PositionError, analyse, load_position

POSITIONS = Path(__file__).parent / "golden" / "positions"
runner = CliRunner()


def _write(tmp_path: Path, text: str, name: str = "pos.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _errors(path: Path) -> str:
    with pytest.raises(PositionError) as info:
        load_position(path)
    return "\n".join(d.format() for d in info.value.diagnostics)


def test_R_DOM_1_R_DOM_2_rulebook_dominance_example() -> None:
    """Purple 6 (two size-1, a size-2, a Control Nest) beats red 5 (two size-1 + Leader), yellow 2, green 1."""
    analysis = analyse(load_position(POSITIONS / "dominance_example.yaml"))
    hex_a = analysis["hexes"]["A"]
    assert hex_a["terrain"] == "mountain"
    assert hex_a["strength"] == {"purple": 6, "red": 5, "yellow": 2, "green": 1}
    assert hex_a["dominant"] == "purple"
    assert "B" not in analysis["hexes"] or analysis["hexes"]["B"]["dominant"] is None


def test_R_DOM_1_final_marking_examples_ties_give_nobody() -> None:
    """Final Domain Marking examples: sole presence dominates, Control Nest (R-BUILD-5) wins C, D and E tie."""
    hexes = analyse(load_position(POSITIONS / "final_marking.yaml"))["hexes"]
    assert hexes["A"]["dominant"] == "red"
    assert hexes["C"]["strength"] == {"red": 3, "green": 2}
    assert hexes["C"]["dominant"] == "red"
    assert hexes["D"]["strength"] == {"red": 4, "green": 4}       # Leader 3 + 1 vs 2 + Control Nest 2
    assert hexes["D"]["dominant"] is None
    assert hexes["E"]["strength"] == {"red": 2, "yellow": 2}
    assert hexes["E"]["dominant"] is None


def test_R_END_2_R_END_3_scoring_example_vp_tiebreak_ranking() -> None:
    """Scoring example: red 3 (markers), green 2 + 2 second-row Nests, yellow 3 + 1 Nest + 1 Season card VP."""
    analysis = analyse(load_position(POSITIONS / "scoring_example.yaml"))
    flocks = analysis["flocks"]
    assert flocks["red"]["vp"] == {"domain": 3, "nests": 0, "season_cards": 0, "total": 3}
    assert flocks["green"]["vp"] == {"domain": 2, "nests": 2, "season_cards": 0, "total": 4}
    assert flocks["yellow"]["vp"] == {"domain": 3, "nests": 1, "season_cards": 1, "total": 5}
    assert analysis["ranking"] == ["yellow", "green", "red"]
    # [size-3, size-2, size-1 Kiwi on the island, unused domain markers]
    assert flocks["red"]["tiebreak"] == [1, 1, 1, 2]
    assert flocks["green"]["tiebreak"] == [0, 1, 2, 0]
    assert flocks["yellow"]["tiebreak"] == [1, 1, 4, 1]


def test_R_SCARD_1_R_SCARD_2_season_card_values_and_tie(tmp_path: Path) -> None:
    """most-flower: each flock's value; a tie for the best has no victor; a clear best is the victor."""
    card = analyse(load_position(POSITIONS / "scoring_example.yaml"))["season_card"]
    assert card == {"id": "most-flower", "values": {"red": 2, "green": 2, "yellow": 1}, "victor": None}
    path = _write(tmp_path, """
players: [purple, red]
season_card: most-flower
island:
  - {id: A, q: 0, r: 0, terrain: flower}
  - {id: B, q: 1, r: 0, terrain: grass}
hexes:
  A: {kiwi: {purple: [1, 2], red: [1]}}
  B: {kiwi: {red: [3]}, leaders: [red]}
""")
    card = analyse(load_position(path))["season_card"]
    assert card == {"id": "most-flower", "values": {"purple": 3, "red": 1}, "victor": "purple"}


def test_R_SCARD_4_leader_counts_three_for_objectives(tmp_path: Path) -> None:
    """A Leader counts as 3 tokens for Season card conditions."""
    path = _write(tmp_path, """
players: [purple, red]
season_card: most-flower
island:
  - {id: A, q: 0, r: 0, terrain: flower}
hexes:
  A: {kiwi: {purple: [2]}, leaders: [red]}
""")
    card = analyse(load_position(path))["season_card"]
    assert card["values"] == {"purple": 2, "red": 3}
    assert card["victor"] == "red"


def test_R_END_3_tiebreak_orders_equal_totals(tmp_path: Path) -> None:
    """Equal VP: more size-3 Kiwi ranks first, then unused markers decide when Kiwi are equal."""
    path = _write(tmp_path, """
players: [red, green, yellow]
island:
  - {id: A, q: 0, r: 0, terrain: flower}
  - {id: B, q: 1, r: 0, terrain: grass}
  - {id: C, q: 2, r: 0, terrain: sand}
hexes:
  A: {kiwi: {red: [1, 1]}}
  B: {kiwi: {green: [3]}}
  C: {kiwi: {yellow: [1, 1]}}
flocks:
  yellow: {domain_reserve: [sand]}
""")
    analysis = analyse(load_position(path))
    assert analysis["ranking"] == ["green", "yellow", "red"]
    assert analysis["flocks"]["yellow"]["tiebreak"] == [0, 0, 2, 1]


def test_position_layout_from_content(tmp_path: Path) -> None:
    """`layout: 3p` takes the island from content; hexes refer to its ids."""
    from kcd.content import load_ruleset

    rs = load_ruleset()
    layout = next(item for item in rs.items("layouts") if item.data.get("players") == 3)
    section = rs.item("sections", layout.data["sections"][0]["section"])
    hex_id = section.data["hexes"][0]["id"]
    path = _write(tmp_path, f"""
players: [red, green, yellow]
layout: {layout.id}
hexes:
  {hex_id}: {{kiwi: {{red: [2, 1]}}}}
""")
    analysis = analyse(load_position(path))
    assert analysis["hexes"][hex_id]["strength"] == {"red": 3}
    assert analysis["hexes"][hex_id]["dominant"] == "red"
    assert len(load_position(path).state.hexes) == sum(
        len(rs.item("sections", s["section"]).data["hexes"]) for s in layout.data["sections"])


def test_position_state_accounts_for_every_token(tmp_path: Path) -> None:
    """R-COMP-1/2: the built state keeps 20 tokens per flock and 56 fruit / markers across bags and players."""
    game = load_position(POSITIONS / "scoring_example.yaml")
    state = game.state
    for flock in state.seats:
        f = state.flocks[flock]
        assert state.island_tokens(flock) + f.track + f.reserve_kiwi + f.covers + f.supply == 20
    assert state.flocks["red"].covers == 3 and state.flocks["red"].track == 8
    assert sum(state.fruit_bag.values()) + sum(sum(f.fruit.values()) for f in state.flocks.values()) == 56
    placed = sum(1 for h in state.hexes.values() if h.domain)
    assert sum(state.domain_bag.values()) + sum(len(f.domain) for f in state.flocks.values()) + placed == 56


def test_Z_5_prototype_edition_overlay_changes_nest_vp(tmp_path: Path) -> None:
    """`edition: [base, prototype]`: only the second-row Cave Nest scores (Z-5), bags hold 48/44 (Z-1)."""
    text = (POSITIONS / "scoring_example.yaml").read_text(encoding="utf-8")
    path = _write(tmp_path, "edition: [base, prototype]\n" + text)
    game = load_position(path)
    flocks = analyse(game)["flocks"]
    assert flocks["green"]["vp"]["nests"] == 1     # cave-2 only
    assert flocks["yellow"]["vp"]["nests"] == 0
    state = game.state
    assert sum(state.fruit_bag.values()) + sum(sum(f.fruit.values()) for f in state.flocks.values()) == 48


def test_position_plays_on_to_the_end() -> None:
    """A loaded position is a live game: it starts at the Actions phase of its season and bots finish it."""
    from kcd.analysis.bots import RandomBot

    game = load_position(POSITIONS / "scoring_example.yaml")
    assert (game.state.season, game.state.phase) == (4, "actions")
    assert game.pending is not None and game.pending.player == "red"
    bot = RandomBot(1)
    while not game.is_over:
        assert game.apply(bot.choose(game)).ok
    assert sorted(game.ranking()) == ["green", "red", "yellow"]
    assert game.scores()["yellow"]["season_cards"] == 1


def test_position_cli_json_shape() -> None:
    """`kcd position FILE --json` prints exactly the contract's keys."""
    result = runner.invoke(app, ["position", str(POSITIONS / "scoring_example.yaml"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"hexes", "flocks", "ranking", "season_card"}
    assert set(data["hexes"]["A1"]) >= {"terrain", "strength", "dominant"}
    assert set(data["flocks"]["red"]) >= {"vp", "tiebreak"}
    assert set(data["season_card"]) == {"id", "values", "victor"}


def test_position_cli_table() -> None:
    """Without --json a readable table."""
    result = runner.invoke(app, ["position", str(POSITIONS / "dominance_example.yaml")])
    assert result.exit_code == 0, result.output
    assert "purple" in result.stdout and "mountain" in result.stdout


def test_position_without_season_card_has_no_season_card_key() -> None:
    """`season_card` appears only when the position names one."""
    assert "season_card" not in analyse(load_position(POSITIONS / "dominance_example.yaml"))


BAD = [
    ("unknown flock", """players: [purple, pink]
island: [{id: A, q: 0, r: 0, terrain: flower}]
""", "pos.yaml:1:19: error[id-unknown]: unknown flock `pink`"),
    ("size 4", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
hexes:
  A: {kiwi: {purple: [1, 4]}}
""", "pos.yaml:4:26: error[position]: a Kiwi size must be between 1 and 3, got 4"),
    ("hex not on the island", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
hexes:
  Z9: {kiwi: {purple: [1]}}
""", "pos.yaml:4:3: error[position]: hex `Z9` is not on the island"),
    ("unknown season card", """players: [purple]
season_card: most-flowers
island: [{id: A, q: 0, r: 0, terrain: flower}]
""", "pos.yaml:2:14: error[id-unknown]: unknown Season card `most-flowers`"),
    ("bad yaml", """players: [purple
island: []
""", "pos.yaml:2:7: error[yaml-syntax]"),
    ("unsafe yaml", """players: !!python/object/apply:os.system [echo hi]
""", "pos.yaml:1:10: error[yaml-unsafe]: tag `!!python/object/apply:os.system` is not allowed"),
    ("unknown field", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
seasn: 2
""", "pos.yaml:3:1: error[schema]: unknown field `seasn` in a position"),
    ("flock not playing", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
hexes:
  A: {kiwi: {red: [1]}}
""", "pos.yaml:4:14: error[position]: flock `red` is not one of the players"),
    ("two leaders", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}, {id: B, q: 1, r: 0, terrain: sand}]
hexes:
  A: {leaders: [purple]}
  B: {leaders: [purple]}
""", "pos.yaml:5:17: error[position]: the Leader of `purple` is already on the island"),
    ("too many tokens", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
hexes:
  A: {kiwi: {purple: [3, 3, 3, 3, 3, 3, 3]}}
""", "error[position]: `purple` has 21 Kiwi tokens on the island"),
    ("unknown nest", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
hexes:
  A: {nest: {purple: control-3}}
""", "pos.yaml:4:22: error[id-unknown]: unknown Nest `control-3`"),
    ("unknown edition", """edition: [base, prototyp]
players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
""", "pos.yaml:1:17: error[id-unknown]: unknown edition or mod `prototyp`"),
    ("season out of range", """players: [purple]
season: 5
island: [{id: A, q: 0, r: 0, terrain: flower}]
""", "pos.yaml:2:9: error[position]: `season` must be between 1 and 4, got 5"),
    ("fruit over the limit", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
flocks:
  purple: {fruit: {red: 6, blue: 5}}
""", "pos.yaml:4:19: error[position]: `purple` holds 11 fruit; the limit is 10"),
    ("marker of another terrain in reserve", """players: [purple]
island: [{id: A, q: 0, r: 0, terrain: flower}]
flocks:
  purple: {domain_reserve: [flower, lava]}
""", "pos.yaml:4:37: error[id-unknown]: unknown terrain `lava`"),
]


@pytest.mark.parametrize("name,text,expected", BAD, ids=[b[0] for b in BAD])
def test_invalid_position_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str,
                                        expected: str) -> None:
    """Every invalid position gives `file:line:col` and what is wrong, never a traceback (CLI exit 1)."""
    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, text)
    assert expected in _errors(path)
    result = runner.invoke(app, ["position", str(path), "--json"])
    assert result.exit_code == 1
    assert expected in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_missing_position_file(tmp_path: Path) -> None:
    """A missing file is a usage error on the command line (exit 2, as for `kcd validate`); the library still
    gives a located error."""
    result = runner.invoke(app, ["position", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2
    assert "kcd position: error: no such position file:" in result.output
    assert "nope.yaml:1:1: error[position]: cannot read the position" in _errors(tmp_path / "nope.yaml")
