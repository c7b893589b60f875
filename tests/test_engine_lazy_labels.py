"""Engine: option labels, decision prompts and event texts are built only when read, and read the
same as the text built at once."""
from __future__ import annotations

import pickle
import random

import pytest

from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.core import action_types as A
from kcd.core import decisions
from kcd.core.decisions import Decision, Option, lazy_option, option, shared_option_caches
from kcd.core.events import OWNER, render


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_a_template_label_reads_as_its_text():
    """`(template, args)` and a callable both read as their string, built on each read (the option never changes);
    the option equals and hashes like one given the string, and pickles."""
    values = (7, "red", 2, "A3", "A4")
    lazy = lazy_option(A.MoveKiwi, values, ("Move your size-{2} Kiwi from {3} to {4}", values))
    eager = option(A.MoveKiwi(*values), "Move your size-2 Kiwi from A3 to A4")
    assert type(lazy.stored_label) is tuple                       # nothing built yet
    assert lazy.label == "Move your size-2 Kiwi from A3 to A4"
    assert type(lazy.stored_label) is tuple                       # the option is unchanged
    assert lazy == eager and hash(lazy) == hash(eager) and lazy.id == eager.id
    calls = []
    called = Option("stop", lambda: calls.append(1) or "Stop moving", A.word("stop"))
    assert called.label == called.label == "Stop moving" and calls == [1, 1]
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


@pytest.fixture
def texts_built(monkeypatch):
    """A list that gets an entry each time a label or prompt is built from its `Text` (`decisions._text`)."""
    built: list[int] = []
    text = decisions._text
    monkeypatch.setattr(decisions, "_text", lambda value: built.append(1) or text(value))
    return built


def test_the_game_loop_builds_no_label_prompt_or_event_text(ruleset, texts_built):
    """In a random 4-player game nothing formats a Move or push label, a templated prompt or an event text until
    someone reads it; read, each is the text built at once. Options are only looked at during the game and read
    after it."""
    game = Game.new(ruleset, players=["red", "green", "purple", "yellow"], seed=21)
    rng = random.Random(21)
    unbuilt_events = 0
    seen: list[Option] = []
    pushes: list[Decision] = []
    while not game.is_over:
        d = game.pending
        for o in d.options:
            if _expected(o) is not None:
                assert type(o.stored_label) is not str, o.id
                seen.append(o)
        if d.kind == "push":
            assert type(d.__dict__["prompt"]) is not str
            pushes.append(d)
        result = game.apply(rng.choice(d.options).id)
        for e in result.events:
            if e.__dict__["text"] is None:
                unbuilt_events += 1
                assert e.text == render(e.form, e.fields, OWNER, e.player)
    assert texts_built == [], "the game loop built a label or prompt"
    for o in seen:
        assert o.label == _expected(o)
    for d in pushes:
        assert d.prompt.startswith("Push") and d.prompt == str(d.to_dict()["prompt"])
    assert len(seen) > 500 and unbuilt_events > 100 and pushes


# options whose label is one fixed sentence (`stop`, `facedown`, `cover:reserve` ...): a plain string costs nothing to
# build; every other label names a card, Nest, hex, Kiwi, fruit or effect and must wait to be read
_PLAIN = {"facedown", "pass", "take", "decline", "stop", "ability", "cover:reserve", "cover:track", "extra:move",
          "extra:stop", "take:none"}


@pytest.mark.parametrize("variant", [None, "vto"])
def test_card_nest_marking_payment_and_setup_labels_wait_to_be_read(ruleset, variant, texts_built):
    """The labels and prompts of the flow's own decisions (cards, play modes, Builds, Nest order, marking, covering,
    payments, fruit over the limit, feeding, setup, tracker slots) are Texts until read, and read the same (read
    after the game; the test reads only the prompt in the loop)."""
    game = Game.new(ruleset, players=["red", "green", "purple", "yellow"], seed=33, variant=variant)
    rng = random.Random(33)
    kinds: set[str] = set()
    seen: list[Option] = []
    while not game.is_over:
        d = game.pending
        assert texts_built == [], "the game loop built a label or prompt"
        for o in d.options:
            if o.id in _PLAIN or d.kind in ("choose", "may"):
                continue
            assert type(o.stored_label) is not str, (d.kind, o.id)
            seen.append(o)
            kinds.add(d.kind)
        assert "functools.partial" not in d.prompt
        texts_built.clear()   # the prompt, read just above
        game.apply(rng.choice(d.options).id)
    for o in seen:
        assert o.label and "functools.partial" not in o.label and "<" not in o.label, o.label
    assert {"card", "play-mode", "mark", "build-hex"} <= kinds
    if variant == "vto":
        assert "tracker-slot" in kinds


def test_options_shared_between_decisions_are_the_options_built_afresh(ruleset):
    """The engine hands the same option object to every decision its key determines (a Kiwi's Move, a Feed, a
    payment, a marked hex...: decisions.SharedOptionCaches): a game played with the caches full of other games'
    options offers exactly what it offers with them empty (ids, labels, actions), and the caches stay bounded."""
    from kcd.engine import feed, move, payment
    from kcd.core import decisions

    def offered(seed: int) -> list[tuple]:
        game = Game.new(ruleset, players=["red", "green", "purple"], seed=seed)
        rng = random.Random(seed)
        out = []
        while not game.is_over:
            d = game.pending
            out.append((d.kind, [(o.id, o.label, o.action.to_dict() if o.action else None) for o in d.options]))
            game.apply(rng.choice(d.options).id)
        return out

    for seed in range(3):   # warm: other games' options (and labels read) in the caches
        offered(100 + seed)
    warm = offered(7)
    shared_option_caches.clear()
    assert offered(7) == warm
    for cache in (move._HOPS, feed._FEEDS, payment._PAYS, decisions._SHARED):
        assert 0 < len(cache) <= shared_option_caches.limit(cache)


def test_an_option_cache_starts_again_when_full():
    """A shared option cache holds at most its limit: the entry that would pass it empties it first."""
    cache = shared_option_caches.new(3)
    for i in range(3):
        assert shared_option_caches.keep(cache, i, str(i)) == str(i)
    assert len(cache) == 3
    shared_option_caches.keep(cache, 3, "3")
    assert dict(cache) == {3: "3"}
    shared_option_caches.clear()
    assert not cache
