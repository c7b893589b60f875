"""Where the shipped content and schemas live: the repository checkout, or the installed package."""
from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent.parent  # the package root kcd/ (this file is kcd/core/paths.py)


def _pick(name: str) -> Path:
    """The repo-level folder `name` when running from a checkout, else the copy inside the package."""
    checkout = _PKG.parent / name
    if checkout.is_dir():
        return checkout
    return _PKG / "_data" / name


def content_dir() -> Path:
    """The content root (holds base/, editions/, mods/)."""
    return _pick("content")


def schemas_dir() -> Path:
    """The folder of JSON Schemas."""
    return _pick("schemas")
