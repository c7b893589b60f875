"""Variable Turn Order variant (R-VTO-1..5): `Game.new(..., variant="vto")`, the turn tracker and Wake up."""
from __future__ import annotations

import random

import pytest
from test_engine_support import blank_runtime, fruit, markers, ruleset, rules, totals

from kcd.engine import Game
from kcd.modes.vto import procedures as vto
from kcd.engine.context import Ctx
from kcd.content.rules import compile_rules
from kcd.engine.setup import SetupError
from kcd.testing import drive, play_random, steps

PLAYERS = ["red", "green", "purple"]


def _answer(game: Game, wanted: dict[str, str] | None = None, r: random.Random | None = None) -> None:
    """Answer the pending decision: the wanted option for its kind if given and legal, else a random/first one."""
    d = game.pending
    opt = (wanted or {}).get(d.kind)
    if opt is None or opt not in d.option_ids():
        opt = (r or random.Random(0)).choice(d.options).id if r else d.options[0].id
    assert game.apply(opt).ok


def _until(game: Game, pred, r: random.Random, limit: int = 3000) -> None:
    for _ in range(limit):
        if pred(game):
            return
        _answer(game, r=r)
    raise AssertionError("condition never reached")


def _vto_game(slots: dict[str, int], players=PLAYERS, seed: int = 3) -> Game:
    """A VTO game whose setup tracker choices are `slots` (other setup decisions: first option)."""
    game = Game.new(ruleset(), players=list(players), seed=seed, variant="vto")
    while game.pending.kind != "card":
        d = game.pending
        if d.kind == "tracker-slot":
            game.apply(f"slot:{slots[d.player]}")
        else:
            game.apply(d.options[0].id)
    return game


def test_R_VTO_1_variant_adds_wake_up_phase_from_content():
    """R-VTO-1: the variant's season board has a fifth phase, Wake up, first in the season; the phases and
    the tracker slots come from content (game.yaml phases, turn_order.yaml tracker)."""
    r = rules()
    assert r.vto_phases == ["wake_up"] + r.phases
    assert sorted(r.tracker) == [1, 2, 3, 4, 5, 6]
    game = Game.new(ruleset(), players=PLAYERS, seed=1, variant="vto")
    assert vto.phases(game.rt) == r.vto_phases
    assert vto.phases(Game.new(ruleset(), players=PLAYERS, seed=1).rt) == r.phases
    seen = []
    rnd = random.Random(1)
    while not game.is_over:
        key = (game.state.season, game.state.phase)
        if not seen or seen[-1] != key:
            seen.append(key)
        _answer(game, r=rnd)
    # Wake up asks questions in seasons 2-4 only (season 1 starts with Season Change, R-VTO-3)
    assert (1, "wake_up") not in seen and all((s, "wake_up") in seen for s in (2, 3, 4))


def test_R_VTO_1_phases_overridable_by_game_yaml_variants():
    """R-VTO-1: a game.yaml `variants.vto.phases` list replaces the default phase list (content, not code)."""
    base = ruleset()

    class Patched:
        game = dict(base.game, variants={"vto": {"phases": ["wake_up", "season_change", "actions", "domain_marking"]}})
        hash = "patched"

        def items(self, kind):
            return base.items(kind)

    assert compile_rules(Patched()).vto_phases == ["wake_up", "season_change", "actions", "domain_marking"]


def test_R_VTO_1_bad_variant_is_a_clear_error():
    """R-VTO-1: only None and "vto" are variants; anything else is a SetupError naming the choices."""
    with pytest.raises(SetupError, match="variant must be None or 'vto'"):
        Game.new(ruleset(), players=PLAYERS, seed=1, variant="turbo")


def test_R_VTO_2_setup_tokens_on_empty_slots_in_turn_order_nest_order():
    """R-VTO-2: in Turn Order nest (seat) order each puts the first token of its track on an empty slot, with
    no track benefit, and gains or pays the slot's effect."""
    game = Game.new(ruleset(), players=PLAYERS, seed=5, variant="vto")
    asked = []
    wanted = {"red": 6, "green": 3, "purple": 1}
    before = {}
    while game.pending.kind != "card":
        d = game.pending
        if d.kind == "tracker-slot":
            asked.append((d.player, d.option_ids()))
            fl = game.state.flocks[d.player]
            before[d.player] = (sum(fl.fruit.values()), len(fl.domain), fl.track)
            game.apply(f"slot:{wanted[d.player]}")
        else:
            game.apply(d.options[0].id)
    assert [p for p, _ in asked] == ["red", "green", "purple"]
    assert asked[0][1] == [f"slot:{n}" for n in range(1, 7)]
    assert "slot:6" not in asked[1][1] and "slot:6" not in asked[2][1] and "slot:3" not in asked[2][1]
    st = game.state
    for f in PLAYERS:
        fl = st.flocks[f]
        assert fl.on_tracker == 1 and fl.tracker_slot == wanted[f] and fl.track == 7
    red, green, purple = (st.flocks[f] for f in PLAYERS)
    assert (sum(red.fruit.values()), len(red.domain)) == (before["red"][0] - 1, before["red"][1] - 1)   # slot 6 pays
    assert sum(green.fruit.values()) == before["green"][0] + 2                                      # slot 3: 2 fruit
    assert sum(purple.fruit.values()) == before["purple"][0] + 1                                    # slot 1: 1 fruit
    assert not any(e.kind == "track" for e in game.events)                                         # no track benefit
    t = totals(st)
    assert all(n == rules().kiwi_tokens for n in t["tokens"].values())


