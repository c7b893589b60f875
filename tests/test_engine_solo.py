"""Solo mode against Kiwibot (R-SOLO-1..12): setup, Kiwibot's automatic turns, its patterns and the Solo-mode
marker, solo Season card scoring, Kiwibot's endgame VP, views, saves, refusals and whole random solo games.

Hand-built positions use the 2-player island: A6 (0,1) is an interior hex whose ring is A7 (e), A10 (se),
A9 (sw), A5 (w), A1 (nw), A2 (ne); A1, A2, A5, A9, A10 are edge hexes.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_engine_support import dsl, markers, put, ruleset, rules

from kcd.engine import Game
from kcd.modes.solo import procedures as solo
from kcd.modes.solo.state import solo_rules
from kcd.engine.context import Ctx, Runtime, Turn
from kcd.engine.game import OldSaveWarning
from kcd.engine.scoring import score
from kcd.engine.setup import SetupError, new_state
from kcd.testing import steps

PLAYER, BOT = "green", "red"


def solo_game(seed: int = 3, **kw) -> Game:
    """A fresh solo game: the player is green, Kiwibot red."""
    return Game.new(ruleset(), players=[PLAYER, BOT], seed=seed, mode="solo", **kw)


def blank_solo(side: str = "bot-side", bot_leader: str | None = "A6", player_leader: str | None = "B7",
               phase: str = "actions", season: int = 1) -> Runtime:
    """A solo runtime with an empty island (no Kiwi, no Nests, no markers in reserves), Leaders as given."""
    r = rules()
    st = new_state(r, [PLAYER, BOT], 5, {PLAYER: "chopan", BOT: "kahu"}, None, None, "first-game",
                   game_mode="solo", solo_side=side)
    for hex_id in st.hexes:
        st.set_kiwi(hex_id, ())
    for f in st.seats:
        fl = st.flocks[f]
        fl.supply = 0
        fl.fruit = {c: 0 for c in r.fruits}
    st.flocks[BOT].leader_hex = bot_leader
    st.flocks[PLAYER].leader_hex = player_leader
    st.phase, st.season, st.step = phase, season, 0
    return Runtime(r, st)


def run(rt: Runtime, gen, answers=()) -> object:
    """Drive a procedure: Kiwibot's questions answered by `solo.answer`, the player's from `answers`."""
    answers = list(answers)
    try:
        d = next(gen)
        while True:
            if solo.is_bot(rt.state, d.player):
                a = solo.answer(rt, d)
            else:
                assert answers, f"unanswered {d.kind} decision for {d.player}: {d.option_ids()}"
                a = answers.pop(0)
            d = gen.send(a)
    except StopIteration as stop:
        return stop.value


def bot_ctx() -> Ctx:
    return Ctx(BOT, turn=Turn(), source="test")


def kiwi_at(rt: Runtime, hex_id: str, flock: str) -> list[int]:
    return sorted(k.size for k in rt.state.hexes[hex_id].kiwi if k.flock == flock)


def play(game: Game, seed: int, check=None) -> int:
    """Random legal play for the player; Kiwibot plays itself."""
    r = random.Random(seed)
    n = 0
    while not game.is_over:
        d = game.pending
        assert d.player == PLAYER, f"Kiwibot has a pending {d.kind} decision"   # R-SOLO-7
        assert game.apply(r.choice(d.options).id).ok
        n += 1
        if check:
            check(game)
        assert n < 3000
    return n


# --- setup (R-SOLO-1..4) ---------------------------------------------------------------------------------------
def test_R_SOLO_1_kiwibot_random_leader_deck_shuffled_one_card_set_aside_no_hand() -> None:
    """R-SOLO-1: a two-player game; Kiwibot gets a random Leader, a shuffled deck with one card set aside face down."""
    g = solo_game(seed=11)
    st = g.state
    assert sorted(st.seats) == sorted([PLAYER, BOT]) and st.mode_state.bot == BOT and st.mode_state.player == PLAYER
    fl = st.flocks[BOT]
    assert fl.hand == [] and len(st.mode_state.set_aside) == 1
    deck_size = sum(rules().deck.values())
    assert len(fl.deck) + len(fl.played) + len(fl.discard) + len(st.mode_state.set_aside) == deck_size
    assert fl.leader in rules().leaders
    leaders = {solo_game(seed=s).state.flocks[BOT].leader for s in range(12)}
    assert len(leaders) > 2   # dealt from the seed, not fixed
    g2 = Game.new(ruleset(), players=[PLAYER, BOT], seed=4, mode="solo", leaders={PLAYER: "chopan"})
    assert g2.state.flocks[PLAYER].leader == "chopan" and g2.state.flocks[BOT].leader != "chopan"


def test_R_SOLO_2_solo_cards_random_ascending_face_up_and_marker_side() -> None:
    """R-SOLO-2: `setup.solo_cards` Solo cards at random, ascending, face up (the top shows); a marker side."""
    piles = set()
    for seed in range(8):
        g = solo_game(seed=seed)
        pile = g.state.mode_state.pile
        numbers = [rules().solo_cards[c].number for c in pile]
        assert len(pile) == solo_rules(rules()).setup.solo_cards == 4 and numbers == sorted(numbers)
        assert len(set(pile)) == 4 and g.state.mode_state.side in solo_rules(rules()).sides
        piles.add(tuple(pile))
        view = g.view(PLAYER)["solo"]
        assert view["solo_card"] == pile[0] and view["solo_cards_left"] == 4
    assert len(piles) > 1
    assert solo_game(solo_side="player-side").state.mode_state.marker_start == "player_leader"
    with pytest.raises(SetupError, match="unknown Solo-mode marker side `nope`"):
        solo_game(solo_side="nope")


def test_R_SOLO_3_kiwibot_first_player_first_nest_no_fruit_two_extra_markers() -> None:
    """R-SOLO-3: Kiwibot has the First Player marker and Turn Order nest 1, no fruit, 2 extra domain markers."""
    r = rules()
    st = new_state(r, [PLAYER, BOT], 9, None, None, None, "first-game", game_mode="solo")
    assert st.seats[0] == BOT and st.first == 0 and st.flocks[BOT].seat == 1 and st.flocks[PLAYER].seat == 2
    rt = Runtime(r, st)
    from kcd.engine.setup import SETUP_STEP
    run(rt, steps(rt, SETUP_STEP.start()))
    assert sum(st.flocks[BOT].fruit.values()) == 0
    # turn-order-1 gives 1 marker, setup.kiwibot_setup 2 more; the player takes turn-order-2 (3 fruit, 1 marker)
    assert len(st.flocks[BOT].domain) == 3
    assert sum(st.flocks[PLAYER].fruit.values()) == 3 and len(st.flocks[PLAYER].domain) == 1


def test_R_SOLO_4_two_face_down_season_cards_per_season_flipped_at_season_change() -> None:
    """R-SOLO-4: two face-down Season cards per season, both flipped at that season's Season Change."""
    g = solo_game(seed=2)
    st = g.state
    assert len(st.season_cards) == 8 and len(set(st.season_cards)) == 8
    shown = g.view(PLAYER)["season_cards"]
    assert [c["season"] for c in shown] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [c["id"] for c in shown[:2]] == st.season_cards[:2]
    assert all(c["id"] == "facedown" for c in shown[2:])
    flips = [e.data for e in g.events if e.kind == "season-flip"]
    assert flips == [{"season": 1, "cards": st.season_cards[:2]}]
    play(g, 2)
    flips = [e.data["season"] for e in g.events if e.kind == "season-flip"]
    assert flips == [1, 2, 3, 4] and all(c["id"] != "facedown" for c in g.view(PLAYER)["season_cards"])


