"""Island geometry: sections, layouts without overlaps and connected, first-game setups (R-SETUP-1/5/6)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ISLAND = yaml.safe_load((ROOT / "content/base/island.yaml").read_text(encoding="utf-8"))
GAME = yaml.safe_load((ROOT / "content/base/game.yaml").read_text(encoding="utf-8"))
SECTIONS = {s["id"]: s for s in ISLAND["sections"]}
LAYOUTS = {l["id"]: l for l in ISLAND["layouts"]}
SETUPS = {s["id"]: s for s in ISLAND["setups"]}
# Axial neighbours (SPEC.md: hexes in axial q, r).
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def board(layout: dict) -> dict[tuple[int, int], dict]:
    """Absolute coordinates -> hex of a layout; fails on an overlap."""
    cells: dict[tuple[int, int], dict] = {}
    for placed in layout["sections"]:
        for h in SECTIONS[placed["section"]]["hexes"]:
            c = (h["q"] + placed["dq"], h["r"] + placed["dr"])
            assert c not in cells, f"{layout['id']}: {h['id']} overlaps {cells[c]['id']} at {c}"
            cells[c] = {**h, "section": placed["section"]}
    return cells


def neighbours(c: tuple[int, int]):
    """The six axial neighbours of a coordinate."""
    return [(c[0] + dq, c[1] + dr) for dq, dr in DIRECTIONS]


def test_R_SETUP_1_four_sections_of_10_to_12_hexes_with_unique_ids():
    """Sections A-D, 10-12 hexes each, ids like A1 unique across sections, no repeated local coordinate."""
    assert list(SECTIONS) == ["A", "B", "C", "D"]
    ids = [h["id"] for s in SECTIONS.values() for h in s["hexes"]]
    assert len(ids) == len(set(ids))
    for sid, s in SECTIONS.items():
        assert 10 <= len(s["hexes"]) <= 12
        assert all(h["id"].startswith(sid) for h in s["hexes"])
        assert len({(h["q"], h["r"]) for h in s["hexes"]}) == len(s["hexes"])


def test_terrains_are_declared_and_balanced():
    """Every hex terrain is one of game.yaml `terrains`; each section and the whole island are balanced."""
    total = Counter()
    for s in SECTIONS.values():
        counts = Counter(h["terrain"] for h in s["hexes"])
        assert set(counts) == set(GAME["terrains"])
        assert max(counts.values()) - min(counts.values()) <= 1
        total += counts
    assert max(total.values()) - min(total.values()) <= 1


def test_each_section_is_connected():
    """A section is one piece of land."""
    for s in SECTIONS.values():
        cells = {(h["q"], h["r"]) for h in s["hexes"]}
        assert _connected(cells), s["id"]


def _connected(cells: set[tuple[int, int]]) -> bool:
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


@pytest.mark.parametrize("lid,players,sections", [("2p", 2, ["A", "B"]), ("3p", 3, ["A", "B", "C"]), ("4p", 4, ["A", "B", "C", "D"])])
def test_R_SETUP_1_layouts_one_section_per_player_no_overlap_connected(lid, players, sections):
    """One section per player; sections never overlap; the island is connected and each section
    touches another along an edge of at least two hexes."""
    layout = LAYOUTS[lid]
    assert layout["players"] == players
    assert [p["section"] for p in layout["sections"]] == sections
    cells = board(layout)
    assert _connected(set(cells))
    for sid in sections:
        border = {n for c, h in cells.items() if h["section"] == sid for n in neighbours(c)
                  if n in cells and cells[n]["section"] != sid}
        assert len(border) >= 2, f"{lid}: section {sid} barely touches the others"


@pytest.mark.parametrize("sid", ["2p", "3p", "4p"])
def test_R_SETUP_5_first_game_setups(sid):
    """Per seat: the Leader on an island hex holding 2 own Kiwi (R-SETUP-6), eight more hexes with one Kiwi each,
    two of the stacks size 2: 10 stacks and 12 tokens, all on hexes of the layout; Leaders on different hexes."""
    setup = SETUPS[sid]
    layout = LAYOUTS[setup["layout"]]
    on_island = {h["id"] for h in board(layout).values()}
    seats = setup["seats"]
    assert [s["seat"] for s in seats] == list(range(1, layout["players"] + 1))
    leaders = [s["leader"] for s in seats]
    assert len(set(leaders)) == len(leaders)
    for seat in seats:
        kiwi = seat["kiwi"]
        assert set(kiwi) <= on_island and seat["leader"] in on_island
        stacks = [size for sizes in kiwi.values() for size in sizes]
        assert len(stacks) == 10 and sum(stacks) == 12
        assert sorted(stacks) == [1] * 8 + [2] * 2
        assert len(kiwi[seat["leader"]]) == 2
        assert all(len(sizes) == 1 for hex_id, sizes in kiwi.items() if hex_id != seat["leader"])
        assert sum(sum(s) for s in kiwi.values()) + GAME["flock"]["track_tokens"] == GAME["flock"]["kiwi_tokens"]


def test_setups_interleave_so_players_meet():
    """Every seat shares at least one hex with an opponent at the start (designed: players meet at once)."""
    for setup in SETUPS.values():
        for seat in setup["seats"]:
            others = {h for o in setup["seats"] if o is not seat for h in o["kiwi"]}
            assert set(seat["kiwi"]) & others, (setup["id"], seat["seat"])
