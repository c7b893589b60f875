"""Kiwi Chow Down as an OpenSpiel python game, registered as `kiwi_chow_down` (needs the `rl` extra).

    import pyspiel
    import kcd.rl.openspiel   # registers the game
    game = pyspiel.load_game("kiwi_chow_down", {"players": 3, "mode": "vto"})

Parameters: `players` (2-4; 1 with `mode` "solo": one player against Kiwibot, who is part of the environment),
`mode` ("standard", "vto", "solo") and `seed` (each new initial state draws its game seed from a generator
seeded with it, so a game object gives the same sequence of games).

Game type: sequential, imperfect information, terminal rewards (the returns of interpreter/rl/rewards.py:
zero-sum for 2-4 players, general-sum in solo), and chance mode SAMPLED_STOCHASTIC. The engine draws every random
thing (shuffles, the fruit and domain bags, Kiwibot's cards) inside `apply` from the seeded RNG the state holds
(SPEC: all randomness comes from the state's RNG), so a draw is never a decision of its own and there are no chance
nodes: the deal and every later draw follow from the seed. `clone()` is exact (OpenSpiel's contract: the clone's
future is the original's, RNG included), so OpenSpiel's MCTS bot, which clones the true state, is a
perfect-information baseline that sees the deal. Information-set search goes through `resample_from_infostate`,
which is the engine's determiniser (interpreter/analysis/determinize.py, the one the `mcts` bot uses): it deals what the
player cannot see again and gives the world a new RNG drawn from the sampler, so neither the hidden cards nor the
true future draws reach the search.

Actions are the indices of `ActionSpace` (num_distinct_actions of the ruleset and player count); observations
are `ObservationSpace` tensors (`observation_tensor`), the information-state tensor is
`information_state_tensor`, and the information-state string is perfect recall: the player's seat and, for every
decision of the game so far, a digest of what that player observed then (their observation tensor) and, for
their own decisions, the action index they chose. Every part is leak-free, so a resampled world has the same
information-state string and tensor (tests/test_rl_openspiel.py runs OpenSpiel's random simulation test, the
resampling check, MCTS and IS-MCTS).
"""
from __future__ import annotations

import hashlib
import random
from typing import Any

import numpy as np
import pyspiel

from kcd.analysis.determinize import determinize
from kcd.engine.game import Game
from kcd.rl.actions import ActionSpace, action_space
from kcd.rl.observation import ObservationSpace, observation_space
from kcd.rl.pettingzoo import ENGINE_MODES, _ruleset, game_mode, learners_of, seats_for
from kcd.rl.rewards import returns
from kcd.analysis.sim import MAX_DECISIONS

NAME = "kiwi_chow_down"
_DEFAULTS = {"players": 2, "mode": "standard", "seed": 0}


def _game_type(utility: Any) -> Any:
    """The GameType (see the module docstring); `utility` zero-sum for 2-4 players, general-sum in solo."""
    return pyspiel.GameType(
        short_name=NAME, long_name="Kiwi Chow Down",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS))


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


