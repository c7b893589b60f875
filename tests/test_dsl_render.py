"""DSL rules text: templates, sentence joining, control statements, round trips of every registry primitive."""
from __future__ import annotations

import re

import pytest

from kcd.dsl import CheckContext, compile_field, reference, registry, render
from kcd.dsl.parser import RESERVED
from kcd.dsl.primitive import TYPES, Slot
from kcd.dsl.render import sample_call

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)


def _text(dsl: str, kind: str = "effect", **kw: object) -> str:
    node, issues = compile_field(dsl, kind, CTX)
    assert issues == []
    return render(node, **kw)


@pytest.mark.parametrize("dsl,kind,text", [
    ("gain 2 fruit; place 1 kiwi", "effect", "Gain 2 Fruits and place 1 size-1 Kiwi"),
    ("gain 1 fruit", "effect", "Gain 1 Fruit"),
    ("gain 1 domain; gain 1 fruit; gain 1 vp", "effect", "Gain 1 Domain marker, 1 Fruit and 1 Victory Point"),
    ("grow 1 kiwi", "effect", "Increase 1 size any Kiwi of yours"),
    ("grow 3 kiwi", "effect", "Increase 1 size any three Kiwi of yours"),
    ("move 1", "effect", "Gain 1 Move action"),
    ("pay 3 fruit same", "cost", "Pay 3 Fruits of the same color"),
    ("pay 3 fruit different", "cost", "Pay 3 Fruits of different colors"),
    ("pay 2 fruit of yellow green", "cost", "Pay 2 Fruits of yellow or green in any combination"),
    ("pay 1 domain; pay 1 fruit any", "effect", "Pay 1 Domain marker and 1 Fruit of any color"),
    ("may { gain 1 fruit }", "effect", "You may gain 1 Fruit"),
    ("gain 1 fruit; may { place 1 kiwi }", "effect", "Gain 1 Fruit and you may place 1 size-1 Kiwi"),
    ("repeat 2 { feed }", "effect", "Twice: take 1 Feed action immediately (paying Fruit)"),
    ("repeat 3 { gain 1 fruit }", "effect", "3 times: gain 1 Fruit"),
    ("repeat 1 { gain 1 fruit }", "effect", "Once: gain 1 Fruit"),
    ("choose { gain 2 fruit } or { gain 1 domain }", "effect", "Choose one: gain 2 Fruits; or gain 1 Domain marker"),
    ("most tokens(my pieces in flower hexes)", "objective", "Most Kiwi tokens in flower hexes"),
    ("least count(my kiwi of size 2)", "objective", "Least size-2 Kiwi on the island board"),
    ("most tokens(pieces of anyone in my leader)", "objective",
     "Most Kiwi tokens (any player) in the same hex as your Leader"),
    ("most largest(hexes, tokens(my pieces in it))", "objective", "Most Kiwi tokens in a single hex"),
    ("most count(hexes where count(my kiwi in it) = 1)", "objective",
     "Most hexes with only one of your Kiwi of any size"),
    ("gain move", "trigger", "Whenever you play or gain Move actions"),
    ("my nests give benefits twice", "modifier", "Your Nests give their benefits twice (Victory Points excluded)"),
    ("my pieces can push kiwi of equal size", "modifier", "Your pieces can push Kiwi of the same size"),
    ("my kiwi in flower hexes can push up to 3 kiwi", "modifier",
     "Your Kiwi in flower hexes can push up to 3 smaller Kiwi"),
    ("leader moves 3 straight; push the pieces out of the passed hexes", "ability",
     "Move your Leader 3 hexes in a straight line and push the pieces out of the passed hexes"),
    ("leader jumps 2; push up to 2 of the pieces out of the landing hex", "ability",
     "Jump your Leader to a hex exactly 2 hexes away and push up to 2 of the pieces out of the landing hex"),
])
def test_rules_text(dsl: str, kind: str, text: str) -> None:
    assert _text(dsl, kind) == text


def test_mid_sentence_keeps_lower_case() -> None:
    assert _text("may { gain 4 fruit }", sentence=False) == "you may gain 4 Fruits"


