"""Sequential A/B (interpreter/analysis/abtest.py): as many paired games as the question needs, on a whole change.
Batches are played until the 95% interval on the main effect is narrower than the width asked for (never
before MIN_PAIRS pairs), or a cap, which then says about how many games would do; the stopping rule looks at the
width only. A whole change (a Season card, R-SCARD-5, and a Nest, R-BUILD-4) is compared as one content set."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from kcd.analysis.abtest import (MIN_PAIRS, RATE, games_for_width, main_row, run_ab_until, until_narrow, width_of,
                                compare)
from kcd.content import load_ruleset
from test_abtest import _rec

REPO = Path(__file__).resolve().parent.parent


def coin_play(flip: float, seed: int = 1):
    """A play function over synthetic records: red wins half the A games; B's winner differs with chance `flip`."""
    rng = random.Random(seed)

    def play(first: int, games: int):
        a, b = [], []
        for game in range(first, first + games):
            won = rng.choice(["red", "green"])
            other = "green" if won == "red" else "red"
            a.append(_rec(game, won))
            b.append(_rec(game, other if rng.random() < flip else won))
        return a, b
    return play


def test_games_for_width_is_the_normal_interval_solved_for_n():
    assert games_for_width(0.10) == 769          # (2 * 1.96 * sqrt(0.5) / 0.10)^2 = 768.3
    assert games_for_width(0.10, sd=0.3) == 139  # paired games that share their luck need far fewer
    assert games_for_width(2.0, sd=0.1) == MIN_PAIRS
    with pytest.raises(ValueError, match="positive interval width"):
        games_for_width(0)


def test_stops_once_the_main_interval_is_narrow_enough():
    looks = []
    done = until_narrow(coin_play(0.2), 0.30, main="flock:red", batch=10, max_games=2000, on_batch=looks.append)
    row = done.report.row("flock", "red")
    assert done.reached and width_of(row) <= 0.30 and done.main == "flock:red"
    assert row.n >= MIN_PAIRS and done.report.pairs % 10 == 0
    assert all(not look.reached for look in looks[:-1]) and looks[-1] is done   # stopped at the first look that did
    wider = [look for look in looks if look.report.pairs >= MIN_PAIRS][:-1]
    assert all(width_of(look.report.row("flock", "red")) > 0.30 for look in wider)
    narrower = until_narrow(coin_play(0.2), 0.15, main="flock:red", batch=10, max_games=2000)
    assert narrower.reached and narrower.report.pairs > done.report.pairs     # a sharper question, more games
    assert "Stopped after" in done.summary_text() and "narrower than the 30.0 points asked for" in done.summary_text()


def test_a_cap_says_how_many_games_would_do():
    capped = until_narrow(coin_play(0.5), 0.05, main="flock:red", batch=20, max_games=60)
    assert not capped.reached and capped.report.pairs == 60
    row = capped.report.row("flock", "red")
    assert capped.needed == games_for_width(0.05, row.sd) and capped.needed > 60
    assert f"about {capped.needed} paired games would reach it" in capped.summary_text()
    assert capped.to_dict()["sequential"] == {"main": "flock:red", "width": 0.05, "reached": False,
                                              "needed": capped.needed}


def test_no_change_at_all_needs_the_wilson_bound_to_shrink():
    # every paired difference 0: the interval is the Wilson bound, about 2 * 3.8 / n wide (module doc)
    done = until_narrow(coin_play(0.0), 0.20, main="flock:red", batch=10, max_games=500)
    assert done.reached and done.report.row("flock", "red").diff == 0
    assert 30 <= done.report.pairs <= 40


def test_main_row_defaults_to_the_first_edited_win_rate():
    records_a = [_rec(i, "red", cards=[{"id": "most-nests", "victor": "red"}]) for i in range(4)]
    report = compare(records_a, records_a, focus=["nest:tree-1", "season_card:most-nests"])
    assert main_row(report).id == "season_card:most-nests" and main_row(report).kind == RATE
    assert main_row(report, "flock:green").id == "flock:green"
    assert main_row(compare(records_a, records_a)).id == "seat:1"
    rare = [_rec(i, "red", cards=[{"id": "most-nests", "victor": "red" if i == 0 else None}]) for i in range(4)]
    assert main_row(compare(rare, rare, focus=["season_card:most-nests"])).id == "seat:1"   # measured once in 4


