"""kcd.testing, the package for people who test the engine, a mod or a front-end: `random_sim_test` passes on the
base game and on shipped mods, and fails, saying which game, which decision and what broke, when a copy differs,
a refusal leaves a trace, a view shows what its viewer cannot see, an invariant breaks, a game crashes or never
ends, or the pack does not load. `drive` refuses unanswered decisions and unused answers."""
from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_engine_support import blank_runtime, dsl, fruit, ruleset

from kcd.analysis import sim
from kcd.engine import Game, effects
from kcd.engine import game as game_module
from kcd.engine.context import Ctx
from kcd.testing import (CHECKS, CheckFailed, checked_game, drive, hidden, random_sim_test, sim_plan, steps,
                         views_leak)

ROOT = Path(__file__).resolve().parent.parent


def test_the_base_game_passes_in_every_mode_it_offers() -> None:
    """Three games of the base content (a content root path): the standard game, solo and Variable Turn Order, every
    check at every decision."""
    report = random_sim_test(ROOT / "content", games=3, seed=0)
    assert [r.mode for r in report.records] == ["standard", "solo", "standard"]
    assert [r.variant for r in report.records] == [None, None, "vto"]
    assert report.checks == CHECKS and report.decisions > 300
    assert all(r.ranking and r.decisions > 50 for r in report.records)
    assert report.summary() == (f"3 games, {report.decisions} decisions, every check passed "
                                "(invariants, copies, refusals, views)")
    assert report.games_played[1].startswith("seed 1, solo, ")


def test_a_shipped_mod_passes_and_its_own_flock_plays() -> None:
    """The compose mod, from its pack folder: its teal flock sits at the table in both games."""
    report = random_sim_test("content/mods/compose", games=2, seed=0)
    assert all("teal" in r.players for r in report.records)
    assert [r.mode for r in report.records] == ["standard", "solo"]


def test_a_greedy_game_passes_too() -> None:
    """`bots` takes the names `kcd simulate` takes; the checks run on every second decision with `every=2`."""
    record = checked_game(ruleset(), ["red", "green"], 4, bots=("greedy",), every=2)
    assert record.bots == ["greedy", "greedy"] and record.ranking


def _first_game(**kw: Any) -> None:
    """The first game of the base plan (seed 0, standard), played with every check."""
    (options,) = sim_plan(ruleset(), 1, 0)
    checked_game(ruleset(), **options, **kw)


def test_a_clone_that_differs_from_the_game_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clone holding one fruit more than the game is caught at the first decision, with where it differs."""
    real = Game.clone

    def clone(self: Game, *args: Any, **kw: Any) -> Game:
        twin = real(self, *args, **kw)
        twin.state.fruit_bag[next(iter(twin.state.fruit_bag))] += 1
        return twin

    monkeypatch.setattr(Game, "clone", clone)
    with pytest.raises(CheckFailed, match=r"^seed 0, standard, .*, at the start: the clone differs from the game at "
                                          r"/state/fruit_bag/\w+: \d+ != \d+$"):
        _first_game()


def test_a_loaded_save_that_goes_on_unlike_the_game_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A loaded save whose RNG was swapped equals nothing at once: it is caught before the game goes on."""
    real = Game.from_json.__func__

    def from_json(cls: type[Game], ruleset: Any, text: str, verify: bool = False) -> Game:
        loaded = real(cls, ruleset, text, verify)
        loaded.state.rng ^= 1
        return loaded

    monkeypatch.setattr(Game, "from_json", classmethod(from_json))
    with pytest.raises(CheckFailed, match=r"at the start: the loaded save differs from the game at /state/rng"):
        _first_game()


def test_a_refusal_that_changes_the_game_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong-seat answer that is refused but moves a fruit from the bag is named with the id sent."""
    real = Game.apply

    def apply(self: Game, option_id: Any, player: str | None = None) -> Any:
        result = real(self, option_id, player)
        if not result.ok and player is not None:
            self.state.fruit_bag[next(iter(self.state.fruit_bag))] -= 1
        return result

    monkeypatch.setattr(Game, "apply", apply)
    with pytest.raises(CheckFailed, match=r"at the start: refusing `'[^']*'` from \w+ changed the game at "
                                          r"/state/fruit_bag/"):
        _first_game()


def test_a_broken_invariant_fails_after_the_decision_that_broke_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fruit that vanishes at the tenth decision: the engine's own invariant check names the field."""
    real = Game.apply

    def apply(self: Game, option_id: Any, player: str | None = None) -> Any:
        result = real(self, option_id, player)
        if result.ok and len(self.history) == 10:
            self.state.fruit_bag[next(iter(self.state.fruit_bag))] -= 1
        return result

    monkeypatch.setattr(Game, "apply", apply)
    with pytest.raises(CheckFailed, match=r"after decision 10 \(`[^`]+`, [\w-]+ of \w+\): invariants broken: "
                                          r"fruit_bag"):
        _first_game()


