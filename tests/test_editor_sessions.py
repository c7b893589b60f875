"""Autosave per browser tab (a session token in the URL) and file: a save in one tab keeps another tab's unsaved
edits; a refreshed tab takes back only its own; another tab's edits are offered and merged field by field; an
edit equal to the file is no edit, and the recovered-edits banner always has a working Discard. Plain functions
first, then the pages through AppTest (two tabs are two AppTest sessions with different tokens). The fields are
Season card benefits (R-SCARD-5)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcd.apps.editor.logic import autosave, store
from test_editor_content_pages import app, key, texts, type_into
from test_editor_pages import content  # noqa: F401 - the shared fixture: a copy of content/ the app edits

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"
ONE, TWO = "tab-token-one", "tab-token-two"
VICTOR, OTHERS = (0, "victor"), (0, "others")       # most-nests is the file's first card


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A writable copy of the shipped content."""
    dest = tmp_path / "content"
    shutil.copytree(REPO / "content", dest)
    return dest


def test_autosaves_are_kept_per_session_and_file(root: Path) -> None:
    text = (root / SEASON).read_text()
    autosave.record(root, autosave.Pending(SEASON, text, {VICTOR: "gain 3 vp"}, session=ONE))
    autosave.record(root, autosave.Pending(SEASON, text, {OTHERS: "gain 2 domain"}, session=TWO))
    assert autosave.load(root, SEASON, ONE).edits == {VICTOR: "gain 3 vp"}
    assert autosave.load(root, SEASON, TWO).edits == {OTHERS: "gain 2 domain"}
    assert autosave.load_all(root, "new-tab-token") == {}           # a new tab takes nothing as its own
    assert [p.session for p in autosave.others(root, "new-tab-token", SEASON)] in ([ONE, TWO], [TWO, ONE])
    autosave.clear(root, SEASON, ONE)                                  # tab one saved or discarded
    assert autosave.load(root, SEASON, ONE) is None
    assert autosave.load(root, SEASON, TWO).edits == {OTHERS: "gain 2 domain"}   # tab two's edits live on
    assert [p.session for p in autosave.others(root, ONE)] == [TWO]
    assert autosave.sessions(root) == [TWO]                           # tab one's emptied folder is gone
    autosave.clear(root, SEASON, TWO)
    assert autosave.sessions(root) == [] and (root / autosave.AUTOSAVE_DIR).is_dir()


def test_a_bad_session_token_is_refused(root: Path) -> None:
    assert not autosave.valid_token("../../etc") and not autosave.valid_token("short")
    assert autosave.valid_token(autosave.new_token())
    with pytest.raises(ValueError, match="not a session token"):
        autosave.load(root, SEASON, "../x")


def test_an_edit_equal_to_the_file_is_no_edit(root: Path) -> None:
    text = (root / SEASON).read_text()
    same = autosave.Pending(SEASON, text, {VICTOR: "gain 1 vp"}, session=ONE)   # typed back to the file's value
    assert not same.is_edit()
    assert autosave.record(root, same) is None and autosave.load_all(root, ONE) == {}
    # recorded on the old text just as a save wrote the same value: equal to the disk now, so not loaded
    old = text.replace("victor: gain 1 vp", "victor: gain 2 vp", 1)
    autosave.record(root, autosave.Pending(SEASON, old, {VICTOR: "gain 1 vp"}, session=ONE))
    assert autosave.load(root, SEASON, ONE) is None and autosave.load_all(root, ONE) == {}
    assert autosave.Pending(SEASON, text, raw=text).is_edit() is False


def test_merge_in_takes_their_fields_and_reports_a_field_both_changed(root: Path) -> None:
    text = (root / SEASON).read_text()
    mine = autosave.Pending(SEASON, text, {VICTOR: "gain 3 vp"}, session=ONE)
    theirs = autosave.Pending(SEASON, text, {OTHERS: "gain 2 domain", (1, "others"): "place 2 kiwi"}, session=TWO)
    edits, clashes = autosave.merge_in(mine, theirs)
    assert edits == {VICTOR: "gain 3 vp", OTHERS: "gain 2 domain", (1, "others"): "place 2 kiwi"} and not clashes
    both = autosave.Pending(SEASON, text, {VICTOR: "gain 2 fruit"}, session=TWO)
    edits, clashes = autosave.merge_in(mine, both)
    assert edits == {VICTOR: "gain 3 vp"}
    assert [(c.path, c.base, c.mine, c.theirs) for c in clashes] == [(VICTOR, "gain 1 vp", "gain 3 vp", "gain 2 fruit")]
    with pytest.raises(ValueError, match="raw file view"):
        autosave.merge_in(mine, autosave.Pending(SEASON, text, raw=text + "\n# x\n", session=TWO))


