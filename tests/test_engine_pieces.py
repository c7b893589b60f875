"""Pieces with ids: every Kiwi stack, Leader, Nest and placed domain marker has a stable id for
its lifetime; actions and events name pieces by id (interpreter/core/pieces.py)."""
from __future__ import annotations

import random

import pytest
from test_engine_support import ruleset

from kcd.engine import Game
from kcd.core.pieces import action_pieces, event_pieces, pieces

# kinds whose piece exists before the action (a Build's Nest choice and a Mark create theirs)
_EXISTING = {"kiwi", "leader"}
# event forms after which the Kiwi they name may be off the island
_TAKE_OFF = {"push-off", "explode", "remove", "remove-piece", "token", "shrink", "kiwibot-token"}


def _count(st) -> int:
    """Pieces on the island counted from the state's own records."""
    return (sum(len(h.kiwi) + (h.nest is not None) + (h.domain is not None) for h in st.hexes.values())
            + sum(st.flocks[f].leader_hex is not None for f in st.seats))


@pytest.mark.parametrize("seed,players,variant", [(1, 2, None), (2, 3, None), (3, 4, "vto")])
def test_piece_ids_are_unique_and_stable_for_each_piece_lifetime(seed, players, variant):
    flocks = ["red", "green", "purple", "yellow"][:players]
    game = Game.new(ruleset(), players=flocks, seed=seed, variant=variant)
    r = random.Random(seed)
    seen: dict[str, tuple] = {}
    named = {"action": 0, "event": 0}
    while not game.is_over:
        st = game.state
        now = pieces(st)
        assert len(now) == _count(st)
        for pid, p in now.items():
            # a piece keeps its kind and flock all its life; Nests and markers never leave their hex
            fixed = (p["kind"], p["flock"]) + ((p["hex"],) if p["kind"] in ("nest", "marker") else ())
            assert seen.setdefault(pid, fixed) == fixed, pid
        option = r.choice(game.pending.options)
        for pid in action_pieces(option.action, game.pending.player):
            named["action"] += 1
            kind = pid.split("-", 1)[0]
            if kind in _EXISTING:
                assert pid in now, (option.id, pid)
        first_new = st.next_kiwi
        result = game.apply(option.id)
        after = pieces(game.state)
        for e in result.events:
            for pid in event_pieces(e):
                named["event"] += 1
                if pid.startswith("kiwi-"):
                    kiwi = e.fields["kiwi"]
                    # a Kiwi an event names was on the island before or is new (`place`); it may be gone after
                    # only by an event that takes it off the island
                    assert pid in now or kiwi >= first_new, (e.form, pid)
                    assert pid in after or e.form in _TAKE_OFF, (e.form, pid)
                    if pid in now:
                        assert now[pid]["flock"] == e.fields.get("owner", e.player), (e.form, pid)
                else:
                    assert pid in after, (e.form, pid)
    assert named["action"] > 20 and named["event"] > 5
    assert any(k.startswith("nest-") for k in seen) and any(k.startswith("marker-") for k in seen)


def test_views_show_the_piece_ids():
    game = Game.new(ruleset(), players=["red", "green"], seed=4)
    v = game.view("red")
    assert v["flocks"]["red"]["leader_piece"] == "leader-red"
    on_island = {p for h in v["hexes"].values() for p in h["leader_pieces"]}
    assert on_island == {"leader-red", "leader-green"} == {k for k in pieces(game.state) if k.startswith("leader-")}


# action kinds naming a Kiwi, and the event forms that report what happened to that very Kiwi
_REPORTED = {"move": {"move-kiwi"}, "push": {"push", "push-off"}, "feed": {"feed", "explode"},
             "grow": {"grow", "no-growth"}, "remove": {"remove"}, "take-token": {"token"}}


@pytest.mark.parametrize("seed,players,kw", [(5, 4, {}), (6, 2, {"mode": "solo"}), (7, 3, {"setup": "advanced"})])
def test_events_name_the_kiwi_the_action_named(seed, players, kw):
    """A decision that names a Kiwi stack by id (move, push, feed, grow, remove, take a token) is reported by an event
    whose `kiwi` field is that id; a placed Kiwi's event names the new stack, which stands on that hex."""
    flocks = ["red", "green", "purple", "yellow"][:players]
    game = Game.new(ruleset(), players=flocks, seed=seed, **kw)
    r = random.Random(seed)
    reported = placed = 0
    waiting: list[tuple[int, set[str], str, int]] = []   # (kiwi, forms, option id, decisions left to report it)
    while not game.is_over:
        option = r.choice(game.pending.options)
        action = option.action
        result = game.apply(option.id)
        forms = _REPORTED.get(action.kind)
        if forms:   # reported by this decision's events, or those after the payment it asks for
            waiting.append((action.kiwi, forms, option.id, 4))
        if action.kind == "take-none":   # a growth the player declined (no token taken): `no-token` says so
            waiting = [w for w in waiting if "grow" not in w[1]]
        left = []
        for kiwi, forms, oid, n in waiting:
            if any(e.form in forms and e.fields["kiwi"] == kiwi for e in result.events):
                reported += 1
            else:
                assert n > 1, f"{oid}: no event names Kiwi {kiwi}"
                left.append((kiwi, forms, oid, n - 1))
        waiting = left
        for i, e in enumerate(result.events):
            if e.form == "place":   # the new stack is on its hex, unless a later event names it (Kiwibot moves on)
                new = e.fields["kiwi"]
                assert (new in {k.id for k in game.state.hexes[e.fields["hex"]].kiwi}
                        or any((later.fields or {}).get("kiwi") == new for later in result.events[i + 1:]))
                placed += 1
    assert reported > 10 and placed > 3


def test_a_save_whose_pending_option_names_a_piece_not_there_is_refused():
    """A loaded save's pending options name pieces by id: a Kiwi id that is not that flock's stack of that size on
    that hex (or a Leader not on its hex) is a ValueError, not a crash later (action_problem)."""
    import json

    from kcd.core.pieces import action_problem

    game = Game.new(ruleset(), players=["red", "green"], seed=3)
    r = random.Random(3)
    while not any(getattr(o.action, "kiwi", None) is not None for o in game.pending.options):
        game.apply(r.choice(game.pending.options).id)
    assert all(action_problem(game.state, o.action) is None for o in game.pending.options)
    data = json.loads(game.to_json())
    named = next(o for o in data["pending"]["options"] if "kiwi" in o["action"])
    others = [k[0] for h in data["state"]["hexes"] for k in h[4] if k[0] != named["action"]["kiwi"]]
    named["action"]["kiwi"] = others[0]
    with pytest.raises(ValueError, match="names Kiwi"):
        Game.from_json(ruleset(), json.dumps(data))
