"""The Board page's logic without a browser: SVG zones (Nests and markers never under Kiwi), Nest
glyphs per type from content, readable sizes, the last move outlined, the legend, recorded games with chosen
editions, flocks, sides and leaders, final scores and the winner, positions only from the content folder or an
upload."""
from __future__ import annotations

import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kcd.apps.editor.logic import board, board_svg
from kcd.apps.editor.logic.confine import OutsideContentError
from kcd.content import load_ruleset
from kcd.analysis.position import PositionError

REPO = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def shipped():
    return load_ruleset()


@pytest.fixture()
def root(editor_content: Path) -> Path:
    return editor_content


def _numbers(text: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]


def _bbox(el: ET.Element) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a circle, rect, polygon or path."""
    tag = el.tag.replace(NS, "")
    if tag == "circle":
        cx, cy, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
        return cx - r, cy - r, cx + r, cy + r
    if tag == "rect":
        x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
        return x, y, x + w, y + h
    values = _numbers(el.get("points") or el.get("d") or "")
    xs, ys = values[0::2], values[1::2]
    if tag == "path":   # M x,y L x,y A rx,ry 0 0 1 x,y ...: keep the coordinate pairs only
        pairs = re.findall(r"(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)", el.get("d"))
        xs, ys = [float(a) for a, _ in pairs], [float(b) for _, b in pairs]
        return min(xs), min(ys) - (max(xs) - min(xs)) / 2, max(xs), max(ys)
    return min(xs), min(ys), max(xs), max(ys)


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


CROWDED = {"hexes": {"A": {
    "q": 0, "r": 0, "terrain": "mountain", "leaders": ["red"], "nest": {"flock": "purple", "id": "control-1"},
    "domain": {"flock": "red", "terrain": "mountain"},
    "kiwi": [{"flock": "purple", "size": s} for s in (1, 1, 2)] + [{"flock": "red", "size": 1}] * 2
            + [{"flock": "yellow", "size": 3}, {"flock": "green", "size": 1}]}}}


@pytest.mark.parametrize("count", [1, 3, 5, 7])
def test_R_DOM_1_nest_and_domain_marker_are_never_under_a_piece(shipped, count: int) -> None:
    """The rulebook's Dominance example hex (R-DOM-1) and smaller crowds: the Nest glyph and the domain marker sit
    in the hex's top zone, clear of every Leader and Kiwi."""
    view = {"hexes": {"A": dict(CROWDED["hexes"]["A"], kiwi=CROWDED["hexes"]["A"]["kiwi"][:count])}}
    svg = ET.fromstring(board_svg.board_svg(view, board.flock_colours(shipped), nests=board.nest_glyphs(shipped)))
    nest = svg.find(f".//{NS}g[@class='nest']")
    glyph = next(el for el in nest if el.tag != f"{NS}title" and el.tag != f"{NS}text")
    marker = svg.find(f".//{NS}polygon[@class='domain']")
    pieces = [_bbox(g.find(f"{NS}circle")) for g in svg.iter(f"{NS}g") if g.get("class") == "kiwi"]
    pieces += [_bbox(p) for p in svg.iter(f"{NS}polygon") if p.get("class") == "leader"]
    assert len(pieces) == count + 1
    for box in pieces:
        assert not _overlap(box, _bbox(glyph)) and not _overlap(box, _bbox(marker))
    for a in range(len(pieces)):   # and no piece hides another
        for b in range(a + 1, len(pieces)):
            assert not _overlap(pieces[a], pieces[b]), (a, b)


def test_nest_types_get_distinct_glyphs_from_content(shipped) -> None:
    glyphs = board.nest_glyphs(shipped)
    by_type: dict[str, set] = {}
    for nest in shipped.items("nests"):
        by_type.setdefault(nest.raw["type"], set()).add(glyphs[nest.id]["shape"])
        assert glyphs[nest.id]["row"] == nest.raw["row"]
    assert all(len(shapes) == 1 for shapes in by_type.values())            # one glyph per type
    assert len({next(iter(s)) for s in by_type.values()}) == len(by_type)  # and a different one for each type
    # a mod's new Nest type gets the next glyph, without any Python naming it
    extra = board_svg.nest_glyphs([*({"id": n.id, **n.raw} for n in shipped.items("nests")),
                                   {"id": "burrow-1", "type": "burrow", "row": 1}])
    assert extra["burrow-1"]["shape"] not in {g["shape"] for g in glyphs.values()}
    view = {"hexes": {"A": {"q": 0, "r": 0, "terrain": "sand", "kiwi": [], "leaders": [],
                            "nest": {"flock": "red", "id": "tree-2"}},
                      "B": {"q": 1, "r": 0, "terrain": "sand", "kiwi": [], "leaders": [],
                            "nest": {"flock": "red", "id": "cave-1"}}}}
    svg = board_svg.board_svg(view, nests=glyphs)
    assert f'data-nest="tree-2" data-shape="{glyphs["tree-2"]["shape"]}"' in svg
    assert f'data-nest="cave-1" data-shape="{glyphs["cave-1"]["shape"]}"' in svg
    assert glyphs["tree-2"]["shape"] != glyphs["cave-1"]["shape"]
    assert ">2</text>" in svg and ">1</text>" in svg      # the row number on the glyph


