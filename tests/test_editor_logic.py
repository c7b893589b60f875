"""Editor logic as plain functions: round-trip edits, diff, atomic save, conflicts, undo, drafts, confinement,
the item catalog, schema help, edit buffers and the SVG board."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from kcd.apps.editor.logic import board_svg, buffers, catalog, confine, fields, schema_help, store, yamlrt
from kcd.apps.editor.logic.config import content_root

REPO = Path(__file__).resolve().parent.parent

NESTS = """# Nests (R-BUILD-4): comments must survive every save
- id: tree-1   # first row
  type: tree
  row: 1
  cost: pay 2 fruit same
  on_place: "gain 1 fruit"
  vp: 0
  source: "rulebook R-BUILD-4"

- id: cave-2
  type: cave
  row: 2
  cost: 'pay 3 fruit same'
  on_place: |
    place 2 kiwi
  vp: 1
  source: "designed: a long long long long long long long long long long long long long long long long line"
"""

LEADERS = """# mixed indentation: top-level list at column 0, nested lists indented by 2
- id: chopan
  name: Chopan
  cards:
    - id: chopan-1
      ability: leader moves 3 straight; push all passed
      source: "rulebook R-LEAD-6"
    - {id: chopan-2, ability: leader moves 2 straight, source: "designed: x"}
  source: "rulebook R-LEAD-6"
"""

FLOCK = """id: red
name: Red
colour: "#c0392b"
side_a:
  extra_move: pay 2 fruit of yellow green
  track:
    - {slot: 1, benefit: null, source: "rulebook R-TRACK-1"}
    - slot: 2
      benefit: null   # nothing here
      source: "x"
"""


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A small content folder with a base and one mod overriding a base nest."""
    base = tmp_path / "content" / "base"
    (base / "flocks").mkdir(parents=True)
    (base / "nests.yaml").write_text(NESTS)
    (base / "leaders.yaml").write_text(LEADERS)
    (base / "flocks" / "red.yaml").write_text(FLOCK)
    mod = tmp_path / "content" / "mods" / "tweak"
    mod.mkdir(parents=True)
    (mod / "pack.yaml").write_text("id: tweak\nname: Tweak\nkind: mod\ndescription: d\nsource: \"designed: t\"\n")
    (mod / "nests.yaml").write_text("- id: cave-2\n  op: patch\n  vp: 2\n")
    return tmp_path / "content"


def no_problems(_text: str) -> list[str]:
    return []


# --- round-trip edits ---------------------------------------------------------------------------------------

