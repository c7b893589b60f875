"""Bots: anything that picks an option id for the pending decision of a Game (SPEC.md "Bots and simulation").

A front-end implements `Bot` (a `name` and `choose(game) -> option id`). Two bots ship:
- `random`: a uniformly random legal option, from its own seeded RNG (the fastest; used for invariants).
- `greedy`: one-ply lookahead: clone the game, apply each option (at most `max_options` of them, a
  deterministic sample when there are more), score the resulting position for the deciding flock with a
  heuristic of VP, dominance and resources, and take the best (ties broken by its seeded RNG).
Bots never touch the game's own RNG, so a game replays exactly from (ruleset, seed, decisions).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

from interpreter.engine import Game


@runtime_checkable
class Bot(Protocol):
    """Picks one option id of `game.pending`."""

    name: str

    def choose(self, game: Game) -> str:
        """Return the id of one option of game.pending."""
        ...


@dataclass
class RandomBot:
    """Uniformly random legal option, deterministic from its seed."""

    seed: int
    name: str = "random"
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game) -> str:
        """A random option of the pending decision."""
        options = game.pending.options
        return options[self.rng.randrange(len(options))].id


@dataclass(frozen=True)
class Weights:
    """How the greedy heuristic values one flock's position (VP dominate; the rest steers towards VP)."""

    vp: float = 10.0
    dominated_hex: float = 2.5
    domain_marker: float = 1.2   # each unused marker is a likely VP in the last Domain Marking (R-END-1)
    fruit: float = 0.4
    island_token: float = 0.5    # Kiwi tokens on the island: dominance material (R-DOM-2)
    opponent_vp: float = 3.0     # a little spite: the best opponent's VP count against us


def evaluate(game: Game, flock: str, weights: Weights = Weights()) -> float:
    """Heuristic value of the position for `flock`, from the engine's own scoring and dominance."""
    from interpreter.engine import dominance, scoring  # engine functions: no second implementation

    state = game.state
    scores = scoring.score(state)
    own = scores[flock]["total"]
    best_other = max((s["total"] for f, s in scores.items() if f != flock), default=0)
    dominated = sum(1 for hex_id in state.hexes if dominance.dominant(state, hex_id) == flock)
    fs = state.flocks[flock]
    tokens = sum(stack.size for h in state.hexes.values() for stack in h.kiwi if stack.flock == flock)
    return (weights.vp * own - weights.opponent_vp * best_other + weights.dominated_hex * dominated
            + weights.domain_marker * len(fs.domain) + weights.fruit * sum(fs.fruit.values())
            + weights.island_token * tokens)


def clone(game: Game) -> Game:
    """An independent copy of a game to try an option on (the engine's clone when it has one, else a JSON round trip)."""
    copier = getattr(game, "clone", None)
    if copier is not None:
        return copier()
    return Game.from_json(game.ruleset, game.to_json())


@dataclass
class GreedyBot:
    """One-ply lookahead on `evaluate`; considers at most `max_options` options per decision."""

    seed: int
    name: str = "greedy"
    max_options: int = 12
    weights: Weights = Weights()
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game) -> str:
        """The option whose one-step result evaluates best for the deciding flock."""
        decision = game.pending
        options = list(decision.options)
        if len(options) == 1:
            return options[0].id
        if len(options) > self.max_options:
            # A deterministic sample keeps the cost bounded on wide decisions (pushes, placements).
            options = self.rng.sample(options, self.max_options)
        best: list[str] = []
        best_value = float("-inf")
        for option in options:
            trial = clone(game)
            result = trial.apply(option.id)
            if not result.ok:
                continue
            value = evaluate(trial, decision.player, self.weights)
            if value > best_value + 1e-9:
                best, best_value = [option.id], value
            elif abs(value - best_value) <= 1e-9:
                best.append(option.id)
        if not best:
            return options[0].id
        return best[self.rng.randrange(len(best))]


BOTS: dict[str, Callable[[int], Any]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name ("random", "greedy"), seeded; ValueError naming the known bots otherwise."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot `{name}`; known bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed)
