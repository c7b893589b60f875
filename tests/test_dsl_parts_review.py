"""The effect language's parts after their review: one Leader walk (`leader moves N`; `leader walks up to N` was
the same verb twice), and the parts one base content item alone uses, each kept with a note saying why, which
`kcd reference` shows. Rule ids: R-LEAD-5 (the walk), R-MOVE-3, R-FEED-1, R-DM-2 (the procedures kept)."""
from __future__ import annotations

from collections import Counter

from typer.testing import CliRunner

from kcd.apps.cli.main import app
from kcd.content import load_ruleset
from kcd.dsl import CheckContext, ast, compile_field, registry, render

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)
KEPT = ("remove-kiwi", "extra-moves", "feed", "mark-domain", "t-gain-domain", "t-gain-move", "t-domain-marking")


def _base_uses() -> Counter:
    """How many base content items bind each primitive."""
    rs = load_ruleset()
    uses: Counter = Counter()

    def found(value, into: set) -> None:
        if isinstance(value, dict):
            for v in value.values():
                found(v, into)
        elif isinstance(value, (list, tuple)):
            for v in value:
                found(v, into)
        elif hasattr(value, "span") and hasattr(value, "__dataclass_fields__"):
            into.update(p for n in ast.walk(value) if (p := getattr(n, "primitive", None)))

    for kind in ("action_cards", "nests", "flocks", "leader_cards", "season_cards", "turn_order_nests",
                 "tracker_slots"):
        for item in rs.items(kind):
            prims: set = set()
            found(item.data, prims)
            uses.update(prims)
    return uses


def test_R_LEAD_5_one_leader_walk_with_its_rules_text() -> None:
    """`leader moves 2` is the walk of up to 2 hexes (its text unchanged); the duplicate `leader walks up to 2` is
    gone, and writing it gets the Leader movements that exist."""
    node, issues = compile_field("leader moves 2; gain 1 fruit", "ability", CTX)
    assert issues == [] and node.stmts[0].primitive == "leader-walk"
    assert render(node) == "Move your Leader up to 2 hexes and gain 1 Fruit"
    assert "leader-walk-upto" not in registry.BY_ID
    _, issues = compile_field("leader walks up to 2; gain 1 fruit", "ability", CTX)
    assert [i.code for i in issues][:1] == ["dsl-arg-count"] and "`leader moves <n>`" in issues[0].message


def test_the_parts_one_base_item_uses_say_why_they_are_kept() -> None:
    """Each of the seven is used by exactly one base item and is an engine procedure or event (its note)."""
    uses = _base_uses()
    assert {p: uses[p] for p in KEPT} == {p: 1 for p in KEPT}
    for p in KEPT:
        assert registry.get(p).note.startswith("kept (reviewed): "), p
    out = CliRunner().invoke(app, ["reference"]).output
    for p in KEPT:
        assert f"({registry.get(p).note})" in out, p


def test_no_note_is_stale() -> None:
    """A primitive with a `kept` note is still used by base content (else the note, or the part, should go)."""
    uses = _base_uses()
    noted = [p.id for p in registry.CORE_PRIMITIVES if p.note]
    assert sorted(noted) == sorted(KEPT)
    assert all(uses[p] for p in noted)
