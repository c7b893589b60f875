"""Learning-agent speed: random agents through the PettingZoo environment against the bare engine, and OpenSpiel's
own games measured the same way.

Plain script (prints figures, asserts nothing): `.venv/bin/python benchmarks/bench_rl.py [--games N] [--players P]
[--openspiel-games M]` (needs the `rl` extra). Every figure is games per CPU second on one core (the machine is
shared, so CPU time rather than wall time):

- engine: random-bot games of `kcd.analysis.sim.play_game` (benchmarks/bench_engine.py's loop);
- AEC env: `kcd.rl.pettingzoo.env`, a random agent that reads `last()` (the observation tensor and the
  action mask) at every step and samples a legal index from the mask; target >= 50% of the engine's rate;
- OpenSpiel, the same loop on `pyspiel` games: at every step the current player's observation tensor (where the
  game has one) and the legal actions mask, then a random legal action. C++ games (chess, hearts) and python
  games (tic_tac_toe, kuhn_poker) of OpenSpiel, and kiwi_chow_down itself through OpenSpiel.
"""
from __future__ import annotations

import argparse
import random
import time
from statistics import median
from typing import Any, Iterable

import numpy as np

from kcd.content import load_ruleset
from kcd.analysis.sim import default_flocks, play_game
from kcd.apps.cli.play_options import seed_arg
from kcd.analysis.simrun import lean_gc


def engine_rate(games: int, players: int, seed: int) -> tuple[float, int]:
    """Bare engine: random-bot games per CPU second, and decisions played."""
    ruleset = load_ruleset()
    flocks = default_flocks(ruleset, players)
    play_game(ruleset, flocks, seed - 1, ("random",))   # warm caches
    decisions = 0
    cpu = time.process_time()
    for i in range(games):
        decisions += play_game(ruleset, flocks, seed + i, ("random",)).decisions
    return games / (time.process_time() - cpu), decisions


def aec_rate(games: int, players: int, seed: int) -> tuple[float, int]:
    """The AEC environment with a random agent reading the observation and mask every step: games per CPU second."""
    from kcd.rl.pettingzoo import env
    e = env(players=players)
    rng = random.Random(seed)   # the agent's own choice: Python's RNG (numpy's Generator costs microseconds a call)
    aec_games(e, rng, [seed - 1])   # warm caches (the spaces, option ids), as the engine's figure plays a game first
    cpu = time.process_time()
    steps = aec_games(e, rng, range(seed, seed + games))
    return games / (time.process_time() - cpu), steps


def aec_games(e: Any, rng: random.Random, seeds: Iterable[int]) -> int:
    """Random-agent games through an AEC environment, one a seed: `last()` (the observation and the mask) at
    every step, a legal index sampled from the mask; the steps played."""
    steps = 0
    for seed in seeds:
        e.reset(seed=seed)
        for _ in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))   # 0/1 bytes: a bool view, 15x faster
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps


def openspiel_rate(name: str, games: int, seed: int, params: dict | None = None) -> tuple[float, int]:
    """An OpenSpiel game through pyspiel: observation tensor (if any) and legal actions mask every step, a random
    legal action; games per CPU second, and steps."""
    import pyspiel
    from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401  (register the python games)
    if name == "kiwi_chow_down":
        import kcd.rl.openspiel  # noqa: F401  (registers it)
    game = pyspiel.load_game(name, params or {})
    tensor = game.get_type().provides_observation_tensor
    rng = np.random.default_rng(seed)
    steps = 0
    cpu = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            player = state.current_player()
            if tensor:
                state.observation_tensor(player)
            mask = state.legal_actions_mask(player)
            legal = np.flatnonzero(mask)
            state.apply_action(int(legal[rng.integers(len(legal))]))
            steps += 1
    return games / (time.process_time() - cpu), steps


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--openspiel-games", type=int, default=20)
    parser.add_argument("--seed", type=seed_arg, default=1000)
    parser.add_argument("--rounds", type=int, default=5, help="alternating engine/environment rounds")
    args = parser.parse_args()
    with lean_gc():
        # the host is shared: the engine and the environment run in alternating rounds, and the ratio is the
        # median of the rounds' ratios (each round's two figures come from the same minutes)
        rounds = max(1, args.rounds)
        per = max(1, args.games // rounds)
        engines, aecs, ratios = [], [], []
        for r in range(rounds):
            engine, decisions = engine_rate(per, args.players, args.seed + r * per)
            aec, steps = aec_rate(per, args.players, args.seed + r * per)
            engines.append(engine)
            aecs.append(aec)
            ratios.append(aec / engine)
        print(f"{args.players}-player random games, {rounds} alternating rounds of {per}, games per CPU second "
              f"(one core), median (range):")
        print(f"  bare engine      {median(engines):8.1f}  ({min(engines):.0f}-{max(engines):.0f}; "
              f"{decisions / per:.0f} decisions a game)")
        print(f"  PettingZoo AEC   {median(aecs):8.1f}  ({min(aecs):.0f}-{max(aecs):.0f}; {steps / per:.0f} steps a "
              f"game, {median(aecs) * steps / per:,.0f} steps per CPU second; observation and mask every step)")
        print(f"  AEC / engine     {100 * median(ratios):7.0f}%  ({100 * min(ratios):.0f}-{100 * max(ratios):.0f}%; "
              f"target >= 50%)")
        if args.openspiel_games <= 0:   # --openspiel-games 0: the Kiwi Chow Down rounds only
            return
        print(f"OpenSpiel, the same loop (observation tensor and legal actions mask every step), "
              f"{args.openspiel_games} games each:")
        for name, params, n in [("chess", None, args.openspiel_games), ("hearts", None, args.openspiel_games),
                                ("tic_tac_toe", None, args.openspiel_games * 20),
                                ("python_tic_tac_toe", None, args.openspiel_games * 20),
                                ("python_kuhn_poker", None, args.openspiel_games * 20),
                                ("kiwi_chow_down", {"players": args.players}, max(1, args.openspiel_games // 2))]:
            try:
                rate, steps = openspiel_rate(name, n, args.seed, params)
            except Exception as exc:   # a pyspiel build without that game: say so, measure the rest
                print(f"  {name:18s} not measured: {type(exc).__name__}: {str(exc).splitlines()[0][:80]}")
                continue
            print(f"  {name:18s} {rate:8.1f}  ({steps / n:.0f} steps a game, {rate * steps / n:,.0f} steps per CPU "
                  f"second)")


if __name__ == "__main__":
    main()
