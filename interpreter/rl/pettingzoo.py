"""A PettingZoo AEC environment of Kiwi Chow Down (needs the `rl` extra: `pip install -e '.[rl]'`).

    from kcd.rl.pettingzoo import env
    e = env(players=2)                       # mode="standard" | "vto" | "solo" (players=1: you against Kiwibot)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are `player_0` .. `player_<n-1>` in seat order (the ruleset's default seat order, `sim.default_flocks`;
`info["flock"]` names each one's flock). The agent to act is the one whose decision is pending, so turns do not
simply alternate: a turn is a chain of small decisions (a card, how to play it, which Kiwi moves where, each
payment). Each observation is a dict: `observation`, the player's `ObservationSpace` tensor (float32, Box 0..255),
and `action_mask`, an int8 array of `ActionSpace.num_distinct_actions` (all zeros for an agent not deciding);
an action is an index of the ActionSpace, and an index that is not legal raises ValueError. Rewards are the final
returns (`kcd.rl.rewards.returns`: +1/-1 for 2 players, spread evenly for 3-4, ties split) when the game
ends; `shaped=True` adds `shaping` times each step's change of every player's VP difference. The game always ends,
so nothing is truncated. Neither the observation nor the mask builds any text (labels, prompts, the log).
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from kcd.engine import mode_registry as modes
from kcd.engine.game import Game
from kcd.rl.actions import ActionSpace, action_space
from kcd.rl.observation import ObservationSpace, observation_space
from kcd.rl.rewards import returns, vp_difference

# An environment's `mode`: a registered mode, or a variant by its own name (`vto`: the standard mode's variant),
# as the engine's (mode, variant)
ENGINE_MODES: dict[str, tuple[str, str | None]] = {m.variant or m.name: (m.name, m.variant) for m in modes.all_modes()}
MODES = tuple(ENGINE_MODES)
OBS_HIGH = 255.0   # every tensor value is a count or a flag; no count of the game comes near it


def _ruleset(packs: tuple[str, ...]) -> Any:
    """The shipped content with these packs (loaded once per pack list)."""
    from kcd.content import load_ruleset
    key = tuple(packs)
    hit = _RULESETS.get(key)
    if hit is None:
        hit = _RULESETS[key] = load_ruleset(list(key))
    return hit


_RULESETS: dict[tuple[str, ...], Any] = {}


def seats_for(ruleset: Any, players: int, mode: str) -> list[str]:
    """The flocks of a game: the default seat order's first `players` (solo: the player and Kiwibot's flock)."""
    from kcd.analysis.sim import default_flocks
    chosen = game_mode(mode)
    if chosen.player_count is not None:   # a fixed cast: only the deciding seats learn (solo: the player)
        learners = learner_count(chosen)
        if players != learners:
            raise ValueError(f"a {mode} game is {chosen.seats_text}: players={learners}, got {players}")
        return default_flocks(ruleset, chosen.player_count)
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2, 3 or 4 for mode `{mode}`, got {players}")
    return default_flocks(ruleset, players)


def game_mode(mode: str) -> Any:
    """The engine's mode (kcd.engine.mode_registry) of an environment's `mode`; ValueError naming the known ones."""
    if mode not in ENGINE_MODES:
        raise ValueError(f"unknown mode `{mode}`: use one of {', '.join(MODES)}")
    return modes.select(*ENGINE_MODES[mode])


def learner_count(chosen: Any) -> int:
    """How many seats of a fixed-cast mode a person or a bot decides for (solo: 1, the engine plays Kiwibot)."""
    return sum(role.decides for role in chosen.seat_roles(chosen.player_count or 0))


def learners_of(game: Game) -> list[str]:
    """The flocks that decide, in seat order (the engine plays the others: solo's Kiwibot)."""
    st = game.readonly_state
    engine = game.mode.engine_flocks(st)
    return [f for f in st.seats if f not in engine]


class KiwiChowDownEnv(AECEnv):
    """Kiwi Chow Down as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "kiwi_chow_down_v0", "is_parallelizable": False}

    def __init__(self, players: int | None = None, mode: str = "standard", packs: tuple[str, ...] = (), ruleset: Any = None,
                 shaped: bool = False, shaping: float = 0.1, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.ruleset = ruleset if ruleset is not None else _ruleset(tuple(packs))
        self.mode = mode
        if players is None:
            chosen = game_mode(mode)
            players = learner_count(chosen) if chosen.player_count is not None else 2
        self.flocks = seats_for(self.ruleset, players, mode)
        self.render_mode = render_mode
        self.shaped, self.shaping = shaped, float(shaping)
        self.space: ActionSpace = action_space(self.ruleset, len(self.flocks))
        self.obs_space: ObservationSpace = observation_space(self.ruleset, len(self.flocks))
        self.game: Game | None = None
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._flock_of: dict[str, str] = {}
        self._agent_of: dict[str, str] = {}
        n = self.space.num_distinct_actions
        box = gymnasium.spaces.Box(0.0, OBS_HIGH, self.obs_space.shape, np.float32)
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": box, "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self._potential: dict[str, float] = {}
        self._zero_rewards: dict[str, float] = {}   # `rewards` while no step has rewarded anyone: never changed
        self._seeds = np.random.default_rng()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """The agent's action space: Discrete(num_distinct_actions) (the same object every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; `seed` makes it (and the environment's later unseeded resets) reproducible."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2 ** 63))
        name, variant = ENGINE_MODES[self.mode]
        self.game = Game.new(self.ruleset, players=list(self.flocks), seed=game_seed, mode=name, variant=variant)
        learners = learners_of(self.game)
        self._flock_of = dict(zip(self.possible_agents, learners))
        self._agent_of = {f: a for a, f in self._flock_of.items()}
        self.agents = list(self.possible_agents)
        self.rewards = self._zero_rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"flock": self._flock_of[a]} for a in self.agents}
        if self.shaped:
            self._potential = {a: vp_difference(self.game, f) for a, f in self._flock_of.items()}
        self._select()

    @property
    def mode_name(self) -> str:
        """The engine's mode of the game (`vto` is the standard mode's variant)."""
        return ENGINE_MODES[self.mode][0]

    def _select(self) -> None:
        """The agent whose decision is pending (the first agent once the game is over)."""
        assert self.game is not None
        pending = self.game.pending
        self.agent_selection = self._agent_of[pending.player] if pending is not None else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation tensor and action mask (zeros unless it is deciding)."""
        game = self.game
        assert game is not None, "reset() first"
        flock = self._flock_of[agent]
        # the mask: bytes set one by one (a decision has a few dozen options at most), then one int8 array over them
        # (a third faster than numpy's zeros and an index array)
        buf = bytearray(self.space.num_distinct_actions)
        pending = game.pending
        if pending is not None and pending.player == flock:
            for i in self.space._indices(pending):
                buf[i] = 1
        mask = np.frombuffer(buf, np.int8)
        # `ObservationSpace.observation_tensor` is its `_gather` (one call less on every step), handed the pending
        # decision read here
        return {"observation": self.obs_space._gather(game, flock, pending), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """The current agent's observation (None unless `observe`), cumulative reward, terminated, truncated and
        info (AECEnv.last's values)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def step(self, action: Any) -> None:
        """Answer the pending decision with an action index (None for an agent whose game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None, "reset() first"
        # `ActionSpace.option_from_index` and `_select` written out (every step runs them)
        pending = game.pending
        if pending is None:
            chosen = self.space.option_from_index(int(action), game)   # its ValueError
        else:
            try:
                chosen = pending.options[self.space._indices(pending).index(int(action))]
            except ValueError:
                chosen = self.space.option_from_index(int(action), game)   # its ValueError, naming the index
        self._cumulative_rewards[agent] = 0.0
        result = game.apply(chosen.id)   # the option's id: no action to build and write out again
        if not result.ok:   # an engine refusal of a legal action would be an engine bug
            raise RuntimeError(f"the engine refused {chosen.id}: {result}")
        pending = game.pending   # None once the game is over
        self.agent_selection = self._agent_of[pending.player] if pending is not None else self.agents[0]
        if not self.shaped and pending is not None:
            # nobody is rewarded (most steps): `rewards` stays the dict of zeros and nothing accumulates
            if self._zero_rewards is not self.rewards:
                self.rewards = self._zero_rewards = dict.fromkeys(self.agents, 0.0)
            return
        rewards = dict.fromkeys(self.agents, 0.0)
        if self.shaped:
            for a, f in self._flock_of.items():
                now = vp_difference(game, f)
                rewards[a] = self.shaping * (now - self._potential[a])
                self._potential[a] = now
        if game.is_over:
            final = returns(game)
            for a, f in self._flock_of.items():
                rewards[a] += final[f]
                self.terminations[a] = True
        self.rewards = rewards
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game as text (render_mode "ansi"): scores, the season and phase and who decides."""
        if self.render_mode is None or self.game is None:
            return None
        st = self.game.readonly_state
        pending = self.game.pending
        who = f"{pending.player} decides: {pending.prompt}" if pending is not None else "game over"
        scores = ", ".join(f"{f} {s['total']} VP" for f, s in self.game.scores().items())
        return f"season {st.season}, {st.phase}; {who}; {scores}"

    def close(self) -> None:
        """Nothing to release."""


def env(players: int | None = None, mode: str = "standard", **kwargs: Any) -> KiwiChowDownEnv:
    """A Kiwi Chow Down AEC environment (see KiwiChowDownEnv): `players` 2-4 (default 2), or 1 with mode="solo"."""
    return KiwiChowDownEnv(players=players, mode=mode, **kwargs)


raw_env = env
