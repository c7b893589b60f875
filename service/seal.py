"""Sealing the secret part of a save (the seed and the decisions) with the server's key.

A save handed to a client must not give away the seed (it would let the client foresee every draw) nor the
decisions (they name cards played face down and markers paid). The secret part is encrypted and authenticated
with Fernet (AES-128-CBC + HMAC-SHA256, from `cryptography`) under a key kept in the server's store, so only
the server that wrote a save can open it, and any change to it is detected.
"""
from __future__ import annotations

import json

from cryptography.fernet import Fernet, InvalidToken


def new_key() -> bytes:
    """A fresh sealing key."""
    return Fernet.generate_key()


def seal(key: bytes, secret: dict) -> str:
    """The secret part, encrypted and authenticated."""
    return Fernet(key).encrypt(json.dumps(secret, separators=(",", ":")).encode()).decode("ascii")


def unseal(key: bytes, sealed: str) -> dict:
    """The secret part back; ValueError if it was sealed by another server or altered."""
    try:
        data = json.loads(Fernet(key).decrypt(sealed.encode("ascii")))
    except (InvalidToken, ValueError, UnicodeEncodeError):
        raise ValueError("this save was sealed by another server or has been altered") from None
    if not isinstance(data, dict):
        raise ValueError("this save's sealed part is not a game")
    return data
