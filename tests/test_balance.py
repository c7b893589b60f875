"""Balance reports (interpreter/analysis/balance.py, balance_html.py, `kcd balance`): figures, fair band, flags, HTML, A/B."""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kcd.analysis.balance import balance_report, band_rule, games_for_cover
from kcd.analysis.balance_html import render
from kcd.apps.cli.main import app
from kcd.content import load_ruleset
from kcd.analysis.sim import simulate

runner = CliRunner()
REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


@pytest.fixture(scope="module")
def covered(ruleset):
    """16 random 4-player Variable Turn Order games with the cover design, and their report."""
    records = simulate(ruleset, 16, players=4, seed=2, bots=("random",), cover=True, variant="vto", jobs=2).records
    return records, balance_report(records, ruleset)


def _rec(seed: int, winner: str, seats=("red", "green"), cards=None, nests=None, sides=None) -> dict:
    ranking = [winner] + [f for f in seats if f != winner]
    return {"seed": seed, "players": list(seats), "seats": list(seats), "ranking": ranking, "decisions": 90,
            "leaders": {seats[0]: "kahu", seats[1]: "ruru"}, "leader_cards": {seats[0]: "kahu-1", seats[1]: "ruru-2"},
            "sides": sides or {f: "A" for f in seats}, "bots": ["greedy", "greedy"],
            "scores": {f: {"domain": 6 if f == winner else 3, "nests": 1, "season_cards": 0,
                           "total": 7 if f == winner else 4} for f in seats},
            "season_cards": cards or [], "nests": nests or {f: [] for f in seats}, "tracker_slots": {}}


def test_a_dominant_flock_is_flagged_with_its_evidence(ruleset):
    # red wins 80 of 100 two-player games; seats alternate, so the seats stay fair
    records = [_rec(i, "red" if i % 5 else "green", seats=("red", "green") if i % 2 else ("green", "red"))
               for i in range(100)]
    report = balance_report(records, ruleset)
    red, green = report.entry("flock", "red"), report.entry("flock", "green")
    assert red.rate == pytest.approx(0.8) and red.fair == pytest.approx(0.5) and red.band == (0.45, 0.55)
    assert red.flag == "strong" and green.flag == "weak"
    assert red.low > 0.55 and "Red Flock: 80.0%" in red.evidence and "above the fair band 45.0-55.0%" in red.evidence
    assert "fair share 50.0% +- 5 points" in red.evidence and "80/100" in red.evidence
    assert {e.key for e in report.flags} >= {"red", "green"}
    seat1 = report.entry("seat", "1")
    assert seat1.flag is None   # 50 of 100: the interval reaches into the band
    assert red.mean_vp == pytest.approx(0.8 * 7 + 0.2 * 4)
    # a wider band holds red's interval: nothing about red is flagged any more
    wide = balance_report(records, ruleset, margin=0.3)
    assert wide.entry("flock", "red").flag is None
    assert "+- 30 points" in band_rule(0.3)["rule"]


def test_season_cards_nests_and_side_entries(ruleset):
    cards = [{"season": 1, "id": "most-nests", "victor": "red", "values": {}},
             {"season": 2, "id": "most-flower", "victor": None, "values": {}}]
    records = [_rec(i, "red", cards=cards, nests={"red": ["tree-1", "tree-2"], "green": ["cave-1"]},
                    sides={"red": "B", "green": "A"}) for i in range(10)]
    report = balance_report(records, ruleset)
    nests_card = report.entry("season_card", "most-nests")
    assert nests_card.rate == 1.0 and nests_card.extra == {"played": 10, "ties": 0}
    flower = report.entry("season_card", "most-flower")
    assert flower.n == 0 and flower.extra["ties"] == 10
    tree = report.entry("nest", "tree-1")
    assert tree.rate == 1.0 and tree.extra["built_per_game"] == 1.0 and tree.label == "Tree Nest, row 1"
    assert report.entry("nest", "cave-1").rate == 0.0
    assert report.entry("nest_type", "tree").n == 10   # a type counts once per builder, not per Nest
    assert report.entry("side", "B").rate == 1.0
    vp = report.vp_by_source
    assert vp["all"]["total"]["mean"] == pytest.approx(5.5) and vp["by_side"]["B"]["total"]["mean"] == 7


