"""Engine: setup, seasons and phases, cards, Season cards, Domain Marking, endgame (R-COMP, R-SETUP, R-SEASON,
R-SC, R-ACT, R-LIMIT, R-WILD, R-SCARD, R-DM, R-ASYM, R-END)."""
from __future__ import annotations

import random

import pytest
from test_engine_support import blank_runtime, dsl, fruit, markers, put, rules, ruleset, totals

from kcd.engine import Game, actions, flow, marking, scoring
from kcd.engine.context import Ctx, Turn
from kcd.core.decisions import Option
from kcd.testing import drive, steps


def _until(game: Game, pred, r=None, limit=3000):
    """Play random options until pred(game) holds."""
    r = r or random.Random(0)
    for _ in range(limit):
        if pred(game):
            return
        assert game.apply(r.choice(game.pending.options).id).ok
    raise AssertionError("condition never reached")


# --- components and setup --------------------------------------------------------------------------
def test_R_COMP_1_R_COMP_2_components_accounted():
    """R-COMP-1: 56 fruit and 56 markers; R-COMP-2: each flock 9 cards, 20 Kiwi tokens, 6 Nests."""
    g = Game.new(ruleset(), ["red", "green", "purple", "yellow"], seed=3)
    t = totals(g.state)
    assert t["fruit"] == 56 and t["domain"] == 56
    assert all(n == 20 for n in t["tokens"].values())
    for f in g.state.seats:
        fl = g.state.flocks[f]
        assert len(fl.hand) + len(fl.deck) == 9
    assert len(rules().flock_nests) == 6


def test_R_COMP_3_leaders_season_cards_turn_nests():
    """R-COMP-3: 7 Leaders with 2 cards each, 16 Season cards, 4 Turn Order nests are all usable by the engine."""
    r = rules()
    assert len(r.leaders) == 7 and len(r.leader_cards) == 14
    assert len(r.season_cards) == 16 and sorted(r.turn_nests) == [1, 2, 3, 4]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_R_SETUP_1_R_SETUP_5_layout_and_first_game_position(n):
    """R-SETUP-1: one section per player; R-SETUP-5: fixed first-game positions (Leader + 12 tokens each)."""
    players = ["red", "green", "purple", "yellow"][:n]
    g = Game.new(ruleset(), players, seed=1)
    assert len(g.state.hexes) == 11 * n
    for f in players:
        assert g.state.flocks[f].leader_hex in g.state.hexes
        assert g.state.island_tokens(f) == 12 and g.state.flocks[f].track == 8


def test_R_SETUP_2_R_SETUP_3_seats_and_dealt_items():
    """R-SETUP-2: seat 1 is the First Player, play clockwise; R-SETUP-3: Leader, one card, deck, side A, Nests."""
    g = Game.new(ruleset(), ["green", "red"], seed=4, leaders={"green": "chopan", "red": "kahu"},
                 leader_cards={"green": "chopan-2"})
    st = g.state
    assert st.turn_order() == ["green", "red"] and g.pending.player == "green"
    assert st.flocks["green"].leader_card == "chopan-2" and st.flocks["red"].leader_card == "kahu-1"
    assert st.flocks["red"].side == "A" and st.flocks["red"].nests_built == []


def test_R_SETUP_4_turn_order_nest_resources_private_markers():
    """R-SETUP-4: each takes the Turn Order nest's fruit and markers (private); 8 tokens on the track."""
    g = Game.new(ruleset(), ["red", "green", "purple", "yellow"], seed=2)
    for f in g.state.seats:
        fl = g.state.flocks[f]
        setup = rules().turn_nests[fl.seat].setup
        words = [c.words for c in setup.stmts]
        want_fruit = int(words[0][1].text)
        want_dom = int(words[1][1].text)
        assert sum(fl.fruit.values()) == want_fruit and len(fl.domain) == want_dom and fl.track == 8
    v = g.view("red")
    assert "domain" in v["flocks"]["red"] and "domain" not in v["flocks"]["green"]