def test_kiwi_sizes_are_readable_at_100_percent_on_the_biggest_island(shipped) -> None:
    """On the 4-player island with its first-game setup every size number is at least 11 px at 100% zoom, and a
    bigger Kiwi is drawn bigger."""
    view = board.layout_view(shipped, "4p", "4p")
    text = board_svg.board_svg(view, board.flock_colours(shipped))
    svg = ET.fromstring(text)
    scale = float(svg.get("width")) / _numbers(svg.get("viewBox"))[2]   # pixels per SVG unit as displayed
    assert scale >= 1.0
    radii: dict[int, set] = {}
    for g in svg.iter(f"{NS}g"):
        if g.get("class") == "kiwi":
            label = g.find(f"{NS}text")
            assert float(label.get("font-size")) * scale >= 11 and label.get("font-weight") == "bold"
            radii.setdefault(int(g.get("data-size")), set()).add(float(g.find(f"{NS}circle").get("r")))
    assert radii and max(radii.get(1, {0})) < min(radii.get(2, {99}))
    for t in svg.iter(f"{NS}text"):
        assert float(t.get("font-size")) * scale >= 11


def test_text_on_light_flock_colours_is_dark(shipped) -> None:
    colours = board.flock_colours(shipped)
    assert board_svg.text_colour(colours["yellow"]) == "#111"
    assert board_svg.text_colour(colours["purple"]) == "#fff" and board_svg.text_colour("green") == "#fff"


def test_the_last_move_is_outlined_and_the_legend_explains_the_board(shipped) -> None:
    rec = board.record_game(shipped, ["red", "green"], 1, ["random"])
    frames = board.replay(shipped, rec)
    moved = next(f for f in frames if f.label.startswith("red: Move your"))
    assert len(moved.changed) == 2 and any("moves" in e for e in moved.events)
    src, dst = re.search(r"from (\S+) to (\S+)", moved.label).groups()
    assert set(moved.changed) == {src, dst}
    svg = board_svg.board_svg(moved.view, board.flock_colours(shipped), highlight=moved.changed)
    assert svg.count('class="last-move"') == 2
    assert f'class="hex changed" data-hex="{src}"' in svg and f'class="hex changed" data-hex="{dst}"' in svg
    legend = board_svg.legend_svg(board.flock_colours(shipped), board.flock_names(shipped),
                                  board.nest_glyphs(shipped), board.terrains(shipped))
    for words in ("Red Flock", "Yellow Flock", "flower", "size-1 Kiwi", "size-3 Kiwi", "Leader", "domain marker",
                  "tree Nest", "control Nest", "cave Nest", "changed by the last decision"):
        assert words in legend, words
    ET.fromstring(legend)   # well-formed


def test_R_END_2_a_recorded_game_with_chosen_packs_flocks_sides_and_leaders_ends_with_scores_and_winner() -> None:
    """The Board records a game under the chosen edition with the chosen flocks, sides and Leaders; stepping to
    the end gives the final scores in ranking order (R-END-2/3) and the winner in words."""
    rs = load_ruleset(overlays=["prototype"])
    rec = board.record_game(rs, ["yellow", "purple"], 5, ["greedy", "random"], sides={"purple": "B"},
                            leaders={"yellow": "kahu", "purple": "ruru"}, overlays=["prototype"])
    frames = board.replay(rs, rec)
    assert rec.overlays == ("prototype",) and len(frames) == len(rec.decisions) + 1
    start = frames[0].view["flocks"]
    assert start["purple"]["side"] == "B" and start["yellow"]["side"] == "A"
    assert start["yellow"]["leader"] == "kahu" and start["purple"]["leader"] == "ruru"
    assert frames[0].label == "Start of the game" and frames[0].events
    end = frames[-1]
    assert end.over and not frames[-2].over
    names = board.flock_names(rs)
    rows = board.result_rows(end, names)
    assert [r["flock"] for r in rows] == [names[f] for f in end.ranking]
    assert [r["place"] for r in rows] == [1, 2]
    assert all(r["VP"] == r["domain markers"] + r["Nests"] + r["Season cards"] for r in rows)
    assert board.winner_text(end, names).startswith(f"Winner: {names[end.ranking[0]]} with {rows[0]['VP']} VP")


