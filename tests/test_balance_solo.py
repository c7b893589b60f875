"""Structural balance properties of the designed base content (not win rates: those are measured with
`kcd simulate` and written in each item's `source`).

- R-SOLO-8: a bonus action resolves the 3rd column, so every row's bonus segment repeats column 3.
- R-SOLO-8 / R-SOLO-10: a bonus segment never leads back to itself (a `bot bonus X` inside row X's bonus, or
  a Build whose failure gives a bonus Move that builds again), so Kiwibot's turn always ends.
- The Kiwi track's side A is the same for every flock (its `source` says so), so only side B differs.
"""
from __future__ import annotations

from kcd.content import load_ruleset
from kcd.dsl import Call, walk
from kcd.dsl.ast import Phrase

RS = load_ruleset()
ROWS = ("move", "feed", "build", "wild")


def _bonus_targets(node: object) -> set[str]:
    """The rows a segment can hand a bonus action to: `bot bonus X`, and a Build's fallback bonus Move (R-SOLO-10)."""
    out: set[str] = set()
    for call in (n for n in walk(node) if isinstance(n, (Call, Phrase))):
        if call.primitive == "bot-bonus":
            out.add(str(call.arg("a")))
        elif call.primitive in ("bot-build", "bot-build-on"):
            out.add("move")
    return out


def test_R_SOLO_8_bonus_segment_repeats_column_3() -> None:
    """R-SOLO-8: every Solo card row's bonus segment (the 4th) is its 3rd column."""
    for card in RS.items("solo_cards"):
        for row in ROWS:
            segs = card.raw["sections"][row]
            assert len(segs) == 4, (card.id, row)
            assert segs[3] == segs[2], (card.id, row)


def test_R_SOLO_8_R_SOLO_10_bonus_actions_never_cycle() -> None:
    """R-SOLO-8/10: following bonus actions from any row's bonus segment never comes back to a row already resolving."""
    for card in RS.items("solo_cards"):
        graph = {row: _bonus_targets(card.data["sections"][row][3]) for row in ROWS}

        def visit(row: str, path: tuple[str, ...]) -> None:
            assert row not in path, f"{card.id}: bonus cycle {' -> '.join(path + (row,))}"
            for nxt in graph[row]:
                visit(nxt, path + (row,))

        for row in ROWS:
            visit(row, ())


def test_R_TRACK_1_side_a_track_is_the_same_for_every_flock() -> None:
    """R-TRACK-1: side A's designed track benefits are identical across the base flocks; only side B differs."""
    tracks = {f.id: [t["benefit"] for t in f.raw["side_a"]["track"]] for f in RS.items("flocks")}
    assert len({tuple(map(str, t)) for t in tracks.values()}) == 1, tracks
