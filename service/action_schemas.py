"""The protocol's typed-action schemas, generated from the engine's action kinds (`action_types.KINDS`).

`common.schema.json` holds `$defs/action` (a `oneOf` of one schema per kind) and `$defs/action.<kind>` (the
kind's `kind` constant and every field of its dataclass, all required, nothing else), so a schema check of an
option or of an `apply` proves the action is one the engine can read. The file is written by this module and
tests/test_service_schemas.py fails when it is stale:

    .venv/bin/python -m kcd.apps.service.action_schemas        # rewrite schemas/protocol/common.schema.json
"""
from __future__ import annotations

import dataclasses
import json
import sys
from typing import Any

from kcd.content.schema import PROTOCOL_URI
from kcd.core.action_types import KINDS
from kcd.apps.service.paths import protocol_schemas_dir

PREFIX = "action."
REF = f"{PROTOCOL_URI}common#/$defs/"   # common.schema.json's definitions, by its URI in the schema registry
# the JSON form of each field type `action_from_dict` reads (action_types._TYPES)
FIELD_TYPES: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "tuple[str, ...]": {"type": "array", "items": {"type": "string"}},
}


def kind_schema(kind: str) -> dict[str, Any]:
    """The schema of one action kind's JSON form: `kind` and each dataclass field, all required."""
    cls = KINDS[kind]
    fields = dataclasses.fields(cls)
    properties: dict[str, Any] = {"kind": {"const": kind}}
    for f in fields:
        properties[f.name] = dict(FIELD_TYPES[str(f.type)])
    return {"type": "object", "description": cls.doc, "properties": properties,
            "required": ["kind", *(f.name for f in fields)], "additionalProperties": False}


def action_defs() -> dict[str, Any]:
    """`action` and every `action.<kind>` definition, in the order of the engine's kinds."""
    kinds = list(KINDS)
    out: dict[str, Any] = {"action": {
        "type": "object",
        "description": "An option's typed action (docs/ACTIONS.md): exactly one of the kinds below, generated "
                       "from the engine's action kinds by service/action_schemas.py.",
        "required": ["kind"],
        "oneOf": [{"$ref": f"{REF}{PREFIX}{kind}"} for kind in kinds]}}
    for kind in kinds:
        out[f"{PREFIX}{kind}"] = kind_schema(kind)
    return out


def with_action_defs(common: dict[str, Any]) -> dict[str, Any]:
    """`common` with its generated action definitions replaced by the current ones, where the old ones stood
    (at the end when there were none); every other definition is kept as it is, in its place."""
    generated = action_defs()
    defs: dict[str, Any] = {}
    for key, value in common["$defs"].items():
        if key == "action" or key.startswith(PREFIX):
            defs.update(generated)   # the first of the old ones marks the place; the rest are dropped
        else:
            defs[key] = value
    defs.update(generated)           # none before, or some of the generated ones were not there yet
    return {**common, "$defs": defs}


def render(schema: dict[str, Any]) -> str:
    """The schema file's text (the layout of every file in schemas/protocol/)."""
    return json.dumps(schema, indent=2) + "\n"


def main() -> int:
    """Rewrite common.schema.json's action definitions; print whether anything changed."""
    path = protocol_schemas_dir() / "common.schema.json"
    old = path.read_text(encoding="utf-8")
    new = render(with_action_defs(json.loads(old)))
    if new != old:
        path.write_text(new, encoding="utf-8")
    print(f"{path}: {'rewritten' if new != old else 'up to date'} ({len(KINDS)} action kinds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