def test_R_END_3_winner_text_says_when_the_tiebreak_decided() -> None:
    frame = board.Frame(3, {"over": True}, "x", (), (), {"red": {"total": 7}, "green": {"total": 7}},
                        ("green", "red"))
    assert board.winner_text(frame, {"red": "Red Flock", "green": "Green Flock"}) == (
        "Winner: Green Flock with 7 VP (level with Red Flock; won on the tiebreak, R-END-3)")
    solo = board.Frame(3, {"over": True, "solo": {"kiwibot": "green"}}, "x", (), (),
                       {"red": {"total": 5}, "green": {"total": 9}}, ("green", "red"))
    assert board.winner_text(solo, {"green": "Green Flock"}) == "Winner: Kiwibot (Green Flock) with 9 VP"


def test_positions_come_only_from_the_content_folder_or_an_upload(root: Path, tmp_path: Path) -> None:
    assert board.position_files(root) == ["positions/dominance_example.yaml", "positions/scoring_example.yaml"]
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2\n")
    os.symlink(secret, root / "positions" / "leak.yaml")
    assert "positions/leak.yaml" not in board.position_files(root)
    with pytest.raises(OutsideContentError):
        board.position_file_view(root, "positions/leak.yaml")
    with pytest.raises(OutsideContentError):
        board.position_file_view(root, "../secret.yaml")
    view, game = board.position_file_view(root, "positions/dominance_example.yaml")
    assert sum(len(h["kiwi"]) for h in view["hexes"].values()) == 7
    frame = board.position_frame(game)
    assert set(frame.ranking) == {"purple", "red", "yellow", "green"}


def test_an_uploaded_position_is_checked_against_the_content_folder(root: Path) -> None:
    """An upload's errors name the upload and its line; its `edition` packs are the content folder's (a mod only
    this folder has loads); bad bytes get a clear error."""
    with pytest.raises(PositionError) as err:
        board.position_view(root, "mine.yaml", b"players: [purple]\nhexes:\n  Z9:\n    kiwi: {purple: [4]}\n")
    text = "\n".join(d.format() for d in err.value.diagnostics)
    assert text.startswith("mine.yaml:") and "Z9" in text
    shutil.copytree(root / "mods" / "example", root / "mods" / "mine")
    pack = root / "mods" / "mine" / "pack.yaml"
    pack.write_text(pack.read_text().replace("id: example", "id: mine"))
    for flock in (root / "mods" / "mine" / "flocks").glob("*.yaml"):
        flock.unlink()
    leaders = root / "mods" / "mine" / "leaders.yaml"
    if leaders.exists():
        leaders.unlink()
    body = (root / "positions" / "dominance_example.yaml").read_bytes()
    view, _game = board.position_view(root, "up.yaml", b"edition: [mine]\n" + body)
    assert view["hexes"]["A"]["nest"]["id"] == "control-1"
    with pytest.raises(PositionError) as err:
        board.position_view(root, "up.yaml", b"edition: [nowhere]\n" + body)
    assert "nowhere" in err.value.diagnostics[0].format()
    with pytest.raises(PositionError) as err:
        board.position_view(root, "bin.yaml", b"\xff\xfe\x00")
    assert err.value.diagnostics[0].format().startswith("bin.yaml:1:1: error[position]: the file is not UTF-8 text")
    with pytest.raises(PositionError) as err:
        board.position_view(root, "big.yaml", b"#" * (board.MAX_POSITION_BYTES + 1))
    assert "a position is at most 1,000,000" in err.value.diagnostics[0].format()


def test_season_cards_show_readable_names(shipped) -> None:
    names = board.season_card_names(shipped)
    rows = board.season_card_rows({"season_cards": [{"season": 1, "id": "most-nests"}]}, names)
    assert rows == [{"season": 1, "card": names["most-nests"]}] and names["most-nests"] != "most-nests"
