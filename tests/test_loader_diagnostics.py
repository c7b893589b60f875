"""Every loader diagnostic code, produced from a small bad edit of a copy of the shipped content, with the
exact located text (file:line:col, source line, caret, hint)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcd.core import paths
from kcd.content import clear_caches, validate_text
from kcd.content.loader import build
from kcd.core.diagnostics import CODES


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the shipped content and schemas; the cwd is its parent so paths print relative."""
    shutil.copytree(paths.content_dir(), tmp_path / "content")
    shutil.copytree(paths.schemas_dir(), tmp_path / "schemas")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KCD_NO_CACHE", "1")
    clear_caches()
    return tmp_path / "content"


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first `old` in a content file (which must contain it)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line(path: Path, needle: str, nth: int = 1) -> int:
    """1-based number of the `nth` line of a content file containing `needle` (content keeps changing, so
    tests locate their edits instead of hard-coding line numbers; columns and texts are asserted exactly)."""
    hits = [i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text]
    return hits[nth - 1]


def messages(root: Path, *overlays: str) -> list[str]:
    """Formatted diagnostics of base + overlays."""
    return [d.format() for d in build(root.resolve(), overlays).diagnostics]


def test_shipped_content_is_clean(root: Path) -> None:
    """The copy validates with no diagnostic before any edit (base, and each pack on base)."""
    assert messages(root) == []
    assert messages(root, "prototype") == []
    assert messages(root, "example") == []


def test_yaml_syntax_in_content_file(root: Path) -> None:
    """yaml-syntax: located at the parser's mark, in the set's context (validate_text)."""
    path = root / "base" / "nests.yaml"
    text = path.read_text(encoding="utf-8").replace("  cost: pay 2 fruit same\n", "  cost: [pay 2 fruit same\n", 1)
    at = line(path, "cost: pay 2 fruit same")
    next_line = path.read_text(encoding="utf-8").splitlines()[at]
    colon = next_line.index(":") + 1  # libyaml notices the problem at the next key's `:`
    indent = len(next_line) - len(next_line.lstrip())
    assert [d.format() for d in validate_text(path, text)] == [(
        f"content/base/nests.yaml:{at + 1}:{colon}: error[yaml-syntax]: did not find expected ',' or ']' "
        "(while parsing a flow sequence)\n"
        f"  {next_line.strip()}\n"
        f"  {' ' * (colon - 1 - indent)}^\n"
        f"  hint: the `[` on line {at} is not closed: add `]`, or quote the value if the bracket is meant as text")]


def test_yaml_unsafe_in_content_file(root: Path) -> None:
    """yaml-unsafe: a python tag in a content file is refused; nothing is constructed or run."""
    marker = root.parent / "ran"
    path = root / "base" / "nests.yaml"
    edit(path, "  vp: 0\n", f"  vp: !!python/object/apply:os.system ['touch {marker}']\n")
    at = line(path, "!!python")
    assert messages(root) == [(
        f"content/base/nests.yaml:{at}:7: error[yaml-unsafe]: tag `!!python/object/apply:os.system` is not allowed\n"
        f"  vp: !!python/object/apply:os.system ['touch {marker}']\n"
        "      ^\n"
        "  hint: content YAML uses plain values only; remove the tag")]
    assert not marker.exists()


def test_yaml_duplicate_key_in_content_file(root: Path) -> None:
    """yaml-duplicate-key: the second key is located."""
    path = root / "base" / "nests.yaml"
    edit(path, "  vp: 0\n", "  vp: 0\n  vp: 1\n")
    at = line(path, "vp: 1")
    assert messages(root) == [(
        f"content/base/nests.yaml:{at}:3: error[yaml-duplicate-key]: duplicate key `vp` (first at line {at - 1})\n"
        "  vp: 1\n"
        "  ^^\n"
        "  hint: each key may appear only once in a mapping")]


