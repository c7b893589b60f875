"""The ten examples of the compositional effect language as content of the `compose` mod, each shown
on a position: the leader cards, flock powers, Season cards, Nest, Wildcard benefit, track slot and tracker slot.
Rule ids: R-LEAD-5 (abilities), R-PUSH-2, R-FEED-4, R-DOM-1/2, R-SCARD-1, R-SC-3, R-WILD-1, R-TRACK-1, R-VTO-5."""
from __future__ import annotations

from pathlib import Path

from kcd.content import load_ruleset
from kcd.core import dominance
from kcd.engine import effects, flow, placing, queries
from kcd.engine.context import Ability, Ctx
from kcd.engine.move import ability_possible
from kcd.analysis.position import load_position
from kcd.testing import checked_game, drive, steps

POSITIONS = Path(__file__).parent / "golden" / "positions" / "compose"


def _game(name: str):
    return load_position(POSITIONS / name)


def _kiwi(rt, hex_id: str) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for k in rt.state.hexes[hex_id].kiwi:
        out.setdefault(k.flock, []).append(k.size)
    return {f: sorted(s) for f, s in out.items()}


def _auto(gen, pick=None):
    """Run an engine generator, answering each decision with `pick(decision)` or its first option."""
    asked = []
    try:
        d = next(gen)
        while True:
            asked.append(d)
            d = gen.send(pick(d) if pick is not None else d.option_ids()[0])
    except StopIteration:
        return asked


def test_the_mod_validates_and_loads() -> None:
    rs = load_ruleset(["compose"])
    assert rs.item("leaders", "kotare") and rs.item("flocks", "teal")


def test_R_LEAD_5_R_PUSH_2_walk_up_to_2_and_push_opponents_size1_kiwi_to_hexes_without_a_nest() -> None:
    """kotare-1: the Leader walks A -> B (stops there); green's two size-1 Kiwi in B are pushed, each to an
    adjacent hex without a Nest (A or D: C holds a Nest); green's size-2 and teal's own Kiwi stay."""
    game = _game("sweep.yaml")
    rt = game.rt
    ability = rt.rules.leader_cards["kotare-1"].ability
    assert ability_possible(rt, "teal", ability)
    _, asked = drive(steps(rt, effects.run_frame(rt, ability, Ctx("teal", ability=Ability(start="A"), depth=1))),
                     ["stop", "push:green/1@B->A", "push:green/1@B->D"])
    assert rt.state.flocks["teal"].leader_hex == "B"
    assert [d.kind for d in asked] == ["leader-move", "push", "push"]
    assert sorted(o.id.rsplit("->", 1)[1] for o in asked[1].options) == ["A", "D"]   # never C: it has a Nest
    assert _kiwi(rt, "B") == {"green": [2], "teal": [1]}
    assert _kiwi(rt, "A") == {"green": [1], "teal": [1]}
    assert _kiwi(rt, "D") == {"green": [1]}


def test_R_LEAD_5_jump_within_3_to_a_hex_without_kiwi_and_place_a_kiwi_there() -> None:
    """kotare-2: from A the hexes within 3 holding no Kiwi are C and E (B and D hold Kiwi, F is 4 away)."""
    game = _game("dive.yaml")
    rt = game.rt
    rt.state.flocks["teal"].leader_card = "kotare-2"
    ability = rt.rules.leader_cards["kotare-2"].ability
    assert ability_possible(rt, "teal", ability)
    track = rt.state.flocks["teal"].track
    _, asked = drive(steps(rt, effects.run_frame(rt, ability, Ctx("teal", ability=Ability(start="A"), depth=1))), ["leader:A->C"])
    assert sorted(o.id for o in asked[0].options) == ["leader:A->C", "leader:A->E"]
    assert rt.state.flocks["teal"].leader_hex == "C"
    assert _kiwi(rt, "C") == {"teal": [1]}
    assert rt.state.flocks["teal"].track == track - 1     # the token came from the track (R-RES-2)