def test_fair_share_follows_the_player_count(ruleset):
    two = [_rec(i, "red") for i in range(4)]
    three = [{**_rec(10 + i, "red", seats=("red", "green", "purple")),
              "leaders": {"red": "kahu", "green": "ruru", "purple": "tui"}} for i in range(4)]
    for r in three:
        r["scores"]["purple"] = {"domain": 0, "nests": 0, "season_cards": 0, "total": 0}
    report = balance_report(two + three, ruleset)
    assert report.entry("flock", "red").fair == pytest.approx((4 * 0.5 + 4 / 3) / 8)
    assert report.entry("flock", "purple").fair == pytest.approx(1 / 3)


def test_cover_run_reports_side_b_every_leader_card_and_tracker_slots(covered, ruleset):
    records, report = covered
    data = report.to_dict()
    assert {e["key"] for e in data["groups"]["side"]} == {"A", "B"}
    assert data["coverage"]["missing_sides"] == []
    assert {e["key"] for e in data["groups"]["tracker_slot"]}   # Variable Turn Order slots
    assert data["fair_band"]["margin"] == 0.05
    labels = [e["label"] for g in data["groups"].values() for e in g]
    assert all("_" not in label for label in labels)          # readable names, never raw keys
    assert "Red Flock" in labels and any(label.endswith("(Kahu)") for label in labels)
    json.dumps(data)   # JSON-able
    assert games_for_cover(4, 14) == 200 and games_for_cover(4, 14) % 8 == 0
    assert games_for_cover(2, 40) == 600 and games_for_cover(3, 14, minimum=10) % 6 == 0


def _specs(page: str) -> list[dict]:
    match = re.search(r"const specs = (.*?);\nspecs\.forEach", page, re.S)
    return json.loads(match.group(1).replace("<\\/", "</"))


def test_html_charts_use_flock_colours_percent_axes_a_fair_line_and_readable_labels(covered, ruleset):
    _, report = covered
    page = render(report)
    specs = _specs(page)
    assert len(specs) == len(report.groups) + 1          # one per group, and VP by source
    titles = []

    def walk(node):
        if isinstance(node, dict):
            titles.extend(str(v) for k, v in node.items() if k == "title" and isinstance(v, str))
            for k, v in node.items():
                if k != "data":
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(specs)
    assert titles and all("_" not in t for t in titles)        # readable titles, never raw keys like season_cards
    shown = [row[key] for spec in specs for row in spec["data"]["values"] for key in row if key != "key"]
    assert not any(isinstance(v, str) and "season_cards" in v for v in shown)
    flock = next(s for s in specs if "Flock:" in s["title"])
    colour_scales = [layer["encoding"]["color"]["scale"] for layer in flock["layer"] if "color" in layer.get("encoding", {})]
    contents = {item.id: item.raw["colour"] for item in ruleset.items("flocks")}
    assert colour_scales and set(colour_scales[0]["range"]) == {contents[f] for f in report.played["flocks"]}
    bars = flock["layer"][1]["encoding"]["y"]
    assert bars["axis"]["format"] == "%" and bars["title"] == "Win rate (%)"
    assert any(layer["mark"]["type"] == "tick" and layer["encoding"]["y"]["field"] == "Fair share"
               for layer in flock["layer"])
    vp = specs[-1]
    assert "VP from Season cards" in json.dumps(vp) and vp["layer"][0]["encoding"]["color"]["scale"]["range"][0] in \
        contents.values()
    # self-contained: the vega-embed bundle is inlined (no CDN script tag) and every figure is in a table
    assert 'src="https://cdn.jsdelivr.net' not in page and "vegaEmbed" in page
    assert "Red Flock" in page and "Fair band" in page


