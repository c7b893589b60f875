"""Pieces with ids (issue 7 item 2): every Kiwi stack, Leader, Nest and placed domain marker has a stable id for
its lifetime; actions and events name pieces by id (interpreter/engine/pieces.py)."""
from __future__ import annotations

import random

import pytest
from test_engine_support import ruleset

from interpreter.engine import Game
from interpreter.engine.pieces import action_pieces, event_pieces, pieces

# kinds whose piece exists before the action (a Build's Nest choice and a Mark create theirs)
_EXISTING = {"kiwi", "leader"}


def _count(st) -> int:
    """Pieces on the island counted from the state's own records."""
    return (sum(len(h.kiwi) + (h.nest is not None) + (h.domain is not None) for h in st.hexes.values())
            + sum(st.flocks[f].leader_hex is not None for f in st.seats))


@pytest.mark.parametrize("seed,players,variant", [(1, 2, None), (2, 3, None), (3, 4, "vto")])
def test_piece_ids_are_unique_and_stable_for_each_piece_lifetime(seed, players, variant):
    flocks = ["red", "green", "purple", "yellow"][:players]
    game = Game.new(ruleset(), players=flocks, seed=seed, variant=variant)
    r = random.Random(seed)
    seen: dict[str, tuple] = {}
    named = {"action": 0, "event": 0}
    while not game.is_over:
        st = game.state
        now = pieces(st)
        assert len(now) == _count(st)
        for pid, p in now.items():
            # a piece keeps its kind and flock all its life; Nests and markers never leave their hex
            fixed = (p["kind"], p["flock"]) + ((p["hex"],) if p["kind"] in ("nest", "marker") else ())
            assert seen.setdefault(pid, fixed) == fixed, pid
        option = r.choice(game.pending.options)
        for pid in action_pieces(option.action, game.pending.player):
            named["action"] += 1
            kind = pid.split("-", 1)[0]
            if kind in _EXISTING:
                assert pid in now, (option.id, pid)
        result = game.apply(option.id)
        after = pieces(game.state)
        for e in result.events:
            for pid in event_pieces(e):
                named["event"] += 1
                assert pid in after, (e.form, pid)
    assert named["action"] > 20 and named["event"] > 5
    assert any(k.startswith("nest-") for k in seen) and any(k.startswith("marker-") for k in seen)


def test_views_show_the_piece_ids():
    game = Game.new(ruleset(), players=["red", "green"], seed=4)
    v = game.view("red")
    assert v["flocks"]["red"]["leader_piece"] == "leader-red"
    on_island = {p for h in v["hexes"].values() for p in h["leader_pieces"]}
    assert on_island == {"leader-red", "leader-green"} == {k for k in pieces(game.state) if k.startswith("leader-")}
