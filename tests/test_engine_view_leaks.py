"""Views leak nothing (GUIDE "hidden information never reaches a view, a label or a log line meant for someone
else"): resample what a player cannot see and compare everything that player sees.

1. At many moments of random games, every viewer's whole view (board, resources, the pending decision with its
   prompt and option labels when it is theirs, and the log as `text_for(viewer)`) is identical on states that
   differ only in what that viewer cannot see: other hands and deck orders, cards others played face down, their
   domain reserves and the bag, the RNG.
2. Events: games started from such twin states (others' reserves and the marker bag resampled) and played
   with the same public choices give every other viewer the same log, line for line. Before events were data,
   "red pays mountain marker, sand marker" showed face-down markers to everyone.
3. Every event has a form of interpreter/core/events.py with exactly its declared fields, and its full text
   is the owner's `text_for`.
"""
from __future__ import annotations

import json
import random

import pytest
from test_engine_support import ruleset

from kcd.content import load_ruleset

from kcd.engine import Game
from kcd.core.events import FORMS, OWNER
from kcd.core.state import State
from kcd.testing import first_difference, indistinguishable, reserves_revealed, views_leak


def test_views_are_the_same_on_states_a_viewer_cannot_tell_apart() -> None:
    """Resample what each viewer cannot see at 150 moments of standard, VTO and solo games: the same view."""
    rng = random.Random(1)
    checked = 0
    for seed, players, kw in [(1, ["red", "green", "purple"], {}), (2, ["red", "green", "purple", "yellow"], {"variant": "vto"}),
                              (3, ["green", "red"], {"mode": "solo"})]:
        game = Game.new(ruleset(), players=players, seed=seed, **kw)
        play = random.Random(seed)
        while not game.is_over:
            if play.random() < 0.25:
                assert views_leak(game, rng) is None, seed   # every seat's view and the spectator's
                checked += len(game.state.seats) + 1
            game.apply(play.choice(game.pending.options).id)
    assert checked > 150


def _public(action, decider: str, viewer: str | None) -> str:
    """What `viewer` sees of a choice `decider` makes: everything for their own, no marker terrains otherwise."""
    data = action.to_dict()
    if decider != viewer:
        if data["kind"] == "pay":
            data["markers"] = len(data["markers"])
        if data["kind"] == "return-marker":
            data["terrain"] = None
    return json.dumps(data, sort_keys=True)


def test_event_texts_do_not_depend_on_what_the_viewer_cannot_see() -> None:
    """Twin games (others' reserves and the bag resampled) played with the same public choices: each viewer's
    log is the same line for line as long as everything else they see is the same."""
    rng = random.Random(5)
    compared = paid_markers = 0
    for seed in range(10):
        players = ["red", "green", "purple", "yellow"][: 2 + seed % 3]
        game = Game.new(ruleset(), players=players, seed=seed)
        play = random.Random(seed)
        while not game.is_over:
            if game.step_depth == 0 and play.random() < 0.15 and not reserves_revealed(game):
                viewer = play.choice(list(game.state.seats) + [None])
                a = Game.from_state(ruleset(), State.from_dict(game.state.to_dict()))
                b = Game.from_state(ruleset(), indistinguishable(game.state, viewer, rng, cards=False))
                for _ in range(40):
                    if a.is_over or reserves_revealed(a):
                        break
                    decision = a.pending
                    chosen = play.choice(decision.options)
                    key = _public(chosen.action, decision.player, viewer)
                    twin = next((o for o in b.pending.options if _public(o.action, decision.player, viewer) == key), None)
                    if twin is None:
                        break   # the worlds part in public (a marker only one of them holds was placed)
                    assert a.apply(chosen.id).ok and b.apply(twin.id).ok
                    seen_a, seen_b = a.view(viewer), b.view(viewer)
                    seen_a.pop("log"), seen_b.pop("log")
                    if seen_a != seen_b:
                        break   # the worlds part in public (someone could mark in one world only)
                    assert [e.text_for(viewer) for e in a.events] == [e.text_for(viewer) for e in b.events], viewer
                    compared += 1
                    paid_markers += sum(1 for e in a.events[-3:] if e.form == "pay" and e.fields["markers"]
                                        and e.player != viewer)
            game.apply(play.choice(game.pending.options).id)
    assert compared > 500 and paid_markers > 5


def test_a_payment_with_markers_reads_differently_for_the_payer_and_the_others() -> None:
    """The payer's log names the terrains; everyone else's, and the spectator's, says how many markers."""
    game = Game.new(ruleset(), players=["red", "green", "purple"], seed=2)
    play = random.Random(2)
    while not any(e.form == "pay" and e.fields["markers"] for e in game.events):
        game.apply(play.choice(game.pending.options).id)
    event = next(e for e in game.events if e.form == "pay" and e.fields["markers"])
    terrains = event.fields["markers"]
    assert event.text_for(event.player) == event.text and all(f"{t} marker" in event.text for t in terrains)
    for viewer in [f for f in game.state.seats if f != event.player] + [None]:
        text = event.text_for(viewer)
        assert not any(f"{t} marker" in text for t in terrains), text
        assert f"{len(terrains)} domain marker" in text
    assert event.text_for(OWNER) == event.text


