"""Engine: Move, Push, Feed, Build, placing Kiwi, track, Leaders (R-MOVE, R-PUSH, R-FEED, R-BUILD, R-RES, R-TRACK, R-LEAD)."""
from __future__ import annotations

import pytest
from test_engine_support import blank_runtime, dsl, fruit, markers, now, put

from kcd.engine import build, effects, feed, move, placing
from kcd.engine.context import Ctx, Turn
from kcd.testing import drive, steps


def _ctx(flock="red"):
    return Ctx(flock, turn=Turn())


# --- Move ------------------------------------------------------------------------------------------
def test_R_MOVE_1_move_card_two_mandatory_moves():
    """R-MOVE-1: a Move card gives two Move actions and both must be taken (no stop option)."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A7", "red", 1)
    _, asked = drive(steps(rt, effects.run_frame(rt, rt.rules.action_effect["move"], _ctx())),
                     ["move:red/1@A7->A8", "move:leader@A1->A2"])
    assert all("stop" not in d.option_ids() for d in asked)
    assert rt.state.flocks["red"].leader_hex == "A2"
    assert [k.flock for k in rt.state.hexes["A8"].kiwi] == ["red"]


def test_R_MOVE_2_move_options_adjacent_and_ability():
    """R-MOVE-2: a Move action moves an own Kiwi (Leader included) to an adjacent hex, or uses the ability."""
    rt = blank_runtime(leader_hexes={"red": "A5", "green": "B4"})
    put(rt, "A1", "red", 2)
    ids = {o.id for o in move.move_options(rt, _ctx())}
    assert ids == {"move:red/2@A1->A2", "move:red/2@A1->A5", "move:red/2@A1->A6",
                   "move:leader@A5->A6", "move:leader@A5->A1", "move:leader@A5->A9", "ability"}


def test_R_MOVE_3_extra_moves_cost_flock_fruit():
    """R-MOVE-3: after the free moves, each extra Move costs 2 fruit of the flock side's types, as often as paid."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A7", "red", 1, 1, 1)
    side_cost = rt.rules.flocks["red"]["A"].extra_move
    req = effects.payment.reqs_of(side_cost)[0]
    fruit(rt, "red", **{req.types[0]: 2, "blue" if "blue" not in req.types else "red": 2})
    answers = ["move:red/1@A7->A8", "move:red/1@A7->A8", "extra:move",
               "move:red/1@A7->A6"]
    drive(steps(rt, effects.run_frame(rt, rt.rules.action_effect["move"], _ctx())), answers)
    assert rt.state.flocks["red"].fruit[req.types[0]] == 0
    # no more fruit of the right types: no further extra-move question
    assert len(rt.state.hexes["A8"].kiwi) == 2 and len(rt.state.hexes["A6"].kiwi) == 1


def test_R_MOVE_4_no_kiwi_twice_leader_move_or_ability():
    """R-MOVE-4: a Kiwi moves once a turn; a Leader that moved cannot use its ability in that turn."""
    rt = blank_runtime(leader_hexes={"red": "A5", "green": "B4"})
    k = put(rt, "A1", "red", 1)
    ctx = _ctx()
    drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), ["move:red/1@A1->A2"])
    assert k.id in ctx.turn.moved
    ids = {o.id for o in move.move_options(rt, ctx)}
    assert not any(i.startswith("move:red/1@A2") for i in ids)
    drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), ["move:leader@A5->A6"])
    assert move.move_options(rt, ctx) == []      # Leader moved: no ability either


