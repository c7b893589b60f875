"""Matching a call's words to a primitive's pattern parts (shared by the checker and the compositional types)."""
from __future__ import annotations

from typing import TypeVar

from kcd.dsl.primitive import Slot, fits

W = TypeVar("W")   # a call's Word, or a phrase's item (Word, Selector or QCall)


def align(parts: tuple[str | Slot, ...], words: tuple[W, ...]) -> list[tuple[str | Slot, tuple[W, ...]]] | None:
    """Words matched to pattern parts: literals equal, a slot takes one word, a `+` slot one or more."""
    if len(words) < len(parts):
        return None
    out: list[tuple[str | Slot, tuple[W, ...]]] = []

    def go(i: int, j: int) -> bool:
        if i == len(parts):
            return j == len(words)
        part = parts[i]
        if isinstance(part, str):
            if j < len(words) and fits(part, getattr(words[j], "text", None)):   # a phrase's items: Word or not
                out.append((part, (words[j],)))
                if go(i + 1, j + 1):
                    return True
                out.pop()
            return False
        if not part.many:
            if j < len(words):
                out.append((part, (words[j],)))
                if go(i + 1, j + 1):
                    return True
                out.pop()
            return False
        rest = len(parts) - i - 1  # each later part needs at least one word
        for k in range(len(words) - j - rest, 0, -1):
            out.append((part, words[j:j + k]))
            if go(i + 1, j + k):
                return True
            out.pop()
        return False

    return out if go(0, 0) else None
