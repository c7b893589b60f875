"""Season card objectives compiled to plans (interpreter/engine/objective_plans.py) and the memo that
`queries.winners` shares between flocks (selectors.py) give exactly the interpreter's per-flock values (R-SCARD-4/5)
on every state of random games: the base, prototype (Z-4: its build and marking weights differ from the objective's)
and compose mod objectives, and objectives written here to reach every shape a plan covers or declines."""
from __future__ import annotations

import pytest

from kcd.content import load_ruleset
from kcd.dsl import CheckContext, compile_field
from kcd.engine import objective_plans, queries
from kcd.content.rules import compile_rules
from kcd.engine.selectors import Scope, quantity
from kcd.analysis.sim import default_flocks, play_game

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)

# (objective, whether it has a plan)
WRITTEN = [
    ("most count(kiwi of an opponent of size 2)", True),
    ("most tokens(pieces of anyone in sand hexes)", True),
    ("most count(leaders of me)", True),
    ("least tokens(my nests)", True),
    ("most count(my markers)", True),
    ("most count(markers of an opponent)", True),
    ("most tokens(my kiwi in hexes with a nest)", True),
    ("most count(kiwi of size 1 of size 2)", False),
    ("most smallest(flower hexes, count(kiwi of anyone in it))", True),
    ("most largest(hexes with a nest, count(my kiwi of size 1 in it))", True),
    ("most count(grass hexes where tokens(kiwi of an opponent in it) >= 2)", True),
    ("most count(hexes dominated by an opponent)", True),
    ("least count(sand hexes dominated by me)", True),
    ("most min(count(my kiwi), tokens(pieces in mountain hexes))", True),
    ("most max(count(my nests), 2)", True),
    ("most count(kiwi of an opponent in hexes dominated by me)", True),
    ("least largest(hexes, count(kiwi of an opponent in it))", True),
    ("most smallest(hexes with my kiwi, tokens(my pieces in it))", False),
    ("most count(hexes where count(my kiwi in it) >= 2 and count(kiwi of an opponent in it) = 0)", False),
    ("most count(hexes where tokens(pieces in it) > 3)", True),
    ("most count(my kiwi in hexes adjacent to my leader)", True),
    ("least count(hexes where count(kiwi of an opponent in it) = 1)", True),
    ("most max(fruit(me), count(my kiwi of size 3))", False),
    ("most count(my kiwi in hexes where count(kiwi of an opponent in it) >= 1)", False),
    ("most tokens(kiwi of anyone in my leader)", True),
    ("most count(my kiwi of size 3 in mountain hexes)", True),
    ("most count(hexes where count(my kiwi in it) = 0)", True),
    ("least count(flower hexes where tokens(pieces in it) < 2)", True),
]


def _objectives(rs) -> list:
    return [c.objective for c in compile_rules(rs).season_cards.values() if c.objective is not None]


def _written() -> list:
    out = []
    for text, planned in WRITTEN:
        node, issues = compile_field(text, "objective", CTX)
        assert not issues, (text, issues)
        assert (objective_plans.plan(node.query) is not None) == planned, text
        out.append(node)
    return out


@pytest.mark.parametrize("overlays", [(), ("prototype",), ("compose",)])
def test_plans_and_shared_memo_give_the_interpreters_values(overlays) -> None:
    """On every state of two random games (2-4 players, sides A and B), `winners` (a plan, or the per-flock
    interpreter sharing one memo) gives each flock the value the interpreter gives it alone, with no memo."""
    rs = load_ruleset(overlays=overlays)
    nodes = _objectives(rs) + (_written() if not overlays else [])
    if not overlays:   # every base Season card has a plan: the greedy bot's evaluation relies on it
        assert all(objective_plans.plan(n.query) is not None for n in _objectives(rs))
    checked: list[int] = []

    def check(game, decision, option, applied) -> None:
        st = game.state
        for node in nodes:
            best, values = queries.winners(st, node, list(st.seats))
            alone = {f: quantity(st, node.query, Scope(f, purpose="objective")) for f in st.seats}   # no memo at all
            assert values == alone, node
            top = (max if node.direction == "most" else min)(alone.values())
            assert best == [f for f in st.seats if alone[f] == top]
            checked.extend(values.values())

    for seed, players in ((3, 2), (4, 4)):
        flocks = default_flocks(rs, players)
        play_game(rs, flocks, seed, ("random",), sides={f: "B" for f in flocks} if seed % 2 else None,
                  on_decision=check)
    assert len(checked) > 1000 and max(checked) > 3
