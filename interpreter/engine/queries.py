"""Season card objectives (R-SCARD-4/5): an objective is `most` / `least` and a quantity of the compositional
layer, evaluated for each flock in turn by interpreter/engine/selectors.py (R-SCARD-4 counting: in an objective
a Leader is a size-3 Kiwi / 3 tokens, a Nest its dominance value, a Control Nest 2)."""
from __future__ import annotations

from typing import Any

from kcd.dsl import ast
from kcd.engine import objective_plans
from kcd.engine.context import EngineError
from kcd.engine.selectors import Scope, quantity
from kcd.core.state import State

__all__ = ["evaluate", "winners"]


def evaluate(state: State, query_node: ast.Objective | ast.Node, flock: str, memo: dict[Any, Any] | None = None) -> int:
    """The flock's count for an objective (or its quantity). `memo` may be shared by the evaluations of one
    objective on one unchanged state for several flocks (what does not depend on the flock is selected once)."""
    q = query_node.query if isinstance(query_node, ast.Objective) else query_node
    if not isinstance(q, (ast.QCall, ast.BinOp, ast.Num)):
        raise EngineError(f"an objective's quantity is not compiled: {type(q).__name__}")
    return quantity(state, q, Scope(flock, purpose="objective", memo={} if memo is None else memo))


def winners(state: State, objective: ast.Objective, flocks: list[str],
            memo: dict[Any, Any] | None = None) -> tuple[list[str], dict[str, int]]:
    """The flocks best on an objective (most/least) and every flock's value. `memo` may carry what the caller
    already computed on this unchanged state (`selectors.dominant_table`)."""
    memo = {} if memo is None else memo
    compiled = objective_plans.plan(objective.query)
    if compiled is not None:   # every flock's value in one pass over the island
        values = compiled(state, flocks, memo)
    else:
        values = {f: evaluate(state, objective, f, memo) for f in flocks}
    best = (max if objective.direction == "most" else min)(values.values())
    return [f for f in flocks if values[f] == best], values
