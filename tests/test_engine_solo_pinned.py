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
    "green-red-s1": "d98acc6be1b0fa0fdce1c7f3e6b70f3b618ec7b18940839b9655e16661c8b094",
    "red-green-s2-bot": "07b170109e5526cce0aaf0cfa94f387ecee24ec2d8e529d0ebbd552ab967ae7e",
    "purple-yellow-s3-player-B": "07476a044fc7492650909f1f200ca3de00878e628ccf3a91781074469e2326dd",
    "yellow-purple-s4-adv": "5b452cefba5408720109c7491d188e4968ac79c474ae696969ed2ac5b6aab888",
    "green-purple-s5-bot-B-adv": "b9307cbb899c2347570a4a3fd4667bd874f1487b4d404337b30c451c137b48f6",
    "red-yellow-s6-player": "8a40348bab4e17c076c66130bca3a0d003aaf0d7c40f40de897b8c2cd69cb273",
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
