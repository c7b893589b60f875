"""`kcd serve`: the engine as a service (WebSocket + HTTP + the web client, or JSON lines on stdio)."""
from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import List, Optional

import typer

DEFAULT_PORT = 8765


def default_db() -> Path:
    """Where `kcd serve` keeps its games unless --db is given ($XDG_DATA_HOME or ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "kiwi-chow-down" / "games.sqlite3"


def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (default: localhost only)."),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535, help="Port to listen on."),
    db: Optional[Path] = typer.Option(None, "--db", help="SQLite file of the games (default: "
                                      "~/.local/share/kiwi-chow-down/games.sqlite3; with --stdio: in memory)."),
    stdio: bool = typer.Option(False, "--stdio", help="Speak JSON lines on stdin/stdout instead of listening."),
    content: Optional[Path] = typer.Option(None, "--content", help="Content root to serve (default: the shipped "
                                           "content); games name its editions and mods by id."),
    allow_host: Optional[List[str]] = typer.Option(None, "--allow-host",
                                                   help="Another Host name clients may use (repeatable)."),
    allow_origin: Optional[List[str]] = typer.Option(None, "--allow-origin",
                                                     help="Another browser Origin allowed to connect (repeatable)."),
    max_message: int = typer.Option(256 * 1024, "--max-message", min=1024, help="Largest message in bytes."),
    rate: float = typer.Option(100.0, "--rate", min=1.0, help="Messages a second per connection (burst: twice)."),
    durable: bool = typer.Option(False, "--durable", help="fsync every decision (survives a power cut; slower). "
                                 "Without it a decision survives the server being killed, not the machine."),
    bot_delay: float = typer.Option(0.0, "--bot-delay", min=0.0, max=10.0,
                                    help="Seconds a bot seat waits before each decision (to watch them play)."),
) -> None:
    """Serve the engine: the JSON protocol over WebSocket (/ws) and HTTP (/api), the web client at /."""
    import sqlite3

    from kcd.apps.service.hub import Hub, Limits
    from kcd.apps.service.store import SQLiteStore

    from kcd.apps.cli.errors import fail

    if content is not None and not (content / "base").is_dir():
        fail(f"--content {content} is not a content folder (it has no base/)")
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="kcd serve: %(levelname)s %(message)s")
    path = db if db is not None else (None if stdio else default_db())
    try:
        store = SQLiteStore(path if path is not None else ":memory:", "FULL" if durable else "NORMAL")
    except (sqlite3.Error, OSError) as err:
        fail(f"cannot open the game database {path}: {err}", hint="give --db a file in a folder you can write")
    if stdio:   # one trusted parent process at the other end: no rate limit
        rate = 1e9
    hub = Hub(store, Limits(max_message_bytes=max_message, messages_per_second=rate,
                            burst=int(min(2 * rate, 1 << 30))), content_root=content)
    if stdio:
        from kcd.apps.service.stdio import serve_stdio

        raise typer.Exit(serve_stdio(hub))
    from kcd.apps.service.web import LOCAL_HOSTS, bind, serve

    hosts = list(LOCAL_HOSTS) + list(allow_host or [])
    if host not in ("0.0.0.0", "::"):
        hosts.append(host)
    elif not allow_host:
        typer.echo(f"warning: listening on {host} but only localhost names are allowed in the Host header: "
                   "add --allow-host NAME for each name clients use", err=True)
    try:
        sock = bind(host, port)
    except OSError as err:
        store.close()
        fail(f"cannot listen on {host}:{port}: {err.strerror or err}", hint="choose another --port")
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"kcd serve: http://{shown}:{port}/ (web client), ws://{shown}:{port}/ws (protocol 1); "
               f"games in {path}; Ctrl+C stops it")
    sys.stdout.flush()
    try:
        serve(hub, sock, allowed_hosts=hosts, allowed_origins=allow_origin or [], bot_delay=bot_delay)
    finally:
        store.close()


def register(app: typer.Typer) -> None:
    """Add `kcd serve` to the app."""
    app.command("serve")(serve_command)
