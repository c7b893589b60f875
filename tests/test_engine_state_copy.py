"""Engine: `State.copy()` is an independent, equal copy of a state (the copy bots and clones make)."""
from __future__ import annotations

import dataclasses
import random

import pytest

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.core.board import board_of
from kcd.core.state import Flock, Hex, Kiwi, State

# shared on purpose: rule values fixed at setup, and the island's geometry
_SHARED = ("params", "_board")


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def _mutables(obj, path: str, out: dict[int, str]) -> None:
    """id -> path of every mutable object reachable from a state (lists, dicts, sets, Flock); Hex and Kiwi are
    immutable values, shared by copies on purpose (their parts are searched all the same)."""
    # a mode's own data (`State.mode_state`, a dataclass) is mutable like a Flock
    own = dataclasses.is_dataclass(obj) and not isinstance(obj, (Kiwi, Hex, type))
    if isinstance(obj, (list, dict, set, Flock)) or own:
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
    elif own:
        for f in dataclasses.fields(obj):
            _mutables(getattr(obj, f.name), f"{path}.{f.name}", out)


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
    """Equal by `to_dict` (and `from_dict` of it), and no list, dict, set or Flock of the copy is the original's
    (the Hex and Kiwi, immutable, are shared): a field added to the state later that the copy forgets to copy
    fails here."""
    for st in _states(ruleset, players, 11, **kw):
        board_of(st)
        twin = st.copy()
        assert type(twin) is State
        assert twin.to_dict() == st.to_dict()
        assert State.from_dict(st.to_dict()).to_dict() == twin.to_dict()
        assert twin._board is st._board        # the geometry is shared, never rebuilt
        assert twin.hexes is not st.hexes and all(twin.hexes[h] is st.hexes[h] for h in st.hexes)
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
    """Changing the copy through the island writers (Kiwi sizes, stacks, Nests, markers) and its other parts
    (hands, bags, RNG, solo data) leaves the original as it was, and back."""
    game = Game.new(ruleset, players=["red", "green"], seed=4, mode="solo")
    rng = random.Random(4)
    for _ in range(40):
        game.apply(rng.choice(game.pending.options).id)
    st = game.state
    before = st.to_dict()
    twin = st.copy()
    hex_with_kiwi = next(h for h in twin.hexes.values() if h.kiwi)
    twin.resize_kiwi(hex_with_kiwi.id, hex_with_kiwi.kiwi[0].id, 1)
    twin.place_new_kiwi(hex_with_kiwi.id, "red", 1)
    twin.set_nest(next(iter(twin.hexes)), ("red", "tree-1"))
    twin.set_domain(next(iter(twin.hexes)), ("red", "flower"))
    other = next(h for h in twin.hexes.values() if h.kiwi and h.id != hex_with_kiwi.id)
    twin.move_kiwi(other.id, hex_with_kiwi.id, other.kiwi[0].id)
    fl = twin.flocks["red"]
    fl.hand.append("x")
    fl.fruit["red"] = 99
    fl.track -= 1
    twin.fruit_bag["red"] = 0
    twin.domain_bag.clear()
    twin.seats.reverse()
    twin.season_cards.append("x")
    twin.rand_below(10)
    for value in (getattr(twin.mode_state, f.name) for f in dataclasses.fields(twin.mode_state)):
        if isinstance(value, list):
            value.append("x")
    assert st.to_dict() == before
    again = st.copy()
    st.flocks["green"].deck.clear()
    st.set_kiwi(hex_with_kiwi.id, ())
    assert again.to_dict() == before


def test_the_island_cannot_be_changed_in_place(ruleset):
    """A writer that bypasses State's island writers fails loudly instead of changing every copy's island."""
    game = Game.new(ruleset, players=["red", "green"], seed=4)
    st = game.state
    h = next(h for h in st.hexes.values() if h.kiwi)
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.kiwi[0].size += 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.nest = ("red", "tree-1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.domain = ("red", "flower")
    with pytest.raises(AttributeError):
        h.kiwi.append(st.new_kiwi("red", 1))
    with pytest.raises(KeyError):
        st.remove_kiwi(h.id, -1)
    kiwi = h.kiwi[0]
    grown = st.resize_kiwi(h.id, kiwi.id, 1)
    assert (grown.id, grown.size) == (kiwi.id, kiwi.size + 1) and st.hexes[h.id].kiwi[0] is grown
    assert h.kiwi[0] is kiwi and kiwi.size == grown.size - 1      # the old values are unchanged
    st.resize_kiwi(h.id, kiwi.id, -grown.size)
    assert all(k.id != kiwi.id for k in st.hexes[h.id].kiwi)     # a Kiwi shrunk to size 0 leaves the hex


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
