"""The editor's finding-and-editing pages through Streamlit's AppTest: table clicks, search that
selects, deep links, sections and list sub-forms, colour picker, card preview, DSL reference, autosave and
recovery, the reload merge, the Files and drafts page, Home, and the New pack fixes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kcd.apps.editor.logic import autosave
from kcd.apps.editor.logic import yamlrt
from test_editor_pages import content  # noqa: F401 - the shared fixture: a copy of content/ the app edits

REPO = Path(__file__).resolve().parent.parent
SEASON = "base/season_cards.yaml"
GREEN = "base/flocks/green.yaml"
TAB = "tab-token-one"     # a browser tab's session token, as the URL carries it (kcd.apps.editor.ui.SESSION_PARAM)


def app(page: str, item: str | None = None, **params: str) -> AppTest:
    """A fresh session (as after a browser refresh) of one page, run once."""
    at = AppTest.from_file(str(REPO / "editor" / "Home.py"), default_timeout=120)
    if page != "Home":
        at.switch_page(f"pages/{page}")
    if item:
        at.query_params["item"] = item
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def key(rel: str, path: list, gen: int = 0) -> str:
    """A field's widget key."""
    return f"w{gen}:" + json.dumps([rel, path])


def type_into(at: AppTest, widget: str, text: str) -> AppTest:
    """Type into a keystroke input (kcd.apps.editor.textfield) as the browser reports it."""
    at.session_state["_kcd_text_" + widget] = {"value": text}
    at.run()
    assert not at.exception, at.exception
    return at


def texts(elements) -> str:
    """All values of some elements as one text."""
    return "\n".join(str(e.value) for e in elements)


def current(at: AppTest) -> str:
    """The open item's key."""
    return at.session_state["kcd_item"]


def test_clicking_a_table_row_opens_its_item(content: Path) -> None:
    at = app("1_Content.py")
    table = at.dataframe[0]
    row = list(table.value["id"]).index("least-flower")
    at.session_state[table.key] = {"selection": {"rows": [row], "columns": [], "cells": []}}
    at.run()
    assert current(at) == f"{SEASON}#season_cards/least-flower"
    assert at.query_params["item"] in ("season_cards/least-flower", ["season_cards/least-flower"])


def test_search_selects_its_first_match(content: Path) -> None:
    at = app("1_Content.py")
    type_into(at, "content_search", "tui")
    assert current(at) == "base/leaders.yaml#leaders/tui"
    assert set(at.dataframe[0].value["id"]) == {"tui"}


def test_deep_link_survives_a_refresh_and_page_changes(content: Path) -> None:
    at = app("1_Content.py", "season_cards/most-sand")
    assert current(at) == f"{SEASON}#season_cards/most-sand"
    at.switch_page("pages/2_Validate.py").run()
    at.switch_page("pages/1_Content.py").run()
    assert current(at) == f"{SEASON}#season_cards/most-sand"
    link = at.query_params["item"]
    again = app("1_Content.py", link if isinstance(link, str) else link[0])     # a refresh: a new session, the same URL
    assert current(again) == f"{SEASON}#season_cards/most-sand"
    overlay = app("1_Content.py", "nests/tree-2@prototype")
    assert current(overlay) == "editions/prototype/nests.yaml#nests/tree-2"
    missing = app("1_Content.py", "nests/none")
    assert "No item `nests/none`" in texts(missing.warning)


def test_flock_is_split_into_tabs_with_human_labels_and_a_colour_picker(content: Path) -> None:
    at = app("1_Content.py", "flocks/green")
    sections = at.get("button_group")[0]
    assert [o.content for o in sections.proto.options] == ["General", "Side A", "Side B"]
    assert at.color_picker(key=key(GREEN, ["colour"])).value == "#2a9d4b"
    assert "Side B › Track" not in texts(at.markdown)            # one section at a time
    sections.set_value("Side B").run()
    labels = texts(at.markdown)
    assert "Side B › Track" in labels and "*Track slot 4*" in labels
    assert "In the file: `side_b.track[3].benefit`" in labels      # the code path only in the field's help
    assert "Side B › Power" in labels and at.button(key=f"l0:{json.dumps([GREEN, ['side_b', 'power']])}:add")
    assert not [w for w in at.number_input if "slot" in w.key]    # slots are places, renumbered, not typed


