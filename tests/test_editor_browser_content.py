"""In real headless Chromium: unsaved edits survive a browser refresh and an editor restart; a file
changed on disk while the designer edits it merges field by field on "Reload from disk": another field's change
is kept, and the same field changed on both sides is shown side by side and the designer's choice saved.
Marker `browser`."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from test_editor_browser import browser_page, button, editor, field, need_chromium

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"
CARD = "/Content?item=season_cards/most-nests"

pytestmark = pytest.mark.browser


@pytest.fixture()
def content(tmp_path: Path) -> Path:
    """A copy of the shipped content the editor edits."""
    need_chromium()
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    return root


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


def tab_token(page) -> str:
    """The browser tab's session token, as its URL keeps it (kcd.apps.editor.ui.SESSION_PARAM)."""
    from urllib.parse import parse_qs, urlparse

    from playwright.sync_api import expect

    expect(page).to_have_url(re.compile(r"[?&]tab="))
    return parse_qs(urlparse(page.url).query)["tab"][0]


def test_two_tabs_keep_their_own_edits_and_merge_them_on_request(content: Path) -> None:
    """A save in one tab leaves the other tab's unsaved edit alone; a refreshed tab gets back only its own edit;
    the other tab's edits are offered and merged field by field."""
    from playwright.sync_api import expect

    with browser_page() as first, editor(content) as (url, _):
        tabs = first.context.browser.new_context(viewport={"width": 1400, "height": 1000})   # two tabs, one profile
        one, two = tabs.new_page(), tabs.new_page()
        one.goto(url + CARD)
        two.goto(url + "/Content?item=season_cards/most-size1")
        assert tab_token(one) != tab_token(two)
        others = field(two, "Others")
        expect(others).to_have_value("place 1 kiwi")
        others.fill("place 2 kiwi")
        expect(two.get_by_text("Rules text: Place 2 size-1 Kiwi").first).to_be_visible()
        victor = field(one, "Victor")
        expect(victor).to_have_value("gain 1 vp")
        victor.fill("gain 3 vp")
        expect(one.get_by_text("Rules text: Gain 3 Victory Points").first).to_be_visible()
        button(one, "Save").click()
        expect(one.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
        assert "victor: gain 3 vp" in card_block((content / SEASON).read_text(), "most-nests")
        two.reload()                                  # tab two keeps its edit, and only its own
        expect(field(two, "Others")).to_have_value("place 2 kiwi")
        one.reload()                                  # tab one: nothing of tab two's taken as its own
        expect(field(one, "Victor")).to_have_value("gain 3 vp")
        expect(one.get_by_text(re.compile("^Another tab .* has unsaved edits of base/season_cards.yaml"))) \
            .to_be_visible()
        button(one, "Merge them into mine").click()
        expect(one.get_by_text("Merged the other tab's edits of base/season_cards.yaml into yours")).to_be_visible()
        button(one, "Save").click()
        expect(one.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
    assert "others: place 2 kiwi" in card_block((content / SEASON).read_text(), "most-size1")


def test_edit_survives_a_refresh_and_an_editor_restart(content: Path) -> None:
    from playwright.sync_api import expect

    original = (content / SEASON).read_text()
    with browser_page() as page:
        with editor(content) as (url, _):
            page.goto(url + CARD)
            victor = field(page, "Victor")
            expect(victor).to_have_value("gain 1 vp")
            victor.fill("gain 3 vp")
            expect(page.get_by_text("Rules text: Gain 3 Victory Points").first).to_be_visible()
            page.reload()
            expect(field(page, "Victor")).to_have_value("gain 3 vp")
            expect(page.get_by_text("Changes to be saved")).to_be_visible()
            tab = tab_token(page)
        assert (content / SEASON).read_text() == original       # autosave never touches the content file
        with editor(content) as (url, _):                            # a restart: a new server, a new session
            page.goto(f"{url}{CARD}&tab={tab}")                      # the same tab (its URL keeps the token)
            expect(page.get_by_text("Recovered unsaved edits of base/season_cards.yaml")).to_be_visible()
            expect(field(page, "Victor")).to_have_value("gain 3 vp")
            button(page, "Save").click()
            expect(page.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
    assert "victor: gain 3 vp" in card_block((content / SEASON).read_text(), "most-nests")
    assert not list((content / ".kcd-autosave").rglob("*.json"))


def test_reload_from_disk_keeps_their_other_field_and_asks_for_the_same_field(content: Path) -> None:
    from playwright.sync_api import expect

    with browser_page() as page, editor(content) as (url, _):
        page.goto(url + CARD)
        victor = field(page, "Victor")
        expect(victor).to_have_value("gain 1 vp")
        victor.fill("gain 3 vp")
        expect(page.get_by_text("Rules text: Gain 3 Victory Points").first).to_be_visible()   # the server has it
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
        expect(save).to_be_disabled()                      # nothing left to save
        block = card_block((content / SEASON).read_text(), "most-nests")
        assert "victor: gain 2 vp" in block and "others: gain 2 domain" in block

        # the same field on both sides: both shown, the designer's choice is what is saved
        victor = field(page, "Victor")
        victor.fill("gain 3 vp")
        expect(page.get_by_text("Rules text: Gain 3 Victory Points").first).to_be_visible()
        outside_edit(content, "victor: gain 2 vp", "victor: gain 1 fruit")
        page.reload()   # the page looks at the disk again (my edit comes back from the autosave if need be)
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