def test_a_save_in_one_tab_keeps_the_other_tabs_edits_and_a_refresh_takes_only_its_own(content: Path) -> None:
    one = app("1_Content.py", "season_cards/most-nests", tab=ONE)
    two = app("1_Content.py", "season_cards/most-size1", tab=TWO)
    type_into(two, key(SEASON, [1, "victor"]), "gain 3 fruit")          # tab two edits another card, unsaved
    type_into(one, key(SEASON, list(VICTOR)), "gain 3 vp")
    one.button(key="btn_save").click().run()
    assert "victor: gain 3 vp" in (content / SEASON).read_text()
    assert autosave.load(content, SEASON, ONE) is None
    assert autosave.load(content, SEASON, TWO).edits == {(1, "victor"): "gain 3 fruit"}   # not deleted
    again = app("1_Content.py", "season_cards/most-nests", tab=ONE)       # tab one refreshed
    assert "Recovered" not in texts(again.info)
    assert again.session_state[key(SEASON, list(VICTOR))] == "gain 3 vp"   # the saved value, not tab two's
    assert "Another tab (or an earlier session) has unsaved edits of base/season_cards.yaml" in texts(again.warning)
    back = app("1_Content.py", "season_cards/most-size1", tab=TWO)      # tab two refreshed: its own edit
    assert back.session_state[key(SEASON, [1, "victor"])] == "gain 3 fruit"


def test_another_tabs_edits_are_merged_field_by_field_on_request(content: Path) -> None:
    one = app("1_Content.py", "season_cards/most-nests", tab=ONE)
    type_into(one, key(SEASON, list(OTHERS)), "gain 2 domain")
    type_into(one, key(SEASON, list(VICTOR)), "gain 2 fruit")
    two = app("1_Content.py", "season_cards/most-nests", tab=TWO)
    assert two.session_state[key(SEASON, list(VICTOR))] == "gain 1 vp"   # not taken as its own
    type_into(two, key(SEASON, list(VICTOR)), "gain 3 vp")
    two.button(key=f"other_merge:{ONE}:{SEASON}").click().run()
    assert two.session_state[key(SEASON, list(OTHERS), 1)] == "gain 2 domain"   # their other field taken
    assert "1 field(s) changed both by you and the other tab" in texts(two.error)
    assert autosave.load(content, SEASON, ONE) is None                    # merged: lives on in tab two's autosave
    two.button(key="clash_theirs_0").click().run()                          # take the other tab's value
    assert autosave.load(content, SEASON, TWO).edits == {VICTOR: "gain 2 fruit", OTHERS: "gain 2 domain"}
    two.button(key="btn_save").click().run()
    text = (content / SEASON).read_text()
    assert "victor: gain 2 fruit" in text and "others: gain 2 domain" in text


def test_recovered_banner_has_working_keep_and_discard_and_no_phantom_after_save(content: Path) -> None:
    one = app("1_Content.py", "season_cards/most-nests", tab=ONE)
    type_into(one, key(SEASON, list(VICTOR)), "gain 3 vp")
    one.button(key="btn_save").click().run()
    # the phantom: a save that leaves an edit equal to the file recorded (as a late keystroke report could)
    text = (content / SEASON).read_text()
    autosave.record(content, autosave.Pending(SEASON, store.read(content, SEASON).text.replace(
        "victor: gain 3 vp", "victor: gain 1 vp", 1), {VICTOR: "gain 3 vp"}, session=ONE))
    for page in ("Home", "1_Content.py", "4_Playtest.py"):
        assert "Recovered unsaved" not in texts(app(page, tab=ONE).info)
    assert (content / SEASON).read_text() == text
    type_into(one, key(SEASON, list(VICTOR)), "gain 2 vp")
    banner = app("4_Playtest.py", tab=ONE)                  # any page shows it, with its buttons
    assert "Recovered unsaved edits of base/season_cards.yaml" in texts(banner.info)
    banner.button(key=f"recovered_discard:{SEASON}").click().run()
    assert "Recovered unsaved" not in texts(banner.info) and autosave.load(content, SEASON, ONE) is None
    assert "Recovered unsaved" not in texts(app("Home", tab=ONE).info)
    type_into(one, key(SEASON, list(VICTOR)), "gain 4 vp")
    kept = app("Home", tab=ONE)
    kept.button(key=f"recovered_keep:{SEASON}").click().run()
    assert "Recovered unsaved" not in texts(kept.info) and autosave.load(content, SEASON, ONE) is not None


def test_the_tab_token_is_put_in_the_url(content: Path) -> None:
    fresh = app("Home")
    token = fresh.session_state["kcd_session"]
    assert autosave.valid_token(token)
    assert fresh.query_params["tab"] in (token, [token])
    assert app("Home", tab=ONE).session_state["kcd_session"] == ONE
