"""In real headless Chromium (issue 9): unsaved edits survive a browser refresh and an editor restart; a file
changed on disk while the designer edits it merges field by field on "Reload from disk": another field's change
is kept, and the same field changed on both sides is shown side by side and the designer's choice saved.
Marker `browser`."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from test_editor_browser import CHROMIUM, free_port, wait_healthy

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"
CARD = "/Content?item=season_cards/most-nests"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

LIVE = '.stElementContainer[data-stale="false"]'   # elements of the current run, not stale copies

pytestmark = pytest.mark.browser


@pytest.fixture()
def content(tmp_path: Path) -> Path:
    """A copy of the shipped content the editor edits."""
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: the browser tests must run in CI")
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium)")
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    return root


@contextmanager
def editor(content: Path) -> Iterator[str]:
    """`kcd editor` on a free port; yields its address and stops the process group it started."""
    port = free_port()
    kcd = Path(sys.executable).with_name("kcd")
    command = [str(kcd)] if kcd.exists() else [sys.executable, "-m", "interpreter.cli"]
    proc = subprocess.Popen(command + ["editor", "--content", str(content), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        wait_healthy(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextmanager
def browser_page() -> Iterator:
    """A Chromium page with the project's flags."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=60_000)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            yield page
        finally:
            browser.close()


def field(page, label: str):
    """The keystroke input (streamlit-keyup) whose label starts with `label` (not the stale copy Streamlit keeps
    on screen while a rerun replaces a widget by one with a new key)."""
    return page.locator(f'{LIVE} .stkeyup').filter(has=page.locator("label", has_text=re.compile("^" + re.escape(label)))) \
        .locator("input")


def button(page, name):
    """A button of the current run (not a stale copy)."""
    return page.locator(LIVE).get_by_role("button", name=name, exact=isinstance(name, str))


def card_block(text: str, card: str) -> str:
    """The lines of one Season card in the file."""
    lines = text.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.strip() == f"- id: {card}")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("- id:")), len(lines))
    return "\n".join(lines[start:end])


def outside_edit(content: Path, old: str, new: str) -> None:
    """Someone else changes the most-nests card in the file (another editor, a git pull)."""
    path = content / SEASON
    text = path.read_text()
    block = card_block(text, "most-nests")
    assert old in block
    path.write_text(text.replace(block, block.replace(old, new, 1), 1))


def test_edit_survives_a_refresh_and_an_editor_restart(content: Path) -> None:
    from playwright.sync_api import expect

    original = (content / SEASON).read_text()
    with browser_page() as page:
        with editor(content) as url:
            page.goto(url + CARD)
            victor = field(page, "Victor")
            expect(victor).to_have_value("gain 1 vp")
            victor.fill("gain 3 vp")
            expect(page.get_by_text("Rules text: Gain 3 Victory Points").first).to_be_visible()
            page.reload()
            expect(field(page, "Victor")).to_have_value("gain 3 vp")
            expect(page.get_by_text("Changes to be saved")).to_be_visible()
        assert (content / SEASON).read_text() == original       # autosave never touches the content file
        with editor(content) as url:                            # a restart: a new server, a new session
            page.goto(url + CARD)
            expect(page.get_by_text("Recovered unsaved edits of base/season_cards.yaml")).to_be_visible()
            expect(field(page, "Victor")).to_have_value("gain 3 vp")
            button(page, "Save").click()
            expect(page.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
    assert "victor: gain 3 vp" in card_block((content / SEASON).read_text(), "most-nests")
    assert not list((content / ".kcd-autosave").rglob("*.json"))


def test_reload_from_disk_keeps_their_other_field_and_asks_for_the_same_field(content: Path) -> None:
    from playwright.sync_api import expect

    with browser_page() as page, editor(content) as url:
        page.goto(url + CARD)
        victor = field(page, "Victor")
        expect(victor).to_have_value("gain 1 vp")
        # someone else changes another field (others) and, later, the same field (victor)
        outside_edit(content, "others: gain 1 domain", "others: gain 2 domain")
        victor.fill("gain 2 vp")
        expect(page.get_by_text("changed on disk since it was loaded").first).to_be_visible()
        save = button(page, "Save")
        expect(save).to_be_disabled()
        button(page, re.compile("^Reload from disk")).click()
        expect(page.get_by_text(re.compile("Reloaded base/season_cards.yaml from disk: 1 of your edits kept"))) \
            .to_be_visible()
        expect(field(page, "Victor")).to_have_value("gain 2 vp")
        expect(field(page, "Others")).to_have_value("gain 2 domain")     # their change shows, not a stale value
        expect(save).to_be_enabled()
        save.click()
        expect(page.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
        block = card_block((content / SEASON).read_text(), "most-nests")
        assert "victor: gain 2 vp" in block and "others: gain 2 domain" in block

        # the same field on both sides: both shown, the designer's choice is what is saved
        victor = field(page, "Victor")
        victor.fill("gain 3 vp")
        expect(page.get_by_text("Rules text: Gain 3 Victory Points").first).to_be_visible()
        outside_edit(content, "victor: gain 2 vp", "victor: gain 1 fruit")
        field(page, "Objective").fill("most nests ")
        field(page, "Objective").fill("most nests")
        button(page, re.compile("^Reload from disk")).click()
        expect(page.get_by_text("1 field(s) changed both by you and on disk")).to_be_visible()
        expect(page.get_by_text("gain 3 vp", exact=True)).to_be_visible()      # yours
        expect(page.get_by_text("gain 1 fruit", exact=True)).to_be_visible()   # theirs, side by side
        expect(save).to_be_disabled()                                          # until the designer chooses
        button(page, "Keep mine").click()
        expect(save).to_be_enabled()
        expect(field(page, "Victor")).to_have_value("gain 3 vp")
        save.click()
        expect(page.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
        assert "victor: gain 3 vp" in card_block((content / SEASON).read_text(), "most-nests")
