"""In real headless Chromium: nothing typed into the editor is lost. 300 fast keystrokes (letters, Backspace,
caret moves) into a Season card's benefit, with a Save in the middle (its message appears above the form and
expires while typing goes on: the moment streamlit-keyup lost text); the field, the autosave the editor wrote
and the diff it validated all hold exactly what was typed (R-SCARD-5 is the field's rule). The raw file view
checks as typed too. Marker `browser`."""
from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from test_editor_browser import REPO, browser_page, button, editor, field, need_chromium

SEASON = "base/season_cards.yaml"
CARD = "/Content?item=season_cards/most-nests"

pytestmark = pytest.mark.browser


def type_randomly(page, rng: random.Random, text: list[str], caret: int, keys: int) -> int:
    """Press `keys` random keys (letters, space, Backspace, Left, End) fast; mirror them on `text`; return the
    caret."""
    for _ in range(keys):
        roll = rng.random()
        if roll < 0.15 and caret > 0:
            page.keyboard.press("Backspace")
            caret -= 1
            text.pop(caret)
        elif roll < 0.22:
            page.keyboard.press("ArrowLeft")
            caret = max(0, caret - 1)
        elif roll < 0.26:
            page.keyboard.press("End")
            caret = len(text)
        else:
            char = rng.choice("abcdefghij klmnop")
            page.keyboard.type(char)
            text.insert(caret, char)
            caret += 1
        page.wait_for_timeout(rng.randint(5, 70))   # 25 keys a second on average, bursts faster
    return caret


def autosaved(content: Path) -> dict:
    """The field edits of the season cards file the editor autosaved (what it holds for this session)."""
    found = [json.loads(p.read_text()) for p in (content / ".kcd-autosave").rglob("*.json")]
    assert len(found) == 1, found
    return {tuple(path): value for path, value in found[0]["edits"]}


def test_300_fast_keystrokes_with_a_save_between_are_all_kept(tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import expect

    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    rng = random.Random(22)
    with browser_page() as page, editor(content) as (url, _):
        page.goto(url + CARD)
        victor = field(page, "Victor")
        expect(victor).to_have_value("gain 1 vp")
        victor.click()
        page.keyboard.press("End")
        text = list("gain 1 vp")
        type_randomly(page, rng, text, len(text), 120)
        expect(victor).to_have_value("".join(text))
        # a valid value, saved: the "Saved" message appears above the form and expires 8 s later
        victor.fill("gain 2 vp")
        expect(page.get_by_text("Rules text: Gain 2 Victory Points").first).to_be_visible()
        button(page, "Save").click()
        victor.click()
        page.keyboard.press("End")
        text = list("gain 2 vp")
        type_randomly(page, rng, text, len(text), 180)
        typed = "".join(text)
        page.wait_for_timeout(8500 - 180 * 40)   # the message has expired (a rerun without it above the form)
        victor.press("End")
        victor.type("x")
        typed += "x"
        expect(victor).to_have_value(typed)
        page.wait_for_timeout(1000)              # past the debounce: the server has the text
        expect(victor).to_have_value(typed)
        assert autosaved(content) == {(0, "victor"): typed}     # most-nests is the file's first card
        diff = page.locator('[data-stale="false"] code').filter(has_text="+  victor:")
        expect(diff.first).to_contain_text("victor: " + typed.strip()[:20])
    assert "victor: gain 2 vp" in (content / SEASON).read_text()   # the Save in the middle saved its value


def test_raw_file_view_checks_as_typed_and_an_unknown_file_link_says_so(tmp_path: Path) -> None:
    """The raw YAML view validates while typing (no click outside, no Ctrl+Enter): a Nest's `type` (R-BUILD-2)
    typed wrong shows its located error under the line, typed right again says valid."""
    need_chromium()
    from playwright.sync_api import expect

    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    with browser_page() as page, editor(content) as (url, _):
        page.goto(url + "/Files_and_drafts?file=base/nothing.yaml")
        expect(page.get_by_text(re.compile("^No content file base/nothing.yaml in this content folder")).first) \
            .to_be_visible()
        page.goto(url + "/Files_and_drafts?file=base/nests.yaml")
        text = page.locator('[data-stale="false"] .kcdtext textarea')
        expect(text).to_have_value((content / "base/nests.yaml").read_text())
        expect(page.get_by_text("base/nests.yaml: valid").first).to_be_visible()
        text.click()
        page.keyboard.press("Control+Home")
        for _ in range(3):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("End")                       # the end of `  type: tree` of tree-1
        page.keyboard.type("x", delay=30)
        expect(page.get_by_text(re.compile(r"problem\(s\) in base/nests.yaml")).first).to_be_visible()
        page.keyboard.press("Backspace")
        expect(page.get_by_text("base/nests.yaml: valid").first).to_be_visible()
