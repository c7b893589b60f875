"""The editor's smaller front-end fixes: a click anywhere on a row opens its item; long forms fold by section
(a flock's side B, R-ASYM-1: its track and power in expanders that open where there are edits); the Season
card preview shows the card's name (R-SCARD-5); an unknown `?file=` says so; the Board's running game log
names flocks, cards and Nests (R-BUILD-4, R-SCARD-2) instead of ids. Logic functions and AppTest."""
from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from kcd.apps.editor.logic import board, card_svg, catalog
from kcd.content import load_ruleset
from test_editor_content_pages import app, current, key, texts, type_into
from test_editor_pages import content  # noqa: F401 - the shared fixture: a copy of content/ the app edits

SEASON = "base/season_cards.yaml"
GREEN = "base/flocks/green.yaml"


def test_clicked_row_takes_a_row_or_the_row_of_a_cell():
    assert catalog.clicked_row({"rows": [3], "cells": []}) == 3
    assert catalog.clicked_row({"rows": [], "cells": [(5, "name")]}) == 5
    assert catalog.clicked_row(SimpleNamespace(rows=[], cells=[[2, "id"]])) == 2
    assert catalog.clicked_row({"rows": [], "cells": []}) is None


def test_clicking_any_cell_of_a_row_opens_its_item(content: Path) -> None:
    at = app("1_Content.py")
    table = at.dataframe[0]
    row = list(table.value["id"]).index("least-flower")
    at.session_state[table.key] = {"selection": {"rows": [], "columns": [], "cells": [[row, "file"]]}}
    at.run()
    assert current(at) == f"{SEASON}#season_cards/least-flower"


def folds(at) -> dict:
    """Side B's expanders by label."""
    return {e.label: e for e in at.expander if e.label.startswith("Side B")}


def test_side_b_folds_by_section_and_opens_where_it_is_edited(content: Path) -> None:
    at = app("1_Content.py", "flocks/green", tab="tab-token-fold")
    at.get("button_group")[0].set_value("Side B").run()
    assert set(folds(at)) >= {"Side B › Track", "Side B › Power"}
    assert not any(e.proto.expanded for e in folds(at).values())        # folded: a short page
    type_into(at, key(GREEN, ["side_b", "track", 3, "benefit"]), "gain 2 domain")
    assert not folds(at)["Side B › Track"].proto.expanded    # not flipped while typing in it (no remount)
    again = app("1_Content.py", "flocks/green", tab="tab-token-fold")    # the tab refreshed: its edit is back
    again.get("button_group")[0].set_value("Side B").run()
    assert folds(again)["Side B › Track"].proto.expanded and not folds(again)["Side B › Power"].proto.expanded


def test_season_card_preview_shows_the_cards_name(content: Path) -> None:
    from kcd.apps.editor.logic.board_svg import from_img_tag

    plain = card_svg.face("season_cards", {"id": "most-nests", "objective": "most count(my nests)"},
                          lambda v, k: str(v), "#444")
    assert plain.title == "Most nests"
    named = card_svg.face("season_cards", {"id": "x-1", "name": "Nest Builder"}, lambda v, k: str(v), "#444")
    assert named.title == "Nest Builder"
    at = app("1_Content.py", "season_cards/most-nests")
    faces = [from_img_tag(h.proto.body) for h in at.get("html") if "base64" in h.proto.body]
    assert len(faces) == 1 and ">Most nests</text>" in faces[0]


def test_an_unknown_file_link_says_so(content: Path) -> None:
    at = app("6_Files_and_drafts.py", file="base/nothing-here.yaml")
    assert "No content file `base/nothing-here.yaml` in this content folder" in texts(at.warning)
    assert at.selectbox(key="raw_file").value != "base/nothing-here.yaml"
    assert "No content file" not in texts(app("6_Files_and_drafts.py", file=SEASON).warning)


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_event_lines_name_flocks_cards_and_nests(ruleset) -> None:
    from kcd.core.decisions import Event

    names = board.log_names(ruleset)
    won = Event("season-card", None, "red", form="season-card-victor", fields={"flock": "red", "card": "most-nests"})
    assert board.event_line(won, names) == "Red Flock wins Most nests"
    built = Event("build", None, "green", form="build", fields={"flock": "green", "nest": "cave-1", "hex": "B7"})
    assert board.event_line(built, names) == "Green Flock builds Cave Nest, row 1 on B7"
    played = Event("card", None, "red", form="play-benefit", fields={"flock": "red", "card": "wild-fruit"})
    assert board.event_line(played, names) == "Red Flock plays Wild Fruit for its benefit"
    fruit = Event("gain", None, "red", form="gain-fruit", fields={"flock": "red", "fruit": ["red", "green"]})
    assert board.event_line(fruit, names) == "Red Flock gains 2 fruit (red, green)"   # fruit colours stay colours
    tie = Event("season-card", None, None, form="season-card-tie", fields={"card": "most-nests", "tied": ["red", "green"]})
    assert board.event_line(tie, names) == "Most nests: tie between Red Flock, Green Flock"
    assert board.event_line(Event("x", "plain text"), names) == "plain text"


def test_game_log_runs_to_the_step(ruleset) -> None:
    rec = board.record_game(ruleset, ["red", "green"], 1, ["random"])
    frames = board.replay(ruleset, rec)
    whole = board.game_log(frames, len(frames) - 1)
    assert whole[0].startswith("setup  ") and len(board.game_log(frames, 3)) < len(whole)
    assert any("Red Flock" in line for line in whole) and not any(line.split("  ", 1)[1].startswith("red ")
                                                                  for line in whole)
    assert json.dumps(whole)   # plain strings