def test_R_SETUP_6_advanced_setup_steps():
    """R-SETUP-6: Leader + two size-1 Kiwi on an empty hex; one Kiwi at a time on hexes without own Kiwi to 10;
    then two different own Kiwi become size 2."""
    g = Game.new(ruleset(), ["red", "green"], seed=9, setup="advanced")
    d = g.pending
    assert d.kind == "setup-leader" and d.player == "red"
    g.apply(d.options[0].id)
    assert g.pending.player == "green" and d.options[0].id not in g.pending.option_ids()   # no longer empty
    _until(g, lambda x: x.state.phase != "setup", random.Random(3))
    for f in ("red", "green"):
        sizes = sorted(k.size for _, k in g.state.own_kiwi(f))
        assert sizes == [1] * 8 + [2, 2]
        assert totals(g.state)["tokens"][f] == 20


def test_R_SETUP_7_R_SETUP_8_season_cards_and_hands():
    """R-SETUP-7: four random Season cards, one per season; R-SETUP-8: shuffled decks, hands of 3."""
    a = Game.new(ruleset(), ["red", "green"], seed=1)
    b = Game.new(ruleset(), ["red", "green"], seed=2)
    assert len(a.state.season_cards) == 4 and len(set(a.state.season_cards)) == 4
    assert a.state.season_cards != b.state.season_cards or a.state.flocks["red"].hand != b.state.flocks["red"].hand
    assert all(len(a.state.flocks[f].hand) == 3 for f in a.state.seats)


# --- seasons, cards --------------------------------------------------------------------------------
def test_R_SEASON_1_four_seasons_four_phases():
    """R-SEASON-1: four seasons of Season Change, Actions, Season Card Resolution, Domain Marking."""
    g = Game.new(ruleset(), ["red", "green"], seed=5)
    seen = []
    r = random.Random(5)
    while not g.is_over:
        key = (g.state.season, g.state.phase)
        if key not in seen:
            seen.append(key)
        g.apply(r.choice(g.pending.options).id)
    phases = [p for s, p in seen if s == 2]
    assert [s for s, _ in seen][-1] == 4 and phases[0] in ("season_change", "actions")
    assert rules().phases == ["season_change", "actions", "season_card", "domain_marking"]


def test_R_SC_1_R_SC_2_season_change_passes_marker_discards_flips_leader():
    """R-SC-1: the first Season Change changes nothing; R-SC-2: later ones pass the First Player marker,
    discard played cards and turn a used Leader card face up."""
    rt = blank_runtime(phase="season_change", season=1)
    drive(steps(rt, flow.SEASON_CHANGE_START.start()))
    assert rt.state.first == 0
    fl = rt.state.flocks["red"]
    fl.played, fl.leader_used = ["move", "feed", "build"], True
    rt.state.season = 2
    drive(steps(rt, flow.SEASON_CHANGE_START.start()))
    assert rt.state.first == 1 and rt.state.turn_order() == ["green", "red"]
    assert fl.played == [] and fl.discard == ["move", "feed", "build"] and not fl.leader_used


def test_R_SC_3_nest_benefits_in_chosen_order_not_turn_nest():
    """R-SC-3: each built Nest's season-change benefit, in the order the player chooses; Turn Order nests give nothing."""
    rt = blank_runtime(phase="season_change", season=2, leader_hexes={"red": "A1", "green": "B4"})
    tree = [n for n in rt.rules.flock_nests if rt.rules.nests[n].type == "tree"]
    rt.state.flocks["red"].nests_built = list(tree)
    _, asked = drive(steps(rt, flow.nest_benefits_frame(rt, "red")), [f"nest:{tree[1]}"])
    assert set(asked[0].option_ids()) == {f"nest:{n}" for n in tree}
    gained = sum(rt.state.flocks["red"].fruit.values())
    assert gained == 5      # Tree 2 + Tree (second row) 3 fruit (R-BUILD-4)


