"""Undo and redo: back to the previous decision, information-aware.

`undo()` makes the last decision pending again for the player who made it; it is refused (a `Refused`, the
state byte-identical) when a random draw happened since (`random-draw`) or something hidden was shown to that
player (`revealed`: a card drawn, a Solo card or Season card turned up), unless `force=True`. `redo()`
re-applies the undone decision; undo then redo gives a byte-identical `to_json()`.
"""
from __future__ import annotations

import random

from test_engine_support import ruleset

from kcd.engine import Game


def _random_game(seed: int, players: list[str], **kw) -> tuple[Game, random.Random]:
    return Game.new(ruleset(), players=players, seed=seed, **kw), random.Random(seed)


def _step(game: Game, rng: random.Random, flock: str | None = None) -> tuple[bool, bool]:
    """Apply a random option; (whether `flock`'s deck changed (default: the decider's), whether the RNG moved)."""
    flock = flock or game.pending.player
    deck, rng_before = list(game.state.flocks[flock].deck), game.state.rng
    assert game.apply(rng.choice(game.pending.options).id).ok
    return game.state.flocks[flock].deck != deck, game.state.rng != rng_before


def test_undo_then_redo_is_byte_identical_everywhere_in_random_games() -> None:
    """At every decision of seeded random games (standard, VTO, solo), forced undo + redo restores to_json()."""
    cases = [(1, ["red", "green"], {}), (2, ["red", "green", "purple"], {"variant": "vto"}),
             (3, ["green", "red"], {"mode": "solo"})]
    for seed, players, kw in cases:
        game, rng = _random_game(seed, players, **kw)
        checked = 0
        while not game.is_over and checked < 120:
            assert game.apply(rng.choice(game.pending.options).id).ok
            if rng.random() < 0.4:
                before = game.to_json()
                assert game.undo(force=True).ok and game.can_redo
                assert game.redo().ok
                assert game.to_json() == before, (seed, len(game.history))
            checked += 1


def test_undo_makes_the_last_decision_pending_again() -> None:
    """After an undo the same decision, with the same options, waits for the same player."""
    game, rng = _random_game(4, ["red", "green"])
    for _ in range(25):
        decision = game.pending
        assert game.apply(rng.choice(decision.options).id).ok
        again = game.clone()
        assert again.undo(force=True).ok
        assert again.pending == decision
        assert again.history == game.history[:-1]


def test_undo_equals_a_fresh_replay_of_the_shorter_history() -> None:
    """The undone game is the game of seed + setup + history minus its last decision."""
    game, rng = _random_game(5, ["red", "green", "purple"])
    for _ in range(40):
        game.apply(rng.choice(game.pending.options).id)
    history = game.history
    assert game.undo(force=True).ok
    fresh = Game.new(ruleset(), players=["red", "green", "purple"], seed=5)
    for option in history[:-1]:
        fresh.apply(option)
    assert fresh.state.to_dict() == game.state.to_dict() and fresh.pending == game.pending


def test_undo_is_refused_across_a_random_draw_and_leaves_the_state_untouched() -> None:
    """A decision whose result drew fruit or markers at random (the RNG moved) cannot be taken back."""
    game, rng = _random_game(6, ["red", "green"])
    refused = 0
    while not game.is_over and refused < 5:
        rng_before = game.state.rng
        assert game.apply(rng.choice(game.pending.options).id).ok
        if game.state.rng != rng_before:
            before = game.to_json()
            result = game.undo()
            assert not result.ok and result.code == "random-draw", result
            assert game.to_json() == before
            refused += 1
    assert refused == 5


def test_undo_is_refused_after_a_card_is_drawn() -> None:
    """The end of a turn draws a card (R-ACT-3): the drawer may not undo into a choice made knowing it."""
    game, rng = _random_game(7, ["red", "green"])
    seen = 0
    while not game.is_over and seen < 3:
        drew, moved = _step(game, rng)
        if drew and not moved:
            before = game.to_json()
            result = game.undo()
            assert not result.ok and result.code == "revealed" and "drew a card" in result.message
            assert game.to_json() == before
            assert game.undo(force=True).ok   # hotseat: forced
            seen += 1
    assert seen == 3


