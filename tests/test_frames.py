"""The runner's protocol (interpreter/engine/machine.py) and the values a continuation holds
(interpreter/engine/values.py): Ask / Call / Return, failures handed to the caller's `catch`, the generic memo
copy of a stack, and a stack as save data."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from test_engine_support import rules

from kcd.core import action_types as A
from kcd.engine.context import Ctx, EngineError, Runtime, Turn
from kcd.core.decisions import option
from kcd.engine.values import FrameDataError, Uncopyable
from kcd.engine.machine import (Ask, Call, Do, Question, Return, Runner, Done, copy_stack, program, stack_from_data,
                                stack_to_data, step)
from kcd.engine.setup import new_state
from kcd.testing import steps


class _Boom(Exception):
    pass


def _ask_pick(rt: Any, env: dict) -> Question:
    return Question(env["ctx"].flock, "pick", "Pick", [option(A.word("take"), "A"), option(A.word("decline"), "B"),
                                                      option(A.word("take"), "A again")])


def _ask_only(rt: Any, env: dict) -> Question:
    return Question(env["ctx"].flock, "only", "Only", [option(A.word("stop"), "C")])


def _keep(rt: Any, env: dict) -> None:
    env["got"].append(env.pop("answer").kind)


def _got(rt: Any, env: dict) -> Any:
    return tuple(env["got"])


# ask twice (the second a single option, answered at once), return both answers
_PICK = program("test.pick", ("ctx", "got"), {"ctx": Ctx, "got": list, "answer": None},
                Ask("pick", _ask_pick, into="answer", kinds={"pick": ("take", "decline")}), Do(_keep),
                Ask("only", _ask_only, into="answer", kinds={"only": ("stop",)}), Do(_keep),
                Return(_got))


def _ask_gen(rt: Any, env: dict) -> Question:
    return Question("red", "gen", "Asks", [option(A.word("play"), "X"), option(A.word("pass"), "Y")])


def _raise_boom(rt: Any, env: dict) -> None:
    raise _Boom()


_FAILING = program("test.failing_after_ask", (), {"answer": None},
                   Ask("gen", _ask_gen, into="answer", kinds={"gen": ("play", "pass")}), Do(_raise_boom))


def _pick_child(rt: Any, env: dict) -> Any:
    return _PICK.start(env["ctx"], [])


def _failing_child(rt: Any, env: dict) -> Any:
    return _FAILING.start()


def _result(rt: Any, env: dict) -> Any:
    return env["result"]


def _catch_boom(rt: Any, env: dict, exc: Exception) -> str | None:
    if not isinstance(exc, _Boom):
        raise exc
    env["caught"] = True
    return None


# call a pick, then a failing child; catch its failure like a `try` around the call
_PARENT = program("test.parent", ("ctx",), {"ctx": Ctx, "result": tuple, "caught": bool},
                  Call("pick", _pick_child, into="result"), Call("fail", _failing_child), Return(_result),
                  catch=_catch_boom)


def _rt() -> Runtime:
    r = rules()
    return Runtime(r, new_state(r, ["red", "green"], 1, None, None, None, "first-game"))


def test_runner_asks_dedupes_answers_single_options_and_hands_failures_to_the_caller() -> None:
    """Identical ids are one choice; a single distinct option is not asked; a child's exception reaches `catch`."""
    rt = _rt()
    parent = _PARENT.start(Ctx("red"))
    stack = [parent]
    runner = Runner(rt, stack, 1000)
    d = runner.run(None)
    assert d.kind == "pick" and d.option_ids() == ["take", "decline"]
    d = runner.run(runner.value_of(d, "decline"))
    assert d.kind == "gen" and d.option_ids() == ["play", "pass"]
    assert runner.run(runner.value_of(d, "play")) is None
    assert parent.env["caught"] is True and not stack
    assert runner.result is None   # the catch returned: no value


def test_step_runs_to_the_next_decision_or_done_and_no_options_is_an_engine_error() -> None:
    """`step(rules, rt, stack, answer)` gives the next Decision or Done with the bottom program's value."""
    rt = _rt()
    stack = [_PICK.start(Ctx("red"), [])]
    d = step(rt.rules, rt, stack)
    assert d.kind == "pick"
    done = step(rt.rules, rt, stack, d.action_of("take"))
    assert done == Done(("take", "stop")) and not stack
    gen = steps(rt, _PICK.start(Ctx("red"), []))
    d = next(gen)
    with pytest.raises(StopIteration) as stop:
        gen.send("take")
    assert d.kind == "pick" and stop.value.value == ("take", "stop")
    with pytest.raises(EngineError, match="no legal option for none"):
        next(steps(rt, _EMPTY.start()))