def test_R_ACT_1_three_cards_each_in_turn_order():
    """R-ACT-1: in turn order each plays one card and draws back to 3, until each has played 3 cards."""
    g = Game.new(ruleset(), ["red", "green"], seed=6)
    r = random.Random(6)
    players = []
    while g.state.phase == "actions":
        if g.pending.kind == "card":
            players.append(g.pending.player)
        g.apply(r.choice(g.pending.options).id)
    assert players[:6] == ["red", "green"] * 3 or len(players) <= 6
    for f in ("red", "green"):
        assert len(g.state.flocks[f].played) == 3 and len(g.state.flocks[f].hand) == 3


def test_R_ACT_2_facedown_no_effect_may_draw_fruit():
    """R-ACT-2: any card may be played face down for no effect; the player may then draw a fruit."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    fl = rt.state.flocks["red"]
    fl.hand = ["move", "feed", "build"]
    card = "move"
    _, asked = drive(steps(rt, actions.turn_frame(rt, "red")), [f"card:{card}", "facedown", "may:yes"])
    assert "facedown" in asked[1].option_ids()
    assert sum(fl.fruit.values()) == 1 and fl.played == [card] and len(fl.hand) == 3


def test_R_ACT_3_empty_deck_reshuffles_discard():
    """R-ACT-3: drawing from an empty deck shuffles the discard pile into a new deck."""
    rt = blank_runtime()
    fl = rt.state.flocks["red"]
    fl.discard, fl.deck, fl.hand = fl.deck + fl.hand[1:], [], fl.hand[:1]
    actions.draw(rt, "red")
    assert len(fl.hand) == 3 and fl.discard == [] and len(fl.deck) == 6


def test_R_LIMIT_1_hand_three_fruit_ten_player_returns():
    """R-LIMIT-1: hand limit 3; over 10 fruit the player chooses fruit to return until exactly 10."""
    rt = blank_runtime()
    fruit(rt, "red", red=9)
    from kcd.engine import effects
    _, asked = drive(steps(rt, effects.run_frame(rt, dsl("gain 3 fruit"), Ctx("red"))), ["return:red", "return:red"])
    assert sum(rt.state.flocks["red"].fruit.values()) == 10 and asked[0].kind == "return-fruit"
    assert rt.rules.hand == 3


def test_R_WILD_1_wildcard_as_action_or_benefit():
    """R-WILD-1: a Wildcard is played as any action (no benefit then; as Move both moves) or for its benefit."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    fl = rt.state.flocks["red"]
    wild = next(c for c, d in rt.rules.cards.items() if d.type == "wild" and "fruit" in str(d.benefit) and "kiwi" not in str(d.benefit) and "domain" not in str(d.benefit))
    fl.hand = [wild, "move", "feed"]
    modes = {o.id for o in actions.modes(rt, wild, Ctx("red", turn=Turn()))}
    assert modes == {"as:move", "benefit", "facedown"}     # nothing to build or feed with no fruit
    drive(steps(rt, actions.turn_frame(rt, "red")), [f"card:{wild}", "benefit"])
    assert sum(fl.fruit.values()) == 4
    fl.hand = [wild, "move", "feed"]
    drive(steps(rt, actions.turn_frame(rt, "red")), [f"card:{wild}", "as:move", "move:leader@A1->A2"])
    assert sum(fl.fruit.values()) == 4 and fl.leader_hex == "A2"


# --- season cards ------------------------------------------------------------------------------------
def _season_rt(card_id: str):
    rt = blank_runtime(players=("red", "green", "purple"), phase="season_card",
                       leader_hexes={"red": "A1", "green": "B4", "purple": "B11"})
    rt.state.season_cards = [card_id] * 4
    return rt


