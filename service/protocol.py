"""The protocol's message set (`protocol: 1`): its JSON Schemas (schemas/protocol/) and request checking.

Every request, reply and pushed message has a schema: `request.<op>`, `reply.<op>`, `error`, `push.update`,
sharing `common`. Requests are checked against their schema before anything runs, so a wrong type or a missing
field is an error reply naming the field, never an exception inside the server.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from service.paths import protocol_schemas_dir

PROTOCOL = 1
COMMON = "urn:kcd-protocol:common"
OPS = ("hello", "content", "create", "join", "view", "pending", "apply", "undo", "redo", "events", "save", "load",
       "replay", "leave", "lobby")


class ProtocolError(Exception):
    """A message refused before any game is touched: a code and a message."""

    def __init__(self, code: str, message: str, op: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.op = code, message, op


@lru_cache(maxsize=1)
def schemas() -> dict[str, dict]:
    """Every protocol schema by name (`request.apply`, `common`, ...)."""
    out = {}
    for path in sorted(protocol_schemas_dir().glob("*.schema.json")):
        out[path.name[: -len(".schema.json")]] = json.loads(path.read_text(encoding="utf-8"))
    return out


def _inline(node: Any, defs: dict, depth: int = 0) -> Any:
    """The schema with every `$ref` into `common` replaced by its definition (the protocol's refs never
    recurse): validation then follows no references, which makes checking a request several times faster."""
    if depth > 20:
        raise ValueError("protocol schemas nest $refs too deeply")
    if isinstance(node, list):
        return [_inline(v, defs, depth) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(COMMON + "#/$defs/"):
        target = _inline(defs[ref.rsplit("/", 1)[1]], defs, depth + 1)
        rest = {k: _inline(v, defs, depth) for k, v in node.items() if k != "$ref"}
        return {**target, **rest} if rest else target
    return {k: _inline(v, defs, depth) for k, v in node.items()}


@lru_cache(maxsize=None)
def validator(name: str) -> Draft202012Validator:
    """The validator of one message schema (its references to `common` inlined)."""
    defs = schemas()["common"]["$defs"]
    return Draft202012Validator(_inline(schemas()[name], defs))


def schema_name(message: dict) -> str:
    """The schema an outgoing message must follow (`reply.<op>`, `error`, `push.<kind>`)."""
    if "push" in message:
        return f"push.{message['push']}"
    if message.get("ok") is False:
        return "error"
    return f"reply.{message['op']}"


def problem(name: str, message: Any) -> str | None:
    """The first schema problem of `message` as one readable line, or None when it conforms."""
    check = validator(name)
    if check.is_valid(message):
        return None
    err = best_match(check.iter_errors(message))
    if err is None:
        return None
    where = "/".join(str(p) for p in err.absolute_path)
    return f"{where or 'message'}: {err.message}"


def parse_request(text: str | bytes, max_bytes: int) -> dict:
    """A request checked against its schema; ProtocolError (bad-json, too-large, protocol-version,
    unknown-op, bad-message) otherwise."""
    size = len(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    if size > max_bytes:
        raise ProtocolError("too-large", f"the message has {size} bytes; the limit is {max_bytes}")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad-json", f"not JSON: {str(exc)[:200]}") from None
    if not isinstance(message, dict):
        raise ProtocolError("bad-message", "a message is a JSON object with `protocol` and `op`")
    if message.get("protocol") != PROTOCOL:
        raise ProtocolError("protocol-version", f"this server speaks protocol {PROTOCOL}: send \"protocol\": {PROTOCOL}")
    op = message.get("op")
    if op not in OPS:
        raise ProtocolError("unknown-op", f"unknown op {str(op)[:60]!r}; ops: {', '.join(OPS)}")
    found = problem(f"request.{op}", message)
    if found:
        raise ProtocolError("bad-message", f"{op}: {found[:300]}", op)
    return message


def request_id(text: str | bytes) -> Any:
    """The `id` of a message that failed checking, when it can be read (so the error reply carries it)."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    rid = message.get("id") if isinstance(message, dict) else None
    return rid if isinstance(rid, (str, int)) and not isinstance(rid, bool) and len(str(rid)) <= 100 else None


def error(code: str, message: str, op: Any = None, rid: Any = None) -> dict:
    """An error reply."""
    return {"protocol": PROTOCOL, "id": rid, "op": op if isinstance(op, str) and op in OPS else None, "ok": False,
            "error": {"code": code, "message": message}}
