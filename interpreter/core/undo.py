"""What `Game.undo` must not take back: randomness drawn and hidden things shown since a decision.

Undoing past a random draw would let a player redraw until the fruit or marker suits them; undoing past a
reveal would let them choose again knowing what they should not (the card they drew, the next Solo card).
Both are read off the two states, not the event log, so no procedure has to remember to report them.
"""
from __future__ import annotations

from typing import Any

from kcd.core.decisions import RefusalCode


def information_since(before: Any, after: Any, player: str) -> tuple[RefusalCode, str] | None:
    """(reason code, message) when going from game `before` to game `after` drew randomness or showed
    `player` something hidden; None when undoing is fair."""
    old, new = before.state, after.state
    if old.rng != new.rng:
        return RefusalCode.RANDOM_DRAW, "something was drawn at random since that decision (the RNG moved)"
    if old.flocks[player].deck != new.flocks[player].deck:
        return RefusalCode.REVEALED, f"{player} drew a card since that decision"
    shown = after.rt.mode.revealed(old, new)   # what the mode turns up (solo: Kiwibot's cards, Solo cards)
    if shown is not None:
        return RefusalCode.REVEALED, shown
    seen_before, seen_now = before.view(player), after.view(player)
    for flock, shown in seen_now["flocks"].items():
        if set(shown) - set(seen_before["flocks"].get(flock, {})):
            return RefusalCode.REVEALED, f"{flock}'s hidden reserve was revealed to {player} since that decision"
    hidden_before = [c["id"] == "facedown" for c in seen_before["season_cards"]]
    hidden_now = [c["id"] == "facedown" for c in seen_now["season_cards"]]
    if hidden_before != hidden_now:
        return RefusalCode.REVEALED, "a Season card was turned up since that decision"
    return None
