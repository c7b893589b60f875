"""Pinned solo games (R-SOLO-1..12): whole seeded games against Kiwibot replay byte-identically.

Each case plays a whole solo game with a seeded random player (Kiwibot plays itself) and compares the
sha256 of `Game.to_json()` (state, checkpoint, every event with its data) with the pinned digest. A change
of any Kiwibot choice, any event text or any state field shows here. Re-pin only on purpose:
`KCD_PRINT_SOLO_PINS=1 .venv/bin/pytest tests/test_engine_solo_pinned.py -s` prints the new table.
"""
from __future__ import annotations

import hashlib
import os
import random

import pytest
from test_engine_support import ruleset

from interpreter.engine import Game

# name: (player, kiwibot, seed, solo_side, sides, setup)
CASES: dict[str, tuple[str, str, int, str | None, str | None, str]] = {
    "green-red-s1": ("green", "red", 1, None, None, "first-game"),
    "red-green-s2-bot": ("red", "green", 2, "bot-side", None, "first-game"),
    "purple-yellow-s3-player-B": ("purple", "yellow", 3, "player-side", "B", "first-game"),
    "yellow-purple-s4-adv": ("yellow", "purple", 4, None, None, "advanced"),
    "green-purple-s5-bot-B-adv": ("green", "purple", 5, "bot-side", "B", "advanced"),
    "red-yellow-s6-player": ("red", "yellow", 6, "player-side", None, "first-game"),
}

PINS: dict[str, str] = {
    # re-pinned once on purpose: Kiwibot now moves its Leader as a size-3 Kiwi (R-LEAD-1, R-MOVE-2, R-SOLO-11);
    # the other games never meet that case and stayed byte-identical through the split of solo.py;
    # re-pinned for the content hash only when eleven Season card objectives became compositions (issue 8):
    # every state field and event is otherwise byte-identical
    "green-red-s1": "41f4d0dcb482b96062d444bac6ea3fbcad80a6cd76d35d67c9a768067f8b0c3a",
    "red-green-s2-bot": "f01ec7d55f8fcb3d9ee21da799fa499ddd3c6786ea7c338451cfc21be830a9d7",
    "purple-yellow-s3-player-B": "1d41f9ec185e1ee1d90ea91cddce344207e3ed130c57457e17e26dfd670a8535",
    "yellow-purple-s4-adv": "3f3c42e5883b48d5d36ebdf62a145192866bdcc3365e7e5a2e8b87e1e346a38a",
    "green-purple-s5-bot-B-adv": "c93bb4e6ebc37644464580316c6e45128beb61b5d90ea89e4f799d2185a4bfca",
    "red-yellow-s6-player": "eb592285869c69a11f0130e7297de1a2b427ef3a389c2fbe133c1abc8ff4d652",
}


def _play(player: str, bot: str, seed: int, solo_side: str | None, sides: str | None, setup: str) -> str:
    """A whole solo game with a seeded random player; its saved JSON."""
    g = Game.new(ruleset(), players=[player, bot], seed=seed, mode="solo", solo_side=solo_side,
                 sides={player: sides, bot: sides} if sides else None, setup=setup)
    r = random.Random(seed * 7919)
    n = 0
    while not g.is_over:
        assert g.apply(r.choice(g.pending.options).id).ok
        n += 1
        assert n < 3000
    return g.to_json()


@pytest.mark.parametrize("name", list(CASES))
def test_R_SOLO_1_to_12_pinned_solo_game_replays_byte_identically(name: str) -> None:
    """R-SOLO-1..12: the pinned solo game's saved JSON has the pinned digest (no unintended behaviour change)."""
    digest = hashlib.sha256(_play(*CASES[name]).encode("utf-8")).hexdigest()
    if os.environ.get("KCD_PRINT_SOLO_PINS") == "1":
        print(f'    "{name}": "{digest}",')
        return
    assert digest == PINS[name], f"{name}: the solo game changed; re-pin only if intended (see module docstring)"
