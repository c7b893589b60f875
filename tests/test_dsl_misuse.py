"""The checker's messages for each misuse, as a modder meets them in `kcd validate`: located at
file:line:col, the text underlined with a caret, and a hint read from the registries (what is allowed there).
Each case edits one line of the shipped content and compares the whole message, exactly. Rule ids: R-LEAD-5
(an ability moves the Leader, once, first), R-LEAD-6 (pushes after the movement)."""
from __future__ import annotations

from pathlib import Path

import pytest

from kcd.content import validate_text
from kcd.dsl import parts, registry
from kcd.dsl.types import LEADER_MOVES

CONTENT = Path(__file__).resolve().parents[1] / "content"
NEST = ("base/nests.yaml", "on_place: gain 1 fruit\n")
LEADER = ("base/leaders.yaml", "ability: leader jumps 2; gain 1 fruit")
MOSS = ("mods/scoped/flocks/moss.yaml", "modifier: my nests count 1 for dominance")

CASES = {
    # a hex selector where a number is needed (a verb's number, then a comparison)
    "hex selector where a number goes": (*NEST, "on_place: gain this hex fruit\n", [
        "error[dsl-arg-type]: expected a number, got a selector of hexes",
        "  on_place: gain this hex fruit",
        "                 ^^^^^^^^",
        "  hint: count it: `count(this hex)`"]),
    "hex selector in a comparison": (*NEST, "on_place: if this hex >= 2 { gain 1 fruit }\n", [
        "error[dsl-arg-type]: expected a number, got a selector of hexes",
        "  on_place: if this hex >= 2 { gain 1 fruit }",
        "               ^^^^^^^^",
        "  hint: count it: `count(this hex)`"]),
    # a filter that does not apply to that kind of piece
    "filter on the wrong kind": ("mods/compose/leaders.yaml", "to a hex without a nest", "to a hex of size 2", [
        "error[dsl-arg-type]: `of size` does not apply to hexes; it narrows kiwi",
        "  push every kiwi of size 1 of an opponent in the landing hex to a hex of size 2",
        "                                                                       ^^^^^^^^^",
        "  hint: filters of hexes: `in`, `adjacent to`, `within`, `with`, `without`, `dominated by`, `where`"]),
    # an ability that never moves the Leader (R-LEAD-5)
    "ability without a Leader movement": (*LEADER, "ability: gain 2 fruit", [
        "error[dsl-context]: a leader ability must move the Leader (R-LEAD-5)",
        "  ability: gain 2 fruit",
        "           ^^^^^^^^^^^^",
        "  hint: start with a Leader movement: `leader jumps <n>`, `leader jumps to <dest>`, "
        "`leader moves <n> straight`, `leader moves <n>`"]),
    # two Leader movements in one ability
    "two Leader movements": (*LEADER, "ability: leader moves 2; leader jumps 2", [
        "error[dsl-context]: a leader ability moves the Leader once: this is a second Leader movement",
        "  ability: leader moves 2; leader jumps 2",
        "                           ^^^^^^^^^^^^^^",
        "  hint: keep one of them: `leader moves <n>` or `leader jumps <n>`"]),
    # a push before any movement (R-LEAD-6)
    "push before the movement": (*LEADER, "ability: push up to 1 of the pieces out of the landing hex; leader jumps 2", [
        "error[dsl-context]: a push before the Leader has moved: the ability pushes from where the Leader goes",
        "  ability: push up to 1 of the pieces out of the landing hex; leader jumps 2",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "  hint: put the Leader movement `leader jumps <n>` first"]),
    # an unknown word, with the nearest known ones
    "unknown noun": (*NEST, "on_place: gain 1 fruit for each hex with my nets\n", [
        "error[dsl-syntax]: unknown word `nets`: a selector needs a noun (kiwi, leader, nest, marker, hex, player, "
        "opponent ...)",
        "  on_place: gain 1 fruit for each hex with my nets",
        "                                              ^^^^",
        "  hint: did you mean `nests` or `nest`?"]),
    "unknown player noun": (*NEST, "on_place: gain 1 fruit for each hex dominated by an oponent\n", [
        "error[dsl-syntax]: unknown word `oponent`: a selector needs a noun (kiwi, leader, nest, marker, hex, player, "
        "opponent ...)",
        "  on_place: gain 1 fruit for each hex dominated by an oponent",
        "                                                      ^^^^^^^",
        "  hint: did you mean `opponent` or `opponents`?"]),
    "unknown verb": (*NEST, "on_place: gian 1 fruit\n", [
        "error[dsl-unknown]: unknown verb `gian`",
        "  on_place: gian 1 fruit",
        "            ^^^^",
        "  hint: did you mean `gain`?"]),
    # a dominance weight that asks who dominates (dominance reads the weight: refused, so the count is well defined)
    "dominance weight reading dominance": (*MOSS, "modifier: my nests in hexes dominated by me count 1 for dominance", [
        "error[dsl-context]: a dominance weight cannot depend on dominance: `dominated by` asks for the count this "
        "weight is part of",
        "  - modifier: my nests in hexes dominated by me count 1 for dominance",
        "                                ^^^^^^^^^^^^^^^",
        "  hint: name the pieces by owner, size, terrain or where they stand: `my kiwi in flower hexes count 2 for "
        "dominance`"]),
    "dominance weight of markers": (*MOSS, "modifier: my markers count 1 for dominance", [
        "error[dsl-arg-type]: domain markers do not count for dominance",
        "  - modifier: my markers count 1 for dominance",
        "              ^^^^^^^^^^",
        "  hint: name Kiwi, Leaders or Nests: `my nests count 1 for dominance`"]),
    "feed discount on a Leader": ("mods/scoped/flocks/moss.yaml", "modifier: feeding my kiwi in grass hexes costs 1 fruit less",
                                  "modifier: feeding my leader costs 1 fruit less", [
        "error[dsl-arg-type]: only Kiwi are fed (R-FEED-1, R-LEAD-3), not leaders",
        "  - modifier: feeding my leader costs 1 fruit less",
        "                      ^^^^^^^^^",
        "  hint: name Kiwi: `feeding my kiwi in grass hexes costs 1 fruit less`"]),
    "unknown quantity": ("base/season_cards.yaml", "objective: most count(my nests)", "objective: most cont(my nests)", [
        "error[dsl-unknown]: unknown quantity `cont`",
        "  objective: most cont(my nests)",
        "                  ^^^^",
        "  hint: did you mean `count`?"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_misuse_is_located_with_a_caret_and_a_registry_hint(name: str) -> None:
    file, old, new, expected = CASES[name]
    path = CONTENT / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    edited = text.replace(old, new, 1)
    [d] = validate_text(path, edited)
    line = edited[:edited.index(new)].count("\n") + 1
    got = d.format().split("\n")
    assert got[0].startswith(f"content/{file}:{line}:")
    assert [got[0].split(": ", 1)[1]] + got[1:] == expected


def test_the_hints_come_from_the_registries() -> None:
    """The hints above are read off the registries, so a new Leader movement or filter shows in them."""
    displays = sorted(registry.BY_ID[m].display for m in LEADER_MOVES)
    hint = CASES["ability without a Leader movement"][3][-1]
    assert all(f"`{d}`" in hint for d in displays)
    hex_filters = [n for n, p in parts.FILTERS.items() if "hex" in p.applies]
    assert CASES["filter on the wrong kind"][3][-1] == "  hint: filters of hexes: " + ", ".join(
        f"`{f}`" for f in hex_filters)
