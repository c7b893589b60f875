"""`fast_init`: a quicker __init__ for the engine's frozen dataclasses (options, events, actions)."""
from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError
from typing import Any, TypeVar

C = TypeVar("C", bound=type)


def fast_init(cls: type) -> type:
    """Give a frozen dataclass an __init__ that fills `__dict__` directly: the generated one calls
    object.__setattr__ per field, which doubled the cost of the thousands of options and events a game makes.
    The instances stay frozen (assignment still raises FrozenInstanceError)."""
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {f"_d_{f.name}": f.default for f in fields}
    params = "".join(f", {f.name}" + (f"=_d_{f.name}" if f.default is not dataclasses.MISSING else "") for f in fields)
    body = "".join(f"    d[{f.name!r}] = {f.name}\n" for f in fields) or "    pass\n"
    exec(f"def __init__(self{params}):\n    d = self.__dict__\n{body}", namespace)
    cls.__init__ = namespace["__init__"]   # type: ignore[misc]
    return cls


def fast_slots_init(cls: type) -> type:
    """`fast_init` for a frozen dataclass with slots (no `__dict__`): its __init__ sets each slot through the slot's
    own descriptor instead of `object.__setattr__` (the runner's signals: a game makes thousands). Still frozen."""
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {f"_d_{f.name}": f.default for f in fields}
    namespace.update({f"_s_{f.name}": cls.__dict__[f.name].__set__ for f in fields})
    params = "".join(f", {f.name}" + (f"=_d_{f.name}" if f.default is not dataclasses.MISSING else "") for f in fields)
    body = "".join(f"    _s_{f.name}(self, {f.name})\n" for f in fields) or "    pass\n"
    exec(f"def __init__(self{params}):\n{body}", namespace)
    cls.__init__ = namespace["__init__"]   # type: ignore[misc]
    return cls


def _refuse_assignment(self: object, name: str, value: object) -> None:
    """A frozen value: no attribute is assigned."""
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self: object, name: str) -> None:
    """A frozen value: no attribute is deleted."""
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def frozen_slots(cls: C) -> C:
    """A frozen dataclass with slots made ready: the `fast_slots_init` constructor, and every assignment or
    deletion refused with FrozenInstanceError (Python 3.11's own __setattr__ of such a class answers one to a name
    that is not a field with a TypeError: it names the class from before the slots were added)."""
    fast_slots_init(cls)
    setattr(cls, "__setattr__", _refuse_assignment)
    setattr(cls, "__delattr__", _refuse_deletion)
    return cls
