"""Kiwi Chow Down: rules-as-data engine (DSL, content loader, game engine, bots, CLI)."""

__version__ = "0.1.0"
