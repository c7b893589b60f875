"""Edited saves: every mutation of a real save either loads and plays on legally to the end, or is a ValueError
naming the field (Game.from_json checks interpreter/engine/invariants.py on the state and its checkpoint, and runs
the running step again from its checkpoint: the saved state, frames and pending decision must be what it gives).

The harness mutates saves of standard 2-4 player, Variable Turn Order, solo, advanced-setup and mid-step games,
and a finished game: values replaced, deleted, nudged, duplicated or swapped anywhere, and edits a person would
make (more fruit than the limit, a Leader without a hex, a card not in hand, a hex that does not exist, markers a
payer does not hold). A loaded game plays random legal decisions to the end with every invariant checked after
each: no exception, ever. 300 mutations here; `KCD_SAVE_MUTATIONS=30000` runs more (R-LIMIT-1, R-LEAD-4, R-PAY-1,
R-COMP-1/2).
"""
from __future__ import annotations

import copy
import functools
import json
import os
import random
import re

from test_engine_saves import _paths
from test_engine_support import ruleset

from kcd.engine import Game
from kcd.engine.invariants import violations

MUTATIONS = int(os.environ.get("KCD_SAVE_MUTATIONS", "300"))
# a refusal names the part of the save it is about
FIELD = re.compile(r"\b(format|content.hash|seed|setup|start|history|redo|step_start|checkpoint|state|frames|"
                   r"pending|previous)\b|JSON|schema")


@functools.lru_cache(maxsize=None)
def _saves() -> tuple[str, ...]:
    """Real saves at many moments: every 37th decision of seeded games of each mode, mid-step ones included."""
    out = []
    cases = [(["red", "green"], {}), (["red", "green", "purple"], {}), (["red", "green", "purple", "yellow"], {}),
             (["yellow", "red", "green"], {"variant": "vto"}), (["green", "red"], {"mode": "solo"}),
             (["red", "green"], {"setup": "advanced", "sides": {"red": "B", "green": "B"}})]
    for seed, (players, kw) in enumerate(cases):
        game = Game.new(ruleset(), players=players, seed=seed, **kw)
        rng = random.Random(seed)
        n = 0
        while not game.is_over:
            if n % 37 == 5:
                out.append(game.to_json())
            assert game.apply(rng.choice(game.pending.options).id).ok
            n += 1
        out.append(game.to_json())
    return tuple(out)


_VALUES = [None, True, 0, 1, -1, 2, 3, 7, 11, 25, 10 ** 6, "", "red", "green", "A1", "Z99", "over", "move", "build",
           "wild", "chopan", "tree-1", "flower", "sand", "pass", "stop", "facedown", [], {}, ["sand"], {"red": 11}]


def _edit(rng: random.Random, data: dict) -> None:
    """One edit a person might make to a save's state (and, half the time, its checkpoint to match)."""
    parts = [p for p in ("state", "checkpoint") if isinstance(data.get(p), dict)]
    targets = parts if rng.random() < 0.5 else parts[:1]
    kind = rng.choice(["fruit", "leader", "hand", "hex", "markers", "bag"])
    pick = rng.random()
    for part in targets:
        st = data[part]
        flocks = st.get("flocks") or []
        if not flocks:
            return
        f = flocks[int(pick * len(flocks))]
        if kind == "fruit":
            f["fruit"][rng.choice(list(f["fruit"]) or ["red"])] = f["fruit"].get("red", 0) + 11
        elif kind == "leader":
            f["leader_hex"] = rng.choice([None, "Z99", st["hexes"][0][0] if st.get("hexes") else "A1"])
        elif kind == "hand":
            f["hand"] = f["hand"][1:] if f["hand"] else ["move"]
        elif kind == "hex" and st.get("hexes"):
            st["hexes"][int(pick * len(st["hexes"]))][0] = "Z99"
        elif kind == "markers":
            f["domain"] = f["domain"][1:] if f["domain"] else ["sand"]
        elif kind == "bag":
            bag = st["domain_bag"]
            for t in bag:
                if bag[t]:
                    bag[t] -= 1
                    f["domain"].append(t)
                    break


