"""The `mcts` bot: information-set Monte Carlo tree search over its own decisions (SO-ISMCTS).

Each iteration deals the hidden information again (interpreter/determinize.py: what the bot's player cannot
see, sampled from the bot's own RNG, never the game's), walks one tree of the bot's own decisions with UCB1,
adds one node, and scores the position where the search horizon stops it with the greedy bot's heuristic
(`interpreter.bots.evaluate`). Over many deals the tree's statistics average over what the bot cannot know;
the move played is the root option visited most.

Why this shape:
- One tree for the observer (Cowling, Powley & Whitehouse's SO-ISMCTS): a node is a sequence of the bot's own
  option ids, so every deal shares statistics. An option a deal does not offer (a chance draw changed what is
  legal) is simply not available in that iteration; UCB counts each child's availability, not its parent's
  visits (ISMCTS's "subset-armed bandit").
- Opponents are not in the tree. Their decisions hide information (a card played face down, which card they
  chose), so a tree over them would need their information sets too, and the bot's plan for its own turn is
  what a decision changes most: a turn here is a chain of small decisions (a card, how to play it, which Kiwi
  moves where, each push, each payment), and the greedy bot judges each link one step ahead only. The
  horizon is therefore the end of the bot's run of decisions: the search stops when another player is to
  decide, when the step (the turn, the marking, ...) ends, or when the game ends, and the heuristic values
  what the whole plan achieved. A random rollout to the end of the game costs about 30 times an iteration
  (a game is 120-250 decisions) and random play says little about a plan, so the heuristic judges instead.
- Leaf values are normalised by the range seen so far in the search, so UCB's exploration constant does not
  depend on the heuristic's scale. A node's value blends its mean with its best leaf value (mixmax, `mix`):
  the bot makes every decision in its tree, so a line is worth its best continuation more than the average of
  everything UCB tried below it (measured on 40 paired two-player games at 100 iterations: 65% against greedy
  with the blend, 52% with plain means).
- A fixed budget stops early once the most visited root option leads by more than the iterations left: the
  same choice, about a quarter less CPU.

Budget: by default deterministic work shared out by the expected cost of an iteration (`iterations_for`), or a
fixed number of `iterations` (both deterministic: the same seed and game always give the same choice), or
`cpu_ms` (CPU milliseconds per decision; a faster or idler machine searches more, so results vary). `make_mcts(seed,
"500ms")` / `make_mcts(seed, "300it")` are the `mcts:500ms` / `mcts:300it` bot names of `interpreter.bots`.
"""
from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field

from interpreter.heuristic import Weights, evaluate
from interpreter.determinize import determinize
from interpreter.engine import Game

# The default budget is deterministic work, not time: an iteration costs about 0.12 ms CPU per flock, times
# (1 + d/8) d decisions into the step (each deal replays the step so far: Game.clone), measured on the project
# machine. So the default search runs DEFAULT_WORK // (flocks * (1 + d/8)) iterations (450 at a two-player turn's
# first decision, 225 at a four-player one's) and stops early once its choice cannot change: about 0.1 s CPU a
# decision and at most 0.2 s (benchmarks/bench_mcts.py `speed` prints the figures; 1000 measured a 0.21 s worst).
DEFAULT_WORK = 900
MIN_ITERATIONS = 50
_BUDGET = re.compile(r"^(\d+)\s*(it|ms)?$")


@dataclass
class _Node:
    """Statistics of one sequence of the bot's own options."""

    visits: int = 0
    total: float = 0.0      # sum of the leaf values backed up through this node
    available: int = 0      # how many iterations offered this node's option (ISMCTS's UCB denominator)
    best: float = -math.inf  # the highest leaf value backed up through this node
    children: dict[str, "_Node"] = field(default_factory=dict)


