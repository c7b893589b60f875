"""Determinisation: a copy of a game whose hidden information is resampled as one player could imagine it.

A tree-search bot (interpreter/analysis/mcts.py) must not read what its player cannot see. `determinize(game, player,
rng)` copies the game and deals every hidden thing again, uniformly among the deals consistent with what
`player` sees (`Game.view(player)`), from the caller's RNG:

- other flocks' hands, decks and the cards they played face down (R-ACT-2): one pool per flock (its whole card
  set minus its public discard pile and face-up played cards), dealt back into the same slots;
- the player's own deck order (its contents follow from its hand, discards and played cards);
- other flocks' face-down domain markers and the domain bag (R-DM-1): one pool of every marker not on the
  island and not the player's own, dealt back in the same counts; in the last Domain Marking every reserve
  is shown (R-END-1), so then only the bag could be hidden and nothing is dealt;
- solo games (R-SOLO-1..4): Kiwibot's deck and its set-aside card(s), the Solo cards under the face-up top
  card of the pile (kept in ascending order, R-SOLO-2) and the face-down Season cards of later seasons;
- the state's RNG, so deck order and future draws come from the caller's RNG, never from the game's.

The fruit bag is not hidden: every fruit is in the bag or shown on a flock board, so its contents are public.

The result depends only on the player's view and the RNG: every pool is built as a sorted multiset, so two
games that look the same to `player` give the same determinisation for the same RNG state. Counts are
conserved (each flock's card set, every domain marker, hand/deck/reserve sizes) and the player's view is
unchanged (tests/test_determinize.py checks both).

The copy is `Game.clone(events=False)` (`events=True`: with the whole log) with its live state rewritten in place (lists and dicts kept as the
same objects, since the running step's generator holds them). Do not `clone()` the result before its step
ends: a clone replays from the step's checkpoint, which still holds the original hidden information. Apply
options to it directly (the search does).
"""
from __future__ import annotations

import json
import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from kcd.engine import Game, mode_registry as modes
from kcd.core.state import Flock, State

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.rules import Rules


def determinize(game: Game, player: str, rng: random.Random, events: bool = False) -> Game:
    """A copy of `game` with what `player` cannot see dealt again from `rng` (see the module docstring); events=True
    copies the whole event log too (a searcher whose features read the log: interpreter/rl), else only the step's."""
    copy = game.clone(events=events)
    resample(copy.state, player, copy.rules, rng)
    return copy


def alternative(game: Game, player: str, rng: random.Random) -> Game | None:
    """A whole other game that `player` cannot tell from `game`, or None when this deal does not fit.

    The step's checkpoint is dealt again (`resample`) and the step's decisions replayed on it, so the result is a
    real game in its own right (its checkpoint, `to_json` and clones carry the new hidden information, unlike
    `determinize`'s copy). A deal fits when every decision replays and `player`'s view (the log aside) is the same
    as in `game`; a draw since the step began can make it differ. For tests that a bot reads nothing hidden:
    its choice must be the same on `game` and on every alternative.
    """
    data = json.loads(game.to_json())
    checkpoint = State.from_dict(data["checkpoint"])
    resample(checkpoint, player, game.rules, rng)
    # saves hold no events (a load replays them), so the log up to the step's start is taken from the game itself
    events = list(game.events[:game._checkpoint_events])
    other = Game(game.ruleset, checkpoint, events)
    for option_id in data["history"][data["step_start"]:]:
        if not other.apply(option_id).ok:
            return None
    seen, real = other.view(player), game.view(player)
    seen.pop("log")
    real.pop("log")
    return other if seen == real else None


def resample(state: State, player: str, rules: Rules, rng: random.Random) -> None:
    """Deal the hidden information of `state` (as seen by `player`) again from `rng`, in place."""
    if player not in state.flocks:
        raise ValueError(f"unknown player `{player}`: the players are {', '.join(state.seats)}")
    mode = modes.for_state(state)
    for flock in state.seats:
        fl = state.flocks[flock]
        own = mode.hidden_card_slots(state, flock) if flock != player else None   # solo: Kiwibot's deck, set aside
        if flock == player:
            _deal(rng, list(fl.deck), [fl.deck])   # R-ACT-3: own deck order is unknown too
        elif own is not None:
            _deal(rng, [c for slot in own for c in slot], own)
        else:
            _deal_cards(fl, rng)
    if not _reserves_revealed(state, rules):
        _deal_markers(state, player, rng)
    mode.resample_hidden(state, rules, rng)   # solo: the Solo cards under the top one, face-down Season cards
    state.rng = rng.getrandbits(64)


def _deal(rng: random.Random, pool: list[str], slots: list[list[str]]) -> None:
    """Shuffle the pool (as a sorted multiset) and refill each slot, in place, with as many items as it held."""
    items = sorted(pool)
    rng.shuffle(items)
    at = 0
    for slot in slots:
        n = len(slot)
        slot[:] = items[at:at + n]
        at += n


def _deal_cards(fl: Flock, rng: random.Random) -> None:
    """Another flock's hand, deck and face-down played cards are one unknown pool (R-ACT-2)."""
    facedown = [i for i in fl.facedown if 0 <= i < len(fl.played)]
    hidden_played = [fl.played[i] for i in facedown]
    holder: list[str] = list(hidden_played)
    _deal(rng, fl.hand + fl.deck + hidden_played, [holder, fl.hand, fl.deck])
    for i, card in zip(facedown, holder):
        fl.played[i] = card


def _reserves_revealed(state: State, rules: Rules) -> bool:
    """R-END-1: in the last Domain Marking every reserve is shown (as `view` shows it)."""
    return state.season >= rules.seasons and state.phase in ("domain_marking", "over")


def _deal_markers(state: State, player: str, rng: random.Random) -> None:
    """Other flocks' face-down markers and the bag are one unknown pool, dealt back in the same counts."""
    others = [state.flocks[f] for f in state.seats if f != player]
    pool: list[str] = [t for t, n in state.domain_bag.items() for _ in range(max(0, int(n)))]
    for fl in others:
        pool.extend(fl.domain)
    items = sorted(pool)
    rng.shuffle(items)
    at = 0
    for fl in others:
        n = len(fl.domain)
        fl.domain[:] = sorted(items[at:at + n])   # reserves are kept sorted (effects.gain_domain)
        at += n
    left = Counter(items[at:])
    for terrain in list(state.domain_bag):   # same dict, same key order
        state.domain_bag[terrain] = left.pop(terrain, 0)
    for terrain in sorted(left):
        state.domain_bag[terrain] = left[terrain]