def test_R_SOLO_1_solo_refuses_bad_parameters() -> None:
    """R-SOLO-1: exactly a player and Kiwibot; no Variable Turn Order; clear errors."""
    with pytest.raises(SetupError, match="players=\\[player_flock, kiwibot_flock\\]"):
        Game.new(ruleset(), players=["green", "red", "yellow"], seed=1, mode="solo")
    with pytest.raises(SetupError, match="without Variable Turn Order"):
        Game.new(ruleset(), players=[PLAYER, BOT], seed=1, mode="solo", variant="vto")
    with pytest.raises(SetupError, match="mode must be"):
        Game.new(ruleset(), players=[PLAYER, BOT], seed=1, mode="duo")
    with pytest.raises(SetupError, match="only for mode='solo'"):
        Game.new(ruleset(), players=[PLAYER, BOT], seed=1, solo_side="bot-side")


# --- Kiwibot's turn (R-SOLO-7, R-SOLO-8, R-SOLO-10) ------------------------------------------------------------------
def test_R_SOLO_7_reveal_into_next_slot_row_by_type_column_by_slot() -> None:
    """R-SOLO-7: each Kiwibot turn reveals the deck's top card into the next slot; type picks the row, slot the column."""
    g = solo_game(seed=6)
    reveals = [e.data for e in g.events if e.kind == "kiwibot" and e.data]
    assert reveals and reveals[0]["slot"] == 1 and reveals[0]["column"] == 1
    assert g.state.flocks[BOT].played == [reveals[0]["card"]]
    assert reveals[0]["row"] == rules().cards[reveals[0]["card"]].type
    assert reveals[0]["solo_card"] == g.state.mode_state.pile[0]
    play(g, 6)
    reveals = [e.data for e in g.events if e.kind == "kiwibot" and e.data]
    assert len(reveals) == rules().seasons * rules().cards_per_season
    assert [r["slot"] for r in reveals] == [1, 2, 3] * rules().seasons
    assert all(r["column"] == r["slot"] for r in reveals)


def test_R_SOLO_7_empty_deck_reshuffles_all_cards_and_sets_one_aside() -> None:
    """R-SOLO-7: an empty deck: all Kiwibot's cards not on its board are shuffled, one set aside, the rest the deck."""
    rt = blank_solo()
    st = rt.state
    fl = st.flocks[BOT]
    fl.discard = fl.deck[:5]
    fl.played = fl.deck[5:]
    fl.deck = []
    fl.played = fl.played[:2]
    fl.discard += []
    before = sorted(fl.discard + st.mode_state.set_aside)
    run(rt, steps(rt, solo.BOT_TURN.start(BOT)))
    assert len(st.mode_state.set_aside) == 1
    assert sorted(fl.deck + st.mode_state.set_aside + fl.played[2:]) == before
    assert len(fl.played) == 3 and fl.discard == []


