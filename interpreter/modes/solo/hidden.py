"""What a solo game hides from the player, dealt again for a determinization (interpreter/analysis/determinize.py):
the Solo cards under the face-up top one (R-SOLO-2) and the Season cards of seasons not yet flipped (R-SOLO-4)."""
from __future__ import annotations

import random

from kcd.modes.solo.state import solo_of
from kcd.content.rules import Rules
from kcd.core.state import State


def _solo_key(rules: Rules, card: str) -> tuple[int, str]:
    """The pile's order (R-SOLO-2: ascending numbers; procedures.setup_state sorts by (number, id))."""
    solo_card = rules.solo_cards.get(card)
    return (solo_card.number if solo_card is not None else 0), card


def deal_solo_pile(state: State, rules: Rules, rng: random.Random) -> None:
    """R-SOLO-2: only the top Solo card shows; the cards under it are any unseen cards numbered after it."""
    pile = solo_of(state).pile
    if len(pile) < 2:
        return
    top = _solo_key(rules, pile[0])
    seen = set(solo_of(state).discarded) | {pile[0]}
    candidates = sorted(c for c in rules.solo_cards if c not in seen and _solo_key(rules, c) > top)
    chosen = rng.sample(candidates, len(pile) - 1)
    pile[1:] = sorted(chosen, key=lambda c: _solo_key(rules, c))


def deal_season_cards(state: State, rules: Rules, rng: random.Random) -> None:
    """R-SOLO-4: the Season cards of seasons not yet flipped are face down: any cards not face up."""
    shown = solo_of(state).flipped * solo_of(state).per_season
    hidden = len(state.season_cards) - shown
    if hidden <= 0:
        return
    face_up = set(state.season_cards[:shown])
    candidates = sorted(c for c in rules.season_cards if c not in face_up)
    state.season_cards[shown:] = rng.sample(candidates, hidden)
