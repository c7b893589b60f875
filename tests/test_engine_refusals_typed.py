"""Refusals are typed: `Refused.code` is a `RefusalCode` (a string enum, so it reads and serialises as its text),
and `Applied | Refused` is a union tagged by `ok`."""
from __future__ import annotations

import json

import pytest
from test_engine_support import ruleset

from kcd.engine import Applied, Game, RefusalCode, Refused


def test_every_refusal_carries_a_refusal_code_that_is_its_text() -> None:
    """apply, undo and redo refuse with members of RefusalCode, equal to (and dumped as) the code's string."""
    game = Game.new(ruleset(), ["red", "green"], seed=3)
    refused = [game.undo(), game.redo(), game.apply("stop"), game.apply("not an id!"),
               game.apply(game.pending.options[0].id, player="green")]
    first = game.pending.options[0].id
    assert game.apply(first).ok
    refused.append(game.apply(first))
    assert [r.code for r in refused if isinstance(r, Refused)] == [
        "nothing-to-undo", "nothing-to-redo", "illegal", "malformed", "wrong-player", "stale"]
    for r in refused:
        assert isinstance(r, Refused) and not r.ok and type(r.code) is RefusalCode
        assert json.dumps({"code": r.code}) == json.dumps({"code": r.code.value}) and str(r.code) == r.code.value


def test_the_codes_are_the_documented_ones() -> None:
    """The codes a front-end may meet, by value (docs/api.md lists them)."""
    assert {c.value for c in RefusalCode} == {"game-over", "malformed", "wrong-player", "stale", "illegal",
                                              "nothing-to-undo", "nothing-to-redo", "history", "random-draw",
                                              "revealed"}


def test_ok_tags_the_result() -> None:
    """`ok` is True exactly for Applied; a result is frozen."""
    game = Game.new(ruleset(), ["red", "green"], seed=3)
    result = game.apply(game.pending.options[0].id)
    assert isinstance(result, Applied) and result.ok is True
    assert Refused(RefusalCode.ILLEGAL, "x").ok is False
    with pytest.raises(AttributeError):
        result.ok = False   # type: ignore[misc]
