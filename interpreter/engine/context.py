"""The runtime a procedure works on (rules + state + event log) and the per-effect context."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from interpreter.engine.decisions import Event
from interpreter.engine.rules import Rules
from interpreter.engine.state import State


class EngineError(RuntimeError):
    """An engine invariant or content contract was broken (e.g. an unknown DSL node)."""


@dataclass
class Turn:
    """Turn-local Move facts (R-MOVE-4): Kiwi moved, Leader moved, ability used."""

    moved: set[int] = field(default_factory=set)
    leader_moved: bool = False
    ability_used: bool = False


@dataclass
class Ability:
    """Where the Leader's ability started, landed and what it passed (R-LEAD-5)."""

    start: str
    landing: str | None = None
    passed: list[str] = field(default_factory=list)


@dataclass
class Ctx:
    """Who runs an effect and under which limits."""

    flock: str
    turn: Turn = field(default_factory=Turn)
    suppressed: frozenset[str] = frozenset()   # triggers that may not fire again in this chain
    depth: int = 0
    ability: Ability | None = None
    no_vp: bool = False                        # second run of a doubled Nest benefit (R-ASYM-4)
    source: str = ""
    segment: Any = None                        # Kiwibot's Solo card segment being resolved (solo.Segment, R-SOLO-10)
    it: Any = None                             # the element a compositional `for each` body is about
    here: str | None = None                    # `this hex`: the hex of the Nest or event whose effect runs

    def sub(self, **changes: Any) -> "Ctx":
        """A copy with some fields changed (turn facts stay shared)."""
        return replace(self, **changes)


MAX_DEPTH = 8          # nested trigger / effect depth
MAX_REPEAT = 50        # a `repeat` literal above this is refused


@dataclass
class Runtime:
    """Rules, state and the event log of one game."""

    rules: Rules
    state: State
    events: list[Event] = field(default_factory=list)

    def log(self, kind: str, text: str, player: str | None = None, data: dict | None = None) -> None:
        """Append an event to the log (with an optional structured payload)."""
        self.events.append(Event(kind, text, player, data))

    def modifiers(self, flock: str) -> set[str]:
        """Modifier ids active for a flock (its side's powers)."""
        f = self.state.flocks[flock]
        side = self.rules.flocks.get(f.id, {}).get(f.side)
        if side is None:
            return set()
        return {p.modifier for p in side.powers if p.modifier}
