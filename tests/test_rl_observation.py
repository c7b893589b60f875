"""Observation and information-state tensors (interpreter/rl/observation.py) leak nothing and say what they
publish: resampling what a player cannot see (interpreter/analysis/determinize.py `resample`: other hands and decks, cards
played face down R-ACT-2, face-down domain markers and the bag R-DM-1, Kiwibot's deck, the Solo pile and face-down
Season cards R-SOLO-1..4, the RNG) leaves both tensors identical, at many moments of standard, Variable Turn Order
and solo games; the planes and vectors match the state; no label or log text is built."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from kcd.content import load_ruleset
from kcd.analysis.determinize import resample
from kcd.engine import Game
from kcd.core import decisions
from kcd.core.board import DIRECTIONS
from kcd.rl import action_space, information_state_tensor, observation_space, observation_tensor

GAMES = [("2p", {"players": ["red", "green"], "seed": 21}),
         ("4p", {"players": ["red", "green", "purple", "yellow"], "seed": 22}),
         ("vto", {"players": ["red", "green", "purple"], "seed": 23, "variant": "vto"}),
         ("solo", {"players": ["red", "green"], "seed": 24, "mode": "solo"})]


@lru_cache(maxsize=1)
def ruleset() -> Any:
    return load_ruleset()


def _hidden(game: Game, player: str) -> tuple:
    """What `player` cannot see (to show a resample changed something)."""
    st = game.readonly_state
    return (st.rng, tuple((f, tuple(fl.hand), tuple(fl.deck), tuple(fl.domain)) for f, fl in st.flocks.items()
                          if f != player), tuple(st.flocks[player].deck))


@pytest.mark.parametrize("label,kwargs", GAMES, ids=[g[0] for g in GAMES])
def test_tensors_are_the_same_on_every_deal_the_player_cannot_tell_apart(label: str, kwargs: dict) -> None:
    """At every 4th decision (2nd in solo), for every seat: 3 resampled deals give the same observation and information state,
    and most deals did change hidden information."""
    game = Game.new(ruleset(), **kwargs)
    play, deal = random.Random(kwargs["seed"]), random.Random(7)
    bot = game.readonly_state.mode_state.bot if label == "solo" else None
    seats = [f for f in game.readonly_state.seats if f != bot]
    checked = changed = n = 0
    every = 2 if label == "solo" else 4   # a solo game asks the player alone: fewer decisions
    while not game.is_over:
        if n % every == 0:
            for player in seats:
                obs, info = observation_tensor(game, player), information_state_tensor(game, player)
                for _ in range(3):
                    twin = game.clone()
                    resample(twin.state, player, twin.rules, deal)
                    changed += _hidden(twin, player) != _hidden(game, player)
                    assert np.array_equal(observation_tensor(twin, player), obs), (label, n, player)
                    assert np.array_equal(information_state_tensor(twin, player), info), (label, n, player)
                    checked += 1
                other = game.clone(keep_rng=False, rng=deal)
                assert np.array_equal(observation_tensor(other, player), obs)
        game.apply(play.choice(game.pending.options).id)
        n += 1
    assert checked > 60 and changed > checked * 0.9


@pytest.mark.parametrize("label,kwargs", GAMES, ids=[g[0] for g in GAMES])
def test_the_tensors_kept_between_calls_are_the_ones_built_from_nothing(label: str, kwargs: dict) -> None:
    """The space keeps the last board and rewrites only what changed (observation.py `_Board`): at every decision
    of a game, observed by the seats in a shuffled order, interleaved with a clone one decision ahead and with a
    second game, both tensors equal those of a space that never saw a game (R-ACT-2, R-DM-1, R-END-1 and
    R-SOLO-4 shown as the layout says: the built-from-nothing path is the one the layout test checks)."""
    game, other = Game.new(ruleset(), **kwargs), Game.new(ruleset(), **{**kwargs, "seed": kwargs["seed"] + 100})
    space = observation_space(game)
    play, order = random.Random(kwargs["seed"]), random.Random(3)
    bot = game.readonly_state.mode_state.bot if label == "solo" else None
    seats = [f for f in game.readonly_state.seats if f != bot]
    checked = 0
    while not game.is_over:
        ahead = game.clone()
        ahead.apply(play.choice(ahead.pending.options).id)
        for player in order.sample(seats, len(seats)):
            for g in (game, ahead, other) if checked % 5 == 0 else (game,):
                fresh = type(space)(ruleset(), len(seats) if bot is None else 2)
                assert np.array_equal(space.observation_tensor(g, player), fresh.observation_tensor(g, player))
                fresh = type(space)(ruleset(), len(seats) if bot is None else 2)
                assert np.array_equal(space.information_state_tensor(g, player),
                                      fresh.information_state_tensor(g, player))
                checked += 1
        game.apply(play.choice(game.pending.options).id)
        if not other.is_over:
            other.apply(play.choice(other.pending.options).id)
    assert checked > 60


def test_the_tensors_show_the_state_in_the_published_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shapes as published; Kiwi planes count every Kiwi by seat and size, the hand vector is the own hand, the
    other hands only as a count; seat 0 is the observer; no option label is built by the mask and tensors."""
    game = Game.new(ruleset(), players=["red", "green", "purple"], seed=5)
    play = random.Random(5)
    for _ in range(40):
        game.apply(play.choice(game.pending.options).id)
    space = observation_space(game)
    st = game.readonly_state
    for player in st.seats:
        obs = observation_tensor(game, player)
        assert obs.shape == space.shape and obs.dtype == np.float32
        assert information_state_tensor(game, player).shape == (space.information_state_size,)
        planes = space.planes_of(obs)
        order = space.seat_order(game, player)
        assert order[0] == player
        for s, flock in enumerate(order):
            for size in range(1, game.rules.max_size + 1):
                row = planes[space.planes.index(f"kiwi/{s}/{size}")]
                want = [sum(1 for k in st.hexes[h].kiwi if k.flock == flock and k.size == size) for h in space.hexes]
                assert row.tolist() == want
        fields = {name: (start, length) for name, start, length in space.vector_fields}
        start, length = fields["hand"]
        assert obs[start:start + length].tolist() == [st.flocks[player].hand.count(c) for c in space.cards]
        start, _ = fields["seat1/hand_count"]
        assert obs[start] == len(st.flocks[order[1]].hand)
        start, length = fields["seat0/fruit"]
        assert obs[start:start + length].tolist() == [st.flocks[player].fruit.get(c, 0) for c in game.rules.fruits]
    assert not np.array_equal(observation_tensor(game, st.seats[0]), observation_tensor(game, st.seats[1]))
    fresh = Game.new(ruleset(), players=["red", "green"], seed=9)
    built: list[int] = []   # labels and prompts built from their Texts: the tensors read none
    text = decisions._text
    monkeypatch.setattr(decisions, "_text", lambda value: built.append(1) or text(value))
    action_space(fresh).legal_mask(fresh)
    observation_tensor(fresh, "red")
    information_state_tensor(fresh, "red")
    assert built == [] and all(not isinstance(o.stored_label, str) for o in fresh.pending.options)