def test_R_SCARD_5_no_benefit() -> None:
    """R-SCARD-5: an empty right side reads "No benefit"."""
    assert render(None) == "No benefit"


def test_unknown_language_lists_the_available_ones() -> None:
    with pytest.raises(ValueError, match=r"^unknown language `fr`; available: en$"):
        render(None, lang="fr")


def test_unbound_calls_render_as_written() -> None:
    node, _ = compile_field("gian 1 fruit", "effect", CTX)
    assert render(node) == "Gian 1 fruit"


def _sample_kind(prim: registry.Primitive) -> str:
    for kind in ("effect", "ability", "solo", "cost", "objective", "trigger", "modifier"):
        if kind in prim.contexts:
            return kind
    raise AssertionError(f"{prim.id} has no usable context")


@pytest.mark.parametrize("prim", registry.PRIMITIVES, ids=lambda p: p.id)
def test_every_primitive_round_trips(prim: registry.Primitive) -> None:
    """Each pattern with sample arguments parses, binds to that very primitive and renders its template."""
    dsl = sample_call(prim, CTX)
    node, issues = compile_field(dsl, _sample_kind(prim), CTX)
    assert issues == [], (dsl, issues)
    bound = node.query if prim.kind == "query" else node if prim.kind in ("trigger", "modifier") else node.stmts[0]
    assert bound.primitive == prim.id
    text = render(node)
    assert text and "<" not in text and "{" not in text and "}" not in text
    assert text[0].isupper() or text[0].isdigit()


@pytest.mark.parametrize("prim", registry.PRIMITIVES, ids=lambda p: p.id)
def test_registry_entries_are_well_formed(prim: registry.Primitive) -> None:
    """Patterns use known slot types and no reserved word; templates name only their own slots."""
    for part in prim.parts:
        if isinstance(part, Slot):
            assert part.type in TYPES, f"{prim.id}: slot type {part.type}"
        else:
            assert part not in RESERVED, f"{prim.id}: pattern word `{part}` is a reserved word"
            assert re.fullmatch(r"[a-z][a-z0-9_-]*", part), f"{prim.id}: `{part}` is not a DSL word"
    names = set(re.findall(r"\{(\w+)", prim.template))
    assert names <= set(prim.slots), f"{prim.id}: template names {names - set(prim.slots)}"
    assert prim.kind in ("verb", "query", "trigger", "modifier")
    assert prim.doc and prim.template


def test_registry_ids_and_patterns_are_unique_per_kind() -> None:
    ids = [p.id for p in registry.PRIMITIVES]
    assert len(ids) == len(set(ids))
    keys = [(p.kind, p.pattern) for p in registry.PRIMITIVES]
    assert len(keys) == len(set(keys))


def test_reference_rows() -> None:
    rows = reference(CTX)
    assert [r["id"] for r in rows] == [p.id for p in registry.PRIMITIVES]
    row = next(r for r in rows if r["id"] == "pay-fruit-of")
    assert row == {
        "id": "pay-fruit-of", "kind": "verb", "pattern": "pay {n:int} fruit of {types:fruit+}",
        "display": "pay <n> fruit of <types>...", "doc": registry.get("pay-fruit-of").doc,
        "contexts": ["ability", "cost", "effect", "solo"], "example": "pay 2 fruit of red green",
        "text": "Pay 2 Fruits of red or green in any combination", "note": "", "binds": [], "during": False,
    }
    assert all(r["text"] for r in rows)
    assert not [r for r in rows if r["kind"] == "query"]   # objectives are quantities of the parts
    # the parts one content item alone uses say why they are kept
    assert next(r for r in rows if r["id"] == "mark-domain")["note"].startswith("kept (reviewed): the Domain Marking")
    assert all(r["note"] for r in rows if r["id"].startswith("bot-"))


def test_reference_without_known_fruit_fills_templates_with_slot_names() -> None:
    rows = reference(CheckContext((), (), 3))
    row = next(r for r in rows if r["id"] == "pay-fruit-of")
    assert row["example"] == "pay 2 fruit of <types>"
    assert row["text"] == "Pay 2 Fruits of <types> in any combination"
