"""The Playtest page's logic without a browser: the child-process runner (progress, records, any
number of processes, cancel leaves no process), A/B between two versions of a file, charts in flock colours."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kcd.apps.editor.logic import playtest, runner, store
from kcd.content import load_ruleset

SEASON = "base/season_cards.yaml"


@pytest.fixture(scope="module")
def shipped():
    return load_ruleset()


def test_runner_two_processes_finish_with_the_in_process_records(editor_content: Path, shipped) -> None:
    """Processes = 2 (the page's old hang at "20/20 games"): the child finishes, streams progress, its records
    are exactly the in-process simulation's, and nothing is left behind."""
    root = editor_content
    setup = playtest.PlaytestSetup(players=2, games=6, seed=3, bots=("greedy", "random"), jobs=2)
    run = playtest.start(root, setup)
    seen = []
    while not run.poll().finished:
        seen.append(run.status.done)
        time.sleep(0.05)
    status = run.status
    assert status.succeeded and not status.error and not status.cancelled, status.error
    assert status.done == status.total == 6 and status.text() == "6/6 games, done"
    assert seen == sorted(seen) and any(0 < done < 6 for done in seen)   # progress arrived while it ran
    expected = [r.to_dict() for r in playtest.run(shipped, setup).records]
    assert status.records["A"] == json.loads(json.dumps(expected))
    assert runner.group_members(run.pid) == [] and not run.folder.exists()
    report = playtest.report_of(status.records["A"])
    assert report.summary()["games"] == 6


def test_runner_cancel_leaves_no_process_behind(editor_content: Path) -> None:
    root = editor_content
    run = playtest.start(root, playtest.PlaytestSetup(games=500, jobs=2, bots=("greedy",)))
    deadline = time.monotonic() + 60
    while run.poll().done < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    members = runner.group_members(run.pid)
    assert run.pid in members and len(members) >= 3      # the child and its two workers
    status = run.cancel()
    assert status.cancelled and status.finished and not status.succeeded
    assert status.text().startswith("cancelled after ") and status.text().endswith("/500 games")
    assert runner.group_members(run.pid) == []
    for pid in members:
        assert not Path(f"/proc/{pid}").exists() or runner.group_members(run.pid) == []
    assert not run.folder.exists()
    assert run.cancel() is status      # cancelling twice is harmless


def test_runner_reports_bad_setups_and_content_in_words(editor_content: Path) -> None:
    root = editor_content
    bad_bot = playtest.start(root, playtest.PlaytestSetup(games=2, bots=("nobody",))).wait(60)
    assert bad_bot.finished and not bad_bot.succeeded
    assert "unknown bot `nobody`" in bad_bot.error
    text = (root / SEASON).read_text()
    broken = text.replace("victor: gain 2 fruit", "victor: gian 2 fruit", 1)
    status = playtest.start_ab(root, playtest.PlaytestSetup(games=2), SEASON, text, broken).wait(60)
    assert status.error == "B: the content does not load"
    assert any(d.startswith(f"{SEASON}:") and "dsl-unknown" in d for d in status.diagnostics), status.diagnostics
    assert status.records == {}


def test_runner_child_stops_when_the_editor_is_gone(editor_content: Path, tmp_path: Path) -> None:
    """A child whose parent changed (the editor died) stops after its next game instead of playing on."""
    root = editor_content
    folder = tmp_path / "job"
    folder.mkdir()
    job = runner.Job(str(root), playtest.PlaytestSetup(games=50, bots=("random",)))
    (folder / runner.JOB).write_text(json.dumps(job.to_dict()))
    env = {**os.environ, "KCD_PLAYTEST_PARENT": "1"}   # not this child's parent: as if the editor had died
    proc = subprocess.run([sys.executable, "-m", "kcd.apps.editor.logic.runner", str(folder / runner.JOB)], env=env,
                          capture_output=True, timeout=120)
    assert proc.returncode == 3
    lines = [json.loads(line) for line in (folder / runner.EVENTS).read_text().splitlines()]
    assert lines[0]["event"] == "start" and not any(line["event"] == "done" for line in lines)
    assert not any(line["event"] == "progress" for line in lines)


def test_R_SCARD_1_ab_between_two_versions_of_a_file_on_paired_seeds(editor_content: Path) -> None:
    """An A/B of a Season card's victor benefit: both sides play the same seeds and seatings; the edited card
    comes first in the report, every row has a 95% interval, and unchanged rows say "no detectable change"."""
    root = editor_content
    text = (root / SEASON).read_text()
    edited = text.replace("victor: gain 2 fruit", "victor: gain 3 vp", 1)
    status = playtest.start_ab(root, playtest.PlaytestSetup(games=4, bots=("random",), jobs=2), SEASON, text,
                               edited).wait(120)
    assert status.succeeded, status.error
    a, b = status.records["A"], status.records["B"]
    assert [(r["seed"], r["seats"]) for r in a] == [(r["seed"], r["seats"]) for r in b]
    assert status.focus == ["season_card:least-flower"]
    report = playtest.compare(a, b, status.focus, status.names)
    assert report.rows[0].focus and report.rows[0].key == "least-flower"
    assert all(r.low <= r.diff <= r.high for r in report.rows if r.n)
    frame = playtest.ab_frame(report)
    assert frame["what"][0].startswith("(edited) Season card ")
    assert {"no detectable change"} <= set(frame["verdict"])
    assert {"change", "95% from", "95% to", "verdict"} <= set(frame.columns)
    spec = json.dumps(playtest.ab_chart(report).to_dict())
    assert '"format": "%"' in spec and "errorbar" in spec and "no detectable change" in spec
    assert (root / SEASON).read_text() == text    # the real content folder is never written


def test_ab_versions_and_default_pair(editor_content: Path) -> None:
    """The page's A/B offers the files with two versions (kcd.apps.editor.logic.versions): before (A) against after (B)."""
    root = editor_content
    assert playtest.ab_files(root, [SEASON]) == {}
    snap = store.read(root, SEASON)
    store.save_draft(snap, snap.text.replace("gain 2 fruit", "gain 3 fruit", 1))
    files = playtest.ab_files(root, [SEASON, "base/nests.yaml"])
    assert list(files) == [SEASON]
    labels = [label for label, _ in files[SEASON]]
    assert labels[0].startswith("Draft") and "Saved file" in labels
    assert playtest.default_pair(labels) == (labels.index("Saved file"), 0)
    assert playtest.default_pair(["Saved file", "Earlier save 1"]) == (1, 0)


def test_ab_offers_unsaved_edits_and_earlier_saves(editor_content: Path) -> None:
    """The four kinds of version: unsaved edits (autosaved by the Content page), the draft, the saved file and an
    earlier save; unsaved edits against the saved file by default, and a save against the one before it."""
    from kcd.apps.editor.logic import autosave

    root = editor_content
    snap = store.read(root, SEASON)
    edited = snap.text.replace("victor: gain 2 fruit", "victor: gain 3 fruit", 1)
    autosave.record(root, autosave.Pending(SEASON, snap.text, raw=edited))
    store.save_draft(snap, snap.text.replace("victor: gain 2 fruit", "victor: gain 1 vp", 1))
    labels = [label for label, _ in playtest.ab_files(root, [SEASON])[SEASON]]
    assert labels[0].startswith("Unsaved edits") and labels[1].startswith("Draft") and labels[2] == "Saved file"
    assert playtest.default_pair(labels) == (2, 0)
    assert dict(playtest.ab_files(root, [SEASON])[SEASON])[labels[0]] == edited
    autosave.clear(root, SEASON)
    store.discard_draft(root, SEASON)
    store.save(snap, edited, lambda text: [])
    labels = [label for label, _ in playtest.ab_files(root, [SEASON])[SEASON]]
    assert labels[0] == "Saved file" and labels[1].startswith("Earlier save")
    assert playtest.default_pair(labels) == (1, 0)


def test_bots_default_to_the_strongest_registered_bot() -> None:
    from kcd.analysis.bots import BOTS

    assert playtest.bot_names() == list(BOTS)
    assert playtest.default_bot() == ("mcts" if "mcts" in BOTS else "greedy")
    assert playtest.PlaytestSetup().bots == ("greedy",)


def test_charts_use_flock_colours_percent_axes_fair_share_and_readable_labels(shipped) -> None:
    setup = playtest.PlaytestSetup(players=2, games=4, seed=1, bots=("random",))
    report = playtest.run(shipped, setup)
    labels = playtest.Labels.of(shipped)
    summary = report.summary()
    seasons = playtest.season_frame(summary, labels)
    green = shipped.item("flocks", "green").raw["colour"]
    won_by_green = seasons[seasons["outcome"] == "won by Green Flock"]
    assert len(won_by_green) and set(won_by_green["colour"]) == {green}
    assert "season_cards" not in set(seasons["card"]) and "most-nests" not in set(seasons["card"])
    assert set(seasons[seasons["outcome"] == "tie (no victor)"]["colour"]) <= {playtest.TIE_COLOUR}
    charts = playtest.charts(report, labels)
    flock = json.dumps(charts["flock"].to_dict())
    assert '"format": "%"' in flock and "fair share 50%" in flock and green in flock
    season_spec = json.dumps(charts["season_cards"].to_dict())
    assert green in season_spec and "won by Green Flock" in season_spec
    vp = json.dumps(charts["vp"].to_dict())
    assert "Season cards" in vp and "Domain markers" in vp and '"season_cards"' not in vp
    frame = playtest.rate_frame(summary, "flock", labels)
    assert set(frame["name"]) == {"Red Flock", "Green Flock"}
    assert playtest.fair_share(report) == 0.5


def test_R_SOLO_playtest_logic_runs_solo_and_charts_player_vs_kiwibot(shipped) -> None:
    """R-SOLO-5/6: a solo PlaytestSetup plays solo games (the first bot only, no variant); the charts add the
    player-vs-Kiwibot win rate, VP by source per role, Season card outcomes per role."""
    assert playtest.modes(shipped) == {"Standard game": "standard", "Solo (against Kiwibot)": "solo"}
    assert playtest.marker_sides(shipped) == {"(dealt from the seed)": None, "bot-side": "bot-side",
                                              "player-side": "player-side"}
    setup = playtest.PlaytestSetup(players=3, games=3, seed=4, bots=("random", "greedy"), mode="solo",
                                   solo_side="bot-side", variant="vto")
    report = playtest.run(shipped, setup)
    assert {r.mode for r in report.records} == {"solo"} and {r.variant for r in report.records} == {None}
    assert {tuple(r.bots) for r in report.records} == {("random", "kiwibot")}
    assert playtest.played(report, playtest.variants(shipped)) == "solo against Kiwibot, marker side bot-side"
    summary = report.summary()
    frame = playtest.solo_frame(summary)
    assert list(frame["name"]) == ["player", "Kiwibot", "player, bot-side"]
    assert frame["games"].tolist() == [3, 3, 3] and frame["wins"][0] + frame["wins"][1] == 3
    charts = playtest.charts(report, playtest.Labels.of(shipped))
    assert set(charts) == {"solo", "seat", "flock", "leader", "vp", "season_cards", "length"}
    seasons = playtest.season_frame(summary)
    assert seasons["count"].sum() == 24 and set(seasons["outcome"]) <= {
        "won by the player", "won by Kiwibot", "tie (no victor)"}
    assert "Kiwibot" in json.dumps(charts["vp"].to_dict())
    assert "Kiwibot's unplaced markers" in json.dumps(charts["vp"].to_dict())
    standard = playtest.run(shipped, playtest.PlaytestSetup(games=1, bots=("random",)))
    assert "solo" not in playtest.charts(standard)
    assert playtest.played(standard, playtest.variants(shipped)) == "Standard game"


def test_setup_and_job_round_trip_through_json() -> None:
    setup = playtest.PlaytestSetup(players=3, games=5, bots=("greedy", "random"), flocks=("red", "green", "purple"),
                                   leaders={"red": "kahu"}, sides={"green": "B"}, overlays=("prototype",), jobs=2)
    job = runner.Job("/x", setup, (runner.Side("A"), runner.Side("B", {SEASON: "text"})))
    assert runner.Job.from_dict(json.loads(json.dumps(job.to_dict()))) == job


def test_runner_a_dropped_run_is_stopped(editor_content: Path) -> None:
    """A run nobody holds any more (an expired browser session) does not play on unseen."""
    import gc

    root = editor_content
    run = playtest.start(root, playtest.PlaytestSetup(games=500, bots=("random",)))
    pid, folder = run.pid, run.folder
    while run.poll().done < 1 and not run.status.finished:
        time.sleep(0.05)
    assert run.status.running
    del run
    gc.collect()
    assert runner.group_members(pid) == [] and not folder.exists()
