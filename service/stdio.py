"""`kcd serve --stdio`: the protocol as JSON lines on standard input and output, for a program that runs the
engine as a child process (a Unity or Godot game, a Node program). One request per line; each reply is one
line, followed by the pushes it caused (bot seats play before the next request is read). Logs go to stderr.
"""
from __future__ import annotations

import json
import sys
from typing import BinaryIO, TextIO

from kcd.apps.service.hub import Hub
from kcd.apps.service.protocol import error


def _lines(stream: BinaryIO, limit: int):
    """Lines of at most `limit` bytes; a longer line yields None (read to its end and dropped)."""
    while True:
        line = stream.readline(limit + 2)
        if not line:
            return
        if len(line) > limit + 1 or (len(line) == limit + 2 and not line.endswith(b"\n")):
            while line and not line.endswith(b"\n"):
                line = stream.readline(1 << 16)
            yield None
            continue
        yield line


def serve_stdio(hub: Hub, inp: BinaryIO | None = None, out: TextIO | None = None) -> int:
    """Answer requests from `inp` on `out` until end of input; returns the exit code (0)."""
    inp = inp or sys.stdin.buffer
    out = out or sys.stdout

    def write(message: dict) -> None:
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    conn = hub.connect(write)
    hub.resume()

    def play_bots() -> None:
        for game_id in hub.bots_due():
            while hub.bot_step(game_id):
                pass

    play_bots()
    limit = hub.limits.max_message_bytes
    for line in _lines(inp, limit):
        if line is None:
            write(error("too-large", f"the line has more than {limit} bytes; the limit is {limit}"))
            continue
        if not line.strip():
            continue
        write(hub.handle(conn, line.rstrip(b"\r\n")))
        hub.flush()
        play_bots()
    return 0