class KiwiChowDownGame(pyspiel.Game):
    """The OpenSpiel game of one content set, player count and mode."""

    def __init__(self, params: dict | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        mode, players = str(params["mode"]), int(params["players"])
        self.ruleset = _ruleset(())
        self.mode = mode
        self.flocks = seats_for(self.ruleset, players, mode)
        self.space: ActionSpace = action_space(self.ruleset, len(self.flocks))
        self.obs: ObservationSpace = observation_space(self.ruleset, len(self.flocks))
        # against the engine's own seat (solo: Kiwibot) the learners' returns need not sum to zero
        against_engine = len(self.flocks) > players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_distinct_actions, max_chance_outcomes=0, num_players=players,
            min_utility=-1.0, max_utility=1.0, utility_sum=None if against_engine else 0.0,
            max_game_length=MAX_DECISIONS)
        game_type = _game_type(pyspiel.GameType.Utility.GENERAL_SUM) if against_engine else _GAME_TYPE
        super().__init__(game_type, info, params)
        self._seeds = np.random.default_rng(int(params["seed"]))
        self._observer_seeds = np.random.default_rng([int(params["seed"]), 1])

    def new_initial_state(self) -> "KiwiChowDownState":
        """A new game, its seed drawn from the game's seed generator when first read."""
        return KiwiChowDownState(self)

    def next_seed(self, observer: bool = False) -> int:
        """The seed of the next new game (`observer`: of a state an observer deals, see `observed_engine`)."""
        return int((self._observer_seeds if observer else self._seeds).integers(0, 2 ** 63))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "KiwiObserver":
        """The observation (default) or, for perfect recall, the information-state observer."""
        if params:
            raise ValueError(f"kiwi_chow_down observers take no parameters, got {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KiwiObserver(self, recall)


class _Box:
    """Holds a state's engine Game; OpenSpiel's clone deep-copies a state's attributes, and this copies the game
    with `Game.clone` (exact, RNG included) instead of walking every object it refers to."""

    def __init__(self, game: Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict) -> "_Box":
        return _Box(self.game.clone() if self.game is not None else None)


class _Shared:
    """What every copy of a state may share as it is (the OpenSpiel game): deep copies keep the same object."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> "_Shared":
        return self


class KiwiChowDownState(pyspiel.State):
    """One game in progress; the engine Game is built on first use (OpenSpiel's clone overwrites it at once)."""

    def __init__(self, game: KiwiChowDownGame) -> None:
        super().__init__(game)
        self._kiwi = _Shared(game)
        self._box = _Box(None)
        self._trails: tuple[tuple[str, ...], ...] = ()

    # --- the engine game --------------------------------------------------------------------------------
    @property
    def engine(self) -> Game:
        """The engine Game of this state."""
        game = self._box.game
        if game is None:
            game = self._build(self._kiwi.value.next_seed())
        return game

    def observed_engine(self) -> Game:
        """The engine Game for an observer. OpenSpiel asks a python game for its tensor sizes by observing a new
        initial state (every `observation_tensor` call does); such a state draws its seed from a stream of its own,
        so those queries leave the sequence of games `new_initial_state` deals as it is."""
        game = self._box.game
        if game is None:
            game = self._build(self._kiwi.value.next_seed(observer=True))
        return game

    def _build(self, seed: int) -> Game:
        """Deal this state's game."""
        kiwi: KiwiChowDownGame = self._kiwi.value
        game = self._box.game = Game.new(kiwi.ruleset, players=list(kiwi.flocks), seed=seed,
                                         mode=ENGINE_MODES[kiwi.mode][0], variant=ENGINE_MODES[kiwi.mode][1])
        self._trails = tuple((self._observed(p),) for p in range(len(self._learners())))
        return game

    def _learners(self) -> list[str]:
        """The flocks of OpenSpiel's players 0..n-1 (solo: the player alone)."""
        kiwi: KiwiChowDownGame = self._kiwi.value
        st = self.engine.readonly_state if self._box.game is not None else None
        if st is not None:
            return learners_of(self.engine)
        return game_mode(kiwi.mode).deciders(kiwi.flocks)

    def _observed(self, player: int) -> str:
        """A digest of what `player` observes now (their observation tensor)."""
        kiwi: KiwiChowDownGame = self._kiwi.value
        tensor = kiwi.obs.observation_tensor(self.engine, self._learners()[player])
        return hashlib.blake2b(tensor.tobytes(), digest_size=8).hexdigest()

    # --- the OpenSpiel API ------------------------------------------------------------------------------
    def current_player(self) -> int:
        """The player whose decision is pending, or TERMINAL."""
        game = self.engine
        pending = game.pending
        if pending is None:
            return pyspiel.PlayerId.TERMINAL
        return self._learners().index(pending.player)

    def _legal_actions(self, player: int) -> list[int]:
        """The legal action indices, ascending."""
        kiwi: KiwiChowDownGame = self._kiwi.value
        return sorted(kiwi.space.legal_indices(self.engine))

    def _apply_action(self, action: int) -> None:
        """Answer the pending decision with this action index."""
        kiwi: KiwiChowDownGame = self._kiwi.value
        game = self.engine
        player = self.current_player()
        chosen = kiwi.space.action_from_index(int(action), game)
        result = game.apply(chosen)
        if not result.ok:   # an engine refusal of a legal action would be an engine bug
            raise RuntimeError(f"the engine refused {chosen.id()}: {result}")
        self._trails = tuple(trail + ((f"{action}/" if p == player else "") + self._observed(p),)
                             for p, trail in enumerate(self._trails))

    def _action_to_string(self, player: int, action: int) -> str:
        """The option id when legal now, else the index's kind and fields."""
        kiwi: KiwiChowDownGame = self._kiwi.value
        game = self.engine
        legal = kiwi.space.legal_actions(game) if game.pending is not None else {}
        if action in legal:
            return legal[action].id()
        kind, fields = kiwi.space.describe(int(action))
        return f"{kind}{fields}"

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.engine.is_over

    def returns(self) -> list[float]:
        """Each player's return (interpreter/rl/rewards.py; zeros while the game runs)."""
        final = returns(self.engine)
        return [final[f] for f in self._learners()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "KiwiChowDownState":
        """A state `player_id` cannot tell from this one: the engine's determiniser, its RNG seeded from the
        sampler (`determinize`: hidden cards and markers dealt again, a new RNG)."""
        seed = int(probability_sampler() * 2 ** 53) if callable(probability_sampler) else random.getrandbits(53)
        rng = random.Random(seed)
        world = self.clone()
        world._box = _Box(determinize(self.engine, self._learners()[player_id], rng, events=True))
        return world

    def __str__(self) -> str:
        """The game's seed and every decision so far (two states with the same string are the same game)."""
        game = self.engine
        return f"seed {game.seed}: " + " ".join(game.history)


class KiwiObserver:
    """OpenSpiel's PyObserver: the observation tensor, or the information-state tensor and its perfect-recall
    string (see the module docstring)."""

    def __init__(self, game: KiwiChowDownGame, recall: bool) -> None:
        self.recall = recall
        self.obs = game.obs
        size = self.obs.information_state_size if recall else self.obs.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KiwiChowDownState, player: int) -> None:
        """Fill `tensor` with `player`'s view of `state`."""
        game = state.observed_engine()
        flock = state._learners()[player]
        tensor = (self.obs.information_state_tensor(game, flock) if self.recall
                  else self.obs.observation_tensor(game, flock))
        self.tensor[:] = tensor

    def string_from(self, state: KiwiChowDownState, player: int) -> str:
        """The information-state string (perfect recall) or the observation's non-zero entries."""
        game = state.observed_engine()
        if self.recall:
            return f"p{player} " + " ".join(state._trails[player])
        flock = state._learners()[player]
        tensor = self.obs.observation_tensor(game, flock)
        nonzero = np.flatnonzero(tensor)
        return " ".join(f"{i}:{tensor[i]:g}" for i in nonzero)


pyspiel.register_game(_GAME_TYPE, KiwiChowDownGame)
