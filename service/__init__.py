"""The engine as a service: one JSON protocol (`protocol: 1`) over WebSocket, HTTP and stdio (`kcd serve`).

Modules: `protocol` (the message schemas and error codes), `store` (persistence: the `Store` interface and its
SQLite implementation), `live` (one running game: seats, bots, undo, per-viewer views and events), `hub` (the
operations, tokens and pushes, transport-free), `web` (Starlette app: WebSocket, HTTP, the web client),
`stdio` (JSON lines), `terminal` (`kcd play --human`), `cli` (`kcd serve`).
"""