def test_edit_keeps_comments_quotes_and_untouched_lines() -> None:
    new = yamlrt.apply_edits(NESTS, {(0, "on_place"): "gain 2 fruit", (1, "cost"): "pay 3 fruit different"})
    old_lines, new_lines = NESTS.splitlines(), new.splitlines()
    changed = [i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
    assert len(old_lines) == len(new_lines)
    assert [new_lines[i] for i in changed] == ['  on_place: "gain 2 fruit"', "  cost: 'pay 3 fruit different'"]
    assert new.startswith("# Nests (R-BUILD-4): comments must survive every save\n- id: tree-1   # first row\n")


def test_edit_in_mixed_indentation_file_touches_only_the_field() -> None:
    new = yamlrt.apply_edits(LEADERS, {(0, "cards", 0, "ability"): "leader jumps 2", (0, "cards", 1, "ability"): "leader moves 1"})
    diff = [ln for ln in store.unified_diff(LEADERS, new, "x").splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
    assert diff == ["-      ability: leader moves 3 straight; push all passed", "+      ability: leader jumps 2",
                    '-    - {id: chopan-2, ability: leader moves 2 straight, source: "designed: x"}',
                    '+    - {id: chopan-2, ability: leader moves 1, source: "designed: x"}']


def test_edit_null_and_comment_after_value() -> None:
    new = yamlrt.apply_edits(FLOCK, {("side_a", "track", 1, "benefit"): "grow 1 kiwi"})
    assert "      benefit: grow 1 kiwi # nothing here\n" in new
    back = yamlrt.apply_edits(new, {("side_a", "track", 1, "benefit"): None})
    assert "benefit: null" in back
    assert yamlrt.apply_edits(FLOCK, {("side_a", "track", 0, "benefit"): None}) == FLOCK  # no-op edit


def test_edit_block_scalar_keeps_block_style() -> None:
    new = yamlrt.apply_edits(NESTS, {(1, "on_place"): "place 3 kiwi\n"})
    assert "  on_place: |\n    place 3 kiwi\n" in new


def test_edit_missing_parent_is_an_edit_error() -> None:
    with pytest.raises(yamlrt.EditError):
        yamlrt.apply_edits(NESTS, {(5, "cost"): "x"})
    with pytest.raises(yamlrt.EditError):
        yamlrt.load("a: [1,\n")


def test_real_content_files_round_trip_unchanged() -> None:
    """Saving with no edit, or re-dumping, never rewrites a shipped file."""
    root = REPO / "content"
    for rel in catalog.content_files(root):
        text = (root / rel).read_text()
        assert yamlrt.apply_edits(text, {}) == text
        assert len(yamlrt.load(text) or []) >= 0


# --- save, diff, conflict, undo, drafts --------------------------------------------------------------------

def test_save_writes_atomically_keeps_history_and_undo_restores(root: Path) -> None:
    snap = store.read(root, "base/nests.yaml")
    new = yamlrt.apply_edits(snap.text, {(0, "vp"): 3})
    diff = store.unified_diff(snap.text, new, "base/nests.yaml")
    assert "-  vp: 0\n+  vp: 3\n" in diff and diff.startswith("--- a/base/nests.yaml\n+++ b/base/nests.yaml\n")
    result = store.save(snap, new, no_problems)
    assert (root / "base/nests.yaml").read_text() == new
    assert result.backup is not None and result.backup.read_text() == NESTS
    assert not [p for p in (root / "base").iterdir() if p.name.endswith(".tmp")]
    restored = store.undo(root, "base/nests.yaml", result.snapshot)
    assert (root / "base/nests.yaml").read_text() == NESTS == restored.text
    with pytest.raises(store.NothingToUndoError):
        store.undo(root, "base/nests.yaml")


def test_save_refuses_invalid_content_and_writes_nothing(root: Path) -> None:
    snap = store.read(root, "base/nests.yaml")
    with pytest.raises(store.InvalidContentError) as err:
        store.save(snap, "broken", lambda text: ["base/nests.yaml:1:1: error[schema]: bad"])
    assert err.value.messages == ["base/nests.yaml:1:1: error[schema]: bad"]
    assert (root / "base/nests.yaml").read_text() == NESTS
    assert store.history(root, "base/nests.yaml") == []


def test_save_refuses_when_file_changed_on_disk(root: Path) -> None:
    snap = store.read(root, "base/nests.yaml")
    (root / "base/nests.yaml").write_text(NESTS + "# someone else\n")
    with pytest.raises(store.ConflictError) as err:
        store.save(snap, yamlrt.apply_edits(snap.text, {(0, "vp"): 5}), no_problems)
    assert err.value.loaded_text == NESTS and err.value.disk_text.endswith("# someone else\n")
    assert (root / "base/nests.yaml").read_text().endswith("# someone else\n")


def test_draft_goes_to_drafts_folder_only(root: Path) -> None:
    snap = store.read(root, "base/nests.yaml")
    path = store.save_draft(snap, "not: [valid")
    assert path == root / "drafts/base/nests.yaml" and path.read_text() == "not: [valid"
    assert (root / "base/nests.yaml").read_text() == NESTS
    assert store.drafts(root) == {"base/nests.yaml": "not: [valid"}
    store.discard_draft(root, "base/nests.yaml")
    assert store.drafts(root) == {}


def test_history_is_pruned(root: Path) -> None:
    snap = store.read(root, "base/nests.yaml")
    for vp in range(store.HISTORY_KEEP + 3):
        snap = store.save(snap, yamlrt.apply_edits(snap.text, {(0, "vp"): vp + 1}), no_problems).snapshot
    assert len(store.history(root, "base/nests.yaml")) == store.HISTORY_KEEP


# --- confinement --------------------------------------------------------------------------------------------

def test_paths_are_confined_to_the_content_folder(root: Path, tmp_path: Path) -> None:
    assert confine.inside(root, "base/nests.yaml") == root.resolve() / "base/nests.yaml"
    for bad in ("../escape.yaml", "base/../../x.yaml", "/etc/passwd", ""):
        with pytest.raises(confine.OutsideContentError):
            confine.inside(root, bad)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, root / "mods" / "link")
    with pytest.raises(confine.OutsideContentError):
        confine.inside(root, "mods/link/pack.yaml")
    snap = store.Snapshot(root, "mods/link/nests.yaml", "", store.digest(""))
    with pytest.raises(confine.OutsideContentError):
        store.save(snap, "x: 1\n", no_problems)
    assert not list(outside.iterdir())


# --- catalog, fields, schema help, buffers -------------------------------------------------------------------

def test_catalog_finds_items_and_overlay_links(root: Path) -> None:
    items, bad = catalog.catalog(root)
    assert bad == []
    keys = {(i.kind, i.id, i.pack) for i in items}
    assert {("nests", "tree-1", "base"), ("nests", "cave-2", "tweak"), ("leaders", "chopan", "base"),
            ("flocks", "red", "base"), ("pack", "tweak", "tweak")} <= keys
    cave = next(i for i in items if i.id == "cave-2" and i.pack == "base")
    assert cave.overrides == ("tweak (patch)",) and (cave.line, cave.end_line) == (10, 17)
    patch = next(i for i in items if i.id == "cave-2" and i.pack == "tweak")
    assert patch.op == "patch" and patch.overridden_target == "base"
    assert catalog.item_at(items, "base/nests.yaml", 12) == cave
    assert [i.id for i in catalog.search(items, ["nests"], "cave")] == ["cave-2", "cave-2"]
    assert catalog.overlays_for("mods/tweak/nests.yaml") == ("tweak",) and catalog.overlays_for("base/x.yaml") == ()


def test_real_content_catalog_lists_every_kind() -> None:
    items, bad = catalog.catalog(REPO / "content")
    assert bad == []
    kinds = {i.kind for i in items}
    assert {"action_cards", "nests", "leaders", "season_cards", "flocks", "turn_order_nests", "tracker_slots",
            "sections", "layouts", "setups", "solo_cards", "game"} <= kinds
    assert len([i for i in items if i.kind == "season_cards" and i.pack == "base"]) == 16  # R-SCARD-5


def test_fields_flatten_item_with_lines(root: Path) -> None:
    items, _ = catalog.catalog(root)
    red = next(i for i in items if i.kind == "flocks")
    found = {f.label: f for f in fields.item_fields(FLOCK, red)}
    assert found["side_a.track[1].benefit"].value is None and found["side_a.track[1].benefit"].line == 9
    assert found["colour"].value == "#c0392b"
    benefit = found["side_a.track[1].benefit"]
    assert fields.to_value(benefit, "") is None


def test_schema_help_follows_refs_items_and_branches(tmp_path: Path) -> None:
    (tmp_path / "common.schema.json").write_text(json.dumps({
        "$id": "https://x/schemas/common.schema.json",
        "$defs": {"effect": {"type": ["string", "null"], "x-dsl": "effect", "description": "An effect."}}}))
    (tmp_path / "nests.schema.json").write_text(json.dumps({
        "$id": "https://x/schemas/nests.schema.json", "type": "array",
        "items": {"type": "object", "oneOf": [{"properties": {"row": {"enum": [1, 2], "description": "Row."}}}],
                  "properties": {"on_place": {"$ref": "common.schema.json#/$defs/effect",
                                              "description": "Gained when placed."}}}}))
    on_place = schema_help.field_schema("nests", (0, "on_place"), tmp_path)
    assert on_place.dsl == "effect" and on_place.description == "Gained when placed." and "null" in on_place.types
    row = schema_help.field_schema("nests", (3, "row"), tmp_path)
    assert row.enum == (1, 2) and row.description == "Row."
    assert schema_help.field_schema("nests", (0, "nothing"), tmp_path) == schema_help.FieldSchema()


def test_buffers_keep_typed_values_per_file_and_field() -> None:
    b: dict = {}
    buffers.put(b, "base/nests.yaml", (0, "vp"), 3, 0)
    buffers.put(b, "base/nests.yaml", (1, "cost"), "pay 3 fruit same", "pay 3 fruit same")  # unchanged: dropped
    buffers.put(b, "base/leaders.yaml", (0, "name"), "C", "Chopan")
    assert buffers.edits_for(b, "base/nests.yaml") == {(0, "vp"): 3}
    assert buffers.files_with_edits(b) == ["base/nests.yaml", "base/leaders.yaml"]
    assert "  vp: 3\n" in buffers.edited_text(b, "base/nests.yaml", NESTS)
    buffers.clear(b, "base/nests.yaml")
    assert buffers.files_with_edits(b) == ["base/leaders.yaml"]


def test_content_root_from_argv_or_env(tmp_path: Path) -> None:
    assert content_root(["--content", str(tmp_path)], {}) == tmp_path.resolve()
    assert content_root([], {"KCD_CONTENT": str(tmp_path)}) == tmp_path.resolve()


# --- board SVG ----------------------------------------------------------------------------------------------

def test_board_svg_draws_terrain_kiwi_leaders_nests_and_domain() -> None:
    view = {"hexes": {
        "A1": {"q": 0, "r": 0, "terrain": "flower", "kiwi": [{"flock": "red", "size": 2}, {"flock": "green", "size": 1}],
               "leaders": ["red"], "nest": {"flock": "red", "id": "tree-1"}, "domain": None},
        "A2": {"q": 1, "r": 0, "terrain": "sand", "kiwi": [], "leaders": [], "nest": None,
               "domain": {"flock": "green", "terrain": "sand"}}}}
    svg = board_svg.board_svg(view, {"red": "#c0392b"})
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count('class="hex"') == 2
    assert 'data-hex="A1" data-terrain="flower"' in svg and board_svg.TERRAIN_FILL["sand"] in svg
    assert '<g class="kiwi" data-flock="red" data-size="2"><circle' in svg and 'fill="#c0392b"' in svg
    assert 'class="kiwi" data-flock="green" data-size="1"' in svg and 'fill="green"' in svg
    assert 'class="leader" data-flock="red"' in svg
    assert 'data-nest="tree-1"' in svg and 'class="domain" data-flock="green"' in svg
    assert board_svg.board_svg({"hexes": {}}).startswith("<svg")


def test_board_svg_escapes_ids() -> None:
    svg = board_svg.board_svg({"hexes": {"<x>": {"q": 0, "r": 0, "terrain": "grass", "kiwi": [], "leaders": []}}})
    assert "<x>" not in svg and "&lt;x&gt;" in svg


# --- launcher -----------------------------------------------------------------------------------------------

def test_launch_command_binds_localhost_headless_without_stats(tmp_path: Path) -> None:
    from kcd.apps.editor.launch import streamlit_command

    cmd = streamlit_command(tmp_path, 8765)
    joined = " ".join(cmd)
    assert "--server.address 127.0.0.1" in joined and "--server.port 8765" in joined
    assert "--server.headless true" in joined and "--browser.gatherUsageStats false" in joined
    assert cmd[-3:] == ["--", "--content", str(tmp_path)] and cmd[cmd.index("run") + 1].endswith("editor/Home.py")
    assert "--client.toolbarMode minimal" in joined   # no "Deploy" button


def test_kcd_editor_refuses_a_folder_without_base(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kcd.apps.cli.main import app

    result = CliRunner().invoke(app, ["editor", "--content", str(tmp_path), "--port", "8765"])
    assert result.exit_code == 2
    assert "is not a content folder" in result.output


def test_board_svg_img_tag_round_trips() -> None:
    svg = board_svg.board_svg({"hexes": {"A1": {"q": 0, "r": 0, "terrain": "sand", "kiwi": [], "leaders": []}}})
    tag = board_svg.as_img_tag(svg)
    assert tag.startswith('<img class="kcd-board"') and board_svg.from_img_tag(tag) == svg


# --- board and playtest logic of solo games (R-SOLO-1..12) ----------------------------------------------------

@pytest.fixture(scope="module")
def shipped():
    from kcd.content import load_ruleset

    return load_ruleset()


def test_R_SOLO_7_board_records_and_replays_a_solo_game(shipped) -> None:
    """R-SOLO-7: a recorded solo game replays to the same end; Kiwibot's turns are kept per decision (never as a
    decision of its own), its opening turn before the first one."""
    from kcd.apps.editor.logic import board

    rec = board.record_game(shipped, ["red", "green"], 2, ["random"], mode="solo", solo_side="player-side")
    assert rec.mode == "solo" and len(rec.kiwibot) == len(rec.decisions) == len(rec.labels)
    assert all(label.startswith("red: ") for label in rec.labels)
    assert any(line.startswith("Kiwibot (green) reveals") for line in rec.opening)
    assert sum(1 for lines in rec.kiwibot for line in lines if "reveals" in line) >= 8
    views = board.replay_views(shipped, rec)
    assert len(views) == len(rec.decisions) + 1 and views[-1]["over"]
    assert views[0]["solo"]["marker_side"] == "player-side" and views[0]["solo"]["kiwibot"] == "green"


def test_R_SOLO_4_board_solo_panel_season_cards_and_roles() -> None:
    """R-SOLO-2/4/9: the Solo block as rows (top card, left, discarded, set aside), face-down Season cards, roles."""
    from kcd.apps.editor.logic import board

    view = {"season_cards": [{"season": 1, "id": "most-flower"}, {"season": 1, "id": "least-sand"},
                             {"season": 2, "id": "facedown"}, {"season": 2, "id": "facedown"}],
            "solo": {"kiwibot": "green", "player": "red", "marker_side": "bot-side", "solo_card": "solo-2",
                     "solo_cards_left": 3, "solo_cards_discarded": ["solo-1"], "set_aside_count": 1},
            "flocks": {"green": {"side": "A", "kept_season_cards": ["least-sand"]}, "red": {"side": "B"}}}
    panel = {row["what"]: row["value"] for row in board.solo_panel(view)}
    assert panel["Top Solo card"] == "solo-2" and panel["Solo cards left"] == "3"
    assert panel["Solo cards discarded"] == "solo-1" and panel["Kiwibot's cards set aside"] == "1"
    assert board.season_card_rows(view) == [{"season": 1, "card": "most-flower"}, {"season": 1, "card": "least-sand"},
                                            {"season": 2, "card": "(face down)"}, {"season": 2, "card": "(face down)"}]
    rows = {r["flock"]: r for r in board.scoreboard(view)}
    assert rows["green"]["role"] == "Kiwibot" and rows["red"]["role"] == "player"
    assert rows["green"]["kept Season cards"] == "least-sand"
    assert board.solo_panel({"flocks": {}}) == [] and "role" not in board.scoreboard({"flocks": {"red": {}}})[0]


def test_R_VTO_4_board_records_and_replays_a_variable_turn_order_game(shipped) -> None:
    """R-VTO-2/4: the Board page's recorder plays the VTO variant and its replay ends where the game did."""
    from kcd.apps.editor.logic import board

    rec = board.record_game(shipped, ["red", "green", "purple"], 4, ["random"], variant="vto")
    assert rec.variant == "vto"
    assert any("[tracker]" in label or "Slot" in label for label in rec.labels)
    views = board.replay_views(shipped, rec)
    assert len(views) == len(rec.decisions) + 1 and views[-1]["over"]
    assert views[-1].get("variant") == "vto" and set(views[-1]["tracker"]) == {"red", "green", "purple"}


def test_check_context_reads_game_yaml_like_the_loader_even_when_malformed(tmp_path: Path) -> None:
    """The editor's DSL context is the loader's: same values for the shipped set, no exception mid-edit."""
    from kcd.apps.editor.logic import rules_text
    from kcd.content import dsl_context, load_ruleset
    from kcd.core.paths import content_dir

    root = tmp_path / "content"
    shutil.copytree(content_dir(), root)
    assert rules_text.check_context(root, "base/nests.yaml") == dsl_context(load_ruleset(root=root).raw_game)
    (root / "base" / "game.yaml").write_text("fruits: [red\nlimits: {kiwi_size: big}\n", encoding="utf-8")
    ctx = rules_text.check_context(root, "base/nests.yaml")
    assert ctx.fruits == () and ctx.max_size == 3
