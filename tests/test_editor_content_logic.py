"""Editor logic for finding and editing, as plain functions: the field-by-field reload merge, human
labels and list sub-forms, the card preview, the raw file view, autosave, deep links, the DSL reference, the
New pack fixes and the Home page's recent saves."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from kcd.apps.editor.logic import autosave, card_svg, catalog, fields, merge, newpack, rawview, recent, reference, store, yamlrt
from kcd.apps.editor.logic.validation import Problem, validate_edit

REPO = Path(__file__).resolve().parent.parent
CARDS = """# Season cards
- id: a
  objective: most nests
  victor: gain 1 vp
  others: gain 1 domain
- id: b
  objective: least tokens in flower
  victor: gain 2 fruit
  others: null
"""


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    """A writable copy of the shipped content."""
    dest = tmp_path / "content"
    shutil.copytree(REPO / "content", dest)
    return dest


# --- reload merge ------------------------------------------------------------------------------------------------

def test_merge_keeps_their_other_field_and_my_field() -> None:
    disk = CARDS.replace("others: gain 1 domain", "others: gain 2 domain")
    merged = merge.merge(CARDS, {(0, "victor"): "gain 2 vp"}, disk)
    assert merged.edits == {(0, "victor"): "gain 2 vp"} and merged.clashes == []
    # the designer's edit re-applied to the disk's text keeps their change: no stale value of `others`
    assert "others: gain 2 domain" in yamlrt.apply_edits(disk, merged.edits)


def test_merge_reports_a_field_both_changed_and_drops_a_field_already_equal() -> None:
    disk = CARDS.replace("victor: gain 1 vp", "victor: gain 1 fruit").replace("victor: gain 2 fruit", "victor: gain 3 fruit")
    merged = merge.merge(CARDS, {(0, "victor"): "gain 2 vp", (1, "victor"): "gain 3 fruit"}, disk)
    assert merged.edits == {}
    assert merged.clashes == [merge.Clash((0, "victor"), "gain 1 vp", "gain 2 vp", "gain 1 fruit")]
    assert merged.same == [(1, "victor")]


def test_merge_follows_items_by_id_when_the_list_changed() -> None:
    disk = "- id: z\n  objective: most nests\n  victor: gain 1 vp\n  others: null\n" + CARDS.split("\n", 1)[1]
    merged = merge.merge(CARDS, {(1, "victor"): "gain 5 fruit"}, disk)
    assert merged.edits == {(2, "victor"): "gain 5 fruit"}
    gone = merge.merge(CARDS, {(1, "victor"): "gain 5 fruit"}, CARDS.split("- id: b")[0])
    assert gone.gone == [(1, "victor")] and gone.edits == {}


# --- labels and list sub-forms ----------------------------------------------------------------------------------

def test_human_labels_replace_code_paths() -> None:
    flock = yamlrt.plain(yamlrt.load((REPO / "content/base/flocks/green.yaml").read_text()))
    assert fields.human_path(("side_b", "track", 3, "benefit"), flock) == "Side B › Track slot 4 › Benefit"
    assert fields.human_path(("side_a", "extra_move"), flock) == "Side A › Extra Move cost"
    leader = {"cards": [{"id": "chopan-1"}, {"id": "chopan-2"}]}
    assert fields.human_path(("cards", 1, "ability"), leader) == "Card 2 (chopan-2) › Ability"
    assert fields.word("on_season_change") == "At each season change"


def test_list_paths_of_a_flock_include_empty_power_lists() -> None:
    flock = yamlrt.plain(yamlrt.load((REPO / "content/base/flocks/green.yaml").read_text()))
    assert fields.list_paths(flock) == [("side_a", "track"), ("side_a", "power"), ("side_b", "track"),
                                        ("side_b", "power")]


def test_list_ops_add_remove_reorder_and_renumber_slots() -> None:
    track = [{"slot": 1, "benefit": None, "source": "r"}, {"slot": 2, "benefit": "gain 1 fruit", "source": "r"}]
    added = fields.list_op(track, "add", -1)
    assert added[-1] == {"slot": 3, "benefit": None, "source": "designed: added in the editor"}
    moved = fields.list_op(added, "up", 1)
    assert [s["benefit"] for s in moved] == ["gain 1 fruit", None, None] and [s["slot"] for s in moved] == [1, 2, 3]
    assert fields.list_op(moved, "down", 0)[1]["benefit"] == "gain 1 fruit"
    removed = fields.list_op(moved, "remove", 0)
    assert [s["slot"] for s in removed] == [1, 2] and removed[0]["benefit"] is None
    assert track[0]["slot"] == 1 and len(track) == 2        # the input list is not changed
    power = fields.list_op([], "add", -1, {"when": "gain domain", "do": "gain 1 fruit", "source": "x"})
    assert power == [{"when": None, "do": None, "source": "designed: added in the editor"}]


def test_a_whole_list_edit_then_a_field_inside_it_applies_in_order(root: Path) -> None:
    from kcd.apps.editor.logic import buffers

    rel = "base/flocks/green.yaml"
    text = (root / rel).read_text()
    data = yamlrt.plain(yamlrt.load(text))
    longer = fields.list_op(data["side_a"]["power"], "add", -1, data["side_b"]["power"][0])
    buf: dict = {}
    buffers.put(buf, rel, ("side_a", "power", 0, "when"), "gain domain", None)   # typed before the list edit
    buffers.put(buf, rel, ("side_a", "power"), longer, [])
    buffers.put(buf, rel, ("side_a", "power", 0, "do"), "gain 1 fruit", None)
    edited = buffers.edited_text(buf, rel, text)
    new = yamlrt.plain(yamlrt.load(edited))
    assert new["side_a"]["power"][0]["when"] == "gain domain" and new["side_a"]["power"][0]["do"] == "gain 1 fruit"
    assert [p for p in validate_edit(root, rel, edited) if p.severity == "error"] == []


def test_colour_fields_are_recognised() -> None:
    item = catalog.items_in_text("base/flocks/green.yaml", (REPO / "content/base/flocks/green.yaml").read_text())[0]
    found = {f.path: f for f in fields.item_fields((REPO / "content/base/flocks/green.yaml").read_text(), item)}
    assert fields.is_colour(found[("colour",)]) and not fields.is_colour(found[("name",)])


# --- card preview ----------------------------------------------------------------------------------------------

def _render(value, kind: str) -> str:
    """A stand-in renderer that shows what was asked."""
    return f"<{kind}:{value}>"


@pytest.mark.parametrize("kind, node, expect", [
    ("action_cards", {"id": "wild-fruit", "type": "wild", "play_as": ["move"], "benefit": "gain 4 fruit"},
     ["wild-fruit", "Action card: wild (plays as move)", "&lt;effect:gain 4 fruit&gt;"]),
    ("nests", {"id": "tree-1", "type": "tree", "row": 1, "cost": "pay 2 fruit same", "on_place": "gain 1 fruit",
               "vp": 2}, ["Tree Nest, row 1", "Cost: &lt;cost:pay 2 fruit same&gt;", "2 VP", "When built"]),
    ("season_cards", {"id": "most-nests", "objective": "most nests", "victor": "gain 1 vp", "others": None},
     ["Season card", "&lt;objective:most nests&gt;", "&lt;effect:None&gt;"]),
])
def test_card_face_shows_name_type_cost_rules_and_colour(kind: str, node: dict, expect: list[str]) -> None:
    doc = card_svg.svg(card_svg.face(kind, node, _render, "#2a9d4b"))
    assert doc.startswith("<svg") and 'fill="#2a9d4b"' in doc
    for text in expect:
        assert text in doc


def test_leader_card_face_names_its_leader() -> None:
    doc = card_svg.svg(card_svg.face("leaders", {"id": "c-1", "name": "Stampede", "ability": "leader jumps 2"},
                                     _render, "#d62828", owner="Chopan"))
    assert "Stampede" in doc and "Leader card of Chopan" in doc and "&lt;ability:leader jumps 2&gt;" in doc


# --- raw file view, autosave, links, reference ---------------------------------------------------------------------

def test_raw_view_puts_the_yaml_error_under_its_line(root: Path) -> None:
    rel = "base/nests.yaml"
    text = (root / rel).read_text().replace("  type: tree\n", "  type: [tree\n", 1)
    problems = validate_edit(root, rel, text)
    shown = rawview.annotate(text, problems, rel).splitlines()
    at = next(i for i, line in enumerate(shown) if "error[yaml-syntax]" in line)
    assert shown[at - 1].split("|", 1)[1].strip() == "row: 1" and "^" in shown[at]
    assert "hint: the `[` on line 4 is not closed" in shown[at]
    assert rawview.lines_with_problems(problems, rel) == [5]


def test_annotate_keeps_every_line_numbered() -> None:
    problem = Problem("x.yaml", 2, 3, "schema", "error", "x.yaml:2:3: error[schema]: bad\n  b: 1\n  ^^^")
    assert rawview.annotate("a: 1\nb: 1\n", [problem], "x.yaml") == "1 | a: 1\n2 | b: 1\n      ^^^ error[schema]: bad"


def test_autosave_round_trip_and_clear(root: Path) -> None:
    rel = "base/season_cards.yaml"
    text = (root / rel).read_text()
    pending = autosave.Pending(rel, text, {(0, "victor"): "gain 3 vp", (0, "vp"): 2})
    autosave.record(root, pending)
    back = autosave.load_all(root)[rel]
    assert back.edits == {(0, "victor"): "gain 3 vp", (0, "vp"): 2} and back.base_text == text
    assert back.saved_at > time.time() - 60 and "victor: gain 3 vp" in back.text()
    assert (root / rel).read_text() == text                       # autosave never writes the content file
    autosave.record(root, autosave.Pending(rel, text))            # nothing left unsaved: the autosave goes
    assert autosave.load_all(root) == {}
    autosave.record(root, autosave.Pending(rel, text, raw="broken: [\n"))
    assert autosave.load(root, rel).text() == "broken: [\n"
    autosave.clear(root, rel)
    assert autosave.load(root, rel) is None


def test_deep_links_name_items_by_kind_and_id(root: Path) -> None:
    items, _ = catalog.catalog(root)
    card = catalog.find(items, "season_cards/most-nests")
    assert card is not None and card.rel == "base/season_cards.yaml" and card.link == "season_cards/most-nests"
    proto = catalog.find(items, "nests/tree-2@prototype")
    assert proto is not None and proto.pack == "prototype"
    assert catalog.find(items, "nests/tree-2").pack == "base"
    assert catalog.find(items, card.key) == card and catalog.find(items, "nests/none") is None


def test_a_file_with_a_yaml_error_is_a_row_not_a_silent_gap(root: Path) -> None:
    (root / "base/nests.yaml").write_text("- id: [tree\n")
    items, broken = catalog.catalog(root)
    assert broken == ["base/nests.yaml"]
    row = next(i for i in items if i.rel == "base/nests.yaml")
    assert row.kind == "file" and "YAML syntax error" in row.label


def test_reference_lists_the_field_kinds_primitives_with_examples() -> None:
    text = reference.markdown("objective")
    assert "**objective** := `most quantity | least quantity`" in text and "**selector** :=" in text
    assert "`count` (function)" in text and "`most count(my nests)`" in text and "Most Nests on the island board" in text
    assert "`gain <n> fruit`" not in text and "`choose` (statement)" not in text
    effect = reference.markdown("effect")
    assert "`gain <n> fruit`" in effect and "Gain 2 Fruits" in effect and "`choose` (statement)" in effect
    assert "`of size` (filter)" in effect and "`push <what> out of <where>`" in effect
    cost = reference.markdown("cost")
    assert "`pay <n> domain`" in cost and "(filter)" not in cost and "`gain <n> fruit`" not in cost


# --- New pack fixes -------------------------------------------------------------------------------------------------

def test_pack_id_base_and_existing_packs_get_clear_errors(root: Path) -> None:
    with pytest.raises(newpack.PackError, match="`base` is the base game's own folder"):
        newpack.check_pack_id(root, "base")
    with pytest.raises(newpack.PackError, match="already an edition"):
        newpack.check_pack_id(root, "prototype")
    with pytest.raises(newpack.PackError, match="pack id is empty"):
        newpack.check_pack_id(root, "")


def test_card_ids_follow_the_leader_and_errors_name_the_card() -> None:
    assert newpack.card_ids("tane") == ("tane-1", "tane-2")
    info = newpack.PackInfo("m", "M", "", "x")
    bad = newpack.NewLeader("tane", "Tane", (newpack.LeaderCard("tane-1", "A", "leader jumps 2"),
                                             newpack.LeaderCard("Tane 2", "B", "leader jumps 2")))
    with pytest.raises(newpack.PackError, match="card 2 id `Tane 2`"):
        newpack.leader_files(info, bad)
    same = newpack.NewLeader("tane", "Tane", (newpack.LeaderCard("tane-1", "A", "leader jumps 2"),) * 2)
    with pytest.raises(newpack.PackError, match="card 1 and card 2 both have the id `tane-1`"):
        newpack.leader_files(info, same)


def test_default_colour_differs_from_every_flock_colour(root: Path) -> None:
    taken = newpack.flock_colours(root)
    assert "#f28c28" in taken and "#2a9d4b" in taken       # the example mod's orange and base green
    assert newpack.default_colour(taken) not in taken


def test_new_flock_power_gets_its_own_printed_text(root: Path) -> None:
    info = newpack.PackInfo("river-mod", "River", "", "test")
    files = newpack.flock_files(root, info, newpack.NewFlock(
        "teal", "Teal", "#17becf", "base/flocks/green.yaml", power_when="gain domain", power_do="gain 1 fruit"))
    data = yamlrt.plain(yamlrt.load(files["mods/river-mod/flocks/teal.yaml"]))
    assert data["side_b"]["requisites"] == "Whenever you gain Domain markers: Gain 1 Fruit"
    assert "take 1 more" not in files["mods/river-mod/flocks/teal.yaml"]   # Green's printed text is gone
    assert newpack.create_pack(root, "river-mod", files) == []


def test_recent_saves_newest_first(root: Path) -> None:
    rel = "base/season_cards.yaml"
    snap = store.read(root, rel)
    first = store.save(snap, snap.text + "# one\n", lambda t: []).backup
    os.utime(first, (time.time() - 100, time.time() - 100))
    store.save(store.read(root, "base/nests.yaml"), store.read(root, "base/nests.yaml").text + "# two\n", lambda t: [])
    saves = recent.recent_saves(root)
    assert [s.rel for s in saves] == ["base/nests.yaml", rel]
    assert len(saves) == 2 and recent.ago(time.time() - 5) == "just now" and recent.ago(time.time() - 180) == "3 min ago"
