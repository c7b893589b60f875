"""The standard game (R-SEASON-1..R-END-3): the `Mode` defaults, registered under `standard`; it takes the
Variable Turn Order variant (`Game.new(variant="vto")`)."""
from __future__ import annotations

from kcd.engine import mode_registry as modes
from kcd.modes.base import Mode


class Standard(Mode):
    """The game as the rulebook's main rules play it."""

    name = "standard"

    def with_variant(self, variant: Mode) -> Mode:
        """Any registered variant of the standard game (a mode built on this one takes none unless it says so:
        the variant is a whole mode and would replace it)."""
        if type(self) is not Standard:
            return super().with_variant(variant)
        return variant


STANDARD = modes.register(Standard())
