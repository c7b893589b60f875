"""What a program asks at each Ask: an Ask's `kinds` declares the decision kinds asked there and
the action kinds of their options, and `Game.from_json` refuses a pending decision that is not one of them (so a
mutated save whose top continuation waits at another Ask is a ValueError, never an AttributeError when it resumes
with an answer of another kind). Compose programs check theirs with `check_answer` too.
"""
from __future__ import annotations

import functools
import json
import random
from typing import Any, Callable

import pytest
from test_engine_support import ruleset

import kcd.modes.solo.procedures  # noqa: F401 (the solo frames registered)
from kcd.content import load_ruleset
from kcd.engine import Game, machine
from kcd.engine.values import Ask

# every mode: standard 2-4 players, the prototype edition, Variable Turn Order, advanced setup (sides A and B),
# solo, and each mod of content/mods
_MODES: list[tuple[tuple[str, ...], dict]] = [
    ((), dict(players=["red", "green"])), ((), dict(players=["red", "green", "purple"])),
    ((), dict(players=["red", "green", "purple", "yellow"])),
    ((), dict(players=["yellow", "red", "green"], variant="vto")),
    ((), dict(players=["purple", "yellow"], setup="advanced")),
    ((), dict(players=["red", "green", "purple", "yellow"], setup="advanced",
              sides={"red": "B", "green": "B", "purple": "B", "yellow": "B"})),
    ((), dict(players=["green", "red"], mode="solo")), ((), dict(players=["red", "green"], mode="solo")),
    (("editions/prototype",), dict(players=["red", "green", "purple"])),
    (("editions/prototype",), dict(players=["red", "green", "purple", "yellow"], variant="vto")),
    (("mods/example",), dict(players=["red", "green", "purple"])),
    (("mods/compose",), dict(players=["red", "green", "purple"])),
    (("mods/reeds",), dict(players=["red", "green", "purple"])),
    (("mods/scoped",), dict(players=["red", "green", "purple"])),
]


@functools.lru_cache(maxsize=None)
def _ruleset(overlays: tuple[str, ...]) -> Any:
    """The base ruleset with these overlays (loaded once)."""
    return load_ruleset(list(overlays)) if overlays else ruleset()


def test_every_asking_program_declares_its_kinds_at_each_ask() -> None:
    """Every Ask of every program declares at least one decision kind, each with at least one action kind."""
    for prog in machine.PROGRAMS.values():
        for name, kinds in prog.asks.items():
            assert kinds and all(actions for actions in kinds.values()), (prog.id, name)


def test_random_games_of_every_mode_ask_only_what_each_step_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Ask a program makes, in random games of every mode, is of a kind declared for the Ask it then waits
    at, and each option's action is of a kind declared for that decision (fails on a missing or wrong
    declaration)."""
    seen: set[tuple[str, int, str]] = set()

    def program_checked(resume: Callable[..., Any]) -> Callable[..., Any]:
        def resume_and_check(self: machine.Cont, rt: Any, value: Any) -> Any:
            sig = resume(self, rt, value)
            if type(sig) is Ask:   # a program's Ask declares its kinds; the continuation now waits at its name
                actions = self.program.asks.get(self.label, {}).get(sig.kind)
                assert actions is not None, f"{self.kind} asks `{sig.kind}` at {self.label}: not declared"
                for o in sig.options:
                    assert o.action.kind in actions, f"{self.kind} at {self.label}: `{o.action.kind}` not declared"
                seen.add((self.kind, -1, sig.kind))
            return sig
        return resume_and_check

    monkeypatch.setattr(machine.Cont, "resume", program_checked(machine.Cont.resume))
    for overlays, kw in _MODES:
        for seed in range(3):
            game = Game.new(_ruleset(overlays), seed=seed, **kw)
            rng = random.Random(seed)
            while not game.is_over:
                assert game.apply(rng.choice(game.pending.options).id).ok
    assert seen


@functools.lru_cache(maxsize=None)
def _save_at(kind: str, top: str) -> str:
    """A real mid-step save (3 players) whose pending decision is `kind`, asked by the top frame `top`."""
    for seed in range(21, 60):
        game = Game.new(ruleset(), players=["red", "green", "purple"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            text = game.to_json()
            frames = json.loads(text)["frames"]
            if game.pending.kind == kind and frames and frames[-1].get("kind", frames[-1].get("program")) == top:
                return text
            assert game.apply(rng.choice(game.pending.options).id).ok
    raise AssertionError(f"no {kind} decision of {top}")


def _load(kind: str, top: str, mutate: Callable[[dict], object]) -> Game:
    """Load that save after `mutate` changed its data (the save itself loads)."""
    data = json.loads(_save_at(kind, top))
    assert Game.from_json(ruleset(), json.dumps(data)).pending.kind == kind   # the real save loads
    mutate(data)
    return Game.from_json(ruleset(), json.dumps(data))


def test_a_turn_moved_back_to_its_card_step_with_a_play_mode_decision_pending_is_refused() -> None:
    """The reproduction: the turn waiting for its card reads `.card` of the answer, so a play-mode answer there
    crashed with AttributeError on the first `apply`; now the load is refused."""
    with pytest.raises(ValueError, match=r"`play-mode` decision, but frames/0 \(actions.turn, at card\) asks `card`"):
        _load("play-mode", "actions.turn", lambda d: d["frames"][-1].update(at="card"))


def test_a_turn_moved_on_to_its_play_mode_step_with_a_card_decision_pending_is_refused() -> None:
    """The other way round: at mode (a card in the hand) the turn asks the play mode, not a card."""
    def mutate(data: dict) -> None:
        top = data["frames"][-1]
        top["at"] = "mode"
        top["env"]["card"] = next(f for f in data["state"]["flocks"] if f["id"] == top["env"]["flock"])["hand"][0]
    with pytest.raises(ValueError, match=r"`card` decision, but frames/0 \(actions.turn, at mode\) asks `play-mode`"):
        _load("card", "actions.turn", mutate)


def test_a_build_at_its_hex_step_with_a_nest_decision_pending_and_a_payment_asked_another_kind_are_refused() -> None:
    """A Build moved back to its hex step while its Nest is asked; a payment whose decision is of another kind."""
    with pytest.raises(ValueError, match=r"`build-nest` decision, but frames/\d+ \(build.build, at hex\) asks "):
        _load("build-nest", "build.build", lambda d: d["frames"][-1].update(at="hex"))
    with pytest.raises(ValueError, match=r"`feed` decision, but frames/\d+ \(payment.pay, at pay\) asks `pay`"):
        _load("pay", "payment.pay", lambda d: d["pending"].update(kind="feed"))


def test_a_pending_option_whose_action_its_decision_kind_never_offers_is_refused() -> None:
    """A play-mode decision whose first option is a card (its id that action's): not an answer to a play mode."""
    def mutate(data: dict) -> None:
        card = data["frames"][-1]["env"]["card"]
        data["pending"]["options"][0] = {"id": f"card:{card}", "label": "x", "action": {"kind": "card", "card": card}}
    with pytest.raises(ValueError, match=r"option 1: `card:\S+` is not an answer to a `play-mode` decision"):
        _load("play-mode", "actions.turn", mutate)