def test_R_SOLO_7_kiwibot_never_has_a_pending_decision_and_replays_identically() -> None:
    """R-SOLO-7: Kiwibot's choices are automatic (logged as `kiwibot-choice`), so only the player is ever asked;
    the same seed and decisions give the same game."""
    g1, g2 = solo_game(seed=21), solo_game(seed=21)
    play(g1, 5)
    play(g2, 5)
    assert g1.to_json() == g2.to_json()
    assert any(e.kind == "kiwibot-choice" for e in g1.events)


def test_R_SOLO_8_kiwibot_gains_no_fruit_and_a_gained_move_is_a_bonus_move() -> None:
    """R-SOLO-8: Kiwibot never gains fruit; a Move action it gains (Control Nest, track) resolves the bonus Move."""
    rt = blank_solo()
    bag = dict(rt.state.fruit_bag)
    put(rt, "A7", BOT, 2)
    put(rt, "A2", PLAYER, 1)
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("gain 2 fruit; move 1"), bot_ctx())))
    assert sum(rt.state.flocks[BOT].fruit.values()) == 0 and rt.state.fruit_bag == bag
    texts = [e.text for e in rt.events if e.kind == "kiwibot"]
    assert any("bonus move" in t for t in texts)
    assert rt.state.flocks[BOT].leader_used is False


def test_R_SOLO_8_feeds_and_builds_without_paying() -> None:
    """R-SOLO-8/10: Kiwibot feeds and builds with no fruit; the feed still gives it markers."""
    rt = blank_solo()
    st = rt.state
    put(rt, "A7", BOT, 1, 1)
    put(rt, "A8", PLAYER, 1)
    st.flocks[PLAYER].track = 8   # slot 1 uncovered: no track benefit
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot feeds a kiwi of size 1 of an opponent", "solo"), bot_ctx())))
    assert kiwi_at(rt, "A8", PLAYER) == [2] and len(st.flocks[BOT].domain) == 2   # R-FEED-4: an opponent's Kiwi
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot builds nest 1", "solo"), bot_ctx())))
    # A6 (Leader, 3 tokens) comes first in the marker search from Kiwibot's Leader
    assert st.hexes["A6"].nest == (BOT, "tree-1") and st.flocks[BOT].nests_built == ["tree-1"]


def test_R_SOLO_8_bonus_action_resolves_the_rows_bonus_segment() -> None:
    """R-SOLO-8: `bot bonus build` resolves the build row's bonus segment of the top Solo card."""
    rt = blank_solo()
    rt.state.mode_state.pile = ["solo-1", "solo-2"]   # solo-1 build bonus: place 3 Kiwi
    put(rt, "A7", BOT, 1)
    before = rt.state.island_tokens(BOT)
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot bonus build", "solo"), bot_ctx())))
    assert rt.state.island_tokens(BOT) == before + 3


def test_R_SOLO_10_feed_takes_the_lower_size_when_the_indicated_one_is_missing() -> None:
    """R-SOLO-10/11: no size-2 player Kiwi: a size-1 is fed; a size-3 explodes and Kiwibot pushes everything out."""
    rt = blank_solo()
    st = rt.state
    put(rt, "A9", PLAYER, 1)
    put(rt, "A10", PLAYER, 1)
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot feeds a kiwi of size 2 of an opponent", "solo"), bot_ctx())))
    # the marker search from A6 reaches A10 (se) before A9 (sw)
    assert kiwi_at(rt, "A10", PLAYER) == [2] and kiwi_at(rt, "A9", PLAYER) == [1]
    put(rt, "A1", PLAYER, 3)
    put(rt, "A1", BOT, 1)
    reserve = st.flocks[PLAYER].reserve_kiwi
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot feeds a kiwi of size 3 of an opponent", "solo"), bot_ctx())))
    assert st.hexes["A1"].kiwi == () and st.flocks[PLAYER].reserve_kiwi == reserve + 3


def test_R_SOLO_10_build_without_hex_places_a_kiwi_and_gains_a_bonus_move() -> None:
    """R-SOLO-10: no valid hex (or no Nest left of the column): place 1 size-1 Kiwi and a bonus Move."""
    rt = blank_solo(bot_leader=None)
    st = rt.state
    put(rt, "A7", BOT, 1)
    put(rt, "A7", PLAYER, 2)
    tokens = st.island_tokens(BOT)
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot builds nest 2", "solo"), bot_ctx())))
    assert st.flocks[BOT].nests_built == [] and st.island_tokens(BOT) == tokens + 1
    assert any("bonus move" in e.text for e in rt.events if e.kind == "kiwibot")


def test_R_SOLO_10_build_takes_the_next_nest_of_the_column_first_row_first() -> None:
    """R-SOLO-10: `bot builds nest 2` builds the first-row Control Nest, then the second-row one."""
    rt = blank_solo()
    for h in ("A7", "A3", "A4"):
        put(rt, h, BOT, 2)
    assert solo.next_nest(rt, BOT, 2) == "control-1"
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot builds nest 2", "solo"), bot_ctx())))
    assert solo.next_nest(rt, BOT, 2) == "control-2"
    # control-1's placement Move is a bonus Move (R-SOLO-8); then the second row goes where Kiwibot still may build
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot builds nest 2", "solo"), bot_ctx())))
    assert rt.state.hexes["A6"].nest == (BOT, "control-1")
    assert rt.state.flocks[BOT].nests_built == ["control-1", "control-2"]
    assert sum(1 for h in rt.state.hexes.values() if h.nest == (BOT, "control-2")) == 1
    assert solo.next_nest(rt, BOT, 2) is None and solo.next_nest(rt, BOT, 9) is None