def test_jump_is_impossible_when_every_hex_in_reach_holds_kiwi() -> None:
    game = _game("dive.yaml")
    rt = game.rt
    for h in ("C", "E"):
        rt.state.add_kiwi(h, rt.state.new_kiwi("green", 1))
    assert not ability_possible(rt, "teal", rt.rules.leader_cards["kotare-2"].ability)


def test_R_DOM_2_teal_leader_counts_4_for_dominance() -> None:
    """Side B's modifier: in A teal's Leader counts 4 against green's 3 tokens; the base weight would tie."""
    game = _game("teal_powers.yaml")
    st = game.rt.state
    assert dominance.strengths(st, "A") == {"teal": 4, "green": 3}
    assert dominance.dominant(st, "A") == "teal"
    assert dominance.dominant_all(st)["A"] == "teal"
    st.flocks["teal"].side = "A"   # side A has no such power: the Leader counts the game's 3 again
    assert dominance.strengths(st, "A") == {"teal": 3, "green": 3}
    assert dominance.dominant(st, "A") is None


def test_R_FEED_4_feeding_an_opponents_kiwi_gains_1_fruit_and_feeding_ones_own_does_not() -> None:
    """`when: feed a kiwi of an opponent` / `do: gain 1 fruit`: 3 fruit - 2 paid + 1 gained = 2."""
    game = _game("teal_powers.yaml")
    rt = game.rt
    _auto(steps(rt, effects.run_frame(rt, effects_node(rt, "feed"), Ctx("teal"))),
          lambda d: "feed:green/1@A" if d.kind == "feed" else d.option_ids()[0])
    assert sum(rt.state.flocks["teal"].fruit.values()) == 2
    assert [e.text for e in rt.events if e.kind == "power"] == ["teal's power fires (feed)"]
    game = _game("teal_powers.yaml")
    rt = game.rt
    _auto(steps(rt, effects.run_frame(rt, effects_node(rt, "feed"), Ctx("teal"))),
          lambda d: "feed:teal/1@B" if d.kind == "feed" else d.option_ids()[0])
    assert sum(rt.state.flocks["teal"].fruit.values()) == 1
    assert not [e for e in rt.events if e.kind == "power"]


def effects_node(rt, text: str):
    from kcd.dsl import CheckContext, compile_field
    node, issues = compile_field(text, "effect", CheckContext(tuple(rt.rules.fruits), tuple(rt.rules.terrains), 3))
    assert not issues
    return node


def test_R_SCARD_1_most_size2_kiwi_in_hexes_with_a_nest() -> None:
    """Teal has two size-2 Kiwi in A (green's Nest); green's size-2 Kiwi in A counts, the one in D (no Nest) not."""
    rt = _game("cards.yaml").rt
    card = rt.rules.season_cards["most-size2-nest-hexes"]
    winners, values = queries.winners(rt.state, card.objective, ["teal", "green"])
    assert values == {"teal": 2, "green": 1} and winners == ["teal"]


def test_R_SCARD_1_least_hexes_an_opponent_dominates_where_you_have_kiwi() -> None:
    """Teal: C (green dominates, teal has a Kiwi) and D (teal has only its Leader there, which an objective
    counts as a size-3 Kiwi, R-SCARD-4). Green: A and B (teal dominates both, green has Kiwi in each)."""
    rt = _game("cards.yaml").rt
    card = rt.rules.season_cards["least-contested"]
    winners, values = queries.winners(rt.state, card.objective, ["teal", "green"])
    assert values == {"teal": 2, "green": 2} and winners == ["teal", "green"]


def test_R_SC_3_cave_nest_gains_a_marker_when_2_own_kiwi_share_its_hex() -> None:
    rt = _game("cards.yaml").rt
    assert rt.state.flocks["teal"].nests_built == ["cave-1"]
    before = len(rt.state.flocks["teal"].domain)
    _auto(steps(rt, flow.nest_benefits_frame(rt, "teal")))
    assert len(rt.state.flocks["teal"].domain) == before + 1
    rt = _game("cards.yaml").rt
    kiwi = next(k for k in rt.state.hexes["B"].kiwi if k.flock == "teal")
    rt.state.move_kiwi("B", "E", kiwi.id)
    _auto(steps(rt, flow.nest_benefits_frame(rt, "teal")))
    assert len(rt.state.flocks["teal"].domain) == before


