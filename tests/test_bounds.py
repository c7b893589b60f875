"""The checker's bound on the work of every effect: chains of track slots, Nests, powers, abilities and
Kiwibot's bonus segments are bounded before play, content over the bound is refused with the chain named, and
the engine's own limits (a defence) are never reached by content that validates."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml
from test_loader_diagnostics import root  # noqa: F401  (the fixture: a private copy of the shipped content)

from kcd.core import paths
from kcd.content import ContentError, load_ruleset
from kcd.content.bounds import effect_graph
from kcd.content.loader import build
from kcd.dsl import registry
from kcd.dsl.bounds import MAX_CHAIN_DEPTH, MAX_WORK, chain_bounds, local_work
from kcd.dsl.checker import compile_field, CheckContext
from kcd.engine import Game, effects
from kcd.engine.context import MAX_DEPTH, Ctx, EngineError
from kcd.testing import steps

CTX = CheckContext(("red", "green", "yellow", "blue"), ("flower", "grass", "mountain", "sand"))




def _pack(root: Path, name: str, files: dict[str, object]) -> None:
    folder = root / "mods" / name
    (folder / "flocks").mkdir(parents=True)
    (folder / "pack.yaml").write_text(yaml.safe_dump({"id": name, "name": name, "kind": "mod", "description": "x",
                                                      "source": "designed: x"}))
    for rel, data in files.items():
        (folder / rel).write_text(yaml.safe_dump(data, sort_keys=False))


def _track(benefit: str) -> list[dict]:
    return [{"slot": s, "benefit": benefit if s >= 3 else None, "source": "designed: x"} for s in range(1, 9)]


def _errors(root: Path, pack: str) -> list[str]:
    return [d.format() for d in build(root.resolve(), (f"mods/{pack}",)).diagnostics if d.severity == "error"]


def _work(text: str) -> int:
    node, issues = compile_field(text, "effect", CTX)
    assert not issues
    return local_work(node)


def test_local_work_multiplies_repeats_and_takes_the_costliest_choice() -> None:
    """An effect's own work: statements add, `repeat` multiplies, `choose` takes its costliest option."""
    assert _work("gain 2 fruit; place 1 kiwi") == 3
    assert _work("repeat 3 { gain 2 fruit }") == 6
    assert _work("repeat 10 { repeat 10 { gain 1 vp } }") == 100
    assert _work("choose { gain 1 fruit } or { repeat 4 { gain 2 domain } }") == 8
    assert _work("may { gain 5 fruit }") == 5


def test_a_quantity_as_a_verbs_number_counts_at_its_largest_value() -> None:
    """A verb whose work grows with its number, given a quantity, is bounded by the quantity's largest value (the
    most elements its selector can name; `min` the smaller bound), not read as 1."""
    assert _work("gain count(my kiwi) fruit") == 80           # 4 flocks x 20 Kiwi tokens (compose_check)
    assert _work("gain min(count(my kiwi), 2) fruit") == 2
    assert _work("gain max(count(my nests), 3) fruit") == 24   # 4 flocks x 6 Nests
    assert _work("repeat 2 { place count(my leader) kiwi }") == 8


def test_the_shipped_content_is_well_within_the_bounds() -> None:
    """Base, base+edition and base+mod: the costliest effect and the deepest chain, far below the limits (and the
    base game really has chains: a Build's Nest places Kiwi that uncover track slots)."""
    for overlays in ((), ("editions/prototype",), ("mods/example",)):
        result = build(paths.content_dir().resolve(), overlays)
        work, depth = chain_bounds(effect_graph(result.merged, result.compiled))
        assert 50 <= work <= MAX_WORK // 10 and 3 <= depth <= 10, (overlays, work, depth)


def test_R_TRACK_1_track_slots_that_place_the_next_kiwi_validate_and_play(root: Path) -> None:
    """The chain of the issue (track slot -> place -> next slot, and a Nest that places Kiwi) is bounded by the
    rules (each slot once, later slots only) and plays: no `effect nesting` error, nesting within the bound."""
    _pack(root, "places", {"flocks/red.yaml": {"id": "red", "op": "patch", "side_a": {"track": _track("place 1 kiwi")},
                                               "side_b": {"track": _track("grow 2 kiwi")}},
                           "nests.yaml": [{"id": "cave-1", "op": "patch", "on_place": "place 2 kiwi"}]})
    assert _errors(root, "places") == []
    ruleset = load_ruleset(["mods/places"], root=root)
    result = build(root.resolve(), ("mods/places",))
    _, bound = chain_bounds(effect_graph(result.merged, result.compiled))
    assert 8 <= bound <= MAX_CHAIN_DEPTH
    deepest = _play_deepest(ruleset, ["red", "green"], seeds=range(6), sides={"red": "A", "green": "A"})
    assert 2 <= deepest <= bound


def _play_deepest(ruleset, players, seeds, sides=None, mode="standard") -> int:
    """Play random games to the end; the deepest effect nesting met (every game must end normally)."""
    seen = [0]
    original = effects.run_frame   # every effect runs through run_frame (interpreter/engine/effects.py)

    def run(rt, node, ctx):
        seen[0] = max(seen[0], ctx.depth)
        return original(rt, node, ctx)

    effects.run_frame = run
    try:
        for seed in seeds:
            rng = random.Random(seed)
            game = Game.new(ruleset, players=players, seed=seed, sides=sides, mode=mode)
            while not game.is_over:
                assert game.apply(rng.choice(game.pending.options).id).ok
    finally:
        effects.run_frame = original
    return seen[0]


