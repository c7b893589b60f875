"""The Playtest page through Streamlit's AppTest: runs in a child process with progress and Cancel,
two processes finish, A/B between two versions of a file with intervals, solo and variants reach the run."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kcd.apps.editor.logic import playtest, runner, store

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"


@pytest.fixture()
def content(editor_content: Path) -> Path:
    return editor_content


@pytest.fixture()
def started(monkeypatch: pytest.MonkeyPatch) -> list:
    """Every run the page starts (the runs still happen): [(Job, Run)]."""
    seen: list = []
    real = runner.start

    def spy(job):
        run = real(job)
        seen.append((job, run))
        return run

    monkeypatch.setattr(runner, "start", spy)
    yield seen
    for _job, run in seen:   # a test that fails mid-run leaves nothing running
        run.cancel()


def page() -> AppTest:
    at = AppTest.from_file(str(REPO / "editor" / "Home.py"), default_timeout=120)
    at.switch_page("pages/4_Playtest.py")
    return at.run()


def text(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def errors(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.error)


def finish(at: AppTest, timeout: float = 180) -> AppTest:
    """Rerun the page (as the progress fragment does every half second) until the run is over."""
    deadline = time.monotonic() + timeout
    while "pt_active" in at.session_state and time.monotonic() < deadline:
        time.sleep(0.3)
        at.run()
        assert not at.exception, at.exception
    assert "pt_active" not in at.session_state, "the playtest did not finish"
    return at


def test_playtest_page_runs_on_two_processes_with_progress_and_charts(content: Path, started: list) -> None:
    at = page()
    assert not at.exception, at.exception
    assert at.multiselect(key="pt_bots").value == [playtest.default_bot()]
    assert at.number_input(key="pt_jobs").value == 2
    at.number_input(key="pt_games").set_value(4)
    at.multiselect(key="pt_bots").set_value(["random"])
    at.button(key="pt_run").click().run()
    assert not at.exception, at.exception
    assert at.button(key="pt_run").disabled          # one run at a time
    assert at.button(key="pt_cancel")                # progress shows with its Cancel button
    assert [p.proto.text for p in at.get("progress")][0].endswith("/4 games")
    finish(at)
    assert not errors(at), errors(at)
    job, run = started[-1]
    assert job.setup.jobs == 2 and job.setup.games == 4 and job.setup.bots == ("random",)
    assert runner.group_members(run.pid) == []
    assert len(at.get("vega_lite_chart")) == 6
    assert "4 games (Standard game)" in text(at)


def test_playtest_page_cancel_stops_the_run_and_every_process(content: Path, started: list) -> None:
    at = page()
    at.multiselect(key="pt_bots").set_value(["random"])
    at.number_input(key="pt_games").set_value(2000)
    at.button(key="pt_run").click().run()
    _job, run = started[-1]
    deadline = time.monotonic() + 60
    while run.poll().done < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    members = runner.group_members(run.pid)
    assert run.pid in members
    at.button(key="pt_cancel").click().run()
    assert not at.exception, at.exception
    assert run.status.cancelled and runner.group_members(run.pid) == []
    assert "pt_active" not in at.session_state and not at.get("vega_lite_chart")
    assert any("cancelled after" in str(i.value) and "no process is left running" in str(i.value) for i in at.info)
    assert not at.button(key="pt_run").disabled


def test_R_VTO_1_playtest_page_offers_variable_turn_order(content: Path, started: list) -> None:
    """R-VTO-1: the page keeps the setup choice (first-game/advanced) and adds the rules variant the content offers;
    the chosen variant reaches the simulation."""
    at = page()
    assert at.selectbox(key="pt_setup").options == ["first-game", "advanced"]
    assert at.selectbox(key="pt_variant").options == ["Standard game", "Variable Turn Order"]
    at.selectbox(key="pt_variant").select("Variable Turn Order")
    at.selectbox(key="pt_setup").select("advanced")
    at.multiselect(key="pt_bots").set_value(["random"])
    at.number_input(key="pt_games").set_value(2)
    at.button(key="pt_run").click().run()
    finish(at)
    assert not errors(at), errors(at)
    setup = started[-1][0].setup
    assert setup.variant == "vto" and setup.setup == "advanced"
    assert len(at.get("vega_lite_chart")) == 6
    assert "2 games (Variable Turn Order)" in text(at)


def test_R_VTO_1_playtest_variant_offered_only_when_content_declares_it(content: Path) -> None:
    """Content without game.yaml `variants` offers only the standard game on the Playtest page."""
    game = content / "base" / "game.yaml"
    body = game.read_text(encoding="utf-8")
    game.write_text(body[: body.index("\n# Rules variants")] + "\n", encoding="utf-8")
    at = page()
    assert not at.exception, at.exception
    assert at.selectbox(key="pt_variant").options == ["Standard game"]


def test_R_SOLO_playtest_page_plays_solo_against_kiwibot(content: Path, started: list) -> None:
    """R-SOLO-1/12: "Solo (against Kiwibot)" with a marker side reaches the simulation; the page adds the
    player-vs-Kiwibot win rate (headline and chart) to the usual charts."""
    at = page()
    assert at.selectbox(key="pt_mode").options == ["Standard game", "Solo (against Kiwibot)"]
    at.selectbox(key="pt_mode").select("Solo (against Kiwibot)").run()
    assert at.selectbox(key="pt_solo_side").options == ["(dealt from the seed)", "bot-side", "player-side"]
    assert at.number_input(key="pt_players").disabled and at.selectbox(key="pt_variant").disabled
    at.selectbox(key="pt_solo_side").select("player-side")
    at.multiselect(key="pt_bots").set_value(["random"])
    at.number_input(key="pt_games").set_value(2)
    at.button(key="pt_run").click().run()
    finish(at)
    assert not errors(at), errors(at)
    setup = started[-1][0].setup
    assert setup.mode == "solo" and setup.solo_side == "player-side"
    assert "2 games (solo against Kiwibot, marker side player-side)" in text(at)
    assert "The player won" in text(at) and "against Kiwibot" in text(at)
    assert len(at.get("vega_lite_chart")) == 7


def run_with_random_bots(at: AppTest, started: list):
    """Run what the page is set to with random bots, to the end and without an error; the Job it started."""
    at.multiselect(key="pt_bots").set_value(["random"])
    at.button(key="pt_run").click().run()
    finish(at)
    assert not errors(at), errors(at)
    return started[-1][0]


def test_R_SCARD_1_playtest_page_ab_between_a_draft_and_the_saved_file(content: Path, started: list) -> None:
    """A/B of a draft (B) against the saved file (A): paired seeds, the summary in plain words, a chart and a
    table of intervals, the edited Season card first."""
    at = page()
    at.radio(key="pt_what").set_value("A/B: two versions of a file").run()
    assert any("No file has two versions yet" in str(i.value) for i in at.info)
    assert at.button(key="pt_run").disabled
    snap = store.read(content, SEASON)
    store.save_draft(snap, snap.text.replace("victor: gain 2 fruit", "victor: gain 3 vp", 1))
    at.run()
    assert at.selectbox(key="pt_ab_file").value == SEASON
    assert at.selectbox(key=f"pt_ab_a:{SEASON}").value == "Saved file"
    assert at.selectbox(key=f"pt_ab_b:{SEASON}").value.startswith("Draft")
    assert at.radio(key="pt_ab_how").value.startswith("Until the interval")   # the question sets the games
    at.radio(key="pt_ab_how").set_value("A fixed number of games").run()
    at.number_input(key="pt_games").set_value(3)
    job = run_with_random_bots(at, started)
    assert [s.label for s in job.sides] == ["A", "B"] and job.sides[0].overrides[SEASON] == snap.text
    body = " ".join(t.value for t in at.text)
    assert "No detectable change in any win rate over 3 paired games" in body
    assert "Your edited items:" in body and "95%" in body
    table = at.dataframe[0].value
    assert table["what"][0].startswith("(edited) Season card")
    assert {"95% from", "95% to", "verdict"} <= set(table.columns)
    assert len(at.get("vega_lite_chart")) == 1 + 2 * 6   # the A/B chart, then B and A in detail


def test_R_BUILD_4_ab_on_a_whole_change_runs_until_the_interval_is_narrow(content: Path, started: list) -> None:
    """A change to a Season card (R-SCARD-5) and a Nest (R-BUILD-4), both drafts, compared as one content set
    against the saved files; the number of games set by the interval width asked for, not a fixed count."""
    at = page()
    at.radio(key="pt_what").set_value("A/B: a whole change").run()
    season, nests = store.read(content, SEASON), store.read(content, "base/nests.yaml")
    store.save_draft(season, season.text.replace("victor: gain 2 fruit", "victor: gain 3 vp", 1))
    store.save_draft(nests, nests.text.replace("on_place: gain 1 fruit", "on_place: gain 2 fruit", 1))
    at.run()
    choices = at.selectbox(key="pt_change_b").options
    assert any(c.startswith("Every draft (base/nests.yaml, base/season_cards.yaml)") for c in choices)
    assert any(c == "The mod example" for c in choices)                # a pack is a whole change too
    at.selectbox(key="pt_change_b").set_value(next(c for c in choices if c.startswith("Every draft"))).run()
    assert at.radio(key="pt_ab_how").value.startswith("Until the interval")
    assert "769 pairs if the two versions shared no luck" in " ".join(c.value for c in at.caption)
    at.number_input(key="pt_ab_width").set_value(60.0)
    at.number_input(key="pt_ab_cap").set_value(60)
    job = run_with_random_bots(at, started)
    assert set(job.sides[1].overrides) == {SEASON, "base/nests.yaml"} and not job.sides[0].overrides
    assert job.width == 0.6 and job.setup.games == 60
    stop = " ".join(str(m.value) for m in at.success) + " ".join(str(m.value) for m in at.warning)
    assert "Stopped after 40 paired games" in stop or "Stopped at the cap of 60 paired games" in stop, stop


def test_ab_page_refuses_a_main_effect_that_is_not_group_id(content: Path) -> None:
    at = page()
    at.radio(key="pt_what").set_value("A/B: a whole change").run()
    at.text_input(key="pt_ab_main").input("red").run()
    assert "`red` is not group:id" in " ".join(str(w.value) for w in at.warning)
    assert at.button(key="pt_run").disabled