def test_R_SOLO_10_move_segment_resolves_once_with_its_pushes() -> None:
    """R-SOLO-10: a Move segment moves each indicated Kiwi once, then pushes as shown (here the player's off)."""
    rt = blank_solo()
    st = rt.state
    put(rt, "A6", BOT, 2)
    put(rt, "A2", PLAYER, 1)
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 2; bot pushes up to 1 of the kiwi of an opponent", "solo"), bot_ctx())))
    assert kiwi_at(rt, "A2", BOT) == [2] and kiwi_at(rt, "A2", PLAYER) == []
    assert st.flocks[PLAYER].reserve_kiwi == 1   # A2 is an edge hex: off the island first (R-SOLO-11)
    assert kiwi_at(rt, "A6", BOT) == []


# --- patterns (R-SOLO-11) and the marker (R-SOLO-12) -----------------------------------------------------------------
def test_R_SOLO_12_marker_search_starts_at_the_leader_and_goes_round_clockwise() -> None:
    """R-SOLO-12: the indicated Leader's hex, its neighbours in the side's sequence, then the next ring."""
    rt = blank_solo(side="bot-side", bot_leader="A6")
    order = solo.marker_order(rt.state)
    assert order[:7] == ["A6", "A7", "A10", "A9", "A5", "A1", "A2"]          # here, e, se, sw, w, nw, ne
    assert order[7:10] == ["A8", "A11", "A3"]                               # ring 2 from the east corner, clockwise
    assert sorted(order) == sorted(rt.state.hexes)
    rt2 = blank_solo(side="player-side", player_leader="A6")
    assert solo.marker_order(rt2.state)[:7] == ["A6", "A5", "A1", "A2", "A7", "A10", "A9"]   # w, nw, ne, e, se, sw


def test_R_SOLO_11_moving_pattern_prefers_the_indicated_size_that_can_push() -> None:
    """R-SOLO-11 Moving: 1 the first Kiwi of the indicated size that can push as shown; 2 any size that can push
    one; 3 any size to the indicated hex."""
    rt = blank_solo()
    put(rt, "A6", BOT, 1)        # first in the marker search, but size 1 cannot push a size-1
    put(rt, "A1", BOT, 2)
    put(rt, "A2", PLAYER, 1)     # adjacent to A6 and A1
    call = dsl("bot moves my kiwi of size 2; bot pushes up to 1 of the kiwi of an opponent", "solo")
    seg_ctx = bot_ctx().sub(mode_ctx=solo.plan(call))
    origin, kiwi, dest = solo.choose_move(rt, seg_ctx, call.stmts[0])
    assert (origin, kiwi.size, dest) == ("A1", 2, "A2")
    # step 2: no size-3 that can push (the Leader, a size-3 for movement, already moved this turn, R-MOVE-4),
    # so any size that can push one: the size-2 again
    call3 = dsl("bot moves my kiwi of size 3; bot pushes up to 1 of the kiwi of an opponent", "solo")
    moved = bot_ctx()
    moved.turn.leader_moved = True
    origin, kiwi, dest = solo.choose_move(rt, moved.sub(mode_ctx=solo.plan(call3)), call3.stmts[0])
    assert (origin, kiwi.size, dest) == ("A1", 2, "A2")
    # step 3: nobody to push: the first Kiwi (marker order) to the indicated terrain
    terrain = dsl("bot moves my kiwi of size 3 to a sand hex", "solo")
    origin, kiwi, dest = solo.choose_move(rt, bot_ctx().sub(mode_ctx=solo.plan(terrain)), terrain.stmts[0])
    assert (origin, dest) == ("A6", "A5") and rt.state.hexes[dest].terrain == "sand"


def test_R_LEAD_1_R_SOLO_11_kiwibot_moves_its_leader_as_a_size_3_kiwi_and_it_pushes() -> None:
    """R-LEAD-1/R-MOVE-2 with R-SOLO-10/11: a move of a size-3 Kiwi may move Kiwibot's Leader (a size-3 Kiwi for
    movement); it then pushes like one (smaller pieces), the marker search follows it, and it moves once a turn."""
    rt = blank_solo()                 # Kiwibot's Leader on A6, no size-3 token anywhere
    st = rt.state
    put(rt, "A2", PLAYER, 1)          # A2 is adjacent to A6 and an edge hex
    ctx = bot_ctx()
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 3; bot pushes up to 1 of the kiwi of an opponent", "solo"), ctx)))
    assert st.flocks[BOT].leader_hex == "A2" and ctx.turn.leader_moved
    assert kiwi_at(rt, "A2", PLAYER) == [] and st.flocks[PLAYER].reserve_kiwi == 1   # pushed off (R-SOLO-11)
    assert solo.marker_order(st)[0] == "A2"   # the bot-side marker starts at Kiwibot's Leader (R-SOLO-12)
    assert any(e.text == f"{BOT} moves the Leader from A6 to A2" for e in rt.events)
    # R-MOVE-4: the same turn's next size-3 move finds no other size-3 piece
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 3", "solo"), ctx)))
    assert st.flocks[BOT].leader_hex == "A2"