def test_schema_enum_type_unknown_field_and_missing(root: Path) -> None:
    """schema: readable messages at the failing value, at the unknown key, or at the item missing a field."""
    nests = root / "base" / "nests.yaml"
    game = root / "base" / "game.yaml"
    edit(nests, "  row: 1\n", "  row: 10\n")
    edit(nests, "  vp: 0\n", "  vpp: 0\n")
    edit(game, "first_game: true", "first_game: yes")
    assert messages(root) == [
        f"content/base/game.yaml:{line(game, 'first_game: yes')}:15: error[schema]: `first_game` must be true or "
        "false, got `yes`: write true or false\n"
        "  first_game: yes\n"
        "              ^^^\n"
        "  hint: YAML 1.2 reads yes/no/on/off as words, not booleans",
        f"content/base/nests.yaml:{line(nests, '- id: tree-1')}:3: error[schema]: missing field `vp` in `tree-1`\n"
        "  - id: tree-1\n"
        "    ^",
        f"content/base/nests.yaml:{line(nests, 'row: 10')}:8: error[schema]: `row` must be at most 9, got 10\n"
        "  row: 10\n"
        "       ^^",
        f"content/base/nests.yaml:{line(nests, 'vpp: 0')}:3: error[schema]: unknown field `vpp`: did you mean `vp`?\n"
        "  vpp: 0\n"
        "  ^^^",
        f"content/base/nests.yaml:{line(nests, 'row: 2')}:8: error[nest-twin]: row-2 nest `tree-2` has no row-1 "
        "nest of type `tree`\n"
        "  row: 2\n"
        "       ^\n"
        "  hint: add the row-1 nest of that type (R-BUILD-2)",
    ]


def test_dsl_codes_are_located_in_the_file(root: Path) -> None:
    """dsl-unknown, dsl-arg-count, dsl-context, dsl-syntax, dsl-arg-type: DSL spans mapped to file columns."""
    nests = root / "base" / "nests.yaml"
    cards = root / "base" / "season_cards.yaml"
    edit(nests, "on_place: gain 1 fruit\n", "on_place: gian 1 fruit\n")
    edit(nests, "on_place: move 1", "on_place: move 1 2")
    edit(nests, "on_place: place 1 kiwi", "on_place: leader jumps 2")
    edit(nests, "on_place: gain 2 fruit; place 1 kiwi", "on_place: gain 2 fruit;; place 1 kiwi")
    edit(cards, "objective: most count(my nests)", "objective: most min(my nests, 3)")
    edit(cards, "objective: most tokens(my pieces in flower hexes)", "objective: most tokens(my pieces in lava hexes)")
    assert messages(root) == [
        f"content/base/nests.yaml:{line(nests, 'gian')}:13: error[dsl-unknown]: unknown verb `gian`\n"
        "  on_place: gian 1 fruit\n"
        "            ^^^^\n"
        "  hint: did you mean `gain`?",
        f"content/base/nests.yaml:{line(nests, 'move 1 2')}:13: error[dsl-arg-count]: `move` takes 1 argument: "
        "move <n>\n"
        "  on_place: move 1 2\n"
        "            ^^^^^^^^",
        f"content/base/nests.yaml:{line(nests, 'leader jumps')}:13: error[dsl-context]: `leader jumps` is only "
        "allowed in a leader ability\n"
        "  on_place: leader jumps 2\n"
        "            ^^^^^^^^^^^^^^",
        f"content/base/nests.yaml:{line(nests, ';;')}:26: error[dsl-syntax]: unexpected `;`: expected a verb\n"
        "  on_place: gain 2 fruit;; place 1 kiwi\n"
        "                         ^",
        f"content/base/season_cards.yaml:{line(cards, 'min(my nests')}:23: error[dsl-arg-type]: expected a number, "
        "got a selector of nests\n"
        "  objective: most min(my nests, 3)\n"
        "                      ^^^^^^^^\n"
        "  hint: count it: `count(my nests)`",
        f"content/base/season_cards.yaml:{line(cards, 'lava')}:39: error[dsl-unknown]: unknown word `lava` before "
        "`hexes`: expected a terrain (flower, grass, mountain, sand) or a reference (landing, starting, passed)\n"
        "  objective: most tokens(my pieces in lava hexes)\n"
        "                                      ^^^^",
    ]


def test_dsl_span_in_block_scalar(root: Path) -> None:
    """A DSL issue inside a `|` block scalar points at its own line and column."""
    nests = root / "base" / "nests.yaml"
    edit(nests, "on_season_change: gain 2 fruit\n", "on_season_change: |\n    gain 2 fruit;\n    gian 1 fruit\n")
    assert messages(root) == [
        f"content/base/nests.yaml:{line(nests, 'gian 1 fruit')}:5: error[dsl-unknown]: unknown verb `gian`\n"
        "  gian 1 fruit\n"
        "  ^^^^\n"
        "  hint: did you mean `gain`?"]


