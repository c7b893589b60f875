"""Every editor page through Streamlit's AppTest, on a temporary copy of the shipped content."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest


REPO = Path(__file__).resolve().parent.parent
PAGES = REPO / "editor" / "pages"
SEASON = "base/season_cards.yaml"


@pytest.fixture()
def content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of content/ that the app edits (passed like `kcd editor --content`)."""
    root = tmp_path / "content"
    shutil.copytree(REPO / "content", root)
    monkeypatch.setenv("KCD_CONTENT", str(root))
    return root


def app(page: str) -> AppTest:
    """A fresh AppTest of the editor app (AppTest.from_file on editor/Home.py), switched to one page so
    page links resolve as in the real multipage app ("app" or "Home": the home page itself)."""
    at = AppTest.from_file(str(REPO / "editor" / "Home.py"), default_timeout=120)
    if page not in ("app", "Home"):
        assert (PAGES / page).is_file()
        at.switch_page(f"pages/{page}")
    return at


def field_key(rel: str, path: list, gen: int = 0) -> str:
    """The widget key of one field (see kcd.apps.editor.logic.buffers.key; `gen` is ui.generation of the file)."""
    return f"w{gen}:" + json.dumps([rel, path])


def type_into(at: AppTest, key: str, text: str) -> AppTest:
    """Type into a keystroke input (kcd.apps.editor.textfield, a components-v2 widget) as the browser would report it."""
    at.session_state["_kcd_text_" + key] = {"value": text}
    return at.run()


def shown(at: AppTest, key: str) -> str:
    """What a keystroke input holds now."""
    return at.session_state[key]


def errors(at: AppTest) -> str:
    """Every error box of the page as one text."""
    return "\n".join(str(e.value) for e in at.error)


def season_index(root: Path, card: str) -> tuple[int, int]:
    """(list index, 1-based line of `victor:`) of a Season card in the copy."""
    lines = (root / SEASON).read_text().splitlines()
    index, seen = -1, False
    for number, line in enumerate(lines, start=1):
        if line.startswith("- id:") or line.startswith("- {id:"):
            index += 1
            seen = f"id: {card}" in line
        if seen and line.strip().startswith("victor:"):
            return index, number
    raise AssertionError(f"{card} not found")


def test_home_page_lists_packs(content: Path) -> None:
    at = app("app").run()
    assert not at.exception
    assert "packs: base (base), prototype (edition), compose (mod), example (mod), kiwibot-cards (mod), lastmile (mod), lastmile-duel (mod), reeds (mod), scoped (mod)" in at.markdown[0].value
    assert len(at.get("page_link")) >= 7
    assert any("The whole set is valid" in s.value for s in at.success)


def test_R_SCARD_5_content_edit_invalid_then_fix_and_save_keeps_comments(content: Path) -> None:
    """Edit a Season card's victor benefit into an invalid state, see the located message beside the field,
    fix it, look at the diff, save, check the file on disk (comments kept), then undo."""
    original = (content / SEASON).read_text()
    index, line = season_index(content, "least-flower")
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/least-flower"
    at.run()
    assert not at.exception
    assert at.selectbox(key="content_item").value == f"{SEASON}#season_cards/least-flower"
    assert "Rules text: Gain 2 Fruits" in [c.value for c in at.caption]
    victor = field_key(SEASON, [index, "victor"])
    assert shown(at, victor) == "gain 2 fruit"

    type_into(at, victor, "gian 2 fruit")
    text = errors(at)
    assert f"season_cards.yaml:{line}:11: error[dsl-unknown]: unknown verb `gian`" in text
    assert "  victor: gian 2 fruit\n          ^^^^\n  hint: did you mean `gain`?" in text
    assert at.button(key="btn_save").disabled
    assert (content / SEASON).read_text() == original  # nothing written on an invalid edit

    type_into(at, victor, "gain 3 fruit")
    assert "unknown verb" not in errors(at)
    assert "Rules text: Gain 3 Fruits" in [c.value for c in at.caption]
    diff = [c.value for c in at.code if "+++ b/" in c.value]
    assert diff and "-  victor: gain 2 fruit\n+  victor: gain 3 fruit" in diff[0]
    assert not at.button(key="btn_save").disabled
    at.button(key="btn_save").click().run()
    assert not at.exception
    saved = (content / SEASON).read_text()
    changed = [(a, b) for a, b in zip(original.splitlines(), saved.splitlines()) if a != b]
    assert changed == [("  victor: gain 2 fruit", "  victor: gain 3 fruit")]
    assert len(saved.splitlines()) == len(original.splitlines())
    assert [ln for ln in saved.splitlines() if ln.lstrip().startswith("#")] == \
        [ln for ln in original.splitlines() if ln.lstrip().startswith("#")]
    assert any("Saved base/season_cards.yaml" in s.value for s in at.success)

    at.button(key="btn_undo").click().run()
    assert (content / SEASON).read_text() == original
    assert shown(at, field_key(SEASON, [index, "victor"], gen=1)) == "gain 2 fruit"   # fresh widgets after undo


