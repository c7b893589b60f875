"""The Kiwi Chow Down game engine: plays the standard game from a Ruleset through the DSL.

Public API (see `game.py`): `Game`, `Decision`, `Option`, `Applied`, `Refused` (its `RefusalCode`), `Event`, `State`;
pure functions `dominance.strengths/dominant`, `queries.evaluate`, `scoring.score/tiebreak`.
"""
from kcd.core.decisions import Applied, Decision, Event, Option, RefusalCode, Refused
from kcd.engine.game import Game
from kcd.core.state import Flock, Hex, Kiwi, State

__all__ = ["Game", "Decision", "Option", "Applied", "Refused", "RefusalCode", "Event", "State", "Flock", "Hex", "Kiwi"]
