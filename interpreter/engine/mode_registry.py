"""Game modes as plug-ins: the registry every part of the engine looks a game's mode up in.

A mode (interpreter/modes/base.py `Mode`) says how one way of playing differs from the standard game:
its phases, the procedure of each (phase, step), who answers a decision at once (Kiwibot), its extra setup,
view and score parts, its ranking rule and its save checks. The shared rule modules never ask which mode is
played; they call the game's mode (`Runtime.mode`). Built-in: `standard`, `solo` (modes) and `vto`
(Variable Turn Order, a variant of the standard game). A new mode subclasses `Mode` and calls `register`.

This module imports nothing from the engine, so any module may read the registry without an import circle.
"""
from __future__ import annotations

from typing import Any


class ModeError(ValueError):
    """No such mode or variant, or a mode that does not take the variant asked for (a clear message)."""


_MODES: dict[str, Any] = {}      # mode name -> Mode (chosen by Game.new(mode=...))
_VARIANTS: dict[str, Any] = {}   # variant name -> Mode (chosen by Game.new(variant=...))


def register(mode: Any) -> Any:
    """Make a mode choosable by its name (`Game.new(mode=name)`), or by its `variant` name when it has one
    (`Game.new(variant=name)`); a later registration under the same name replaces the earlier. Returns it."""
    if mode.variant is not None:
        _VARIANTS[mode.variant] = mode
    else:
        _MODES[mode.name] = mode
    return mode


def names() -> list[str]:
    """The registered mode names, in registration order."""
    return list(_MODES)


def all_modes() -> list[Any]:
    """Every registered mode, then every registered variant, in registration order."""
    return [*_MODES.values(), *_VARIANTS.values()]


def option_owner(rules: Any, name: str) -> Any:
    """The registered mode whose own setup options (`Mode.setup_options`) include `name`, or None."""
    return next((m for m in all_modes() if name in {o.name for o in m.setup_options(rules)}), None)


def score_label(column: str) -> str:
    """A readable name of a score column of any registered mode (`Mode.score_label`), e.g. solo's `solo`."""
    owner = next((m for m in all_modes() if column in m.score_columns()), None) or _MODES["standard"]
    label: str = owner.score_label(column)   # the registry holds its modes untyped (Any)
    return label


def view_roles(view: dict[str, Any]) -> dict[str, str]:
    """{flock: role label} of a view, from the mode whose part it holds ({} when every flock is a player)."""
    return next((roles for m in all_modes() if (roles := m.view_roles(view))), {})


def view_flock_extras(view: dict[str, Any], flock_view: dict[str, Any]) -> dict[str, str]:
    """The extra columns of one flock's row, from the mode whose part the view holds."""
    return next((extra for m in all_modes() if (extra := m.view_flock_extras(view, flock_view))), {})


def view_panel(view: dict[str, Any]) -> list[tuple[str, str]]:
    """The (what, value) rows of the mode's own part of a view ([] for the standard game)."""
    return next((rows for m in all_modes() if (rows := m.view_panel(view))), [])


def select(name: str, variant: str | None) -> Any:
    """The mode `Game.new(mode=name, variant=variant)` plays, or ModeError naming what exists."""
    mode = _MODES.get(name) if isinstance(name, str) else None
    if mode is None:
        raise ModeError(f"mode must be {' or '.join(repr(n) for n in _MODES)}, got {name!r}")
    if variant is None:
        return mode
    chosen = _VARIANTS.get(variant) if isinstance(variant, str) else None
    if chosen is None:
        known = " or ".join(f"{v!r} ({m.title})" for v, m in _VARIANTS.items())
        raise ModeError(f"variant must be None or {known}, got {variant!r}")
    return mode.with_variant(chosen)


def for_data(data: dict[str, Any]) -> Any:
    """The mode of a state's JSON form (`State.to_dict`): its `mode` name when it has one, else the mode whose
    own data it holds (`Mode.data_field`), else its variant, else the standard game, so older saves still load."""
    name = data.get("mode")
    if name is not None:
        if name not in _MODES:
            raise ModeError(f"unknown mode `{name}` (registered: {', '.join(_MODES)})")
        return _MODES[name]
    for mode in _MODES.values():
        key = getattr(mode, "data_field", None)
        if key is not None and data.get(key) is not None:
            return mode
    variant = data.get("variant")
    if variant is not None:
        if variant not in _VARIANTS:
            raise ModeError(f"unknown variant `{variant}` (registered: {', '.join(_VARIANTS)})")
        return _VARIANTS[variant]
    return _MODES["standard"]


def for_state(state: Any) -> Any:
    """The mode a State is played in (as `for_data`, read off the live state)."""
    # the mode's own data (`State.mode_state`) stands under its key, as in the JSON form
    own = state.mode_state
    return for_data({"mode": state.mode, "variant": state.variant, **({} if own is None else {own.key: own})})
