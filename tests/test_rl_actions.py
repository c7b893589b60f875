"""The fixed action index (interpreter/rl/actions.py): in random games of every mode (standard 2-4 players,
Variable Turn Order R-VTO-1..5, solo R-SOLO-1..12, advanced setup R-SETUP-6), of the prototype edition and of every
shipped mod, each legal option has its own index, the index gives the very same action back, and the legal mask
is exactly the legal options. Every kind of docs/ACTIONS.md has a block, and decoding any index then encoding it
again is the identity."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.core import action_types as A
from kcd.rl.actions import LAYOUT, ActionSpace, action_space

PACKS = [(), ("prototype",), ("reeds",), ("compose",), ("example",), ("scoped",), ("kiwibot-cards",), ("lastmile",)]
MODES = [(2, {}), (3, {}), (4, {}), (3, {"variant": "vto"}), (4, {"variant": "vto"}), (2, {"mode": "solo"}),
         (3, {"setup": "advanced"}), (2, {"mode": "solo", "setup": "advanced"})]


@lru_cache(maxsize=None)
def ruleset(packs: tuple[str, ...]) -> Any:
    return load_ruleset(list(packs))


def _check_game(game: Game, rng: random.Random) -> set[str]:
    """Play `game` to its end at random through the index, checking every decision; the kinds seen."""
    space = action_space(game)
    kinds: set[str] = set()
    while not game.is_over:
        options = game.pending.options
        indices = [space.action_index(o.action) for o in options]
        assert len(set(indices)) == len(indices), [o.id for o in options]
        assert space.legal_indices(game) == indices   # the cached path agrees with the direct one
        mask = space.legal_mask(game)
        assert mask.dtype == np.bool_ and mask.shape == (space.num_distinct_actions,)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
        for o, i in zip(options, indices):
            back = space.action_from_index(i, game)
            assert back == o.action and back.id() == o.id
            kinds.add(o.action.kind)
        choice = rng.choice(indices)
        assert game.apply(space.action_from_index(choice, game)).ok
    return kinds


@pytest.mark.parametrize("packs", PACKS, ids=lambda p: "+".join(p) or "base")
def test_every_legal_action_has_its_own_index_and_comes_back(packs: tuple[str, ...]) -> None:
    """Random games of every mode of this content: unique indices, exact round trips, masks equal to the options."""
    rs = ruleset(packs)
    flocks = [item.id for item in rs.items("flocks")]
    kinds: set[str] = set()
    for n, (players, kw) in enumerate(MODES):
        rng = random.Random(n * 31 + len(packs))
        seats = rng.sample(flocks, players)
        game = Game.new(rs, players=seats, seed=n, sides={f: rng.choice("AB") for f in seats}, **kw)
        kinds |= _check_game(game, rng)
    assert {"card", "move", "push", "pay", "mark", "place", "build", "feed"} <= kinds


def test_every_kind_has_a_block_and_every_index_decodes_and_encodes_back() -> None:
    """All of docs/ACTIONS.md: a block per kind, consecutive and disjoint; describe(i) built into an action gives i."""
    space = ActionSpace(ruleset(("compose",)), 3)
    assert set(space.blocks) == set(A.KINDS) == set(LAYOUT)
    at = 0
    for block in space.blocks.values():
        assert block.start == at
        at += block.size
    assert at == space.num_distinct_actions
    rng = random.Random(3)
    checked = 0
    for kind, block in space.blocks.items():
        cls = A.KINDS[kind]
        for i in {block.start, block.start + block.size - 1, block.start + rng.randrange(block.size)}:
            got_kind, fields = space.describe(i)
            assert got_kind == kind
            names = {f.name for f in cls.__dataclass_fields__.values()}
            if any(f == "to" and c == "dir" for f, c in LAYOUT[kind]):
                d = fields["to"]
                if d == 6:
                    fields["to"] = "off"
                    fields.setdefault("hex", space.hexes[0])
                else:   # the hex in that direction, when the island has one (from any hex when `hex` is not encoded)
                    step = next(((h, t) for (h, t), dd in space._direction.items()
                                 if dd == d and fields.get("hex", h) == h), None)
                    if step is None:
                        continue
                    fields["hex"], fields["to"] = step
            # the fields the decision fixes (a piece id, a verb, the piece moved): any value gives the same index
            for name, value in (("kiwi", 99), ("verb", "push"), ("flock", space.flocks[0]), ("size", 1),
                                ("hex", space.hexes[0])):
                if name in names:
                    fields.setdefault(name, value)
            if kind == "pay":
                fields = {"fruit": tuple(fields["fruit"]), "markers": tuple(fields["markers"])}
            assert space.action_index(cls(**fields)) == i, (kind, fields)
            checked += 1
    assert checked > 100


def test_the_index_names_roles_not_piece_ids_and_refuses_what_it_cannot_place() -> None:
    """A Kiwi's piece id is not part of its index (twins are one choice); an unknown hex or a far `to` is a clear
    ValueError, as is an index that is not legal now."""
    space = action_space(ruleset(()), 2)
    assert space.action_index(A.Feed(1, "red", 2, "A3")) == space.action_index(A.Feed(57, "red", 2, "A3"))
    assert space.action_index(A.Feed(1, "red", 2, "A3")) != space.action_index(A.Feed(1, "red", 1, "A3"))
    with pytest.raises(ValueError, match="Z9"):
        space.action_index(A.Place("Z9"))
    with pytest.raises(ValueError, match="not next to"):
        space.action_index(A.MoveKiwi(3, "red", 1, "A1", "B11"))
    game = Game.new(ruleset(()), players=["red", "green"], seed=1)
    illegal = next(i for i in range(space.num_distinct_actions) if not space.legal_mask(game)[i])
    with pytest.raises(ValueError, match="not legal now"):
        space.action_from_index(illegal, game)
    assert space.num_distinct_actions == action_space(ruleset(()), 2).num_distinct_actions
    # one piece a `move-to` decision: the index is its destination, whichever Kiwi it is
    assert space.action_index(A.MoveToKiwi(1, "red", 1, "A1", "B4")) == space.action_index(
        A.MoveToKiwi(2, "green", 3, "A3", "B4")) != space.action_index(A.MoveToKiwi(1, "red", 1, "A1", "B5"))
    assert action_space(ruleset(()), 4).num_distinct_actions > space.num_distinct_actions