def test_R_LEAD_1_R_SOLO_11_a_kiwi_token_in_the_leaders_hex_moves_before_the_leader() -> None:
    """R-SOLO-11 decision: "the first Kiwi (of any size)" in one hex is a token before the Leader; with no token
    left, step 3 moves the Leader (a Kiwi of any size for movement, R-LEAD-1)."""
    rt = blank_solo()
    st = rt.state
    put(rt, "A6", BOT, 1)
    ctx = bot_ctx()
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 2 to a sand hex", "solo"), ctx)))   # no size 2: step 3, any size
    assert kiwi_at(rt, "A5", BOT) == [1] and st.flocks[BOT].leader_hex == "A6"
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 2 to a sand hex", "solo"), ctx)))   # the token moved: the Leader goes
    assert st.flocks[BOT].leader_hex == "A5" and kiwi_at(rt, "A5", BOT) == [1]


def test_R_SOLO_11_gather_and_scatter_steer_the_second_move() -> None:
    """R-SOLO-10 symbols: gather puts the segment's Kiwi in one hex, scatter in different hexes, if possible."""
    rt = blank_solo()
    put(rt, "A7", BOT, 1)
    put(rt, "A5", BOT, 1)
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 1; bot moves my kiwi of size 1; bot gathers", "solo"), bot_ctx())))
    assert kiwi_at(rt, "A6", BOT) == [1, 1]
    rt = blank_solo()
    put(rt, "A7", BOT, 1)
    put(rt, "A5", BOT, 1)
    run(rt, steps(rt, solo.segment_frame(rt, dsl("bot moves my kiwi of size 1; bot moves my kiwi of size 1; bot scatters", "solo"), bot_ctx())))
    where = [h for h in rt.state.hexes if kiwi_at(rt, h, BOT)]
    assert len(where) == 2 and "A7" not in where and "A5" not in where



def test_R_SOLO_10_a_same_size_pusher_pushes_the_player_s_leader_then_goes_on_pushing() -> None:
    """R-SOLO-10/11, R-LEAD-1/4, R-ASYM-5: Kiwibot's size-3 Kiwi, whose side pushes Kiwi of equal size, pushes the
    player's Leader (a size-3 Kiwi) off the island, Kiwibot places it on an edge hex, and the segment's second push
    follows: the player's Kiwi goes off too."""
    r = rules()
    st = new_state(r, [PLAYER, "yellow"], 5, {PLAYER: "chopan", "yellow": "kahu"}, None, {"yellow": "B"},
                   "first-game", game_mode="solo", solo_side="bot-side")
    for hex_id in st.hexes:
        st.set_kiwi(hex_id, ())
    for f in st.seats:
        st.flocks[f].supply = 0
    st.flocks["yellow"].leader_hex, st.flocks[PLAYER].leader_hex = "A9", "A2"
    st.phase, st.season, st.step = "actions", 1, 0
    rt = Runtime(r, st)
    put(rt, "A6", "yellow", 3)
    put(rt, "A2", PLAYER, 1)
    segment = dsl("bot moves my kiwi of size 3; bot pushes up to 2 of the kiwi of an opponent", "solo")
    run(rt, steps(rt, solo.segment_frame(rt, segment, Ctx("yellow", turn=Turn(), source="test"))))
    assert [e.form for e in rt.events] == ["move-kiwi", "push-leader", "push-off"]
    assert st.flocks[PLAYER].leader_hex == "A9" and kiwi_at(rt, "A2", "yellow") == [3]
    assert kiwi_at(rt, "A2", PLAYER) == [] and st.flocks[PLAYER].reserve_kiwi == 1

@pytest.mark.parametrize("setup,expected", [
    ("edge", "off"), ("marker", "A10"), ("nest", "A9"), ("pair", "A5"), ("none", "A7"),
])
def test_R_SOLO_11_pushing_player_kiwi_pattern(setup: str, expected: str) -> None:
    """R-SOLO-11 Pushing player Kiwi: off the island, to a marked hex, to the player's Nest, to the player's pair;
    else the first hex of the marker search."""
    rt = blank_solo()
    st = rt.state
    origin = "A2" if setup == "edge" else "A6"
    put(rt, origin, PLAYER, 1)
    if setup == "marker":
        st.set_domain("A10", (PLAYER, "flower"))
    if setup in ("marker", "nest"):
        st.set_nest("A9", (PLAYER, "tree-1"))
    if setup in ("marker", "nest", "pair"):
        put(rt, "A5", PLAYER, 1, 1)
    theirs = dsl("bot moves my kiwi; bot pushes up to 1 of the kiwi of an opponent", "solo").stmts[1].arg("what")
    piece, dest = solo.best_push(rt, origin, solo.pushable(rt, origin, theirs, solo.Scope(BOT), 2, None))
    assert piece[1].flock == PLAYER and dest == expected


def test_R_SOLO_11_placing_kiwibot_kiwi_makes_pairs_then_triads() -> None:
    """R-SOLO-11 Pushing / placing Kiwibot Kiwi: pairs in a free hex, pairs anywhere, triads in a free hex."""
    rt = blank_solo()
    st = rt.state
    put(rt, "A7", BOT, 1, 1)            # a pair already: a triad only
    put(rt, "A9", BOT, 2)
    st.set_nest("A9", (BOT, "tree-1"))   # a single Kiwi under a Nest: a pair, but not in a free hex
    put(rt, "A11", BOT, 1)              # a single Kiwi in a free hex: the pattern's first step
    st.flocks[BOT].track = 8   # slots 1-3: no benefit that places or grows Kiwi
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot places 1 kiwi", "solo"), bot_ctx())))
    assert kiwi_at(rt, "A11", BOT) == [1, 1]
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot places 1 kiwi", "solo"), bot_ctx())))
    assert kiwi_at(rt, "A9", BOT) == [1, 2]
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot places 1 kiwi", "solo"), bot_ctx())))
    assert kiwi_at(rt, "A7", BOT) == [1, 1, 1]


