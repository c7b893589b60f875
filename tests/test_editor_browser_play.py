"""End to end in real headless Chromium: `kcd editor` serves the app; a playtest on 2 processes
finishes, a cancelled one leaves no process, an A/B shows its intervals, the Board steps to the final scores and
the winner. Marker `browser`."""
from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import pytest

from kcd.apps.editor.logic import runner, store
from test_editor_browser import REPO, browser_page, editor_process, need_chromium

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def editor(tmp_path_factory: pytest.TempPathFactory):
    """(base URL, content folder, the editor's process group) of a `kcd editor` on a copy of the content."""
    need_chromium()
    content = tmp_path_factory.mktemp("play") / "content"
    shutil.copytree(REPO / "content", content)
    with editor_process(content) as (address, _first, pgid):
        yield address, content, pgid


@pytest.fixture()
def page(editor):
    with browser_page(height=1600, timeout_ms=90_000) as tab:
        yield tab


def runner_pids(editor_pgid: int) -> list[int]:
    """The playtest children (`python -m kcd.apps.editor.logic.runner`) started by the editor's processes."""
    editors = set(runner.group_members(editor_pgid))
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if b"kcd.apps.editor.logic.runner" in cmdline and ppid in editors:
            out.append(int(entry.name))
    return out


def choose_bot(tab, label: str, bot: str) -> None:
    """Replace the default bot of the multiselect `label` by `bot` (so a test's speed does not hang on the
    default, which is the strongest registered bot)."""
    box = tab.get_by_role("combobox", name=label)
    box.click()
    box.press("Backspace")
    box.fill(bot)
    box.press("Enter")
    box.press("Escape")
    tab.get_by_text(bot, exact=True).first.wait_for()


def set_number(tab, label: str, value: int) -> None:
    box = tab.get_by_label(label, exact=True)
    box.fill(str(value))
    box.press("Enter")


def start_long_playtest(tab, base: str, pgid: int, games: int) -> list[int]:
    """Start a playtest of `games` random games and wait for its first progress; returns its one child's pid."""
    from playwright.sync_api import expect

    tab.goto(f"{base}/Playtest")
    choose_bot(tab, "Bots (one per seat, cycling)", "random")
    set_number(tab, "Games", games)
    tab.get_by_role("button", name="Run playtest").click()
    expect(tab.get_by_text(re.compile(rf"^[1-9]\d*/{games} games"))).to_be_visible()
    children = runner_pids(pgid)
    assert len(children) == 1
    return children


def test_browser_playtest_on_two_processes_finishes_and_leaves_nothing(editor, page) -> None:
    from playwright.sync_api import expect

    base, _content, pgid = editor
    page.goto(f"{base}/Playtest")
    expect(page.get_by_label("Processes", exact=True)).to_have_value("2")
    choose_bot(page, "Bots (one per seat, cycling)", "greedy")
    set_number(page, "Games", 6)
    page.get_by_role("button", name="Run playtest").click()
    expect(page.get_by_text(re.compile(r"^6 games \(Standard game\), mean length"))).to_be_visible()
    expect(page.get_by_text("Win rate by flock (95% interval)")).to_be_visible()
    deadline = time.monotonic() + 10
    while runner_pids(pgid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert runner_pids(pgid) == []


def test_browser_cancelled_playtest_leaves_no_process(editor, page) -> None:
    from playwright.sync_api import expect

    base, _content, pgid = editor
    children = start_long_playtest(page, base, pgid, 2000)
    members = runner.group_members(children[0])
    assert len(members) >= 3   # the child and its two workers
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_text(re.compile(r"Playtest cancelled after \d+/2000 games; no process is left running"))
           ).to_be_visible()
    assert runner.group_members(children[0]) == []
    assert all(not Path(f"/proc/{pid}").exists() for pid in members)
    expect(page.get_by_role("button", name="Run playtest")).to_be_enabled()


def test_browser_playtest_of_a_closed_tab_is_stopped_and_cleaned_up(editor, page) -> None:
    """Closing the tab of a running playtest stops it (editor/watch.py): no runner process is left."""
    base, _content, pgid = editor
    children = start_long_playtest(page, base, pgid, 3000)
    page.close()
    deadline = time.monotonic() + 30         # the grace (5 s) and a sweep, on a busy machine
    while runner.group_members(children[0]) and time.monotonic() < deadline:
        time.sleep(0.3)
    assert runner.group_members(children[0]) == [] and runner_pids(pgid) == []


def test_browser_ab_of_a_draft_against_the_saved_file_shows_intervals(editor, page) -> None:
    from playwright.sync_api import expect

    base, content, _pgid = editor
    red = "base/flocks/red.yaml"
    snap = store.read(content, red)
    store.save_draft(snap, snap.text.replace("name: Red Flock", "name: Red Flock (draft)", 1))
    page.goto(f"{base}/Playtest")
    choose_bot(page, "Bots (one per seat, cycling)", "random")
    set_number(page, "Games", 4)
    page.get_by_text("A/B: two versions of a file").click()
    page.get_by_text("A fixed number of games").click()
    page.get_by_role("combobox", name="File").click()
    page.get_by_role("option").filter(has_text="base/flocks/red.yaml").click()
    expect(page.get_by_role("combobox", name="B (after)")).to_be_visible()
    page.get_by_role("button", name="Run A/B").click()
    summary = page.get_by_text(re.compile(r"No detectable change in any win rate over 4 paired games"))
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("Your edited items:")
    expect(summary).to_contain_text(re.compile(r"Red Flock \(draft\) win rate: \d+\.\d% -> \d+\.\d% "
                                               r"\([+-]\d+\.\d points, 95% [+-]\d+\.\d to [+-]\d+\.\d"))
    expect(page.get_by_text("A/B: change in win rates (B - A)")).to_be_visible()
    store.discard_draft(content, red)


def test_browser_board_steps_to_the_final_scores_and_the_winner(editor, page) -> None:
    from playwright.sync_api import expect

    base, _content, _pgid = editor
    page.goto(f"{base}/Board")
    choose_bot(page, "Bots (one per seat, cycling)", "greedy")
    page.get_by_role("button", name="Play a game").click()
    expect(page.get_by_text("Start of the game")).to_be_visible()
    expect(page.get_by_alt_text("legend")).to_be_visible()
    page.get_by_role("button", name="Next", exact=True).click()
    expect(page.get_by_text(re.compile(r"^After decision 1 of \d+"))).to_be_visible()
    page.get_by_role("button", name="Play", exact=True).click()
    # Play advances on its own; under load a rerun may step past a given decision, so any later one will do
    expect(page.get_by_text(re.compile(r"^After decision (?!1 of)\d+ of \d+"))).to_be_visible(timeout=15_000)
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Last", exact=True).click()
    expect(page.get_by_text(re.compile(r"^Winner: .+ with \d+ VP"))).to_be_visible()
    expect(page.get_by_text("Final scores")).to_be_visible()
    expect(page.get_by_role("button", name="Next", exact=True)).to_be_disabled()
