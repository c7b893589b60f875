"""The Ruleset API (SPEC.md "Ruleset") and overlays: shipped sets load clean, packs add/replace/patch items,
origins and overrides are recorded, DSL fields are compiled, and invalid content raises ContentError."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kcd.content import (
    KINDS, ContentError, Item, Ruleset, available_packs, clear_caches, load_ruleset, validate_paths, validate_text,
)
from kcd.dsl.ast import Call, Objective, Seq


# `root` (a private content copy) comes from conftest.py.
pytestmark = pytest.mark.usefixtures("no_disk_cache")


def _pack(root: Path, kind: str, name: str, files: dict[str, str]) -> Path:
    folder = root / f"{kind}s" / name
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        f'id: {name}\nname: {name}\nkind: {kind}\ndescription: test pack\nsource: "designed: test"\n')
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text)
    return folder


@pytest.mark.parametrize("overlays", [(), ("prototype",), ("example",)])
def test_shipped_sets_validate_clean(overlays: tuple[str, ...]) -> None:
    """base, base + prototype edition and base + example mod load with no diagnostic."""
    rs = load_ruleset(overlays)
    assert isinstance(rs, Ruleset)
    assert rs.pack_ids == overlays


def test_R_COMP_ruleset_items_by_kind() -> None:
    """Every kind is available; base counts follow R-COMP-2/3 (6 nests, 16 Season cards, 7 Leaders with 2
    cards each, 4 Turn Order nests); items keep file order and are found by id."""
    rs = load_ruleset()
    assert rs.kinds() == KINDS
    assert len(rs.items("nests")) == 6
    assert len(rs.items("season_cards")) == 16
    assert len(rs.items("leaders")) == 7
    assert len(rs.items("leader_cards")) == 14
    assert len(rs.items("turn_order_nests")) == 4
    assert [i.id for i in rs.items("nests")][:1] == ["tree-1"]
    assert rs.item("season_cards", "most-nests").kind == "season_cards"
    card = rs.item("leader_cards", "chopan-1")
    assert card.parent == "chopan"
    with pytest.raises(KeyError):
        rs.item("nests", "tree-9")
    with pytest.raises(KeyError):
        rs.items("cards")


def test_dsl_fields_are_bound_ast_and_raw_keeps_text() -> None:
    """Item.data holds bound AST nodes for DSL fields, Item.raw the text as written; game.yaml too."""
    rs = load_ruleset()
    nest = rs.item("nests", "cave-2")
    assert nest.raw["on_place"] == "place 2 kiwi"
    assert isinstance(nest.data["on_place"], Seq)
    call = nest.data["on_place"].stmts[0]
    assert isinstance(call, Call) and call.primitive == "place-kiwi" and call.arg("n") == 2
    objective = rs.item("season_cards", "least-flower").data["objective"]
    assert isinstance(objective, Objective) and objective.direction == "least"
    assert isinstance(rs.game["facedown"]["effect"], Seq)
    assert rs.raw_game["facedown"]["effect"] == "may { gain 1 fruit }"


def test_R_BUILD_6_prototype_patch_Z_5() -> None:
    """The prototype edition patches second-row Nest VP (Z-5): origin stays base, overrides name the pack."""
    base = load_ruleset()
    proto = load_ruleset(["prototype"])
    assert base.item("nests", "tree-2").data["vp"] == 1
    tree2 = proto.item("nests", "tree-2")
    assert tree2.data["vp"] == 0
    assert tree2.data["cost"] == base.item("nests", "tree-2").data["cost"]  # untouched fields kept
    assert tree2.origin.pack == "base" and tree2.origin.file.endswith("nests.yaml") and tree2.origin.line > 0
    assert tree2.overrides == ("prototype",)
    assert proto.item("nests", "cave-2").overrides == ()
    assert proto.game["feed"]["cost"]["3"] == 2  # Z-3 via the game.yaml deep-merge patch
    assert proto.game["limits"] == base.game["limits"]
    assert base.hash != proto.hash and len(base.hash) == 64


def test_example_mod_adds_items() -> None:
    """The example mod adds a flock file and a Leader; their origin is the mod."""
    rs = load_ruleset(["example"])
    flocks = [f.id for f in rs.items("flocks")]
    assert "orange" in flocks and len(flocks) == len(load_ruleset().items("flocks")) + 1
    hoiho = rs.item("leaders", "hoiho")
    assert hoiho.origin.pack == "example"
    assert rs.item("leader_cards", "hoiho-2").parent == "hoiho"


def test_hash_is_stable_and_ruleset_frozen() -> None:
    """The content hash is deterministic; Ruleset and Item are frozen."""
    one = load_ruleset()
    clear_caches()
    two = load_ruleset()
    assert one.hash == two.hash
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.hash = "x"  # type: ignore[misc]
    item = one.items("nests")[0]
    assert isinstance(item, Item)
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.id = "x"  # type: ignore[misc]


def test_available_packs() -> None:
    """Editions then mods, with their pack.yaml names."""
    packs = available_packs()
    assert [(p.id, p.kind) for p in packs][:3] == [("prototype", "edition"), ("compose", "mod"), ("example", "mod")]
    assert packs[0].name == "Prototype edition"


def test_overlay_replace_patch_add_and_deep_merge(root: Path) -> None:
    """op: replace swaps the whole item, op: patch deep-merges mappings and replaces lists, no op adds;
    a flock file with op: patch changes one side's field and keeps the rest."""
    _pack(root, "mod", "m", {
        "season_cards.yaml": ("- id: most-nests\n  op: replace\n  objective: least count(my nests)\n  victor: gain 2 vp\n"
                              "  others: null\n  source: \"designed: test\"\n"),
        "nests.yaml": "- id: cave-1\n  op: patch\n  on_place: place 2 kiwi\n",
        "flocks/red.yaml": "id: red\nop: patch\nside_b:\n  extra_move: pay 2 fruit of blue green\n",
        "game.yaml": "limits:\n  hand: 4\n",
    })
    base = load_ruleset(root=root)
    rs = load_ruleset(["m"], root=root)
    card = rs.item("season_cards", "most-nests")
    assert card.raw == {"id": "most-nests", "objective": "least count(my nests)", "victor": "gain 2 vp", "others": None,
                        "source": "designed: test"}
    assert card.overrides == ("m",) and card.origin.pack == "base"
    cave = rs.item("nests", "cave-1")
    assert cave.raw["on_place"] == "place 2 kiwi"
    assert cave.raw["on_season_change"] == base.item("nests", "cave-1").raw["on_season_change"]
    red = rs.item("flocks", "red")
    assert red.raw["side_b"]["extra_move"] == "pay 2 fruit of blue green"
    assert red.raw["side_b"]["track"] == base.item("flocks", "red").raw["side_b"]["track"]
    assert red.raw["side_a"] == base.item("flocks", "red").raw["side_a"]
    assert rs.game["limits"]["hand"] == 4 and rs.game["limits"]["fruit"] == base.game["limits"]["fruit"]


