"""Seats and secrets over the protocol: a seat's token reads only
that seat's view and pending options and acts only for that seat; a spectator sees the spectator view; and the
views a token gets do not change when everything it may not see is resampled."""
from __future__ import annotations

import json
import random

import pytest

from test_service_protocol import InProcess, SEED


def four_humans(client: InProcess, **create) -> dict:
    made = client.request("create", seats=[{"kind": "human"}] * 4, seed=SEED, **create)
    assert made["ok"], made
    return made


def test_a_token_never_reads_another_seats_options_nor_acts_for_it() -> None:
    client = InProcess()
    made = four_humans(client)
    tokens = made["tokens"]
    assert len(set(tokens.values()) | {made["spectator"]}) == 5
    rng = random.Random(1)
    for _ in range(60):
        views = {f: client.request("view", token=t)["view"] for f, t in tokens.items()}
        spectator = client.request("view", token=made["spectator"])["view"]
        turn = views["red"]["pending"]["player"]
        for flock, view in views.items():
            assert view["you"] == flock
            mine = view["pending"]["options"]
            assert bool(mine) == (flock == turn)
            for other, fv in view["flocks"].items():
                assert ("hand" in fv) == (other == flock) and ("hand_count" in fv) == (other != flock)
            pending = client.request("pending", token=tokens[flock])
            assert pending["your_turn"] == (flock == turn) and bool(pending["pending"]["options"]) == (flock == turn)
        assert spectator["you"] is None and spectator["pending"]["options"] == []
        assert all("hand" not in fv for fv in spectator["flocks"].values())
        options = views[turn]["pending"]["options"]
        choice = options[rng.randrange(len(options))]["id"]
        for flock in tokens:
            if flock != turn:   # another seat's token cannot answer this seat's decision
                refused = client.request("apply", token=tokens[flock], option=choice)
                assert refused["error"]["code"] == "not-your-turn", refused
        refused = client.request("apply", token=made["spectator"], option=choice)
        assert refused["error"]["code"] == "spectator"
        assert client.request("apply", token=tokens[turn], option=choice)["ok"]


def test_an_open_seat_is_claimed_once_and_a_wrong_token_is_refused() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "open"}], seed=SEED)
    assert set(made["tokens"]) == {"red"}
    claimed = client.request("join", game=made["game"], seat="green")
    assert claimed["ok"] and claimed["seat"] == "green" and claimed["view"]["you"] == "green"
    again = client.request("join", game=made["game"], seat="green")
    assert again["error"]["code"] == "seat-taken"
    assert client.request("join", game=made["game"], seat="purple")["error"]["code"] == "unknown-seat"
    bad = client.request("view", token="x" * 43)
    assert bad["error"]["code"] == "bad-token"
    assert client.request("view", token=claimed["token"])["view"]["you"] == "green"


def test_pushes_go_to_each_follower_rendered_for_its_own_seat() -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "human"}], seed=SEED)
    red_conn, green_conn = [], []
    red = client.hub.connect(red_conn.append)
    green = client.hub.connect(green_conn.append)
    for conn, flock in ((red, "red"), (green, "green")):
        client.hub.handle(conn, json.dumps({"protocol": 1, "op": "join", "token": made["tokens"][flock]}))
    view = client.request("view", token=made["tokens"]["red"])["view"]
    flock = view["pending"]["player"]
    opt = client.request("pending", token=made["tokens"][flock])["pending"]["options"][0]["id"]
    client.request("apply", token=made["tokens"][flock], option=opt)
    assert red_conn and green_conn
    for pushes, me in ((red_conn, "red"), (green_conn, "green")):
        push = pushes[-1]
        assert push["view"]["you"] == me
        assert push["your_turn"] == (push["turn"] == me)
        assert bool(push["view"]["pending"]["options"]) == (push["turn"] == me)