def test_id_duplicate_and_id_unknown(root: Path) -> None:
    """id-duplicate (first location in the hint) and id-unknown (did you mean) across files."""
    nests = root / "base" / "nests.yaml"
    island = root / "base" / "island.yaml"
    game = root / "base" / "game.yaml"
    edit(nests, "- id: control-1", "- id: tree-1")
    edit(island, "layout: 2p", "layout: 2q")
    nests_line = game.read_text(encoding="utf-8").splitlines()[line(game, "nests: [") - 1]
    col = nests_line.index("control-1") + 1
    assert messages(root) == [
        f"content/base/game.yaml:{line(game, 'nests: [')}:{col}: error[id-unknown]: unknown nest `control-1`\n"
        f"  {nests_line.strip()}\n"
        f"  {' ' * (col - 1 - (len(nests_line) - len(nests_line.lstrip())))}^^^^^^^^^\n"
        "  hint: did you mean `control-2`?",
        f"content/base/island.yaml:{line(island, 'layout: 2q')}:13: error[id-unknown]: unknown layout `2q`\n"
        "  layout: 2q\n"
        "          ^^\n"
        "  hint: known layout ids: 2p, 3p, 4p",
        f"content/base/nests.yaml:{line(nests, '- id: tree-1', 2)}:7: error[id-duplicate]: duplicate nests id "
        "`tree-1`\n"
        "  - id: tree-1\n"
        "        ^^^^^^\n"
        f"  hint: first defined at content/base/nests.yaml:{line(nests, '- id: tree-1')}:7",
    ]


def test_id_unknown_deck_card(root: Path) -> None:
    """id-unknown for a deck entry naming a missing action card (R-COMP-2 deck)."""
    game = root / "base" / "game.yaml"
    edit(game, "wild-fruit: 1", "wild-fruits: 1")
    deck = game.read_text(encoding="utf-8").splitlines()[line(game, "wild-fruits") - 1]
    col = deck.index("wild-fruits") + 1
    indent = len(deck) - len(deck.lstrip())
    assert messages(root) == [
        f"content/base/game.yaml:{line(game, 'wild-fruits')}:{col}: error[id-unknown]: unknown action card "
        "`wild-fruits`\n"
        f"  {deck.strip()}\n"
        f"  {' ' * (col - 1 - indent)}^^^^^^^^^^^\n"
        "  hint: did you mean `wild-fruit`?"]


def test_R_BUILD_2_nest_twin(root: Path) -> None:
    """nest-twin: a row-2 nest whose type has no row-1 nest (R-BUILD-2); `cavern` itself is a valid type of its
    own (types come from content), so cave-2 is the one left without a first row."""
    nests = root / "base" / "nests.yaml"
    edit(nests, "  type: cave\n  row: 1", "  type: cavern\n  row: 1")
    edit(nests, 'glyph: "∩"', 'glyph: "Ω"')   # a type of its own has a glyph of its own (cave-1's comes first)
    cave2 = line(nests, "- id: cave-2")
    row2 = next(i for i, t in enumerate(nests.read_text(encoding="utf-8").splitlines(), 1)
                if i > cave2 and "row: 2" in t)
    assert messages(root) == [
        f"content/base/nests.yaml:{row2}:8: error[nest-twin]: row-2 nest `cave-2` has no row-1 nest of type `cave`\n"
        "  row: 2\n"
        "       ^\n"
        "  hint: add the row-1 nest of that type (R-BUILD-2)",
    ]


def test_trigger_unreachable(root: Path) -> None:
    """trigger-unreachable: a power on `feed` when no content effect feeds (R-ASYM-1 powers must fire)."""
    import re

    green = root / "base" / "flocks" / "green.yaml"
    edit(root / "base" / "action_cards.yaml", "  effect: feed\n", "  effect: gain 1 fruit\n")
    solo = root / "base" / "solo.yaml"   # Kiwibot's feeds fire the trigger too (R-SOLO-8): none left either
    solo.write_text(re.sub(r"bot feeds [a-z ]+ of size \d( of an opponent)?", "bot places 1 kiwi",
                           solo.read_text(encoding="utf-8")),
                    encoding="utf-8")
    edit(green, "    - when: gain domain\n", "    - when: feed\n")
    assert messages(root) == [
        f"content/base/flocks/green.yaml:{line(green, 'when: feed')}:13: error[trigger-unreachable]: trigger `feed` "
        "can never fire: no content effect uses `feed`, `bot feeds {what:pieces}`\n"
        "  - when: feed\n"
        "          ^^^^\n"
        "  hint: use the verb in some effect, or pick another trigger"]


