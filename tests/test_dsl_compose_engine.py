"""The engine side of the compositional DSL beyond the ten examples: verbs on selectors (grow, shrink, remove,
move, swap, place on), `for each` over players, filtered triggers fired by another player's action (`by`),
`build on <hexes>`, and the `push limit` modifier. Positions from tests/golden/positions/compose/."""
from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

from kcd.dsl import CheckContext, compile_field
from kcd.engine import effects, push
from kcd.engine.context import Ctx
from kcd.content.rules import Power
from kcd.analysis.position import load_position
from kcd.testing import drive, steps

POSITIONS = Path(__file__).parent / "golden" / "positions" / "compose"
CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)


def _dsl(text: str, kind: str = "effect"):
    node, issues = compile_field(text, kind, CTX)
    assert not issues, issues
    return node


def _rt(name: str = "cards.yaml"):
    rt = load_position(POSITIONS / name).rt
    rt.rules = copy.copy(rt.rules)                 # powers changed below stay in this test
    rt.rules.flocks = copy.deepcopy(rt.rules.flocks)
    rt.rules.compose_table = {}                    # the powers' lookup is rebuilt from the changed copy
    return rt


def _sizes(rt, hex_id: str, flock: str) -> list[int]:
    return sorted(k.size for k in rt.state.hexes[hex_id].kiwi if k.flock == flock)


def test_grow_shrink_and_remove_act_on_what_the_selector_names() -> None:
    rt = _rt()
    drive(steps(rt, effects.run_frame(rt, _dsl("grow my kiwi in hexes with a nest of size 1"), Ctx("teal"))))
    # `of size 1` narrows the Kiwi (a Nest has no size): only B's two size-1 Kiwi grow, not A's size-2 ones
    assert _sizes(rt, "B", "teal") == [2, 2] and _sizes(rt, "A", "teal") == [2, 2]
    drive(steps(rt, effects.run_frame(rt, _dsl("shrink every kiwi of an opponent in flower hexes"), Ctx("teal"))))
    assert _sizes(rt, "A", "green") == [1]
    reserve = rt.state.flocks["green"].reserve_kiwi
    drive(steps(rt, effects.run_frame(rt, _dsl("remove a kiwi of an opponent in a hex adjacent to this hex"), Ctx("teal", here="D"))), ["remove:green/2@C"])
    assert _sizes(rt, "C", "green") == [1] and rt.state.flocks["green"].reserve_kiwi == reserve + 2


def test_move_and_swap_relocate_pieces_without_pushing() -> None:
    rt = _rt()
    _, asked = drive(steps(rt, effects.run_frame(rt, _dsl("move my leader to a hex without my kiwi"), Ctx("teal"))), [])
    assert asked == [] and rt.state.flocks["teal"].leader_hex == "D"   # only D lacks teal Kiwi, and it is there
    drive(steps(rt, effects.run_frame(rt, _dsl("move my leader to a flower hex"), Ctx("teal"))), ["moveto:leader-teal@D->E"])
    assert rt.state.flocks["teal"].leader_hex == "E"
    drive(steps(rt, effects.run_frame(rt, _dsl("swap my leader for a kiwi of an opponent in sand hexes"), Ctx("teal"))),
          ["swap-with:green/2@C"])
    assert rt.state.flocks["teal"].leader_hex == "C" and _sizes(rt, "E", "green") == [2]
    assert _sizes(rt, "C", "green") == [1]


def test_place_on_puts_kiwi_on_the_chosen_hex_even_without_own_presence() -> None:
    rt = _rt()
    _, asked = drive(steps(rt, effects.run_frame(rt, _dsl("place 2 kiwi on a hex dominated by an opponent"), Ctx("teal"))),
                     ["place:C", "place:D"])
    assert [d.kind for d in asked] == ["place-kiwi", "place-kiwi"]
    assert _sizes(rt, "C", "teal") == [1, 1] and _sizes(rt, "D", "teal") == [1]


