"""Golden playthroughs: seeded full games (every decision and its events) compared exactly.

Regenerate only on purpose: `python -m kcd.analysis.sim --regen-golden`, or run this test with
KCD_REGEN_GOLDEN=1 (it then rewrites the files and passes).
"""
from __future__ import annotations

import json
import os

import pytest

from kcd.content import load_ruleset
from kcd.analysis.sim import GOLDEN_DIR, GOLDEN_GAMES, GOLDEN_SOLO_GAMES, golden_playthrough


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def _pinned(name: str, actual: dict) -> tuple[dict, dict, str]:
    """(pinned record, the played record as JSON data, a hint for failure messages); KCD_REGEN_GOLDEN=1 re-pins."""
    path = GOLDEN_DIR / f"{name}.json"
    if os.environ.get("KCD_REGEN_GOLDEN") == "1":
        path.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert path.exists(), f"{path} missing: run `python -m kcd.analysis.sim --regen-golden`"
    expected = json.loads(path.read_text(encoding="utf-8"))
    hint = ("; the content changed since it was pinned" if expected.get("content_hash") != actual["content_hash"]
            else "") + ": if the change is intended, run `python -m kcd.analysis.sim --regen-golden` and review the diff"
    return expected, json.loads(json.dumps(actual)), hint

@pytest.mark.parametrize("name,players,seed,bots,variant", GOLDEN_GAMES, ids=[g[0] for g in GOLDEN_GAMES])
def test_golden_playthrough(ruleset, name: str, players: int, seed: int, bots: tuple[str, ...],
                            variant: str | None) -> None:
    """The game replays exactly as pinned: same decisions, same events, same result (standard and R-VTO games)."""
    actual = golden_playthrough(ruleset, players, seed, bots, variant)
    expected, actual, hint = _pinned(name, actual)
    for i, (want, got) in enumerate(zip(expected["steps"], actual["steps"])):
        assert got == want, f"{name}: first difference at decision {i}{hint}"
    assert len(actual["steps"]) == len(expected["steps"]), f"{name}: game length differs{hint}"
    assert actual["result"] == expected["result"], f"{name}: result differs{hint}"


@pytest.mark.parametrize("index", [0, len(GOLDEN_GAMES) - 1], ids=[GOLDEN_GAMES[0][0], GOLDEN_GAMES[-1][0]])
def test_golden_replay_through_json(ruleset, index: int) -> None:
    """The pinned decisions replayed one by one through Game.apply reach the same result (no bots involved)."""
    from kcd.engine import Game

    name, players, seed, _, variant = GOLDEN_GAMES[index]
    data = json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    assert data["variant"] == variant
    game = Game.new(ruleset, players=data["players"], seed=seed, variant=variant)
    for i, step in enumerate(data["steps"]):
        assert game.pending.player == step["player"], i
        result = game.apply(step["option"])
        assert result.ok, (i, step)
        if i % 97 == 0:  # a mid-game save/load continues identically
            game = Game.from_json(ruleset, game.to_json())
    assert game.is_over
    assert {f: dict(s) for f, s in game.scores().items()} == data["result"]["scores"]


@pytest.mark.parametrize("name,seed,bots,solo_side", GOLDEN_SOLO_GAMES, ids=[g[0] for g in GOLDEN_SOLO_GAMES])
def test_R_SOLO_golden_playthrough_against_kiwibot(ruleset, name: str, seed: int, bots: tuple[str, ...],
                                                   solo_side: str | None) -> None:
    """R-SOLO-1..12: a seeded solo game replays exactly as pinned: Kiwibot's opening turn, every player decision
    with the events it caused (Kiwibot's turns included), the Season card pairs and the solo VP."""
    actual = golden_playthrough(ruleset, 2, seed, bots, mode="solo", solo_side=solo_side)
    expected, actual, hint = _pinned(name, actual)
    assert actual["start_events"] == expected["start_events"], f"{name}: setup or Kiwibot's opening differs{hint}"
    for i, (want, got) in enumerate(zip(expected["steps"], actual["steps"])):
        assert got == want, f"{name}: first difference at decision {i}{hint}"
    assert len(actual["steps"]) == len(expected["steps"]), f"{name}: game length differs{hint}"
    assert actual["result"] == expected["result"], f"{name}: result differs{hint}"
    # the pinned game is a real solo game: Kiwibot never decides, two Season cards a season, solo VP scored
    kiwibot, player = expected["result"]["kiwibot"], expected["players"][0]
    assert expected["result"]["mode"] == "solo" and kiwibot == expected["players"][1]
    assert {step["player"] for step in expected["steps"]} == {player}
    assert [c["season"] for c in expected["result"]["season_cards"]] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert all("solo" in s for s in expected["result"]["scores"].values())
    assert any(line.startswith(f"Kiwibot ({kiwibot}) reveals") for step in expected["steps"] for line in step["events"])


@pytest.mark.parametrize("name,seed,bots,solo_side", GOLDEN_SOLO_GAMES, ids=[g[0] for g in GOLDEN_SOLO_GAMES])
def test_R_SOLO_golden_replay_through_json(ruleset, name: str, seed: int, bots: tuple[str, ...],
                                           solo_side: str | None) -> None:
    """R-SOLO-7: the pinned player decisions alone (Kiwibot needs none) replay the solo game through Game.apply,
    with save/load on the way, to the pinned scores."""
    from kcd.engine import Game

    data = json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    game = Game.new(ruleset, players=data["players"], seed=seed, mode="solo", solo_side=solo_side)
    for i, step in enumerate(data["steps"]):
        assert game.pending.player == step["player"], i
        assert game.apply(step["option"]).ok, (i, step)
        if i % 17 == 0:
            game = Game.from_json(ruleset, game.to_json())
    assert game.is_over
    assert {f: dict(s) for f, s in game.scores().items()} == data["result"]["scores"]
