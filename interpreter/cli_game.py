"""`kcd play`, `kcd simulate`, `kcd position` (owned by bots/CLI)."""
from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the game commands to the app."""
