"""Saves: what a save holds, and that any bad save is a ValueError.

`Game.to_json()` holds the format, the content hash, the seed and the `Game.new` arguments (or the start
state), the whole decision history, the running step's checkpoint, the state, and the running step's frames
with the pending decision. `Game.from_json` checks the JSON, the schema (schemas/save.schema.json), the hash
and the engine's invariants, then rebuilds the running step from the frames (no replay; `verify=True`, and
saves without frames, replay the history and compare): anything wrong is a `ValueError` with a clear message,
in bounded time, never another exception.
"""
from __future__ import annotations

import copy
import functools
import json
import random
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_support import ruleset

from kcd.content import load_ruleset
from kcd.engine import Game

POSITIONS = Path(__file__).parent / "golden" / "positions"


def _played(players: list[str], seed: int, decisions: int, **kw) -> Game:
    """A game after `decisions` seeded random decisions (or at its end)."""
    game = Game.new(ruleset(), players=players, seed=seed, **kw)
    rng = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        assert game.apply(rng.choice(game.pending.options).id).ok
    return game


@functools.lru_cache(maxsize=None)
def _saves() -> tuple[str, ...]:
    """Real saves: standard 2/3/4 players at several moments, Variable Turn Order, solo, advanced setup, one with
    undone decisions to redo, and a position game (the last)."""
    from kcd.analysis.position import load_position
    games = [_played(["red", "green"], 1, 0), _played(["red", "green", "purple"], 2, 60),
             _played(["red", "green", "purple", "yellow"], 3, 400), _played(["yellow", "red", "green"], 4, 130, variant="vto"),
             _played(["green", "red"], 5, 90, mode="solo"), _played(["red", "green"], 6, 45, setup="advanced")]
    undone = _played(["purple", "yellow"], 8, 30)
    assert undone.undo(force=True).ok and undone.undo(force=True).ok   # a save with a redo list
    games.append(undone)
    position = load_position(POSITIONS / "final_marking.yaml")
    rng = random.Random(7)
    for _ in range(3):
        if not position.is_over:
            position.apply(rng.choice(position.pending.options).id)
    return tuple(g.to_json() for g in games + [position])


def _mutated(path: list, value: object, index: int = 2) -> str:
    data = json.loads(_saves()[index])
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return json.dumps(data)


def test_save_holds_format_hash_seed_setup_history_checkpoint_and_state() -> None:
    """The save's parts, and a load that continues decision for decision like the original."""
    game = _played(["red", "green", "purple"], 11, 50)
    data = json.loads(game.to_json())
    assert set(data) == {"format", "content_hash", "seed", "setup", "start", "history", "redo", "step_start",
                         "checkpoint", "state", "frames", "pending", "previous"}
    assert data["format"] == 4 and data["content_hash"] == ruleset().hash and data["seed"] == 11
    assert data["setup"]["players"] == ["red", "green", "purple"] and data["start"] is None
    assert data["history"] == game.history and len(data["history"]) == 50
    loaded = Game.from_json(ruleset(), game.to_json())
    assert loaded.to_json() == game.to_json()
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in game.events]
    rng = random.Random(3)
    while not game.is_over:
        option = rng.choice(game.pending.options).id
        assert loaded.pending == game.pending
        assert game.apply(option).ok and loaded.apply(option).ok
    assert loaded.to_json() == game.to_json()


def test_every_real_save_matches_the_schema_and_loads() -> None:
    """Saves of standard, VTO, solo, advanced-setup and position games round-trip exactly, with and without the
    verifying replay; a format 2 save (no frames) still loads, by replaying its history."""
    for text in _saves():
        assert Game.from_json(ruleset(), text).to_json() == text
        assert Game.from_json(ruleset(), text, verify=True).to_json() == text
        old = json.loads(text)
        old["format"] = 2
        for key in ("frames", "pending", "previous"):
            del old[key]
        loaded = Game.from_json(ruleset(), json.dumps(old))
        assert loaded.to_json() == text


