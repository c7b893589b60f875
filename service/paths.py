"""Where the web client and the protocol schemas live: the repository checkout, or the installed package."""
from __future__ import annotations

from pathlib import Path

from kcd.core.paths import schemas_dir

_PKG = Path(__file__).resolve().parent


def webclient_dir() -> Path:
    """The web client's static files (webclient/ in a checkout, service/_data/webclient installed)."""
    checkout = _PKG.parent / "webclient"
    return checkout if checkout.is_dir() else _PKG / "_data" / "webclient"


def protocol_schemas_dir() -> Path:
    """The protocol's JSON Schemas (schemas/protocol/)."""
    return schemas_dir() / "protocol"
