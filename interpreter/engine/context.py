"""The runtime a procedure works on (rules + state + event log) and the per-effect context."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from kcd.dsl import ast
from kcd.dsl.bounds import MAX_CHAIN_DEPTH
from kcd.engine import mode_registry as modes
from kcd.core.decisions import Event
from kcd.core.events import FORMS
from kcd.engine.verb_table import TABLE, VerbTable
from kcd.content.rules import Rules
from kcd.core.state import State


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
    # the game mode's own value for this effect and what it runs, None outside one (the solo mode: the Kiwibot
    # segment being resolved); the mode defines it and reads it, the engine only hands it on
    mode_ctx: Any = None
    it: Any = None                             # the element a compositional `for each` body is about
    here: str | None = None                    # `this hex`: the hex of the Nest or event whose effect runs
    # modifiers of `this action:` holding for this effect (bound nodes); None, not (), when none: a frame copies and
    # saves None as it is, with no work (a Ctx is copied with every frame)
    during: tuple[ast.Call, ...] | None = None

    def sub(self, **changes: Any) -> "Ctx":
        """A copy with some fields changed (turn facts stay shared): `dataclasses.replace`, written out (effects
        make one for every nested run)."""
        if not changes.keys() <= _CTX_FIELDS:
            return replace(self, **changes)   # its TypeError names the unknown field
        twin = _NEW(Ctx)
        d = twin.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return twin


_CTX_FIELDS = frozenset(Ctx.__dataclass_fields__)
# Ctx fields a save names otherwise (interpreter/engine/values.py): the mode's own value keeps the name of the one
# mode value format 4 was written with, Kiwibot's segment, so saves stay byte for byte what they were
CTX_SAVED_AS: dict[str, str] = {"mode_ctx": "segment"}
CTX_LOADED_AS: dict[str, str] = {saved: name for name, saved in CTX_SAVED_AS.items()}
_NEW = object.__new__


# Nested trigger / effect depth: a defence only. The checker bounds every chain before play and refuses content
# that could nest deeper (interpreter/dsl/bounds.py, `effect-bound`), so valid content never reaches it.
MAX_DEPTH = MAX_CHAIN_DEPTH
MAX_REPEAT = 50        # a `repeat` literal above this is refused


@dataclass
class Runtime:
    """Rules, state and the event log of one game, and the mode it is played in (interpreter/modes)."""

    rules: Rules
    state: State
    events: list[Event] = field(default_factory=list)
    mode: Any = None    # a modes.base.Mode; None: the mode the state shows (modes.for_state)
    verbs: VerbTable = field(default_factory=lambda: TABLE)   # the engine verbs effects.run dispatches to

    def __post_init__(self) -> None:
        if self.mode is None:
            self.mode = modes.for_state(self.state)

    def emit(self, form: str, player: str | None = None, data: dict[str, Any] | None = None, **fields: Any) -> None:
        """Append an event of `form` (interpreter/core/events.py FORMS) with its typed fields."""
        # the text (events.render for OWNER) is rendered when first read (Event.text): the game loop never needs it
        self.events.append(Event(FORMS[form].kind, None, player, data, form, fields))   # type: ignore[arg-type]

    def modifiers(self, flock: str) -> set[str]:
        """Modifier ids active for a flock (its side's powers)."""
        f = self.state.flocks[flock]
        side = self.rules.flocks.get(f.id, {}).get(f.side)
        if side is None:
            return set()
        return {p.modifier for p in side.powers if p.modifier}
