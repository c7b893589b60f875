"""The rules machine (interpreter/engine/machine.py): programs of a few instruction kinds, continuations as data.

Programs run on the same stack as the frames not yet converted; clone and save/load handle them generically (a
save names a program by id and its resume point by the name of the Ask or Call it waits on); format-3 saves whose
frames name a converted procedure load by replaying their history once, with a warning.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_engine_support import ruleset

from kcd.engine import Game, machine
from kcd.core import action_types as A
from kcd.core.decisions import option
from kcd.engine.machine import Runner
from kcd.engine.game import OldSaveWarning
from kcd.engine.machine import (Ask, Call, Do, Emit, ForEach, If, Jump, Label, Question, Return, While,
                                program)
from kcd.testing import steps

SAVES = Path(__file__).parent / "saves" / "format3-programs.json"


# --- a toy program, run by the frames' runner ---------------------------------------------------------------
def _zero(rt: Any, env: dict) -> None:
    env["total"] = 0


def _count_up(rt: Any, env: dict) -> None:
    env["total"] += env["n"]


def _items(rt: Any, env: dict) -> range:
    return range(env["upto"])


def _small(rt: Any, env: dict) -> bool:
    return env["total"] < 100


def _double(rt: Any, env: dict) -> None:
    env["total"] *= 2


def _has_more(rt: Any, env: dict) -> bool:
    return env["total"] > 5


def _ask_colour(rt: Any, env: dict) -> Question:
    return Question("red", "return-fruit", "Pick",
                    [option(A.ReturnFruit(c), c) for c in ("red", "green")])


def _picked(rt: Any, env: dict) -> None:
    env["picked"] = env.pop("answer").fruit


def _child(rt: Any, env: dict) -> Any:
    return _TOY_CHILD.start(env["total"])


def _total(rt: Any, env: dict) -> Any:
    return env["total"]


def _plus_one(rt: Any, env: dict) -> Any:
    return env["x"] + 1


_TOY_CHILD = program("test.toy_child", ("x",), {"x": int}, Return(_plus_one))
_TOY = program(
    "test.toy", ("upto",), {"upto": int, "total": int, "n": int, "answer": A.ReturnFruit, "picked": str},
    Do(_zero),
    ForEach("n", _items, (Do(_count_up),)),          # 0+1+2+3 = 6
    If(_has_more, (Jump("grow"),), (Return(_total),)),
    Label("grow"),
    While(_small, (Do(_double),)),                   # 6 -> 192
    Ask("colour", _ask_colour, into="answer", kinds={"return-fruit": ("return-fruit",)}),
    Do(_picked),
    Call("child", _child, into="total"),             # 193
    Return(_total))


def test_a_program_runs_its_loops_branches_asks_and_calls_on_the_runner() -> None:
    """ForEach, If/Jump, While, Ask (suspends with the Question), Call (the child's value stored) and Return."""
    runner = Runner(None, [_TOY.start(4)], 1000)   # type: ignore[arg-type]
    decision = runner.run(None)
    assert decision is not None and decision.kind == "return-fruit"
    top = runner.stack[-1]
    assert type(top) is machine.Cont and top.label == "colour" and top.env["total"] == 192
    assert runner.run(runner.value_of(decision, decision.options[1].id)) is None
    assert top.env["picked"] == "green"
    assert runner.result == 193
    short = Runner(None, [_TOY.start(2)], 1000)    # type: ignore[arg-type]
    assert short.run(None) is None and short.result == 1   # 0+1 is not above 5: returned at once


def test_programs_refuse_bad_definitions() -> None:
    """Names used twice, a missing type, a jump to nowhere and an Ask without kinds are errors at import time."""
    with pytest.raises(ValueError, match="used twice"):
        program("test.bad1", (), {}, Call("a", _child), Call("a", _child))
    with pytest.raises(ValueError, match="no type for the parameters x"):
        program("test.bad2", ("x",), {})
    with pytest.raises(ValueError, match="no label nowhere"):
        program("test.bad3", (), {}, Jump("nowhere"))
    with pytest.raises(ValueError, match="declares no decision"):
        program("test.bad4", (), {}, Ask("a", _ask_colour))
    with pytest.raises(ValueError, match="is not a module-level named function"):
        program("test.bad5", (), {}, Do(lambda rt, env: None))
    with pytest.raises(ValueError, match="defined twice"):
        program("test.toy", ("upto",), {"upto": int})
    with pytest.raises(TypeError):
        _TOY.start()


def test_consecutive_updates_are_one_instruction() -> None:
    """Do and Emit runs are merged (one call each), a label keeps them apart; the code ends with a Return."""
    merged = program("test.merged", (), {"total": int}, Do(_double), Do(_double), Emit("cannot-feed", _nobody))
    assert len(merged.code) == 2
    apart = program("test.apart", (), {"total": int}, Do(_double), Label("here"), Do(_double))
    assert len(apart.code) == 3


def _nobody(rt: Any, env: dict) -> tuple[str, dict]:
    return "red", {"flock": "red"}


def _boom(rt: Any, env: dict) -> None:
    raise KeyError("boom")


def _failing_child(rt: Any, env: dict) -> Any:
    return _FAILING.start()


def _caught(rt: Any, env: dict, exc: Exception) -> str | None:
    if isinstance(exc, KeyError):
        env["caught"] = True
        return "after"
    raise exc


_FAILING = program("test.failing", (), {}, Do(_boom))


def test_a_program_catches_what_a_child_raises_and_goes_on_at_a_label() -> None:
    """`catch` names the Label to go on at (as a `try` around the call); what it re-raises goes to the caller."""
    runner = Runner(None, [_CATCHING.start()], 100)   # type: ignore[arg-type]
    assert runner.run(None) is None and runner.result is True
    uncaught = Runner(None, [_TOY_CHILD.start("x")], 100)   # type: ignore[arg-type]
    with pytest.raises(TypeError):
        uncaught.run(None)


def _caught_value(rt: Any, env: dict) -> Any:
    return env["caught"]


_CATCHING = program("test.catching", (), {"caught": bool},
                    Call("risky", _failing_child), Return(), Label("after"), Return(_caught_value), catch=_caught)


# --- in games: the stack, clone, save and load ---------------------------------------------------------------
def _game_at(program_id: str, seed_from: int = 1) -> Game:
    """A 2-player game whose top stack entry is a continuation of `program_id`."""
    for seed in range(seed_from, seed_from + 40):
        game = Game.new(ruleset(), players=["red", "green"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            top = game._stack[-1]
            if type(top) is machine.Cont and top.program.id == program_id:
                return game
            assert game.apply(rng.choice(game.pending.options).id).ok
    raise AssertionError(f"no game reaches {program_id}")


def test_a_continuation_is_saved_by_program_id_name_and_environment() -> None:
    """Format 4: a program entry is {program, at, env}; it loads without replay and continues like the original."""
    game = _game_at("payment.pay")
    data = json.loads(game.to_json())
    assert data["format"] == 4
    entries = {e["program"]: e for e in data["frames"] if "program" in e}
    assert entries["payment.pay"]["at"] == "pay"
    assert set(entries["payment.pay"]["env"]) == {"flock", "req", "rest"}
    before = Game.replayed_steps
    loaded = Game.from_json(ruleset(), json.dumps(data))
    assert Game.replayed_steps == before
    assert Game.from_json(ruleset(), json.dumps(data), verify=True).pending.to_dict() == game.pending.to_dict()
    twin = game.clone()
    rng = random.Random(5)
    for _ in range(40):
        if game.is_over:
            break
        choice = rng.choice(game.pending.options).id
        for g in (game, loaded, twin):
            assert g.apply(choice).ok
    assert loaded.state.to_dict() == game.state.to_dict() == twin.state.to_dict()


def test_a_clone_copies_the_environment() -> None:
    """A clone's continuations are its own: changing the copy's env leaves the original's alone."""
    game = _game_at("build.build")
    twin = game.clone()
    mine = [e for e in game._stack if type(e) is machine.Cont]
    theirs = [e for e in twin._stack if type(e) is machine.Cont]
    assert [e.env for e in mine] == [e.env for e in theirs]
    assert all(a.env is not b.env for a, b in zip(mine, theirs))
    theirs[-1].env["nests"].append("x")
    assert "x" not in mine[-1].env["nests"]


@pytest.mark.parametrize("mutate, message", [
    (lambda e: e.update(program="no.such"), r"frames/\d+/program: unknown program 'no.such'"),
    (lambda e: e.update(at="pay-twice"), r"frames/\d+/at: 'pay-twice' is not an Ask or Call of payment.pay"),
    (lambda e: e.update(at="start"), r"frames/\d+/at: 'start' is not an Ask or Call"),
    (lambda e: e["env"].update(extra=1), r"frames/\d+/env: payment.pay has no value 'extra'"),
    (lambda e: e["env"].pop("req"), r"frames/\d+/env: payment.pay needs req"),
    (lambda e: e["env"].update(flock=3), r"frames/\d+/env/flock: a int, not str"),
    (lambda e: e.pop("env"), r"frames/\d+: .* is not valid"),   # the schema already
])
def test_a_malformed_continuation_is_refused_naming_its_path(mutate: Any, message: str) -> None:
    """Unknown programs and names, missing parameters and wrong types are ValueErrors naming the place."""
    data = json.loads(_game_at("payment.pay").to_json())
    mutate(next(e for e in data["frames"] if e.get("program") == "payment.pay"))
    with pytest.raises(ValueError, match=message):
        Game.from_json(ruleset(), json.dumps(data))


def test_a_program_check_and_its_ask_kinds_guard_a_load() -> None:
    """The program's own check (a requirement the engine never states) and its Ask's declared kinds."""
    data = json.loads(_game_at("payment.pay").to_json())
    entry = next(e for e in data["frames"] if e.get("program") == "payment.pay")
    entry["env"]["req"]["v"]["n"] = 99
    with pytest.raises(ValueError, match="payment.pay: not a payment requirement"):
        Game.from_json(ruleset(), json.dumps(data))
    data = json.loads(_game_at("payment.pay").to_json())
    data["pending"]["kind"] = "feed"
    with pytest.raises(ValueError, match=r"\(payment.pay, at pay\) asks `pay` there"):
        Game.from_json(ruleset(), json.dumps(data))


@pytest.mark.parametrize("name", ["feed.feed/payment.pay", "build.build"])
def test_a_format_3_save_of_a_converted_procedure_loads_by_replay_with_a_warning(name: str) -> None:
    """A save written before the procedures became programs (frames with kind/pc/fields) still loads: its
    history is replayed once, and the game goes on exactly as the old engine went on."""
    case = json.loads(SAVES.read_text())[name]
    assert case["save"]["format"] == 3
    before = Game.replayed_steps
    with pytest.warns(OldSaveWarning, match="replayed once"):
        game = Game.from_json(ruleset(), json.dumps(case["save"]))
    assert Game.replayed_steps == before + 1
    assert game.pending.to_dict() == case["save"]["pending"]
    for choice in case["then"]:
        assert game.apply(choice).ok
    assert game.state.to_dict() == case["after"]
    assert json.loads(game.to_json())["format"] == 4


def test_a_format_3_save_whose_history_does_not_lead_to_its_pending_decision_is_refused() -> None:
    """The replay of an old save is still checked against the saved state and pending decision."""
    case = json.loads(SAVES.read_text())["build.build"]
    data = case["save"]
    data["pending"]["options"] = data["pending"]["options"][:1]
    with pytest.warns(OldSaveWarning), pytest.raises(ValueError, match="does not replay to its pending"):
        Game.from_json(ruleset(), json.dumps(data))


def test_every_program_names_types_for_its_env_and_kinds_for_its_asks() -> None:
    """Each registered program: parameters typed, every Ask with decision and action kinds, no `pc` anywhere."""
    import kcd.modes.solo.procedures  # noqa: F401 (every procedure registered)
    for prog in machine.PROGRAMS.values():
        assert all(p in prog.vars for p in prog.params)
        assert all(kinds and all(kinds.values()) for kinds in prog.asks.values())
        assert prog.resume_at["start"] == 0 and not hasattr(prog, "pc")


def test_a_program_runs_by_hand_through_the_test_helper() -> None:
    """The program payment.pay, started by hand and run by the tests' `steps`, asks what the game's copy asks."""
    from kcd.engine import payment
    game = _game_at("payment.pay")
    env = game._stack[-1].env
    gen = steps(game._rt, payment.PAY.start(env["flock"], env["req"], tuple(env["rest"])))
    assert next(gen).kind == "pay"


def test_a_format_4_save_with_a_converted_procedure_as_a_frame_is_refused() -> None:
    """In format 4 a converted procedure is only ever a program: its old frame form is named as such."""
    case = json.loads(SAVES.read_text())["build.build"]
    data = dict(case["save"], format=4)
    with pytest.raises(ValueError, match=r"frames/0: `actions.turn` is a program now, not a frame"):
        Game.from_json(ruleset(), json.dumps(data))


def test_a_resume_right_before_a_plain_return_returns_without_running_it() -> None:
    """The compiled form: after the last Call of feed.resolve the continuation returns at once."""
    from kcd.engine import feed
    assert feed.RESOLVE.stores[feed.RESOLVE.resume_at["triggers"]] is machine._END
    assert feed.FEED.stores[feed.FEED.resume_at["kiwi"]] == "fed"


def _not_this_one(rt: Any, env: dict, at: str, decision: Any) -> None:
    from kcd.engine.values import FrameDataError
    raise FrameDataError(f"payment.pay: the pending {decision.kind} decision is not the one it asks at {at}")


def test_a_program_check_answer_refuses_a_loaded_pending_decision() -> None:
    """A program's `check_answer` sees the loaded pending decision and where the program waits."""
    from kcd.engine import payment
    text = _game_at("payment.pay").to_json()
    object.__setattr__(payment.PAY, "check_answer", _not_this_one)
    try:
        with pytest.raises(ValueError, match="save's pending decision: payment.pay: the pending pay decision is "
                                             "not the one it asks at pay"):
            Game.from_json(ruleset(), text)
    finally:
        object.__setattr__(payment.PAY, "check_answer", None)
    assert Game.from_json(ruleset(), text).pending.kind == "pay"
