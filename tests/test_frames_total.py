"""A running step is data, always (interpreter/engine/values.py): a DSL node built during play is saved by its fields
and loads back equal, floats, decisions and frozensets of objects copy and save, and a value that is not data is an
EngineError naming the program, never a replay. No shipped game replays: clone, save and load at every decision of
games of every mode, edition and mod leave `Game.replayed_steps` where it was. A format-4 save that an earlier
engine wrote with `frames: null` still loads, by replaying its history."""
from __future__ import annotations

import dataclasses
import json
import random
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from test_compose_labels import make_verbs_ruleset
from test_engine_support import ruleset, rules

from kcd.analysis.bots import make_bot
from kcd.content import load_ruleset
from kcd.core import action_types as A
from kcd.core.decisions import Decision, option
from kcd.dsl import ast
from kcd.engine import Game
from kcd.engine.context import Ctx, EngineError
from kcd.engine.values import FrameDataError, Uncopyable, Unsaveable, node_index
from kcd.engine.game import OldSaveWarning
from kcd.engine.machine import Ask, Return, copy_stack, program, stack_from_data, stack_to_data

FIXTURE = Path(__file__).parent / "fixtures" / "format4_frames_null.json"


def _ask_keep(rt: Any, env: dict) -> Any:
    return None


def _kept(rt: Any, env: dict) -> Any:
    return env["held"]


# holds any value in `held` while it waits on its Ask
_HOLD = program("test.hold", ("ctx", "held"), {"ctx": Ctx, "held": None},
                Ask("keep", _ask_keep, kinds={"pick": ("take",)}), Return(_kept))


def _holding(value: Any) -> Any:
    entry = _HOLD.start(Ctx("red"), value)
    entry.at = _HOLD.resume_at["keep"]
    return entry


def _round_trip(value: Any) -> Any:
    r = rules()
    data = stack_to_data([_holding(value)], r)
    again = stack_from_data(json.loads(json.dumps(data)), r)
    assert stack_to_data(again, r) == data
    return again[0].env["held"]


def _a_call() -> ast.Call:
    """A verb call of the compiled rules (in their `node_index`)."""
    nodes, _ = node_index(rules())
    return next(n for n in nodes if type(n) is ast.Call and n.args)


def test_a_node_built_during_play_is_saved_by_its_fields_and_loads_equal() -> None:
    """A node not in the rules (a call with its amounts evaluated, a phrase with its players filled in) is written
    as its fields; the nodes of the rules inside it keep their identity (saved by address); copies share it."""
    call = _a_call()
    built = dataclasses.replace(call, args=call.args + (("n", 3),))
    seq = ast.Seq((call, built), call.span)
    r = rules()
    data = stack_to_data([_holding((built, seq))], r)
    held = data[0]["env"]["held"]["v"]
    assert held[0]["$"] == "ast" and held[0]["k"] == "Call"
    assert held[1]["v"]["stmts"]["v"][0]["$"] == "node"   # the rules' own call, by its address
    loaded_built, loaded_seq = _round_trip((built, seq))
    assert loaded_built == built and loaded_seq == seq
    assert loaded_seq.stmts[0] is call and loaded_built.words[0] == call.words[0]
    twin = copy_stack([_holding(built)])[0]
    assert twin.env["held"] is built


