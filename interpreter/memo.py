"""One memo shape the engine and the DSL share: a value kept per object (an AST node, a params table, a card).

Content's nodes are frozen and live as long as their ruleset, so a value derived from one can be kept by the
node's identity. The entry holds the object itself, so its id is not reused while the entry lives; a cache that
grows past its limit (content reloaded many times, as in the editor) starts again.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

__all__ = ["per_object"]

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