def test_solo_undo_is_refused_after_kiwibot_reveals_a_card() -> None:
    """R-SOLO-7: Kiwibot's turn turns up its Action card; undoing the player's last decision before it is refused."""
    game, rng = _random_game(8, ["green", "red"], mode="solo")
    codes = set()
    while not game.is_over and len(game.history) < 80:
        drew, moved = _step(game, rng, flock="red")
        if drew and not moved:
            result = game.undo()
            assert not result.ok
            codes.add(result.code)
    assert codes == {"revealed"}


def test_undo_allowed_when_nothing_random_or_hidden_happened() -> None:
    """Choosing a Kiwi then undoing it is fine: no draw, no reveal."""
    game, rng = _random_game(9, ["red", "green"])
    allowed = 0
    while not game.is_over and allowed < 10:
        drew, moved = _step(game, rng)
        if not drew and not moved and game.state.season < 4:
            before = game.to_json()
            assert game.undo().ok
            assert game.redo().ok and game.to_json() == before
            allowed += 1
    assert allowed == 10


def test_nothing_to_undo_or_redo_and_apply_clears_redo() -> None:
    """At the start there is nothing to undo; a new decision after an undo drops the redo list."""
    game, rng = _random_game(10, ["red", "green"])
    start = game.to_json()
    assert game.undo().code == "nothing-to-undo" and game.redo().code == "nothing-to-redo"
    assert game.to_json() == start
    first = game.pending.options[0].id
    game.apply(first)
    assert game.undo(force=True).ok and game.can_redo
    other = next((o.id for o in game.pending.options if o.id != first), first)
    assert game.apply(other).ok and not game.can_redo


def test_undo_survives_a_save() -> None:
    """The history and the redo list are in the save: a loaded game undoes and redoes like the original."""
    game, rng = _random_game(11, ["red", "green", "purple"])
    for _ in range(30):
        game.apply(rng.choice(game.pending.options).id)
    assert game.undo(force=True).ok
    loaded = Game.from_json(ruleset(), game.to_json())
    assert loaded.can_redo and loaded.redo().ok and game.redo().ok
    assert loaded.to_json() == game.to_json()
    assert loaded.undo(force=True).ok and game.undo(force=True).ok
    assert loaded.to_json() == game.to_json()


def test_a_position_game_undoes_back_to_its_start() -> None:
    """Games from a hand-built state undo too (rebuilt from the start state)."""
    from pathlib import Path

    from kcd.analysis.position import load_position

    game = load_position(Path(__file__).parent / "golden" / "positions" / "final_marking.yaml")
    start = game.to_json()
    game.apply(game.pending.options[0].id)
    assert game.undo(force=True).ok
    assert game.state.to_dict() == Game.from_json(ruleset(), start).state.to_dict()


def test_undo_within_a_step_equals_a_rebuild_from_the_origin() -> None:
    """Undo rebuilds from the step checkpoint when it can: the same state, events and refusals as a full replay."""
    for seed, players, kw in [(12, ["red", "green", "purple"], {}), (13, ["green", "red"], {"mode": "solo"})]:
        game, rng = _random_game(seed, players, **kw)
        fast = 0
        while not game.is_over and fast < 40:
            game.apply(rng.choice(game.pending.options).id)
            if game.step_depth >= 2:
                undone = game.clone()
                assert undone.undo(force=True).ok
                full = Game._replay(ruleset(), game._origin, game.history[:-1])
                assert undone.to_json().replace(',"redo":["' + game.history[-1] + '"]', ',"redo":[]') == full.to_json()
                assert [e.to_dict() for e in undone.events] == [e.to_dict() for e in full.events]
                assert undone._previous == full._previous and undone.pending == full.pending
                fast += 1
        assert fast >= 20


def test_undo_and_redo_of_a_game_loaded_from_frames_are_byte_identical() -> None:
    """A save loaded from its frames (no replay) undoes and redoes like the game it was saved from; a refused
    undo leaves it untouched."""
    game, rng = _random_game(12, ["red", "green", "purple"])
    for _ in range(70):
        assert game.apply(rng.choice(game.pending.options).id).ok
    for _ in range(12):
        text = game.to_json()
        loaded = Game.from_json(ruleset(), text)
        plain, forced = game.clone().undo(), loaded.clone().undo()
        assert plain.ok == forced.ok and getattr(plain, "code", None) == getattr(forced, "code", None)
        if not forced.ok:
            refused = Game.from_json(ruleset(), text)
            assert not refused.undo().ok and refused.to_json() == text
        assert loaded.undo(force=True).ok and loaded.redo().ok
        assert loaded.to_json() == text
        assert game.apply(rng.choice(game.pending.options).id).ok
