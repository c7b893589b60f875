"""The effect language's last mile: each new part as content of the `lastmile` mod, played on a position
(tests/golden/positions/lastmile/kea.yaml) or checked with its exact message. Rule ids: R-SC-3 (`at season change`),
R-ASYM-2 and R-DM-1 (`domain marking` fires only after a marker), R-BUILD-1 and R-FEED-1 (`this hex` of events),
R-LEAD-5 (an exception in content; pushes never land in their own hex), R-PUSH-1 (push rules for one action),
R-FEED-5, R-DOM-2, R-SCARD-4, R-SCARD-5, R-LEAD-1 and Z-4 (the prototype's Leader of 1 names only building and
marking), R-BUILD-3 (a Nest without a Season Change benefit)."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_engine_support import blank_runtime, markers, put

from kcd.content import load_ruleset
from kcd.content.loader import build, ruleset_from, validate_text
from kcd.dsl import CheckContext, compile_field, render
from kcd.engine import Game, effects, flow, marking, move, push, queries
from kcd.core import dominance
from kcd.core import action_types as A
from kcd.engine.context import Ctx
from kcd.content.rules import compile_rules
from kcd.analysis.position import PositionError, load_position
from kcd.testing import drive, steps

ROOT = Path(__file__).resolve().parents[1]
POSITION = ROOT / "tests" / "golden" / "positions" / "lastmile" / "kea.yaml"
MOD = ROOT / "content" / "mods" / "lastmile"
CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"), 3)


def _game() -> Game:
    return load_position(POSITION)


def _powers(rt, trigger: str) -> list:
    return [e for e in rt.events if e.form == "power" and (e.fields or {}).get("trigger") == trigger]


def _issues(text: str, kind: str = "effect") -> list[tuple]:
    _, issues = compile_field(text, kind, CTX)
    return [(i.code, i.message, (i.span.start, i.span.end), i.hint, i.severity) for i in issues]


# --- 1. `at season change` ---------------------------------------------------------------------------------

def test_R_SC_3_at_season_change_fires_after_the_flocks_own_nest_benefits() -> None:
    """kea dominates A, B, C and G: its `at season change` power gains 1 VP, right after its Nest benefits (cave-2
    has none in the mod, so none are asked)."""
    rt = _game().rt
    before = rt.state.flocks["kea"].season_vp
    _, asked = drive(steps(rt, flow.nest_benefits_frame(rt, "kea")))
    assert asked == []
    assert rt.state.flocks["kea"].season_vp == before + 1
    assert len(_powers(rt, "season-change")) == 1


def test_R_SC_3_the_condition_reads_the_flocks_state() -> None:
    """With two of its hexes emptied kea dominates 2 hexes: the power fires and gains nothing."""
    rt = _game().rt
    for h in ("C", "G"):
        rt.state.set_kiwi(h, ())
    drive(steps(rt, flow.nest_benefits_frame(rt, "kea")))
    assert rt.state.flocks["kea"].season_vp == 0 and len(_powers(rt, "season-change")) == 1


def test_R_SC_1_at_season_change_fires_from_the_second_season_on_in_a_whole_game() -> None:
    """A game with the kea flock on side B: the power fires once per later Season Change (R-SC-1: the first only
    flips the Turn Order nests), and never for the other flock."""
    rs = load_ruleset(["lastmile"])
    game = Game.new(rs, players=["kea", "green"], seed=3, sides={"kea": "B"})
    from kcd.testing import play_random
    play_random(game, 3)
    fired = _powers(game.rt, "season-change")
    assert len(fired) == game.rt.rules.seasons - 1
    assert {e.player for e in fired} == {"kea"}


# --- 2. `this hex` of the event ----------------------------------------------------------------------------

def test_R_ASYM_2_domain_marking_this_hex_is_the_hex_marked() -> None:
    """`if count(my nests in this hex) >= 1 { gain 1 domain }`: marking B (kea's own Nest) pays a marker back."""
    rt = _game().rt
    fl = rt.state.flocks["kea"]
    held = len(fl.domain)
    drive(steps(rt, marking.marking_turn_frame(rt, "kea")), ["mark:B", "cover:reserve"])
    assert rt.state.hexes["B"].domain == ("kea", "grass")
    assert len(fl.domain) == held - 1 + 1   # one placed, one gained by the power
    assert len(_powers(rt, "domain-marking")) == 1


def test_R_ASYM_2_domain_marking_elsewhere_pays_nothing_and_placing_nothing_fires_nothing() -> None:
    rt = _game().rt
    fl = rt.state.flocks["kea"]
    held = len(fl.domain)
    drive(steps(rt, marking.marking_turn_frame(rt, "kea")), ["mark:C", "cover:reserve"])   # sand, no Nest there
    assert len(fl.domain) == held - 1 and len(_powers(rt, "domain-marking")) == 1
    rt = _game().rt
    drive(steps(rt, marking.marking_turn_frame(rt, "kea")), ["pass"])   # R-DM-1: a marker is optional; none placed: no power
    assert _powers(rt, "domain-marking") == []


def test_R_BUILD_1_build_this_hex_is_the_hex_built_on() -> None:
    """`when: build, do: if count(my kiwi in this hex) >= 2 { gain 1 fruit }`: building on C (two kea Kiwi) pays."""
    from kcd.engine import build
    rt = _game().rt
    fl = rt.state.flocks["kea"]
    drive(steps(rt, build.BUILD.start(Ctx("kea"))), ["build:C", "nest:tree-1", "pay:red,red"])
    assert rt.state.hexes["C"].nest == ("kea", "tree-1")
    assert sum(fl.fruit.values()) == 2   # paid 2 red; tree-1's placement 1 fruit; the power 1 fruit
    rt = _game().rt
    drive(steps(rt, build.BUILD.start(Ctx("kea"))), ["build:A", "nest:tree-1", "pay:red,red"])   # one kea Kiwi on A: no fruit from the power
    assert sum(rt.state.flocks["kea"].fruit.values()) == 1


def test_this_hex_where_the_trigger_has_none_is_a_located_error() -> None:
    """`at season change` has no hex: `this hex` in its effect is refused where it is written (R-SC-3)."""
    path = MOD / "flocks" / "kea.yaml"
    text = path.read_text(encoding="utf-8").replace(
        'do: "if count(hexes dominated by me) >= 3 { gain 1 vp }"', 'do: "if count(my kiwi in this hex) >= 1 { gain 1 vp }"')
    [d] = [d for d in validate_text(path, text) if d.severity == "error"]
    assert d.format().splitlines() == [
        "content/mods/lastmile/flocks/kea.yaml:32:32: error[dsl-context]: `this hex` names the hex of the event that "
        "fired the power, and `at season change` has none",
        '  do: "if count(my kiwi in this hex) >= 1 { gain 1 vp }"',
        "                           ^^^^^^^^",
        "  hint: triggers with a hex: `domain marking`, `build`, `feed`, `feed <what>`, `feed <what> by <who>`, "
        "`build on <where>`, `build on <where> by <who>`; or name the hexes: `hexes dominated by me`, `hexes with my "
        "nest`"]


def test_the_reference_says_what_each_trigger_binds() -> None:
    from typer.testing import CliRunner
    from kcd.apps.cli.main import app
    out = CliRunner().invoke(app, ["reference", "--kind", "trigger"]).output.splitlines()
    assert out[out.index("domain marking  [trigger; trigger]") + 3] == (
        "    binds: `this hex`: the hex of the last domain marker the flock placed")
    assert out[out.index("build  [trigger; trigger]") + 3] == "    binds: `this hex`: the hex of the Nest built"
    assert out[out.index("at season change  [trigger; trigger]") + 3] == (
        "    binds: no hex (`this hex` is refused in its effect)")


# --- 3. a chosen player --------------------------------------------------------------------------------------

def _three():
    rt = blank_runtime(players=("red", "green", "yellow"))
    markers(rt, "green", "flower")
    markers(rt, "yellow", "sand", "grass")
    return rt


def test_choose_an_opponent_is_the_acting_players_decision_and_them_does_the_verb() -> None:
    node, issues = compile_field("choose an opponent where domain(them) > 0 { them loses 1 domain; gain 1 domain }",
                                 "effect", CTX)
    assert issues == []
    rt = _three()
    _, asked = drive(steps(rt, effects.run_frame(rt, node, Ctx("red"))), ["player:yellow", "return:sand"])
    assert [(d.player, d.kind) for d in asked] == [("red", "choose-player"), ("yellow", "return-domain")]
    assert set(asked[0].option_ids()) == {"player:green", "player:yellow"}
    assert rt.state.flocks["yellow"].domain == ["grass"] and rt.state.flocks["green"].domain == ["flower"]
    assert len(rt.state.flocks["red"].domain) == 1


def test_choose_a_player_named_by_nobody_does_nothing_and_one_is_still_asked() -> None:
    node, _ = compile_field("choose an opponent where domain(them) > 2 { them loses 1 domain }", "effect", CTX)
    rt = _three()
    _, asked = drive(steps(rt, effects.run_frame(rt, node, Ctx("red"))), [])
    assert asked == []
    node, _ = compile_field("choose an opponent where domain(them) > 0 { them returns 1 fruit }", "effect", CTX)
    rt = _three()
    rt.state.flocks["yellow"].domain = []
    rt.state.flocks["green"].fruit["red"] = 1
    _, asked = drive(steps(rt, effects.run_frame(rt, node, Ctx("red"))), [])   # one player named: no choice to ask; green has one fruit
    assert asked == [] and sum(rt.state.flocks["green"].fruit.values()) == 0


def test_a_verb_with_a_subject_reads_as_that_player_and_the_next_statement_as_yours() -> None:
    node, _ = compile_field("choose an opponent { them loses 1 domain; gain 1 domain }", "effect", CTX)
    assert render(node) == ("Choose an opponent: that player must return 1 Domain marker from their Player Reserve "
                            "to the bag and you gain 1 Domain marker")
    node, _ = compile_field("every opponent loses 1 fruit", "effect", CTX)
    assert render(node) == "Every opponent must return 1 Fruit of their choice to the bag"


def test_the_tracker_slot_of_the_mod_validates_and_its_text() -> None:
    rules = compile_rules(load_ruleset(["lastmile"]))
    slot = next(s for s in rules.tracker.values() if s.id == "tracker-5")
    assert render(slot.effect) == (
        "Pay 1 Fruit of any color and choose an opponent where their Domain markers is more than 0: that player must "
        "return 1 Domain marker from their Player Reserve to the bag and you gain 1 Domain marker")


# --- 4. scoped modifiers -------------------------------------------------------------------------------------

def _pushed(opts) -> set[tuple[str, int]]:
    return {(o.action.flock, o.action.size) for o in opts if isinstance(o.action, A.PushKiwi)}


def test_R_LEAD_5_immune_to_abilities_only_the_cause_named() -> None:
    """`my kiwi of size 3 cannot be pushed by leader abilities`: G's size-3 kea Kiwi is out of an ability's pushes, not out
    of a Move's (R-PUSH-1) nor an explosion's (R-FEED-5)."""
    rt = _game().rt
    assert _pushed(push.push_options(rt, "G", None, cause="abilities")) == set()
    assert _pushed(push.push_options(rt, "G", None, cause="effects")) == {("kea", 3)}
    assert _pushed(push.push_options(rt, "G", 3, cause="moves")) == {("kea", 3)}
    assert _pushed(push.push_options(rt, "G", None, cause="explosions")) == {("kea", 3)}


def test_R_PUSH_1_this_action_lets_a_moved_kiwi_push_any_size_for_that_action_only() -> None:
    """The mod's Wildcard benefit `this action: my kiwi can push kiwi of any size; move 1`: kea's size-1 Kiwi moved
    into D may push green's size-3 Kiwi (and not the kea Leader, its own); a plain `move 1` may push nothing."""
    rules = compile_rules(load_ruleset(["lastmile"]))
    benefit = rules.cards["wild-fruit"].benefit
    assert render(benefit) == "For this action, your Kiwi can push Kiwi of any size: gain 1 Move action"
    rt = _game().rt
    _, asked = drive(steps(rt, effects.run_frame(rt, benefit, Ctx("kea"))), ["move:kea/1@C->D", "push:green/3@D->C", "stop"])
    assert asked[1].kind == "push" and "push:green/3@D->C" in asked[1].option_ids()
    assert [k.size for k in rt.state.hexes["C"].kiwi if k.flock == "green"] == [3]
    rt = _game().rt
    node, _ = compile_field("move 1", "effect", CTX)
    _, asked = drive(steps(rt, effects.run_frame(rt, node, Ctx("kea"))), ["move:kea/1@C->D"])
    assert len(asked) == 1   # a size-1 Kiwi pushes nothing (R-PUSH-1): no push asked


def test_this_action_messages() -> None:
    assert _issues("this action: my kiwi cannot be pushed; move 1") == [(
        "dsl-context", "`<who> cannot be pushed` holds for the whole game only: it cannot be given for one action",
        (13, 37), "modifiers for one action: `<who> can push up to <n> kiwi`, `<who> can push kiwi of equal size`, "
        "`<who> can push kiwi of any size`", "error")]
    assert _issues("move 1; this action: my kiwi can push kiwi of any size") == [(
        "dsl-context", "`this action:` holds for the statements after it, and none follows", (8, 54),
        "put it first: `this action: my kiwi can push kiwi of any size; move 2`", "error")]


# --- 5. an exception to a rulebook default -----------------------------------------------------------------

def test_R_LEAD_5_an_ability_set_aside_in_content_does_not_move_the_leader() -> None:
    """Kaka's Stand Fast (`exceptions: [{rule: R-LEAD-5, ...}]`): the Leader stays on D and pushes out of its own hex
    (the landing hex is where it stands); the ability is still once a season (R-LEAD-2)."""
    rt = _game().rt
    ctx = Ctx("kea")
    _, asked = drive(steps(rt, move.MOVE_ACTION.start(ctx, True)), ["ability", "push:green/3@D->C"])
    assert rt.state.flocks["kea"].leader_hex == "D" and rt.state.flocks["kea"].leader_used
    assert [k.size for k in rt.state.hexes["C"].kiwi if k.flock == "green"] == [3]
    assert sum(rt.state.flocks["kea"].fruit.values()) == 3   # and it gained its fruit


def test_R_LEAD_5_without_the_exception_the_rule_and_its_message_stand() -> None:
    path = MOD / "leaders.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("      exceptions:")
    without = text[:start] + text[text.index("      source: \"designed: an ability that sets"):]
    [d] = [d for d in validate_text(path, without) if d.severity == "error"]
    assert d.format().splitlines()[0] == (
        "content/mods/lastmile/leaders.yaml:7:17: error[dsl-context]: a leader ability must move the Leader (R-LEAD-5)")
    moving = text.replace('ability: "push up to 2 of the pieces out of the starting hex; gain 1 fruit"',
                          'ability: "leader moves 1; gain 1 fruit"')
    [d] = [d for d in validate_text(path, moving) if d.severity == "error"]
    assert d.format().splitlines()[0] == (
        "content/mods/lastmile/leaders.yaml:9:9: error[exception-unused]: the exception to R-LEAD-5 waives nothing in "
        "`ability`")


# --- 6. quantities ------------------------------------------------------------------------------------------

def test_R_SCARD_1_an_objective_may_be_a_sum() -> None:
    rt = _game().rt
    card = rt.rules.season_cards["most-nests-and-markers"]
    assert render(card.objective) == "Most Nests on the island board plus Domain markers on the island board"
    rt.state.set_domain("A", ("kea", "flower"))
    assert [queries.evaluate(rt.state, card.objective, f) for f in ("kea", "green")] == [2, 0]
    assert _issues("most (count(my nests) + 1)", "objective") == []


def test_R_DOM_2_a_weight_read_for_each_piece() -> None:
    """`my kiwi in flower hexes count tokens(it) + 1 for dominance`: A's size-2 kea Kiwi counts 3, F's size-1 counts 2
    (a tie with green's 2), off a flower hex by size as usual."""
    st = _game().rt.state
    assert dominance.strengths(st, "A") == {"kea": 3}
    assert dominance.strengths(st, "F") == {"green": 2, "kea": 2}
    assert dominance.strengths(st, "C") == {"kea": 2}
    assert _issues("gain count(my nests) + 1 fruit") == []


# --- 7. optional fields --------------------------------------------------------------------------------------

def test_R_BUILD_3_a_nest_without_a_season_change_benefit() -> None:
    """`on_season_change: null` (the mod's cave-2) and the field left out (a Reed Nest here) both validate and give
    nothing at Season Change; the rules text says so."""
    rules = compile_rules(load_ruleset(["lastmile"]))
    assert rules.nests["cave-2"].on_season_change is None
    path = ROOT / "content" / "mods" / "reeds" / "nests.yaml"
    text = path.read_text(encoding="utf-8")
    without = text.replace("  on_season_change: gain 1 fruit\n", "", 1)   # reed-1's, the first one
    assert without != text
    assert [d for d in validate_text(path, without) if d.severity == "error"] == []
    result = build(ROOT / "content", ("reeds",), {str(path): without})
    assert compile_rules(ruleset_from(result)).nests["reed-1"].on_season_change is None


# --- 8. positions choose a Leader card --------------------------------------------------------------------

def test_a_position_chooses_the_leader_card() -> None:
    st = _game().rt.state
    assert (st.flocks["kea"].leader, st.flocks["kea"].leader_card) == ("kaka", "kaka-1")
    assert st.flocks["green"].leader_card == "chopan-1"   # without `leader_card`: the Leader's first card


@pytest.mark.parametrize("card,message", [
    ("kaka-9", "`kaka-9` is not a card of `kea`'s Leader `kaka`"),
    ("chopan-2", "`chopan-2` is not a card of `kea`'s Leader `kaka`"),
])
def test_a_leader_card_not_of_the_flocks_leader_is_a_located_error(tmp_path: Path, card: str, message: str) -> None:
    text = POSITION.read_text(encoding="utf-8").replace("leader_card: kaka-1", f"leader_card: {card}")
    path = tmp_path / "kea.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PositionError) as info:
        load_position(path)
    [d] = info.value.diagnostics
    assert d.code == "id-unknown" and d.message == message and d.location.line == 30


# --- 9. packs that require packs ------------------------------------------------------------------------

def test_a_pack_is_validated_over_what_it_requires() -> None:
    result = build(ROOT / "content", ("lastmile-duel",))
    assert [p.pack.id for p in result.packs] == ["base", "lastmile", "lastmile-duel"]
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    rules = compile_rules(ruleset_from(result))
    assert render(rules.leader_ability("kaka-2")).startswith("Jump your Leader to a hex exactly 2 hexes away")


def test_a_missing_or_circular_requirement_is_a_located_error() -> None:
    duel = MOD.parent / "lastmile-duel" / "pack.yaml"
    text = duel.read_text(encoding="utf-8")
    result = build(ROOT / "content", ("lastmile-duel",), {str(duel): text.replace("[lastmile]", "[lastmiles]")})
    [d] = [d for d in result.diagnostics if d.code == "id-unknown"]
    assert d.format().splitlines()[0] == (
        "content/mods/lastmile-duel/pack.yaml:7:12: error[id-unknown]: pack `lastmile-duel` requires `lastmiles`, "
        "which is not installed")
    assert d.hint == "did you mean `lastmile`?"
    pack = MOD / "pack.yaml"
    loop = pack.read_text(encoding="utf-8").replace("kind: mod\n", "kind: mod\nrequires: [lastmile-duel]\n")
    result = build(ROOT / "content", ("lastmile-duel",), {str(pack): loop})
    [d] = [d for d in result.diagnostics if d.code == "pack-cycle"]
    assert d.format().splitlines()[0] == (
        "content/mods/lastmile/pack.yaml:4:12: error[pack-cycle]: packs require each other: lastmile-duel -> lastmile "
        "-> lastmile-duel")


# --- 10. R-LEAD-5: a pushed Kiwi leaves its hex -----------------------------------------------------------

def test_R_LEAD_5_no_push_offers_a_pieces_own_hex() -> None:
    """Every push procedure's destinations exclude the hex the piece stands on: the pushes after a move, an
    explosion's, `push ... out of`, `push ... to` with a destination that names every hex (the own hex is left out),
    and a Leader pushed off an edge by an ability is not put back on its own hex; pushes may share a destination."""
    rt = blank_runtime(leader_hexes={"red": "A1", "green": "A2"})
    for hex_id in ("A1", "A2", "A7"):
        put(rt, hex_id, "green", 1, 1)
    for hex_id in rt.state.hexes:
        for opt in push.push_options(rt, hex_id, None):
            assert opt.action.to != hex_id
    node, _ = compile_field("push every kiwi of an opponent to a hex", "effect", CTX)
    gen = steps(rt, effects.run_frame(rt, node, Ctx("red")))
    d = next(gen)
    dests = [o.action.to for o in d.options]
    assert d.kind == "push" and d.options[0].action.hex not in dests and len(dests) == len(set(dests))
    origin = d.options[0].action.hex
    first = d.options[0].id
    d = gen.send(first)
    if d.kind == "push" and d.options[0].action.hex == origin:   # the twin Kiwi may go to the same hex
        assert first.split("->")[1] in [o.id.split("->")[1] for o in d.options]
    edge = push.do_push_frame("red", A.PushLeader("green", "A2", push.OFF), True)
    asked = next(steps(rt, edge))
    assert "A2" not in [o.action.to for o in asked.options]


# --- 11. filter attachment ---------------------------------------------------------------------------------

def test_a_where_that_binds_to_a_single_piece_after_hexes_warns_with_the_fix() -> None:
    assert _issues("place 1 kiwi on a hex within 3 of my leader where count(flower hexes in it) = 1") == [(
        "dsl-filter-binding", "this `where` narrows `my leader` (the selector nearest before it), so its `it` is "
        "leaders, not the hexes", (44, 79), "to narrow the hexes, write the `where` right after them: `a hex where "
        "count(flower hexes in it) = 1 within 3 of my leader`", "warning")]
    node, issues = compile_field("place 1 kiwi on a hex where count(flower hexes in it) = 1 within 3 of my leader",
                                 "effect", CTX)
    assert issues == []
    where = node.stmts[0].arg("where")
    assert [f.op for f in where.filters] == ["where", "within"] and where.kind == "hex"


# --- 12. rules text scoping ---------------------------------------------------------------------------------

@pytest.mark.parametrize("text,rules", [
    ("for each opponent { return 1 fruit }; gain 1 domain",
     "For each opponent: return 1 Fruit of your choice to the bag. Then gain 1 Domain marker"),
    ("if count(my nests) >= 1 { gain 1 fruit }; gain 1 domain",
     "If the number of your Nests is at least 1: gain 1 Fruit. Then gain 1 Domain marker"),
    ("if fruit(me) > 2 { for each opponent { return 1 fruit }; gain 1 vp }",
     "If your Fruits is more than 2: (for each opponent: return 1 Fruit of your choice to the bag) and gain 1 Victory "
     "Point"),
    ("pay 1 fruit any; for each opponent where fruit(them) > fruit(me) { return 1 fruit }",
     "Pay 1 Fruit of any color and for each opponent where their Fruits is more than your Fruits: return 1 Fruit of "
     "your choice to the bag"),
])
def test_a_statement_after_a_block_reads_outside_it(text: str, rules: str) -> None:
    node, issues = compile_field(text, "effect", CTX)
    assert issues == [] and render(node) == rules


# --- 13. Season cards count a Leader 3 (R-LEAD-1), also in the prototype (Z-4) -------------------------------

def test_Z_4_R_LEAD_1_the_hexes_with_dominance_card_counts_the_leader_3_in_the_prototype(tmp_path: Path) -> None:
    """Z-4 lowers the Leader to 1 for building and domain marking only: on A, green's size-2 Kiwi beats red's lone
    Leader for marking, while the Season card "hexes with established dominance" counts the Leader 3 (R-SCARD-4)."""
    path = tmp_path / "proto.yaml"
    path.write_text("edition: [prototype]\nplayers: [red, green]\nisland:\n  - {id: A, q: 0, r: 0, terrain: flower}\n"
                    "  - {id: B, q: 1, r: 0, terrain: grass}\nhexes:\n  A: {leaders: [red], kiwi: {green: [2]}}\n"
                    "  B: {leaders: [green]}\n", encoding="utf-8")
    st = load_position(path).rt.state
    assert dominance.dominant(st, "A", "marking") == "green" and dominance.dominant(st, "A", "build") == "green"
    card = load_position(path).rt.rules.season_cards["most-dominance"]
    assert [queries.evaluate(st, card.objective, f) for f in ("red", "green")] == [1, 1]   # A for red, B for green
    base = tmp_path / "base.yaml"
    base.write_text(path.read_text(encoding="utf-8").replace("edition: [prototype]\n", ""), encoding="utf-8")
    st = load_position(base).rt.state
    assert dominance.dominant(st, "A", "marking") == "red"   # R-LEAD-1 in the base game: 3 beats 2 everywhere


# --- 14. a modifier in an effect -------------------------------------------------------------------------------

def test_a_modifier_written_in_an_effect_says_where_modifiers_belong() -> None:
    assert _issues("my kiwi can push kiwi of equal size") == [(
        "dsl-context", "`<who> can push kiwi of equal size` is a modifier, not a verb: modifiers belong in flock powers "
        "(`modifier:`)", (0, 35), "write it in a flock power: `power: [{modifier: my kiwi can push kiwi of equal size, "
        "source: ...}]`; for the rest of this effect only: `this action: my kiwi can push kiwi of equal size; ...`",
        "error")]
    assert _issues("gain 1 fruit; my nests give benefits twice")[0][1] == (
        "`<what> give benefits twice` is a modifier, not a verb: modifiers belong in flock powers (`modifier:`)")


def test_a_game_saved_while_a_player_is_being_chosen_loads_and_plays_on() -> None:
    """The mod's tracker slot 5 in a Variable Turn Order game (R-VTO-5): saved at its `choose an opponent` decision
    (the acting player's), the loaded game asks the same and plays to the end."""
    import random
    rs = load_ruleset(["lastmile"])
    game = Game.new(rs, players=["kea", "green", "red"], seed=0, variant="vto")
    rng = random.Random(0)
    saved = 0
    while not game.is_over:
        if game.pending.kind == "choose-player":
            player, options = game.pending.player, game.pending.option_ids()
            game = Game.from_json(rs, game.to_json())
            assert (game.pending.player, game.pending.option_ids()) == (player, options)
            saved += 1
        assert game.apply(rng.choice(game.pending.options).id).ok
    assert saved >= 1


def test_R_FEED_1_feed_this_hex_is_the_fed_kiwis_hex() -> None:
    """kea's build power turned into `when: feed`: feeding its Kiwi on C (two kea Kiwi there) pays; on A it does not."""
    from kcd.engine import feed
    from kcd.analysis.position import build_game, parse_position, read_document
    path = MOD / "flocks" / "kea.yaml"
    text = path.read_text(encoding="utf-8").replace("    - when: build\n", "    - when: feed\n")
    result = build(ROOT / "content", ("lastmile",), {str(path): text})
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    ruleset = ruleset_from(result)
    for hex_id, gained in (("C", 1), ("A", 0)):
        rt = build_game(ruleset, parse_position(read_document(POSITION), ruleset)).rt
        kiwi = rt.state.hexes[hex_id].kiwi[0]
        before = sum(rt.state.flocks["kea"].fruit.values())
        drive(steps(rt, feed.RESOLVE.start(Ctx("kea"), hex_id, kiwi.id)))
        assert sum(rt.state.flocks["kea"].fruit.values()) == before + gained, hex_id
        assert len(_powers(rt, "feed")) == 1


def test_R_PUSH_1_can_push_kiwi_of_any_size_as_a_flock_power_names_its_pieces() -> None:
    """`my kiwi in sand hexes can push kiwi of any size` as a power: kea's size-1 Kiwi from C (sand) moved to D may
    push green's size-3 Kiwi only while the power names it (the selector is read on the board as the rule applies:
    the mover stands in D, grass, so a power naming sand hexes does not apply; one naming grass does)."""
    path = MOD / "flocks" / "kea.yaml"
    for terrain, pushes in (("sand", False), ("grass", True)):
        text = path.read_text(encoding="utf-8").replace(
            "    - modifier: my kiwi of size 3 cannot be pushed by leader abilities\n",
            f"    - modifier: my kiwi in {terrain} hexes can push kiwi of any size\n")
        result = build(ROOT / "content", ("lastmile",), {str(path): text})
        ruleset = ruleset_from(result)
        from kcd.analysis.position import build_game, parse_position, read_document
        rt = build_game(ruleset, parse_position(read_document(POSITION), ruleset)).rt
        node, _ = compile_field("move 1", "effect", CTX)
        _, asked = drive(steps(rt, effects.run_frame(rt, node, Ctx("kea"))), ["move:kea/1@C->D"] + (["stop"] if pushes else []))
        assert (len(asked) == 2 and "push:green/3@D->C" in asked[1].option_ids()) is pushes, terrain