def test_every_event_is_data_of_a_declared_form() -> None:
    """Every event of random standard, VTO and solo games names a form, carries exactly its fields (JSON data),
    and its text is the form rendered for its owner."""
    seen: set[str] = set()
    for seed, players, kw in [(4, ["red", "green", "purple", "yellow"], {"sides": dict.fromkeys(["red", "green", "purple", "yellow"], "B")}),
                              (5, ["red", "green", "purple"], {"variant": "vto"}), (6, ["green", "red"], {"mode": "solo"}),
                              (7, ["yellow", "purple"], {"mode": "solo", "setup": "advanced"})]:
        game = Game.new(ruleset(), players=players, seed=seed, **kw)
        play = random.Random(seed)
        while not game.is_over:
            game.apply(play.choice(game.pending.options).id)
        for e in game.events:
            spec = FORMS[e.form]
            assert e.kind == spec.kind and set(e.fields) == set(spec.fields), (e.form, e.fields)
            assert e.text_for(OWNER) == e.text and json.loads(json.dumps(e.to_data()))["form"] == e.form
            seen.add(e.form)
    assert len(seen) >= 35


# --- who decides next, and the order of events (issue: auto-answered decisions) ---------------------------
def _public_choice(action, decider: str, viewer: str | None) -> str:
    """What `viewer` will know of a choice: all of their own; of someone else's, no marker terrain and the card only
    once it is played (an unmatched card parts the worlds in public)."""
    data = json.loads(_public(action, decider, viewer))
    return json.dumps(data, sort_keys=True)


def _own(view: dict, viewer: str | None) -> str:
    """The viewer's own private part of a view (hand, reserve): when it differs the viewer has learned something."""
    if viewer is None:
        return ""
    mine = view["flocks"][viewer]
    return json.dumps([mine.get("hand"), mine.get("domain"), mine.get("played")], sort_keys=True)


def _twins_agree(game: Game, viewer: str | None, rng: random.Random, play: random.Random, steps: int) -> int:
    """Play `game` and a twin whose hidden facts were resampled with the same public choices; every view of
    `viewer` (board, counts, the pending decision's player and kind, the log line for line) is the same until
    the worlds part in public (a card or marker only one of them holds is played, or the viewer draws). Returns
    the comparisons made."""
    start = json.loads(game.to_json())["checkpoint"]   # the running step's start: it is asked afresh in both
    a = Game.from_state(game.ruleset, State.from_dict(start))
    b = Game.from_state(game.ruleset, indistinguishable(State.from_dict(start), viewer, rng, keep=True))
    compared = 0
    for _ in range(steps):
        if a.is_over or reserves_revealed(a):
            break
        seen_a, seen_b = a.view(viewer), b.view(viewer)
        if _own(seen_a, viewer) != _own(seen_b, viewer):
            break   # the viewer drew something else: from here they know more in one world
        assert seen_a == seen_b, (viewer, first_difference(seen_a, seen_b, ""), seen_a["log"][-4:], seen_b["log"][-4:])
        compared += 1
        decision = a.pending
        chosen = play.choice(decision.options)
        key = _public_choice(chosen.action, decision.player, viewer)
        twin = next((o for o in b.pending.options
                     if _public_choice(o.action, decision.player, viewer) == key), None)
        if twin is None:
            break   # the worlds part in public (a card or a marker only one of them holds is played)
        assert a.apply(chosen.id).ok and b.apply(twin.id).ok
    return compared


_MODES = [("standard 2p", (), ["red", "green"], {}), ("standard 3p", (), ["red", "green", "purple"], {}),
          ("standard 4p, sides B", (), ["red", "green", "purple", "yellow"],
           {"sides": dict.fromkeys(["red", "green", "purple", "yellow"], "B")}),
          ("VTO", (), ["red", "green", "purple"], {"variant": "vto"}),
          ("solo", (), ["green", "red"], {"mode": "solo"}),
          ("solo advanced, sides B", (), ["yellow", "purple"],
           {"mode": "solo", "setup": "advanced", "sides": {"yellow": "B", "purple": "B"}}),
          ("prototype edition 3p", ("editions/prototype",), ["red", "green", "purple"], {})]


@pytest.mark.parametrize("name,overlays,players,kw", _MODES, ids=[m[0] for m in _MODES])
def test_who_decides_next_and_the_events_do_not_depend_on_hidden_facts(name, overlays, players, kw) -> None:
    """R-SETUP-4 (markers private), R-ACT-2 (face-down cards), R-DM-1/2, R-PAY-1: a decision is asked, or answered
    alone, by public facts only. Twin games whose hidden facts (others' hands, decks, face-down cards, domain
    reserves and the bag) differ, played with the same public choices, show every viewer the same pending player
    and kind and the same events in the same order, until the worlds part in public."""
    rules = ruleset() if not overlays else load_ruleset(overlays)
    rng = random.Random(11)
    compared = 0
    for seed in range(6):
        game = Game.new(rules, players=players, seed=100 + seed, **kw)
        play = random.Random(seed)
        while not game.is_over:
            if game.step_depth == 0 and play.random() < 0.3 and not reserves_revealed(game):
                viewer = play.choice(list(game.state.seats) + [None])
                compared += _twins_agree(game, viewer, rng, random.Random(play.random()), 30)
            game.apply(play.choice(game.pending.options).id)
    assert compared > 250, compared