def test_a_load_from_frames_replays_nothing_and_rebuilds_the_log_when_read() -> None:
    """A save made mid-turn (the frames of explicit procedures) loads without a replay; its event log is the
    original's once read, and it goes on decision for decision like the original."""
    game = _played(["red", "green", "purple"], 12, 37)
    while game.pending.kind != "play-mode":
        assert game.apply(game.pending.options[0].id).ok
    text = game.to_json()
    assert json.loads(text)["frames"][0]["program"] == "actions.turn"
    before = Game.replayed_steps
    loaded = Game.from_json(ruleset(), text)
    assert Game.replayed_steps == before and loaded.pending == game.pending
    assert loaded.rt.events == []                      # not built yet: nothing was replayed
    assert [e.to_dict() for e in loaded.events] == [e.to_dict() for e in game.events]
    rng = random.Random(5)
    for _ in range(40):
        option = rng.choice(game.pending.options).id
        assert game.apply(option).ok and loaded.apply(option).ok
        assert loaded.to_json() == game.to_json()
    stale = game.history[-1]
    fresh = Game.from_json(ruleset(), game.to_json())
    if stale not in fresh.pending_ids():
        assert game.apply(stale).code == fresh.apply(stale).code


def test_a_position_game_saves_its_start_state() -> None:
    """A Game.from_state game (a position) has no setup: its save carries the start state instead."""
    data = json.loads(_saves()[-1])
    assert data["setup"] is None and data["start"] is not None and len(data["history"]) == 3


def test_a_seedless_game_draws_a_64_bit_seed_that_the_save_keeps() -> None:
    """Game.new without a seed takes one from the OS (secrets); two such games differ; the save replays it."""
    a, b = Game.new(ruleset(), ["red", "green"]), Game.new(ruleset(), ["red", "green"])
    assert a.seed != b.seed and 0 <= a.seed < 2 ** 64
    assert json.loads(a.to_json())["seed"] == a.seed
    assert Game.from_json(ruleset(), a.to_json()).to_json() == a.to_json()


