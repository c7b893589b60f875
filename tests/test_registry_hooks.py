"""A new verb is one registry entry plus its hook functions: defined here alone, it is bound and checked, rendered,
listed by the reference and bounded (its hooks `check`, `render`, `work_of`), and played in a game through its one
lowering function (`lower`: the program of the rules machine that runs a phrase of it), with no file of the engine
touched."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kcd.dsl import registry
from kcd.dsl.ast import Call, Phrase, Selector
from kcd.dsl.bounds import MAX_WORK, Effect, EffectGraph, Entry, effect_bounds, local_work
from kcd.dsl.checker import CheckContext, compile_field
from kcd.dsl.compose_check import field_rules
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import CheckSite, Primitive
from kcd.dsl.render import reference, render
from kcd.core import action_types as A
from kcd.engine import compose, effects
from kcd.engine.context import Ctx, EngineError
from kcd.core.decisions import option
from kcd.engine.machine import Ask, Do, ForEach, Label, Question, program
from kcd.engine.selectors import select
from kcd.engine.verb_table import VerbTable
from kcd.analysis.position import load_position
from kcd.testing import drive, steps

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


# --- the verb's lowering: the program that runs a phrase of it (its env: the phrase, its chosen players, ctx) ----
def _gift_each(rt, env):
    """Each player named, once per fruit given."""
    phrase, ctx = compose.phrase_of(env), env["ctx"]
    who = [e[2] for e in select(rt.state, phrase.arg("who"), compose.scope(rt, ctx)) if e[0] == "player"]
    return who * compose.amount(rt, phrase.arg("n"), ctx)


def _ask_gift(rt, env):
    """Which fruit goes to this player (None: the giver has none left)."""
    giver = env["ctx"].flock
    colours = sorted(c for c, k in rt.state.flocks[giver].fruit.items() if k > 0)
    if not colours:
        return None
    return Question(giver, "gift-fruit", ("Give {} a fruit", (env["to"],)),
                    [option(A.GiveFruit(c), ("Give a {} fruit", (c,))) for c in colours])


def _give(rt, env):
    fruit = env.pop("given").fruit
    rt.state.flocks[env["ctx"].flock].fruit[fruit] -= 1
    rt.state.flocks[env["to"]].fruit[fruit] += 1


GIFT_PROGRAM = program(
    "test.gift_fruit", compose.VERB_PARAMS, {**compose.VERB_VARS, "to": str, "given": A.GiveFruit},
    ForEach("to", _gift_each, (Ask("fruit", _ask_gift, into="given", kinds={"gift-fruit": ("give-fruit",)},
                                   otherwise="none"),
                               Do(_give),
                               Label("none"))))


def _gift_lower(call, site):
    """A phrase of the verb runs its program."""
    return site.start(GIFT_PROGRAM)


GIFT = Primitive("gift-fruit", "verb", "gift {n:int} fruit to {who:players}",
                 "Give n fruit of your choice to each player named. E.g. `gift 1 fruit to an opponent`",
                 "give {n} {n|Fruit|Fruits} of your choice to {who}", work="n",
                 check=_gift_issues, render=_gift_text, work_of=_gift_work, run=_gift_run, lower=_gift_lower)


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
    """The engine's verb table adopts the procedure and the lowering an entry carries, for a verb no engine module
    registers."""
    table = VerbTable()
    with registry.extended(GIFT):
        table.adopt(registry.PRIMITIVES)
    assert table.run["gift-fruit"] is _gift_run and table.lower["gift-fruit"] is _gift_lower


def test_a_new_verb_is_played_in_a_game_through_its_lowering() -> None:
    """The effect runs in a game's runtime: the phrase's verb is lowered by the entry's `lower` hook to its program,
    which asks the giver one decision per fruit (a single choice is taken at once) and gives the fruit."""
    game = load_position(Path(__file__).parent / "golden" / "positions" / "compose" / "cards.yaml")
    rt = game.rt
    teal, green = rt.state.flocks["teal"], rt.state.flocks["green"]
    teal.fruit.update(red=2, blue=1)
    with registry.extended(GIFT):
        node, issues = compile_field("gift 2 fruit to an opponent; gain 1 vp", "effect", CTX)
        assert issues == []
        vp = teal.season_vp
        _, asked = drive(steps(rt, effects.run_frame(rt, node, Ctx("teal"))), ["return-fruit:blue"])
    # blue first; then red is the only fruit left: that choice is taken at once
    assert [(d.kind, d.player, d.prompt) for d in asked] == [("gift-fruit", "teal", "Give green a fruit")]
    assert [o.label for o in asked[0].options] == ["Give a blue fruit", "Give a red fruit"]
    assert (teal.fruit["red"], teal.fruit["blue"], green.fruit["red"], green.fruit["blue"]) == (1, 0, 1, 1)
    assert teal.season_vp == vp + 1
    # a verb with neither a lowering of the engine nor a `lower` hook is not run as a phrase
    with registry.extended(replace(GIFT, lower=None)):
        node, _ = compile_field("gift 1 fruit to an opponent", "effect", CTX)
        with pytest.raises(EngineError, match="no engine procedure"):
            drive(steps(rt, effects.run_frame(rt, node, Ctx("teal"))))


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
