"""The engine a game runs on, and the compiled kernels of the native engine (the optional extension kcd._native).

Two engines play the same rules with identical decisions: "python", the reference, and "native", which today is the
Python machine with compiled kernels for some of its pure functions over the island (native/kcd_native.cpp): the
dominance of every hex and the counts of one hex (kcd.core.dominance), the hexes a flock may build and mark on
(kcd.engine.build, kcd.engine.marking), and the sums of pieces by owner of a Season card objective
(kcd.engine.objective_plans). The kernels are exact ports; tests/test_native_kernels.py and
tests/test_native_lockstep.py hold them to the Python code.

A game's engine is kept by the identity of its `State.params` dict, which the game's states share (copies, clones,
checkpoints), so the state's JSON and the save format are unchanged (a loaded save runs on the default engine). The
table holds the latest `KEPT` games' dicts (about 2 KB each); an older game still running, like a loaded save, runs
on the default engine (the same decisions: only the speed differs). The default is "native" where the extension
is built, else "python"; `KCD_ENGINE=python|native` in the environment sets it (the CLI's `--engine` sets it, so
worker processes follow).
Asking for "native" where the extension is missing runs the Python machine and says so once.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType
from typing import Any

from kcd.core.state import Hex, Kiwi

ENGINES = ("native", "python")
ENV = "KCD_ENGINE"

def _load() -> tuple[ModuleType | None, str]:
    """The compiled kernels, bound to the island's classes, or None and why they are missing."""
    try:
        module = importlib.import_module("kcd._native")
    except ImportError as exc:   # not built: no compiler at install time, or a build that failed
        return None, str(exc)
    module.bind_types(Hex, Kiwi)   # the kernels read these classes' slots in place
    return module, ""


kernels, _MISSING = _load()

_told = False


# id(params) -> (params, engine), oldest first: the entry holds the dict, so its id is not reused while kept
_ENGINES: dict[int, tuple[dict[str, Any], str]] = {}
KEPT = 4096


def available() -> bool:
    """Whether the compiled kernels are built and importable."""
    return kernels is not None


def check(engine: str) -> str:
    """`engine` when it is an engine's name; a ValueError naming the choices otherwise."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}: choose one of {', '.join(ENGINES)}")
    return engine


def default() -> str:
    """The engine a game gets when none is asked for: $KCD_ENGINE, else native where built, else python."""
    asked = os.environ.get(ENV)
    if asked:
        return check(asked)
    return "native" if kernels is not None else "python"


def missing_reason() -> str:
    """Why the native kernels are not available ("" when they are)."""
    return "" if kernels is not None else f"the native kernels are not built ({_MISSING})"


def tell_missing() -> None:
    """Say once on stderr that the native engine was asked for but is not built, so the Python machine runs."""
    global _told
    if not _told and kernels is None:
        _told = True
        print(f"kcd: {missing_reason()}; running the Python machine (reinstall with a C++ compiler to build "
              "them: pip install -e .)", file=sys.stderr)


def resolve(engine: str | None) -> str:
    """The engine that runs for a request (None: the default): "native" only where built; a request for it
    elsewhere runs "python" and says so once."""
    name = default() if engine is None else check(engine)
    if name == "native" and kernels is None:
        tell_missing()
        return "python"
    return name


def bind(params: dict[str, Any], engine: str | None) -> str:
    """Run the game whose states share `params` on `engine` (None: the default); returns the engine that runs."""
    name = resolve(engine)
    _ENGINES.pop(id(params), None)
    while len(_ENGINES) >= KEPT:
        del _ENGINES[next(iter(_ENGINES))]
    _ENGINES[id(params)] = (params, name)
    return name


def engine_of(params: dict[str, Any]) -> str:
    """The engine a state with these params runs on (params no game was bound to, as a loaded save's: the
    default)."""
    hit = _ENGINES.get(id(params))
    if hit is not None and hit[0] is params:
        return hit[1]
    return resolve(None)


def kernels_for(params: dict[str, Any]) -> ModuleType | None:
    """The compiled kernels when these params' game runs on the native engine, else None."""
    return kernels if kernels is not None and engine_of(params) == "native" else None