@pytest.mark.parametrize("text,message", [
    ('{"format": 2, "state": {"fruit": Infinity}}', "`Infinity` is not a number"),
    ('{"format": 2, "state": {"fruit": NaN}}', "`NaN` is not a number"),
    ('{"format": 2, "state": {"fruit": -Infinity}}', "`-Infinity` is not a number"),
    ('{"format": 2, "state": {"fruit": 1e30}}', "1e30 is not a whole number"),
    ('{"format": 2, "state": {"fruit": ' + "9" * 5000 + "}}", "not a saved Kiwi Chow Down game"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": 2, "state": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ("not json", "not a saved Kiwi Chow Down game"),
    ('{"format": 1, "state": {}}', "format 1 saves had no history"),
    ("", "not a saved Kiwi Chow Down game"),
])
def test_bad_json_is_a_value_error(text: str, message: str) -> None:
    """NaN/Infinity, floats, huge ints, 100,000-deep nesting, garbage: ValueError naming the problem."""
    with pytest.raises(ValueError, match=message):
        Game.from_json(ruleset(), text)


def test_non_text_and_huge_text_are_value_errors() -> None:
    """A save is JSON text of bounded size; bytes that are not UTF-8 and other types are refused."""
    for bad in (None, 7, b"\xff\xfe", ["a"]):
        with pytest.raises(ValueError, match="not a saved Kiwi Chow Down game"):
            Game.from_json(ruleset(), bad)
    with pytest.raises(ValueError, match="characters"):
        Game.from_json(ruleset(), " " * 5_000_000)


@pytest.mark.parametrize("path,value,message", [
    (["state", "flocks", 0, "fruit", "red"], 10 ** 30, "flocks/0/fruit/red"),
    (["state", "rng"], -1, "state/rng"),
    (["state", "rng"], 2 ** 64, "state/rng"),
    (["history"], "move", "history"),
    (["state", "phase"], "breakfast", "phase `breakfast` does not exist"),
    (["state", "seats", 0], "blue", "seats"),
    (["state", "seats", 0], "yellow", "do not match the flocks"),
    (["state", "flocks", 1, "reserve_kiwi"], 100, "green has 1[0-9][0-9] Kiwi tokens"),
    (["state", "flocks", 0, "hand"], ["move"] * 9, "holds 9 cards"),
    (["state", "season"], 7, "season 7 of a 4-season game"),
    (["state", "first"], 7, "state/first"),
    (["checkpoint", "season_cards", 0], "most-kiwi", "unknown Season card"),
    (["setup", "players", 0], "blue", "does not replay"),
    (["setup", "variant"], "chaos", "setup/variant"),
    (["step_start"], 10_000, "step_start"),
    (["state", "flocks", 0, "fruit", "red"], 3, "fruit"),
    (["frames"], [{"program": "no-such-program", "at": "x", "env": {}}], "unknown program"),
    (["pending"], None, "frames and pending decision do not match"),
    (["format"], 5, "format 2 or 3 or 4"),
])
def test_impossible_saves_are_value_errors(path: list, value: object, message: str) -> None:
    """Values out of range, renamed seats, phases that do not exist, broken conservation, frames that are no
    frames: clear ValueErrors, with and without the verifying replay."""
    for verify in (False, True):
        with pytest.raises(ValueError, match=message):
            Game.from_json(ruleset(), _mutated(path, value, index=1), verify=verify)


@pytest.mark.parametrize("path,value,message", [
    (["history", 5], "pass", "decision 6 of the history"),
    (["history", 0], "card:nothing", "decision 1 of the history"),
])
def test_a_history_that_does_not_replay_is_refused_when_verified(path: list, value: object, message: str) -> None:
    """`verify=True` (and every save without frames) replays the history: a decision that does not replay is
    refused, naming it. A load from frames leaves that to the log's rebuild and to `kcd replay`."""
    with pytest.raises(ValueError, match=message):
        Game.from_json(ruleset(), _mutated(path, value), verify=True)
    data = json.loads(_mutated(path, value, index=3))
    data["frames"] = data["pending"] = data["previous"] = None   # a save without frames: always replayed
    with pytest.raises(ValueError, match="of the history"):
        Game.from_json(ruleset(), json.dumps(data))


@pytest.mark.parametrize("path,value,message", [
    (["frames", 0, "env", "card"], "nest-that-is-no-card", "not in yellow's hand"),
    (["frames", 0, "at"], "mode", "not in yellow's hand"),
    (["frames", 0, "env", "flock"], "blue", "not playing"),
    (["frames", 0, "env", "ctx", "v", "depth"], "deep", "wrong type"),
    (["pending", "options", 0, "id"], "card:build", "is not its action's"),
    (["pending", "player"], "green", "decision is for `green`, who is not playing"),
    (["pending", "options"], [], "pending"),
    (["frames", 0, "env", "ctx"], {"$": "node", "a": 0}, "frames"),
])
def test_bad_frames_and_pending_decisions_are_value_errors(path: list, value: object, message: str) -> None:
    """The running step in a save is checked like the state: kinds, fields, players, options that are their
    actions, cards in the hand they are played from."""
    data = json.loads(_saves()[6])   # yellow's play-mode question (2 players): program actions.turn at mode
    assert data["frames"][0]["program"] == "actions.turn" and data["frames"][0]["at"] == "mode"
    assert data["pending"]["player"] == "yellow"
    if path == ["frames", 0, "at"]:   # at mode with a card the hand does not hold
        hand = next(f["hand"] for f in data["state"]["flocks"] if f["id"] == "yellow")
        data["frames"][0]["env"]["card"] = next(c for c in ("move", "build", "feed", "wild-kiwi") if c not in hand)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(ValueError, match=message):
        Game.from_json(ruleset(), json.dumps(data))


def test_a_stack_of_size_7_is_refused() -> None:
    """R-FEED-2: no stack above game.yaml limits.kiwi_size (3)."""
    data = json.loads(_saves()[2])
    hexes = data["state"]["hexes"]
    row = next(h for h in hexes if h[4])
    row[4][0][2] = 7
    with pytest.raises(ValueError, match="a stack of size 7"):
        Game.from_json(ruleset(), json.dumps(data))


def test_21_kiwi_tokens_are_refused() -> None:
    """R-COMP-2: a flock has 20 Kiwi tokens; one more on the island is refused."""
    data = json.loads(_saves()[2])
    row = next(h for h in data["state"]["hexes"] if h[4] and h[4][0][2] < 3)
    row[4][0][2] += 1
    with pytest.raises(ValueError, match="21 Kiwi tokens"):
        Game.from_json(ruleset(), json.dumps(data))


@pytest.mark.parametrize("value", ["missing", None, "", "0" * 64])
def test_a_missing_null_or_different_content_hash_is_refused(value: object) -> None:
    """The content hash is mandatory: without it a save could load under other rules."""
    data = json.loads(_saves()[1])
    if value == "missing":
        del data["content_hash"]
    else:
        data["content_hash"] = value
    with pytest.raises(ValueError, match="content hash|another ruleset"):
        Game.from_json(ruleset(), json.dumps(data))


def test_a_base_save_does_not_load_under_the_prototype_edition() -> None:
    """Different content, different game: refused, also when the hash key was deleted."""
    text = _saves()[1]
    with pytest.raises(ValueError, match="saved with another ruleset"):
        Game.from_json(load_ruleset(["editions/prototype"]), text)
    data = json.loads(text)
    del data["content_hash"]
    with pytest.raises(ValueError, match="no content hash"):
        Game.from_json(load_ruleset(["editions/prototype"]), json.dumps(data))


def test_a_changed_state_that_keeps_the_invariants_is_caught_by_the_replay() -> None:
    """Moving a fruit from the bag to a flock keeps every count. In the state alone, the load refuses it: the
    running step, run again from its checkpoint, does not give that state. In the checkpoint and the state both,
    a load from frames takes it (every invariant holds, and the step runs to it), but the history does not replay to
    it: `verify=True` refuses it and `kcd replay` reports the difference."""
    from kcd.apps.cli.replay import replay_save
    data = json.loads(_saves()[2])
    state = data["state"]
    colour = next(c for c, n in state["fruit_bag"].items() if n and data["checkpoint"]["fruit_bag"][c])
    state["fruit_bag"][colour] -= 1
    state["flocks"][0]["fruit"][colour] = state["flocks"][0]["fruit"].get(colour, 0) + 1
    with pytest.raises(ValueError, match="save's state is not what its checkpoint and the running step's decisions "
                                         "give: state/flocks/0/fruit"):
        Game.from_json(ruleset(), json.dumps(data))
    checkpoint = data["checkpoint"]
    checkpoint["fruit_bag"][colour] -= 1
    checkpoint["flocks"][0]["fruit"][colour] = checkpoint["flocks"][0]["fruit"].get(colour, 0) + 1
    text = json.dumps(data)
    assert Game.from_json(ruleset(), text).state.flocks[state["flocks"][0]["id"]].fruit[colour] >= 1
    with pytest.raises(ValueError, match="does not replay to its checkpoint: checkpoint/flocks/0/fruit"):
        Game.from_json(ruleset(), text, verify=True)
    report = replay_save(ruleset(), text)
    assert not report.exact and "flocks/0/fruit" in report.message


def test_apply_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """`apply` runs at most MAX_STEPS_PER_APPLY flow steps, so no state can make it loop for ever."""
    from kcd.engine import game as game_module
    from kcd.engine.context import EngineError
    monkeypatch.setattr(game_module, "MAX_STEPS_PER_APPLY", 3)
    with pytest.raises(EngineError, match="no decision after 3 steps"):
        Game.new(ruleset(), ["red", "green"], seed=1)


# --- hypothesis: mutations of real saves ------------------------------------------------------------------
_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.integers(), st.text(max_size=8),
                  st.sampled_from(["red", "green", "yellow", "blue", "purple", "A1", "actions", "over", "move",
                                   "chopan", "tree-1", "flower", "facedown", "vto", "solo"]))
