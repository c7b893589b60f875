"""Typed actions: every option carries a frozen, JSON-round-tripping action whose id form is
the option id; docs/ACTIONS.md lists every kind with an example that round-trips too."""
from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from test_engine_support import ruleset

from kcd.engine import Game
from kcd.modes.solo import procedures as solo
from kcd.core import action_types as A
from kcd.testing import steps

DOCS = Path(__file__).resolve().parent.parent / "docs" / "ACTIONS.md"
ENGINE = Path(__file__).resolve().parent.parent / "interpreter"


def _check(option) -> str:
    """The option's action is typed, frozen, has the option's id and survives JSON both ways."""
    action = option.action
    assert isinstance(action, A.Action), option
    assert action.id() == option.id, (action, option.id)
    again = A.action_from_dict(json.loads(json.dumps(action.to_dict())))
    assert again == action and type(again) is type(action) and again.id() == option.id
    with pytest.raises(AttributeError):
        setattr(action, "kind_x", 1)   # frozen
    return action.kind


@pytest.fixture(scope="module")
def kinds_met() -> set[str]:
    """Play seeded random games (standard 2-4 players, VTO, solo, advanced setup with sides B), checking every
    option offered to a player and to Kiwibot; the kinds seen."""
    seen: set[str] = set()
    real = solo.answer

    def spy(rt, decision):
        for o in decision.options:
            seen.add(_check(o))
        return real(rt, decision)

    solo.answer = spy
    try:
        cases = [(["red", "green"], {}), (["red", "green", "purple"], {"variant": "vto"}),
                 (["green", "red"], {"mode": "solo"}),
                 (["red", "green", "purple", "yellow"], {"setup": "advanced", "sides": dict.fromkeys(
                     ["red", "green", "purple", "yellow"], "B")})]
        for seed in range(24):
            players, kw = cases[seed % len(cases)]
            game = Game.new(ruleset(), players=players, seed=seed, **kw)
            rng = random.Random(seed)
            while not game.is_over:
                for o in game.pending.options:
                    seen.add(_check(o))
                chosen = rng.choice(game.pending.options)
                # half the time by action, half by id: both are accepted and give the same game
                assert game.apply(chosen.action if rng.random() < 0.5 else chosen.id).ok
    finally:
        solo.answer = real
    return seen


def test_every_option_met_has_a_round_tripping_action(kinds_met: set[str]) -> None:
    """Random games meet nearly every kind; each option was checked in the fixture. The shipped content has no
    `choose` effect and no verb of the compositional layer (tests/test_dsl_compose_engine.py plays those), and a
    Leader is rarely pushed off the island or a Season card solo-swept in 24 games."""
    rare = {"choice", "edge", "push-leader", "season-card", "take", "decline", "take-none", "choose-player",
            "pick-kiwi", "pick-leader", "move-to", "move-to-leader", "give-fruit"}
    assert set(A.KINDS) - rare <= kinds_met <= set(A.KINDS), set(A.KINDS) - rare - kinds_met