@pytest.mark.parametrize("node, message", [
    ({"$": "ast", "k": "Gadget", "v": {}}, "no DSL node class"),
    ({"$": "ast", "k": "Span", "v": {"start": 1}}, "has the fields start, end"),
    ({"$": "ast", "k": "Span", "v": {"start": 1, "end": "2"}}, "end: not what a Span node holds"),
    ({"$": "ast", "k": "Span", "v": {"start": True, "end": 2}}, "start: not what a Span node holds"),
    ({"$": "ast", "k": "Word", "v": {"text": "x", "span": 3}}, "span: not what a Word node holds"),
    ({"$": "ast", "k": "Call", "v": {"words": [], "span": {"$": "ast", "k": "Span", "v": {"start": 0, "end": 1}},
                                     "primitive": None, "args": {"$": "tuple", "v": []}}}, "words: not what a Call"),
    ({"$": "ast", "k": 7, "v": {}}, "no DSL node class"),
    ({"$": "float", "v": 1}, "bad float data"),
    ({"$": "float", "v": "one"}, "bad float data"),
    ({"$": "decision", "player": "red", "kind": "pick", "prompt": "P", "v": [3]}, "a decision is"),
])
def test_a_malformed_saved_node_float_or_decision_is_refused(node: dict, message: str) -> None:
    """The fields of a saved node are checked against its class (a loaded node is the shape the engine reads)."""
    data = stack_to_data([_holding(None)], rules())
    data[0]["env"]["held"] = node
    with pytest.raises(FrameDataError, match=message):
        stack_from_data(data, rules())


def test_floats_decisions_and_frozensets_of_objects_copy_and_save() -> None:
    """Plain data the old copy or save refused: a float (saved exactly, as hex text: a save holds no JSON float), a
    decision, a frozenset of actions and nodes (shared by a copy: frozen all through)."""
    call = _a_call()
    decision = Decision("red", "pick", "Pick one", (option(A.word("take"), "A"), option(A.word("decline"), "B")))
    items = frozenset({A.Card("move"), call, (1, "x")})
    value = [0.1, -2.5e-300, decision, items]
    twin = copy_stack([_holding(value)])[0]
    assert twin.env["held"] == value and twin.env["held"] is not value and twin.env["held"][3] is items
    loaded = _round_trip(value)
    assert loaded[0] == 0.1 and loaded[1] == -2.5e-300 and loaded[3] == items
    assert loaded[2] == decision and loaded[2].options[1].action == A.word("decline")
    assert call in loaded[3]   # the rules' node, by its address
    data = stack_to_data([_holding(0.1)], rules())
    assert data[0]["env"]["held"] == {"$": "float", "v": (0.1).hex()}


def test_a_frozenset_holding_a_mutable_is_copied_with_the_memo() -> None:
    """A hashable mutable in a frozenset (a registered class with identity equality) is copied, once per memo."""
    from kcd.engine.values import register_mutable

    @register_mutable("test.total.tag")
    @dataclasses.dataclass(eq=False)
    class Tag:
        n: list

    tag = Tag([1])
    entry = _holding([tag, frozenset({tag, 3})])
    twin = copy_stack([entry])[0].env["held"]
    copied = next(v for v in twin[1] if type(v) is Tag)
    assert copied is twin[0] and copied is not tag and copied.n == [1]
    for taken in ("ast", "float", "decision", "node"):   # a save's own tags
        with pytest.raises(ValueError, match="is taken"):
            register_mutable(taken)(Tag)


@pytest.mark.parametrize("value", [object(), [1, {"k": (2, object())}], frozenset({object()})])
def test_a_value_that_is_not_data_is_an_engine_error_naming_the_program(value: Any) -> None:
    """Copying or saving a stack holding something else is an error of the program that stored it (no replay)."""
    with pytest.raises(Uncopyable, match=r"test\.hold: env `held` holds a builtins\.object"):
        copy_stack([_holding(value)])
    with pytest.raises(Unsaveable, match=r"test\.hold: env `held` holds a builtins\.object"):
        stack_to_data([_holding(value)], rules())
    assert issubclass(Uncopyable, EngineError) and issubclass(Unsaveable, EngineError)


def test_a_game_holding_something_that_is_not_data_raises_instead_of_replaying() -> None:
    """`clone` and `to_json` never fall back to a replay: a broken program's value is an EngineError."""
    game = Game.new(ruleset(), ["red", "green"], seed=4)
    game._stack[-1].env["stray"] = object()
    before = Game.replayed_steps
    with pytest.raises(EngineError, match="holds a builtins.object"):
        game.clone()
    with pytest.raises(EngineError, match="holds a builtins.object"):
        game.to_json()
    assert Game.replayed_steps == before