def test_R_SCARD_1_victor_left_others_right_in_turn_order():
    """R-SCARD-1: the player beating all others gains the victor benefit; all others the right one."""
    rt = _season_rt("most-nests")
    rt.state.set_nest("A7", ("green", "tree-1"))
    drive(steps(rt, flow.SEASON_CARD.start()))
    st = rt.state
    assert st.flocks["green"].season_vp == 1
    assert len(st.flocks["red"].domain) == 1 and len(st.flocks["purple"].domain) == 1 and not st.flocks["green"].domain


def test_R_SCARD_2_tie_tied_may_take_right_rest_nothing():
    """R-SCARD-2: on a tie for the best the tied players may take the right benefit; the others get nothing."""
    rt = _season_rt("most-nests")
    rt.state.set_nest("A7", ("green", "tree-1"))
    rt.state.set_nest("A8", ("red", "tree-1"))
    _, asked = drive(steps(rt, flow.SEASON_CARD.start()), ["take", "decline"])
    assert [d.player for d in asked] == ["red", "green"]
    st = rt.state
    assert len(st.flocks["red"].domain) == 1 and not st.flocks["green"].domain and not st.flocks["purple"].domain


def test_R_SCARD_3_victor_keeps_vp_card():
    """R-SCARD-3: a victor who gains Victory Points keeps the card for the endgame."""
    rt = _season_rt("most-nests")
    rt.state.set_nest("A7", ("purple", "tree-1"))
    drive(steps(rt, flow.SEASON_CARD.start()))
    assert rt.state.flocks["purple"].kept_season_cards == ["most-nests"]
    assert scoring.score(rt.state)["purple"]["season_cards"] == 1


def test_R_SCARD_4_leader_and_control_nest_counting():
    """R-SCARD-4: for conditions a Control Nest counts as 2 Kiwi tokens and a Leader as a size-3 Kiwi / 3 tokens."""
    from kcd.engine import queries
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    control = next(n for n in rt.rules.nests if rt.rules.nests[n].dominance)
    rt.state.set_nest("A1", ("red", control))
    put(rt, "A1", "red", 1)
    assert queries.evaluate(rt.state, dsl("most tokens(my pieces in flower hexes)", "objective"), "red") == 3 + 2 + 1
    assert queries.evaluate(rt.state, dsl("most count(my kiwi of size 3)", "objective"), "red") == 1
    assert queries.evaluate(rt.state, dsl("most count(my kiwi of size 1)", "objective"), "red") == 1 + 2


@pytest.mark.parametrize("card_id", sorted(__import__("test_engine_support").rules().season_cards))
def test_R_SCARD_5_every_season_card_resolves(card_id):
    """R-SCARD-5: each of the 16 Season cards resolves (objective, victor and others' benefits) through the DSL."""
    rt = _season_rt(card_id)
    put(rt, "A7", "red", 1, 2)
    put(rt, "B6", "green", 3)
    put(rt, "B10", "purple", 1)
    markers(rt, "green", "sand", "grass")
    fruit(rt, "red", red=3, green=3, blue=3)
    gen = steps(rt, flow.SEASON_CARD.start())
    r = random.Random(1)
    try:
        d = next(gen)
        while True:
            d = gen.send(r.choice(d.option_ids()))
    except StopIteration:
        pass
    t = totals(rt.state)
    assert t["fruit"] == 56 and t["domain"] == 56


# --- domain marking ------------------------------------------------------------------------------------
def test_R_DM_2_R_DM_4_marking_requirements():
    """R-DM-2: no marker yet, dominance, a matching unused marker; R-DM-4: one marker per hex."""
    rt = blank_runtime(leader_hexes={"red": "B4", "green": "B11"})
    put(rt, "A7", "red", 1)            # flower
    put(rt, "A6", "red", 1)            # mountain, no marker of it
    put(rt, "A10", "red", 1)
    put(rt, "A10", "green", 1)         # flower, tie
    put(rt, "A1", "red", 2)
    rt.state.set_domain("A1", ("green", "flower"))
    markers(rt, "red", "flower")
    assert marking.markable(rt, "red") == ["A7"]