@dataclass
class MctsBot:
    """Information-set MCTS on the greedy heuristic; `iterations` or `cpu_ms` per decision when given, else the
    default work budget (`iterations_for`)."""

    seed: int
    iterations: int | None = None
    cpu_ms: float | None = None
    exploration: float = 0.7
    mix: float = 0.5        # weight of a child's best leaf value against its mean (mixmax): the bot controls every
    # decision in its tree, so a plan is worth its best line more than the average of all it tried
    final: str = "visits"   # the move played: the root option visited most ("visits") or valued best ("value")
    weights: Weights = Weights()
    name: str = "mcts"
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"mcts needs at least 1 iteration, got {self.iterations}")
        if self.cpu_ms is not None and self.cpu_ms <= 0:
            raise ValueError(f"mcts needs a positive time budget, got {self.cpu_ms} ms")
        self.rng = random.Random(self.seed)

    def choose(self, game: Game) -> str:
        """The root option the search visited most (ties: the better mean, then option order)."""
        decision = game.pending
        assert decision is not None, "a bot is asked only while a decision is pending"
        options = [o.id for o in decision.options]
        if len(options) == 1:
            return options[0]
        root = self.search(game)
        tried = [o for o in options if o in root.children and root.children[o].visits]
        if self.final == "value":   # the best blended value, then visits
            return max(tried, key=lambda o: (self._value(root.children[o]), root.children[o].visits))
        return max(tried, key=lambda o: (root.children[o].visits, self._value(root.children[o])))

    def _value(self, node: _Node) -> float:
        """A node's value: its mean leaf value blended with its best one (`mix`)."""
        return (1 - self.mix) * node.total / node.visits + self.mix * node.best

    def search(self, game: Game) -> _Node:
        """Run the budget's iterations from `game` (its pending decision is the bot's) and return the root."""
        assert game.pending is not None, "a bot is asked only while a decision is pending"
        player = game.pending.player
        key = _step_key(game)
        root = _Node()
        bounds = [math.inf, -math.inf]   # the lowest and highest leaf value seen: for normalising
        deadline = time.process_time() + self.cpu_ms / 1000 if self.cpu_ms is not None else None
        budget = self.iterations if self.iterations is not None else iterations_for(game)
        done = 0
        while True:
            if deadline is not None:
                if done and time.process_time() >= deadline:
                    break
            elif done >= budget:
                break
            self._iterate(game, player, key, root, bounds)
            done += 1
            if deadline is None and _decided(root, budget - done):
                break   # the most visited option stays the most visited whatever the rest would do
        return root

    def _iterate(self, game: Game, player: str, key: tuple, root: _Node, bounds: list[float]) -> None:
        """One deal, one walk down the tree, one new node, one evaluation, one backup."""
        world = determinize(game, player, self.rng)
        node, path = root, [root]
        while True:
            assert world.pending is not None   # _horizon stops at the end of the game
            options = [o.id for o in world.pending.options]
            for option in options:
                child = node.children.get(option)
                if child is not None:
                    child.available += 1
            untried = [o for o in options if o not in node.children]
            if untried:
                option = untried[self.rng.randrange(len(untried))]
                child = node.children[option] = _Node(available=1)
                world.apply(option)
                path.append(child)
                break
            option = self._select(node, options, bounds)
            world.apply(option)
            node = node.children[option]
            path.append(node)
            if _horizon(world, player, key):
                break
        value = evaluate(world, player, self.weights)
        bounds[0] = min(bounds[0], value)
        bounds[1] = max(bounds[1], value)
        for n in path:
            n.visits += 1
            n.total += value
            if value > n.best:
                n.best = value

    def _select(self, node: _Node, options: list[str], bounds: list[float]) -> str:
        """UCB1 over the options this deal offers, with availability counts and normalised means."""
        low, high = bounds
        span = high - low if high > low else 1.0
        best, best_score = options[0], -math.inf
        for option in options:
            child = node.children[option]
            mean = (self._value(child) - low) / span
            score = mean + self.exploration * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = option, score
        return best


def _decided(root: _Node, left: int) -> bool:
    """True when the root's most visited child leads the next by more than the iterations left."""
    first = second = 0
    for child in root.children.values():
        if child.visits > first:
            first, second = child.visits, first
        elif child.visits > second:
            second = child.visits
    return first - second > left


def iterations_for(game: Game, work: int = DEFAULT_WORK) -> int:
    """The default budget's iterations at this decision: `work` shared out by each iteration's expected cost."""
    cost = len(game.state.seats) * (1 + game.step_depth / 8)
    return max(MIN_ITERATIONS, int(work // cost))


def _step_key(game: Game) -> tuple:
    """Where the flow is: (season, phase, step)."""
    st = game.state
    return st.season, st.phase, st.step


def _horizon(world: Game, player: str, key: tuple) -> bool:
    """The search stops here: the game is over, someone else decides, or the bot's step has ended."""
    return world.pending is None or world.pending.player != player or _step_key(world) != key   # None: over


def parse_budget(text: str) -> dict:
    """`300it` / `300` -> {"iterations": 300}; `500ms` -> {"cpu_ms": 500.0}; ValueError naming the forms."""
    match = _BUDGET.match(text.strip().lower())
    if not match or int(match.group(1)) < 1:
        raise ValueError(f"bad mcts budget `{text}`: use iterations (`mcts:300it`) or CPU milliseconds per "
                         f"decision (`mcts:500ms`), a whole number from 1")
    n = int(match.group(1))
    return {"cpu_ms": float(n)} if match.group(2) == "ms" else {"iterations": n}


def make_mcts(seed: int, budget: str | None = None) -> MctsBot:
    """The `mcts` bot with the default budget, or `mcts:<budget>` (see `parse_budget`)."""
    if budget is None:
        return MctsBot(seed)
    return MctsBot(seed, name=f"mcts:{budget}", **parse_budget(budget))
