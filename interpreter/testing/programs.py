"""Running one program of the rules machine by hand: `steps` turns a continuation into a generator of its
decisions, `drive` answers them from a list (a rule test states the answers a player gives, in order)."""
from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

from kcd.core.decisions import Decision
from kcd.engine.context import Runtime
from kcd.engine.machine import Cont, Runner

# a program run by hand has no step budget of its own to keep: the game's limit guards play, not a test
_NO_LIMIT = 1 << 62


def steps(rt: Runtime, entry: Cont | None) -> Generator[Decision, str, Any]:
    """Run a program's continuation (or None: nothing to run) to its end inside a generator: yields each Decision,
    receives the chosen option's id, returns the program's value (tests answer decisions one by one)."""
    if entry is None:
        return None
    runner = Runner(rt, [entry], _NO_LIMIT)
    decision = runner.run(None)
    while decision is not None:
        answer = yield decision
        decision = runner.run(decision.action_of(answer))
    return runner.result


def drive(gen: Generator[Decision, str, Any], answers: Iterable[str] = ()) -> tuple[Any, list[Decision]]:
    """Run a `steps` generator (a program run by hand), answering each decision in order; returns (result,
    decisions asked). AssertionError on a decision left unanswered, an answer it does not offer, or answers left."""
    queue = list(answers)
    asked: list[Decision] = []
    try:
        d = next(gen)
        while True:
            asked.append(d)
            if not queue:
                raise AssertionError(f"unanswered {d.kind} decision for {d.player}: {d.option_ids()}")
            a = queue.pop(0)
            if a not in d.option_ids():
                raise AssertionError(f"{a!r} not in {d.option_ids()}")
            d = gen.send(a)
    except StopIteration as stop:
        if queue:
            raise AssertionError(f"unused answers {queue}") from None
        return stop.value, asked