def test_content_edit_survives_rerun_and_page_switch(content: Path) -> None:
    """Typed text lives in session_state buffers: an invalid edit is not lost on rerun or item change."""
    index, _ = season_index(content, "most-sand")
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/most-sand"
    at.run()
    type_into(at, field_key(SEASON, [index, "victor"]), "gain 1 vpp")
    at.selectbox(key="content_item").set_value("base/nests.yaml#nests/tree-1").run()
    assert not at.exception
    assert "Also unsaved: base/season_cards.yaml" in [c.value for c in at.caption]
    at.switch_page("pages/2_Validate.py").run()
    at.switch_page("pages/1_Content.py").run()
    assert at.selectbox(key="content_item").value == "base/nests.yaml#nests/tree-1"   # not the first item
    at.selectbox(key="content_item").set_value(f"{SEASON}#season_cards/most-sand").run()
    assert shown(at, field_key(SEASON, [index, "victor"])) == "gain 1 vpp"
    assert "error[dsl-" in errors(at)


def test_content_conflict_refuses_overwrite_and_shows_both_versions(content: Path) -> None:
    index, _ = season_index(content, "most-nests")
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/most-nests"
    at.run()
    type_into(at, field_key(SEASON, [index, "victor"]), "gain 2 vp")
    (content / SEASON).write_text((content / SEASON).read_text() + "# edited elsewhere\n")
    at.run()
    assert "changed on disk since it was loaded" in errors(at)
    assert at.button(key="btn_save").disabled
    assert any("# edited elsewhere" in c.value for c in at.code)
    at.button(key="btn_reload").click().run()
    assert not at.button(key="btn_save").disabled
    at.button(key="btn_save").click().run()
    saved = (content / SEASON).read_text()
    assert saved.endswith("# edited elsewhere\n") and "victor: gain 2 vp" in saved


def test_content_save_as_draft_writes_only_drafts(content: Path) -> None:
    index, _ = season_index(content, "most-nests")
    original = (content / SEASON).read_text()
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/most-nests"
    at.run()
    type_into(at, field_key(SEASON, [index, "victor"]), "gian 1 vp")
    at.button(key="btn_draft").click().run()
    assert (content / "drafts" / SEASON).read_text().count("gian 1 vp") == 1
    assert (content / SEASON).read_text() == original


def test_content_overlay_item_shows_what_it_overrides(content: Path) -> None:
    at = app("1_Content.py")
    at.query_params["item"] = "editions/prototype/nests.yaml#nests/tree-2"
    at.run()
    assert not at.exception
    assert any("patchs the base item nests/tree-2" in i.value or "patches" in i.value for i in at.info)
    at.selectbox(key="content_item").set_value("base/nests.yaml#nests/tree-2").run()
    assert any("Changed by overlays: prototype (patch)" in i.value for i in at.info)


def test_content_search_filters_table(content: Path) -> None:
    at = app("1_Content.py").run()
    type_into(at, "content_search", "flower")
    table = at.dataframe[0].value
    assert set(table["id"]) >= {"most-flower", "least-flower"} and "tree-1" not in set(table["id"])


def test_validate_page_reports_and_links_problem_to_its_item(content: Path) -> None:
    nests = content / "base" / "nests.yaml"
    nests.write_text(nests.read_text().replace("place 2 kiwi", "plaec 2 kiwi", 1))
    at = app("2_Validate.py").run()
    assert not at.exception
    text = errors(at)
    assert "nests.yaml" in text and "error[dsl-unknown]: unknown verb `plaec`" in text
    links = [pl for pl in at.get("page_link") if "Nests / " in pl.proto.label]
    assert links and "item=nests%2F" in links[0].proto.query_string


def test_new_leader_page_writes_a_pack_that_loads(content: Path) -> None:
    from kcd.content import load_ruleset

    at = app("3_New_pack.py").run()
    assert not at.exception
    at.text_input(key="leader_pack_id").input("page-mod")
    at.text_input(key="leader_pack_name").input("Page mod")
    at.text_input(key="leader_reason").input("made in a page test")
    at.text_input(key="leader_id").input("mahu")
    at.text_input(key="leader_name").input("Mahu").run()
    assert at.text_input(key="leader_card1_id").value == "mahu-1"     # filled in from the leader id
    assert at.text_input(key="leader_card2_id").value == "mahu-2"
    at.text_area(key="leader_card2_ability").input("leader jumps 2").run()
    previews = [c.value for c in at.caption if c.value.startswith("Rules text:")]
    assert len(previews) == 2 and all("Leader" in p for p in previews)
    at.button(key="btn_create_leader").click().run()
    assert not at.exception, at.exception
    assert (content / "mods/page-mod/leaders.yaml").is_file()
    assert load_ruleset(overlays=["page-mod"], root=content).item("leaders", "mahu").raw["name"] == "Mahu"