def _mutate(rng: random.Random, text: str) -> str:
    """One to three random mutations (replace, delete, nudge, duplicate, swap) or person-made edits."""
    data = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.3:
            try:
                _edit(rng, data)
            except (TypeError, KeyError, IndexError, AttributeError, StopIteration):
                pass   # an earlier mutation changed the shape this edit needs
            continue
        paths = _paths(data)[1:]
        path = rng.choice(paths)
        parent: object = data
        try:
            for key in path[:-1]:
                parent = parent[key]   # type: ignore[index]
            key = path[-1]
            current = parent[key]   # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            continue
        how = rng.choice(["replace", "delete", "nudge", "duplicate", "swap"])
        if how == "replace":
            parent[key] = copy.deepcopy(rng.choice(_VALUES))   # type: ignore[index]
        elif how == "delete":
            del parent[key]   # type: ignore[attr-defined]
        elif how == "nudge" and isinstance(current, int) and not isinstance(current, bool):
            parent[key] = current + rng.choice([-1, 1, 2, -20, 10 ** 6])   # type: ignore[index]
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(current))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = rng.randrange(len(parent))
            parent[key], parent[other] = parent[other], parent[key]
    return json.dumps(data)


def _plays_to_the_end(game: Game, seed: int) -> int:
    """Random legal decisions to the end, every invariant checked after each; the decisions made."""
    rules = game.rules
    start = game._origin.get("start")
    leaderless = {f["id"] for f in start["flocks"] if f["leader_hex"] is None} if start else set()
    rng = random.Random(seed)
    n = 0
    assert Game.from_json(ruleset(), game.to_json()).to_json() == game.to_json()
    while not game.is_over:
        assert game.apply(rng.choice(game.pending.options).id).ok
        found = violations(game.state, rules, game.pending, leaderless)
        assert not found, found
        n += 1
        assert n < 5000
    return n


def test_mutated_saves_are_a_value_error_naming_the_field_or_play_to_the_end() -> None:
    """R-LIMIT-1, R-LEAD-4, R-PAY-1, R-COMP-1/2: MUTATIONS mutated saves (see the module docstring)."""
    rng = random.Random(20)
    saves = _saves()
    loaded = refused = 0
    for i in range(MUTATIONS):
        text = _mutate(rng, rng.choice(saves))
        try:
            game = Game.from_json(ruleset(), text)
        except ValueError as exc:
            assert FIELD.search(str(exc)), str(exc)
            refused += 1
            continue
        _plays_to_the_end(game, i)
        loaded += 1
    assert refused > MUTATIONS // 3 and loaded > 10, (loaded, refused)


def test_the_edits_of_the_issue_are_refused_naming_the_field() -> None:
    """More fruit than the limit (in a finished game too), a Leader with no hex, a card not in hand, a hex that does
    not exist, markers a payer does not hold: ValueError naming the field."""
    saves = _saves()
    finished = json.loads(saves[-1])
    running_saves = [json.loads(s) for s in saves if json.loads(s)["pending"] is not None]
    running = next((d for d in running_saves if d["pending"]["kind"] == "pay"), running_saves[0])

    def refused(data: dict, pattern: str) -> None:
        try:
            Game.from_json(ruleset(), json.dumps(data))
        except ValueError as exc:
            assert re.search(pattern, str(exc)), str(exc)
            return
        raise AssertionError(f"loaded: {pattern}")

    for base in (finished, running):
        for part in ("state", "checkpoint"):
            data = copy.deepcopy(base)
            for where in {"state", part}:
                st = data[where]
                colour = next(c for c, n in st["fruit_bag"].items() if n >= 11)
                st["fruit_bag"][colour] -= 11
                st["flocks"][0]["fruit"][colour] = st["flocks"][0]["fruit"].get(colour, 0) + 11
            refused(data, r"(state|checkpoint).*flocks/\w+/fruit")
        data = copy.deepcopy(base)
        data["state"]["flocks"][0]["leader_hex"] = None
        data["checkpoint"]["flocks"][0]["leader_hex"] = None
        refused(data, r"(state|checkpoint)/flocks/\w+/leader_hex|Leader")
        data = copy.deepcopy(base)
        data["state"]["hexes"][0][0] = "Z99"
        refused(data, r"state")
    data = copy.deepcopy(running)
    fl = data["state"]["flocks"][[f["id"] for f in data["state"]["flocks"]].index(data["pending"]["player"])]
    if fl["domain"]:
        data["state"]["domain_bag"][fl["domain"][0]] += 1
        fl["domain"] = fl["domain"][1:]
        refused(data, r"state|pending|frames")
