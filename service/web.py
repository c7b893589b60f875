"""`kcd serve`: the protocol over WebSocket (`/ws`) and HTTP (`POST /api`), and the web client at `/`.

Starlette app run by uvicorn. Safe by default: it binds to 127.0.0.1; the Host header must name an allowed host
(no DNS rebinding: a page on evil.example resolving to 127.0.0.1 sends `Host: evil.example` and is refused);
a browser's Origin must be this server itself (or an origin given with --allow-origin), so another site's page
cannot drive it; messages are size- and rate-limited per connection. Bot seats play in the server's event
loop, one decision at a time, so they never hold up other games for long.
"""
from __future__ import annotations

import asyncio
import json
import logging
import socket
from contextlib import asynccontextmanager
from typing import Any, Iterable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from kcd.apps.service.hub import Connection, Hub
from kcd.apps.service.paths import protocol_schemas_dir, webclient_dir
from kcd.apps.service.protocol import error

log = logging.getLogger("kcd.apps.service")
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
}
MAX_QUEUED = 2000   # messages waiting to be sent to one WebSocket client


class BotRunner:
    """Plays bot seats: one task per game with a bot to move, yielding to the loop between decisions."""

    def __init__(self, hub: Hub, delay: float = 0.0) -> None:
        self.hub, self.delay = hub, delay
        self.tasks: dict[str, asyncio.Task] = {}

    def kick(self) -> None:
        """Start a task for every game newly waiting on a bot."""
        for game_id in self.hub.bots_due():
            task = self.tasks.get(game_id)
            if task is None or task.done():
                self.tasks[game_id] = asyncio.get_running_loop().create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        await asyncio.sleep(self.delay)
        try:
            while self.hub.bot_step(game_id):
                await asyncio.sleep(self.delay)
        except Exception:  # a refused bot decision (a bot bug) stops that game's bots, not the server
            log.exception("bot of game %s failed", game_id)
        finally:
            self.tasks.pop(game_id, None)
        self.kick()


def origin_ok(headers: Any, allowed_origins: Iterable[str]) -> bool:
    """No Origin (not a browser), this server's own origin, or one allowed explicitly."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}") or origin in set(allowed_origins)


def create_app(hub: Hub, *, allowed_hosts: Iterable[str] = LOCAL_HOSTS, allowed_origins: Iterable[str] = (),
               bot_delay: float = 0.0) -> Starlette:
    """The server app around a hub."""
    origins = tuple(allowed_origins)
    runner = BotRunner(hub, bot_delay)
    http_conns: dict[str, Connection] = {}   # per client address: HTTP requests share a rate budget

    async def index(request: Request) -> Response:
        return FileResponse(webclient_dir() / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok")

    async def api(request: Request) -> Response:
        if not origin_ok(request.headers, origins):
            return JSONResponse(error("bad-message", "cross-origin request refused (Origin is not this server)"),
                                status_code=403)
        limit = hub.limits.max_message_bytes
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                return JSONResponse(error("too-large", f"the message has more than {limit} bytes; the limit is "
                                                       f"{limit}"), status_code=413)
        client = request.client.host if request.client else "?"
        conn = http_conns.get(client)
        if conn is None:
            conn = http_conns[client] = hub.connect(lambda message: None, pushes=False)
        reply = hub.handle(conn, bytes(body))
        hub.flush()
        runner.kick()
        return JSONResponse(reply)

    async def websocket(ws: WebSocket) -> None:
        if not origin_ok(ws.headers, origins):
            await ws.close(code=1008)
            return
        await ws.accept()
        queue: asyncio.Queue = asyncio.Queue()

        def send(message: dict) -> None:
            # a client that stops reading must not make the server hoard its pushes: it is dropped
            if queue.qsize() >= MAX_QUEUED:
                raise OverflowError("client is not reading its messages")
            queue.put_nowait(message)

        conn = hub.connect(send)

        async def sender() -> None:
            while True:
                message = await queue.get()
                await ws.send_text(json.dumps(message, separators=(",", ":")))

        task = asyncio.get_running_loop().create_task(sender())
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                queue.put_nowait(hub.handle(conn, data))
                hub.flush()
                runner.kick()
        except WebSocketDisconnect:
            pass
        finally:
            hub.disconnect(conn)
            task.cancel()

    class SecurityHeaders:
        """Headers for every HTTP response: the page may load only its own scripts and talk only to this server,
        may not be framed by another site, and content types are not guessed."""

        def __init__(self, app: Any) -> None:
            self.app = app

        async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                await self.app(scope, receive, send)
                return

            async def with_headers(message: dict) -> None:
                if message["type"] == "http.response.start":
                    message.setdefault("headers", [])
                    message["headers"] += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                await send(message)

            await self.app(scope, receive, with_headers)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        hub.resume()
        runner.kick()
        yield

    routes = [
        Route("/", index), Route("/health", health), Route("/api", api, methods=["POST"]),
        WebSocketRoute("/ws", websocket),
        Mount("/schemas", StaticFiles(directory=protocol_schemas_dir()), name="schemas"),
        Mount("/", StaticFiles(directory=webclient_dir()), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)),
                                 Middleware(SecurityHeaders)])


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (OSError when taken), so the address is known before it is printed."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def serve(hub: Hub, sock: socket.socket, *, allowed_hosts: Iterable[str], allowed_origins: Iterable[str] = (),
          bot_delay: float = 0.0) -> None:
    """Run the server on a bound socket until interrupted."""
    import uvicorn

    app = create_app(hub, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins, bot_delay=bot_delay)
    # frames a little above the protocol limit still arrive, so they get a `too-large` reply, not a dropped socket
    config = uvicorn.Config(app, log_level="warning", ws="auto", ws_max_size=4 * hub.limits.max_message_bytes + 1024,
                            ws_per_message_deflate=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
