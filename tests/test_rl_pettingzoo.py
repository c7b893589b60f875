"""The PettingZoo AEC environment (interpreter/rl/pettingzoo.py): PettingZoo's own API test and seed test in
every mode (standard, Variable Turn Order R-VTO-1..5, solo R-SOLO-1..12), whole games whose final rewards are the
returns of the ranking (R-END-2/3), the shaped reward, and clear errors for bad arguments and illegal actions;
the shipped mods (`compose`, `reeds`, `example`) run through it too."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from kcd.rl.pettingzoo import env  # noqa: E402
from kcd.rl.rewards import returns  # noqa: E402

CASES = [{"players": 2}, {"players": 4, "mode": "vto"}, {"mode": "solo"}, {"players": 3, "shaped": True},
         {"players": 3, "packs": ("compose",)}, {"players": 2, "packs": ("reeds", "example")}]


@pytest.mark.parametrize("kwargs", CASES, ids=["2p", "4p-vto", "solo", "3p-shaped", "3p-compose-mod", "2p-reeds+example"])
def test_pettingzoos_api_and_seed_tests_pass(kwargs: dict) -> None:
    """pettingzoo.test.api_test and seed_test, each over a whole game (its warnings are about dict observations,
    which PettingZoo's own board games use too)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(**kwargs), num_cycles=400)
        seed_test(lambda: env(**kwargs), num_cycles=400)


def _play(e, seed: int) -> dict[str, float]:
    """A random game through the environment; every agent's summed reward."""
    e.reset(seed=seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        mask = obs["action_mask"]
        # one legal action is a real question too: the engine asks it where answering alone would tell hidden facts
        assert mask.sum() >= 1 and e.game.pending.player == info["flock"]
        e.step(int(e.action_space(agent).sample(mask)))
        steps += 1
    assert steps > 50 and e.agents == []
    return total


def test_a_whole_game_ends_with_the_returns_of_the_ranking() -> None:
    """Every agent's rewards add up to its return (+1/-1 for two players); shaped rewards add the VP difference."""
    e = env(players=2)
    total = _play(e, 3)
    final = returns(e.game)
    seats = e.game.readonly_state.seats
    assert total == {"player_0": final[seats[0]], "player_1": final[seats[1]]}
    assert sorted(total.values()) == [-1.0, 1.0]
    shaped = env(players=2, shaped=True, shaping=0.5)
    total = _play(shaped, 3)
    scores, seats = shaped.game.scores(), shaped.game.readonly_state.seats
    want = returns(shaped.game)[seats[0]] + 0.5 * (scores[seats[0]]["total"] - scores[seats[1]]["total"])
    assert total["player_0"] == pytest.approx(want)


def test_the_mask_is_empty_for_agents_not_deciding_and_bad_input_is_refused() -> None:
    """Only the deciding agent's mask has legal indices; an illegal index, a bad mode or player count is a
    ValueError naming it."""
    e = env(players=3)
    e.reset(seed=1)
    deciding = e.agent_selection
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == deciding)
    illegal = int(np.flatnonzero(e.observe(deciding)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        e.step(illegal)
    with pytest.raises(ValueError, match="unknown mode `chess`"):
        env(mode="chess")
    with pytest.raises(ValueError, match="players=1"):
        env(players=2, mode="solo")
    with pytest.raises(ValueError, match="2, 3 or 4"):
        env(players=5)
