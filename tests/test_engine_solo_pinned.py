"""Pinned solo games (R-SOLO-1..12): whole seeded games against Kiwibot replay byte-identically.

Each case plays a whole solo game with a seeded random player (Kiwibot plays itself) and compares the
sha256 of `Game.to_json()` (state, checkpoint, history) followed by every event with its data with the
pinned digest. A change
of any Kiwibot choice, any event text or any state field shows here. Re-pin only on purpose:
`KCD_PRINT_SOLO_PINS=1 .venv/bin/pytest tests/test_engine_solo_pinned.py -s` prints the new table.
"""
from __future__ import annotations

import hashlib
import json
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
    # re-pinned on purpose for the content hash only (issue 8: content rewritten as compositions of the effect
    # language): the saved JSON and events with the content hash masked are byte-identical to before each change;
    # re-pinned on purpose for save format 3 (the running step's frames, the pending decision and the previous
    # decision's ids in the save): each game's save turned back into format 2 (format 2, those three keys
    # dropped) followed by its events gives exactly the previous digest, so the games are unchanged;
    # re-pinned for the content hash only when merging main into the dsl branch (eleven Season card objectives
    # are compositions, issue 8): the saved JSON with the content hash masked is byte-identical to main's;
    # re-pinned on purpose when merging the hardening branch: game.yaml gained `season_cards.dominated_hexes`,
    # so the content hash inside each save changed (both branches checked the games themselves unchanged);
    # before that, re-pinned on purpose for save format 2 (history in the save, events hashed beside it); before re-pinning,
    # the same games' format-1 JSON was checked to still give the previous digests (the games are unchanged)
    "green-red-s1": "a2e2648e464df21b4d27d326ad05f563d44edaaac9b769f1137af63e8660dd73",
    "red-green-s2-bot": "21c3570fbfbd9c689cc5e355d81fa4ec3b6772b9fb343d5590827e5e3942e0f0",
    "purple-yellow-s3-player-B": "50bf2b8af3fdd690caf6f2df82a492c29cb1d612bf93cd6b55f977eb528d3714",
    "yellow-purple-s4-adv": "cc1459a3584ce54eeb9f65f338082bdd9b7311c15e402a70aa668f526ba1271e",
    "green-purple-s5-bot-B-adv": "d48d4f869dd4bfc0efa55da80461f4ac0f4e0362027abc958e26e5cc0eca4a15",
    "red-yellow-s6-player": "1f9de91f6d2a28ee90ecde9e6b5bfb8b16c96af016cc33faebf5077008b83e1b",
}


def _play(player: str, bot: str, seed: int, solo_side: str | None, sides: str | None, setup: str) -> str:
    """A whole solo game with a seeded random player; its saved JSON followed by its events."""
    g = Game.new(ruleset(), players=[player, bot], seed=seed, mode="solo", solo_side=solo_side,
                 sides={player: sides, bot: sides} if sides else None, setup=setup)
    r = random.Random(seed * 7919)
    n = 0
    while not g.is_over:
        assert g.apply(r.choice(g.pending.options).id).ok
        n += 1
        assert n < 3000
    return g.to_json() + json.dumps([e.to_dict() for e in g.events], separators=(",", ":"))


@pytest.mark.parametrize("name", list(CASES))
def test_R_SOLO_1_to_12_pinned_solo_game_replays_byte_identically(name: str) -> None:
    """R-SOLO-1..12: the pinned solo game's saved JSON has the pinned digest (no unintended behaviour change)."""
    digest = hashlib.sha256(_play(*CASES[name]).encode("utf-8")).hexdigest()
    if os.environ.get("KCD_PRINT_SOLO_PINS") == "1":
        print(f'    "{name}": "{digest}",')
        return
    assert digest == PINS[name], f"{name}: the solo game changed; re-pin only if intended (see module docstring)"