_value = st.recursive(_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=6)


def _paths(node: object, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside a JSON document."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, prefix + (i,))
    return out


@functools.lru_cache(maxsize=None)
def _save_paths(index: int) -> list[tuple]:
    return _paths(json.loads(_saves()[index]))[1:]


def _mutate(draw: st.DrawFn, data: dict, paths: list[tuple]) -> str:
    """One to three random mutations (replace, delete, nudge, duplicate, swap) at the given paths of `data`."""
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths))
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            key = path[-1]
            current = parent[key]
        except (KeyError, IndexError, TypeError):
            continue   # an earlier mutation removed this path
        how = draw(st.sampled_from(["replace", "delete", "nudge", "duplicate", "swap"]))
        if how == "replace":
            parent[key] = draw(_value)
        elif how == "delete":
            del parent[key]
        elif how == "nudge" and isinstance(current, int) and not isinstance(current, bool):
            parent[key] = current + draw(st.sampled_from([-1, 1, 2, -20, 10 ** 6]))
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(current))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    return json.dumps(data)


@st.composite
def _mutations(draw: st.DrawFn) -> str:
    index = draw(st.integers(0, len(_saves()) - 1))
    return _mutate(draw, json.loads(_saves()[index]), _save_paths(index))


def _plays_on(game: Game, seed: int) -> None:
    """The game round-trips through a save and plays 25 random decisions legally."""
    assert Game.from_json(ruleset(), game.to_json()).to_json() == game.to_json()
    rng = random.Random(seed)
    for _ in range(25):
        if game.is_over:
            break
        assert game.apply(rng.choice(game.pending.options).id).ok