def test_list_sub_form_add_reorder_remove_then_save_valid_file(content: Path) -> None:
    at = app("1_Content.py", "flocks/green")
    at.get("button_group")[0].set_value("Side A").run()
    lists = json.dumps([GREEN, ["side_a", "power"]])
    at.button(key=f"l0:{lists}:add").click().run()            # side A had no power: one shaped like side B's
    when = key(GREEN, ["side_a", "power", 0, "when"], gen=1)
    type_into(at, when, "gain domain")
    type_into(at, key(GREEN, ["side_a", "power", 0, "do"], gen=1), "gain 1 fruit")
    track = json.dumps([GREEN, ["side_a", "track"]])
    at.button(key=f"l1:{track}:down:2").click().run()          # slot 3 (gain 1 fruit) below slot 4
    at.button(key=f"l2:{track}:remove:7").click().run()        # drop slot 8: a track has 8 slots
    assert "`track` must have at least 8 entries, got 7" in texts(at.error) and at.button(key="btn_save").disabled
    at.button(key=f"l3:{track}:add").click().run()             # a new slot 8, shaped like the others
    type_into(at, key(GREEN, ["side_a", "track", 7, "benefit"], gen=4), "gain 3 fruit")
    assert at.session_state[key(GREEN, ["side_a", "power", 0, "when"], gen=4)] == "gain domain"
    assert not at.button(key="btn_save").disabled, texts(at.error)
    at.button(key="btn_save").click().run()
    saved = yamlrt.plain(yamlrt.load((content / GREEN).read_text()))
    assert saved["side_a"]["power"] == [{"when": "gain domain", "do": "gain 1 fruit",
                                         "source": "designed: added in the editor"}]
    assert [s["slot"] for s in saved["side_a"]["track"]] == [1, 2, 3, 4, 5, 6, 7, 8]
    benefits = [s["benefit"] for s in saved["side_a"]["track"]]
    assert benefits[2:4] == ["grow 1 kiwi", "gain 1 fruit"] and benefits[7] == "gain 3 fruit"
    assert saved["side_a"]["track"][7]["source"] == "designed: added in the editor"
    from kcd.content import load_ruleset

    assert load_ruleset(root=content).item("flocks", "green").raw["side_a"]["power"][0]["do"] == "gain 1 fruit"


def test_card_preview_and_reference_beside_dsl_fields(content: Path) -> None:
    from kcd.apps.editor.logic.board_svg import from_img_tag

    at = app("1_Content.py", "nests/tree-1")
    cards = [from_img_tag(h.proto.body) for h in at.get("html") if "base64" in h.proto.body]
    assert cards and "Tree Nest, row 1" in cards[0] and "Cost: Pay 2 Fruits of the same color" in cards[0]
    type_into(at, key("base/nests.yaml", [0, "on_place"]), "gain 3 fruit")
    card = from_img_tag(next(h.proto.body for h in at.get("html") if "base64" in h.proto.body))
    assert "Gain 3 Fruits" in card                              # the preview follows every keystroke
    tables = {m.value.split("**")[1]: m.value for m in at.markdown if "| write | what it does |" in m.value}
    assert "`gain <n> fruit`" in tables["effect"] and "`pay <n> fruit <rule>`" in tables["cost"]
    assert "`gain <n> fruit`" not in tables["cost"] and "`may` (statement)" not in tables["cost"]   # pay verbs only
    assert "**cost** := `pay-call ; pay-call ... | choose { cost } or { cost } ...`" in tables["cost"]
    leader = app("1_Content.py", "leaders/chopan")
    faces = [from_img_tag(h.proto.body) for h in leader.get("html") if "base64" in h.proto.body]
    assert len(faces) == 2 and "Leader card of Chopan" in faces[0]


def test_unsaved_edits_come_back_in_a_new_session_of_the_same_tab_with_a_banner(content: Path) -> None:
    at = app("1_Content.py", "season_cards/most-nests", tab=TAB)
    type_into(at, key(SEASON, [0, "victor"]), "gain 3 vp")
    assert autosave.load(content, SEASON, TAB).edits == {(0, "victor"): "gain 3 vp"}
    after = app("1_Content.py", "season_cards/most-nests", tab=TAB)   # refresh, crash or restart: same URL
    assert "Recovered unsaved edits of base/season_cards.yaml" in texts(after.info)
    assert after.session_state[key(SEASON, [0, "victor"])] == "gain 3 vp"
    home = app("Home", tab=TAB)
    assert "Unsaved edits (autosaved" in texts(home.warning)
    after.button(key="btn_discard").click().run()
    assert autosave.load(content, SEASON, TAB) is None
    assert "Recovered" not in texts(app("1_Content.py", tab=TAB).info)


