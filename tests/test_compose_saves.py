"""Saves in the middle of a compose decision: every compose program names the points where it waits
for an answer (its Asks) and checks its loaded env (`check`), and the program that asked recomputes its question
from the loaded state (`check_answer`), so a save whose compose continuation waits at the wrong point, holds
malformed values, or whose pending decision is not the one the program asks (another kind, player or options) is
refused with ValueError, and any mutation of such a save is a ValueError or a game that plays on legally."""
from __future__ import annotations

import functools
import json
import random
import tempfile
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_compose_labels import _games, _pick, make_verbs_ruleset
from test_engine_saves import _mutate, _paths

from kcd.engine import Game
from kcd.engine.machine import PROGRAMS


@functools.lru_cache(maxsize=None)
def _saves() -> tuple[tuple[object, str, str, int], ...]:
    """(ruleset, save, top program, where it waits) at the first decision each compose program asks at each of its
    Asks, in games of the compose, example and verbs mods."""
    with tempfile.TemporaryDirectory(prefix="kcd-verbs-") as tmp:
        rs = make_verbs_ruleset(Path(tmp) / "content")
    out: dict[tuple[str, int], tuple[object, str, str, int]] = {}
    for game in _games(rs):
        # (seeded choices that reach every compose step, `push_to` at step 2 too, since decisions whose option
        # count depends on hidden markers are asked even with one option)
        rng = random.Random(game.seed + 2 * 7777)
        while not game.is_over:
            top = game._stack[-1]
            if top.kind.startswith("compose.") and (top.kind, top.label) not in out:
                out[(top.kind, top.label)] = (game.ruleset, game.to_json(), top.kind, top.label)
            assert game.apply(_pick(game, rng)).ok
    return tuple(out[k] for k in sorted(out))


def _top(data: dict) -> dict:
    return data["frames"][-1]


def test_every_compose_step_that_asks_saves_and_loads_without_replay() -> None:
    """Each compose program at each Ask: the save loads from its continuations (nothing replayed), asks the same
    decision, and continues like the original."""
    steps = {(kind, at) for _, _, kind, at in _saves()}
    assert {("compose.phrase", "player"), ("compose.push_to", "dest"), ("compose.move_to", "piece"),
            ("compose.move_to", "dest"), ("compose.push_out", "piece"), ("compose.place_on", "hex"),
            ("compose.grow", "kiwi"), ("compose.act_on_kiwi", "kiwi"), ("compose.swap", "first"),
            ("compose.swap", "second"), ("compose.return_fruit", "fruit"), ("compose.jump_to", "hex")} <= steps
    for rs, text, kind, at in _saves():
        before = Game.replayed_steps
        game = Game.from_json(rs, text)
        assert Game.replayed_steps == before and game._stack[-1].kind == kind and game._stack[-1].label == at
        original = Game.from_json(rs, text, verify=True)
        assert game.pending == original.pending and game.pending.prompt == original.pending.prompt
        option = game.pending.options[-1]
        assert [o.label for o in game.pending.options] == [o.label for o in original.pending.options]
        assert game.apply(option.id).ok and original.apply(option.id).ok
        assert game.to_json() == original.to_json()


def test_every_compose_program_declares_where_it_asks() -> None:
    """Every compose program checks its loaded env; the programs that ask recompute their question
    (`check_answer`), so the pending decision is checked against it."""
    programs = {pid: p for pid, p in PROGRAMS.items() if pid.startswith("compose.")}
    assert len(programs) == 15   # with `choose <players>` and `this action:`
    for pid, prog in programs.items():
        assert prog.check is not None, pid
        assert bool(prog.asks) == (prog.check_answer is not None), pid