# --- Push ------------------------------------------------------------------------------------------
def test_R_PUSH_1_push_up_to_two_smaller_own_included():
    """R-PUSH-1: the Kiwi ending its move may push up to two smaller Kiwi (own included) to adjacent hexes."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A6", "red", 3)
    put(rt, "A7", "red", 2)
    put(rt, "A7", "green", 1)
    put(rt, "A7", "green", 3)                    # same size: cannot be pushed
    _, asked = drive(steps(rt, move.MOVE_ACTION.start(_ctx(), True)),
                     ["move:red/3@A6->A7", "push:red/2@A7->A3", "push:green/1@A7->A11"])
    push_ids = asked[1].option_ids()
    assert "stop" in push_ids and not any("green/3" in i for i in push_ids)
    assert [k.size for k in rt.state.hexes["A3"].kiwi] == [2]
    assert [k.flock for k in rt.state.hexes["A11"].kiwi] == ["green"]
    assert len(asked) == 3                       # two pushes at most


def test_R_PUSH_2_pushed_kiwi_do_not_push_and_stop():
    """R-PUSH-2: pushing is not moving; a pushed Kiwi does not push, and pushed Kiwi may still move later."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A6", "red", 3)
    pushed = put(rt, "A7", "red", 2)
    put(rt, "A3", "green", 1)
    ctx = _ctx()
    _, asked = drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), ["move:red/3@A6->A7", "push:red/2@A7->A3"])
    assert len(rt.state.hexes["A3"].kiwi) == 2   # the pushed size-2 did not push the green size-1
    assert pushed.id not in ctx.turn.moved


def test_R_PUSH_3_pushed_off_goes_to_reserve():
    """R-PUSH-3 / R-RES-1: a Kiwi pushed off the island goes to its owner's Reserve."""
    rt = blank_runtime(leader_hexes={"red": "A9", "green": "B4"})
    put(rt, "A6", "red", 3)
    put(rt, "A1", "green", 2)
    drive(steps(rt, move.MOVE_ACTION.start(_ctx(), True)), ["move:red/3@A6->A1", "push:green/2@A1->off"])
    assert rt.state.flocks["green"].reserve_kiwi == 2
    assert all(k.flock != "green" for k in rt.state.hexes["A1"].kiwi)


def test_R_ASYM_5_yellow_same_size_push_and_extra_move():
    """R-ASYM-5: Yellow side B pushes Kiwi of the same size and gains one more Move when gaining Moves."""
    rt = blank_runtime(players=("yellow", "green"), sides={"yellow": "B"}, leader_hexes={"yellow": "A1", "green": "B4"})
    put(rt, "A6", "yellow", 2)
    put(rt, "A7", "green", 2)
    put(rt, "A10", "yellow", 1)
    ctx = Ctx("yellow", turn=Turn())
    _, asked = drive(steps(rt, effects.run_frame(rt, dsl("move 1"), ctx)),
                     ["move:yellow/2@A6->A7", "push:green/2@A7->A8", "move:yellow/1@A10->A9"])
    assert [k.flock for k in rt.state.hexes["A8"].kiwi] == ["green"]
    assert len(ctx.turn.moved) == 2               # one gained Move + one more from the power


# --- Feed ------------------------------------------------------------------------------------------
def test_R_FEED_1_any_kiwi_never_leader_and_R_LEAD_3():
    """R-FEED-1 / R-LEAD-3: feed any Kiwi, own or opponent's; Leaders are never offered."""
    rt = blank_runtime(leader_hexes={"red": "A7", "green": "A7"})
    put(rt, "A7", "red", 1)
    put(rt, "A7", "green", 2)
    fruit(rt, "red", red=1, green=1, yellow=1)
    ids = {o.id for o in feed.targets(rt, "red")}
    assert ids == {"feed:red/1@A7", "feed:green/2@A7"}


def test_R_FEED_2_cost_by_next_size_different_colours():
    """R-FEED-2: 2 different fruit to reach size 2, 3 for size 3, 4 to explode; same colours do not do."""
    rt = blank_runtime()
    put(rt, "A7", "red", 1)
    put(rt, "A8", "red", 2)
    put(rt, "A6", "red", 3)
    fruit(rt, "red", red=4)
    assert feed.targets(rt, "red") == []
    fruit(rt, "red", green=1, yellow=1)
    assert {o.id for o in feed.targets(rt, "red")} == {"feed:red/1@A7", "feed:red/2@A8"}
    fruit(rt, "red", blue=1)
    assert len(feed.targets(rt, "red")) == 3
    assert [feed.cost(rt, s).n for s in (1, 2, 3)] == [2, 3, 4]