def test_R_COMP_3_base_counts_and_R_SETUP_4_track(root: Path) -> None:
    """Kind-level sanity: 16 Season cards in the base game (R-COMP-3), 8 track slots numbered in order
    (R-SETUP-4), and setup hexes that exist in the setup's layout (R-SETUP-5)."""
    cards = root / "base" / "season_cards.yaml"
    text = cards.read_text(encoding="utf-8")
    cards.write_text(text[:text.rindex("- id:")], encoding="utf-8")
    red = root / "base" / "flocks" / "red.yaml"
    edit(red, "    - {slot: 8,", "    # - {slot: 8,")
    edit(red, "    - {slot: 4,", "    - {slot: 5,")
    island = root / "base" / "island.yaml"
    leader = next(t for t in island.read_text(encoding="utf-8").splitlines() if "leader: " in t).strip()
    edit(island, leader, "leader: Z6")
    slot5 = red.read_text(encoding="utf-8").splitlines()[line(red, "- {slot: 5,") - 1].strip()
    first_card = cards.read_text(encoding="utf-8").splitlines()[line(cards, "- id:") - 1]
    assert messages(root) == [
        f"content/base/flocks/red.yaml:{line(red, 'track:')}:3: error[schema]: `track` must have at least 8 "
        "entries, got 7\n"
        "  track:\n"
        "  ^^^^^",
        f"content/base/flocks/red.yaml:{line(red, '- {slot: 5,')}:14: error[schema]: track slot 4 is numbered 5\n"
        f"  {slot5}\n"
        "           ^\n"
        "  hint: number the slots 1, 2, 3... in order",
        f"content/base/island.yaml:{line(island, 'leader: Z6')}:17: error[id-unknown]: unknown hex `Z6` in layout "
        "`2p`\n"
        "  leader: Z6\n"
        "          ^^",
        f"content/base/season_cards.yaml:{line(cards, '- id:')}:1: error[schema]: the base game has 16 Season cards "
        "(R-COMP-3, R-SCARD-5), found 15\n"
        f"  {first_card.strip()}\n"
        "  ^",
    ]


def _mods(root: Path) -> None:
    for name in ("m1", "m2"):
        folder = root / "mods" / name
        folder.mkdir(parents=True)
        (folder / "pack.yaml").write_text(
            f'id: {name}\nname: {name.upper()}\nkind: mod\ndescription: test\nsource: "designed: test"\n')
    (root / "mods" / "m1" / "nests.yaml").write_text(
        "- id: tree-1\n  op: patch\n  vp: 2\n- id: cave-9\n  op: replace\n  vp: 1\n")
    (root / "mods" / "m2" / "nests.yaml").write_text(
        "- id: tree-1\n  op: patch\n  vp: 3\n- id: tree-2\n  type: tree\n  row: 2\n  cost: pay 3 fruit same\n"
        "  on_place: gain 1 fruit\n  on_season_change: gain 1 fruit\n  vp: 1\n  dominance: 0\n"
        '  source: "designed: x"\n')
    (root / "mods" / "m1" / "game.yaml").write_text("limits:\n  hand: 5\n")
    (root / "mods" / "m2" / "game.yaml").write_text("limits:\n  hand: 4\n")


def test_overlay_target_and_conflict(root: Path) -> None:
    """overlay-target (replace of a missing id, add of an existing id) and overlay-conflict (two packs
    patching the same field of an item, or the same game.yaml value)."""
    _mods(root)
    assert messages(root, "m1", "m2") == [
        "content/mods/m1/nests.yaml:4:7: error[overlay-target]: no nests `cave-9` to replace\n"
        "  - id: cave-9\n"
        "        ^^^^^^\n"
        "  hint: did you mean `cave-2`?",
        "content/mods/m2/game.yaml:2:3: error[overlay-conflict]: `limits.hand` is also patched by pack `m1`\n"
        "  hand: 4\n"
        "  ^^^^\n"
        "  hint: `m1` sets it at content/mods/m1/game.yaml:2:9; apply only one of the packs or make them agree",
        "content/mods/m2/nests.yaml:3:3: error[overlay-conflict]: field `vp` of nests `tree-1` is also patched "
        "by pack `m1`\n"
        "  vp: 3\n"
        "  ^^\n"
        "  hint: `m1` sets it at content/mods/m1/nests.yaml:3:7; apply only one of the packs or make them agree",
        "content/mods/m2/nests.yaml:4:7: error[overlay-target]: nests `tree-2` already exists (defined in `base`)\n"
        "  - id: tree-2\n"
        "        ^^^^^^\n"
        "  hint: use op: replace or op: patch",
    ]


