"""Starting a command the way a terminal does, for tests that send it signals.

A test suite started in the background (`bash scripts/test &`, CI without a terminal) inherits SIGINT as
ignored, and a child inherits that too, so a Ctrl-C test would send a signal nobody hears. `interruptible()`
gives Popen arguments that start the child in a session (and process group) of its own with SIGINT back at its
default, so the child reacts to SIGINT as under an interactive shell, whether the suite runs in the foreground or
the background.
"""
from __future__ import annotations

import signal
import socket
from typing import Any


def _default_sigint() -> None:
    """In the child, before exec: SIGINT handled by default (Python then raises KeyboardInterrupt on it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interruptible() -> dict[str, Any]:
    """Popen keyword arguments: a new session (its pid is its process group's id), default SIGINT handling."""
    return {"start_new_session": True, "preexec_fn": _default_sigint}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
