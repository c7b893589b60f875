"""The editor lists what the loader loads: its packs, files and item kinds come from the loader's one layout
table (kcd.content.layout), never a table of its own. Plain functions, no browser."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcd.core import paths
from kcd.content import content_packs, load_ruleset
from kcd.content.layout import FILES, PACK_SPEC
from kcd.content.loader import build
from kcd.content.model import KINDS
from kcd.apps.editor.logic import catalog

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped content and schemas with a mod that patches solo.yaml: its setup (a deep-merged
    section) and one Solo card (an item by id)."""
    shutil.copytree(paths.content_dir(), tmp_path / "content")
    shutil.copytree(paths.schemas_dir(), tmp_path / "schemas")
    mod = tmp_path / "content" / "mods" / "solo-tweak"
    mod.mkdir()
    (mod / "pack.yaml").write_text('id: solo-tweak\nname: Solo tweak\nkind: mod\ndescription: d\n'
                                   'source: "designed: t"\n', encoding="utf-8")
    (mod / "solo.yaml").write_text('setup:\n  set_aside: 2\n  source: "designed: one more card set aside"\n'
                                   'cards:\n  - id: solo-1\n    op: patch\n    source: "designed: patched"\n',
                                   encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


def test_the_catalogue_lists_the_items_and_sections_the_loader_loads() -> None:
    """Every base item of the catalogue is a Ruleset item of the same kind and id, and back; the deep-merged
    sections of solo.yaml and game.yaml are the Ruleset's `solo` and game sections. (The editor once listed the
    Solo-mode marker and each Kiwibot pattern as items the loader does not have, and lost solo.yaml's `setup`.)"""
    items, bad = catalog.catalog(REPO / "content")
    assert bad == []
    rules = load_ruleset()
    base = [i for i in items if i.pack_kind == "base"]
    sections = {f.sections for f in FILES if f.sections}
    listed = {(i.kind, i.id) for i in base if i.kind not in sections}
    loaded = {(kind, item.id) for kind in KINDS if kind != "leader_cards" for item in rules.items(kind)}
    assert listed == loaded
    assert [i.id for i in base if i.kind == "solo"] == list(rules.solo) == ["setup", "marker", "patterns"]
    assert {i.id for i in base if i.kind == "game"} == set(rules.raw_game)
    assert all(i.section == (i.kind in sections) for i in base)
    solo_six = next(i for i in base if i.kind == "solo_cards" and i.id == "solo-6")
    setup = next(i for i in base if i.kind == "solo" and i.id == "setup")
    assert solo_six.end_line < setup.line    # the last Solo card ends where the setup begins


def test_a_solo_yaml_overlay_patches_its_sections_and_its_cards_by_id(content: Path) -> None:
    """In a mod's solo.yaml, `setup` is a patch of the base setup (as the loader deep-merges it) and a card with
    `op: patch` patches the base card of its id."""
    items, bad = catalog.catalog(content)
    assert bad == []
    setup = next(i for i in items if i.kind == "solo" and i.id == "setup" and i.pack == "solo-tweak")
    assert setup.section and setup.overridden_target == "base"
    base_setup = next(i for i in items if i.kind == "solo" and i.id == "setup" and i.pack == "base")
    assert base_setup.overrides == ("solo-tweak (patch)",)
    card = next(i for i in items if i.kind == "solo_cards" and i.pack == "solo-tweak")
    assert (card.id, card.op, card.overridden_target) == ("solo-1", "patch", "base")
    assert catalog.rows([setup])[0]["op"] == "patch"
    assert load_ruleset(["solo-tweak"], root=content).solo["setup"]["set_aside"] == 2


def test_the_editor_s_packs_and_files_are_the_loader_s(content: Path) -> None:
    """Packs and files as the loader finds them: a hidden folder is no pack, a flock written as `.yml` is a
    content file, and the editor's file list is the files one load of every pack reads, in the same order."""
    (content / "mods" / ".trash").mkdir()
    (content / "mods" / ".trash" / "nests.yaml").write_text("[]\n", encoding="utf-8")
    red = content / "base" / "flocks" / "red.yaml"
    red.rename(red.with_suffix(".yml"))
    packs = content_packs(content)
    assert [p.id for p in packs][:2] == ["base", "prototype"] and ".trash" not in [p.id for p in packs]
    files = catalog.content_files(content)
    assert "base/flocks/red.yml" in files and not any(".trash" in f for f in files)
    loaded = build(content.resolve(), [p.id for p in packs[1:]]).files
    assert files == [Path(f).relative_to(content.resolve()).as_posix() for f in loaded]
    assert any(i.kind == "flocks" and i.id == "red" for i in catalog.items_in_text(
        "base/flocks/red.yml", red.with_suffix(".yml").read_text(encoding="utf-8")))


def test_every_kind_of_the_layout_table_is_labelled_and_a_ruleset_kind() -> None:
    """The Content page names every item kind and section kind the layout table has; the Ruleset's kinds are
    the table's item kinds (and leader cards, read out of leaders)."""
    item_kinds = {f.kind for f in FILES if f.kind} | {kind for f in FILES for _, kind in f.groups}
    section_kinds = {f.sections for f in FILES if f.sections}
    assert item_kinds | section_kinds | {PACK_SPEC.kind} <= set(catalog.KIND_LABELS)
    assert set(KINDS) == item_kinds | {"leader_cards"}
    assert catalog.schema_of("base/solo.yaml") == "solo" and catalog.schema_of("mods/x/flocks/a.yaml") == "flock"
    assert catalog.schema_of("mods/x/pack.yaml") == "pack" and catalog.schema_of("base/notes.yaml") is None
    assert catalog.holds("editions/p/flocks/a.yml", "flocks") and not catalog.holds("base/nests.yaml", "flocks")