@pytest.fixture(scope="module")
def whole_change(tmp_path_factory):
    """Base content, and a copy with a Season card and a Nest changed in one go (two files)."""
    root = tmp_path_factory.mktemp("change") / "content"
    shutil.copytree(REPO / "content", root)
    for rel, old, new in (("base/season_cards.yaml", "victor: gain 1 vp", "victor: gain 3 vp"),
                          ("base/nests.yaml", "on_place: gain 1 fruit", "on_place: gain 2 fruit")):
        text = (root / rel).read_text()
        assert old in text
        (root / rel).write_text(text.replace(old, new, 1))
    return load_ruleset(), load_ruleset(root=root)


def test_run_ab_until_compares_a_whole_change_on_real_games(whole_change):
    base, changed = whole_change
    seen: list[tuple[int, int]] = []
    done = run_ab_until(base, changed, 0.9, batch=16, max_games=64, players=2, bots=("random",), seed=5,
                        progress=lambda d, t: seen.append((d, t)))
    assert done.report.focus[:2] == ("season_card:most-nests", "nest:tree-1")   # both parts of the change
    row = done.report.row(*done.main.split(":"))
    assert done.main in done.report.focus or done.main == "seat:1"
    if done.reached:
        assert width_of(row) <= 0.9 and row.n >= MIN_PAIRS and done.report.pairs in (32, 48, 64)
    else:
        assert done.report.pairs == 64 and done.needed > 64
    n = done.report.pairs
    assert [r.seed for r in done.records_a] == [r.seed for r in done.records_b] == list(range(5, 5 + n))
    assert seen[-1] == (2 * n, 128)
    nests = run_ab_until(base, changed, 0.9, main="nest:tree-1", batch=16, max_games=64, players=2,
                         bots=("random",), seed=5)
    assert nests.main == "nest:tree-1" and nests.report.row("nest", "tree-1").kind == "mean"


def test_kcd_balance_until_width_plays_as_many_games_as_the_question_needs(tmp_path):
    import json

    from typer.testing import CliRunner

    from kcd.apps.cli.main import app

    edited = tmp_path / "content"
    shutil.copytree(REPO / "content", edited)
    for rel, old, new in (("base/season_cards.yaml", "victor: gain 1 vp", "victor: gain 3 vp"),
                          ("base/nests.yaml", "on_place: gain 1 fruit", "on_place: gain 2 fruit")):
        text = (edited / rel).read_text()
        (edited / rel).write_text(text.replace(old, new, 1))
    run = CliRunner()
    result = run.invoke(app, ["balance", "--players", "2", "--bots", "random", "--content", str(edited),
                              "--against", str(REPO / "content"), "--until-width", "0.8", "--games", "80",
                              "--main", "seat:1", "--json"])
    assert result.exit_code == 0, result.output
    ab = json.loads(result.stdout)["ab"]
    assert ab["focus"][:2] == ["season_card:most-nests", "nest:tree-1"]
    assert ab["sequential"]["main"] == "seat:1" and ab["sequential"]["width"] == 0.8
    assert ab["pairs"] in (40, 60, 80) and (ab["sequential"]["reached"] or ab["pairs"] == 80)
    plain = run.invoke(app, ["balance", "--players", "2", "--bots", "random", "--content", str(edited),
                             "--against", str(REPO / "content"), "--until-width", "0.8", "--games", "80"])
    assert plain.exit_code == 0 and ("Stopped after" in plain.stdout or "Stopped at the cap" in plain.stdout)
    bad = run.invoke(app, ["balance", "--players", "2", "--against", str(REPO / "content"), "--until-width", "0.5",
                           "--main", "red"])
    assert bad.exit_code == 2 and "--main: `red` is not GROUP:ID" in bad.stderr
