"""The `mcts` bot: information-set Monte Carlo tree search over its own decisions (SO-ISMCTS).

Each iteration deals the hidden information again (interpreter/analysis/determinize.py: what the bot's player cannot
see, sampled from the bot's own RNG, never the game's), walks one tree of the bot's own decisions with UCB1,
adds one node, plays on with random options of its own up to the search horizon (a short rollout), and scores
the position there with the greedy bot's heuristic (`kcd.analysis.heuristic.evaluate`). Over many deals the tree's statistics average over what the bot cannot know;
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
- The rollout finishes the plan a new node starts (at most `rollout` random options, to the horizon): scored
  half-way through a turn, a card chosen but not yet played looks like every other card, so the tree could
  tell plans apart only once it had grown to the end of each. With the best-leaf blend below, a node's value
  follows its best finished plan found so far. Measured at 225 iterations a step start, 40 four-player games
  against three greedy bots: 37 won with rollouts, 18 without.
- The subtree of the option played is kept: when the bot's next decision is the next link of the same plan (the
  same step, the history one decision longer), its visits count towards that decision's budget.
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
"500ms")` / `make_mcts(seed, "300it")` are the `mcts:500ms` / `mcts:300it` bot names of `kcd.analysis.bots`.
"""
from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field

from kcd.analysis.heuristic import Weights, evaluate
from kcd.analysis.determinize import determinize
from kcd.engine import Game

