"""Paired A/B statistics (interpreter/analysis/abtest.py): pairing, intervals, verdicts, focus order, games needed."""
from __future__ import annotations

import math

import pytest

from kcd.analysis.abtest import (HIGHER, LOWER, NO_CHANGE, compare, default_label, entity_names, games_needed,
                                outcomes)
from kcd.content import load_ruleset
from kcd.analysis.sim import GameRecord, simulate, wilson


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def _rec(seed: int, winner: str, *, seats=("red", "green"), vp=None, cards=None, sides=None, leaders=None,
         nests=None, **extra) -> dict:
    """A to_dict()-form record of a 2-flock game won by `winner`."""
    seats = list(seats)
    ranking = [winner] + [f for f in seats if f != winner]
    vp = vp or {f: (10 if f == winner else 5) for f in seats}
    return {"seed": seed, "players": seats, "seats": seats, "ranking": ranking, "decisions": 100,
            "leaders": leaders or {seats[0]: "kahu", seats[1]: "ruru"},
            "sides": sides or {f: "A" for f in seats}, "bots": ["greedy", "random"],
            "scores": {f: {"domain": vp[f], "nests": 0, "season_cards": 0, "total": vp[f]} for f in seats},
            "season_cards": cards or [], **({"nests": nests} if nests is not None else {}), **extra}


def test_identical_runs_show_no_detectable_change_with_an_honest_interval():
    records = [_rec(s, "red" if s % 3 else "green") for s in range(60)]
    report = compare(records, records)
    assert report.pairs == 60
    assert report.changed() == []
    row = report.row("flock", "red")
    assert row.verdict == NO_CHANGE and row.diff == 0 and row.n == 60
    # every paired difference is 0: the Wilson-style fallback, not a zero-width interval
    half = wilson(0, 60)[1]
    assert row.low == pytest.approx(-half) and row.high == pytest.approx(half) and half > 0.05
    assert "No detectable change in any win rate over 60 paired games" in report.summary_text()


def test_a_real_change_is_detected_with_its_direction():
    a = [_rec(s, "green" if s % 4 else "red") for s in range(80)]       # red wins 25%
    b = [_rec(s, "red" if s % 4 else "green") for s in range(80)]       # red wins 75%
    report = compare(a, b)
    red, green = report.row("flock", "red"), report.row("flock", "green")
    assert red.a == pytest.approx(0.25) and red.b == pytest.approx(0.75) and red.diff == pytest.approx(0.5)
    assert red.verdict == HIGHER and red.low > 0.3
    assert green.verdict == LOWER and green.high < -0.3
    text = report.summary_text()
    assert "Detectable changes over 80 paired games" in text and "Red" not in text  # no names given: keys
    assert "Flock red win rate: 25.0% -> 75.0%" in text


def test_normal_interval_on_the_paired_differences():
    # 10 pairs: red's result changes to a win in 3 games and to a loss in 1; the rest agree
    a = [_rec(s, "green" if s < 3 else "red" if s == 3 else ("red" if s % 2 else "green")) for s in range(10)]
    b = [_rec(s, "red" if s < 3 else "green" if s == 3 else ("red" if s % 2 else "green")) for s in range(10)]
    row = compare(a, b).row("flock", "red")
    diffs = [1, 1, 1, -1] + [0] * 6
    mean = sum(diffs) / 10
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / 9)
    assert row.diff == pytest.approx(mean) and row.sd == pytest.approx(sd)
    assert row.low == pytest.approx(mean - 1.96 * sd / math.sqrt(10))
    assert row.high == pytest.approx(mean + 1.96 * sd / math.sqrt(10))
    assert row.verdict == NO_CHANGE     # 0.2 +- 0.39: holds zero


def test_unpaired_records_raise_naming_the_seed():
    a = [_rec(s, "red") for s in range(5)]
    with pytest.raises(ValueError, match="seed 4 .* is in A but not in B"):
        compare(a, a[:4])
    with pytest.raises(ValueError, match="seed 7 .* is in B but not in A"):
        compare(a, a + [_rec(7, "red")])
    swapped = a[:4] + [_rec(4, "red", seats=("green", "red"))]
    with pytest.raises(ValueError, match="seed 4 .*B has it with seats green, red"):
        compare(a, swapped)
    with pytest.raises(ValueError, match="seed 1 .*appears twice"):
        compare(a + [a[1]], a)


def test_focus_rows_come_first_and_are_marked():
    a = [_rec(s, "red") for s in range(20)]
    report = compare(a, a, focus=("leader:ruru", "flock:green"))
    assert [r.id for r in report.rows[:2]] == ["leader:ruru", "flock:green"]
    assert report.rows[0].focus and report.rows[1].focus and not report.rows[2].focus
    assert report.summary_text().startswith("Your edited items:")
    # the rest follow the group order: seat rows before flock rows, seats by number
    rest = [r.group for r in report.rows[2:]]
    assert rest.index("seat") < rest.index("flock") < rest.index("vp")


