"""The one table of the effect language's engine verbs: DSL verb id -> procedure, and -> "possible now" check.

Each rule module registers its own verbs here (effects.py the gains and payments, placing.py placing and
growing, move.py moves and pushes, build.py, feed.py, marking.py, compose.py the compositional layer's verbs, their lowerings and nodes), and the runtime is handed the table
(`Runtime.verbs`), which `effects.run` reads. So the effect interpreter imports no rule module and no rule
module has to import it back lazily: the engine has no import circle. interpreter/engine/verbs.py imports every
module that registers, so a game always has them all.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from kcd.dsl import ast

# (runtime, bound node, ctx) -> the continuation of the program that does the verb, or None when nothing is left
# to do (its result is not read) / can it be done now. The runtime and the ctx
# are context.py's Runtime and Ctx, left Any because context.py imports this module (the engine has no import
# circle); the node is the ast.Call of a first-language verb or, for the compositional verbs, an ast.Phrase.
Verb = Callable[[Any, Any, Any], Any]
Check = Callable[[Any, Any, Any], bool]
# (runtime, node, ctx) -> the continuation that executes an `if`, `for each` or phrase (a machine.Cont, left Any
# as the runtime is)
Composed = Callable[[Any, ast.Node, Any], Any]
ComposedCheck = Callable[[Any, ast.Node, Any], bool]


@dataclass
class VerbTable:
    """Verb procedures and their checks by DSL verb id (a verb without a check is always possible)."""

    run: dict[str, Verb] = field(default_factory=dict)
    possible: dict[str, Check] = field(default_factory=dict)
    # the lowerings of the verbs on selectors: (phrase with its chosen players filled in, compose.Lowering) -> the
    # continuation running it; a registry entry's `lower` hook is one (compose.py reads an entry's hook itself too)
    lower: dict[str, Callable[[Any, Any], Any]] = field(default_factory=dict)
    # the compositional layer's nodes (`if`, `for each`, phrases: ast.COMPOSED), run and checked by compose.py
    composed_run: Composed | None = None
    composed_possible: ComposedCheck | None = None

    def register(self, verb_id: str, procedure: Verb, possible: Check | None = None) -> None:
        """Add (or replace) one verb's procedure (it gives the program continuation to run, or None) and its
        check."""
        self.run[verb_id] = procedure
        if possible is not None:
            self.possible[verb_id] = possible

    def register_lowering(self, verb_id: str, lower: Callable[[Any, Any], Any]) -> None:
        """Add (or replace) the lowering of a verb on selectors (compose.py runs a phrase of it through it)."""
        self.lower[verb_id] = lower

    def adopt(self, entries: Iterable[Any]) -> None:
        """Register the `run` and `lower` hooks of every registry entry that has them and no procedure or lowering
        yet: a verb whose entry carries them needs no module of the engine to name it."""
        for entry in entries:
            run = getattr(entry, "run", None)
            if run is not None and entry.id not in self.run:
                self.register(entry.id, run)
            lower = getattr(entry, "lower", None)
            if lower is not None and entry.id not in self.lower:
                self.register_lowering(entry.id, lower)

    def register_composed(self, procedure: Composed, possible: ComposedCheck) -> None:
        """Hand effects.run the compositional layer's nodes (interpreter/engine/compose.py)."""
        self.composed_run = procedure
        self.composed_possible = possible


TABLE = VerbTable()


def register(verb_id: str, procedure: Verb, possible: Check | None = None) -> None:
    """Register a verb in the engine's table."""
    TABLE.register(verb_id, procedure, possible)


def count(call: ast.Call) -> int:
    """A verb's `n` argument (1 when absent)."""
    return int(call.arg("n", 1))