def test_every_kind_is_documented_with_an_example_that_round_trips() -> None:
    """docs/ACTIONS.md has one table row per kind whose example JSON gives the example id."""
    rows = [line for line in DOCS.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    documented = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        kind, example_id, example_json = cells[0].strip("`"), cells[3].strip("`"), cells[4].strip("`")
        action = A.action_from_dict(json.loads(example_json))
        assert action.kind == kind and action.id() == example_id, row
        documented[kind] = row
    assert set(documented) == set(A.KINDS)


_DOC_TYPES = {"str": "str", "int": "int", "bool": "bool", "tuple[str, ...]": "list of str"}


def test_the_hand_written_kinds_match_their_documentation() -> None:
    """Each kind is a public frozen dataclass with slots of action_types.py, registered once; its fields and types
    are docs/ACTIONS.md's `fields` column, its docstring the `meaning` column, and `id_of` of the example's
    fields gives the same id as the built action (the id an option gets without building its action)."""
    classes = {name: cls for name, cls in vars(A).items()
               if isinstance(cls, type) and issubclass(cls, A.Action) and cls is not A.Action}
    assert sorted(cls.kind for cls in classes.values()) == sorted(A.KINDS)
    assert all(A.KINDS[cls.kind] is cls for cls in classes.values())
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    for kind, cls in A.KINDS.items():
        params = cls.__dataclass_params__   # type: ignore[attr-defined]
        assert params.frozen and "__slots__" in cls.__dict__, kind
        cells = rows[kind]
        fields = dataclasses.fields(cls)
        documented = ", ".join(f"`{f.name}`: {_DOC_TYPES[str(f.type)]}" for f in fields) or "—"
        assert cells[1] == documented, (kind, cells[1], documented)
        assert cells[5] == cls.doc == cls.__doc__, kind
        action = A.action_from_dict(json.loads(cells[4].strip("`")))
        assert not hasattr(action, "__dict__")
        if kind not in ("may", "pay"):
            assert cls.id_of(*(getattr(action, f.name) for f in fields)) == action.id(), kind  # type: ignore[attr-defined]


def test_apply_takes_an_action_and_refuses_one_not_offered() -> None:
    """`Game.apply(action)` is the same as its id; an action that is not an option is refused, state untouched."""
    game = Game.new(ruleset(), ["red", "green"], seed=3)
    twin = game.clone()
    first = game.pending.options[0]
    assert game.apply(first.action).ok and twin.apply(first.id).ok
    assert game.to_json() == twin.to_json()
    before = game.to_json()
    result = game.apply(A.Mark("nowhere"))
    assert not result.ok and result.code in ("illegal", "malformed") and game.to_json() == before


def test_action_from_dict_names_what_is_wrong() -> None:
    """Unknown kinds, missing, extra or mistyped fields are ValueErrors naming the problem."""
    for bad, message in [({"kind": "fly"}, "unknown action kind `fly`"), ({"hex": "A1"}, "an object with a `kind`"),
                         ({"kind": "place"}, "needs `hex`"), ({"kind": "place", "hex": 3}, "`hex` must be str"),
                         ({"kind": "place", "hex": "A1", "to": "B"}, "has no field to"),
                         ({"kind": "slot", "slot": True}, "`slot` must be int"),
                         ({"kind": "pay", "fruit": "red", "markers": []}, "must be a list of strings"), ([], "an object with a `kind`")]:
        with pytest.raises(ValueError, match=re.escape(message)):
            A.action_from_dict(bad)


def test_pushes_after_a_move_name_the_movers_twin_by_piece_id() -> None:
    """R-PUSH-1: the Kiwi that moved never pushes itself; with a same-size twin beside it the push names and
    moves the twin (by piece id, no reordering of the hex), and without one that size cannot be pushed."""
    from test_engine_support import blank_runtime, put
    from kcd.testing import drive

    from kcd.engine import push
    from kcd.core.board import board_of

    rt = blank_runtime(players=("red", "green"))
    a = next(iter(rt.state.hexes))
    mover, twin = put(rt, a, "green", 1, 1)
    opts = push.push_options(rt, a, 1, mover=mover.id)
    assert opts and {o.action.kiwi for o in opts} == {twin.id}
    dest = board_of(rt.state).adjacent(a)[0]
    chosen = next(o for o in opts if o.action.to == dest)
    assert chosen.id == f"push:green/1@{a}->{dest}"
    drive(steps(rt, push.DO_PUSH.start("red", chosen.action, False)))
    assert rt.state.hexes[a].kiwi == (mover,) and rt.state.hexes[dest].kiwi == (twin,)
    assert push.push_options(rt, a, 1, mover=mover.id) == []


def test_no_engine_module_parses_an_option_id() -> None:
    """No procedure, Kiwibot or bot splits an option id for meaning."""
    pattern = re.compile(r'split\(":"|split\("->"|rsplit\("->"|rsplit\("@"|\.startswith\("(as|leader|push|marker)')
    offenders = []
    for path in list((ENGINE / "engine").glob("*.py")) + [ENGINE / "analysis" / "bots.py"]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert offenders == []


def test_a_kiwi_an_action_names_is_in_the_view_by_its_id() -> None:
    """A front-end draws `view()["hexes"][hex]["kiwi"]` with ids, so it can show which stack an action moves."""
    game = Game.new(ruleset(), ["red", "green", "purple"], seed=8)
    rng = random.Random(8)
    named = 0
    while not game.is_over and named < 200:
        view = game.view(game.pending.player)
        for o in game.pending.options:
            kiwi = getattr(o.action, "kiwi", None)
            if kiwi is not None:
                stacks = view["hexes"][o.action.hex]["kiwi"]
                assert any(s["id"] == kiwi and s["size"] == o.action.size and s["flock"] == o.action.flock
                           for s in stacks), (o.id, stacks)
                named += 1
        game.apply(rng.choice(game.pending.options).id)
    assert named >= 200
