"""Every DSL field of the content parses and checks clean against the registry; the Kiwibot verbs (R-SOLO-7..11)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from kcd.dsl import CheckContext, compile_field, registry, render
from kcd.dsl.registry_solo import SOLO_PRIMITIVES

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SCHEMAS = {p.name.removesuffix(".schema.json"): json.loads(p.read_text()) for p in (ROOT / "schemas").glob("*.schema.json")}
GAME = yaml.safe_load((CONTENT / "base/game.yaml").read_text(encoding="utf-8"))
CTX = CheckContext(tuple(GAME["fruits"]), tuple(GAME["terrains"]), GAME["limits"]["kiwi_size"])


def kind_of(path: Path) -> str:
    """The content kind of a file, from its name."""
    return "flock" if path.parent.name == "flocks" else path.stem


def dsl_fields(schema: dict, data, path: tuple = ()):
    """Yield (path, field kind, text) for every x-dsl field of `data`, walking it alongside its schema."""
    if data is None:
        return
    if "x-dsl" in schema:
        yield path, schema["x-dsl"], data
    elif isinstance(data, dict):
        for key, value in data.items():
            sub = schema.get("properties", {}).get(key)
            if sub is None and isinstance(schema.get("additionalProperties"), dict):
                sub = schema["additionalProperties"]
            if sub is not None:
                yield from dsl_fields(sub, value, path + (key,))
    elif isinstance(data, list) and isinstance(schema.get("items"), dict):
        for i, value in enumerate(data):
            yield from dsl_fields(schema["items"], value, path + (i,))


# positions/ holds Board positions (README "Positions"), not content
FIELDS = [(p, path, kind, text) for p in sorted(CONTENT.rglob("*.yaml")) if p.relative_to(CONTENT).parts[0] != "positions"
          for path, kind, text in dsl_fields(SCHEMAS[kind_of(p)], yaml.safe_load(p.read_text(encoding="utf-8")))]


def test_dsl_fields_are_found_in_every_kind():
    """The x-dsl walk reaches the DSL of every content kind (so none is silently skipped)."""
    per_file = {}
    for p, _, kind, _ in FIELDS:
        per_file.setdefault(str(p.relative_to(CONTENT)), set()).add(kind)
    assert per_file["base/nests.yaml"] == {"cost", "effect"}
    assert per_file["base/season_cards.yaml"] == {"objective", "effect"}
    assert per_file["base/leaders.yaml"] == {"ability"}
    assert per_file["base/solo.yaml"] == {"solo", "effect"}
    assert per_file["base/game.yaml"] == {"effect"}
    assert per_file["base/flocks/yellow.yaml"] == {"cost", "effect", "trigger", "modifier"}
    assert len([f for f in FIELDS if f[0].name == "solo.yaml" and f[0].parent.name == "base" and f[2] == "solo"]) \
        == 6 * 4 * 4
    assert per_file["mods/kiwibot-cards/solo.yaml"] == {"solo"}


@pytest.mark.parametrize("path,where,kind,text", FIELDS,
                         ids=lambda v: str(v.relative_to(CONTENT)) if isinstance(v, Path) else (
                             "/".join(map(str, v)) if isinstance(v, tuple) else None))
def test_dsl_field_parses_checks_and_renders(path, where, kind, text):
    """Each field binds to registry primitives with no issue and renders to rules text."""
    node, issues = compile_field(text, kind, CTX)
    assert [(i.code, i.message) for i in issues] == []
    assert render(node).strip()


def test_costs_use_pay_verbs_only():
    """Nest costs and extra-Move costs are `pay` verbs (R-BUILD-2, R-MOVE-3)."""
    costs = [text for _, _, kind, text in FIELDS if kind == "cost"]
    assert costs and all(re.fullmatch(r"pay \d+ fruit (same|of [a-z ]+)", c) for c in costs)


def test_R_SOLO_7_solo_verbs_live_only_in_solo_context():
    """Kiwibot verbs are `bot ...`, allowed only in Solo card segments, never in player effects."""
    assert 8 <= len(SOLO_PRIMITIVES) <= 14
    for p in SOLO_PRIMITIVES:
        assert p.kind == "verb" and p.contexts == frozenset({"solo"}) and p.head == "bot"
        assert p.doc and p.template and registry.BY_ID[p.id] is p
    _, issues = compile_field("bot places 2 kiwi", "effect", CTX)
    assert [i.code for i in issues] == ["dsl-context"]
    node, issues = compile_field("bot moves my kiwi of size 2 to a sand hex; bot pushes up to 1 of the kiwi of an "
                                 "opponent; place 1 kiwi", "solo", CTX)
    assert issues == []
    assert render(node) == ("Kiwibot moves a size-2 Kiwi to an adjacent sand hex, it pushes 1 of your Kiwi "
                            "and place 1 size-1 Kiwi")


def test_R_SOLO_10_every_solo_verb_is_used_and_templates_name_pattern_slots():
    """Each Kiwibot verb appears on some Solo card; template slots are the pattern's slots."""
    used = set()
    for p, _, kind, text in FIELDS:
        if kind == "solo":
            node, _ = compile_field(text, "solo", CTX)
            used |= {c.primitive for c in _calls(node)}
    assert {p.id for p in SOLO_PRIMITIVES} <= used
    for p in SOLO_PRIMITIVES:
        slots = {part.name for part in p.parts if not isinstance(part, str)}
        assert set(re.findall(r"\{(\w+)", p.template)) <= slots, p.id


def test_solo_patterns_are_unambiguous():
    """No two primitives of one kind share a pattern (a call binds to exactly one); Kiwibot verbs clash with none."""
    keys = [(p.kind, p.pattern) for p in registry.PRIMITIVES]
    assert len(keys) == len(set(keys))
    core_heads = {p.head for p in registry.CORE_PRIMITIVES}
    assert "bot" not in core_heads


def _calls(node):
    from kcd.dsl.ast import Call, Phrase, walk
    return [n for n in walk(node) if isinstance(n, (Call, Phrase))]


def test_solo_registry_names_no_content():
    """interpreter/ never names a card, leader, nest (id or type), Season card or flock id: the Kiwibot verbs address
    Nests by flock-board column instead."""
    text = (ROOT / "interpreter/dsl/registry_solo.py").read_text(encoding="utf-8").lower()
    names = set()
    for p in (p for p in CONTENT.rglob("*.yaml") if p.relative_to(CONTENT).parts[0] != "positions"):
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else [data]
        for item in items:
            if isinstance(item, dict) and isinstance(item.get("id"), str) and p.parent.name != "prototype":
                names.add(item["id"])
                names.update(c["id"] for c in item.get("cards", []) if isinstance(c, dict) and "id" in c)
                if "type" in item and p.name == "nests.yaml":
                    names.add(item["type"])
    names -= {"move", "build", "feed"}  # action types are DSL argument values, not content names
    assert names and [n for n in sorted(names) if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)] == []