def test_R_VTO_3_slot_costs_paid_only_if_possible():
    """R-VTO-3: a slot's payment is made "if possible": each payment the player can make is made, the others
    are skipped, and the slot is taken anyway."""
    rt = blank_runtime(phase="wake_up", season=2)
    effect = rt.rules.tracker[6].effect
    fruit(rt, "red", blue=1)
    drive(steps(rt, vto.RUN_IF_POSSIBLE.start(effect, Ctx("red"))))
    fl = rt.state.flocks["red"]
    assert sum(fl.fruit.values()) == 0 and fl.domain == []
    assert any("cannot pay" in e.text for e in rt.events)
    markers(rt, "green", "sand", "sand")
    # each payment is asked though one way is left: the markers' terrains are green's secret (R-SETUP-4)
    _, asked = drive(steps(rt, vto.RUN_IF_POSSIBLE.start(effect, Ctx("green"))), ["pay:marker-sand", "pay:marker-sand"])
    assert [d.kind for d in asked] == ["pay", "pay"]
    # the domain marker pays the marker; the remaining one stands in for the fruit (R-PAY-1)
    assert rt.state.flocks["green"].domain == []
    drive(steps(rt, vto.RUN_IF_POSSIBLE.start(effect, Ctx("green"))))   # nothing left: nothing paid, no error


def test_R_VTO_3_wake_up_passes_marker_and_moves_to_a_different_slot():
    """R-VTO-3: at the start of seasons 2-4 the First Player marker passes left; every token is marked below
    its previous slot; from the marker holder clockwise each takes a different empty slot and its effect."""
    game = _vto_game({"red": 1, "green": 2, "purple": 3})
    rnd = random.Random(2)
    _until(game, lambda g: g.state.phase == "wake_up" and g.pending.kind == "tracker-slot", rnd)
    st = game.state
    assert st.season == 2 and st.seats[st.first] == "green"        # passed left once, from red
    assert game.view(None)["first_player"] == "green"
    assert {f: st.flocks[f].tracker_prev for f in PLAYERS} == {"red": 1, "green": 2, "purple": 3}
    assert all(st.flocks[f].tracker_slot is None for f in PLAYERS)
    order, offered = [], {}
    while st.phase == "wake_up":
        d = game.pending
        if d.kind == "tracker-slot":
            order.append(d.player)
            offered[d.player] = d.option_ids()
            taken = {st.flocks[f].tracker_slot for f in PLAYERS}
            assert all(int(o.split(":")[1]) not in taken for o in d.option_ids())
            domain_before = len(st.flocks[d.player].domain)
            choice = "slot:2" if "slot:2" in d.option_ids() else d.options[0].id
            game.apply(choice)
            if choice == "slot:2" and d.player != "green":
                assert len(st.flocks[d.player].domain) >= domain_before   # gained a marker (green power aside)
        else:
            _answer(game, r=rnd)
    assert order == ["green", "purple", "red"]
    assert "slot:2" not in offered["green"] and "slot:3" not in offered["purple"] and "slot:1" not in offered["red"]
    assert all(st.flocks[f].tracker_slot != st.flocks[f].tracker_prev for f in PLAYERS)
    _until(game, lambda g: g.state.phase == "actions", rnd)
    assert st.seats[st.first] == "green"                            # Season Change did not pass it again


def test_R_VTO_4_turn_order_follows_the_tracker():
    """R-VTO-4: each season's turn order is the tracker's slot order (Actions, Season card, Domain Marking);
    the First Player marker only says who chooses first in Wake up."""
    game = _vto_game({"red": 5, "green": 1, "purple": 3})
    v = game.view(None)
    assert v["turn_order"] == ["green", "purple", "red"] and v["first_player"] == "red"
    assert v["variant"] == "vto" and v["tracker"]["red"] == {"slot": 5, "previous": None}
    players = []
    rnd = random.Random(4)
    while game.state.phase == "actions":
        if game.pending.kind == "card":
            players.append(game.pending.player)
        _answer(game, {"play-mode": "facedown", "may": "may:no"}, rnd)
    assert players == ["green", "purple", "red"] * 3


def test_R_VTO_5_tracker_slot_effects_from_content():
    """R-VTO-5: slot 1 gains 1 fruit, slot 2 1 domain marker, slot 3 2 fruit, slot 6 pays 1 marker and 1 fruit."""
    t = rules().tracker

    def calls(n):
        return [(c.primitive, dict(c.args).get("n")) for c in t[n].effect.stmts]

    assert calls(1) == [("gain-fruit", 1)]
    assert calls(2) == [("gain-domain", 1)]
    assert calls(3) == [("gain-fruit", 2)]
    assert calls(6) == [("pay-domain", 1), ("pay-fruit", 1)]


@pytest.mark.parametrize("n,seed", [(2, 11), (4, 12)])
def test_R_VTO_2_R_VTO_3_full_games_account_for_every_token_and_replay(n, seed):
    """R-VTO-2/3: whole random VTO games keep every token accounted for (one on the tracker) and a mid-game
    save replays to the same state (R-VTO-4 order included)."""
    players = ["red", "green", "purple", "yellow"][:n]
    game = Game.new(ruleset(), players=players, seed=seed, variant="vto")

    def check(g):
        t = totals(g.state)
        assert all(v == rules().kiwi_tokens for v in t["tokens"].values()), t
        if g.state.phase in ("actions", "domain_marking"):
            slots = [g.state.flocks[f].tracker_slot for f in players]
            assert None not in slots and len(set(slots)) == n

    rnd = random.Random(seed)
    for _ in range(150):
        _answer(game, r=rnd)
    loaded = Game.from_json(ruleset(), game.to_json())
    assert loaded.state.to_dict() == game.state.to_dict() and loaded.state.variant == "vto"
    play_random(game, seed, check)
    assert game.is_over and set(game.scores()) == set(players)