def test_a_bad_player_is_a_clear_error() -> None:
    """An observer who is not playing is refused by name."""
    game = Game.new(ruleset(), players=["red", "green"], seed=1)
    with pytest.raises(ValueError, match="unknown player `teal`"):
        observation_tensor(game, "teal")


def _reference_observation(space: Any, game: Game, player: str) -> np.ndarray:
    """`player`'s observation built plainly from the state and the published layout (the names of `planes` and
    `vector_fields`, the module docstring), every entry from scratch: what the kept board must equal."""
    st, rules = game.readonly_state, game.rules
    order = space.seat_order(game, player)
    seat = {f: s for s, f in enumerate(order)}
    n = space.n_hexes
    out = np.zeros(space.size, np.float32)
    plane = {name: i for i, name in enumerate(space.planes)}
    at = {name: start for name, start, _ in space.vector_fields}
    on_island = {(st.hexes[h].q, st.hexes[h].r) for h in space.hexes}
    for i, hid in enumerate(space.hexes):
        h = st.hexes[hid]
        out[plane[f"terrain/{h.terrain}"] * n + i] = 1
        if any((h.q + dq, h.r + dr) not in on_island for dq, dr in DIRECTIONS):
            out[plane["edge"] * n + i] = 1
        for k in h.kiwi:
            out[plane[f"kiwi/{seat[k.flock]}/{k.size}"] * n + i] += 1
        if h.nest is not None:
            out[plane[f"nest/{seat[h.nest[0]]}/{h.nest[1]}"] * n + i] = 1
        if h.domain is not None:
            out[plane[f"marker/{seat[h.domain[0]]}"] * n + i] = 1
    reveal = st.season >= rules.seasons and st.phase in ("domain_marking", "over")
    bot = st.mode_state.bot if st.mode_state is not None else None
    turn, first, pending = st.turn_order(), st.seats[st.first], game.pending
    for s, f in enumerate(order):
        fl = st.flocks[f]

        def put(name: str, offset: int = 0, value: float = 1) -> None:
            out[at[f"seat{s}/{name}"] + offset] = value

        if fl.leader_hex is None:
            put("leader_off")
        else:
            out[plane[f"leader/{s}"] * n + space.hexes.index(fl.leader_hex)] = 1
        put("flock", space.flocks.index(fl.id))
        put("side", space.sides.index(fl.side))
        if fl.leader in space.leaders:
            put("leader", space.leaders.index(fl.leader))
        if fl.leader_card in space.leader_cards:
            put("leader_card", space.leader_cards.index(fl.leader_card))
        put("leader_used", 0, float(fl.leader_used))
        for c, colour in enumerate(rules.fruits):
            put("fruit", c, fl.fruit.get(colour, 0))
        put("domain_count", 0, len(fl.domain))
        if s == 0 or reveal:   # the observer's own markers by terrain; everyone's in the last Domain Marking
            for t, terrain in enumerate(rules.terrains):
                put("domain", t, fl.domain.count(terrain))
        put("hand_count", 0, len(fl.hand))
        put("deck_count", 0, len(fl.deck))
        shown = fl.played if s == 0 else [c for j, c in enumerate(fl.played) if j not in fl.facedown]
        for c, card in enumerate(space.cards):
            put("discard", c, fl.discard.count(card))
            put("played", c, shown.count(card))
        put("facedown", 0, len(fl.facedown))
        for name in ("track", "reserve_kiwi", "supply", "covers", "season_vp", "on_tracker"):
            put(name, 0, getattr(fl, name))
        for nest in fl.nests_built:
            put("nests_built", space.nests.index(nest))
        for card in fl.kept_season_cards:
            put("kept_season_cards", space.season_cards.index(card))
        for name in ("tracker_slot", "tracker_prev"):
            value = getattr(fl, name)
            put(name, 0 if value is None else 1 + space.slots.index(value))
        put("first", 0, float(f == first))
        if f in turn:
            put("turn_place", turn.index(f))
        put("deciding", 0, float(pending is not None and pending.player == f))
        put("kiwibot", 0, float(f == bot))
    for c, card in enumerate(space.cards):
        out[at["hand"] + c] = st.flocks[player].hand.count(card)
    out[at["season"] + min(st.season, rules.seasons)] = 1
    if st.phase in space.phases:
        out[at["phase"] + space.phases.index(st.phase)] = 1
    width, shown_cards = len(space.season_cards) + 1, len(st.season_cards)
    if st.mode_state is not None:
        data = st.mode_state.to_dict()
        solo_cards, marker_sides = tuple(rules.solo_cards), tuple(rules.solo.sides)   # content order
        shown_cards = int(data["flipped"]) * int(data["per_season"])
        if data["pile"]:
            out[at["solo/card"] + solo_cards.index(data["pile"][0])] = 1
        out[at["solo/left"]] = len(data["pile"])
        for card in data["discarded"]:
            out[at["solo/discarded"] + solo_cards.index(card)] = 1
        out[at["solo/set_aside"]] = len(data["set_aside"])
        if data["side"] in marker_sides:
            out[at["solo/marker_side"] + marker_sides.index(data["side"])] = 1
    for j, card in enumerate(st.season_cards[:space.season_slots]):
        out[at["season_cards"] + j * width + (space.season_cards.index(card) if j < shown_cards else width - 1)] = 1
    for c, colour in enumerate(rules.fruits):
        out[at["fruit_bag"] + c] = st.fruit_bag.get(colour, 0)
    return out


