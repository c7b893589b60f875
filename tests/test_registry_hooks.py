"""A new verb is one registry entry plus its hook functions: defined here alone, it is bound and checked, rendered,
listed by the reference and bounded, with no other file of the engine touched (its hooks `check`, `render`,
`work_of`). Playing it in a game is not shown: its `run` hook reaches the engine's verb table (shown), but a verb
with selector slots is run by the compositional interpreter, which is to read the entry's `lower` hook once effects
compile to programs."""
from __future__ import annotations

from kcd.dsl import registry
from kcd.dsl.ast import Call, Phrase, Selector
from kcd.dsl.bounds import MAX_WORK, Effect, EffectGraph, Entry, effect_bounds, local_work
from kcd.dsl.checker import CheckContext, compile_field
from kcd.dsl.compose_check import field_rules
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import CheckSite, Primitive
from kcd.dsl.render import reference, render
from kcd.engine.verb_table import VerbTable

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"))


def _gift_issues(call: Call | Phrase, site: CheckSite) -> list[Issue]:
    """A gift goes to other players: its players are opponents."""
    who = call.arg("who")
    if site.whole or not isinstance(who, Selector) or who.owner == "opponent":
        return []
    return [Issue("dsl-arg-type", "a gift goes to other players: name opponents", who.span,
                  "write e.g. `gift 1 fruit to an opponent`")]


def _gift_text(call: Call | Phrase) -> str | None:
    """Reads "give each opponent 2 Fruits" when the gift goes to every opponent; else the template."""
    who = call.arg("who")
    if isinstance(who, Selector) and who.head.det == "every" and who.head.noun.text == "opponent":
        n = call.arg("n", 1)
        return f"give each opponent {n} {'Fruit' if n == 1 else 'Fruits'} of your choice"
    return None


def _gift_work(call: Call | Phrase, n: int, kiwi_tokens: int) -> int:
    """One step per fruit for each of up to 4 players."""
    return 4 * n


def _gift_run(rt, call, ctx):
    """The engine procedure slot (not played here)."""
    return iter(())


GIFT = Primitive("gift-fruit", "verb", "gift {n:int} fruit to {who:players}",
                 "Give n fruit of your choice to each player named. E.g. `gift 1 fruit to an opponent`",
                 "give {n} {n|Fruit|Fruits} of your choice to {who}", work="n",
                 check=_gift_issues, render=_gift_text, work_of=_gift_work, run=_gift_run)


def test_a_new_verb_is_bound_checked_and_rendered_from_its_entry_alone() -> None:
    """The checker binds the verb's phrase from its pattern, runs its check hook; the renderer its text hook, else
    its template; `kcd reference` lists it with its example's text."""
    with registry.extended(GIFT):
        node, issues = compile_field("gift 2 fruit to an opponent; gain 1 vp", "effect", CTX)
        assert issues == []
        assert render(node) == "Give 2 Fruits of your choice to an opponent and gain 1 Victory Point"
        node, issues = compile_field("gift 2 fruit to every opponent", "effect", CTX)
        assert issues == [] and render(node) == "Give each opponent 2 Fruits of your choice"
        _, issues = compile_field("gift 1 fruit to every player", "effect", CTX)
        assert [(i.code, i.message) for i in issues] == [("dsl-arg-type", "a gift goes to other players: name opponents")]
        _, issues = compile_field("gift 1 fruit to a hex", "effect", CTX)
        assert issues and issues[0].code == "dsl-arg-type"     # the slot type, checked generically
        row = next(r for r in reference(CTX) if r["id"] == "gift-fruit")
        assert row["example"] == "gift 1 fruit to an opponent"
        assert row["text"] == "Give 1 Fruit of your choice to an opponent"
    # outside the block the verb is gone again
    _, issues = compile_field("gift 2 fruit to an opponent", "effect", CTX)
    assert issues and issues[0].code == "dsl-unknown"
    assert "gift-fruit" not in registry.BY_ID


def test_a_new_verb_is_bounded_by_its_work_hook() -> None:
    """The work bound reads the verb's `work_of` hook: an effect's own work, and the refusal of content over it."""
    with registry.extended(GIFT):
        node, issues = compile_field("gift 3 fruit to an opponent", "effect", CTX)
        assert issues == [] and local_work(node) == 12
        heavy, issues = compile_field("repeat 10 { repeat 10 { gift 20 fruit to every opponent } }", "effect", CTX)
        assert issues == []
        assert local_work(heavy) == 100 * 80 > MAX_WORK
        graph = EffectGraph([], [], [], {}, [Entry(Effect(heavy, "a test card"), runner="player")])
        found = effect_bounds(graph)
        assert [i.kind for i in found] == ["work"] and "a test card" in found[0].message


def test_a_new_verbs_run_hook_reaches_the_verb_table() -> None:
    """The engine's verb table adopts the procedure an entry carries, for a verb no engine module registers."""
    table = VerbTable()
    with registry.extended(GIFT):
        table.adopt(registry.PRIMITIVES)
    assert table.run["gift-fruit"] is _gift_run


def test_a_new_leader_movement_counts_in_the_ability_rules() -> None:
    """A Leader movement added as an entry is one for R-LEAD-5/6 too: an ability that uses it moves the Leader."""
    hop = Primitive("leader-hop", "verb", "leader hops {n:int}", "The Leader hops n hexes.",
                    "hop your Leader {n} {n|hex|hexes}", frozenset({"ability"}))
    with registry.extended(hop):
        node, issues = compile_field("leader hops 2; gain 1 fruit", "ability", CTX)
        assert issues == [] and field_rules(node, "ability") == []
        assert render(node) == "Hop your Leader 2 hexes and gain 1 Fruit"
        node, issues = compile_field("gain 1 fruit; leader hops 2; leader moves 1", "ability", CTX)
        assert [i.message for i in field_rules(node, "ability")] == [
            "a leader ability moves the Leader once: this is a second Leader movement"]