def test_quantities_in_verbs_and_for_each_over_players() -> None:
    rt = _rt()
    drive(steps(rt, effects.run_frame(rt, _dsl("gain min(count(hexes dominated by me), 2) vp"), Ctx("teal"))))
    assert rt.state.flocks["teal"].season_vp == 2
    drive(steps(rt, effects.run_frame(rt, _dsl("gain max(count(my nests) - 5, 0) fruit"), Ctx("teal"))))   # 1 - 5 is 0: nothing
    assert sum(rt.state.flocks["teal"].fruit.values()) == 0
    drive(steps(rt, effects.run_frame(rt, _dsl("for each player { gain 1 vp }"), Ctx("teal"))))
    assert rt.state.flocks["teal"].season_vp == 3 and rt.state.flocks["green"].season_vp == 1


def test_a_trigger_with_by_fires_on_another_players_action() -> None:
    """Green's power `feed my kiwi by an opponent` / `gain 1 vp` fires when teal feeds green's Kiwi."""
    rt = _rt("teal_powers.yaml")
    rt.state.flocks["green"].side = "B"
    rt.rules.flocks["green"]["B"] = replace(rt.rules.flocks["green"]["B"], powers=(Power("t-feed-by", _dsl("gain 1 vp"), None,
                                                  when=_dsl("feed my kiwi by an opponent", "trigger")),))
    gen = steps(rt, effects.run_frame(rt, _dsl("feed"), Ctx("teal")))
    try:
        d = next(gen)
        while True:
            d = gen.send("feed:green/1@A" if d.kind == "feed" else d.option_ids()[0])
    except StopIteration:
        pass
    assert rt.state.flocks["green"].season_vp == 1
    assert [e.player for e in rt.events if e.kind == "power"] == ["teal", "green"]   # teal's own power too


def test_build_on_fires_only_on_the_named_hexes() -> None:
    from kcd.engine import compose
    rt = _rt()
    rt.state.flocks["teal"].side = "B"
    rt.rules.flocks["teal"]["B"] = replace(rt.rules.flocks["teal"]["B"], powers=(Power("t-build-on", _dsl("gain 1 vp"), None,
                                                 when=_dsl("build on a hex adjacent to my leader", "trigger")),))
    drive(steps(rt, compose.event_frame(rt, Ctx("teal"), "build", "C")))     # C is next to teal's Leader on D
    drive(steps(rt, compose.event_frame(rt, Ctx("teal"), "build", "A")))
    assert rt.state.flocks["teal"].season_vp == 1


def test_push_limit_modifier_caps_the_pushes_after_a_move() -> None:
    rt = _rt("teal_powers.yaml")
    mover = rt.state.new_kiwi("teal", 3)
    rt.state.add_kiwi("A", mover)
    rt.state.flocks["teal"].side = "B"
    rt.rules.flocks["teal"]["B"] = replace(rt.rules.flocks["teal"]["B"], powers=(Power(None, None, "m-push-limit",
                                                 modifier_node=_dsl("my kiwi can push up to 1 kiwi", "modifier")),))
    _, asked = drive(steps(rt, push.after_move_frame(rt, "teal", "A", 3, mover.id, False)), ["push:green/1@A->B"])
    assert len(asked) == 1 and _sizes(rt, "A", "green") == [2]


