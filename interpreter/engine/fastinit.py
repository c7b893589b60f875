"""`fast_init`: a quicker __init__ for the engine's frozen dataclasses (options, events, actions)."""
from __future__ import annotations

import dataclasses
from typing import Any


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
