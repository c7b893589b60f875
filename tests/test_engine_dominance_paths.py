"""R-DOM-1/2: the shortcuts of `dominance.dominant` (an empty hex, one Kiwi alone) give what counting gives."""
from __future__ import annotations

import random

from test_engine_support import ruleset

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.core import dominance


def test_R_DOM_1_dominant_equals_the_counted_leader_in_every_hex_and_purpose():
    """In random games of the base game and the prototype edition (the Z-4 Leader weights), every hex's `dominant`
    for every purpose is the single top count of `strengths`, or nobody on a tie."""
    checked = lone = 0
    for rs, seed in ((ruleset(), 31), (load_ruleset(["editions/prototype"]), 32)):
        game = Game.new(rs, players=["red", "green", "purple", "yellow"], seed=seed)
        rng = random.Random(seed)
        n = 0
        while not game.is_over:
            if n % 5 == 0:
                st = game.state
                for purpose in ("default", "build", "marking", "dominated_hexes"):
                    for h in st.hexes:
                        assert dominance.dominant(st, h, purpose) == dominance.leader_of(
                            dominance.strengths(st, h, purpose)), (h, purpose)
                        checked += 1
                        lone += len(st.hexes[h].kiwi) == 1
            game.apply(rng.choice(game.pending.options).id)
            n += 1
    assert checked > 5000 and lone > 1000
