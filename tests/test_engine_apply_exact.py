"""`apply` takes exactly what it offers, and its refusals stay small.

Typed actions (docs/ACTIONS.md) must equal an offered option's action in every field: an action whose id is an
option's id but whose piece id (or any field) differs is refused, `illegal`, the state untouched. A refusal quotes
at most 80 characters of the id it refuses, and nothing the engine keeps grows with the ids it refused.
"""
from __future__ import annotations

import dataclasses
import json
import random
import tracemalloc
from pathlib import Path

from test_engine_support import ruleset

from kcd.engine import Game
from kcd.core import action_types as A
from kcd.core.decisions import Decision, Option
from kcd.engine.game import QUOTED_ID

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ACTIONS.md"


def _mutants(action: A.Action) -> list[A.Action]:
    """The action with one field changed at a time (ints +1000, strings, flags, lists of strings changed)."""
    out = []
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if isinstance(value, bool):
            other: object = not value
        elif isinstance(value, int):
            other = value + 1000
        elif isinstance(value, str):
            other = value + "x"
        else:
            other = tuple(value) + ("red",)
        out.append(dataclasses.replace(action, **{f.name: other}))
    return out


def _examples() -> dict[str, A.Action]:
    """Every action kind's documented example (docs/ACTIONS.md)."""
    out = {}
    for row in DOCS.read_text(encoding="utf-8").splitlines():
        if row.startswith("| `"):
            cells = [c.strip() for c in row.strip("|").split("|")]
            action = A.action_from_dict(json.loads(cells[4].strip("`")))
            out[action.kind] = action
    return out


def test_every_action_kind_is_refused_unless_it_is_exactly_the_offered_one() -> None:
    """For every kind: offered its documented example, `apply` refuses each one-field change of it (`illegal`,
    the same id and a different piece id too), state untouched; the exact action is the option."""
    examples = _examples()
    assert set(examples) == set(A.KINDS)
    game = Game.new(ruleset(), ["red", "green"], seed=3)
    before = game.to_json()
    same_id = 0
    for kind, action in examples.items():
        decision = Decision("red", "test", "", (Option(action.id(), "", action), Option("stop", "", A.word("stop"))))
        game._pending = decision
        for mutant in _mutants(action):
            result = game.apply(mutant)
            assert not result.ok and result.code == "illegal", (kind, mutant, result)
            if mutant.id() == action.id():
                same_id += 1
                assert "offered, but not as given" in result.message, result.message
        assert game.pending.index()[action.id()].action == A.action_from_dict(action.to_dict())
    game._pending = None
    game = Game.from_json(ruleset(), before)
    assert game.to_json() == before
    assert same_id >= 9   # every kind naming a Kiwi by piece id (take-token … push, pick-kiwi, move-to)


def test_a_wrong_piece_id_is_refused_in_play_and_the_right_action_applies() -> None:
    """In seeded games (standard, VTO, solo, advanced with sides B), at every decision: each one-field change of
    the chosen option's action is refused with the state untouched, then the action itself is applied."""
    kinds: set[str] = set()
    cases = [(["red", "green"], {}), (["red", "green", "purple"], {"variant": "vto"}), (["green", "red"], {"mode": "solo"}),
             (["red", "green", "purple", "yellow"], {"setup": "advanced", "sides": dict.fromkeys(["red", "green", "purple", "yellow"], "B")})]
    for seed, (players, kw) in enumerate(cases):
        game = Game.new(ruleset(), players=players, seed=seed, **kw)
        rng = random.Random(seed)
        n = 0
        while not game.is_over:
            chosen = rng.choice(game.pending.options)
            before = game.to_json() if n % 25 == 0 else None
            offered = [o.action for o in game.pending.options]
            for mutant in _mutants(chosen.action):
                if mutant in offered:
                    continue   # another option (may:no for may:yes)
                result = game.apply(mutant)
                assert not result.ok and result.code in ("illegal", "malformed"), (mutant, result)
                kinds.add(chosen.action.kind)
            if before is not None:
                assert game.to_json() == before
            assert game.apply(chosen.action).ok
            n += 1
    assert {"move", "push", "feed", "cover", "grow", "take-token", "mark", "pay", "card"} <= kinds, kinds


def test_refusals_quote_at_most_80_characters_of_the_id() -> None:
    """A 100 KB id, well formed or not, stale or illegal, is quoted cut to 80 characters and an ellipsis."""
    game = Game.new(ruleset(), ["red", "green"], seed=1)
    first = game.pending.options[0].id
    for bad in ["card:" + "a" * 100_000, "?" * 100_000, "card:" + "b" * 100_000]:
        result = game.apply(bad)
        assert not result.ok and len(result.message) < 300, len(result.message)
        assert "…" in result.message
    result = game.apply("card:" + "c" * 100_000, player="p" * 100_000)
    assert result.code == "wrong-player" and len(result.message) < 300
    result = game.apply(12345678901234567890 * 10 ** 200)   # type: ignore[arg-type]
    assert result.code == "malformed" and len(result.message) < 300
    assert game.apply(first).ok
    assert len(repr(first)) <= QUOTED_ID


def test_refused_ids_are_not_kept() -> None:
    """3,000 refused ids of 100 KB each leave no memory behind (they were kept in a process-wide cache: 318 MB)."""
    game = Game.new(ruleset(), ["red", "green"], seed=2)
    game.apply("card:warm-up")
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for i in range(3_000):
            bad = f"card:{i:05d}" + "z" * 100_000
            assert game.apply(bad).code == "illegal"
            del bad
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 2_000_000, grown
