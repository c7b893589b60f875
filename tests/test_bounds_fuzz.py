"""Hypothesis: random valid mods play. Each example writes a random mod (random DSL effects from the
registry in track slots, Nests, leader cards, flock powers, Wildcards and Season cards), keeps it only if it
validates, and plays it a few dozen decisions deep (standard or solo, random flocks, sides and choices): no
exception, no refused legal option, and no effect nesting deeper than the checker's bound for that mod.
The soak script benchmarks/soak_mods.py plays thousands of them."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from kcd.core import paths
from kcd.content import clear_caches
from kcd.analysis.random_mods import mod_files, play_mod, write_mod

_ROOT: dict[str, Path] = {}
_SEEN = {"valid": 0, "examples": 0}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One scratch copy of the content for the module; each example writes its own pack."""
    base = tmp_path_factory.mktemp("mods") / "content"
    shutil.copytree(paths.content_dir(), base)
    shutil.copytree(paths.schemas_dir(), base.parent / "schemas")
    return base


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), chain=st.sampled_from((0.05, 0.15, 0.25)))
def test_random_valid_mods_play(root: Path, seed: int, chain: float) -> None:
    """Any mod that validates plays: every failure here is a bug in the checker's bound or in the engine."""
    rng = random.Random(seed)
    pack = f"h{seed}"
    write_mod(root, pack, mod_files(rng, pack, chain=chain))
    try:
        outcome = play_mod(root, pack, rng, decisions=60)
    finally:
        shutil.rmtree(root / "mods" / pack)
        clear_caches()
    note(f"seed {seed}, chain {chain}: {outcome}")
    _SEEN["examples"] += 1
    if outcome.valid:
        _SEEN["valid"] += 1
        assert outcome.failure is None, outcome.failure
        assert outcome.decisions > 0 and outcome.max_depth <= outcome.bound_depth


def test_the_random_mods_were_mostly_valid_and_played() -> None:
    """The property above was not vacuous: enough of its mods validated and were played."""
    if _SEEN["examples"] == 0:
        pytest.skip("run together with test_random_valid_mods_play")
    assert _SEEN["valid"] >= 3, _SEEN