def test_R_WILD_1_wildcard_benefit_a_marker_per_dominated_hex_at_most_2() -> None:
    """Teal dominates A, B and E: three hexes, capped at 2 markers."""
    rt = _game("cards.yaml").rt
    assert sorted(h for h, f in dominance.dominant_all(rt.state).items() if f == "teal") == ["A", "B", "E"]
    _auto(steps(rt, effects.run_frame(rt, rt.rules.cards["wild-domain"].benefit, Ctx("teal"))))
    assert len(rt.state.flocks["teal"].domain) == 2


def test_R_TRACK_1_track_slot_gains_a_vp_with_3_nests_on_the_island() -> None:
    rt = _game("cards.yaml").rt
    rt.state.flocks["teal"].side = "B"
    _auto(steps(rt, placing.track_benefit_frame(rt, "teal", ("track", 3), Ctx("teal"))))
    assert rt.state.flocks["teal"].season_vp == 0     # one Nest only
    for h, nest in (("C", "tree-1"), ("E", "control-1")):
        rt.state.set_nest(h, ("teal", nest))
    _auto(steps(rt, placing.track_benefit_frame(rt, "teal", ("track", 3), Ctx("teal"))))
    assert rt.state.flocks["teal"].season_vp == 1


def _give(rt, flock: str, **fruit: int) -> None:
    for c, n in fruit.items():
        rt.state.flocks[flock].fruit[c] = rt.state.flocks[flock].fruit.get(c, 0) + n
        rt.state.fruit_bag[c] -= n


def test_R_VTO_5_tracker_slot_pay_1_fruit_then_each_richer_opponent_returns_1_of_their_choice() -> None:
    rt = _game("cards.yaml").rt
    _give(rt, "teal", red=2)
    _give(rt, "green", blue=2, yellow=1)
    asked = _auto(steps(rt, effects.run_frame(rt, rt.rules.tracker[6].effect, Ctx("teal"))),
                  lambda d: "return-fruit:yellow" if d.kind == "return-fruit" else d.option_ids()[0])
    assert sum(rt.state.flocks["teal"].fruit.values()) == 1
    assert rt.state.flocks["green"].fruit == {**rt.state.flocks["green"].fruit, "blue": 2, "yellow": 0}
    assert [(d.kind, d.player) for d in asked] == [("return-fruit", "green")]   # green decides what it returns
    rt = _game("cards.yaml").rt
    _give(rt, "teal", red=2)
    _give(rt, "green", blue=1)
    _auto(steps(rt, effects.run_frame(rt, rt.rules.tracker[6].effect, Ctx("teal"))))
    assert sum(rt.state.flocks["green"].fruit.values()) == 1   # not more than teal's 1 after paying: keeps it


def test_compose_mod_plays_random_games_with_every_invariant_after_every_decision() -> None:
    """Content that validates plays: 24 random games (sides B, standard and Variable Turn Order) with Kotare and
    the teal flock, every token, fruit and marker accounted for after every decision."""
    games = []
    for seed in range(24):
        flocks = ["teal", "green", "red"] if seed % 2 else ["green", "teal"]
        others = ["chopan", "kahu"]
        leaders = {f: ("kotare" if f == "teal" else others.pop(0)) for f in flocks}
        games.append((seed, flocks, {"leaders": leaders, "sides": {f: "B" for f in flocks},
                                     "variant": "vto" if seed % 3 == 0 else None}))
    rs = load_ruleset(["compose"])
    for seed, flocks, kw in games:
        record = checked_game(rs, flocks, seed, checks=("invariants",), **kw)
        assert record.ranking and record.decisions > 50
