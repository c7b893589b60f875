"""Every content file validates against its JSON Schema; the schemas themselves follow the team's rules."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from kcd.content.schema import schemas_for

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SCHEMAS = ROOT / "schemas"
KINDS = ("common", "game", "island", "action_cards", "nests", "flock", "leaders", "season_cards", "turn_order", "solo", "pack")
DSL_KINDS = {"effect", "cost", "ability", "solo", "objective", "trigger", "modifier"}


def _schemas() -> dict[str, dict]:
    return {p.name.removesuffix(".schema.json"): json.loads(p.read_text()) for p in SCHEMAS.glob("*.schema.json")}


SCHEMA = _schemas()
REGISTRY = schemas_for(SCHEMAS).registry   # the project's one registry, as the loader, editor and service use it


def validator(kind: str) -> Draft202012Validator:
    """A validator for one content kind, with common.schema.json resolvable."""
    return Draft202012Validator(SCHEMA[kind], registry=REGISTRY)


def kind_of(path: Path) -> str:
    """The content kind of a file, from its name (SPEC.md "Content files")."""
    return "flock" if path.parent.name == "flocks" else path.stem


def errors(kind: str, data: object) -> list[str]:
    """Schema error messages for `data` as content of `kind`."""
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(kind).iter_errors(data)]


CONTENT_FILES = sorted(p for p in CONTENT.rglob("*.yaml") if p.relative_to(CONTENT).parts[0] != "positions")  # not content


def test_every_kind_has_a_schema_with_id_and_draft_2020_12():
    """One schema per content kind, each valid Draft 2020-12 with an $id that relative $refs resolve against."""
    assert set(KINDS) <= set(SCHEMA)
    for name, schema in SCHEMA.items():
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"] == f"https://kiwi-chow-down.example/schemas/{name}.schema.json"


@pytest.mark.parametrize("path", CONTENT_FILES, ids=lambda p: str(p.relative_to(CONTENT)))
def test_content_file_validates_against_its_schema(path: Path):
    """Every YAML file (base, editions, mods) loads safely and matches the schema of its kind."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert errors(kind_of(path), data) == []


def _walk(schema: dict, path: str = ""):
    """Yield (path, subschema) for every schema object reachable without leaving the document."""
    yield path, schema
    for key in ("properties", "$defs"):
        for name, sub in schema.get(key, {}).items():
            yield from _walk(sub, f"{path}/{key}/{name}")
    for key in ("items", "additionalProperties", "if", "then", "else", "not"):
        if isinstance(schema.get(key), dict):
            yield from _walk(schema[key], f"{path}/{key}")
    for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for i, sub in enumerate(schema.get(key, [])):
            yield from _walk(sub, f"{path}/{key}/{i}")


def test_every_property_has_a_description():
    """The editor shows each property's description as help, so none may be missing."""
    missing = []
    for name, schema in SCHEMA.items():
        for path, sub in _walk(schema):
            for prop, spec in sub.get("properties", {}).items():
                if path.endswith(("/if", "/then", "/else")) or "/allOf/" in path or "/oneOf/" in path or "/anyOf/" in path:
                    continue  # conditional branches only add constraints to properties described above
                if "description" not in spec:
                    missing.append(f"{name}{path}/properties/{prop}")
    assert missing == []


def test_dsl_fields_are_marked_and_never_behind_a_ref():
    """x-dsl values are field kinds of SPEC.md, on string properties, never inside a $ref target (loader walks plainly)."""
    found = set()
    for name, schema in SCHEMA.items():
        for path, sub in _walk(schema):
            if "x-dsl" in sub:
                assert sub["x-dsl"] in DSL_KINDS, (name, path)
                assert "string" in (sub["type"] if isinstance(sub["type"], list) else [sub["type"]]), (name, path)
                assert "/$defs/" not in path, (name, path)
                found.add(sub["x-dsl"])
    assert found == DSL_KINDS


