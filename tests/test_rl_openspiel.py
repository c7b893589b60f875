"""The OpenSpiel game `kiwi_chow_down` (interpreter/rl/openspiel.py): its GameType, OpenSpiel's own random
simulation test in every mode (standard, Variable Turn Order R-VTO-1..5, solo R-SOLO-1..12), the resampling check
of OpenSpiel's ResampleInfostateTest (hidden cards and markers, R-ACT-2, R-DM-1, dealt again: the same
information state), and OpenSpiel's MCTS and IS-MCTS bots playing it."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import kcd.rl.openspiel  # noqa: E402,F401  (registers kiwi_chow_down)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from kcd.engine import Game  # noqa: E402


def test_the_game_is_registered_with_its_type() -> None:
    """Sequential, imperfect information, sampled-stochastic chance (the engine's in-state RNG), zero-sum for
    2-4 players and general-sum in solo; the action count is the ActionSpace's."""
    game = pyspiel.load_game("kiwi_chow_down")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM and game.num_players() == 2
    solo = pyspiel.load_game("kiwi_chow_down", {"players": 1, "mode": "solo"})
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM and solo.num_players() == 1
    four = pyspiel.load_game("kiwi_chow_down", {"players": 4})
    assert four.num_distinct_actions() == four.space.num_distinct_actions > game.num_distinct_actions()
    with pytest.raises(ValueError, match="2, 3 or 4"):
        pyspiel.load_game("kiwi_chow_down", {"players": 6})


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3, "mode": "vto"}, {"players": 1, "mode": "solo"}],
                         ids=["2p", "3p-vto", "solo"])
def test_openspiels_random_simulation_test_passes(params: dict) -> None:
    """pyspiel.random_sim_test: clones, legal actions sorted and named uniquely, observation and information-state
    tensors of the published sizes, returns within the utility range."""
    pyspiel.random_sim_test(pyspiel.load_game("kiwi_chow_down", params), num_sims=1, serialize=False, verbose=False)


def test_a_resampled_state_has_the_same_information_state() -> None:
    """OpenSpiel's ResampleInfostateTest in python: every 4th decision, for every player, the resampled world has
    the same information-state string and tensor, observation and current player; its hidden cards usually differ
    and its RNG always does (the true future draws stay out of the search)."""
    game = pyspiel.load_game("kiwi_chow_down", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = np.random.RandomState(2)
    checked = differs = n = 0
    while not state.is_terminal():
        if n % 4 == 0:
            for p in range(game.num_players()):
                world = state.resample_from_infostate(p, sampler)
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.information_state_tensor(p) == state.information_state_tensor(p)
                assert world.observation_tensor(p) == state.observation_tensor(p)
                assert world.current_player() == state.current_player()
                real, dealt = state.engine.readonly_state, world.engine.readonly_state
                assert dealt.rng != real.rng
                differs += any(dealt.flocks[f].hand != real.flocks[f].hand for f in real.seats)
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
        n += 1
    assert checked > 50 and differs > checked * 0.8


def test_openspiels_mcts_and_ismcts_bots_play_it() -> None:
    """MCTSBot (a perfect-information baseline: it clones the true state) and ISMCTSBot (information sets, worlds
    from resample_from_infostate) choose legal actions for 8 decisions; no clone replays a step."""
    game = pyspiel.load_game("kiwi_chow_down", {"players": 2, "seed": 5})
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rng),
            ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng,
                             allow_inconsistent_action_sets=True)]
    state = game.new_initial_state()
    replayed = Game.replayed_steps
    for i in range(8):
        legal = state.legal_actions()
        action = bots[i % 2].step(state)
        assert action in legal
        state.apply_action(action)
    assert len(state.engine.history) == 8 and Game.replayed_steps == replayed


def test_the_games_dealt_do_not_depend_on_tensor_size_queries() -> None:
    """OpenSpiel sizes a python game's tensors by observing a new initial state at every tensor call: those states
    deal from a stream of their own, so the sequence of games of a seeded game object stays the same."""
    a = pyspiel.load_game("kiwi_chow_down", {"seed": 9})
    b = pyspiel.load_game("kiwi_chow_down", {"seed": 9})
    seeds_a = [a.new_initial_state().engine.seed for _ in range(3)]
    seeds_b = []
    for _ in range(3):
        state = b.new_initial_state()
        seeds_b.append(state.engine.seed)
        state.observation_tensor(0)   # each sizes the tensor on a new initial state of its own
        state.information_state_tensor(1)
        state.apply_action(state.legal_actions()[0])
    assert seeds_a == seeds_b and len(set(seeds_a)) == 3
