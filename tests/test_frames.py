"""The frame protocol (interpreter/engine/frames.py): Ask / Call / Return, failures handed to the parent,
generator frames yielding frames, `drive`, the generic memo copy, and frames as save data."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from test_engine_support import rules

from kcd.engine import action_types as A
from kcd.engine.context import Ctx, EngineError, Runtime, Turn
from kcd.engine.decisions import ask_action, option
from kcd.engine.frames import (Ask, Call, Frame, FrameDataError, GenFrame, Return, Runner, Uncopyable,
                                       copy_stack, drive, register_frame, stack_from_data, stack_to_data)
from kcd.engine.setup import new_state


class _Boom(Exception):
    pass


@register_frame("test.pick")
@dataclass(eq=False)
class _Pick(Frame):
    """Ask twice (the second a single option, answered at once), return both answers."""

    ctx: Ctx
    got: list

    def resume(self, rt, value):
        if self.pc == 0:
            self.pc = 1
            return Ask(self.ctx.flock, "pick", "Pick", [option(A.word("take"), "A"), option(A.word("decline"), "B"),
                                                        option(A.word("take"), "A again")])
        if self.pc == 1:
            self.got.append(value.kind)
            self.pc = 2
            return Ask(self.ctx.flock, "only", "Only", [option(A.word("stop"), "C")])
        self.got.append(value.kind)
        return Return(tuple(self.got))


@register_frame("test.parent")
@dataclass(eq=False)
class _Parent(Frame):
    """Call a _Pick, then a failing generator; catch its failure like a `try` around `yield from`."""

    ctx: Ctx
    result: tuple = ()
    caught: bool = False

    def resume(self, rt, value):
        if self.pc == 0:
            self.pc = 1
            return Call(_Pick(self.ctx, []))
        if self.pc == 1:
            self.result = value
            self.pc = 2
            return Call(GenFrame(_failing()))
        return Return(self.result)

    def fail(self, rt, exc):
        if not isinstance(exc, _Boom):
            raise exc
        self.caught = True
        return Return(self.result)


def _failing():
    act = yield from ask_action("red", "gen", "Generator asks", [option(A.word("play"), "X"), option(A.word("pass"), "Y")])
    assert act.kind in ("play", "pass")
    raise _Boom()


def _rt() -> Runtime:
    r = rules()
    return Runtime(r, new_state(r, ["red", "green"], 1, None, None, None, "first-game"))


def test_runner_asks_dedupes_answers_single_options_and_hands_failures_to_the_parent() -> None:
    """Identical ids are one choice; a single distinct option is not asked; a child's exception reaches fail()."""
    rt = _rt()
    stack: list[Frame] = [_Parent(Ctx("red"))]
    runner = Runner(rt, stack, 1000)
    d = runner.run(None)
    assert d.kind == "pick" and d.option_ids() == ["take", "decline"]
    d = runner.run(runner.value_of(d, "decline"))
    assert d.kind == "gen" and runner.raw            # the generator's own Decision: answered with the id
    assert runner.run(runner.value_of(d, "play")) is None
    assert runner.result == ("decline", "stop") and not stack


def test_drive_runs_a_frame_inside_a_generator_and_no_options_is_an_engine_error() -> None:
    """The old generator names of converted procedures are `drive` wrappers."""
    gen = drive(_rt(), _Pick(Ctx("red"), []))
    d = next(gen)
    with pytest.raises(StopIteration) as stop:
        gen.send("take")
    assert d.kind == "pick" and stop.value.value == ("take", "stop")

    @dataclass(eq=False)
    class Empty(Frame):
        def resume(self, rt, value):
            return Ask("red", "none", "Nothing", [])
    with pytest.raises(EngineError, match="no legal option for none"):
        next(drive(_rt(), Empty()))


def test_copy_keeps_shared_contexts_shared_and_refuses_generators_and_objects() -> None:
    """One memo for the whole stack: two frames sharing a Ctx (and its Turn) share the copy."""
    ctx = Ctx("red", turn=Turn(moved={3}))
    a, b = _Pick(ctx, [1]), _Pick(ctx, [2])
    a.pc = 1
    twin_a, twin_b = copy_stack([a, b])
    assert twin_a.ctx is twin_b.ctx and twin_a.ctx is not ctx and twin_a.ctx.turn is not ctx.turn
    assert twin_a.pc == 1 and twin_a.got == [1] and twin_a.got is not a.got
    twin_a.ctx.turn.moved.add(4)
    assert ctx.turn.moved == {3}
    with pytest.raises(Uncopyable):
        copy_stack([GenFrame(_failing())])
    with pytest.raises(Uncopyable):
        copy_stack([_Pick(ctx, [object()])])


def test_frames_round_trip_as_data_and_bad_data_is_a_value_error() -> None:
    """stack_to_data / stack_from_data: kinds, pcs, fields, shared contexts, actions; anything else refused."""
    r = rules()
    ctx = Ctx("red", turn=Turn(moved={1, 2}), suppressed=frozenset({"t-feed"}), depth=2, source="s")
    node = r.cards[next(iter(r.cards))].effect or r.facedown
    stack = [_Parent(ctx, result=(A.word("take"),)), _Pick(ctx, [A.Card("move"), node, {"k": (1, 2)}])]
    stack[1].pc = 2
    data = stack_to_data(stack, r)
    again = stack_from_data(data, r)
    assert [type(f) for f in again] == [_Parent, _Pick] and again[1].pc == 2
    assert again[0].ctx is again[1].ctx and again[0].ctx.turn.moved == {1, 2}
    assert again[1].got[1] is node and again[1].got[0] == A.Card("move") and again[1].got[2] == {"k": (1, 2)}
    assert stack_to_data(again, r) == data
    for bad in ([], [{"kind": "nope", "pc": 0, "fields": {}}], [{**data[0], "pc": -1}],
                [{**data[0], "fields": {}}], [{**data[1], "fields": {**data[1]["fields"], "got": [{"$": "node", "a": 10 ** 9}]}}],
                [{**data[0], "fields": {**data[0]["fields"], "ctx": {"$": "ctx", "r": 0, "v": {"flock": 3}}}}]):
        with pytest.raises(FrameDataError):
            stack_from_data(bad, r)


def test_a_registered_mutable_class_is_copied_with_the_memo_and_saved() -> None:
    """register_mutable: shared between frames, shared in the copy and after a save; refused names."""
    from kcd.engine.frames import register_mutable

    @register_mutable("test.plan")
    @dataclass(eq=False)
    class Plan:
        steps: list

    plan = Plan([1, 2])
    a, b = _Pick(Ctx("red"), [plan]), _Pick(Ctx("red"), [plan])
    twin_a, twin_b = copy_stack([a, b])
    assert twin_a.got[0] is twin_b.got[0] and twin_a.got[0] is not plan and twin_a.got[0].steps == [1, 2]
    again = stack_from_data(stack_to_data([a, b], rules()), rules())
    assert again[0].got[0] is again[1].got[0] and again[0].got[0].steps == [1, 2]
    with pytest.raises(ValueError):
        register_mutable("ctx")(Plan)