def test_R_DM_3_cover_token_from_any_source_no_track_benefit():
    """R-DM-3: the marker is covered by an own token from track, Reserve or island; no track benefit; not a Kiwi."""
    rt = blank_runtime(leader_hexes={"red": "B4", "green": "B11"})
    put(rt, "A7", "red", 2)
    markers(rt, "red", "flower")
    fl = rt.state.flocks["red"]
    fl.track, fl.reserve_kiwi = 3, 1     # the next slot has a benefit, yet covering gives none
    _, asked = drive(steps(rt, marking.MARK.start(Ctx("red"), True)), ["mark:A7", "cover:track"])
    assert set(asked[1].option_ids()) == {"cover:reserve", "cover:track", "cover:red/2@A7"}
    assert fl.track == 2 and fl.covers == 1 and sum(fl.fruit.values()) == 0 and not fl.domain
    assert rt.state.hexes["A7"].domain == ("red", "flower") and rt.state.island_tokens("red") == 2


def test_R_DM_1_R_END_1_one_marker_then_all_in_last_season():
    """R-DM-1: one marker a season in seasons 1-3; R-END-1: as many as possible in season 4."""
    rt = blank_runtime(phase="domain_marking", season=1, leader_hexes={"red": "B4", "green": "B11"})
    put(rt, "A7", "red", 1)
    put(rt, "A10", "red", 1)
    markers(rt, "red", "flower", "flower")
    drive(steps(rt, marking.marking_turn_frame(rt, "red")), ["mark:A7", "cover:track"])
    assert rt.state.flocks["red"].domain == ["flower"]
    rt2 = blank_runtime(phase="domain_marking", season=4, leader_hexes={"red": "B4", "green": "B11"})
    put(rt2, "A7", "red", 1)
    put(rt2, "A10", "red", 1)
    markers(rt2, "red", "flower", "flower")
    drive(steps(rt2, marking.marking_turn_frame(rt2, "red")), ["mark:A7", "cover:track", "mark:A10", "cover:track"])
    assert rt2.state.flocks["red"].domain == []
    assert Game.from_state(ruleset(), rt2.state).view("green")["flocks"]["red"]["domain"] == []   # revealed


def test_R_DM_5_empty_domain_bag_gives_nothing():
    """R-DM-5: with the domain bag empty, gaining markers gives nothing."""
    rt = blank_runtime()
    rt.state.domain_bag = {t: 0 for t in rt.state.domain_bag}
    from kcd.engine import effects
    drive(steps(rt, effects.run_frame(rt, dsl("gain 2 domain"), Ctx("red"))))
    assert rt.state.flocks["red"].domain == []


# --- flock powers (side B) -------------------------------------------------------------------------
def test_R_ASYM_1_side_b_track_and_powers_from_content():
    """R-ASYM-1: side B has its own track benefits and power, read from the flock file."""
    r = rules()
    for f, sides in r.flocks.items():
        assert len(sides["B"].powers) >= 1 and len(sides["B"].track) == 8
        assert sides["A"].powers == ()


def test_R_ASYM_2_red_pays_fruit_for_second_marker():
    """R-ASYM-2: Red side B may pay 1 fruit in Domain Marking to place a second marker (dominance and terrain still required)."""
    rt = blank_runtime(phase="domain_marking", sides={"red": "B"}, leader_hexes={"red": "B4", "green": "B11"})
    put(rt, "A7", "red", 1)
    put(rt, "A10", "red", 1)
    markers(rt, "red", "flower", "flower")
    fruit(rt, "red", blue=1)
    # the second marker is asked even with one hex left: whether a flower marker fits is red's secret (R-SETUP-4)
    drive(steps(rt, marking.marking_turn_frame(rt, "red")), ["mark:A7", "cover:track", "may:yes", "pay:blue", "mark:A10", "cover:track"])
    assert rt.state.hexes["A10"].domain == ("red", "flower") and rt.state.flocks["red"].fruit["blue"] == 0