def test_R_FEED_3_R_FEED_4_owner_stacks_feeder_gains_markers():
    """R-FEED-3: the owner stacks a token from their track; R-FEED-4: feeder gains 2 markers for an opponent's Kiwi."""
    rt = blank_runtime()
    k = put(rt, "A7", "green", 1)
    fruit(rt, "red", red=1, green=1)
    drive(steps(rt, feed.FEED.start(_ctx())), [])
    assert now(rt, k).size == 2 and rt.state.flocks["green"].track == 7
    assert len(rt.state.flocks["red"].domain) == 2
    own = put(rt, "A8", "red", 1)
    fruit(rt, "red", red=1, green=1)
    drive(steps(rt, feed.FEED.start(_ctx())), ["feed:red/1@A8", "pay:red,green"])
    assert now(rt, own).size == 2 and rt.state.flocks["red"].track == 7
    assert len(rt.state.flocks["red"].domain) == 3          # +1 for an own Kiwi


def test_R_FEED_5_R_FEED_6_explosion_reserve_push_all_no_track():
    """R-FEED-5: a fed size-3 explodes to the owner's Reserve and the feeder pushes all Kiwi there; R-FEED-6: no track token."""
    rt = blank_runtime(leader_hexes={"red": "B4", "green": "A7"})
    put(rt, "A7", "green", 3)
    put(rt, "A7", "red", 1)
    fruit(rt, "red", red=1, green=1, yellow=1, blue=1)
    answers = ["feed:green/3@A7", "push:red/1@A7->A8", "push:leader-green@A7->A6"]
    drive(steps(rt, feed.FEED.start(_ctx())), answers)
    assert rt.state.flocks["green"].reserve_kiwi == 3 and rt.state.flocks["green"].track == 8
    assert rt.state.hexes["A7"].kiwi == () and rt.state.flocks["green"].leader_hex == "A6"


# --- Build -----------------------------------------------------------------------------------------
def test_R_BUILD_1_needs_no_nest_two_tokens_dominance():
    """R-BUILD-1: a hex without Nest where the player has >= 2 tokens and dominance (Leader counts 3, R-LEAD-1)."""
    rt = blank_runtime(leader_hexes={"red": "A8", "green": "B4"})
    put(rt, "A7", "red", 2)
    put(rt, "A6", "red", 1)                      # only 1 token
    put(rt, "A10", "red", 2)
    put(rt, "A10", "green", 2)                   # tie
    put(rt, "A11", "red", 1, 1)
    rt.state.set_nest("A11", ("green", "tree-1"))
    assert build.hexes(rt, "red") == ["A7", "A8"]


def test_R_BUILD_2_cost_and_row_order():
    """R-BUILD-2: 2 identical fruit for a first-row Nest, 3 for the second row, only after the first row's Nest."""
    rt = blank_runtime()
    fruit(rt, "red", red=3)
    avail = build.available_nests(rt, "red")
    rows = {rt.rules.nests[n].row for n in avail}
    assert rows == {1}
    first = avail[0]
    rt.state.flocks["red"].nests_built.append(first)
    typ = rt.rules.nests[first].type
    second = [n for n in build.available_nests(rt, "red") if rt.rules.nests[n].row == 2]
    assert [rt.rules.nests[n].type for n in second] == [typ]
    rt.state.flocks["red"].fruit["red"] = 2
    assert all(rt.rules.nests[n].row == 1 for n in build.available_nests(rt, "red"))


def test_R_BUILD_3_R_BUILD_4_placement_benefit_and_nests_listed():
    """R-BUILD-3/4: building places the Nest, pays and gains its placement benefit at once (Cave: place 1 Kiwi)."""
    rt = blank_runtime(leader_hexes={"red": "A8", "green": "B4"})
    put(rt, "A7", "red", 2)
    fruit(rt, "red", blue=2)
    cave = next(n for n in rt.rules.flock_nests if rt.rules.nests[n].type == "cave" and rt.rules.nests[n].row == 1)
    drive(steps(rt, build.BUILD.start(_ctx())), ["build:A7", f"nest:{cave}", "place:A7"])
    assert rt.state.hexes["A7"].nest == ("red", cave)
    assert rt.state.flocks["red"].fruit["blue"] == 0
    assert [k.size for k in rt.state.hexes["A7"].kiwi] == [2, 1]
    assert set(rt.rules.nests) >= set(rt.rules.flock_nests) and len(rt.rules.flock_nests) == 6


