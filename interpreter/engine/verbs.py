"""Every module that registers engine verbs (interpreter/engine/verb_table.py), imported once so a game has
them all; `Game` imports this module."""
from __future__ import annotations

from kcd.engine import build, compose, effects, feed, marking, move, placing
from kcd.engine.verb_table import TABLE

MODULES = (effects, placing, move, build, feed, marking, compose)

__all__ = ["MODULES", "TABLE"]