def test_R_ASYM_3_green_gains_one_more_then_returns_one():
    """R-ASYM-3: Green side B takes one more marker whenever gaining markers, then returns one (no re-trigger)."""
    rt = blank_runtime(players=("green", "red"), sides={"green": "B"})
    from kcd.engine import effects
    gen = steps(rt, effects.run_frame(rt, dsl("gain 2 domain"), Ctx("green")))
    r = random.Random(0)
    try:
        d = next(gen)
        while True:
            assert d.kind == "return-domain"
            d = gen.send(r.choice(d.option_ids()))
    except StopIteration:
        pass
    assert len(rt.state.flocks["green"].domain) == 2
    assert sum(rt.state.domain_bag.values()) == 54


def test_R_ASYM_4_purple_nest_benefits_twice_without_vp():
    """R-ASYM-4: Purple side B gains Nest benefits twice (placement and season change), VP excluded."""
    rt = blank_runtime(players=("purple", "red"), sides={"purple": "B"}, phase="season_change", season=2,
                       leader_hexes={"purple": "A1", "red": "B4"})
    tree = next(n for n in rt.rules.flock_nests if rt.rules.nests[n].type == "tree" and rt.rules.nests[n].row == 1)
    rt.state.flocks["purple"].nests_built = [tree]
    drive(steps(rt, flow.nest_benefits_frame(rt, "purple")))
    assert sum(rt.state.flocks["purple"].fruit.values()) == 4
    from kcd.engine import build
    rt.state.flocks["purple"].season_vp = 0
    drive(steps(rt, build.nest_benefit_frame(rt, Ctx("purple"), dsl("gain 1 vp"), "test")))
    assert rt.state.flocks["purple"].season_vp == 1


# --- endgame ---------------------------------------------------------------------------------------
def test_R_END_2_scoring_domain_nests_season_cards():
    """R-END-2: 1 VP per domain marker on the island, 1 per second-row Nest, plus Season card VP."""
    rt = blank_runtime()
    rt.state.set_domain("A1", ("red", "flower"))
    rt.state.set_domain("A2", ("red", "grass"))
    second = [n for n in rt.rules.flock_nests if rt.rules.nests[n].row == 2][:1]
    rt.state.flocks["red"].nests_built = second
    rt.state.flocks["red"].season_vp = 2
    assert scoring.score(rt.state)["red"] == {"domain": 2, "nests": 1, "season_cards": 2, "total": 5}


def test_R_END_3_tiebreakers_in_order():
    """R-END-3: ties broken by most size-3, then size-2, then size-1 Kiwi, then most unused markers."""
    rt = blank_runtime(players=("red", "green", "purple"))
    put(rt, "A1", "red", 3, 1)
    put(rt, "A2", "green", 3, 2)
    put(rt, "A3", "purple", 3, 2)
    markers(rt, "purple", "sand")
    assert scoring.ranking(rt.state) == ["purple", "green", "red"]
    assert scoring.tiebreak(rt.state, "purple") == (1, 1, 0, 1)


def test_R_ASYM_2_red_power_needs_a_first_marker():
    """Decision R-ASYM-2: the paid marker is a *second* one, so a Red player who places none gets no power."""
    rt = blank_runtime(phase="domain_marking", sides={"red": "B"}, leader_hexes={"red": "B4", "green": "B11"})
    put(rt, "A7", "red", 1)
    markers(rt, "red", "flower")
    fruit(rt, "red", blue=1)
    drive(steps(rt, marking.marking_turn_frame(rt, "red")), ["pass"])
    assert not any(e.kind == "power" for e in rt.events) and rt.state.flocks["red"].fruit["blue"] == 1