def test_R_SOLO_11_feeding_pattern_indicated_then_lower_then_size_1() -> None:
    """R-SOLO-11 Feeding and Increasing size: the indicated size, the next lower size, any size-1; by the marker."""
    rt = blank_solo()
    put(rt, "A1", BOT, 2)
    put(rt, "A7", BOT, 1)
    hex_id, kiwi = solo.feed_target(rt, BOT, 2)
    assert (hex_id, kiwi.size) == ("A1", 2)
    hex_id, kiwi = solo.feed_target(rt, BOT, 3)
    assert (hex_id, kiwi.size) == ("A1", 2)
    assert solo.feed_target(rt, PLAYER, 3) is None


def test_R_SOLO_11_taking_tokens_for_the_island_and_for_markers() -> None:
    """R-SOLO-11: tokens for the island come from the track, the Reserve, then the island by the marker; tokens
    for domain markers from the Reserve, the track, then the island."""
    rt = blank_solo()
    fl = rt.state.flocks[BOT]
    fl.track, fl.reserve_kiwi = 3, 2
    assert solo.take_token(rt, BOT, None) == ("track", rules().track_tokens - 2)
    assert solo._cover(rt, BOT, "A6") and fl.reserve_kiwi == 1 and fl.track == 2
    fl.track, fl.reserve_kiwi, fl.supply = 0, 0, 0
    put(rt, "A1", BOT, 2)
    put(rt, "A7", BOT, 3, 1)
    assert solo.take_token(rt, BOT, None) == ("island", 0)
    assert kiwi_at(rt, "A7", BOT) == [3]   # the first hex by the marker (A7), its smallest Kiwi


def test_R_SOLO_11_marking_reveals_until_a_marker_fits_else_gains_one() -> None:
    """R-SOLO-11 Marking Domain: a marker that fits a hex Kiwibot dominates is placed; none fits: gain one."""
    rt = blank_solo(phase="domain_marking")
    st = rt.state
    fl = st.flocks[BOT]
    fl.domain = []
    markers(rt, BOT, "grass", "sand")   # A6 (Leader) is mountain; A1 flower
    put(rt, "A1", BOT, 1)
    fl.reserve_kiwi = 1
    run(rt, steps(rt, solo.MARKING_TURN.start(BOT)))
    # no fitting marker: none placed, one more is drawn instead (the bag may give any terrain)
    assert len(fl.domain) == 3 and {"grass", "sand"} <= set(fl.domain)
    assert sum(1 for h in st.hexes.values() if h.domain) == 0
    fl.domain = ["flower"]
    run(rt, steps(rt, solo.MARKING_TURN.start(BOT)))
    assert st.hexes["A1"].domain == (BOT, "flower") and fl.covers == 1 and fl.reserve_kiwi == 0


def test_R_SOLO_11_no_dominated_hex_no_marker_gained() -> None:
    """R-SOLO-11 (decision): with no hex Kiwibot dominates there is no proper type, so nothing is gained."""
    rt = blank_solo(bot_leader=None, phase="domain_marking")
    fl = rt.state.flocks[BOT]
    before = list(fl.domain)
    run(rt, steps(rt, solo.MARKING_TURN.start(BOT)))
    assert fl.domain == before


def test_R_SOLO_11_explosion_pushes_player_pieces_by_the_pattern() -> None:
    """R-SOLO-11/R-FEED-5: Kiwibot's explosion pushes every piece; the player's go off the island first."""
    rt = blank_solo()
    put(rt, "A2", PLAYER, 3, 1)
    run(rt, steps(rt, solo.effects.run_frame(rt, dsl("bot feeds a kiwi of size 3 of an opponent", "solo"), bot_ctx())))
    assert rt.state.hexes["A2"].kiwi == () and rt.state.flocks[PLAYER].reserve_kiwi == 4


# --- after marking, Season cards and scoring (R-SOLO-5, R-SOLO-6, R-SOLO-9) ------------------------------------------
def test_R_SOLO_9_top_solo_card_discarded_after_each_domain_marking() -> None:
    """R-SOLO-9: after each Domain Marking the top Solo card is discarded; the game ends with the pile used up."""
    g = solo_game(seed=8)
    pile = list(g.state.mode_state.pile)
    discards = []

    def check(game: Game) -> None:
        if game.state.mode_state.discarded != discards[-1:] and game.state.mode_state.discarded:
            discards[:] = list(game.state.mode_state.discarded)
    play(g, 8, check)
    assert g.state.mode_state.discarded == pile and g.state.mode_state.pile == []
    events = [e.data["discarded"] for e in g.events if e.kind == "solo-card"]
    assert events == pile


def _season_position(cards: list[str]) -> Runtime:
    rt = blank_solo(bot_leader="A6", player_leader="B7", phase="season_card")
    rt.state.season_cards = cards + rt.state.season_cards[2:]
    return rt