def test_kcd_balance_json_and_html(tmp_path):
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["balance", "--games", "8", "--players", "2", "--bots", "random", "--jobs", "2",
                                 "--json", "--html", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 8 and {e["key"] for e in data["groups"]["side"]} == {"A", "B"}
    assert out.exists() and "vegaEmbed" in out.read_text() and "Side B" in out.read_text()


def test_kcd_balance_against_an_edited_copy_lists_the_edit_first(tmp_path):
    edited = tmp_path / "content"
    shutil.copytree(REPO / "content", edited)
    leaders = edited / "base" / "leaders.yaml"
    text = leaders.read_text()
    assert "ability: leader jumps 2; gain 1 fruit" in text
    leaders.write_text(text.replace("ability: leader jumps 2; gain 1 fruit", "ability: leader jumps 2; gain 3 fruit"))
    result = runner.invoke(app, ["balance", "--games", "6", "--players", "2", "--bots", "random",
                                 "--content", str(edited), "--against", str(REPO / "content"), "--json"])
    assert result.exit_code == 0, result.output
    ab = json.loads(result.stdout)["ab"]
    assert ab["pairs"] == 6 and ab["focus"] == ["leader:kahu", "leader_card:kahu-2"]
    assert [r["key"] for r in ab["rows"][:2]] == ["kahu", "kahu-2"] and ab["rows"][0]["focus"]
    assert ab["games_needed"]["games"] > 0 and "paired games" in ab["summary"]
    plain = runner.invoke(app, ["balance", "--games", "4", "--players", "2", "--bots", "random",
                                "--content", str(edited), "--against", str(REPO / "content")])
    assert plain.exit_code == 0 and "Your edited items:" in plain.stdout and "Glide (Kahu)" in plain.stdout


@pytest.mark.parametrize("args,message", [
    (["--against", "/nonexistent"], "is not a content folder"),
    (["--sides", "red=q"], "unknown side `q` for red"),
    (["--leaders", "red=nobody"], "unknown Leader or Leader card `nobody`"),
    (["--scheduler", "nowhere"], "not a Dask scheduler address"),
    (["--against", str(REPO / "content"), "--focus", "kahu"], "`kahu` is not GROUP:ID; groups: seat, flock"),
])
def test_kcd_balance_bad_options_are_usage_errors(args, message):
    result = runner.invoke(app, ["balance", "--games", "2", "--players", "2", *args])
    assert result.exit_code == 2 and message in result.stderr


@pytest.mark.browser
def test_balance_page_renders_its_charts_offline(covered, tmp_path):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium)")
    from playwright.sync_api import sync_playwright

    _, report = covered
    page_file = tmp_path / "report.html"
    page_file.write_text(render(report), encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(page_file.as_uri())
            page.wait_for_selector("#chart-1 canvas, #chart-1 svg", timeout=30_000)
            drawn = page.locator(".chart canvas, .chart svg").count()
        finally:
            browser.close()
    assert drawn == len(report.groups) + 1 and errors == []


def test_mean_vp_intervals_stay_within_the_possible_range(ruleset):
    """VP are never negative (R-END-2 counts VP from markers, Nests and Season cards): a mean's interval never
    reaches below 0, even for a source most games score nothing from; the mean itself is unchanged."""
    records = [_rec(seed, "red", nests={"red": [], "green": []}) for seed in range(3)]
    for rec in records:
        rec["scores"]["green"]["nests"] = 0
    records[0]["scores"]["green"]["nests"] = 6   # one game of six Nest VP, two of none: normal low end < 0
    report = balance_report(records, ruleset)
    by = report.vp_by_source
    tables = [by["all"], *by["by_flock"].values(), *by["by_side"].values()]
    assert all(cell["low"] >= 0 for table in tables for cell in table.values()), tables
    green = by["by_flock"]["green"]["nests"]
    assert green["mean"] == 2 and green["low"] == 0 and green["high"] > 2
    lows = [e.vp_low for entries in report.groups.values() for e in entries if e.vp_low is not None]
    assert lows and min(lows) >= 0


def test_kcd_balance_ab_report_says_each_thing_once(tmp_path):
    """The A/B text ends with one games-needed line, for the --effect asked, and repeats no line."""
    result = runner.invoke(app, ["balance", "--games", "4", "--players", "2", "--bots", "random",
                                 "--against", str(REPO / "content"), "--effect", "0.1"])
    assert result.exit_code == 0, result.output
    ab = result.stdout[result.stdout.index("A/B: what the change did"):]
    lines = [line for line in ab.splitlines() if line.strip()]
    assert len(lines) == len(set(lines)), ab
    needed = [line for line in lines if "To detect" in line]
    assert len(needed) == 1 and needed[0].startswith("To detect a 10-point change in a win rate"), ab
