"""`kcd validate` and `kcd rules` (owned by the content loader)."""
from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the content commands to the app."""