@pytest.mark.parametrize("name", ["standard", "solo", "vto"])
def test_an_old_format_4_save_without_frames_still_loads_by_replay(name: str) -> None:
    """A save the engine before wrote with `frames: null` (a running step it could not write) loads by replaying its
    history, with no warning; it asks what the old engine asked and goes on as it went on; saved again, it has
    frames."""
    case = json.loads(FIXTURE.read_text())[name]
    assert case["save"]["format"] == 4 and case["save"]["frames"] is None
    text = json.dumps(case["save"])
    before = Game.replayed_steps
    with warnings.catch_warnings():
        warnings.simplefilter("error", OldSaveWarning)
        game = Game.from_json(ruleset(), text)
    assert Game.replayed_steps == before + 1 and game.step_depth >= 2
    assert game.pending.to_dict() == case["pending"]
    again = json.loads(game.to_json())
    assert again["frames"] and again["pending"] == case["pending"]
    loaded = Game.from_json(ruleset(), json.dumps(again))
    assert Game.replayed_steps == before + 1
    for choice in case["then"]:
        assert game.apply(choice).ok and loaded.apply(choice).ok
    assert game.state.to_dict() == loaded.state.to_dict() == case["after"]


# --- every shipped game: clone, save and load at every decision, nothing replayed -----------------------------
_PACKS = {"base": [], "prototype": ["prototype"], "compose": ["compose"], "example": ["example"],
          "kiwibot-cards": ["kiwibot-cards"], "lastmile": ["lastmile"], "lastmile-duel": ["lastmile", "lastmile-duel"],
          "reeds": ["reeds"], "scoped": ["scoped"], "verbs": None}


def _ruleset(name: str) -> Any:
    """The base game, an edition, a shipped mod, or the `verbs` test mod (every verb on selectors)."""
    if _PACKS[name] is None:
        return make_verbs_ruleset(Path(tempfile.mkdtemp(prefix="kcd-verbs-")) / "content")
    return load_ruleset(_PACKS[name]) if _PACKS[name] else ruleset()


# (players, Game.new options, bot): the standard game with 2-4 players, sides B and the advanced setup, Variable
# Turn Order, solo (first-game and advanced)
_KINDS = (
    (2, {}, "greedy"), (4, {"sides": "B"}, "random"), (3, {"setup": "advanced"}, "random"),
    (3, {"variant": "vto"}, "random"), (2, {"mode": "solo"}, "random"), (2, {"mode": "solo", "setup": "advanced"},
                                                                         "greedy"),
)


def _flocks(rs: Any, n: int, rng: random.Random) -> list[str]:
    from kcd.content.rules import compile_rules
    flocks = list(compile_rules(rs).flocks)
    return rng.sample(flocks, n)


@pytest.mark.parametrize("name", list(_PACKS))
def test_no_shipped_game_replays_a_step_to_clone_save_or_load(name: str) -> None:
    """Every kind of game of every edition and mod: at every decision a clone, a save and its load write the same
    save as the game, and nothing is replayed; every tenth decision all three go on alike."""
    rs = _ruleset(name)
    before = Game.replayed_steps
    for i, (players, kw, bot_name) in enumerate(_KINDS):
        seed = 101 * i + len(name)
        rng = random.Random(seed)
        flocks = _flocks(rs, players, rng)
        options = {k: v for k, v in kw.items() if k != "sides"}
        if "sides" in kw:
            options["sides"] = {f: kw["sides"] for f in flocks}
        game = Game.new(rs, flocks, seed=seed, **options)
        bot = make_bot(bot_name, seed)
        decisions = 0
        while not game.is_over:
            text = game.to_json()
            twin = game.clone()
            loaded = Game.from_json(rs, text)
            assert twin.to_json() == text and loaded.to_json() == text
            choice = bot.choose(game)
            assert game.apply(choice).ok
            if decisions % 10 == 0:
                assert twin.apply(choice).ok and loaded.apply(choice).ok
                assert twin.to_json() == game.to_json() == loaded.to_json()
            decisions += 1
        assert Game.replayed_steps == before, (name, kw, decisions)
