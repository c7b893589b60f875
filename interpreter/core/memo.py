"""One memo shape the engine and the DSL share: a value kept per object (an AST node, a params table, a card).

Content's nodes are frozen and live as long as their ruleset, so a value derived from one can be kept by the
node's identity. The entry holds the object itself, so its id is not reused while the entry lives; a cache that
grows past its limit (content reloaded many times, as in the editor) starts again. Values that belong to a whole
ruleset (its compiled Rules, the index of its nodes, its empty islands) are kept `PerOwner` instead: they die with it.
"""
from __future__ import annotations

import functools
import weakref
from typing import Any, Callable, TypeVar

__all__ = ["per_object", "PerOwner"]

T = TypeVar("T")
R = TypeVar("R")


def per_object(limit: int) -> Callable[[Callable[[T], R]], Callable[[T], R]]:
    """Decorate a one-argument function so its value is computed once per argument object (kept by identity)."""
    def wrap(fn: Callable[[T], R]) -> Callable[[T], R]:
        cache: dict[int, tuple[Any, R]] = {}

        @functools.wraps(fn)
        def cached(obj: T) -> R:
            hit = cache.get(id(obj))
            if hit is not None and hit[0] is obj:
                return hit[1]
            value = fn(obj)
            if len(cache) >= limit:
                cache.clear()
            cache[id(obj)] = (obj, value)
            return value
        cached.cache = cache   # type: ignore[attr-defined]  # for tests and the curious
        return cached
    return wrap


class PerOwner:
    """Values kept per owner object (a Ruleset, its compiled Rules) for as long as the owner lives: the entry holds
    only a weak reference to its owner and a finalizer drops it when the owner is collected, so a process that
    loads many rulesets (the editor, the service, a mod fuzzer) keeps only the values of the ones still in use.
    An owner that cannot be weakly referenced is kept strongly, in a small bounded table that starts again when
    full."""

    __slots__ = ("_weak", "_strong", "_limit")

    def __init__(self, strong_limit: int = 8) -> None:
        self._weak: dict[int, tuple[Any, Any]] = {}     # id(owner) -> (weakref to it, value)
        self._strong: dict[int, tuple[Any, Any]] = {}   # id(owner) -> (owner, value)
        self._limit = strong_limit

    def get(self, owner: Any) -> Any:
        """The value kept for `owner`, or None."""
        hit = self._weak.get(id(owner))
        if hit is not None and hit[0]() is owner:
            return hit[1]
        hit = self._strong.get(id(owner))
        return hit[1] if hit is not None and hit[0] is owner else None

    def put(self, owner: Any, value: Any) -> Any:
        """Keep `value` for `owner` (returned)."""
        try:
            ref = weakref.ref(owner)
        except TypeError:
            if len(self._strong) >= self._limit:
                self._strong.clear()
            self._strong[id(owner)] = (owner, value)
            return value
        key = id(owner)
        self._weak[key] = (ref, value)
        # runs when the owner is collected, before its id can be reused
        weakref.finalize(owner, self._weak.pop, key, None)
        return value

    def __len__(self) -> int:
        return len(self._weak) + len(self._strong)

    def clear(self) -> None:
        """Forget every value (tests)."""
        self._weak.clear()
        self._strong.clear()