def test_R_BUILD_5_control_nest_counts_two():
    """R-BUILD-5: a Control Nest counts as 2 size-1 Kiwi in its hex."""
    rt = blank_runtime()
    control = next(n for n in rt.rules.nests if rt.rules.nests[n].dominance)
    put(rt, "A7", "red", 1)
    put(rt, "A7", "green", 2)
    rt.state.set_nest("A7", ("red", control))
    from kcd.core import dominance
    assert dominance.strengths(rt.state, "A7")["red"] == 1 + rt.rules.nests[control].dominance == 3


def test_R_BUILD_6_second_row_nest_one_vp():
    """R-BUILD-6: each second-row Nest built is worth 1 VP at the end."""
    from kcd.engine import scoring
    rt = blank_runtime()
    rows = {n: rt.rules.nests[n].row for n in rt.rules.flock_nests}
    rt.state.flocks["red"].nests_built = list(rows)
    assert scoring.score(rt.state)["red"]["nests"] == sum(1 for r in rows.values() if r == 2) == 3


# --- Placing, reserve, track -----------------------------------------------------------------------
def test_R_RES_2_R_RES_3_place_from_track_then_reserve_then_island():
    """R-RES-2: track, then Reserve, then an island token (downsizing); R-RES-3: only where the player has Kiwi."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"}, phase="season_change")
    big = put(rt, "A7", "red", 2)
    fl = rt.state.flocks["red"]
    _, asked = drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())), ["place:A7"])
    assert set(asked[0].option_ids()) == {"place:A1", "place:A7"} and fl.track == 7
    fl.track, fl.reserve_kiwi = 0, 1
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())), ["place:A1"])
    assert fl.reserve_kiwi == 0
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())), ["take:red/2@A7", "place:A1"])
    assert now(rt, big).size == 1 and [k.size for k in rt.state.hexes["A1"].kiwi] == [1, 1]


def test_R_RES_1_reserve_holds_fruit_markers_tokens():
    """R-RES-1: the Player Reserve holds fruit, domain markers and Kiwi tokens pushed off or exploded."""
    rt = blank_runtime()
    fl = rt.state.flocks["red"]
    fruit(rt, "red", red=1)
    markers(rt, "red", "sand")
    fl.reserve_kiwi = 2
    v = rt.state.to_dict()
    assert v["flocks"][0]["reserve_kiwi"] == 2 and v["flocks"][0]["domain"] == ["sand"]


def test_R_TRACK_1_benefit_from_slot_three_not_in_season_change():
    """R-TRACK-1: from slot 3 on, an uncovered slot's benefit is gained at once, except during Season Change; once each."""
    import copy
    from kcd.content.rules import Side
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    rt.rules = copy.copy(rt.rules)
    track = {i: None for i in range(1, 9)}
    track.update({1: dsl("gain 1 fruit"), 3: dsl("gain 1 fruit"), 4: dsl("gain 1 fruit"), 5: dsl("gain 1 fruit")})
    rt.rules.flocks = dict(rt.rules.flocks, red={"A": Side(None, track, [])})
    fl = rt.state.flocks["red"]
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())))      # slot 1: before slot 3, nothing
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())))      # slot 2
    assert sum(fl.fruit.values()) == 0
    rt.state.phase = "season_change"
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())))      # slot 3 in Season Change: nothing, and never again
    assert sum(fl.fruit.values()) == 0
    rt.state.phase = "actions"
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())))      # slot 4: its benefit at once
    assert sum(fl.fruit.values()) == 1 and fl.track == 4


def test_R_TRACK_2_removed_tokens_go_to_reserve():
    """R-TRACK-2: tokens removed from the island go to the Reserve, never back to the track."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A7", "red", 2)
    drive(steps(rt, placing.REMOVE.start("red", 1)), [])
    fl = rt.state.flocks["red"]
    assert fl.reserve_kiwi == 2 and fl.track == 8


def test_grow_uncovers_track_and_skips_size_limit():
    """Decision R-TRACK-1: growing takes the next token, so it uncovers track slots; a size-3 Kiwi cannot grow."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A7", "red", 3)
    k = put(rt, "A6", "red", 1)
    drive(steps(rt, placing.GROW.start("red", 2, _ctx())), [])
    assert now(rt, k).size == 2 and rt.state.flocks["red"].track == 7


