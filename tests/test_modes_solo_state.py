"""The solo mode's own typed state (`State.mode_state`, a `SoloState`) and its context value (`Ctx.mode_ctx`, the
Kiwibot segment): the saved JSON is the plain `solo` object it always was, bad solo data is a clear ValueError, a
copy shares no list with the original, and a save inside a segment is the format-4 save it always was."""
from __future__ import annotations

import json
import random

import pytest
from test_engine_support import ruleset

from kcd.core.state import State
from kcd.engine import Game
from kcd.engine.context import Ctx
from kcd.modes.solo.moves import Segment
from kcd.modes.solo.state import SoloState, is_bot, solo_of

KEYS = ["bot", "player", "side", "marker_start", "marker_sequence", "pile", "discarded", "set_aside", "flipped",
        "per_season", "kiwibot_fruit", "wins_ties", "vp_per_kept_card", "domain_per_vp"]


def _solo_game(seed: int = 3) -> Game:
    return Game.new(ruleset(), players=["green", "red"], seed=seed, mode="solo")


def test_solo_state_is_typed_and_saved_as_the_plain_solo_object():
    """R-SOLO-1/2: a new solo game's state holds a SoloState; its JSON form is the `solo` object of format 4, its keys
    in their saved order, and it loads back to an equal value."""
    st = _solo_game().state
    own = solo_of(st)
    assert type(st.mode_state) is SoloState and is_bot(st, own.bot) and not is_bot(st, own.player)
    data = st.to_dict()
    assert list(data["solo"]) == KEYS and "mode_state" not in data
    assert list(data)[-1] == "solo"   # after the shared keys (a built-in mode saves no `mode` name)
    back = State.from_dict(json.loads(json.dumps(data)))
    assert back == st and back.mode_state == own and back.mode_state is not own
    assert json.dumps(back.to_dict()) == json.dumps(data)


def test_a_standard_state_has_no_mode_state_and_no_solo_key():
    """A game without a mode of its own data saves no `solo` key and loads with `mode_state` None."""
    st = Game.new(ruleset(), players=["red", "green"], seed=1).state
    assert st.mode_state is None and "solo" not in st.to_dict()
    assert State.from_dict(st.to_dict()).mode_state is None


def test_copy_shares_no_list_of_the_solo_state():
    """A copied state's solo lists are its own: changing them leaves the original as it was."""
    st = _solo_game().state
    before = st.to_dict()
    twin = st.copy()
    assert twin == st and twin.mode_state is not st.mode_state
    own = solo_of(twin)
    for name in ("marker_sequence", "pile", "discarded", "set_aside"):
        getattr(own, name).append("x")
    own.flipped += 1
    assert st.to_dict() == before and twin != st


@pytest.mark.parametrize("change,words", [
    (lambda d: d.pop("pile"), "missing keys ['pile']"),
    (lambda d: d.update(extra=1), "unknown keys ['extra']"),
    (lambda d: d.update(flipped="2"), "`flipped` must be a whole number"),
    (lambda d: d.update(flipped=True), "`flipped` must be a whole number"),
    (lambda d: d.update(wins_ties=1), "`wins_ties` must be true or false"),
    (lambda d: d.update(pile=["solo-1", 2]), "`pile` must be a list of strings"),
    (lambda d: d.update(bot=None), "`bot` must be a string"),
])
def test_bad_solo_data_is_a_clear_value_error(change, words):
    """State.from_dict refuses solo data that is not what SoloState saves, naming the key."""
    data = _solo_game().state.to_dict()
    change(data["solo"])
    with pytest.raises(ValueError, match="solo data") as info:
        State.from_dict(data)
    assert words in str(info.value)


def test_solo_data_that_is_no_object_and_unknown_mode_data_are_value_errors():
    """Solo data of another JSON type, and a key no loaded mode reads, are refused with a ValueError."""
    data = _solo_game().state.to_dict()
    with pytest.raises(ValueError, match="must be an object"):
        State.from_dict({**data, "solo": ["bot"]})
    with pytest.raises(ValueError, match="`lunar`, which no loaded mode reads"):
        State.from_dict({**data, "lunar": {"phase": 1}})


def _inside_segment() -> Game:
    """A solo game paused at a decision asked inside Kiwibot's Solo card segment (its Segment on the stack)."""
    for seed in range(60):
        game = _solo_game(seed)
        rng = random.Random(seed)
        while not game.is_over:
            if any(type(getattr(f.env.get("ctx"), "mode_ctx", None)) is Segment for f in game._stack):
                return game
            game.apply(rng.choice(game.pending_ids()))
    raise AssertionError("no decision inside a Kiwibot segment in 60 games")


def _saved_ctxs(value, out: list[dict]) -> list[dict]:
    """The fields of every Ctx in saved frame data."""
    if isinstance(value, list):
        for v in value:
            _saved_ctxs(v, out)
    elif isinstance(value, dict):
        if value.get("$") == "ctx" and isinstance(value.get("v"), dict):
            out.append(value["v"])
        for v in value.values():
            _saved_ctxs(v, out)
    return out


def test_a_save_inside_a_segment_names_it_as_format_4_does_and_loads():
    """R-SOLO-10: a save taken inside Kiwibot's segment writes each Ctx's mode value under `segment`, the name
    format 4 gave it (saves are unchanged byte for byte), never `mode_ctx`; it loads with the Segment as the mode's
    context value and goes on like the game it was saved from."""
    game = _inside_segment()
    ctxs = _saved_ctxs(json.loads(game.to_json())["frames"], [])
    assert ctxs and all("segment" in c and "mode_ctx" not in c for c in ctxs)
    assert list(ctxs[0]) == ["flock", "turn", "suppressed", "depth", "ability", "no_vp", "source", "segment", "it",
                             "here", "during"]
    assert any(isinstance(c["segment"], dict) and c["segment"].get("$") == "solo.segment" for c in ctxs)
    loaded = Game.from_json(ruleset(), game.to_json())
    assert any(type(getattr(f.env.get("ctx"), "mode_ctx", None)) is Segment for f in loaded._stack)
    assert loaded.to_json() == game.to_json()
    rng = random.Random(5)
    for _ in range(30):
        if game.is_over:
            break
        choice = rng.choice(game.pending_ids())
        assert [e.text for e in game.apply(choice).events] == [e.text for e in loaded.apply(choice).events]
    assert loaded.state == game.state


def test_ctx_keeps_the_mode_value_through_sub():
    """A nested run of an effect (`Ctx.sub`) hands the mode's own context value on unchanged."""
    seg = Segment({})
    ctx = Ctx("red").sub(mode_ctx=seg)
    assert ctx.sub(depth=2).mode_ctx is seg and Ctx("red").mode_ctx is None
    with pytest.raises(TypeError):
        Ctx("red").sub(segment=seg)
