"""Flock-power modifiers: each modifier id maps to rule-parameter changes for that flock only, and for the pieces
its selector names (`my pieces can push kiwi of equal size`, `my nests give benefits twice`)."""
from __future__ import annotations

from typing import Any

from kcd.dsl import ast

from kcd.engine.context import EngineError
from kcd.engine.powers import names, node_names

# modifier id -> {parameter: value}; the procedures read parameters through `param`.
MODIFIERS: dict[str, dict[str, Any]] = {
    "m-push-same": {"push_same_size": True},     # R-ASYM-5: own Kiwi push Kiwi of the same size
    "m-push-any": {"push_any_size": True},       # pieces named push Kiwi of any size (R-PUSH-1's "smaller" lifted)
    "m-nest-twice": {"nest_benefit_times": 2},   # R-ASYM-4: Nest benefits twice, VP excluded
    # modifiers with values: read from the bound node where the rule is applied (compose.py)
    "m-dominance-weight": {},                    # dominance.py via state.params["dominance_weights"] (powers.py)
    "m-push-limit": {},                          # push.after_move via powers.push_limit
    "m-immune": {},                              # push.pieces via powers.immune
    "m-immune-by": {},                           # push.pieces via powers.immune, for one cause of pushes
    "m-feed-discount": {},                       # feed.cost via powers.feed_discounts
}

DEFAULTS: dict[str, Any] = {"push_same_size": False, "push_any_size": False, "nest_benefit_times": 1}


def param(rt: Any, flock: str, name: str, piece: tuple[str, Any] | None = None, during: tuple[ast.Call, ...] = ()) -> Any:
    """The value of a rule parameter for one flock, after its modifiers. `piece` is what the rule is applied to
    (`("kiwi", id)` / `("leader", flock)`: the piece that pushes; `("nest", hex)`: the Nest whose benefit runs): a
    modifier whose selector does not name it leaves the parameter as it was; without `piece`, any modifier counts.
    `during`: the bound modifiers of a `this action:` the rule is applied in (after the flock's powers)."""
    value = DEFAULTS[name]
    for mod in rt.modifiers(flock):
        if mod not in MODIFIERS:
            raise EngineError(f"unknown modifier `{mod}` (no engine mapping)")
        if name in MODIFIERS[mod] and (piece is None or names(rt, flock, mod, piece)):
            value = MODIFIERS[mod][name]
    for node in during:
        found = MODIFIERS.get(node.primitive or "", {})
        if name in found and (piece is None or node_names(rt, flock, node, piece)):
            value = found[name]
    return value