def _ask_nothing(rt: Any, env: dict) -> Question:
    return Question("red", "none", "Nothing", [])


_EMPTY = program("test.empty", (), {}, Ask("none", _ask_nothing, kinds={"none": ("take",)}))


def test_copy_keeps_shared_contexts_shared_and_refuses_objects() -> None:
    """One memo for the whole stack: two continuations sharing a Ctx (and its Turn) share the copy."""
    ctx = Ctx("red", turn=Turn(moved={3}))
    a, b = _PICK.start(ctx, [1]), _PICK.start(ctx, [2])
    a.at = 1
    twin_a, twin_b = copy_stack([a, b])
    assert twin_a.env["ctx"] is twin_b.env["ctx"] and twin_a.env["ctx"] is not ctx
    assert twin_a.env["ctx"].turn is not ctx.turn
    assert twin_a.at == 1 and twin_a.env["got"] == [1] and twin_a.env["got"] is not a.env["got"]
    twin_a.env["ctx"].turn.moved.add(4)
    assert ctx.turn.moved == {3}
    with pytest.raises(Uncopyable):
        copy_stack([_PICK.start(ctx, [object()])])


def test_a_stack_round_trips_as_data_and_bad_data_is_a_value_error() -> None:
    """stack_to_data / stack_from_data: programs, resume names, env values, shared contexts, actions, nodes;
    anything else refused."""
    r = rules()
    ctx = Ctx("red", turn=Turn(moved={1, 2}), suppressed=frozenset({"t-feed"}), depth=2, source="s")
    node = r.cards[next(iter(r.cards))].effect or r.facedown
    parent = _PARENT.start(ctx)
    parent.at = _PARENT.resume_at["pick"]
    parent.env["result"] = (A.word("take"),)
    pick = _PICK.start(ctx, [A.Card("move"), node, {"k": (1, 2)}])
    pick.at = _PICK.resume_at["only"]
    data = stack_to_data([parent, pick], r)
    again = stack_from_data(data, r)
    assert [c.program for c in again] == [_PARENT, _PICK] and again[1].label == "only"
    assert again[0].env["ctx"] is again[1].env["ctx"] and again[0].env["ctx"].turn.moved == {1, 2}
    got = again[1].env["got"]
    assert got[1] is node and got[0] == A.Card("move") and got[2] == {"k": (1, 2)}
    assert stack_to_data(again, r) == data
    for bad in ([], [{"program": "nope", "at": "pick", "env": {}}], [{**data[0], "at": "start"}],
                [{**data[0], "env": {}}],
                [{**data[1], "env": {**data[1]["env"], "got": [{"$": "node", "a": 10 ** 9}]}}],
                [{**data[0], "env": {**data[0]["env"], "ctx": {"$": "ctx", "r": 0, "v": {"flock": 3}}}}],
                [{"kind": "nope", "pc": 0}]):
        with pytest.raises(FrameDataError):
            stack_from_data(bad, r)


def test_a_registered_mutable_class_is_copied_with_the_memo_and_saved() -> None:
    """register_mutable: shared between continuations, shared in the copy and after a save; refused names."""
    from kcd.engine.values import register_mutable

    @register_mutable("test.plan")
    @dataclass(eq=False)
    class Plan:
        steps: list

    plan = Plan([1, 2])
    a, b = _PICK.start(Ctx("red"), [plan]), _PICK.start(Ctx("red"), [plan])
    a.at = b.at = _PICK.resume_at["pick"]
    twin_a, twin_b = copy_stack([a, b])
    assert twin_a.env["got"][0] is twin_b.env["got"][0] and twin_a.env["got"][0] is not plan
    assert twin_a.env["got"][0].steps == [1, 2]
    again = stack_from_data(stack_to_data([a, b], rules()), rules())
    assert again[0].env["got"][0] is again[1].env["got"][0] and again[0].env["got"][0].steps == [1, 2]
    with pytest.raises(ValueError):
        register_mutable("ctx")(Plan)
