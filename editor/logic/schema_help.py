"""Read the JSON Schemas for the editor: each field's description (help), DSL kind, type and allowed values.

The schemas come from the project's one schema registry (`kcd.content.schema.schemas_for`), with their references
inlined as the validator sees them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from kcd.content.schema import Schemas, schemas_for


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
    from kcd.core.paths import schemas_dir
    return schemas_dir()


def _branches(schema: Any, base: str, schemas: Schemas, depth: int = 0) -> list[tuple[Any, str]]:
    """The schema and every sub-schema that may apply to the same value (allOf/anyOf/oneOf/if-then-else)."""
    schema, base = schemas.resolve(schema, base)
    out = [(schema, base)]
    if depth > 8 or not isinstance(schema, dict):
        return out
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key, []) or []:
            out += _branches(sub, base, schemas, depth + 1)
    for key in ("then", "else"):
        if isinstance(schema.get(key), dict):
            out += _branches(schema[key], base, schemas, depth + 1)
    return out


def _child(schema: Any, base: str, key: Any, schemas: Schemas) -> list[tuple[Any, str]]:
    """Sub-schemas for the value under `key` (property name or list index)."""
    out: list[tuple[Any, str]] = []
    for branch, bbase in _branches(schema, base, schemas):
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
    schemas = schemas_for(Path(folder))
    name = f"{schema_name}.schema.json"
    if not schemas.has(name):
        return FieldSchema()
    # the schema with its references inlined (the validator's copy): only a recursive one is left to follow
    current: list[tuple[Any, str]] = [(schemas.inlined(name), schemas.base_uri(name))]
    for key in path:
        nxt: list[tuple[Any, str]] = []
        for schema, base in current:
            nxt += _child(schema, base, key, schemas)
        current = nxt
        if not current:
            return FieldSchema()
    description, dsl, types, enum = "", None, [], []
    minimum = maximum = None
    for schema, base in current:
        for branch, _ in _branches(schema, base, schemas):
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
