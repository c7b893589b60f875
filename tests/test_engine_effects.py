"""Engine DSL interpreter: every registry verb/query/modifier is mapped, unknown nodes fail, bounds hold."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_engine_support import blank_runtime, dsl, fruit

from kcd.dsl import ast
from kcd.dsl.registry import CORE_PRIMITIVES
from kcd.engine import effects, queries
from kcd.engine.context import Ctx, EngineError
from kcd.engine.modifiers import MODIFIERS
from kcd.testing import drive, steps


def test_every_core_primitive_has_an_engine_mapping():
    """Each verb maps to a procedure, each query to a function, each modifier to parameters; triggers are emitted."""
    for p in CORE_PRIMITIVES:
        if p.kind == "verb":
            assert p.id in effects.VERBS, p.id
        elif p.kind == "query":
            assert p.id in queries.QUERIES, p.id
        elif p.kind == "modifier":
            assert p.id in MODIFIERS, p.id
    engine_src = "".join(f.read_text() for f in Path(effects.__file__).parent.glob("*.py"))
    for p in CORE_PRIMITIVES:
        if p.kind == "trigger":
            assert f'"{p.id}"' in engine_src, f"trigger {p.id} is never emitted"


def test_unknown_verb_and_node_are_errors_not_noops():
    """The interpreter refuses by default: an unknown verb or node kind raises EngineError."""
    rt = blank_runtime()
    bogus = ast.Call(words=(), span=ast.Span(0, 0), primitive="no-such-verb")
    with pytest.raises(EngineError):
        drive(steps(rt, effects.run_frame(rt, bogus, Ctx("red"))))
    with pytest.raises(EngineError):
        drive(steps(rt, effects.run_frame(rt, dsl("most count(my nests)", "objective"), Ctx("red"))))
    with pytest.raises(EngineError):
        queries.evaluate(rt.state, bogus, "red")


def test_repeat_runs_body_n_times_and_is_bounded():
    """`repeat N` runs its body N times; a literal above the bound is refused."""
    rt = blank_runtime()
    drive(steps(rt, effects.run_frame(rt, dsl("repeat 3 { gain 1 fruit }"), Ctx("red"))))
    assert sum(rt.state.flocks["red"].fruit.values()) == 3
    big = ast.Repeat(10_000, dsl("gain 1 fruit"), ast.Span(0, 0))
    with pytest.raises(EngineError):
        drive(steps(rt, effects.run_frame(rt, big, Ctx("red"))))


def test_trigger_does_not_refire_itself_and_depth_bounded():
    """A trigger's effect does not re-fire the trigger that ran it (Green gains 1 more, not forever)."""
    rt = blank_runtime(players=("green", "red"), sides={"green": "B"})
    gen = steps(rt, effects.run_frame(rt, dsl("gain 1 domain"), Ctx("green")))
    fired = 0
    try:
        d = next(gen)
        while True:
            d = gen.send(d.option_ids()[0])
    except StopIteration:
        pass
    fired = sum(1 for e in rt.events if e.kind == "power")
    assert fired == 1
    with pytest.raises(EngineError):
        drive(steps(rt, effects.run_frame(rt, dsl("gain 1 fruit"), Ctx("red", depth=99))))


def test_choose_offers_only_possible_options_and_may_skips_impossible():
    """`choose` offers the options that can be performed; `may` with an impossible body asks nothing."""
    rt = blank_runtime()
    _, asked = drive(steps(rt, effects.run_frame(rt, dsl("choose { pay 1 fruit any; gain 1 vp } or { gain 1 fruit }"), Ctx("red"))))
    assert asked == [] and sum(rt.state.flocks["red"].fruit.values()) == 1
    _, asked = drive(steps(rt, effects.run_frame(rt, dsl("may { pay 3 fruit same }"), Ctx("red"))))
    assert asked == []
    fruit(rt, "red", blue=2)
    _, asked = drive(steps(rt, effects.run_frame(rt, dsl("choose { pay 1 fruit any; gain 1 vp } or { gain 1 fruit }"), Ctx("red"))),
                     ["choice:1"])
    assert rt.state.flocks["red"].season_vp == 1 and asked[0].kind == "choose"


def test_unpayable_cost_skips_rest_of_sequence():
    """A mandatory payment that cannot be made cancels the rest of that effect (e.g. `pay ...; gain ...`)."""
    rt = blank_runtime()
    drive(steps(rt, effects.run_frame(rt, dsl("pay 1 domain; gain 3 fruit"), Ctx("red"))))
    assert sum(rt.state.flocks["red"].fruit.values()) == 0


def test_rule_ids_from_comp_to_end_all_named_in_engine_tests():
    """Every rule clause R-COMP .. R-END and R-VTO (RULES.md) is named by an engine test."""
    from rulebook import rulebook_file   # skips without the shared rulebook, fails under CI

    rules_md = rulebook_file("RULES.md")
    ids = re.findall(r"^- (R-[A-Z]+-\d+)", rules_md.read_text(), re.M)
    ids = [i for i in ids if not i.startswith("R-SOLO")]
    text = "".join(p.read_text() for p in Path(__file__).parent.glob("test_engine_*.py"))
    text = text.replace("_", "-")
    missing = [i for i in ids if i not in text]
    assert not missing, missing
