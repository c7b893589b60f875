"""The game modes (`standard`, `vto`, `solo`) and their interface `base.Mode`, above the engine; the
registry they join is `kcd.engine.mode_registry`."""
# the engine first: its Game imports the built-in modes, and a mode module entered first would
# otherwise meet a half-built engine (Game -> standard -> base while base is still loading)
import kcd.engine  # noqa: F401