def _refs(node: object):
    """Every `$ref` string of a schema document."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for key, sub in node.items():
            if key not in ("enum", "const", "examples", "default"):
                yield from _refs(sub)
    elif isinstance(node, list):
        for sub in node:
            yield from _refs(sub)


def test_no_ref_target_carries_an_x_dsl_mark():
    """The loader finds DSL fields without following references (so loading needs no registry): every `$ref`
    of every shipped schema, looked up through the registry, leads to a schema without `x-dsl`."""
    shipped = schemas_for(SCHEMAS)
    looked = 0
    for name, doc in shipped.docs.items():
        for ref in _refs(doc):
            target, _ = shipped.follow(ref, shipped.base_uri(name))
            assert "x-dsl" not in json.dumps(target), (name, ref)
            looked += 1
    assert looked > 100


def test_items_refuse_unknown_fields():
    """additionalProperties is false on items: a typo like `cots` is an error, not ignored."""
    nests = yaml.safe_load((CONTENT / "base/nests.yaml").read_text())
    bad = copy.deepcopy(nests)
    bad[0]["cots"] = bad[0].pop("cost")
    msgs = errors("nests", bad)
    assert any("'cots' was unexpected" in m for m in msgs)
    assert any("'cost' is a required property" in m for m in msgs)


def test_R_BUILD_2_nest_rows_and_types_come_from_content():
    """A Nest type of a mod's own and rows past 2 pass the schema (R-BUILD-2 reads them from content); a row
    below 1 or above 9 and a type that is not an id are refused."""
    nests = yaml.safe_load((CONTENT / "base/nests.yaml").read_text())
    nests[0]["type"], nests[0]["row"] = "reed", 3
    assert errors("nests", nests) == []
    nests[0]["row"] = 0
    assert errors("nests", nests) != []
    nests[0]["row"], nests[0]["type"] = 10, "Reed Nest"
    assert len(errors("nests", nests)) == 2


def test_overlay_patch_items_need_only_an_id():
    """`op: patch` items may give just `id` and the fields they change; other items must be complete."""
    assert errors("nests", [{"id": "tree-2", "op": "patch", "vp": 0}]) == []
    assert errors("nests", [{"id": "tree-2", "op": "replace", "vp": 0}]) != []
    assert errors("nests", [{"id": "tree-9", "vp": 0}]) != []
    assert errors("season_cards", [{"id": "most-nests", "op": "patch", "others": None}]) == []
    assert errors("flock", {"id": "red", "op": "patch", "side_b": {"requisites": "changed"}}) == []
    assert errors("flock", {"id": "red", "side_b": {"requisites": "changed"}}) != []
    assert errors("leaders", [{"id": "chopan", "op": "patch", "name": "Chopan the Great"}]) == []
    assert errors("island", {"layouts": [{"id": "2p", "op": "patch", "players": 2}]}) == []
    assert errors("nests", [{"id": "tree-2", "op": "merge"}]) != []


def test_overlay_game_yaml_is_a_partial_patch():
    """An overlay game.yaml gives only the sections it changes (deep-merge patch)."""
    assert errors("game", {"feed": {"cost": {"2": 2, "3": 2, "explode": 2}, "source": "rulebook Z-3"}}) == []
    assert errors("game", {"feed": {"cost": {"2": 2}}}) != []  # every section states its source
    assert errors("game", {"feeding": {"source": "designed: typo"}}) != []


def test_sources_must_name_a_rule_or_a_reason():
    """`source` is `rulebook <ids>` (optionally `; designed: ...`) or `designed: <reason>`."""
    good = ["rulebook R-BUILD-4", "rulebook R-COMP-2, R-ASYM-1; designed: track icons", "rulebook Z-5", "designed: why"]
    bad = ["rulebook", "designed:", "designed:  ", "R-BUILD-4", "rulebook R-BUILD", "made up"]
    src = {"$ref": "common.schema.json#/$defs/source", "$id": "https://kiwi-chow-down.example/schemas/t.json"}
    v = Draft202012Validator(src, registry=REGISTRY)
    assert [s for s in good if not v.is_valid(s)] == []
    assert [s for s in bad if v.is_valid(s)] == []


def test_wildcards_need_play_as_and_benefit_other_cards_an_effect():
    """R-WILD-1: a wild card has `play_as` and `benefit`; a move/build/feed card has `effect` only."""
    assert errors("action_cards", [{"id": "x", "type": "wild", "effect": "build", "source": "designed: t"}]) != []
    assert errors("action_cards", [{"id": "x", "type": "move", "benefit": "gain 1 fruit", "source": "designed: t"}]) != []
    assert errors("action_cards", [{"id": "x", "type": "feed", "effect": "feed", "source": "designed: t"}]) == []


def test_flock_power_is_a_trigger_or_a_modifier_not_both():
    """A power is `when`+`do` or `modifier` (SPEC.md flocks), never a mix."""
    flock = yaml.safe_load((CONTENT / "base/flocks/yellow.yaml").read_text())
    flock["side_b"]["power"][0]["modifier"] = "my pieces can push kiwi of equal size"
    assert errors("flock", flock) != []
    del flock["side_b"]["power"][0]["modifier"]
    del flock["side_b"]["power"][0]["do"]
    assert errors("flock", flock) != []


def test_setup_steps_are_checked():
    """R-SETUP-6 steps: a `place` step needs `hex` and `until` or `count`."""
    base = {"source": "designed: t"}
    assert errors("game", {"setup": {**base, "advanced": [{"step": "place", "hex": "any"}]}}) != []
    assert errors("game", {"setup": {**base, "advanced": [{"step": "place", "hex": "any", "count": 3}]}}) == []
    assert errors("game", {"setup": {**base, "advanced": [{"step": "fly"}]}}) != []