def test_overlay_replace_conflict(root: Path) -> None:
    """overlay-conflict: two packs replacing the same id, located at the later pack's `op`."""
    _mods(root)
    (root / "mods" / "m1" / "game.yaml").unlink()
    (root / "mods" / "m2" / "game.yaml").unlink()
    body = ("  type: tree\n  row: 1\n  cost: pay 2 fruit same\n  on_place: gain 1 fruit\n"
            "  on_season_change: gain 2 fruit\n  vp: 0\n  dominance: 0\n  source: \"designed: x\"\n")
    (root / "mods" / "m1" / "nests.yaml").write_text("- id: tree-1\n  op: replace\n" + body)
    (root / "mods" / "m2" / "nests.yaml").write_text("- id: tree-1\n  op: replace\n" + body)
    assert messages(root, "m1", "m2") == [
        "content/mods/m2/nests.yaml:2:3: error[overlay-conflict]: nests `tree-1` is also replaced by pack `m1`\n"
        "  op: replace\n"
        "  ^^\n"
        "  hint: `m1` changes it at content/mods/m1/nests.yaml:1:3; apply only one of the packs or make them agree"]


def test_unknown_pack_and_unknown_file(root: Path) -> None:
    """An unknown overlay name is id-unknown; a misnamed content file is reported with a suggestion."""
    (root / "base" / "nest.yaml").write_text("[]\n")
    assert messages(root, "protoype") == [
        "content:1:1: error[id-unknown]: unknown pack `protoype`\n"
        "  hint: did you mean `prototype`?",
        "content/base/nest.yaml:1:1: error[schema]: unknown content file `nest.yaml`: did you mean `nests.yaml`?",
    ]


def test_every_code_is_covered() -> None:
    """The codes tested in this file and test_yaml_safe.py are exactly SPEC.md's list."""
    text = Path(__file__).read_text(encoding="utf-8")
    assert [code for code in CODES if f"error[{code}]" not in text] == []