def test_overlay_errors_raise_content_error(root: Path) -> None:
    """Invalid overlay content raises ContentError whose diagnostics are located in the pack's file."""
    _pack(root, "mod", "bad", {"nests.yaml": "- id: tree-1\n  op: patch\n  vp: many\n"})
    with pytest.raises(ContentError) as err:
        load_ruleset(["bad"], root=root)
    assert [d.format() for d in err.value.diagnostics] == [
        "content/mods/bad/nests.yaml:3:7: error[schema]: `vp` must be a whole number, got `many`\n"
        "  vp: many\n"
        "      ^^^^"]
    assert "error[schema]" in str(err.value)


def test_validate_text_uses_the_edit_and_its_pack(root: Path) -> None:
    """validate_text checks an edited overlay file in the context of base + its pack, without writing it."""
    _pack(root, "edition", "e", {"nests.yaml": "- id: tree-1\n  op: patch\n  vp: 0\n"})
    path = root / "editions" / "e" / "nests.yaml"
    assert validate_text(path, path.read_text()) == []
    found = [d.format() for d in validate_text(path, "- id: tree-1\n  op: patch\n  on_place: gain 1 fruits\n")]
    assert found == [
        "content/editions/e/nests.yaml:3:20: error[dsl-unknown]: unknown word `fruits` in `gain`: expected "
        "`fruit`, `domain` or `vp`\n"
        "  on_place: gain 1 fruits\n"
        "                   ^^^^^^\n"
        "  hint: did you mean `fruit`?"]
    assert path.read_text() == "- id: tree-1\n  op: patch\n  vp: 0\n"
    # relative to the current directory works too
    assert validate_text("content/editions/e/nests.yaml", path.read_text()) == []


def test_validate_paths_api(root: Path) -> None:
    """validate_paths returns diagnostics for roots, pack folders and files; a missing path is a ValueError."""
    assert validate_paths([root]) == []
    assert validate_paths([root / "editions" / "prototype"]) == []
    assert validate_paths([root / "base" / "nests.yaml"]) == []
    with pytest.raises(ValueError):
        validate_paths([root / "nowhere"])


def test_pack_yaml_is_checked(root: Path) -> None:
    """pack.yaml is validated against its schema and its id must match the folder."""
    folder = root / "mods" / "zz"
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text('id: zzz\nname: Z\nkind: modd\ndescription: d\nsource: "designed: t"\n')
    with pytest.raises(ContentError) as err:
        load_ruleset(["zz"], root=root)
    assert [d.format() for d in err.value.diagnostics] == [
        "content/mods/zz/pack.yaml:1:5: error[schema]: pack id `zzz` does not match its folder `zz`\n"
        "  id: zzz\n"
        "      ^^^",
        "content/mods/zz/pack.yaml:3:7: error[schema]: `kind` must be edition or mod, got `modd`\n"
        "  kind: modd\n"
        "        ^^^^\n"
        "  hint: did you mean `mod`?",
    ]
