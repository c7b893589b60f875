"""Engine: `State.copy()` is an independent, equal copy of a state (the copy bots and clones make)."""
from __future__ import annotations

import random

import pytest

from interpreter.content import load_ruleset
from interpreter.engine import Game
from interpreter.engine.board import board_of
from interpreter.engine.state import Flock, Hex, Kiwi, State

# shared on purpose: rule values fixed at setup, and the island's geometry
_SHARED = ("params", "_board")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def _mutables(obj, path: str, out: dict[int, str]) -> None:
    """id -> path of every mutable object reachable from a state (lists, dicts, sets, Kiwi, Hex, Flock)."""
    if isinstance(obj, (list, dict, set, Kiwi, Hex, Flock)):
        out[id(obj)] = path
    if isinstance(obj, dict):
        for k, v in obj.items():
            _mutables(v, f"{path}/{k}", out)
    elif isinstance(obj, (list, tuple, set)):
        for i, v in enumerate(obj):
            _mutables(v, f"{path}/{i}", out)
    elif isinstance(obj, (Kiwi, Hex, Flock)):
        for name in obj.__slots__:
            _mutables(getattr(obj, name), f"{path}.{name}", out)


def _states(ruleset, players, seed, **kw):
    """States at random moments of one random game (every 7th decision)."""
    game = Game.new(ruleset, players=players, seed=seed, **kw)
    rng = random.Random(seed)
    n = 0
    while not game.is_over:
        if n % 7 == 0:
            yield game.state
        game.apply(rng.choice(game.pending.options).id)
        n += 1
    yield game.state


@pytest.mark.parametrize("players,kw", [
    (["red", "green", "purple", "yellow"], {}),
    (["red", "green", "purple"], {"variant": "vto"}),
    (["red", "green"], {"mode": "solo"}),
])
def test_copy_is_equal_and_shares_no_mutable_part(ruleset, players, kw):
    """Equal by `to_dict` (and `from_dict` of it), and no list, dict, Kiwi, Hex or Flock of the copy is the
    original's: a field added to the state later that the copy forgets to copy fails here."""
    for st in _states(ruleset, players, 11, **kw):
        board_of(st)
        twin = st.copy()
        assert type(twin) is State
        assert twin.to_dict() == st.to_dict()
        assert State.from_dict(st.to_dict()).to_dict() == twin.to_dict()
        assert twin._board is st._board        # the geometry is shared, never rebuilt
        theirs: dict[int, str] = {}
        ours: dict[int, str] = {}
        for name, value in vars(st).items():
            if name not in _SHARED:
                _mutables(value, name, theirs)
        for name, value in vars(twin).items():
            if name not in _SHARED:
                _mutables(value, name, ours)
        shared = sorted(ours[i] for i in set(ours) & set(theirs))
        assert not shared, f"the copy shares {shared[:5]}"


def test_copy_is_independent_both_ways(ruleset):
    """Changing the copy (Kiwi sizes, stacks, hands, bags, RNG, solo data) leaves the original as it was, and back."""
    game = Game.new(ruleset, players=["red", "green"], seed=4, mode="solo")
    rng = random.Random(4)
    for _ in range(40):
        game.apply(rng.choice(game.pending.options).id)
    st = game.state
    before = st.to_dict()
    twin = st.copy()
    hex_with_kiwi = next(h for h in twin.hexes.values() if h.kiwi)
    hex_with_kiwi.kiwi[0].size += 1
    hex_with_kiwi.kiwi.append(twin.new_kiwi("red", 1))
    twin.hexes[next(iter(twin.hexes))].nest = ("red", "tree-1")
    fl = twin.flocks["red"]
    fl.hand.append("x")
    fl.fruit["red"] = 99
    fl.track -= 1
    twin.fruit_bag["red"] = 0
    twin.domain_bag.clear()
    twin.seats.reverse()
    twin.season_cards.append("x")
    twin.rand_below(10)
    for value in twin.solo.values():
        if isinstance(value, list):
            value.append("x")
    assert st.to_dict() == before
    again = st.copy()
    st.flocks["green"].deck.clear()
    st.hexes[hex_with_kiwi.id].kiwi.clear()
    assert again.to_dict() == before


def test_copied_state_plays_on_identically(ruleset):
    """A game rebuilt on a copied state continues exactly as one on the original (same options, same events)."""
    game = Game.new(ruleset, players=["red", "green", "purple", "yellow"], seed=9)
    rng = random.Random(9)
    while game.state.phase != "actions" or game.state.season < 2:
        game.apply(rng.choice(game.pending.options).id)
    a = Game.from_state(ruleset, game.state.copy())
    b = Game.from_state(ruleset, State.from_dict(game.state.to_dict()))
    pick = random.Random(1)
    for _ in range(150):
        if a.is_over:
            break
        assert a.pending_ids() == b.pending_ids()
        choice = pick.choice(a.pending_ids())
        ea, eb = a.apply(choice), b.apply(choice)
        assert [e.text for e in ea.events] == [e.text for e in eb.events]
    assert a.state.to_dict() == b.state.to_dict()