def test_means_sides_season_cards_and_nests():
    cards = [{"season": 1, "id": "most-nests", "victor": "red", "values": {}}]
    a = [_rec(s, "red", cards=cards, sides={"red": "B", "green": "A"}, nests={"red": ["tree-1"], "green": []})
         for s in range(30)]
    b = [_rec(s, "red", cards=cards, sides={"red": "B", "green": "A"},
              vp={"red": 12, "green": 5}, nests={"red": ["tree-1", "cave-1"], "green": ["tree-1"]})
         for s in range(30)]
    report = compare(a, b)
    total = report.row("vp", "total")
    assert total.kind == "mean" and total.a == pytest.approx(7.5) and total.b == pytest.approx(8.5)
    assert total.verdict == HIGHER and total.low == total.high == pytest.approx(1.0)  # every game moved by 1
    assert report.row("side", "B").a == 1.0 and report.row("side", "A").a == 0.0
    assert report.row("season_card", "most-nests").a == 1.0    # its victor won every game
    # a Nest never built on A counts 0 there, so the pair exists
    cave = report.row("nest", "cave-1")
    assert cave.a == 0.0 and cave.b == 1.0 and cave.n == 30
    assert report.row("nest", "tree-1").diff == pytest.approx(1.0)


def test_records_and_dicts_give_the_same_report():
    dicts = [_rec(s, "red" if s % 2 else "green") for s in range(12)]
    records = [GameRecord(**{k: v for k, v in d.items() if k in GameRecord.__dataclass_fields__}) for d in dicts]
    assert compare(dicts, records).rows == compare(records, dicts).rows


def test_games_needed():
    assert games_needed(0.05) == math.ceil(((1.96 + 0.84) * math.sqrt(0.5) / 0.05) ** 2) == 1568
    assert games_needed(0.10, 0.5) == math.ceil((2.8 * 0.5 / 0.1) ** 2) == 196
    assert games_needed(0.10, 0.5) < games_needed(0.05, 0.5)
    for bad in (0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="effect must be a positive"):
            games_needed(bad)
    with pytest.raises(ValueError, match="sd must be"):
        games_needed(0.05, -1.0)


def test_readable_labels_from_content(ruleset):
    names = entity_names(ruleset)
    assert names["flock:red"] == "Red Flock"
    assert names["leader_card:kahu-2"].endswith("(Kahu)")
    assert default_label("flock", "red", names) == "Red Flock win rate"
    assert default_label("leader", "kahu", names) == "Leader Kahu win rate"
    assert default_label("seat", "2") == "Seat 2 win rate"
    assert default_label("season_card", "most-nests", names) == "Season card Most nests: its winner wins the game"
    assert default_label("vp", "season_cards") == "VP from Season cards (mean per flock)"
    assert "season_cards" not in default_label("vp", "season_cards")


def test_same_content_played_twice_is_exactly_the_same_games(ruleset):
    """Real games: the same seeds under unchanged content pair up and differ nowhere."""
    a = simulate(ruleset, 4, players=2, seed=3, bots=("random",)).records
    b = simulate(ruleset, 4, players=2, seed=3, bots=("random",)).records
    report = compare(a, b, names=entity_names(ruleset))
    assert report.pairs == 4 and all(r.diff == 0 for r in report.rows)
    assert report.row("flock", "red").label == "Red Flock win rate"
    assert set(outcomes(a[0])) >= {("seat", "1"), ("flock", "red"), ("vp", "total"), ("length", "decisions")}


def _edited_copy(tmp_path, file: str, old: str, new: str):
    import shutil
    from pathlib import Path

    root = tmp_path / "content"
    shutil.copytree(Path(__file__).resolve().parent.parent / "content", root)
    path = root / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return load_ruleset(root=root)


def test_changed_entities_name_what_an_edit_touched(ruleset, tmp_path):
    from kcd.analysis.abtest import changed_entities

    assert changed_entities(ruleset, ruleset) == []
    side_b = _edited_copy(tmp_path, "base/flocks/red.yaml", "{slot: 7, benefit: gain 2 fruit, source: \"designed: loose",
                          "{slot: 7, benefit: gain 3 fruit, source: \"designed: loose")
    assert changed_entities(ruleset, side_b) == ["flock:red", "side:B"]


def test_run_ab_pairs_the_same_games_and_counts_progress(ruleset):
    from kcd.analysis.abtest import run_ab

    seen: list[tuple[int, int]] = []
    records_a, records_b, report = run_ab(ruleset, ruleset, 4, players=2, seed=9, bots=("random",), cover=True,
                                          progress=lambda done, total: seen.append((done, total)))
    assert [r.seed for r in records_a] == [r.seed for r in records_b] == [9, 10, 11, 12]
    assert records_a == records_b and report.pairs == 4 and report.changed() == []
    assert seen[-1] == (8, 8) and seen[0] == (1, 8)
    assert report.focus == ()     # the same content: nothing edited