def test_the_bound_holds_in_play_for_the_base_game() -> None:
    """Random base games (standard and solo, both sides) never nest deeper than the checker's bound."""
    result = build(paths.content_dir().resolve(), ())
    _, bound = chain_bounds(effect_graph(result.merged, result.compiled))
    ruleset = load_ruleset()
    assert _play_deepest(ruleset, ["red", "green", "purple", "yellow"], range(3),
                         sides={"red": "B", "green": "B", "purple": "B", "yellow": "B"}) <= bound
    assert _play_deepest(ruleset, ["yellow", "red"], range(3), mode="solo") <= bound


def test_chains_deeper_than_the_bound_are_refused_naming_the_chain(root: Path) -> None:
    """Track benefits that feed any Kiwi set off another flock's next slot, whose benefit feeds again...: every
    flock's whole track could nest past MAX_CHAIN_DEPTH, so the content is refused, the chain named."""
    _pack(root, "feeds", {f"flocks/{f}.yaml": {"id": f, "op": "patch", "side_a": {"track": _track("feed; feed")},
                                                "side_b": {"track": _track("feed; feed")}}
                          for f in ("red", "green", "purple", "yellow")})
    errors = _errors(root, "feeds")
    assert errors and all("error[effect-bound]: effects can nest up to" in e for e in errors)
    first = errors[0]
    assert f"more than {MAX_CHAIN_DEPTH}:" in first and "track slot" in first and " -> " in first
    assert "benefit: feed; feed" in first and "^^^^^^^^^^" in first
    assert "hint: shorten the chain" in first
    with pytest.raises(ContentError):
        load_ruleset(["mods/feeds"], root=root)


def test_a_kiwibot_bonus_that_gives_itself_again_is_a_cycle(root: Path) -> None:
    """R-SOLO-8: a bonus Move segment that gains a bonus Move would never end: refused as a self-feeding chain."""
    solo = yaml.safe_load((root / "base" / "solo.yaml").read_text())
    card = solo["cards"][0]
    move = list(card["sections"]["move"])
    move[-1] = "bot moves my kiwi of size 1; bot bonus move"
    _pack(root, "loop", {"solo.yaml": {"cards": [{"id": card["id"], "op": "patch",
                                                  "sections": {"move": move}}]}})
    errors = _errors(root, "loop")
    assert len(errors) == 1
    assert errors[0].startswith("content/mods/loop/solo.yaml:")
    assert ("error[effect-bound]: this effect chain feeds itself and never ends: Kiwibot: Solo card 1 move segment 4 "
            "-> Kiwibot: Solo card 1 move segment 4") in errors[0]


def test_powers_that_set_each_other_off_are_bounded_by_the_trigger_rule(root: Path) -> None:
    """A gain-domain power that feeds (which gains domain markers) and a feed power that gains markers: the rule
    that a trigger never re-fires in its own chain bounds it, so it validates and plays."""
    _pack(root, "powers", {"flocks/green.yaml": {"id": "green", "op": "patch", "side_b": {"power": [
        {"when": "gain domain", "do": "may { feed }", "source": "designed: x"},
        {"when": "feed", "do": "gain 1 domain", "source": "designed: x"}]}}})
    assert _errors(root, "powers") == []
    ruleset = load_ruleset(["mods/powers"], root=root)
    assert _play_deepest(ruleset, ["green", "red"], range(3), sides={"green": "B", "red": "A"}) <= MAX_CHAIN_DEPTH


def test_the_engine_limit_is_the_checkers_and_stays_as_a_defence() -> None:
    """The engine refuses to nest past MAX_DEPTH (an EngineError, never a hang); MAX_DEPTH is the checker's
    bound, so content that validates cannot reach it (the Hypothesis test and the soak script play such mods)."""
    from test_engine_support import rules

    from kcd.engine.context import Runtime
    from kcd.engine.setup import new_state

    assert MAX_DEPTH == MAX_CHAIN_DEPTH
    r = rules()
    state = new_state(r, ["red", "green"], 1, None, None, None, "first-game")
    node, _ = compile_field("gain 1 fruit", "effect", CTX)
    rt = Runtime(r, state)
    gen = steps(rt, effects.run_frame(rt, node, Ctx("red", depth=MAX_DEPTH + 1, source="a hand-built chain")))
    with pytest.raises(EngineError, match=f"effect nesting deeper than {MAX_DEPTH}"):
        next(gen)


def test_every_verb_declares_what_it_sets_off_as_the_engine_does() -> None:
    """The registry's bound metadata matches the engine: the verbs Kiwibot runs differently are exactly those
    with `bot_reach`, reaches are known names, and every trigger's emitters are verbs."""
    from kcd.modes.solo.verbs import BOT_OVERRIDES

    known = {"track", "track-any", "nest", "ability", "bonus:move", "bonus:build", "bonus:feed", "bonus:{a}"}
    for prim in registry.PRIMITIVES:
        for item in prim.reach + (prim.bot_reach or ()):
            assert item.removesuffix("*n") in known, (prim.id, item)
        assert prim.work in ("n", "kiwi") or isinstance(prim.work, int), prim.id
    with_bot = {p.id for p in registry.PRIMITIVES if p.bot_reach is not None}
    assert with_bot <= set(BOT_OVERRIDES)
    for prim in registry.of_kind("trigger"):
        assert all(e.startswith("@") or registry.BY_ID[e].kind == "verb" for e in prim.emitted_by), prim.id
