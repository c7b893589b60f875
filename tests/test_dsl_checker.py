"""DSL checker: binding calls to registry primitives, and the exact text of every issue code."""
from __future__ import annotations

import pytest

from kcd.dsl import Call, CheckContext, Issue, Objective, Seq, Span, check, compile_field, parse, walk

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)


def _bound(text: str, kind: str = "effect") -> list[tuple[str | None, tuple]]:
    node, issues = compile_field(text, kind, CTX)
    assert issues == []
    return [(n.primitive, n.args) for n in walk(node) if isinstance(n, Call)]


def test_calls_bind_with_typed_arguments() -> None:
    assert _bound("gain 2 fruit; place 1 kiwi; extra moves") == [
        ("gain-fruit", (("n", 2),)), ("place-kiwi", (("n", 1),)), ("extra-moves", ())]
    assert _bound("pay 2 fruit of yellow green", "cost") == [("pay-fruit-of", (("n", 2), ("types", ("yellow", "green"))))]
    assert _bound("pay 3 fruit same", "cost") == [("pay-fruit", (("n", 3), ("rule", "same")))]


def test_R_LEAD_6_leader_verbs_bind_in_an_ability() -> None:
    """R-LEAD-6: Chopan's ability is `leader moves 3 straight; push the pieces out of the passed hexes`."""
    node, issues = compile_field("leader moves 3 straight; push the pieces out of the passed hexes", "ability", CTX)
    assert issues == []
    assert [s.primitive for s in node.stmts] == ["leader-straight", "push-out"]
    assert node.stmts[1].arg("where").ref == "passed" and node.stmts[1].arg("what").kind == "piece"


def test_literal_pattern_wins_over_slot_pattern() -> None:
    node, issues = compile_field("leader jumps 2; push up to 2 of the pieces out of the landing hex", "ability", CTX)
    assert issues == [] and node.stmts[1].primitive == "push-out-upto" and node.stmts[1].arg("n") == 2


def test_objective_trigger_modifier_fields() -> None:
    node, issues = compile_field("most count(my kiwi of size 2)", "objective", CTX)
    assert issues == [] and isinstance(node, Objective) and node.query.name.text == "count"
    assert node.query.args[0].kind == "kiwi"
    assert _bound("gain domain", "trigger") == [("t-gain-domain", ())]
    assert _bound("build", "trigger") == [("t-build", ())]
    assert _bound("build") == [("build", ())]
    node, issues = compile_field("my pieces can push kiwi of equal size", "modifier", CTX)
    assert issues == [] and node.primitive == "m-push-same" and node.arg("who").kind == "piece"


def test_check_returns_a_new_tree_and_leaves_the_parsed_one_unbound() -> None:
    parsed = parse("may { gain 1 fruit }")
    bound, issues = check(parsed, "effect", CTX)
    assert issues == [] and bound != parsed
    assert parsed.stmts[0].body.stmts[0].primitive is None
    assert bound.stmts[0].body.stmts[0].primitive == "gain-fruit"
    assert bound.stmts[0].body.stmts[0].arg("n") == 1
    assert bound.span == parsed.span


def _issues(text: str, kind: str = "effect", ctx: CheckContext = CTX) -> list[tuple]:
    node, issues = compile_field(text, kind, ctx)
    return [(i.code, i.message, (i.span.start, i.span.end), i.hint) for i in issues]


