"""Read the JSON Schemas for the editor: each field's description (help), DSL kind, type and allowed values."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin


@dataclass(frozen=True)
class FieldSchema:
    """What the schema says about one field."""

    description: str = ""
    dsl: str | None = None          # x-dsl field kind (effect, cost, objective, ...)
    types: tuple[str, ...] = ()     # JSON types allowed ("string", "integer", "null", ...)
    enum: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None


def schemas_folder() -> Path:
    """The shipped schemas folder."""
    from kcd.paths import schemas_dir
    return schemas_dir()


@lru_cache(maxsize=4)
def _load_all(folder: str) -> dict[str, dict]:
    """Every schema in the folder, keyed by its $id and by its file name."""
    out: dict[str, dict] = {}
    for path in sorted(Path(folder).glob("*.json")):
        try:
            schema = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        out[path.name] = schema
        if isinstance(schema, dict) and "$id" in schema:
            out[schema["$id"]] = schema
    return out


def _pointer(doc: Any, fragment: str) -> Any:
    """Follow a JSON pointer fragment (`/$defs/source`)."""
    node = doc
    for part in [p for p in fragment.split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _resolve(schema: dict, base: str, store: dict[str, dict]) -> tuple[dict, str]:
    """Follow `$ref` chains; returns the target schema and its base URI."""
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema and seen < 20:
        seen += 1
        url, fragment = urldefrag(urljoin(base, schema["$ref"]))
        doc = store.get(url) or store.get(url.rsplit("/", 1)[-1]) or store.get(base)
        if doc is None:
            return {}, base
        try:
            target = _pointer(doc, fragment)
        except (KeyError, IndexError, ValueError, TypeError):
            return {}, base
        # keep local keywords next to $ref (2020-12 allows description beside $ref)
        extra = {k: v for k, v in schema.items() if k != "$ref"}
        schema, base = ({**target, **extra} if extra else target), url
    return schema, base


def _branches(schema: dict, base: str, store: dict[str, dict], depth: int = 0) -> list[tuple[dict, str]]:
    """The schema and every sub-schema that may apply to the same value (allOf/anyOf/oneOf/if-then-else)."""
    schema, base = _resolve(schema, base, store)
    out = [(schema, base)]
    if depth > 8 or not isinstance(schema, dict):
        return out
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []) or []:
            out += _branches(sub, base, store, depth + 1)
    for key in ("then", "else"):
        if isinstance(schema.get(key), dict):
            out += _branches(schema[key], base, store, depth + 1)
    return out


def _child(schema: dict, base: str, key: Any, store: dict[str, dict]) -> list[tuple[dict, str]]:
    """Sub-schemas for the value under `key` (property name or list index)."""
    out: list[tuple[dict, str]] = []
    for branch, bbase in _branches(schema, base, store):
        if not isinstance(branch, dict):
            continue
        if isinstance(key, int):
            prefix = branch.get("prefixItems") or []
            if key < len(prefix):
                out.append((prefix[key], bbase))
            elif isinstance(branch.get("items"), dict):
                out.append((branch["items"], bbase))
        else:
            props = branch.get("properties") or {}
            if key in props:
                out.append((props[key], bbase))
            elif isinstance(branch.get("additionalProperties"), dict):
                out.append((branch["additionalProperties"], bbase))
            else:
                import re
                for pattern, sub in (branch.get("patternProperties") or {}).items():
                    if re.search(pattern, str(key)):
                        out.append((sub, bbase))
    return out


def field_schema(schema_name: str, path: tuple, folder: Path | None = None) -> FieldSchema:
    """What the schema `<schema_name>.schema.json` says about the value at document path `path`."""
    return _field_schema(schema_name, tuple(path), str(folder or schemas_folder()))


@lru_cache(maxsize=4096)
def _field_schema(schema_name: str, path: tuple, folder: str) -> FieldSchema:
    """field_schema, remembered (the schemas do not change while the editor runs)."""
    store = _load_all(folder)
    root = store.get(f"{schema_name}.schema.json")
    if root is None:
        return FieldSchema()
    current = [(root, root.get("$id", f"{schema_name}.schema.json"))]
    for key in path:
        nxt: list[tuple[dict, str]] = []
        for schema, base in current:
            nxt += _child(schema, base, key, store)
        current = nxt
        if not current:
            return FieldSchema()
    description, dsl, types, enum = "", None, [], []
    minimum = maximum = None
    for schema, base in current:
        for branch, _ in _branches(schema, base, store):
            if not isinstance(branch, dict):
                continue
            description = description or branch.get("description", "")
            dsl = dsl or branch.get("x-dsl")
            kind = branch.get("type")
            types += [kind] if isinstance(kind, str) else list(kind or [])
            enum += [v for v in branch.get("enum", []) if v not in enum]
            if "const" in branch and branch["const"] not in enum:
                enum.append(branch["const"])
            minimum = branch.get("minimum", minimum)
            maximum = branch.get("maximum", maximum)
    return FieldSchema(description, dsl, tuple(dict.fromkeys(types)), tuple(enum), minimum, maximum)
