"""Train a small policy for Kiwi Chow Down against the random bot, with numpy only, and plot its win rate.

    .venv/bin/python examples/rl_train.py --minutes 3            # docs/images/rl_winrate.png
    .venv/bin/python examples/rl_train.py --games 40 --out /tmp/w.png

The policy is linear and softmax over the legal actions of the PettingZoo environment (kcd.rl.pettingzoo):
an action's preference is a weight of its index plus a weight of its kind (its block of the ActionSpace: `move`,
`build`, `pay` ...), so what it learns about one kind carries over to every hex and piece of that kind. It learns
by REINFORCE: after each game every one of its decisions moves its preferences by (G - baseline) times the
gradient of its log-probability, where G is the game's return for it (+1 won, -1 lost) plus a tenth of its final VP
difference (the environment's shaped reward, summed) and the baseline a running mean of G. It plays both seats in
turn against `kcd.analysis.bots.RandomBot`-style uniform choices. The plot shows the win rate of each block of
games; the random policy it starts from wins about half.
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np

from kcd.rl.pettingzoo import env
from kcd.rl.rewards import returns

ROOT = Path(__file__).resolve().parent.parent


class LinearPolicy:
    """Softmax over legal actions of index weights plus kind weights."""

    def __init__(self, space, lr: float, seed: int) -> None:
        self.kind_of = np.zeros(space.num_distinct_actions, dtype=np.intp)
        for k, block in enumerate(space.blocks.values()):
            self.kind_of[block.start:block.start + block.size] = k
        self.w_index = np.zeros(space.num_distinct_actions)
        self.w_kind = np.zeros(len(space.blocks))
        self.lr = lr
        self.rng = np.random.default_rng(seed)

    def probabilities(self, legal: np.ndarray) -> np.ndarray:
        """The policy over these legal indices."""
        logits = self.w_index[legal] + self.w_kind[self.kind_of[legal]]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, legal: np.ndarray) -> tuple[int, np.ndarray]:
        """A sampled legal index and the probabilities it was drawn from."""
        p = self.probabilities(legal)
        return int(legal[self.rng.choice(len(legal), p=p)]), p

    def update(self, steps: list[tuple[np.ndarray, np.ndarray, int]], advantage: float) -> None:
        """REINFORCE: raise the log-probability of each chosen action by `advantage`."""
        for legal, p, chosen in steps:
            grad = -p
            grad[int(np.flatnonzero(legal == chosen)[0])] += 1.0
            step = self.lr * advantage * grad
            np.add.at(self.w_index, legal, step)
            np.add.at(self.w_kind, self.kind_of[legal], step)


def play(e, policy: LinearPolicy, learner: str, opponent: random.Random, seed: int) -> tuple[float, float, list]:
    """One game: the learner's return, its summed shaped reward, and its (legal, probabilities, choice) steps."""
    e.reset(seed=seed)
    flock = e.infos[learner]["flock"]
    steps: list[tuple[np.ndarray, np.ndarray, int]] = []
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
        if agent == learner:
            action, p = policy.act(legal)
            steps.append((legal, p, action))
        else:
            action = int(legal[opponent.randrange(len(legal))])
        e.step(action)
    won = 1.0 if returns(e.game)[flock] > 0 else 0.0
    return won, total[learner], steps


def train(minutes: float | None, games: int | None, seed: int, block: int) -> tuple[list[int], list[float], float]:
    """Train until the time or game budget is spent; (games played at each block's end, win rate of each block,
    CPU seconds)."""
    e = env(players=2, shaped=True, shaping=0.1)
    policy = LinearPolicy(e.space, lr=0.05, seed=seed)
    opponent = random.Random(seed + 1)
    deadline = time.process_time() + minutes * 60 if minutes is not None else None
    baseline, n = 0.0, 0
    wins: list[float] = []
    xs: list[int] = []
    rates: list[float] = []
    start = time.process_time()
    while (games is None or n < games) and (deadline is None or time.process_time() < deadline):
        learner = e.possible_agents[n % 2]   # both seats in turn
        won, shaped_return, steps = play(e, policy, learner, opponent, seed * 100_000 + n)
        baseline += 0.02 * (shaped_return - baseline)
        policy.update(steps, shaped_return - baseline)
        wins.append(won)
        n += 1
        if n % block == 0:
            xs.append(n)
            rates.append(float(np.mean(wins[-block:])))
            print(f"  {n:6d} games: win rate {rates[-1]:.2f} over the last {block}", flush=True)
    return xs, rates, time.process_time() - start


def plot(xs: list[int], rates: list[float], out: Path, cpu: float) -> None:
    """Save the win-rate curve."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    ax.plot(xs, rates, marker="o", markersize=3, color="#2a7a3b", label="learner (linear softmax, REINFORCE)")
    ax.axhline(0.5, color="#999999", linestyle="--", linewidth=1, label="random against random")
    ax.set_xlabel("training games")
    ax.set_ylabel("win rate against the random bot")
    ax.set_ylim(0, 1)
    ax.set_title(f"Kiwi Chow Down, 2 players: {xs[-1] if xs else 0} games, {cpu / 60:.1f} CPU minutes")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    plt.close(fig)


def main() -> None:
    """Parse the flags, train, plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=None, help="CPU minutes to train (default 3 without --games)")
    parser.add_argument("--games", type=int, default=None, help="games to train (stops at whichever comes first)")
    parser.add_argument("--block", type=int, default=None, help="games per plotted point (default: about 30 points)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "rl_winrate.png")
    args = parser.parse_args()
    minutes = args.minutes if args.minutes is not None or args.games is not None else 3.0
    block = args.block or (max(2, args.games // 10) if args.games else 100)
    xs, rates, cpu = train(minutes, args.games, args.seed, block)
    plot(xs, rates, args.out, cpu)
    first, last = (rates[0], rates[-1]) if rates else (float("nan"), float("nan"))
    print(f"{xs[-1] if xs else 0} games in {cpu:.0f} s CPU: win rate {first:.2f} in the first block, "
          f"{last:.2f} in the last; plot: {args.out}")


if __name__ == "__main__":
    main()