def test_R_PUSH_1_a_modifier_changes_the_push_rules_only_for_the_pieces_its_selector_names() -> None:
    """`my kiwi of size 3 can push up to 1 kiwi` caps a size-3 mover, not the Leader; `my leader can push kiwi of
    equal size` lets the Leader (a size-3 Kiwi, R-LEAD-1) push a size-3 Kiwi, not a size-2 mover a size-2 Kiwi."""
    from kcd.engine.modifiers import param
    from kcd.engine.powers import push_limit
    rt = _rt("teal_powers.yaml")
    big, small = rt.state.new_kiwi("teal", 3), rt.state.new_kiwi("teal", 2)
    rt.state.set_kiwi("A", rt.state.hexes["A"].kiwi + (big, small))
    rt.state.flocks["teal"].side = "B"
    rt.rules.flocks["teal"]["B"] = replace(rt.rules.flocks["teal"]["B"], powers=(
        Power(None, None, "m-push-limit", modifier_node=_dsl("my kiwi of size 3 can push up to 1 kiwi", "modifier")),
        Power(None, None, "m-push-same", modifier_node=_dsl("my leader can push kiwi of equal size", "modifier"))))
    rt.rules.compose_table.clear()
    assert push_limit(rt, "teal", ("kiwi", big.id)) == 1
    assert push_limit(rt, "teal", ("kiwi", small.id)) == push_limit(rt, "teal", ("leader", "teal")) == rt.rules.push_count
    assert param(rt, "teal", "push_same_size", ("leader", "teal")) is True
    assert param(rt, "teal", "push_same_size", ("kiwi", small.id)) is False


def test_a_chosen_player_is_asked_when_the_verb_runs_and_refused_outside_a_verb() -> None:
    """`remove every kiwi of a chosen opponent in sand hexes`: teal picks the opponent, then all its Kiwi go."""
    rt = _rt()
    _, asked = drive(steps(rt, effects.run_frame(rt, _dsl("remove every kiwi of a chosen player in sand hexes"), Ctx("teal"))),
                     ["player:green"])
    assert [(d.kind, d.player) for d in asked] == [("choose-player", "teal")]
    assert _sizes(rt, "C", "green") == [] and _sizes(rt, "C", "teal") == [1]
    _, issues = compile_field("gain count(kiwi of a chosen opponent) fruit", "effect", CTX)
    assert [(i.code, i.message) for i in issues] == [
        ("dsl-context", "a chosen player exists only in a verb, which asks for the choice")]


def test_immunity_modifier_keeps_the_named_pieces_from_every_push() -> None:
    """Green's `my kiwi in hexes with a nest cannot be pushed`: green's Kiwi in A (its Nest) stay; others not."""
    rt = _rt()
    rt.state.flocks["green"].side = "B"
    rt.rules.flocks["green"]["B"] = replace(rt.rules.flocks["green"]["B"], powers=(Power(None, None, "m-immune", modifier_node=_dsl(
        "my kiwi in hexes with my nest cannot be pushed", "modifier")),))
    def pushable(hex_id: str) -> set[str]:
        return {f"{k.flock}/{k.size}@{hex_id}" if not isinstance(k, str) else f"leader-{k}@{hex_id}"
                for k, _ in push.pieces(rt, hex_id, None)}
    assert pushable("A") == {"teal/2@A"}                     # green's size-2 Kiwi in A is immune
    assert pushable("C") == {"green/2@C", "green/1@C", "teal/1@C"}


def test_feed_discount_modifier_lowers_the_feed_cost_but_not_below_1() -> None:
    from kcd.engine import feed
    plain = _rt()
    assert feed.cost(plain, 1, "teal").n == 2 and feed.cost(plain, 3, "teal").n == 4
    rt = _rt()
    rt.state.flocks["teal"].side = "B"
    rt.rules.flocks["teal"]["B"] = replace(rt.rules.flocks["teal"]["B"], powers=(Power(None, None, "m-feed-discount",
                                                 modifier_node=_dsl("feeding a kiwi costs 3 fruit less", "modifier")),))
    some = rt.state.hexes["B"].kiwi[0].id
    assert feed.cost(rt, 1, "teal", some).n == 1 and feed.cost(rt, 3, "teal", some).n == 1
    assert feed.cost(rt, 1, "green", some).n == 2


def test_it_names_the_loop_element_in_a_verb() -> None:
    """`for each hex with my nest { place 1 kiwi on it }`: one Kiwi on each hex holding a teal Nest."""
    rt = _rt()
    rt.state.set_nest("E", ("teal", "tree-1"))
    drive(steps(rt, effects.run_frame(rt, _dsl("for each hex with my nest { place 1 kiwi on it }"), Ctx("teal"))))
    assert _sizes(rt, "B", "teal") == [1, 1, 1] and _sizes(rt, "E", "teal") == [1, 1]


