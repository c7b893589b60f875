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
    "green-red-s1": "108123189f0127f235f1e20a15210642bfdc1c1a843a3757d43c00e8ae2d326b",
    "red-green-s2-bot": "cd02eb2d7fe2c29152fb7c039fba9daa400b9965b3a7c590413e22d274756449",
    "purple-yellow-s3-player-B": "41fb83dfca87c4991e8bedd18a242c2862609028adf798ea5915199649350bd9",
    "yellow-purple-s4-adv": "ca04adbfdba95dc681d2e6b7bdafce8e963e69f416e8203a7dafacf75aa31be4",
    "green-purple-s5-bot-B-adv": "ea43e4c16a34c3a8e2745a4a72d074449806155db97fd2b5035f32869d2c8ef7",
    "red-yellow-s6-player": "d42cfe1b563a0f9d4def487b84ff88e2bfa3dae19edc930c99f526ba35483f15",
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