def _refused(rs, data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.from_json(rs, json.dumps(data))


def _save(kind: str, at: str) -> tuple[object, dict]:
    for rs, text, k, a in _saves():
        if (k, a) == (kind, at):
            return rs, json.loads(text)
    raise AssertionError(f"no save at {kind} {at}")


@pytest.mark.parametrize("kind,at,step,message", [
    ("compose.push_to", "dest", "start", "is not an Ask or Call"), ("compose.phrase", "player", "verb", "asks nothing|chosen players"),
    ("compose.place_on", "hex", "token", "asks nothing"), ("compose.place_on", "hex", "benefit", "asks nothing"),
    ("compose.return_fruit", "fruit", "done", "is not an Ask or Call"),
    ("compose.push_out", "piece", "push", "asks nothing")])
def test_a_compose_program_on_top_where_it_asks_nothing_is_refused(kind: str, at: str, step: str,
                                                                   message: str) -> None:
    rs, data = _save(kind, at)
    _top(data)["at"] = step
    _refused(rs, data, message)


@pytest.mark.parametrize("kind,at,step,message", [
    ("compose.swap", "second", "first", "not the one it asks at first|asks `swap` there"),   # the first piece
    ("compose.move_to", "dest", "piece", "a piece to pick after|not the one it asks"),  # where it goes, not which
    ("compose.swap", "first", "second", "no first piece|not the one it asks"),
])
def test_a_pending_decision_of_another_ask_is_refused(kind: str, at: str, step: str, message: str) -> None:
    rs, data = _save(kind, at)
    _top(data)["at"] = step
    _refused(rs, data, message)


@pytest.mark.parametrize("kind,at", [("compose.push_to", "dest"), ("compose.phrase", "player"),
                                     ("compose.grow", "kiwi"), ("compose.return_fruit", "fruit"),
                                     ("compose.jump_to", "hex"), ("compose.place_on", "hex")])
def test_a_pending_decision_that_is_not_the_programs_question_is_refused(kind: str, at: str) -> None:
    """Another kind, another player, an option less or an option the program does not offer: refused."""
    rs, data = _save(kind, at)
    pending = data["pending"]
    other = next(p for p in data["state"]["seats"] if p != pending["player"])
    for change in ("kind", "player", "fewer", "swap-order"):
        copy = json.loads(json.dumps(data))
        p = copy["pending"]
        if change == "kind":
            p["kind"] = "feed" if p["kind"] != "feed" else "push"
        elif change == "player":
            p["player"] = other
        elif change == "fewer":
            if len(p["options"]) < 3:
                continue
            p["options"].pop()
        else:
            p["options"].reverse()
        _refused(rs, copy, "is not the one it asks|decision, but frames")   # (its kinds, or its question)


@pytest.mark.parametrize("kind,at,name,value,message", [
    ("compose.push_to", "dest", "els", [{"$": "tuple", "v": ["kiwi", "Z9", {"$": "tuple", "v": [1, "teal"]}]}],
     "not of the game"),
    ("compose.push_to", "dest", "els", [{"$": "tuple", "v": ["kiwi", "A1", "teal"]}], "not of the game"),
    ("compose.push_to", "dest", "i", 7, "step 7 of"),
    ("compose.push_to", "dest", "chosen", ["blue"], "chosen player|chosen players"),
    ("compose.phrase", "player", "chosen", ["teal", "green", "red", "teal"], "chosen players"),
    ("compose.push_out", "piece", "budget", 5, "pushes left"),
    ("compose.push_out", "piece", "hexes", ["Q7"], "not a hex of the island"),
    ("compose.push_out", "piece", "i", 40, "step 40 of"),
    ("compose.place_on", "hex", "source", {"$": "tuple", "v": ["track"]}, "not where a token comes from"),
    ("compose.place_on", "hex", "left", 1000, "Kiwi left"),
    ("compose.place_on", "hex", "hexes", [3], "not a hex of the island"),
    ("compose.return_fruit", "fruit", "left", -5, "fruit left"),
    ("compose.swap", "second", "first", {"$": "tuple", "v": ["leader", "A1", "nobody"]}, "not of the game"),
    ("compose.grow", "kiwi", "els", [], "a Kiwi to pick after"),
])
def test_malformed_values_of_a_compose_continuation_are_refused(kind: str, at: str, name: str, value: object,
                                                                message: str) -> None:
    rs, data = _save(kind, at)
    _top(data)["env"][name] = value
    _refused(rs, data, message)


def test_a_compose_frame_running_another_node_or_context_is_refused() -> None:
    """The node address of a compose continuation must be a node of its kind (a phrase of its own verb); its
    context's `it` an element of the game."""
    rs, data = _save("compose.push_to", "dest")
    nodes = _top(data)["env"]["node"]
    assert nodes["$"] == "node"
    for address in (0, nodes["a"] + 1):
        copy = json.loads(json.dumps(data))
        _top(copy)["env"]["node"] = {"$": "node", "a": address}
        _refused(rs, copy, "not a phrase|another verb|not")
    copy = json.loads(json.dumps(data))
    ctx = _top(copy)["env"]["ctx"]
    if ctx["$"] == "ref":   # the context is written once, by the first frame or continuation holding it
        values = [f.get("env", f.get("fields", {})) for f in copy["frames"]]
        ctx = next(v["ctx"] for v in values if v.get("ctx", {}).get("r") == ctx["r"] and "v" in v["ctx"])
    ctx["v"]["it"] = {"$": "tuple", "v": ["kiwi", "A1", 5]}
    _refused(rs, copy, "`it` is not an element")


@st.composite
def _compose_mutations(draw: st.DrawFn) -> tuple[int, str]:
    """One to three mutations inside the frames, pending decision or `previous` of a save in a compose decision, most
    of them in the compose continuation that asked or its question."""
    index = draw(st.integers(0, len(_saves()) - 1))
    data = json.loads(_saves()[index][1])
    top = len(data["frames"]) - 1
    where = [p for p in _paths(data) if p and p[0] in ("frames", "pending", "previous")]
    mine = [p for p in where if p[:2] == ("frames", top) or p[0] == "pending"]   # mostly the compose frame's own
    return index, _mutate(draw, data, mine if draw(st.integers(0, 3)) else where)


@settings(max_examples=200, deadline=timedelta(seconds=4), suppress_health_check=[HealthCheck.too_slow],
          derandomize=True)
@given(case=_compose_mutations())
def test_mutated_compose_decisions_raise_value_error_or_continue_legally(case: tuple[int, str]) -> None:
    """Mutations of a save in the middle of a compose decision: ValueError, or a game that plays on legally."""
    index, text = case
    rs = _saves()[index][0]
    try:
        game = Game.from_json(rs, text)
    except ValueError:
        return
    assert Game.from_json(rs, game.to_json()).to_json() == game.to_json()
    rng = random.Random(len(text))
    for _ in range(25):
        if game.is_over:
            break
        assert game.apply(rng.choice(game.pending.options).id).ok
    game.clone()
