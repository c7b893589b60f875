"""Engine audit against the rulebook: each test pins a divergence that was found and fixed (rule id in the name)."""
from __future__ import annotations

from test_engine_support import blank_runtime, fruit, markers, now, put, ruleset

from kcd.engine import Game, feed, marking, placing
from kcd.engine.context import Ctx, Turn
from kcd.testing import drive, steps


def _ctx(flock="red"):
    return Ctx(flock, turn=Turn())


def test_R_DM_2_control_nest_alone_gives_dominance_for_marking():
    """R-DM-2 (with R-DOM-2, R-BUILD-5): an own Control Nest with no own Kiwi there still gives dominance, so
    the hex can be marked; a Nest that counts nothing (Tree) does not."""
    rt = blank_runtime(leader_hexes={"red": "B4", "green": "B8"})     # mountain, grass
    rt.state.set_nest("A7", ("red", "control-1"))    # flower; red 2 (the Nest) against green 1
    put(rt, "A7", "green", 1)
    rt.state.set_nest("A10", ("red", "tree-1"))      # flower; the Tree Nest counts 0
    put(rt, "A3", "red", 1)                             # a token to cover with from the island too
    markers(rt, "red", "flower")
    markers(rt, "green", "flower")
    assert marking.markable(rt, "red") == ["A7"]
    assert marking.markable(rt, "green") == []
    drive(steps(rt, marking.MARK.start(_ctx(), True)), ["mark:A7", "cover:track"])
    assert rt.state.hexes["A7"].domain == ("red", "flower")


def test_R_FEED_5_explosion_leader_pushed_off_not_put_back_on_the_exploded_hex():
    """R-FEED-5: the feeder pushes ALL Kiwi out of the exploded hex; a Leader pushed off the island (R-LEAD-4)
    goes to an edge hex of the pusher's choice other than the exploded one (else the hex never empties)."""
    rt = blank_runtime(leader_hexes={"red": "B4", "green": "A1"})     # A1 is an edge hex
    put(rt, "A1", "green", 3)
    fruit(rt, "red", red=1, green=1, yellow=1, blue=1)
    _, asked = drive(steps(rt, feed.FEED.start(_ctx())), ["push:leader-green@A1->off", "edge:green->A5"])
    edges = asked[-1].option_ids()
    assert "edge:green->A1" not in edges and "edge:green->A2" in edges
    assert rt.state.flocks["green"].leader_hex == "A5" and rt.state.hexes["A1"].kiwi == ()
    assert rt.state.flocks["green"].reserve_kiwi == 3


def test_R_RES_2_island_token_may_be_declined_for_own_placing_and_growing():
    """R-RES-2: with track and Reserve empty the player *may* take an island token to place a Kiwi, so they
    may decline (nothing is placed); the same for growing their own Kiwi."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    big = put(rt, "A7", "red", 2)
    small = put(rt, "A3", "red", 1)
    fl = rt.state.flocks["red"]
    fl.track = fl.reserve_kiwi = 0
    _, asked = drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())), ["take:none"])
    assert set(asked[0].option_ids()) == {"take:red/2@A7", "take:red/1@A3", "take:none"}
    assert now(rt, big).size == 2 and now(rt, small).size == 1 and rt.state.island_tokens("red") == 3 and fl.supply == 0
    drive(steps(rt, placing.GROW.start("red", 1, _ctx())), ["grow:red/1@A3", "take:none"])
    assert now(rt, small).size == 1 and now(rt, big).size == 2
    drive(steps(rt, placing.PLACE_ONE.start("red", _ctx())), ["take:red/2@A7", "place:A3"])
    assert now(rt, big).size == 1 and [k.size for k in rt.state.hexes["A3"].kiwi] == [1, 1]


def test_R_FEED_3_fed_kiwi_owner_must_stack_an_island_token():
    """R-FEED-3: the fed Kiwi's owner takes a token (track, Reserve or island): no option to decline."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "B4"})
    put(rt, "A6", "red", 1)
    put(rt, "A3", "red", 1)
    put(rt, "A7", "red", 1)
    fl = rt.state.flocks["red"]
    fl.track = fl.reserve_kiwi = 0
    fruit(rt, "green", red=1, green=1)
    _, asked = drive(steps(rt, feed.FEED.start(_ctx("green"))), ["feed:red/1@A6", "take:red/1@A3"])
    assert asked[-1].player == "red" and "take:none" not in asked[-1].option_ids()
    assert [k.size for k in rt.state.hexes["A6"].kiwi] == [2] and rt.state.hexes["A3"].kiwi == ()


def _play_one_card_face_down(game: Game) -> str:
    """Answer the first player's card decisions, playing the card face down; returns the card id."""
    player = game.pending.player
    card = None
    while True:
        d = game.pending
        if d.kind == "card":
            card = d.options[0].id.split(":", 1)[1]
            game.apply(d.options[0].id)
        elif d.kind == "play-mode":
            game.apply("facedown")
        elif d.kind == "may":
            game.apply("may:no")
        else:
            break
        if game.state.flocks[player].played:
            break
    return card


def test_R_ACT_2_face_down_card_hidden_from_other_players_views():
    """R-ACT-2: a card played face down is not shown to others (view `played` says "facedown"), only to its
    owner; the hidden card is discarded with the others at the next Season Change (R-SC-2)."""
    game = Game.new(ruleset(), players=["red", "green"], seed=4)
    player = game.pending.player
    card = _play_one_card_face_down(game)
    other = "green" if player == "red" else "red"
    assert game.view(player)["flocks"][player]["played"] == [card]
    assert game.view(other)["flocks"][player]["played"] == ["facedown"]
    assert game.view(None)["flocks"][player]["played"] == ["facedown"]
    assert game.state.flocks[player].facedown == [0]
    text = game.to_json()
    assert Game.from_json(ruleset(), text).state.flocks[player].facedown == [0]


def test_R_SC_2_view_first_player_is_the_marker_holder():
    """R-SC-2 / R-SETUP-2: the view's `first_player` is the First Player marker's holder (seat order start)."""
    game = Game.new(ruleset(), players=["red", "green", "purple"], seed=2)
    v = game.view(None)
    assert v["first_player"] == "red" and v["turn_order"] == ["red", "green", "purple"]
    assert "variant" not in v and "tracker" not in v
