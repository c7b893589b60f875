"""Whole games with checks at every decision, and `random_sim_test`, the one call a modder makes on a pack.

At every decision of a game played by bots (kcd.analysis.sim `play_game`), each check of `CHECKS` runs:
- `invariants`: the engine's own invariants hold (kcd.engine.invariants: every token, fruit and marker accounted
  for, limits kept);
- `copies`: a clone and a save loaded back (`to_json` -> `from_json`) equal the game, and after the next decision,
  answered the same, still do (state, running step, pending decision, the decision's events);
- `refusals`: a malformed id and a legal id sent by the wrong seat are refused with a code and a message, and
  leave the save byte-identical; once the game is over anything is refused as `game-over`;
- `views`: no seat's view, nor the spectator's, changes when what that viewer cannot see is dealt again.
A game also has to end: no crash, no engine loop, no more than kcd.analysis.sim `MAX_DECISIONS` decisions.
"""
from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcd.analysis.bots import Bot
from kcd.analysis.sim import GameRecord, SimError, play_game
from kcd.content import ContentError, load_ruleset
from kcd.content.layout import BASE_FOLDER
from kcd.content.loader import pack_of
from kcd.content.model import Ruleset
from kcd.core.decisions import Applied, Decision, RefusalCode, Refused
from kcd.engine import Game, mode_registry as modes
from kcd.engine.invariants import violations
from kcd.testing.hidden import first_difference, views_leak

CHECKS: tuple[str, ...] = ("invariants", "copies", "refusals", "views")
# every code a refused `apply` may give (undo's own codes never come from `apply`)
APPLY_REFUSALS = frozenset({RefusalCode.GAME_OVER, RefusalCode.MALFORMED, RefusalCode.WRONG_PLAYER,
                            RefusalCode.STALE, RefusalCode.ILLEGAL})
SETUPS = ("first-game", "advanced")


class CheckFailed(AssertionError):
    """A game broke a check: the message says which game (seed, mode, flocks), which decision and what broke."""


def play_random(game: Game, seed: int, check: Callable[[Game], None] | None = None,
                max_decisions: int = 5000) -> int:
    """Play `game` to its end with uniformly random legal options, `check(game)` after every decision; the number
    of decisions. CheckFailed when an offered option is refused or the game has not ended after `max_decisions`."""
    rng = random.Random(seed)
    n = 0
    while (pending := game.pending) is not None:
        option = rng.choice(pending.options).id
        result = game.apply(option)
        if not result.ok:
            raise CheckFailed(f"decision {n} ({pending.kind}): the offered `{option}` was refused: {result}")
        n += 1
        if check is not None:
            check(game)
        if n >= max_decisions:
            raise CheckFailed(f"no end after {max_decisions} decisions")
    return n


def mangled_id(rng: random.Random, option_ids: Sequence[str], seen: Sequence[str]) -> str:
    """A plausible-looking but (usually) wrong option id: cut, padded, re-cased, an old answer, noise."""
    base = rng.choice(option_ids)
    kind = rng.randrange(8)
    if kind == 0:
        return ""
    if kind == 1:
        return base + rng.choice(["x", "#", " ", ":", "->Z99", "\n"])
    if kind == 2:
        return base[: rng.randrange(len(base))] if base else "?"
    if kind == 3:
        return rng.choice(seen) if seen else "pass!"
    if kind == 4:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz:->#@,0123456789") for _ in range(rng.randrange(1, 20)))
    if kind == 5:
        return base.upper() if base.upper() != base else base + "Q"
    if kind == 6:
        return "\x00" + base
    return base.replace(":", "::", 1) if ":" in base else base + "::"


def invariant_problems(game: Game) -> list[str]:
    """The engine's invariants the game's state breaks now (kcd.engine.invariants), as readable lines."""
    return violations(game.readonly_state, game.rules, game.pending)


def refusal_problem(game: Game, rng: random.Random, seen: Sequence[str]) -> str | None:
    """What goes wrong when a wrong answer is sent now, or None: a mangled id and (with another seat) a legal id from
    the wrong seat must be refused with a code `apply` gives and a message, the save unchanged; once the game is
    over any id is refused as `game-over`."""
    before = game.to_json()
    pending = game.pending
    tries: list[tuple[str, str | None, set[RefusalCode]]] = []
    if pending is None:
        tries.append((rng.choice(list(seen) or ["pass"]), None, {RefusalCode.GAME_OVER}))
    else:
        ids = pending.option_ids()
        bad = mangled_id(rng, ids, seen)
        if bad not in ids:
            tries.append((bad, None, set(APPLY_REFUSALS)))
        others = [f for f in game.readonly_state.seats if f != pending.player]
        if others:
            tries.append((rng.choice(ids), rng.choice(others), {RefusalCode.WRONG_PLAYER}))
    for option, player, codes in tries:
        result = game.apply(option, player=player)
        sent = f"`{option!r}`" + (f" from {player}" if player else "")
        if not isinstance(result, Refused):
            return f"{sent} was applied, not refused"
        if result.code not in codes or not result.message:
            return f"{sent} was refused as {result.code!r} ({result.message!r}), expected one of {sorted(codes)}"
        after = game.to_json()
        if after != before:
            return f"refusing {sent} changed the game at {first_difference(json.loads(before), json.loads(after), '')}"
    return None