def test_content_path_symlink_out_of_the_content_folder_is_not_read(root: Path, tmp_path: Path) -> None:
    """content-path: a content file linking out of the content folder is refused, located at the link, and
    nothing of the target (not even its first line) is printed."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2-do-not-print\n", encoding="utf-8")
    link = root / "mods" / "example" / "leaders.yaml"
    link.unlink()
    link.symlink_to(secret)
    out = messages(root, "example")
    assert out == [
        "content/mods/example/leaders.yaml:1:1: error[content-path]: `leaders.yaml` is a symbolic link that leads "
        "out of the content folder; it is not read\n"
        "  leaders.yaml\n"
        "  ^^^^^^^^^^^^\n"
        "  hint: copy the file into the content folder instead of linking to it"]
    assert "hunter2" not in "\n".join(out) and "secret" not in "\n".join(out)
    # a linked pack folder is refused the same way, file by file
    (root / "mods" / "example").rename(tmp_path / "outside-pack")
    (root / "mods" / "example").symlink_to(tmp_path / "outside-pack")
    assert all("error[content-path]" in m and "hunter2" not in m for m in messages(root, "example"))
    # a link that stays inside the content folder is read as usual
    link2 = tmp_path / "outside-pack" / "leaders.yaml"
    link2.unlink()
    (root / "mods" / "example").unlink()
    (tmp_path / "outside-pack").rename(root / "mods" / "example")
    (root / "mods" / "example" / "leaders.yaml").symlink_to(root / "base" / "leaders.yaml")
    assert not any("content-path" in m for m in messages(root, "example"))


def test_content_path_folder_named_like_a_content_file(root: Path) -> None:
    """content-path: a folder named `nests.yaml` is reported, not a traceback (`kcd validate` exits 1)."""
    from typer.testing import CliRunner

    from kcd.apps.cli.main import app

    (root / "mods" / "example" / "nests.yaml").mkdir()
    expected = ("content/mods/example/nests.yaml:1:1: error[content-path]: `nests.yaml` is a folder, not a content "
                "file\n  nests.yaml\n  ^^^^^^^^^^\n  hint: content files are YAML files; rename or move the folder")
    assert messages(root, "example") == [expected]
    result = CliRunner().invoke(app, ["validate", str(root / "mods" / "example")])
    assert result.exit_code == 1 and expected in result.output and "Traceback" not in result.output


def test_effect_bound_nested_repeats_are_refused_with_the_chain(root: Path) -> None:
    """effect-bound: a Nest benefit of nested `repeat`s (10,000 steps once built) is refused before play, located
    at the field, naming the chain that runs it; one level less (1,000 steps) is within the bound."""
    pack = root / "mods" / "deep"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: deep\nname: Deep\nkind: mod\ndescription: x\nsource: "designed: x"\n')
    body = "repeat 10 { repeat 10 { repeat 10 { repeat 10 { gain 1 fruit } } } }"
    (pack / "nests.yaml").write_text(f"- id: cave-1\n  op: patch\n  on_place: {body}\n")
    assert messages(root, "deep") == [
        "content/mods/deep/nests.yaml:3:13: error[effect-bound]: this effect can take 10,001 steps, more than "
        "5,000: action card `build` effect -> nest `cave-1` on_place\n"
        f"  on_place: {body}\n"
        "            " + "^" * len(body) + "\n"
        "  hint: use smaller `repeat` counts or fewer nested repeats and chained benefits"]
    (pack / "nests.yaml").write_text("- id: cave-1\n  op: patch\n  on_place: repeat 10 { repeat 10 { repeat 10 "
                                     "{ gain 1 fruit } } }\n")
    clear_caches()
    assert messages(root, "deep") == []


def test_dsl_bound_nested_for_each_loops_are_refused_at_the_field(root: Path) -> None:
    """dsl-bound: a composition of nested `for each` loops over the compositional checker's work limit is
    refused where it is written, with a hint (the per-field bound of interpreter/dsl/compose_check.py)."""
    pack = root / "mods" / "loops"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: loops\nname: Loops\nkind: mod\ndescription: x\nsource: "designed: x"\n')
    body = "for each hex { for each hex { for each hex { for each kiwi { gain 1 fruit } } } }"
    (pack / "nests.yaml").write_text(f"- id: cave-1\n  op: patch\n  on_place: {body}\n")
    found = [m for m in messages(root, "loops") if "error[dsl-bound]" in m]
    assert found and found[0].startswith("content/mods/loops/nests.yaml:3:13: error[dsl-bound]: this effect may take ")
    assert "hint: nest fewer `for each` loops or narrow their selectors" in found[0]


def test_content_value_in_solo_yaml_is_found_at_load_not_at_game_start(root: Path) -> None:
    """content-value: a value the schema admits but the engine cannot play (solo.yaml `kiwibot_seat: 3` in a
    two-seat solo game, R-SOLO-3) is a located error when the content loads; no game is ever started with it."""
    from kcd.content import ContentError, load_ruleset
    path = root / "base" / "solo.yaml"
    edit(path, "kiwibot_seat: 1", "kiwibot_seat: 3")
    at = line(path, "kiwibot_seat: 3")
    assert messages(root) == [
        f"content/base/solo.yaml:{at}:17: error[content-value]: solo.yaml setup: `kiwibot_seat` must be 1..2, got 3\n"
        "  kiwibot_seat: 3\n"
        "                ^"]
    with pytest.raises(ContentError):
        load_ruleset(root=root)


def test_content_value_cross_file_and_per_pattern_checks_are_located(root: Path) -> None:
    """content-value: fewer Solo cards than seasons (R-SOLO-9 discards one each season) and a step the schema
    knows but not for that Kiwibot pattern (R-SOLO-11), each located at the value with a hint."""
    path = root / "base" / "solo.yaml"
    edit(path, "solo_cards: 4", "solo_cards: 3")
    at = line(path, "solo_cards: 3")
    assert messages(root) == [
        f"content/base/solo.yaml:{at}:15: error[content-value]: solo.yaml setup: `solo_cards` (3) must be at least "
        "the number of seasons (4)\n"
        "  solo_cards: 3\n"
        "              ^\n"
        "  hint: R-SOLO-9 discards a Solo card every season"]
    edit(path, "solo_cards: 3", "solo_cards: 4")
    edit(path, "steps: [dominance-two-kiwi-no-nest]", "steps: [off-island]")
    at = line(path, "steps: [off-island]")
    found = messages(root)
    assert len(found) == 1 and found[0].startswith(
        f"content/base/solo.yaml:{at}:12: error[content-value]: Kiwibot pattern 3: `steps` has an unknown step "
        "`off-island` for pattern `building`\n"), found[0]
    assert "  hint: known: dominance-two-kiwi-no-nest" in found[0]
