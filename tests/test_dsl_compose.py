"""The compositional layer of the effect DSL: parsing into the typed AST, the checker's typed messages (exact
text, span and hint), the leader-ability rules (R-LEAD-5/6), the work bound and the rules text."""
from __future__ import annotations

from pathlib import Path

import pytest

from kcd.content import validate_text
from kcd.dsl import CheckContext, compile_field, parse, render
from kcd.dsl.ast import BinOp, Call, ForEach, If, Phrase, QCall, Selector, walk
from kcd.dsl.compose_check import WORK_LIMIT, work
from kcd.core.paths import content_dir

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)


def _ok(text: str, kind: str = "effect"):
    node, issues = compile_field(text, kind, CTX)
    assert issues == [], issues
    return node


def _issues(text: str, kind: str = "effect") -> list[tuple]:
    _, issues = compile_field(text, kind, CTX)
    return [(i.code, i.message, text[i.span.start:i.span.end], i.hint) for i in issues]


# --- parsing ----------------------------------------------------------------------------------------

def test_first_language_phrases_stay_plain_calls() -> None:
    """The contextual lexer keeps `kiwi`, `in`, `with`, `of`, `to` words in the first language's phrases."""
    for text in ("place 1 kiwi", "pay 2 fruit of red blue", "bot moves 2 to flower", "leader moves 3 straight"):
        node = parse(text)
        assert isinstance(node.stmts[0], Call), text
    assert isinstance(parse("tokens in one hex", "objective" if False else "call"), Call)
    assert isinstance(parse("most tokens with leader", "objective").query, Call)


def test_selectors_quantities_and_statements_parse_to_typed_nodes() -> None:
    node = parse("push every kiwi of size 1 in the landing hex to a hex without a nest")
    phrase = node.stmts[0]
    assert isinstance(phrase, Phrase)
    what, dest = [i for i in phrase.items if isinstance(i, Selector)]
    assert (what.head.det, what.head.noun.text, [f.op for f in what.filters]) == ("every", "kiwi", ["size", "in"])
    assert (dest.head.det, dest.head.noun.text, [f.op for f in dest.filters]) == ("a", "hex", ["without"])
    node = parse("if count(my kiwi in this hex) >= 2 { gain 1 domain } else { gain 1 fruit }")
    stmt = node.stmts[0]
    assert isinstance(stmt, If) and isinstance(stmt.cond, BinOp) and stmt.cond.op == ">="
    assert isinstance(stmt.cond.left, QCall) and stmt.cond.left.name.text == "count"
    suffix = parse("gain 1 domain for each hex dominated by me, at most 2").stmts[0]
    assert isinstance(suffix, ForEach) and suffix.suffix and suffix.cap.value == 2
    assert isinstance(suffix.body.stmts[0], Call)


def test_reserved_words_stay_reserved_everywhere() -> None:
    with pytest.raises(Exception, match="unexpected `or`"):
        parse("gain 1 or 2")


# --- the checker: bound trees -----------------------------------------------------------------------

def test_filters_attach_to_the_nearest_head_they_apply_to() -> None:
    """`hexes dominated by an opponent with my kiwi`: `with` narrows hexes, not the opponent."""
    q = _ok("least count(hexes dominated by an opponent with my kiwi)", "objective").query
    sel = q.args[0]
    assert sel.kind == "hex" and [f.op for f in sel.filters] == ["dominated", "with"]
    assert sel.filters[0].arg.kind == "player" and sel.filters[0].arg.owner == "opponent"
    assert sel.filters[1].arg.kind == "kiwi" and sel.filters[1].arg.owner == "me"
    # `of size` after `in the landing hex` still narrows the Kiwi
    sel = _ok("push every kiwi in the landing hex of size 1 to a hex without a nest", "ability"
              ).stmts[0].arg("what")
    assert [f.op for f in sel.filters] == ["in", "size"]


def test_phrases_bind_to_primitives_with_typed_arguments() -> None:
    node = _ok("leader jumps to a hex within 3 of my leader without kiwi; place 1 kiwi on the landing hex", "ability")
    jump, place = node.stmts
    assert jump.primitive == "leader-jump-to" and jump.arg("dest").kind == "hex"
    assert place.primitive == "place-on" and place.arg("n") == 1 and place.arg("where").ref == "landing"
    gain = _ok("gain count(my nests) fruit").stmts[0]
    assert gain.primitive == "gain-fruit" and isinstance(gain.arg("n"), QCall)
    assert _ok("feed a kiwi of an opponent", "trigger").primitive == "t-feed-of"
    assert _ok("my leader counts 4 for dominance", "modifier").primitive == "m-dominance-weight"


# --- the checker: messages ---------------------------------------------------------------------------

