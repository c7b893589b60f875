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
    # the other games never meet that case and stayed byte-identical through the split of solo.py
    "green-red-s1": "2c02f26f863c0d723f1888d296c94034d6a4c0aeac002c2023f898718c6dd29c",
    "red-green-s2-bot": "b684d8093f00fc128fca23f65d6cb3960841064f18b9ab00cf37c4068345a348",
    "purple-yellow-s3-player-B": "7fd76334a3c3f079adc3cdd3a85c07244ca8aba8b0e8d6c49ee3d8a0ae4cec7b",
    "yellow-purple-s4-adv": "6021ed760d9a7a8918d5ddad56ebb1fa32da432a6d3654d8f2e0729affc4b271",
    "green-purple-s5-bot-B-adv": "6014ab79dbbe8f9b53f782955bab9319bd67093d1c57608a92ba362475e7b17a",
    "red-yellow-s6-player": "1d52d1d4450688b02dcbf9792359023bc74a17cb390454955817a433d15bca4c",
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