def _leaky(real: Any, what: str) -> Any:
    """A view builder that adds `peek`: every other flock's hand (`hands`) or, harmless, the seat order (`seats`)."""
    def view(rt: Any, player: str | None, pending: Any) -> dict[str, Any]:
        out: dict[str, Any] = real(rt, player, pending)
        st = rt.state
        out["peek"] = ({f: sorted(st.flocks[f].hand) for f in st.seats if f != player} if what == "hands"
                       else list(st.seats))
        return out
    return view


def test_a_view_showing_others_hands_fails_and_a_public_addition_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The views check compares each viewer's view on twins dealt again where it cannot see: other hands in a view
    are caught (with the path), a public field added the same way is not."""
    real = hidden.make_view
    game = Game.new(ruleset(), ["red", "green", "purple"], seed=3)
    for _ in range(12):
        assert game.apply(game.pending.options[0].id).ok
    rng = random.Random(1)
    monkeypatch.setattr(hidden, "make_view", _leaky(real, "seats"))
    monkeypatch.setattr(game_module, "make_view", _leaky(real, "seats"))
    assert views_leak(game, rng) is None
    monkeypatch.setattr(hidden, "make_view", _leaky(real, "hands"))
    monkeypatch.setattr(game_module, "make_view", _leaky(real, "hands"))
    leak = views_leak(game, rng)
    assert leak is not None and leak.startswith("the view of red depends on what it cannot see (at /peek/")
    with pytest.raises(CheckFailed, match=r"at the start: the view of \w+ depends on what it cannot see"):
        _first_game()


def test_a_game_that_does_not_end_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game still going after the decision limit is reported as one that does not end (no hang)."""
    monkeypatch.setattr(sim, "MAX_DECISIONS", 30)
    with pytest.raises(CheckFailed, match=r"^seed 0, standard, .*: seed 0: no end after 30 decisions$"):
        _first_game(checks=())


def test_an_engine_crash_fails_with_the_game_and_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception inside `apply` becomes a failure naming the game and how far it got, the cause chained."""
    real = Game.apply

    def apply(self: Game, option_id: Any, player: str | None = None) -> Any:
        if len(self.history) == 5:
            raise KeyError("no-such-hex")
        return real(self, option_id, player)

    monkeypatch.setattr(Game, "apply", apply)
    with pytest.raises(CheckFailed, match=r"after decision 5: the engine raised KeyError: 'no-such-hex'") as info:
        _first_game(checks=("invariants",))
    assert isinstance(info.value.__cause__, KeyError)


def test_a_pack_that_does_not_load_fails_with_the_loaders_report(root: Path) -> None:
    """A copy of the example mod with an ability the language does not take: the failure quotes the file and the
    problem; a path that is no pack says so."""
    pack = root / "mods" / "broken"
    shutil.copytree(root / "mods" / "example", pack)
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("id: example", "id: broken"))
    leaders = pack / "leaders.yaml"
    leaders.write_text(leaders.read_text().replace("leader moves 1; grow 1 kiwi", "leader teleports anywhere"))
    with pytest.raises(CheckFailed, match=r"(?s)^content/mods/broken does not load:\n.*leaders\.yaml"):
        random_sim_test("content/mods/broken", games=1)
    with pytest.raises(CheckFailed, match=r"nowhere: not a content root or a pack folder"):
        random_sim_test("nowhere", games=1)


def test_an_unknown_check_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="no check named 'clones'; the checks are invariants, copies, refusals, views"):
        _first_game(checks=("clones",))


def test_drive_answers_in_order_and_refuses_what_it_cannot_use() -> None:
    """A `choose` run by hand: answered, it runs; unanswered, an answer it does not offer, or an answer left over
    is an AssertionError naming it."""
    rt = blank_runtime()
    fruit(rt, "red", blue=2)
    effect = dsl("choose { pay 1 fruit any; gain 1 vp } or { gain 1 fruit }")
    _, asked = drive(steps(rt, effects.run_frame(rt, effect, Ctx("red"))), ["choice:1"])
    assert [d.kind for d in asked] == ["choose"] and rt.state.flocks["red"].season_vp == 1
    with pytest.raises(AssertionError, match=r"unanswered choose decision for red: \['choice:1', 'choice:2'\]"):
        drive(steps(rt, effects.run_frame(rt, effect, Ctx("red"))))
    with pytest.raises(AssertionError, match=r"'choice:9' not in \['choice:1', 'choice:2'\]"):
        drive(steps(rt, effects.run_frame(rt, effect, Ctx("red"))), ["choice:9"])
    with pytest.raises(AssertionError, match=r"unused answers \['choice:2'\]"):
        drive(steps(rt, effects.run_frame(rt, dsl("gain 1 fruit"), Ctx("red"))), ["choice:2"])