# --- Leaders ---------------------------------------------------------------------------------------
def test_R_LEAD_6_chopan_moves_three_and_pushes_all_passed():
    """R-LEAD-6: Chopan moves 3 hexes in a line and pushes all Kiwi (any size, Leaders too) between start and landing."""
    rt = blank_runtime(leader_hexes={"red": "A5", "green": "A7"})
    rt.state.flocks["red"].leader_card = "chopan-1"
    put(rt, "A6", "green", 3)
    put(rt, "A7", "red", 1)
    ctx = _ctx()
    answers = ["ability", "push:green/3@A6->A1",
               "push:red/1@A7->A3", "push:leader-green@A7->A11"]
    drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), answers)
    st = rt.state
    assert st.flocks["red"].leader_hex == "A8" and st.flocks["red"].leader_used
    assert st.hexes["A6"].kiwi == () and st.hexes["A7"].kiwi == () and st.flocks["green"].leader_hex == "A11"


def test_R_LEAD_2_ability_once_per_season_as_move_action():
    """R-LEAD-2: the ability is a Move action once a season; the card is flipped (R-SC-2 turns it back up)."""
    rt = blank_runtime(leader_hexes={"red": "A5", "green": "B4"})
    rt.state.flocks["red"].leader_card = "chopan-1"
    ctx = _ctx()
    drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), ["ability"])      # the only straight line is chosen automatically
    assert rt.state.flocks["red"].leader_used
    assert "ability" not in {o.id for o in move.move_options(rt, Ctx("red", turn=Turn()))}


def test_R_LEAD_4_leader_pushed_off_placed_on_edge_by_pusher():
    """R-LEAD-4: a Leader is never removed; pushed off, the pusher places it on an edge hex of their choice."""
    rt = blank_runtime(players=("yellow", "green"), sides={"yellow": "B"}, leader_hexes={"yellow": "B4", "green": "A1"})
    put(rt, "A6", "yellow", 3)
    _, asked = drive(steps(rt, move.MOVE_ACTION.start(Ctx("yellow", turn=Turn()), True)),
                     ["move:yellow/3@A6->A1", "push:leader-green@A1->off", "edge:green->B11"])
    edges = asked[-1].option_ids()
    assert "edge:green->A6" not in edges and "edge:green->A7" not in edges
    assert rt.state.flocks["green"].leader_hex == "B11"


def test_R_LEAD_5_ability_ends_elsewhere_pushes_any_size_to_other_hexes():
    """R-LEAD-5: an ability ends in another hex, pushes any size (Leaders too), each to a different hex than its own."""
    rt = blank_runtime(leader_hexes={"red": "A5", "green": "A8"})
    rt.state.flocks["red"].leader_card = "chopan-2"      # moves 2 straight; push up to 2 of the pieces out of the landing hex
    put(rt, "A7", "green", 3)
    ctx = _ctx()
    _, asked = drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), ["ability", "push:green/3@A7->A3"])
    assert rt.state.flocks["red"].leader_hex == "A7"
    assert not any(d.kind == "leader-move" for d in asked)   # one legal line only: answered automatically


@pytest.mark.parametrize("card", [c for leader in ("chopan", "kahu", "ruru", "tui") for c in (f"{leader}-1", f"{leader}-2")])
def test_R_LEAD_5_every_leader_card_runs(card):
    """R-COMP-3 / R-LEAD-5: leader cards written with the registry's leader verbs all execute."""
    from test_engine_support import rules
    if card not in rules().leader_cards:
        pytest.skip("no such card in content")
    rt = blank_runtime(leader_hexes={"red": "A7", "green": "A6"})
    rt.state.flocks["red"].leader_card = card
    put(rt, "A8", "green", 2)
    put(rt, "A2", "green", 1)
    import random
    r = random.Random(1)
    gen = steps(rt, move.MOVE_ACTION.start(_ctx(), True))
    d = next(gen)
    try:
        d = gen.send("ability")
        while True:
            d = gen.send(r.choice(d.option_ids()))
    except StopIteration:
        pass
    assert rt.state.flocks["red"].leader_hex != "A7" and rt.state.flocks["red"].leader_used