def _reference_mask(space: Any, game: Game, player: str) -> np.ndarray:
    """The action mask built plainly: 1 at `action_index` of each pending option's action, for the decider only."""
    mask = np.zeros(space.num_distinct_actions, np.int8)
    pending = game.pending
    if pending is not None and pending.player == player:
        for option in pending.options:
            mask[space.action_index(option.action)] = 1
    return mask


@pytest.mark.parametrize("kwargs", [{"players": 2}, {"players": 4}, {"players": 3, "mode": "vto"}, {"mode": "solo"}],
                         ids=["2p", "4p", "3p-vto", "solo"])
def test_the_environments_observation_and_mask_are_the_plain_reference_at_every_step(kwargs: dict) -> None:
    """Random games through the PettingZoo environment: at every step, the deciding agent's observation tensor and
    action mask (`last()`) and another agent's (`observe`) equal the reference built from scratch from the state and
    the published layout, so the fast path (a kept board, rewritten where the state changed) hides nothing and
    shows nothing more."""
    pytest.importorskip("pettingzoo")
    from kcd.rl.pettingzoo import env
    e = env(**kwargs)
    play = random.Random(11)
    steps = 0
    for seed in (1, 2):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            flock = e._flock_of[agent]
            assert np.array_equal(obs["observation"], _reference_observation(e.obs_space, e.game, flock)), steps
            assert np.array_equal(obs["action_mask"], _reference_mask(e.space, e.game, flock)), steps
            other = play.choice(e.possible_agents)
            seen = e.observe(other)
            assert np.array_equal(seen["observation"], _reference_observation(e.obs_space, e.game, e._flock_of[other]))
            assert np.array_equal(seen["action_mask"], _reference_mask(e.space, e.game, e._flock_of[other]))
            if terminated or truncated:
                e.step(None)
                continue
            e.step(play.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    assert steps > 100