# --- the resample-hidden-state leak test ------------------------------------------------------------------------
def resample(state, viewer: str | None, rng: random.Random) -> None:
    """Change, in place, everything `viewer` may not see: others' hands, deck orders and contents, others'
    face-down cards and domain markers, the bags' contents and the RNG (sizes and counts kept: those are public)."""
    terrains = sorted({t for f in state.flocks.values() for t in f.domain} | set(state.domain_bag)) or ["x"]
    for flock_id, f in state.flocks.items():
        cards = sorted({c for g in state.flocks.values() for c in g.hand + g.deck + g.played + g.discard})
        if flock_id != viewer:
            pool = f.hand + f.deck
            rng.shuffle(pool)
            pool = [rng.choice(cards) for _ in pool] if rng.random() < 0.5 else pool
            f.hand, f.deck = pool[:len(f.hand)], pool[len(f.hand):]
            f.domain = [rng.choice(terrains) for _ in f.domain]
            for i in f.facedown:
                f.played[i] = rng.choice(cards)
        else:
            rng.shuffle(f.deck)   # the order of one's own deck is hidden too
    for bag in (state.fruit_bag, state.domain_bag):
        total, keys = sum(bag.values()), sorted(bag)
        cuts = sorted(rng.randint(0, total) for _ in keys[:-1])
        counts = [b - a for a, b in zip([0] + cuts, cuts + [total])]
        bag.update(dict(zip(keys, counts)))
    state.rng = rng.getrandbits(64)


@pytest.mark.parametrize("seed,players,variant", [(SEED, 2, None), (5, 3, None), (11, 4, "vto")])
def test_views_over_the_protocol_do_not_change_when_hidden_state_is_resampled(seed, players, variant) -> None:
    client = InProcess()
    made = client.request("create", seats=[{"kind": "human"}] * players, seed=seed, variant=variant)
    tokens = dict(made["tokens"], spectator=made["spectator"])
    live = client.hub.live[made["game"]]
    rng = random.Random(seed)
    checked = 0
    while not live.game.is_over:
        if rng.random() < 0.15:
            reveal = live.game.state.season >= 4 and live.game.state.phase in ("domain_marking", "over")
            for who, token in tokens.items():
                viewer = None if who == "spectator" else who
                before = client.request("view", token=token)
                events_before = client.request("events", token=token, since=0)
                original = live.game
                twin = original.clone()
                if not reveal:
                    resample(twin.state, viewer, rng)
                live.game = twin
                try:
                    after = client.request("view", token=token)
                    events_after = client.request("events", token=token, since=0)
                finally:
                    live.game = original
                assert after["view"] == before["view"], f"{who} sees a change of hidden state at {live.seq}"
                assert events_after["events"] == events_before["events"]
                checked += 1
        pending = live.game.pending
        option = pending.options[rng.randrange(len(pending.options))].id
        assert client.request("apply", token=tokens[pending.player], option=option)["ok"]
    assert checked > 30


def test_R_PAY_1_a_payment_with_domain_markers_shows_their_terrains_only_to_the_payer() -> None:
    client = InProcess()
    terrains = ("flower", "grass", "mountain", "sand")
    paid_with_markers = 0
    for seed in range(6):
        made = client.request("create", seats=[{"kind": "human"}] * 3, seed=seed)
        tokens = dict(made["tokens"], spectator=made["spectator"])
        live = client.hub.live[made["game"]]
        rng = random.Random(seed)
        while not live.game.is_over:   # prefer payments with markers: they are what may leak
            options = live.game.pending.options
            marked = [o for o in options if o.action.kind == "pay" and o.action.markers]
            option = (marked or options)[rng.randrange(len(marked or options))].id
            assert client.request("apply", token=tokens[live.turn()], option=option)["ok"]
        logs = {who: client.request("events", token=t, since=0)["events"] for who, t in tokens.items()}
        for n, event in enumerate(live.game.events):
            if event.form != "pay" or not event.fields["markers"]:
                continue
            paid_with_markers += 1
            for who, log in logs.items():
                seen = log[n]
                named = any(f"{t} marker" in seen["text"] for t in terrains)
                assert named == (who == event.player), (who, seen)
                assert ("markers" in seen["fields"]) == (who == event.player)
            view_logs = client.request("view", token=tokens["spectator"])["view"]["log"]
            assert not any(f"{t} marker" in line for line in view_logs for t in terrains)
    assert paid_with_markers > 0