# The default budget is deterministic work, not time. With rollouts an iteration costs about the same in two- and
# four-player games (it plays the bot's turn to its end either way), more (1 + d/DEPTH_COST) d decisions into the
# step (each deal replays the step so far: Game.clone; and the kept subtree already holds visits there) and SOLO_COST
# times as much in solo games (the last apply plays Kiwibot's turn), measured on the project machine. So the default search runs DEFAULT_WORK // cost iterations, at
# most PER_OPTION per option and one (a choice among 2 or 3 settles sooner), and stops early once its choice cannot
# change: benchmarks/bench_mcts.py `speed` prints the figures (mean about 0.05 s CPU a decision, at most 0.17 s
# measured at load 9: 270 iterations and 40 per option reached 0.24 s).
DEFAULT_WORK = 240
MIN_ITERATIONS = 50
PER_OPTION = 30
DEPTH_COST = 4    # each decision of the step so far adds a quarter of a step-start iteration (replay, kept subtree)
SOLO_COST = 1.3   # a solo iteration's last step also plays Kiwibot's whole turn
# Some decisions cost far more per iteration than the model above says (the last apply plays a Season change, a
# Domain Marking or Kiwibot's turn), so the default budget also counts the engine's work, deterministically: the
# events each deal ends with (the step's replayed ones and the new). Measured: an iteration costs about 0.24 ms
# CPU and an event 0.054 ms, so EVENTS_PER_ITERATION events weigh one iteration and the search stops at WORK_CAP
# weighed iterations (about 0.17 s CPU; WORK_CAP / SOLO_COST in solo games, where an event of Kiwibot's costs more:
# 0.21 s was measured with the whole cap); a typical decision weighs 300-500 and never meets the cap.
EVENTS_PER_ITERATION = 4.5
WORK_CAP = 700
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
    rollout: int = 8        # after the new node, play up to this many random options of the bot's own towards the
    # horizon before scoring: a leaf is then judged on a finished plan, not half a turn (4 players, 40 games against
    # three greedy bots at 225 iterations a step start, both with the kept subtree: 37 wins with 8, 18 without)
    reuse: bool = True      # keep the chosen option's subtree for the bot's next decision of the same step
    weights: Weights = Weights()
    name: str = "mcts"
    rng: random.Random = field(init=False, repr=False)
    _kept: tuple | None = field(default=None, init=False, repr=False)
    capped: int = field(default=0, init=False)   # decisions the default budget's WORK_CAP stopped

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
        root, bounds = self.search(game)
        tried = [o for o in options if o in root.children and root.children[o].visits]
        if self.final == "value":   # the best blended value, then visits
            pick = max(tried, key=lambda o: (self._value(root.children[o]), root.children[o].visits))
        else:
            pick = max(tried, key=lambda o: (root.children[o].visits, self._value(root.children[o])))
        if self.reuse:
            self._kept = (game.ruleset, decision.player, _step_key(game), game.history + [pick],
                          root.children[pick], bounds)
        return pick

    def _reused(self, game: Game, player: str, key: tuple) -> tuple[_Node, list[float]] | None:
        """The subtree kept from the previous decision when `game` stands where that decision's pick led."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        ruleset, who, step, history, node, bounds = kept
        if ruleset is not game.ruleset or who != player or step != key or history != game.history:
            return None
        return node, bounds

    def _value(self, node: _Node) -> float:
        """A node's value: its mean leaf value blended with its best one (`mix`)."""
        return (1 - self.mix) * node.total / node.visits + self.mix * node.best

    def search(self, game: Game) -> tuple[_Node, list[float]]:
        """Run the budget's iterations from `game` (its pending decision is the bot's); the root and the value
        bounds. A root kept from the previous decision counts its visits towards the budget."""
        assert game.pending is not None, "a bot is asked only while a decision is pending"
        player = game.pending.player
        key = _step_key(game)
        kept = self._reused(game, player, key) if self.reuse else None
        root, bounds = kept if kept is not None else (_Node(), [math.inf, -math.inf])
        deadline = time.process_time() + self.cpu_ms / 1000 if self.cpu_ms is not None else None
        budget = self.iterations if self.iterations is not None else iterations_for(game)
        done = min(root.visits, max(0, budget - MIN_ITERATIONS)) if deadline is None else 0
        work = new = 0   # events the deals ended with, iterations run here
        capped = self.iterations is None and deadline is None
        # the engine's own seats (Kiwibot's patterns) cost more per event
        cap = WORK_CAP / (SOLO_COST if game.mode.engine_flocks(game.state) else 1)
        while True:
            if deadline is not None:
                if done and time.process_time() >= deadline:
                    break
            elif done >= budget:
                break
            elif capped and new + work / EVENTS_PER_ITERATION >= cap:
                self.capped += 1   # the engine work ran over before the iterations did
                break
            work += self._iterate(game, player, key, root, bounds)
            done += 1
            new += 1
            if deadline is None and _decided(root, budget - done):
                break   # the most visited option stays the most visited whatever the rest would do
        return root, bounds

    def _iterate(self, game: Game, player: str, key: tuple, root: _Node, bounds: list[float]) -> int:
        """One deal, one walk down the tree, one new node, one evaluation, one backup; the events of the step so far
        in the deal at the end (replayed and new: a measure of the engine work the iteration did)."""
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
        for _ in range(self.rollout):
            if _horizon(world, player, key):
                break
            assert world.pending is not None   # _horizon stops at the end of the game
            offered = world.pending.options
            world.apply(offered[self.rng.randrange(len(offered))].id)
        value = evaluate(world, player, self.weights)
        bounds[0] = min(bounds[0], value)
        bounds[1] = max(bounds[1], value)
        for n in path:
            n.visits += 1
            n.total += value
            if value > n.best:
                n.best = value
        return len(world.events)

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


def iterations_for(game: Game, work: int | None = None) -> int:
    """The default budget's iterations at this decision: `work` (default DEFAULT_WORK) shared out by each
    iteration's expected cost."""
    work = DEFAULT_WORK if work is None else work
    cost = (1 + game.step_depth / DEPTH_COST) * (SOLO_COST if game.mode.engine_flocks(game.state) else 1)
    per_option = PER_OPTION * (1 + len(game.pending.options)) if game.pending is not None else DEFAULT_WORK
    return max(MIN_ITERATIONS, min(per_option, int(work // cost)))


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
