"""Every module that registers engine verbs (interpreter/engine/verb_table.py), imported once so a game has
them all; `Game` imports this module."""
from __future__ import annotations

from kcd.dsl import registry
from kcd.engine import build, compose, effects, feed, marking, move, placing
from kcd.engine.verb_table import TABLE

MODULES = (effects, placing, move, build, feed, marking, compose)
TABLE.adopt(registry.PRIMITIVES)   # verbs whose registry entry carries its procedure (`Primitive.run`)

__all__ = ["MODULES", "TABLE"]