def _events(applied: Applied | Refused) -> list[dict[str, Any]]:
    """The events an applied decision produced, as data ([] for a refusal)."""
    return [e.to_dict() for e in applied.events] if isinstance(applied, Applied) else []


@dataclass
class Checker:
    """The checks of one game, run by `play_game`'s hooks (`start`, `decided`); CheckFailed on the first problem."""

    checks: Sequence[str] = CHECKS
    seed: int = 0
    every: int = 1
    label: str = "game"
    decisions: int = 0
    rng: random.Random = field(init=False)
    seen: list[str] = field(default_factory=list)
    # a clone and a loaded save taken at the last checked decision, (name, game), to follow through the next
    _copies: list[tuple[str, Game]] = field(default_factory=list)

    def __post_init__(self) -> None:
        unknown = [c for c in self.checks if c not in CHECKS]
        if unknown:
            raise ValueError(f"no check named {unknown[0]!r}; the checks are {', '.join(CHECKS)}")
        self.rng = random.Random(self.seed)

    def fail(self, where: str, problem: str) -> CheckFailed:
        """The failure to raise: the game, the decision and the problem."""
        return CheckFailed(f"{self.label}, {where}: {problem}")

    def start(self, game: Game) -> None:
        """Check the position before the first decision."""
        self._check(game, "at the start")

    def decided(self, game: Game, decision: Decision, option: str, applied: Applied | Refused) -> None:
        """Check the position after decision `option` (answering `decision`) was applied."""
        self.decisions += 1
        self.seen.append(option)
        where = f"after decision {self.decisions} (`{option}`, {decision.kind} of {decision.player})"
        copies, self._copies = self._copies, []
        if copies:
            text = game.to_json()
            expected = _events(applied)
            for name, copy in copies:
                result = copy.apply(option)
                if not result.ok:
                    raise self.fail(where, f"the {name} refused the option the game took: {result}")
                if copy.to_json() != text:
                    raise self.fail(where, f"the {name} went on unlike the game, at "
                                    + first_difference(json.loads(text), json.loads(copy.to_json()), ""))
                if _events(result) != expected:
                    raise self.fail(where, f"the {name} told other events than the game")
                if copy.pending != game.pending:
                    raise self.fail(where, f"the {name} asks another decision than the game")
        self._check(game, where)

    def _check(self, game: Game, where: str) -> None:
        """Every chosen check, at one position (those taking copies or twins only on every `every`th decision)."""
        if "invariants" in self.checks:
            broken = invariant_problems(game)
            if broken:
                raise self.fail(where, "invariants broken: " + "; ".join(broken))
        if self.decisions % self.every and game.pending is not None:
            return
        if "refusals" in self.checks:
            problem = refusal_problem(game, self.rng, self.seen)
            if problem:
                raise self.fail(where, problem)
        if "views" in self.checks:
            leak = views_leak(game, self.rng)
            if leak:
                raise self.fail(where, leak)
        if "copies" in self.checks and game.pending is not None:
            text = game.to_json()
            try:
                loaded = Game.from_json(game.ruleset, text)
            except ValueError as exc:
                raise self.fail(where, f"its save does not load: {exc}") from None
            games = [("clone", game.clone()), ("loaded save", loaded)]
            for name, copy in games:
                if copy.to_json() != text:
                    raise self.fail(where, f"the {name} differs from the game at "
                                    + first_difference(json.loads(text), json.loads(copy.to_json()), ""))
                if copy.pending != game.pending:
                    raise self.fail(where, f"the {name} asks another decision than the game")
            self._copies = games


def describe(players: Sequence[str], seed: int, mode: str = "standard", variant: str | None = None,
             **options: Any) -> str:
    """A game in words, enough to replay it: `seed 3, vto, red,green,teal, sides B,A,A, advanced setup`."""
    parts = [f"seed {seed}", variant or mode, ",".join(players)]
    sides = options.get("sides")
    if sides:
        parts.append("sides " + ",".join(str(sides.get(f, "A")) for f in players))
    if options.get("setup", "first-game") != "first-game":
        parts.append(f"{options['setup']} setup")
    return ", ".join(parts)