MISUSES = [
    # a hex selector where a number is needed
    ("gain the landing hex fruit", "ability", ("dsl-arg-type", "expected a number, got a selector of hexes",
                                               "the landing hex", "count it: `count(the landing hex)`")),
    ("if every hex > 2 { gain 1 fruit }", "effect", ("dsl-arg-type", "expected a number, got a selector of hexes",
                                                     "every hex", "count it: `count(every hex)`")),
    # a filter that does not apply to that kind
    ("gain 1 fruit for each hex of size 2", "effect",
     ("dsl-arg-type", "`of size` does not apply to hexes; it narrows kiwi", "of size 2",
      "filters of hexes: `in`, `adjacent to`, `within`, `with`, `without`, `dominated by`, `where`")),
    ("gain 1 fruit for each flower kiwi", "effect",
     ("dsl-arg-type", "a terrain narrows hexes, not kiwi", "flower", "write `kiwi in flower hexes`")),
    ("push every hex to a hex without a nest", "ability",
     ("dsl-arg-type", "<what> of `push` needs kiwi, leaders, markers, nests or pieces, got a selector of hexes", "every hex",
      "write e.g. `every kiwi of an opponent in the landing hex`")),
    ("gain 1 fruit for each kiwi dominated by me", "effect",
     ("dsl-arg-type", "`dominated by` does not apply to kiwi; it narrows hexes", "dominated by me",
      "filters of kiwi: `of size`, `of`, `in`, `adjacent to`, `within`, `where`")),
    # unknown words, with the nearest known ones
    ("gain cont(my nests) fruit", "effect", ("dsl-unknown", "unknown quantity `cont`", "cont", "did you mean `count`?")),
    ("gain 1 fruit for each hex within 2 of my leder", "effect",
     ("dsl-syntax", "unknown word `leder`: a selector needs a noun (kiwi, leader, nest, marker, hex, player, "
      "opponent ...)", "leder", "did you mean `leader` or `leaders`?")),
    ("gain 1 fruit for each flowr hex", "effect",
     ("dsl-unknown", "unknown word `flowr` before `hex`: expected a terrain (flower, grass, mountain, sand) or a "
      "reference (landing, starting, passed)", "flowr", "did you mean `flower`?")),
    # names out of place
    ("place 1 kiwi on the landing hex", "effect",
     ("dsl-context", "`the landing hex` exists only in a leader ability", "landing",
      "a Nest's or power's effect can name `this hex`")),
    ("gain count(it) fruit", "effect",
     ("dsl-context", "`it` names the element of a `where` or `for each`, and there is none here", "it",
      "use `it` inside `where ...` or a `for each` body")),
    ("if count(my nests) { gain 1 vp }", "effect",
     ("dsl-syntax", "unexpected `{`: expected a comparison (`>=`, `<`, `=` ...)", "{",
      "a condition compares quantities: `count(my kiwi in this hex) >= 2`")),
    ("if count(my nests) >= 1 or fruit(me) { gain 1 vp }", "effect",
     ("dsl-syntax", "unexpected `{`: expected a comparison (`>=`, `<`, `=` ...)", "{",
      "a condition compares quantities: `count(my kiwi in this hex) >= 2`")),
    ("leaders of an opponent count 1 for dominance", "modifier",
     ("dsl-syntax", "a selector in a modifier starts with a determiner (`every`, `my`, `a` ...), got the bare noun "
      "`leaders`", "leaders", "write `every leader ...` or `my leaders ...`")),
    ("nests give benefits twice", "modifier",
     ("dsl-arg-type", "`<what> give benefits twice` expects a selector of pieces for <what>, got the word `nests`",
      "nests", "a selector starts with a determiner: `every nests ...`, `my nests ...`")),
    ("my markers count 2 for dominance", "modifier",
     ("dsl-arg-type", "domain markers do not count for dominance", "my markers",
      "name Kiwi, Leaders or Nests: `my nests count 1 for dominance`")),
    ("my kiwi in hexes dominated by me count 2 for dominance", "modifier",
     ("dsl-context", "a dominance weight cannot depend on dominance: `dominated by` asks for the count this weight "
      "is part of", "dominated by me", "name the pieces by owner, size, terrain or where they stand: "
      "`my kiwi in flower hexes count 2 for dominance`")),
    ("my leader counts count(hexes dominated by me) for dominance", "modifier",
     ("dsl-context", "a dominance weight cannot depend on dominance: `dominated by` asks for the count this weight "
      "is part of", "dominated by me", "name the pieces by owner, size, terrain or where they stand: "
      "`my kiwi in flower hexes count 2 for dominance`")),
]


@pytest.mark.parametrize("text,kind,expected", MISUSES, ids=[m[0] for m in MISUSES])
def test_each_misuse_is_reported_once_located_with_a_hint(text: str, kind: str, expected: tuple) -> None:
    assert _issues(text, kind) == [expected]


def test_work_bound_refuses_nested_loops_and_names_the_loop() -> None:
    text = "for each hex { for each hex { for each hex { for each kiwi { gain 1 fruit } } } }"
    [(code, message, where, hint)] = _issues(text)
    assert code == "dsl-bound" and where == text
    assert message == f"this effect may take 63,447,168 steps, over the limit of {WORK_LIMIT:,}"
    assert hint == "nest fewer `for each` loops or narrow their selectors"
    # one loop over hexes with a counted condition is well within it
    assert work(_ok("for each hex where count(my kiwi in it) >= 2 { gain 1 fruit }")) < WORK_LIMIT