@settings(max_examples=120, deadline=timedelta(seconds=4), suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(text=_mutations())
def test_mutated_saves_raise_value_error_or_continue_legally(text: str) -> None:
    """Any mutation of a real save: ValueError, or a game that round-trips and plays on legally (deadline per load)."""
    try:
        game = Game.from_json(ruleset(), text)
    except ValueError:
        return
    _plays_on(game, len(text))
    game.redo()   # a mutated redo list is refused or applied, never an exception


@functools.lru_cache(maxsize=None)
def _step_saves() -> tuple[str, ...]:
    """Saves in the middle of steps: a card played, a Move with its pushes, a payment, a marking, a build."""
    out = []
    for seed, players, kinds in ((21, ["red", "green", "purple"], ("play-mode", "push", "pay")),
                                 (22, ["yellow", "red"], ("cover", "build-nest", "move", "feed"))):
        game = Game.new(ruleset(), players=players, seed=seed)
        rng = random.Random(seed)
        wanted = list(kinds)
        while wanted and not game.is_over:
            if game.pending.kind in wanted and json.loads(game.to_json())["frames"]:
                wanted.remove(game.pending.kind)
                out.append(game.to_json())
            assert game.apply(rng.choice(game.pending.options).id).ok
    return tuple(out)


@st.composite
def _step_mutations(draw: st.DrawFn) -> str:
    """One to three mutations inside the frames, the pending decision or `previous` of a mid-step save."""
    data = json.loads(draw(st.sampled_from(_step_saves())))
    return _mutate(draw, data, [p for p in _paths(data) if p and p[0] in ("frames", "pending", "previous")])


@settings(max_examples=150, deadline=timedelta(seconds=4), suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(text=_step_mutations())
def test_mutated_frames_raise_value_error_or_continue_legally(text: str) -> None:
    """Mutations of the running step in real mid-step saves: ValueError, or a game that plays on legally."""
    try:
        game = Game.from_json(ruleset(), text)
    except ValueError:
        return
    _plays_on(game, len(text))
    game.clone()


def test_deep_json_the_parser_accepts_is_still_a_value_error() -> None:
    """900-deep lists inside `params` parse, then fail the invariants; the same inside a deep call stack too."""
    text = _mutated(["state", "params", "deep"], json.loads("[" * 900 + "]" * 900))
    with pytest.raises(ValueError, match="params"):
        Game.from_json(ruleset(), text)

    def nested(depth: int) -> None:
        if depth:
            return nested(depth - 1)
        Game.from_json(ruleset(), text)
    with pytest.raises(ValueError):
        nested(700)
