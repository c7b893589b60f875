"""A small synchronous Python client of the protocol, over stdio (a `kcd serve --stdio` child) or WebSocket.

For embedders, tests and benchmarks: `request(op, **fields)` sends one request and returns its reply; pushes
that arrive meanwhile are queued (`pushes`), and `wait_turn()` reads pushes until it is the seat's decision or
the game is over. Every message sent and received is kept in `sent` / `received` when `record=True`.
"""
from __future__ import annotations

import json
import subprocess
from abc import ABC, abstractmethod
import sys
from collections import deque
from typing import Any

PROTOCOL = 1


class ClientError(RuntimeError):
    """The server went away or answered out of protocol."""


class _Client(ABC):
    def __init__(self, record: bool = False) -> None:
        self.next_id = 1
        self.pushes: deque[dict] = deque()
        self.record = record
        self.sent: list[dict] = []
        self.received: list[dict] = []

    @abstractmethod
    def _send_text(self, text: str) -> None:
        """Send one message's text."""

    @abstractmethod
    def _recv_text(self) -> str:
        """Receive one message's text."""

    def send_raw(self, text: str) -> dict:
        """Send any text as one message; the next reply (not a push)."""
        self._send_text(text)
        return self._reply()

    def _read(self) -> dict:
        message = json.loads(self._recv_text())
        if self.record:
            self.received.append(message)
        return message

    def _reply(self) -> dict:
        while True:
            message = self._read()
            if "push" in message:
                self.pushes.append(message)
                continue
            return message

    def request(self, op: str, **fields: Any) -> dict:
        """Send a request and return its reply."""
        message = {"protocol": PROTOCOL, "id": self.next_id, "op": op, **fields}
        self.next_id += 1
        if self.record:
            self.sent.append(message)
        self._send_text(json.dumps(message))
        reply = self._reply()
        # replies come in order: one with id null answers this message, which the server could not read (too large)
        if reply.get("id") != message["id"] and not (reply.get("id") is None and reply.get("ok") is False):
            raise ClientError(f"reply to request {reply.get('id')} while waiting for {message['id']}")
        return reply

    def next_push(self) -> dict:
        """The next pushed message (waiting for it)."""
        if self.pushes:
            return self.pushes.popleft()
        while True:
            message = self._read()
            if "push" in message:
                return message

    def wait_turn(self, view: dict) -> dict:
        """Given the latest view: the view once it is this seat's decision or the game is over."""
        while not view["over"] and not (view["pending"] and view["pending"]["player"] == view["you"]
                                        and view["pending"]["options"]):
            push = self.next_push()
            if push["seq"] >= view["seq"] or push["reset"]:   # pushes queued before `view` are older news
                view = push["view"]
        return view


class StdioClient(_Client):
    """Runs `kcd serve --stdio` (with extra arguments) as a child process."""

    def __init__(self, args: list[str] | None = None, command: list[str] | None = None, record: bool = False) -> None:
        super().__init__(record)
        command = command or [sys.executable, "-m", "kcd.apps.cli.main", "serve", "--stdio"]
        self.proc = subprocess.Popen(command + list(args or []), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def _send_text(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.replace("\n", " ") + "\n")
        self.proc.stdin.flush()

    def _recv_text(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise ClientError(f"the server closed its output (exit code {self.proc.poll()})")
        return line

    def close(self) -> int:
        """End the child (closing its input) and return its exit code."""
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=30)
        finally:
            if self.proc.stdout:
                self.proc.stdout.close()


class WsClient(_Client):
    """A WebSocket connection to `kcd serve` (ws://host:port/ws)."""

    def __init__(self, url: str, record: bool = False, origin: str | None = None, timeout: float = 60.0) -> None:
        from websockets.sync.client import connect

        super().__init__(record)
        headers = {"Origin": origin} if origin else None
        # entered as a context manager (the form every websockets version supports); closed by `close`
        self._cm = connect(url, additional_headers=headers, max_size=None, open_timeout=timeout)
        self.ws = self._cm.__enter__()
        self.timeout = timeout

    def _send_text(self, text: str) -> None:
        self.ws.send(text)

    def _recv_text(self) -> str:
        data = self.ws.recv(timeout=self.timeout)
        return data if isinstance(data, str) else data.decode()

    def close(self) -> None:
        """Close the connection."""
        self._cm.__exit__(None, None, None)