def test_R_SOLO_5_kiwibot_wins_ties_and_keeps_both_cards() -> None:
    """R-SOLO-5: lose both (ties go to Kiwibot): Kiwibot keeps both cards and takes both left benefits."""
    rt = _season_position(["most-size3", "most-single-hex"])   # Leaders only: 1-1 and 3-3, both ties
    run(rt, steps(rt, solo.SEASON_CARD_STEP.start()))
    bot = rt.state.flocks[BOT]
    assert bot.kept_season_cards == ["most-size3", "most-single-hex"] and bot.season_vp == 1 + 2
    assert rt.state.flocks[PLAYER].season_vp == 0
    sc = score(rt.state)
    assert sc[BOT]["season_cards"] == 3 + 2 and sc[PLAYER]["season_cards"] == 0


def test_R_SOLO_5_player_wins_one_each_takes_the_card_won() -> None:
    """R-SOLO-5: win one: the player takes its left benefit, Kiwibot keeps the other and takes its left benefit."""
    rt = _season_position(["most-size3", "most-single-hex"])
    put(rt, "A1", PLAYER, 3)   # two size-3 (Leader + Kiwi) against one; single hex stays 3-3
    run(rt, steps(rt, solo.SEASON_CARD_STEP.start()))
    player, bot = rt.state.flocks[PLAYER], rt.state.flocks[BOT]
    assert player.season_vp == 1 and player.kept_season_cards == ["most-size3"]   # R-SCARD-3 reminder
    assert bot.season_vp == 2 and bot.kept_season_cards == ["most-single-hex"]
    data = [e.data for e in rt.events if e.kind == "solo-season"][0]
    assert data["won"] == ["most-size3"] and data["kept"] == ["most-single-hex"]


def test_R_SOLO_5_player_wins_both_chooses_one_kiwibot_takes_the_other_and_discards_it() -> None:
    """R-SOLO-5: win both: the player chooses one card's left benefit; Kiwibot takes the other's and discards it."""
    rt = _season_position(["most-size3", "most-single-hex"])
    put(rt, "B7", PLAYER, 3)   # Leader + size-3 on one hex: 6 tokens, and two size-3
    run(rt, steps(rt, solo.SEASON_CARD_STEP.start()), answers=["season-card:most-single-hex"])
    player, bot = rt.state.flocks[PLAYER], rt.state.flocks[BOT]
    assert player.season_vp == 2 and player.kept_season_cards == ["most-single-hex"]
    assert bot.season_vp == 1 and bot.kept_season_cards == []
    assert [e.data["victor"] for e in rt.events if e.kind == "season-card"] == [PLAYER, PLAYER]


def test_R_SOLO_5_right_benefits_are_ignored() -> None:
    """R-SOLO-5: the loser never takes a card's right benefit (most-nests' right side gives a marker)."""
    rt = _season_position(["most-nests", "most-flower"])
    rt.state.set_nest("A1", (PLAYER, "tree-1"))
    rt.state.flocks[PLAYER].nests_built = ["tree-1"]
    markers_before = len(rt.state.flocks[BOT].domain)
    run(rt, steps(rt, solo.SEASON_CARD_STEP.start()))
    # the player wins most-nests (1 VP); Kiwibot wins the flower tie (left: 1 marker) but gets no right benefit
    assert rt.state.flocks[PLAYER].season_vp == 1
    assert len(rt.state.flocks[BOT].domain) <= markers_before + 1


def test_R_SOLO_6_kiwibot_endgame_vp_kept_cards_and_unplaced_markers() -> None:
    """R-SOLO-6: Kiwibot adds 1 VP per kept Season card and 1 VP per 3 unplaced markers (`solo` key)."""
    rt = blank_solo()
    st = rt.state
    bot = st.flocks[BOT]
    bot.kept_season_cards = ["most-size3", "most-sand"]
    bot.season_vp = 2
    bot.domain = ["flower"] * 7
    st.flocks[PLAYER].domain = ["grass"] * 6
    sc = score(st)
    assert sc[BOT]["season_cards"] == 2 + 2 and sc[BOT]["solo"] == 2
    assert sc[BOT]["total"] == sc[BOT]["domain"] + sc[BOT]["nests"] + 4 + 2
    assert sc[PLAYER]["solo"] == 0 and sc[PLAYER]["total"] == sc[PLAYER]["domain"] + sc[PLAYER]["nests"]


# --- views, saves, refusals, whole games -----------------------------------------------------------------------------
def test_R_SOLO_1_views_hide_kiwibot_deck_set_aside_and_face_down_season_cards() -> None:
    """R-SOLO-1/4: the player's view never shows Kiwibot's deck, its set-aside card, nor later Season cards."""
    g = solo_game(seed=13)
    v = g.view(PLAYER)
    text = json.dumps(v)
    bot = v["flocks"][BOT]
    assert "deck" not in bot and bot["deck_count"] == len(g.state.flocks[BOT].deck) and "hand" not in bot
    assert v["solo"]["set_aside_count"] == 1 and g.state.mode_state.set_aside[0] not in json.dumps(v["solo"])
    for c in g.state.season_cards[2:]:
        assert c not in text
    assert "domain" not in bot   # Kiwibot's markers are face down (R-SOLO-8)
    assert g.view(None)["solo"]["kiwibot"] == BOT


