"""The protocol's message set (`protocol: 1`): its JSON Schemas (schemas/protocol/, in the project's one schema
registry, `kcd.content.schema.schemas_for`) and request checking.

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

from kcd.content.schema import PROTOCOL_FOLDER, SUFFIX, schemas_for

PROTOCOL = 1
OPS = ("hello", "content", "create", "join", "view", "pending", "apply", "undo", "redo", "events", "save", "load",
       "replay", "leave", "lobby")


class ProtocolError(Exception):
    """A message refused before any game is touched: a code and a message."""

    def __init__(self, code: str, message: str, op: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.op = code, message, op


def _file(name: str) -> str:
    """The schema file of message schema `name` (`request.apply`) in the project's schemas folder."""
    return f"{PROTOCOL_FOLDER}/{name}{SUFFIX}"


def schemas() -> dict[str, dict]:
    """Every protocol schema by name (`request.apply`, `common`, ...), as the project's schema registry holds it."""
    prefix = PROTOCOL_FOLDER + "/"
    return {name[len(prefix):-len(SUFFIX)]: doc for name, doc in schemas_for().docs.items()
            if name.startswith(prefix)}


def validator(name: str) -> Draft202012Validator:
    """The validator of one message schema (the registry's, cached there): its references into `common` are
    inlined, so validation follows no reference, which makes checking a request several times faster."""
    found: Draft202012Validator = schemas_for().validator(_file(name))
    return found


def schema_name(message: dict) -> str:
    """The schema an outgoing message must follow (`reply.<op>`, `error`, `push.<kind>`)."""
    if "push" in message:
        return f"push.{message['push']}"
    if message.get("ok") is False:
        return "error"
    return f"reply.{message['op']}"


def _one_of(err: Any) -> tuple[Any, str | None]:
    """A readable account of a failed `oneOf`/`anyOf`, read from the schema itself: branches that only require
    one field each ("give exactly one of `option` or `action`"), or branches told apart by a `kind` constant
    (the typed actions): the branch of the instance's kind, or that the kind is unknown. (err, None) when
    neither applies, else (the error to report, its message or None to use the error's own)."""
    while err.validator in ("oneOf", "anyOf") and isinstance(err.instance, dict):
        branches = err.validator_value
        if all(set(b) == {"required"} and len(b["required"]) == 1 for b in branches):
            keys = [b["required"][0] for b in branches]
            present = [k for k in keys if k in err.instance]
            exactly = "exactly one" if err.validator == "oneOf" else "one"
            has = "both" if len(present) > 1 else "neither"
            return err, f"give {exactly} of {' or '.join(f'`{k}`' for k in keys)}; this message has {has}"
        kinds = [b.get("properties", {}).get("kind", {}).get("const") for b in branches]
        if None in kinds:
            break
        known = ", ".join(kinds)
        known = known if len(known) <= 160 else known[:160].rsplit(", ", 1)[0] + ", …"
        kind = err.instance.get("kind")
        if not isinstance(kind, str):
            return err, f"needs a `kind` (kinds: {known})"
        if kind not in kinds:
            return err, f"unknown kind `{kind[:40]}` (kinds: {known})"
        index = kinds.index(kind)
        inner = [e for e in err.context if e.schema_path and e.schema_path[0] == index]
        if not inner:
            break
        err = best_match(inner)
    return err, None


@lru_cache(maxsize=None)
def fast_validator(name: str) -> Any:
    """The same schema compiled by jsonschema-rs (the per-kind `oneOf` of typed actions costs the pure-Python
    validator milliseconds per view): used to pass conforming messages; problems are worded by `validator`."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(schemas_for().inlined(_file(name)))


def problem(name: str, message: Any) -> str | None:
    """The first schema problem of `message` as one readable line, or None when it conforms."""
    try:
        if fast_validator(name).is_valid(message):
            return None
    except Exception:   # noqa: BLE001 - a value jsonschema-rs cannot convert (an integer past 64 bits): judged below
        pass
    check = validator(name)
    if check.is_valid(message):
        return None
    err = best_match(check.iter_errors(message))
    if err is None:
        return None
    # best_match descends into some branch of a oneOf, not always the one the message meant: start again from
    # the outermost oneOf/anyOf above the error that `_one_of` can account for
    chain, node = [], err
    while node is not None:
        if node.validator in ("oneOf", "anyOf"):
            chain.append(node)
        node = node.parent
    text = None
    for outer in reversed(chain):
        found, text = _one_of(outer)
        if text is not None or found is not outer:
            err = found
            break
    where = "/".join(str(p) for p in err.absolute_path)
    return f"{where or 'message'}: {text or err.message}"


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