def test_reload_merges_field_by_field_and_asks_for_a_clash(content: Path) -> None:
    at = app("1_Content.py", "season_cards/most-nests")
    type_into(at, key(SEASON, [0, "victor"]), "gain 3 vp")
    type_into(at, key(SEASON, [0, "others"]), "gain 2 domain")
    path = content / SEASON
    text = path.read_text()
    path.write_text(text.replace("victor: gain 1 vp", "victor: gain 1 fruit", 1)
                    .replace("objective: most count(my nests)", "objective: most count(my nests)   # checked", 1))
    at.run()
    assert at.button(key="btn_save").disabled and "changed on disk" in texts(at.error)
    at.button(key="btn_reload").click().run()
    assert "1 field(s) changed both by you and on disk" in texts(at.error)
    assert at.button(key="btn_save").disabled
    assert at.session_state[key(SEASON, [0, "others"], gen=1)] == "gain 2 domain"   # only mine: kept
    assert at.session_state[key(SEASON, [0, "victor"], gen=1)] == "gain 1 fruit"    # theirs until I choose
    at.button(key="clash_theirs_0").click().run()
    at.button(key="btn_save").click().run()
    saved = path.read_text()
    assert "victor: gain 1 fruit" in saved and "others: gain 2 domain" in saved and "# checked" in saved


def test_raw_view_fixes_a_yaml_error_and_saves_only_when_valid(content: Path) -> None:
    nests = content / "base/nests.yaml"
    good = nests.read_text()
    nests.write_text(good.replace("  type: tree\n", "  type: [tree\n", 1))
    home = app("Home")
    assert "has a YAML syntax error" in texts(home.warning) and "did not find expected" not in texts(home.error)
    table = app("1_Content.py").dataframe[0].value
    assert "File with a YAML error" in set(table["kind"])
    at = app("6_Files_and_drafts.py", file="base/nests.yaml")
    assert at.selectbox(key="raw_file").value == "base/nests.yaml"
    shown = at.code[0].value
    assert "error[yaml-syntax]" in shown and shown.index("error[yaml-syntax]") > shown.index("type: [tree")
    raw = at.session_state["raw0:base/nests.yaml"]              # the text field, checked as typed
    type_into(at, "raw0:base/nests.yaml", raw.replace("[tree", "[tree, cave"))
    assert at.button(key="raw_save").disabled                   # parses now, but `type` must be one word
    assert "error[" in at.code[0].value                         # ... and says so under the line, live
    at.button(key="raw_draft").click().run()
    assert (content / "drafts/base/nests.yaml").is_file()
    type_into(at, "raw0:base/nests.yaml", good)
    assert not texts(at.error) and "base/nests.yaml: valid (with your edits)" in texts(at.success)
    assert not at.button(key="raw_save").disabled
    at.button(key="raw_save").click().run()
    assert nests.read_text() == good
    assert "has a YAML syntax error" not in texts(app("Home").warning)


def test_drafts_are_listed_reopened_and_deleted(content: Path) -> None:
    at = app("1_Content.py", "season_cards/most-nests")
    type_into(at, key(SEASON, [0, "victor"]), "gian 1 vp")
    at.button(key="btn_draft").click().run()
    at.button(key="btn_discard").click().run()
    files = app("6_Files_and_drafts.py")
    assert "drafts/base/season_cards.yaml" in texts(files.markdown)
    files.button(key="draft_open_0").click().run()
    assert files.selectbox(key="raw_file").value == SEASON
    assert "gian 1 vp" in files.session_state["kcd_raw"][SEASON]
    assert "unknown verb `gian`" in files.code[0].value
    files.button(key="draft_delete_0").click().run()
    assert not (content / "drafts" / SEASON).exists() and "No drafts." in texts(files.markdown)


def test_home_shows_where_to_start_status_and_recent_saves(content: Path) -> None:
    at = app("1_Content.py", "season_cards/most-nests")
    type_into(at, key(SEASON, [0, "victor"]), "gain 2 vp")
    at.button(key="btn_save").click().run()
    home = app("Home")
    labels = [p.proto.label for p in home.get("page_link")]
    assert any(label.startswith("Content: find an item") for label in labels)
    assert any("whole set is valid" in s.value for s in home.success)
    assert "`base/season_cards.yaml` saved just now" in texts(home.markdown)
    assert "Ctrl+C" in texts(home.caption)


