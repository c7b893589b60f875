"""Refused decisions leave the state byte-identical (compare the JSON): fuzzing with malformed and illegal ids."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcd.analysis.bots import RandomBot
from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.analysis.sim import default_flocks
from kcd.testing import mangled_id

REFUSAL_CODES = {"wrong-player", "stale", "malformed", "illegal", "game-over"}


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_refused_ids_leave_json_identical_through_whole_games(ruleset, players: int, seed: int) -> None:
    """At every decision of a random game, 3 mangled ids and a legal id from the wrong player are tried:
    each is refused with its code and the JSON is unchanged."""
    rng = random.Random(seed)
    game = Game.new(ruleset, players=default_flocks(ruleset, players), seed=seed)
    bot = RandomBot(seed)
    seen: list[str] = []
    refused = 0
    while not game.is_over:
        ids = game.pending.option_ids()
        before = game.to_json()
        for _ in range(3):
            bad = mangled_id(rng, ids, seen)
            if bad in ids:
                continue
            result = game.apply(bad)
            assert not result.ok, bad
            assert result.code in REFUSAL_CODES and result.message
            assert game.to_json() == before, f"refused `{bad!r}` changed the state"
            refused += 1
        others = [f for f in game.state.seats if f != game.pending.player]
        wrong = game.apply(rng.choice(ids), player=rng.choice(others))
        assert not wrong.ok and wrong.code == "wrong-player"
        assert game.to_json() == before
        option = bot.choose(game)
        seen.append(option)
        assert game.apply(option).ok
    assert refused > 100
    before = game.to_json()
    over = game.apply(seen[-1])
    assert not over.ok and over.code == "game-over"
    assert game.to_json() == before


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=30), st.integers(min_value=0, max_value=120))
def test_hypothesis_any_text_is_refused_or_legal(ruleset, text: str, steps: int) -> None:
    """Any string at any point of a game: legal -> applied; otherwise refused with the state unchanged."""
    game = Game.new(ruleset, players=default_flocks(ruleset, 2), seed=9)
    bot = RandomBot(9)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(bot.choose(game))
    before = game.to_json()
    legal = [] if game.is_over else game.pending.option_ids()
    result = game.apply(text)
    if text in legal:
        assert result.ok
    else:
        assert not result.ok and result.code in REFUSAL_CODES
        assert game.to_json() == before