# --- leader abilities through the validator (a whole leader card, R-LEAD-5/6) -------------------------

ABILITY_RULES = [
    ("gain 2 fruit", "error[dsl-context]: a leader ability must move the Leader (R-LEAD-5)"),
    ("leader moves 2; leader jumps 2",
     "error[dsl-context]: a leader ability moves the Leader once: this is a second Leader movement"),
    ("push up to 1 of the pieces out of the landing hex; leader moves 2",
     "error[dsl-context]: a push before the Leader has moved: the ability pushes from where the Leader goes"),
]


@pytest.mark.parametrize("ability,message", ABILITY_RULES, ids=[a for a, _ in ABILITY_RULES])
def test_R_LEAD_5_ability_rules_are_located_in_the_leaders_file(ability: str, message: str) -> None:
    path = Path(content_dir()) / "base" / "leaders.yaml"
    text = path.read_text(encoding="utf-8")
    old = "ability: leader moves 3 straight; push the pieces out of the passed hexes"
    assert old in text
    diags = validate_text(path, text.replace(old, f"ability: {ability}", 1))
    [d] = diags
    line = text[:text.index(old)].count("\n") + 1
    assert d.format().splitlines()[0].endswith(message)
    assert d.location.line == line


# --- rules text -----------------------------------------------------------------------------------------

RULES_TEXT = [
    ("leader moves 2; push every kiwi of size 1 of an opponent in the landing hex to a hex without a nest",
     "ability", "Move your Leader up to 2 hexes and push every size-1 Kiwi of an opponent in the landing hex, each "
                "to an adjacent hex without a Nest"),
    ("leader jumps to a hex within 3 of my leader without kiwi; place 1 kiwi on the landing hex", "ability",
     "Jump your Leader to a hex without Kiwi within 3 hexes of your Leader and place 1 size-1 Kiwi on the landing hex"),
    ("if count(my kiwi in this hex) >= 2 { gain 1 domain }", "effect",
     "If the number of your Kiwi in this hex is at least 2: gain 1 Domain marker"),
    ("gain 1 domain for each hex dominated by me, at most 2", "effect",
     "Gain 1 Domain marker for each hex with established dominance, at most 2"),
    ("pay 1 fruit any; for each opponent where fruit(them) > fruit(me) { return 1 fruit }", "effect",
     "Pay 1 Fruit of any color and for each opponent where their Fruits is more than your Fruits: return 1 Fruit "
     "of your choice to the bag"),
    ("most count(my kiwi of size 2 in hexes with a nest)", "objective", "Most size-2 Kiwi in hexes with a Nest"),
    ("least count(hexes dominated by an opponent with my kiwi)", "objective",
     "Least hexes with your Kiwi where an opponent has dominance"),
    ("feed a kiwi of an opponent", "trigger", "Whenever you feed a Kiwi of an opponent"),
    ("my leader counts 4 for dominance", "modifier", "Your Leader counts 4 for dominance"),
    ("swap my leader for a kiwi of an opponent", "effect",
     "Swap the hexes of your Leader and a Kiwi of an opponent"),
]


@pytest.mark.parametrize("text,kind,said", RULES_TEXT, ids=[r[0] for r in RULES_TEXT])
def test_rules_text_is_composed_from_the_parts(text: str, kind: str, said: str) -> None:
    assert render(_ok(text, kind)) == said


def test_walk_reaches_the_bodies_of_if_and_for_each() -> None:
    node = _ok("if fruit(me) >= 1 { gain 1 vp } else { for each opponent { gain 1 fruit } }")
    assert [n.primitive for n in walk(node) if isinstance(n, Call)] == ["gain-vp", "gain-fruit"]


def test_kcd_reference_shows_every_part_with_a_working_example() -> None:
    from typer.testing import CliRunner

    from kcd.apps.cli.main import app
    from kcd.dsl import parts
    from kcd.dsl.render import reference_parts

    rows = reference_parts(CTX)
    assert [r["name"] for r in rows] == [p.name for p in parts.PARTS]
    assert all(r["field"] and r["text"] for r in rows), [r["name"] for r in rows if not r["field"]]
    out = CliRunner().invoke(app, ["reference", "--kind", "filter"]).output
    assert "within  [filter; narrows hexes, kiwi, leaders, markers, nests, pieces]" in out
    assert "e.g. `gain 1 fruit for each a hex within 3 of my leader` -> Gain 1 Fruit for each hex within 3 hexes" in out
    out = CliRunner().invoke(app, ["reference"]).output
    assert "push <what> to <dest>  [verb; ability, effect, solo]" in out and "count  [function]" in out
    # the grammar first, each rule with its syntax, the fields it belongs to, a doc and a working example
    assert out.startswith("effect := statement ; statement ...  [grammar; ability, effect, solo]\n")
    assert "objective := most quantity | least quantity  [grammar; objective]" in out
    assert ("    e.g. `most count(my kiwi of size 2 in hexes with a nest)` -> Most size-2 Kiwi in hexes with a Nest"
            in out)