def test_new_flock_stays_on_its_form_and_writes_its_own_power_text(content: Path) -> None:
    at = app("3_New_pack.py")
    at.get("button_group")[0].set_value("New flock").run()
    assert at.color_picker(key="flock_colour").value not in ("#f28c28", "#ff8c00")
    at.text_input(key="flock_pack_id").input("teal-mod")
    at.text_input(key="flock_id").input("teal")
    at.text_input(key="flock_name").input("Teal")
    at.text_input(key="flock_when").input("gain domain")
    at.text_area(key="flock_do").input("gain 1 fruit").run()
    at.button(key="btn_create_flock").click().run()
    assert not at.exception, at.exception
    assert (content / "mods/teal-mod/flocks/teal.yaml").is_file()
    assert at.get("button_group")[0].value == "New flock" and at.text_input(key="flock_id")   # still the flock form
    text = (content / "mods/teal-mod/flocks/teal.yaml").read_text()
    assert "Whenever you gain Domain markers: Gain 1 Fruit" in text and "take 1 more" not in text


def test_new_leader_with_pack_id_base_gets_a_clear_error(content: Path) -> None:
    at = app("3_New_pack.py")
    at.text_input(key="leader_pack_id").input("base")
    at.text_input(key="leader_id").input("tane").run()
    at.button(key="btn_create_leader").click().run()
    assert "pack id `base` is the base game's own folder" in texts(at.error)
    assert not (content / "mods/base").exists()


def test_a_failing_disk_gives_clear_messages_and_keeps_the_edits(content: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from kcd.apps.editor.logic import store

    at = app("1_Content.py", "season_cards/most-nests")
    original = (content / SEASON).read_text()

    def full_disk(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "_temp_copy", full_disk)
    type_into(at, key(SEASON, [0, "victor"]), "gain 3 vp")
    assert "Autosave of base/season_cards.yaml failed" in texts(at.warning)
    at.button(key="btn_save").click().run()
    assert not at.exception, at.exception
    assert "No space left on device (your edits are kept)" in texts(at.error)
    assert (content / SEASON).read_text() == original
    assert at.session_state[key(SEASON, [0, "victor"])] == "gain 3 vp"
    monkeypatch.undo()
    at.button(key="btn_save").click().run()
    assert "victor: gain 3 vp" in (content / SEASON).read_text()


def test_one_item_of_every_kind_opens_with_its_sections_and_no_error(content: Path) -> None:
    from kcd.apps.editor.logic import catalog

    items, _ = catalog.catalog(content)
    firsts = {}
    for item in items:
        firsts.setdefault(item.kind, item)
    assert len(firsts) >= 14
    at = app("1_Content.py")
    for kind, item in firsts.items():
        at.query_params["item"] = item.link
        at.run()
        assert not at.exception, (kind, at.exception)
        assert current(at) == item.key, kind
        assert not [e for e in at.error if "cannot be edited" in str(e.value)], kind
        assert any("valid" in s.value for s in at.success), (kind, texts(at.error))


def test_validate_page_links_a_yaml_error_to_the_raw_file_view(content: Path) -> None:
    nests = content / "base/nests.yaml"
    nests.write_text(nests.read_text().replace("  type: tree\n", "  type: [tree\n", 1))
    at = app("2_Validate.py")
    assert "error[yaml-syntax]" in texts(at.error)
    links = [pl.proto for pl in at.get("page_link") if "raw file view (the error under its line)" in pl.proto.label]
    assert links and "file=base%2Fnests.yaml" in links[0].query_string


def test_a_file_changed_on_disk_without_my_edits_shows_the_new_values_in_the_same_inputs(content: Path) -> None:
    """No edits of mine: the page takes the new file and puts its values into the inputs it has, keeping their
    keys, so a keystroke already on its way to the old input still counts (as an edit of the new version)."""
    at = app("1_Content.py", "season_cards/most-nests")
    path = content / SEASON
    path.write_text(path.read_text().replace("others: gain 1 domain", "others: gain 2 domain", 1)
                    .replace("victor: gain 1 vp", "victor: gain 2 vp", 1))
    at.run()
    assert not at.exception, at.exception
    assert "changed on disk; you had no edits in it" in texts(at.info)
    assert at.session_state[key(SEASON, [0, "others"])] == "gain 2 domain"     # the same input, new value
    assert at.session_state[key(SEASON, [0, "victor"])] == "gain 2 vp"
    assert not [c for c in at.code if "+++ b/" in c.value]                     # nothing to save: no stale edit
    type_into(at, key(SEASON, [0, "victor"]), "gain 5 vp")                     # typed into the same input
    diff = [c.value for c in at.code if "+++ b/" in c.value]
    assert diff and "-  victor: gain 2 vp\n+  victor: gain 5 vp" in diff[0] and "+  others" not in diff[0]
    assert not at.button(key="btn_save").disabled