ISSUES = [
    # dsl-unknown
    ("gian 1 fruit", "effect", "dsl-unknown", "unknown verb `gian`", (0, 4), "did you mean `gain`?"),
    ("gain 2 fruits", "effect", "dsl-unknown", "unknown word `fruits` in `gain`: expected `fruit`, `domain` or `vp`",
     (7, 13), "did you mean `fruit`?"),
    ("most nest", "objective", "dsl-arg-type", "an objective counts a quantity, not the words `nest`", (5, 9),
     "count it: `most count(my nest)`"),
    ("most cont(my nests)", "objective", "dsl-unknown", "unknown quantity `cont`", (5, 9), "did you mean `count`?"),
    ("xyzzy", "trigger", "dsl-unknown", "unknown trigger `xyzzy`", (0, 5),
     "triggers: gain domain, gain move, domain marking, build, feed, feed <what>, feed <what> by <who>, "
     "build on <where>, build on <where> by <who>, at season change"),
    ("push all x", "ability", "dsl-arg-count", "`push` is written `push <what> to <dest>`, `push <what> out of "
     "<where>` or `push up to <n> of <what> out of <where>`", (0, 10), None),
    # dsl-arg-count
    ("gain 1 fruit extra", "effect", "dsl-arg-count", "`gain` takes 2 arguments: gain <n> fruit", (0, 18), None),
    ("gain 1", "effect", "dsl-arg-count",
     "`gain` takes 2 arguments: gain <n> fruit, gain <n> domain or gain <n> vp", (0, 6), None),
    ("build 2", "effect", "dsl-arg-count", "`build` takes no arguments: build", (0, 7), None),
    ("pay 2 fruit", "effect", "dsl-arg-count",
     "`pay` takes 3 or more arguments: pay <n> fruit <rule> or pay <n> fruit of <types>...", (0, 11), None),
    ("gain 1 domain", "trigger", "dsl-arg-count", "`gain` takes 1 argument: gain domain or gain move", (0, 13), None),
    # dsl-arg-type
    ("gain two fruit", "effect", "dsl-arg-type", "`gain` expects a number for <n>, got `two`", (5, 8), "write `2`"),
    ("gain 0 fruit", "effect", "dsl-arg-type", "`gain` expects a number from 1 to 99 for <n>, got `0`", (5, 6), None),
    ("pay 2 fruit of purple blue", "cost", "dsl-arg-type",
     "unknown fruit `purple`; fruits are red, green, yellow, blue", (15, 21), None),
    ("pay 2 fruit of blu", "cost", "dsl-arg-type",
     "unknown fruit `blu`; fruits are red, green, yellow, blue", (15, 18), "did you mean `blue`?"),
    ("pay 2 fruit of red red", "cost", "dsl-arg-type", "`pay` lists fruit `red` twice", (19, 22), "list each value once"),
    ("pay 2 fruit identical", "cost", "dsl-arg-type",
     "unknown fruit rule `identical`; fruit rules are same, different, any", (12, 21), None),
    ("most tokens in flower", "objective", "dsl-syntax", "`tokens` takes its argument in parentheses", (5, 21),
     "write e.g. `most tokens(my kiwi in flower hexes)`"),
    ("most tokens(my pieces in forest hexes)", "objective", "dsl-unknown", "unknown word `forest` before `hexes`: "
     "expected a terrain (flower, grass, mountain, sand) or a reference (landing, starting, passed)", (25, 31), None),
    ("most count(my kiwi of size 4)", "objective", "dsl-arg-type", "a Kiwi size is 1 to 3, got `4`", (19, 28), None),
    # dsl-context
    ("leader moves 3", "effect", "dsl-context", "`leader moves` is only allowed in a leader ability", (0, 14), None),
    ("gain 1 fruit; pay 2 fruit same", "cost", "dsl-context", "a cost may only use pay verbs", (0, 12),
     "pay verbs: pay <n> fruit <rule>, pay <n> fruit of <types>..., pay <n> domain"),
    ("may { pay 1 domain }", "cost", "dsl-context", "a cost cannot be optional: `may` is not allowed in a cost",
     (0, 20), "use `choose { ... } or { ... }` for alternative payments"),
    ("repeat 11 { feed }", "effect", "dsl-context", "`repeat` count must be 1 to 10", (0, 18), "got 11"),
    ("repeat 0 { feed }", "effect", "dsl-context", "`repeat` count must be 1 to 10", (0, 17), "got 0"),
    ("nests", "effect", "dsl-unknown", "unknown verb `nests`", (0, 5), None),
    ("move 1", "trigger", "dsl-context", "`move` is a verb, not a trigger", (0, 6), "a verb belongs in an effect"),
    ("most gain 1 fruit", "objective", "dsl-context", "`gain` is a verb, not a quantity", (5, 17),
     "a verb belongs in an effect; an objective counts: `most count(my nests)`"),
    # dsl-syntax through compile_field
    ("may {", "effect", "dsl-syntax", "unclosed `{`", (4, 5), "add `}` to close the block"),
]