def checked_game(ruleset: Ruleset, players: Sequence[str], seed: int, *, bots: Sequence[str | Bot] = ("random",),
                 checks: Sequence[str] = CHECKS, every: int = 1, **options: Any) -> GameRecord:
    """Play one game between bots (`play_game`'s arguments: mode, variant, sides, setup, leaders, ...) with
    `checks` after every decision (copies, refusals and views on every `every`th); its record. CheckFailed naming
    the game and the decision on the first problem, on a crash, or when the game does not end."""
    label = describe(players, seed, **options)
    checker = Checker(checks, seed, max(1, every), label)
    try:
        record = play_game(ruleset, list(players), seed, bots, on_start=checker.start, on_decision=checker.decided,
                           **options)
    except CheckFailed:
        raise
    except SimError as exc:
        raise CheckFailed(f"{label}: {exc}") from exc
    except Exception as exc:
        raise CheckFailed(f"{label}, after decision {checker.decisions}: the engine raised "
                          f"{type(exc).__name__}: {exc}") from exc
    if not record.ranking:
        raise CheckFailed(f"{label}: the game ended without a ranking")
    return record


@dataclass
class SimTestReport:
    """What `random_sim_test` played: one record per game, and the checks every decision passed."""

    records: list[GameRecord]
    checks: tuple[str, ...]
    games_played: list[str] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        """Decisions played over every game."""
        return sum(r.decisions for r in self.records)

    def summary(self) -> str:
        """One line: `4 games, 1210 decisions, every check passed (invariants, copies, refusals, views)`."""
        return (f"{len(self.records)} game{'s' if len(self.records) != 1 else ''}, {self.decisions} decisions, "
                f"every check passed ({', '.join(self.checks) or 'none but the game ending'})")


def load_target(target: Ruleset | str | Path) -> Ruleset:
    """A ruleset as given, or loaded from a path: a pack folder (base + the packs it requires + it) or a content
    root (its base game). CheckFailed with the loader's report when it does not load."""
    if isinstance(target, Ruleset):
        return target
    path = Path(target)
    found = (path, None) if (path / BASE_FOLDER).is_dir() else pack_of(path) if path.exists() else None
    if found is None:
        raise CheckFailed(f"{target}: not a content root or a pack folder inside one (content/mods/<pack>)")
    root, pack = found
    try:
        return load_ruleset([pack] if pack else [], root=root)
    except ContentError as exc:
        raise CheckFailed(f"{target} does not load:\n{exc}") from None


def sim_plan(ruleset: Ruleset, games: int, seed: int = 0) -> list[dict[str, Any]]:
    """`checked_game`'s arguments of each game: every registered mode and variant the content offers in turn
    (`Mode.available`: the standard game, Variable Turn Order, solo, a plug-in's), and from a per-game RNG the
    player count (the mode's own, else one the island has a layout for), the flocks (any of the content's, so a
    mod's show up), their sides and the setup."""
    from kcd.content.rules import compile_rules

    rules = compile_rules(ruleset)
    flocks = sorted(rules.flocks)
    counts = sorted({layout.players for layout in rules.layouts if 2 <= layout.players <= min(4, len(flocks))})
    kinds: list[tuple[dict[str, Any], list[int]]] = []
    for mode in modes.all_modes():
        if mode.available(rules):
            fixed = mode.player_count
            options = [fixed] if fixed is not None and fixed <= len(flocks) else [] if fixed is not None else counts
            if options:
                kinds.append(({"mode": mode.name, "variant": mode.variant}, options))
    if not kinds:
        raise CheckFailed(f"no mode can seat players: the content has {len(flocks)} flocks and island layouts "
                          f"for {sorted(layout.players for layout in rules.layouts)} players")
    plan = []
    for i in range(games):
        rng = random.Random(f"kcd.testing:{seed}:{i}")
        kind, options = kinds[i % len(kinds)]
        players = rng.sample(flocks, rng.choice(options))
        sides = {f: rng.choice(sorted(rules.flocks[f])) for f in players}
        plan.append({"players": players, "seed": seed + i, "sides": sides, "setup": rng.choice(SETUPS), **kind})
    return plan


def random_sim_test(target: Ruleset | str | Path, games: int = 4, seed: int = 0, *,
                    bots: Sequence[str | Bot] = ("random",), checks: Iterable[str] = CHECKS,
                    every: int = 1) -> SimTestReport:
    """Play `games` games of a ruleset or a pack folder (`content/mods/<pack>`) between `bots` (names as `kcd
    simulate` takes: random, greedy, ...), every mode the content offers in turn, with every check of `CHECKS` at
    every decision (copies, refusals and views on every `every`th); the report. CheckFailed on the first game that
    crashes, loops, does not end or breaks a check, with what to replay it: its seed, mode and flocks."""
    chosen = tuple(checks)
    ruleset = load_target(target)
    report = SimTestReport([], chosen)
    for options in sim_plan(ruleset, games, seed):
        report.games_played.append(describe(**options))
        report.records.append(checked_game(ruleset, bots=bots, checks=chosen, every=every, **options))
    return report
