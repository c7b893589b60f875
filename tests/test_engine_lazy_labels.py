"""Engine: option labels, decision prompts and event texts are built only when read (issue 7 item 6), and read the
same as the text built at once."""
from __future__ import annotations

import pickle
import random

import pytest

from interpreter.content import load_ruleset
from interpreter.engine import Game
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Decision, Option, lazy_option, option
from interpreter.engine.events import OWNER, render


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_a_template_label_reads_as_its_text_once_built():
    """`(template, args)` and a callable both read as their string, built on the first read and then kept; the option
    equals and hashes like one given the string, and pickles."""
    values = (7, "red", 2, "A3", "A4")
    lazy = lazy_option(A.MoveKiwi, values, ("Move your size-{2} Kiwi from {3} to {4}", values))
    eager = option(A.MoveKiwi(*values), "Move your size-2 Kiwi from A3 to A4")
    assert type(lazy.__dict__["label"]) is tuple                       # nothing built yet
    assert lazy.label == "Move your size-2 Kiwi from A3 to A4"
    assert type(lazy.__dict__["label"]) is str                         # kept
    assert lazy == eager and hash(lazy) == hash(eager) and lazy.id == eager.id
    calls = []
    called = Option("stop", lambda: calls.append(1) or "Stop moving", A.word("stop"))
    assert called.label == called.label == "Stop moving" and calls == [1]
    again = pickle.loads(pickle.dumps(lazy_option(A.MoveKiwi, values, ("Move to {4}", values))))
    assert again.label == "Move to A4"
    d = Decision("red", "push", ("Push a Kiwi out of {}?", ("A3",)), (eager,))
    assert d.prompt == "Push a Kiwi out of A3?" and d.to_dict()["prompt"] == d.prompt
    with pytest.raises(AttributeError):
        d.prompt = "x"                                                 # still frozen


def _expected(o: Option) -> str | None:
    """The label a Move or push option had when it was built at once (the f-strings the lazy templates replace)."""
    a = o.action
    if isinstance(a, A.MoveKiwi):
        return f"Move your size-{a.size} Kiwi from {a.hex} to {a.to}"
    if isinstance(a, A.MoveLeader):
        return f"Move your Leader from {a.hex} to {a.to}"
    if isinstance(a, A.PushKiwi):
        return f"Push the {a.flock} size-{a.size} Kiwi {'off the island' if a.to == 'off' else 'to ' + a.to}"
    if isinstance(a, A.PushLeader):
        return f"Push the {a.flock} Leader {'off the island' if a.to == 'off' else 'to ' + a.to}"
    return None


def test_the_game_loop_builds_no_label_prompt_or_event_text(ruleset):
    """In a random 4-player game nothing formats a Move or push label, a templated prompt or an event text until
    someone reads it; read, each is the text built at once."""
    game = Game.new(ruleset, players=["red", "green", "purple", "yellow"], seed=21)
    rng = random.Random(21)
    checked = unbuilt_events = 0
    while not game.is_over:
        d = game.pending
        for o in d.options:
            want = _expected(o)
            if want is not None:
                assert type(o.__dict__["label"]) is not str, o.id
                assert o.label == want
                checked += 1
        if d.kind == "push":
            assert type(d.__dict__["prompt"]) is not str
            assert d.prompt.startswith("Push") and d.prompt == str(d.to_dict()["prompt"])
        result = game.apply(rng.choice(d.options).id)
        for e in result.events:
            if e.__dict__["text"] is None:
                unbuilt_events += 1
                assert e.text == render(e.form, e.fields, OWNER, e.player)
    assert checked > 500 and unbuilt_events > 100


# options whose label is one fixed sentence (`stop`, `facedown`, `cover:reserve` ...): a plain string costs nothing to
# build; every other label names a card, Nest, hex, Kiwi, fruit or effect and must wait to be read
_PLAIN = {"facedown", "pass", "take", "decline", "stop", "ability", "cover:reserve", "cover:track", "extra:move",
          "extra:stop", "take:none"}


@pytest.mark.parametrize("variant", [None, "vto"])
def test_card_nest_marking_payment_and_setup_labels_wait_to_be_read(ruleset, variant):
    """The labels and prompts of the flow's own decisions (cards, play modes, Builds, Nest order, marking, covering,
    payments, fruit over the limit, feeding, setup, tracker slots) are Texts until read, and read the same."""
    game = Game.new(ruleset, players=["red", "green", "purple", "yellow"], seed=33, variant=variant)
    rng = random.Random(33)
    kinds: set[str] = set()
    while not game.is_over:
        d = game.pending
        for o in d.options:
            if o.id in _PLAIN or d.kind in ("choose", "may"):
                continue
            assert type(o.__dict__["label"]) is not str, (d.kind, o.id)
            assert o.label and "functools.partial" not in o.label and "<" not in o.label, o.label
            kinds.add(d.kind)
        assert "functools.partial" not in d.prompt
        game.apply(rng.choice(d.options).id)
    assert {"card", "play-mode", "mark", "build-hex"} <= kinds
    if variant == "vto":
        assert "tracker-slot" in kinds