@pytest.mark.parametrize("text,kind,code,message,span,hint", ISSUES)
def test_issue_messages_are_exact(text: str, kind: str, code: str, message: str, span: tuple[int, int],
                                  hint: str | None) -> None:
    assert _issues(text, kind) == [(code, message, span, hint)]


def test_syntax_error_gives_no_node() -> None:
    node, issues = compile_field("gain 1 fruit;", "effect", CTX)
    assert node is None
    assert issues == [Issue("dsl-syntax", "expected a verb after `;`", Span(12, 13), "remove the last `;`")]


def test_every_bad_call_is_reported_once_and_the_rest_still_binds() -> None:
    node, issues = compile_field("gain 1 fruit; gian 2 fruit; choose { feed } or { place x kiwi }", "effect", CTX)
    assert [i.code for i in issues] == ["dsl-unknown", "dsl-arg-type"]
    calls = [n for n in walk(node) if isinstance(n, Call)]
    assert [c.primitive for c in calls] == ["gain-fruit", None, "feed", None]


def test_fruit_and_terrain_come_from_the_context() -> None:
    ctx = CheckContext(("plum",), ("bog",), 2)
    assert _issues("pay 1 fruit of plum", "cost", ctx) == []
    assert _issues("most tokens(my pieces in bog hexes)", "objective", ctx) == []
    assert _issues("most count(my kiwi of size 3)", "objective", ctx) == [
        ("dsl-arg-type", "a Kiwi size is 1 to 2, got `3`", (19, 28), None)]
    assert _issues("pay 1 fruit of red", "cost", ctx) == [
        ("dsl-arg-type", "unknown fruit `red`; fruits are plum", (15, 18), None)]


def test_wrong_node_for_the_field_and_unknown_field_kind_are_issues_not_exceptions() -> None:
    effect = parse("feed")
    objective = parse("most count(my nests)", "objective")
    _, issues = check(effect, "objective", CTX)
    assert [(i.code, i.message) for i in issues] == [
        ("dsl-context", "expected an objective: `most <quantity>` or `least <quantity>`")]
    _, issues = check(objective, "effect", CTX)
    assert [i.code for i in issues] == ["dsl-context"]
    _, issues = check(parse("gain domain; feed"), "trigger", CTX)
    assert issues[0].message == "a trigger is one call, without `;`, `choose`, `may` or `repeat`"
    _, issues = check(effect, "flavour", CTX)
    assert issues == [Issue("dsl-context", "unknown field kind `flavour`", Span(0, 4),
                            "field kinds are effect, cost, ability, solo, objective, trigger, modifier")]


def test_a_one_call_effect_is_accepted_for_a_trigger() -> None:
    bound, issues = check(parse("feed"), "trigger", CTX)
    assert issues == [] and isinstance(bound, Call) and bound.primitive == "t-feed"


def test_effect_node_kinds_survive_checking() -> None:
    bound, _ = compile_field("choose { feed } or { repeat 2 { gain 1 fruit } }; may { build }", "effect", CTX)
    assert isinstance(bound, Seq)
    assert [type(n).__name__ for n in walk(bound)] == [
        "Seq", "Choose", "Seq", "Call", "Seq", "Repeat", "Seq", "Call", "May", "Seq", "Call"]