def _oracle(state, flock: str, what: str, arg=None) -> int:
    """R-SCARD-4 counts written out by hand (the first language's queries, kept here as the test's oracle):
    a Leader is a size-3 Kiwi / the objective Leader weight in tokens, a Nest its dominance value in size-1 Kiwi."""
    from kcd.core import dominance
    values = state.params.get("nest_dominance", {})
    weight = int(dominance.weights(state, "objective").get("leader", 3))

    def nest(h):
        return (h.nest[0], int(values.get(h.nest[1], 0))) if h.nest is not None else (None, 0)

    def tokens(h, who):
        n = sum(k.size for k in h.kiwi if who is None or k.flock == who)
        n += weight * sum(1 for f in state.seats if state.flocks[f].leader_hex == h.id and who in (None, f))
        owner, value = nest(h)
        return n + (value if who in (None, owner) else 0)

    hexes = list(state.hexes.values())
    if what == "terrain":
        return sum(tokens(h, flock) for h in hexes if h.terrain == arg)
    if what == "nests":
        return sum(1 for h in hexes if h.nest is not None and h.nest[0] == flock)
    if what == "size":
        n = sum(1 for h in hexes for k in h.kiwi if k.flock == flock and k.size == arg)
        n += 1 if arg == 3 and state.flocks[flock].leader_hex is not None else 0
        return n + (sum(nest(h)[1] for h in hexes if nest(h)[0] == flock) if arg == 1 else 0)
    if what == "dominated":
        return sum(1 for o in dominance.dominant_all(state, "dominated_hexes").values() if o == flock)
    if what == "leader":
        where = state.flocks[flock].leader_hex
        return tokens(state.hexes[where], None) if where else 0
    if what == "single":
        return max((tokens(h, flock) for h in hexes), default=0)
    assert what == "lone"
    return sum(1 for h in hexes if sum(1 for k in h.kiwi if k.flock == flock)
               + (state.flocks[flock].leader_hex == h.id) + (nest(h)[1] if nest(h)[0] == flock else 0) == 1)


def test_objectives_count_as_R_SCARD_4_says() -> None:
    """R-SCARD-4: the 16 Season card objectives of season_cards.yaml, compositions of the effect language, give
    the rulebook's counts in every state of random games (Leader 3 tokens / a size-3 Kiwi, a Nest its dominance
    value), for every flock, checked against the counts written out by hand."""
    from kcd.content import load_ruleset
    from kcd.engine import queries
    from kcd.analysis.sim import default_flocks, play_game

    from kcd.content.rules import compile_rules

    rs = load_ruleset()
    cards = {cid: card["objective"] if isinstance(card, dict) else card.objective
             for cid, card in compile_rules(rs).season_cards.items()}
    expect = {f"{d}-{t}": ("terrain", t) for t in CTX.terrains for d in ("most", "least")}
    expect.update({"most-nests": ("nests", None), "most-size1": ("size", 1), "most-size2": ("size", 2),
                   "most-size3": ("size", 3), "most-dominance": ("dominated", None),
                   "most-leader-hex": ("leader", None), "most-single-hex": ("single", None),
                   "most-lone-kiwi": ("lone", None)})
    assert set(expect) == set(cards)
    seen: list[int] = []

    def check(game, decision, option, applied) -> None:
        for f in game.state.seats:
            for cid, node in cards.items():
                value = queries.evaluate(game.state, node, f)
                assert value == _oracle(game.state, f, *expect[cid]), (cid, f)
                seen.append(value)

    for seed in range(2):
        flocks = default_flocks(rs, 3)
        play_game(rs, flocks, seed, ("random",), sides={f: "B" for f in flocks} if seed else None, on_decision=check)
    assert len(seen) > 1000 and max(seen) > 3
