"""Bots: anything that picks an option id for the pending decision of a Game (SPEC.md "Bots and simulation").

A front-end implements `Bot` (a `name` and `choose(game) -> option id`). Two bots ship:
- `random`: a uniformly random legal option, from its own seeded RNG (the fastest; used for invariants).
- `greedy`: one-ply lookahead: clone the game, apply each option (at most `max_options` of them, a
  deterministic sample when there are more), score the resulting position for the deciding flock with a
  heuristic of VP, dominance, resources and its standing on the current Season card, and take the best
  (ties broken by its seeded RNG). On the decision kinds in `FAMILY_TIES`, options of one family (same id
  prefix, e.g. every `mark:<hex>`) cannot differ for the heuristic one step ahead, so one option per family is
  tried and the pick within the best family is random: the same result as trying them all, without a clone per option.
Bots never touch the game's own RNG, so a game replays exactly from (ruleset, seed, decisions).
In a solo game (R-SOLO-1..12) a bot plays the human's side only: Kiwibot never has a pending decision, and the
greedy heuristic counts Kiwibot's VP (its R-SOLO-6 `solo` VP included) as the opponent's.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, runtime_checkable

from kcd.engine import Game
from kcd.analysis.heuristic import Weights, evaluate
from kcd.analysis.mcts import make_mcts


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
        pending = game.pending
        assert pending is not None, "a bot is asked only while a decision is pending"
        options = pending.options
        return options[self.rng.randrange(len(options))].id


FAMILY_TIES: frozenset[str] = frozenset({"card", "mark", "return-fruit", "pay"})


def family(option: Any) -> str:
    """An option's family: its action's kind (`mark:B1` -> `mark`; `pass` -> `pass`); a payment's family is
    how many fruit and markers it hands over (`pay:red,blue,marker-sand` -> `pay/2/1`)."""
    action = option.action
    if action.kind == "pay":
        return f"pay/{len(action.fruit)}/{len(action.markers)}"
    return action.kind


def clone(game: Game) -> Game:
    """An independent copy of a game to try an option on: the engine's clone without the event log (the
    heuristic reads only the state), else a JSON round trip."""
    copier = getattr(game, "clone", None)
    if copier is not None:
        try:
            return copier(events=False)
        except TypeError:   # a Game-like object whose clone takes no arguments
            return copier()
    return Game.from_json(game.ruleset, game.to_json())


# The trial copy of the last greedy choice made in this process: it stands where that game is after the choice,
# so when a greedy bot (the same or another seat's) decides next at that very position, the copy serves as one
# option's trial and saves a clone (a replay of the step). Only an exact position match reuses it
# (`_same_position`), so choices are exactly those of cloning every time.
_KEPT: list[Game] = []


def _same_position(copy: Any, game: Game) -> bool:
    """True when `copy` stands exactly where `game` does: the same content, the same step checkpoint and the same
    decisions since it (a game is its checkpoint replayed with those decisions, deterministically)."""
    try:
        if copy.ruleset is not game.ruleset or copy._since != game._since:
            return False
        return copy._checkpoint.same(game._checkpoint)   # (engine/game.py Checkpoint: without building either)
    except AttributeError:   # a Game-like object without these: always clone
        return False


@dataclass
class GreedyBot:
    """One-ply lookahead on `evaluate`; considers at most `max_options` options per decision (fewer deep in a
    step, where each copy costs more), and on the `family_ties` decision kinds one option per family."""

    seed: int
    name: str = "greedy"
    max_options: int = 10   # measured vs random, 100 2-player games: 12 options won 85, 10 won 81, 8 won 79 (noise: +-8)
    # When copies replayed the step, a copy cost about (2 + depth) decisions of engine work, so deep decisions
    # in a long turn (second moves, pushes, payments) try fewer options; copies no longer replay, but the cap
    # stays as it was measured (the golden greedy games and the balance figures rest on it): at most
    # budget // (2 + depth), never fewer than `min_options`. Measured and not taken: budget 20 / min 3 (a third
    # fewer copies) won 50.0% [44.4%, 55.6%] head to head in 2-player games, but in 4-player greedy games seat 3
    # then won 44% [38%, 51%] (30% [23%, 39%] with 40 / 4): a bot artefact that balance reports would show as a
    # seat imbalance.
    replay_budget: int = 40
    min_options: int = 4
    weights: Weights = Weights()
    family_ties: frozenset[str] = FAMILY_TIES
    rng: random.Random = field(init=False, repr=False)
    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game) -> str:
        """The option whose one-step result evaluates best for the deciding flock."""
        decision = game.pending
        assert decision is not None, "a bot is asked only while a decision is pending"
        options = list(decision.options)
        if len(options) == 1:
            return options[0].id
        families: dict[str, list[str]] = {}
        if decision.kind in self.family_ties:
            for option in options:
                families.setdefault(family(option), []).append(option.id)
            if len(families) == 1:
                return options[self.rng.randrange(len(options))].id
            # one representative per family; the family's other options would evaluate the same
            by_id = {o.id: o for o in options}
            options = [by_id[ids[self.rng.randrange(len(ids))]] for ids in families.values()]
        depth = getattr(game, "step_depth", 0)
        cap = min(self.max_options, max(self.min_options, self.replay_budget // (2 + depth)))
        if len(options) > cap:
            # A deterministic sample keeps the cost bounded on wide decisions (pushes, placements).
            options = self.rng.sample(options, cap)
        best: list[str] = []
        best_value = float("-inf")
        kept = _KEPT.pop() if _KEPT else None   # list.pop: one taker even with threads
        spare = kept if kept is not None and _same_position(kept, game) else None
        trials: dict[str, Game] = {}
        for option in options:
            trial, spare = (spare, None) if spare is not None else (clone(game), None)
            result = trial.apply(option.id)
            if not result.ok:
                continue
            trials[option.id] = trial
            value = evaluate(trial, decision.player, self.weights)
            if value > best_value + 1e-9:
                best, best_value = [option.id], value
            elif abs(value - best_value) <= 1e-9:
                best.append(option.id)
        if not best:
            return options[0].id
        if families:   # widen the winners to their whole families
            best = [i for b in best for i in families[family(by_id[b])]]
        pick = best[self.rng.randrange(len(best))]
        if pick in trials:
            _KEPT[:] = [trials[pick]]
        return pick


def _mcts(seed: int, budget: str | None = None) -> Bot:
    """The `mcts` bot (interpreter/analysis/mcts.py)."""

    return make_mcts(seed, budget)


BOTS: dict[str, Callable[..., Any]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": _mcts}
# Bots whose name takes a budget after a colon: `mcts:500ms` (CPU ms per decision), `mcts:300it` (iterations).
BUDGETED: frozenset[str] = frozenset({"mcts"})


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name ("random", "greedy", "mcts", "mcts:<budget>"), seeded; ValueError naming the known bots
    (or the budget forms) otherwise."""
    base, colon, budget = name.partition(":")
    try:
        factory = BOTS[base]
    except KeyError:
        # Kiwibot (R-SOLO-7) is played by the engine itself in a solo game, never by a Bot
        hint = "; Kiwibot is no bot: play a solo game (mode=\"solo\", kcd --solo)" if name.lower() == "kiwibot" else ""
        raise ValueError(f"unknown bot `{name}`; known bots: {', '.join(sorted(BOTS))}{hint}") from None
    if not colon:
        return factory(seed)
    if base not in BUDGETED:
        raise ValueError(f"bot `{base}` takes no budget (`{name}`); budgets are for {', '.join(sorted(BUDGETED))}")
    return factory(seed, budget)


def bot_name_error(name: str) -> str | None:
    """Why `name` is not a bot name (the message make_bot would raise), or None when it is one."""
    try:
        make_bot(name, 0)
    except ValueError as err:
        return str(err)
    return None
