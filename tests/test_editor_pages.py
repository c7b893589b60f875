"""Every editor page through Streamlit's AppTest, on a temporary copy of the shipped content (issue 4)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from editor.logic.board_svg import from_img_tag

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


def field_key(rel: str, path: list) -> str:
    """The widget key of one field (see editor.logic.buffers.key)."""
    return "w:" + json.dumps([rel, path])


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
    assert "packs: base (base), prototype (edition), compose (mod), example (mod)" in at.markdown[0].value
    assert len(at.get("page_link")) == 5


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
    victor = at.text_area(key=field_key(SEASON, [index, "victor"]))
    assert victor.value == "gain 2 fruit"
    assert victor.help  # the schema's description is the field's help

    victor.input("gian 2 fruit").run()
    text = errors(at)
    assert f"season_cards.yaml:{line}:11: error[dsl-unknown]: unknown verb `gian`" in text
    assert "  victor: gian 2 fruit\n          ^^^^\n  hint: did you mean `gain`?" in text
    assert at.button(key="btn_save").disabled
    assert (content / SEASON).read_text() == original  # nothing written on an invalid edit

    at.text_area(key=field_key(SEASON, [index, "victor"])).input("gain 3 fruit").run()
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
    assert at.text_area(key=field_key(SEASON, [index, "victor"])).value == "gain 2 fruit"


def test_content_edit_survives_rerun_and_page_switch(content: Path) -> None:
    """Typed text lives in session_state buffers: an invalid edit is not lost on rerun or item change."""
    index, _ = season_index(content, "most-sand")
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/most-sand"
    at.run()
    at.text_area(key=field_key(SEASON, [index, "victor"])).input("gain 1 vpp").run()
    at.selectbox(key="content_item").set_value("base/nests.yaml#nests/tree-1").run()
    assert not at.exception
    assert "Also unsaved: base/season_cards.yaml" in [c.value for c in at.caption]
    at.selectbox(key="content_item").set_value(f"{SEASON}#season_cards/most-sand").run()
    assert at.text_area(key=field_key(SEASON, [index, "victor"])).value == "gain 1 vpp"
    assert "error[dsl-" in errors(at)


def test_content_conflict_refuses_overwrite_and_shows_both_versions(content: Path) -> None:
    index, _ = season_index(content, "most-nests")
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/most-nests"
    at.run()
    (content / SEASON).write_text((content / SEASON).read_text() + "# edited elsewhere\n")
    at.text_area(key=field_key(SEASON, [index, "victor"])).input("gain 2 vp").run()
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
    at.text_area(key=field_key(SEASON, [index, "victor"])).input("gian 1 vp").run()
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
    at.text_input(key="content_search").input("flower").run()
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
    assert links and "item=base%2Fnests.yaml%23nests%2F" in links[0].proto.query_string


def test_new_leader_page_writes_a_pack_that_loads(content: Path) -> None:
    from interpreter.content import load_ruleset

    at = app("3_New_pack.py").run()
    assert not at.exception
    at.text_input(key="leader_pack_id").input("page-mod")
    at.text_input(key="leader_pack_name").input("Page mod")
    at.text_input(key="leader_reason").input("made in a page test")
    at.text_input(key="leader_id").input("mahu")
    at.text_input(key="leader_name").input("Mahu").run()
    at.text_input(key="leader_card1_id").input("mahu-1")
    at.text_input(key="leader_card2_id").input("mahu-2")
    at.text_area(key="leader_card2_ability").input("leader jumps 2").run()
    previews = [c.value for c in at.caption if c.value.startswith("Rules text:")]
    assert len(previews) == 2 and all("Leader" in p for p in previews)
    at.button(key="btn_create_leader").click().run()
    assert not at.exception, at.exception
    assert (content / "mods/page-mod/leaders.yaml").is_file()
    assert load_ruleset(overlays=["page-mod"], root=content).item("leaders", "mahu").raw["name"] == "Mahu"


def test_playtest_page_runs_games_and_draws_charts(content: Path) -> None:
    at = app("4_Playtest.py").run()
    assert not at.exception, at.exception
    at.number_input(key="pt_games").set_value(3)
    at.button(key="pt_run").click().run()
    assert not at.exception, at.exception
    assert not errors(at)
    charts = at.get("vega_lite_chart")
    assert len(charts) == 6
    assert "3 games" in " ".join(m.value for m in at.markdown)



def _spy_playtest_runs(monkeypatch: pytest.MonkeyPatch) -> list:
    """Record the setup of every simulation the Playtest page starts (the runs still happen)."""
    from editor.logic import playtest

    seen: list = []
    real_run = playtest.run

    def spy(ruleset, setup, progress=None):
        seen.append(setup)
        return real_run(ruleset, setup, progress)

    monkeypatch.setattr(playtest, "run", spy)
    return seen


def test_R_VTO_1_playtest_page_offers_variable_turn_order(content: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-VTO-1: the page keeps the setup choice (first-game/advanced) and adds the rules variant the content offers;
    the chosen variant reaches the simulation."""
    seen = _spy_playtest_runs(monkeypatch)
    at = app("4_Playtest.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="pt_setup").options == ["first-game", "advanced"]
    assert at.selectbox(key="pt_variant").options == ["Standard game", "Variable Turn Order"]
    at.selectbox(key="pt_variant").select("Variable Turn Order")
    at.selectbox(key="pt_setup").select("advanced")
    at.number_input(key="pt_games").set_value(2)
    at.button(key="pt_run").click().run()
    assert not at.exception, at.exception
    assert not errors(at)
    assert seen and seen[-1].variant == "vto" and seen[-1].setup == "advanced"
    assert len(at.get("vega_lite_chart")) == 6
    assert "2 games (Variable Turn Order)" in " ".join(m.value for m in at.markdown)


def test_R_VTO_1_playtest_variant_offered_only_when_content_declares_it(content: Path) -> None:
    """Content without game.yaml `variants` offers only the standard game on the Playtest page."""
    game = content / "base" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text[: text.index("\n# Rules variants")] + "\n", encoding="utf-8")
    at = app("4_Playtest.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="pt_variant").options == ["Standard game"]


def test_playtest_page_ab_against_unsaved_edit(content: Path) -> None:
    at = app("1_Content.py")
    at.query_params["item"] = f"{SEASON}#season_cards/most-nests"
    at.run()
    index, _ = season_index(content, "most-nests")
    at.text_area(key=field_key(SEASON, [index, "victor"])).input("gain 3 vp").run()
    at.switch_page("pages/4_Playtest.py").run()
    assert not at.exception, at.exception
    at.number_input(key="pt_games").set_value(2)
    at.checkbox(key="pt_ab").check()
    at.button(key="pt_run").click().run()
    assert not at.exception, at.exception
    assert not errors(at)
    frames = [d.value for d in at.dataframe]
    assert frames and "delta" in frames[0].columns
    assert len(at.get("vega_lite_chart")) == 7


def test_board_page_draws_layout_and_steps_a_played_game(content: Path) -> None:
    at = app("5_Board.py").run()
    assert not at.exception, at.exception
    at.selectbox(key="board_layout").set_value("2p")
    at.selectbox(key="board_setup").set_value("2p").run()
    svg = from_img_tag(at.get("html")[0].proto.body)
    assert svg.startswith("<svg") and 'class="leader"' in svg and 'class="kiwi"' in svg
    at.radio(key="board_source").set_value("Played game").run()
    at.button(key="board_play").click().run()
    assert not at.exception, at.exception
    slider = at.slider(key="board_step")
    assert slider.max > 10
    slider.set_value(10).run()
    assert any(c.value.startswith("After decision 10:") for c in at.caption)
    assert from_img_tag(at.get("html")[0].proto.body).startswith("<svg")


def test_board_page_draws_a_position_file(content: Path, tmp_path: Path) -> None:
    """The rulebook's Dominance example as a position (R-DOM-1/2), drawn from the engine's view."""
    position = tmp_path / "dominance.yaml"
    position.write_text(
        "players: [purple, red, yellow, green]\n"
        "island:\n  - {id: A, q: 0, r: 0, terrain: mountain}\n  - {id: B, q: 1, r: 0, terrain: flower}\n"
        "hexes:\n  A:\n    kiwi: {purple: [1, 1, 2], red: [1, 1], yellow: [2], green: [1]}\n"
        "    leaders: [red]\n    nest: {purple: control-1}\n")
    at = app("5_Board.py").run()
    at.radio(key="board_source").set_value("Position file").run()
    at.text_input(key="board_position").input(str(position)).run()
    assert not at.exception, at.exception
    assert not errors(at), errors(at)
    svg = from_img_tag(at.get("html")[0].proto.body)
    assert svg.count('class="kiwi"') == 7 and 'class="leader" data-flock="red"' in svg
    assert 'data-nest="control-1"' in svg
    position.write_text("players: [purple]\nhexes:\n  Z9:\n    kiwi: {purple: [4]}\n")
    at.text_input(key="board_position").input(str(position) + " ").run()
    assert "dominance.yaml:" in errors(at)


def test_R_SOLO_playtest_page_plays_solo_against_kiwibot(content: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R-SOLO-1/12: "Solo (against Kiwibot)" with a marker side reaches the simulation; the page adds the
    player-vs-Kiwibot win rate (headline and chart) to the usual charts."""
    seen = _spy_playtest_runs(monkeypatch)
    at = app("4_Playtest.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="pt_mode").options == ["Standard game", "Solo (against Kiwibot)"]
    at.selectbox(key="pt_mode").select("Solo (against Kiwibot)").run()
    assert at.selectbox(key="pt_solo_side").options == ["(dealt from the seed)", "bot-side", "player-side"]
    assert at.number_input(key="pt_players").disabled and at.selectbox(key="pt_variant").disabled
    at.selectbox(key="pt_solo_side").select("player-side")
    at.number_input(key="pt_games").set_value(2)
    at.button(key="pt_run").click().run()
    assert not at.exception, at.exception
    assert not errors(at)
    assert seen and seen[-1].mode == "solo" and seen[-1].solo_side == "player-side"
    text = " ".join(m.value for m in at.markdown)
    assert "2 games (solo against Kiwibot, marker side player-side)" in text
    assert "The player won" in text and "against Kiwibot" in text
    assert len(at.get("vega_lite_chart")) == 7


def test_R_SOLO_board_page_steps_a_solo_game(content: Path) -> None:
    """R-SOLO-2/4/7: a played solo game steps through: Kiwibot's turns between the decisions, the Solo block (top
    Solo card, cards left) and the Season cards, face down until their season (all face up at the end)."""
    at = app("5_Board.py").run()
    at.radio(key="board_source").set_value("Played game").run()
    at.selectbox(key="board_mode").select("Solo (against Kiwibot)").run()
    at.selectbox(key="board_solo_side").select("bot-side")
    at.button(key="board_play").click().run()
    assert not at.exception, at.exception
    assert not errors(at)
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    panel = frames[("what", "value")].set_index("what")["value"]
    assert panel["Solo-mode marker side"] == "bot-side" and panel["Top Solo card"].startswith("solo-")
    assert panel["Solo cards left"] == "4"
    cards = frames[("season", "card")]
    assert len(cards) == 8 and (cards["card"] == "(face down)").sum() == 6   # season 1 is flipped at the start
    assert "reveals" in " ".join(t.value for t in at.text)   # Kiwibot's opening turn
    slider = at.slider(key="board_step")
    slider.set_value(slider.max).run()
    assert not at.exception, at.exception
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    assert (frames[("season", "card")]["card"] == "(face down)").sum() == 0
    panel = frames[("what", "value")].set_index("what")["value"]
    assert panel["Solo cards left"] == "0" and panel["Top Solo card"] == "(none left)"
    assert "Kiwibot" in set(frames[next(k for k in frames if "role" in k)]["role"])
    assert from_img_tag(at.get("html")[0].proto.body).startswith("<svg")
