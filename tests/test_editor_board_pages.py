"""The Board page through Streamlit's AppTest: a played game with chosen edition, flocks, sides and
Leaders stepped with First/Previous/Play/Next/Last to the final scores and the winner; layouts with a legend;
positions from the content folder or an upload, never a typed path; solo and VTO games."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from kcd.apps.editor.logic.board_svg import from_img_tag

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture()
def content(editor_content: Path) -> Path:
    return editor_content


def page() -> AppTest:
    at = AppTest.from_file(str(REPO / "editor" / "Home.py"), default_timeout=180)
    at.switch_page("pages/5_Board.py")
    return at.run()


def svgs(at: AppTest) -> list[str]:
    """Every SVG image on the page (the board first, the legend last)."""
    return [from_img_tag(h.proto.body) for h in at.get("html") if "base64," in h.proto.body]


def errors(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.error)


def test_R_END_2_board_plays_a_chosen_game_and_steps_to_the_final_scores_and_winner(content: Path) -> None:
    at = page()
    assert not at.exception, at.exception
    at.multiselect(key="board_overlays").set_value(["prototype"]).run()
    at.multiselect(key="board_flocks").set_value(["yellow", "purple"]).run()
    at.selectbox(key="board_side_purple").select("B")
    at.multiselect(key="board_bots").set_value(["random"])
    at.button(key="board_play").click().run()
    assert not at.exception, at.exception
    assert not errors(at), errors(at)
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Played: seed 1; Yellow Flock, Purple Flock; base + prototype") for c in captions)
    assert "Start of the game" in captions
    board_svg = svgs(at)[0]
    assert 'class="kiwi" data-flock="yellow"' in board_svg and 'class="kiwi" data-flock="purple"' in board_svg
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    state = next(v for k, v in frames.items() if "side" in k).set_index("flock")
    assert state.loc["Purple Flock", "side"] == "B" and state.loc["Yellow Flock", "side"] == "A"
    at.button(key="board_next").click().run()
    at.button(key="board_next").click().run()
    assert at.session_state["board_step"] == 2
    assert any(c.value.startswith("After decision 2 of ") for c in at.caption)
    at.button(key="board_prev").click().run()
    assert at.session_state["board_step"] == 1
    at.button(key="board_play_auto").click().run()          # Play: one decision per tick of the timer
    assert at.session_state["board_playing"] and at.session_state["board_step"] == 2
    at.run()
    assert at.session_state["board_step"] == 3
    assert at.button(key="board_pause")
    at.button(key="board_pause").click().run()
    assert not at.session_state["board_playing"]
    step = at.session_state["board_step"]
    at.run()
    assert at.session_state["board_step"] == step
    at.button(key="board_last").click().run()
    assert not at.exception, at.exception
    assert at.button(key="board_next").disabled and at.button(key="board_last").disabled
    winner = [s.value for s in at.success]
    assert len(winner) == 1 and winner[0].startswith("Winner: ")
    scores = at.table[0].value        # a static table: shown whole (every column, no scroll bar)
    assert list(scores.columns) == ["place", "flock", "VP", "domain markers", "Nests", "Season cards"]
    assert list(scores["place"]) == [1, 2] and winner[0].startswith(f"Winner: {scores['flock'][0]} with "
                                                                     f"{scores['VP'][0]} VP")
    assert any(m.value == "**Final scores**" for m in at.markdown)
    log = at.text[1].value.splitlines()   # the running game log, newest first, names not ids
    assert len(log) > 20 and log[-1].startswith("setup  ")
    assert any("Yellow Flock plays " in line for line in log) and not any(" yellow plays " in line for line in log)
    assert not any(" plays wild-" in line or " plays move" in line or " plays build" in line for line in log)
    at.button(key="board_prev").click().run()
    assert len(at.text[1].value.splitlines()) < len(log)     # the log runs with the step
    at.button(key="board_first").click().run()
    assert at.session_state["board_step"] == 0 and not at.success


def test_board_layout_has_a_legend_and_no_path_box(content: Path) -> None:
    at = page()
    at.radio(key="board_source").set_value("Layout").run()
    at.selectbox(key="board_layout").set_value("3p").run()
    at.selectbox(key="board_setup").set_value("3p").run()
    assert not at.exception, at.exception
    island, legend = svgs(at)[0], svgs(at)[-1]
    assert 'class="leader"' in island and 'class="kiwi"' in island
    assert 'class="kcd-legend"' in legend and "Purple Flock" in legend and "cave Nest" in legend
    at.radio(key="board_source").set_value("Position").run()
    assert not at.text_input       # no box to type a path into


def test_board_position_from_the_content_folder_and_an_upload(content: Path) -> None:
    """The rulebook's Dominance example (R-DOM-1/2) picked from the content folder's positions/; an uploaded
    position's error names the upload and its line, never another file's contents."""
    at = page()
    at.radio(key="board_source").set_value("Position").run()
    assert at.selectbox(key="board_position").options == ["positions/dominance_example.yaml",
                                                          "positions/scoring_example.yaml"]
    at.selectbox(key="board_position").select("positions/dominance_example.yaml").run()
    assert not at.exception, at.exception
    assert not errors(at), errors(at)
    island = svgs(at)[0]
    assert island.count('class="kiwi"') == 7 and 'class="leader" data-flock="red"' in island
    assert 'data-nest="control-1"' in island
    at.radio(key="board_position_from").set_value("an uploaded file").run()
    at.file_uploader(key="board_upload").upload("mine.yaml", b"players: [purple]\nhexes:\n  Z9:\n    kiwi: "
                                                             b"{purple: [4]}\n", "application/x-yaml").run()
    assert not at.exception, at.exception
    assert errors(at).startswith("**mine.yaml:") and "Z9" in errors(at)
    body = (content / "positions" / "scoring_example.yaml").read_bytes()
    at.file_uploader(key="board_upload").set_value(("scoring.yaml", body, "application/x-yaml")).run()
    assert not errors(at), errors(at)
    assert 'data-hex="D1"' in svgs(at)[0]


def test_R_SOLO_board_page_steps_a_solo_game(content: Path) -> None:
    """R-SOLO-2/4/7: a played solo game steps through: Kiwibot's turns among each decision's events, the Solo
    block (top Solo card, cards left) and the Season cards, face down until their season (all face up at the
    end), and the winner."""
    at = page()
    at.selectbox(key="board_mode").select("Solo (against Kiwibot)").run()
    at.selectbox(key="board_solo_side").select("bot-side")
    at.multiselect(key="board_bots").set_value(["random"])
    at.button(key="board_play").click().run()
    assert not at.exception, at.exception
    assert not errors(at)
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    panel = frames[("what", "value")].set_index("what")["value"]
    assert panel["Solo-mode marker side"] == "bot-side" and panel["Top Solo card"].startswith("solo-")
    assert panel["Solo cards left"] == "4"
    cards = frames[("season", "card")]
    assert len(cards) == 8 and (cards["card"] == "(face down)").sum() == 6   # season 1 is flipped at the start
    assert "reveals" in " ".join(t.value for t in at.text)   # Kiwibot's opening turn, among the setup events
    at.button(key="board_last").click().run()
    assert not at.exception, at.exception
    frames = {tuple(d.value.columns): d.value for d in at.dataframe}
    assert (frames[("season", "card")]["card"] == "(face down)").sum() == 0
    panel = frames[("what", "value")].set_index("what")["value"]
    assert panel["Solo cards left"] == "0" and panel["Top Solo card"] == "(none left)"
    assert "Kiwibot" in set(frames[next(k for k in frames if "role" in k)]["role"])
    winner = [s.value for s in at.success]
    assert winner and ("Kiwibot (" in winner[0] or "the player (" in winner[0])


def test_R_VTO_1_board_plays_a_variable_turn_order_game(content: Path) -> None:
    at = page()
    at.selectbox(key="board_variant").select("Variable Turn Order")
    at.number_input(key="board_players").set_value(3).run()
    at.multiselect(key="board_bots").set_value(["random"])
    at.button(key="board_play").click().run()
    assert not at.exception, at.exception
    assert not errors(at), errors(at)
    assert any(c.value.startswith("Played: ") and "; Variable Turn Order;" in c.value for c in at.caption)
    at.button(key="board_last").click().run()
    assert [s.value for s in at.success][0].startswith("Winner: ")