def test_R_SOLO_7_json_round_trip_clone_and_refusals_in_solo_games() -> None:
    """R-SOLO-7: a solo game saves and loads at any moment, clones, and refuses bad options without a change."""
    g = solo_game(seed=17)
    r = random.Random(17)
    n = 0
    while not g.is_over:
        if n % 7 == 0:
            text = g.to_json()
            loaded = Game.from_json(ruleset(), text)
            assert loaded.to_json() == text and loaded.pending == g.pending
            assert g.clone().to_json() == text
            for bad, code in (("zzz:nothing", "illegal"), ("BAD ID", "malformed")):
                res = g.apply(bad)
                assert not res.ok and res.code == code and g.to_json() == text
            res = g.apply(g.pending.options[0].id, player=BOT)
            assert not res.ok and res.code == "wrong-player" and g.to_json() == text
        assert g.apply(r.choice(g.pending.options).id).ok
        n += 1
    assert Game.from_json(ruleset(), g.to_json()).scores() == g.scores()
    assert set(g.scores()[BOT]) == {"domain", "nests", "season_cards", "solo", "total"}



@pytest.mark.parametrize("name", ["solo.season_card_step/card", "solo.left_benefit"])
def test_R_SOLO_5_a_format_3_save_inside_the_solo_season_card_step_loads_by_replay(name: str) -> None:
    """A save the engine wrote before the solo procedures were programs (frames with kind/pc/fields: the solo
    Season card step asking which left benefit the player takes, or a left benefit asking where a Kiwi goes) loads
    by replaying its history once, and the game goes on exactly as the old engine went on."""
    case = json.loads((Path(__file__).parent / "saves" / "format3-solo.json").read_text())[name]
    assert case["save"]["format"] == 3
    assert any(f["kind"] == name.split("/")[0] for f in case["save"]["frames"])
    with pytest.warns(OldSaveWarning, match="replayed once"):
        game = Game.from_json(ruleset(), json.dumps(case["save"]))
    assert game.pending.to_dict() == case["save"]["pending"]
    for choice in case["then"]:
        assert game.apply(choice).ok
    assert game.state.to_dict() == case["after"]
    saved = json.loads(game.to_json())
    assert saved["format"] == 4 and Game.from_json(ruleset(), json.dumps(saved)).state.to_dict() == case["after"]

def _violations(game: Game) -> list[str]:
    """Component accounting of a solo game (R-COMP-1/2, R-SOLO-1/8)."""
    st = game.state
    g = dict(ruleset().game)
    out = []
    tokens = int(g["flock"]["kiwi_tokens"])
    fruit = sum(st.fruit_bag.values()) + sum(sum(st.flocks[f].fruit.values()) for f in st.seats)
    dom = (sum(st.domain_bag.values()) + sum(len(st.flocks[f].domain) for f in st.seats)
           + sum(1 for h in st.hexes.values() if h.domain))
    if fruit != sum(g["components"]["fruit"].values()):
        out.append(f"fruit {fruit}")
    if dom != sum(g["components"]["domain"].values()):
        out.append(f"markers {dom}")
    for f in st.seats:
        fl = st.flocks[f]
        n = st.island_tokens(f) + fl.track + fl.reserve_kiwi + fl.covers + fl.supply
        if n != tokens:
            out.append(f"{f}: {n} tokens")
        if fl.covers != sum(1 for h in st.hexes.values() if h.domain and h.domain[0] == f):
            out.append(f"{f}: covers")
        if any(k.size > 3 or k.size < 1 for h in st.hexes.values() for k in h.kiwi):
            out.append("a Kiwi size out of range")
        if st.phase != "setup" and fl.leader_hex not in st.hexes:
            out.append(f"{f}: Leader off the island")
    bot = st.flocks[st.mode_state.bot]
    if sum(bot.fruit.values()) or bot.hand or bot.leader_used:
        out.append("Kiwibot has fruit, a hand or used its Leader")
    cards = len(bot.deck) + len(bot.played) + len(bot.discard) + len(st.mode_state.set_aside)
    if cards != sum(rules().deck.values()):
        out.append(f"Kiwibot has {cards} Action cards")
    return out


@pytest.mark.parametrize("seed", range(8))
def test_R_SOLO_1_to_12_whole_random_solo_games_keep_every_invariant(seed: int) -> None:
    """R-SOLO-1..12: whole solo games (random player; sides, marker sides and setups varied) keep every
    component accounted for after each decision, end with the pile used up and score Kiwibot's extras."""
    flocks = ["red", "green", "purple", "yellow"]
    player, bot = flocks[seed % 4], flocks[(seed + 1) % 4]
    g = Game.new(ruleset(), players=[player, bot], seed=100 + seed, mode="solo",
                 solo_side=[None, "bot-side", "player-side"][seed % 3],
                 sides={player: "B", bot: "B"} if seed % 2 else None,
                 setup="advanced" if seed % 4 == 3 else "first-game")
    global PLAYER
    saved, PLAYER = PLAYER, player
    try:
        problems: list[str] = []

        def check(game: Game) -> None:
            found = _violations(game)
            if found and len(problems) < 5:
                problems.append("; ".join(found))
        play(g, seed, check)
    finally:
        PLAYER = saved
    assert not problems, problems
    assert g.is_over and g.state.mode_state.pile == []
    sc = g.scores()
    kept, extra = solo.endgame_vp(g.state, bot)
    assert sc[bot]["solo"] == extra == len(g.state.flocks[bot].domain) // 3
    assert sc[bot]["total"] == sc[bot]["domain"] + sc[bot]["nests"] + sc[bot]["season_cards"] + extra
    assert g.ranking()[0] in (player, bot)
