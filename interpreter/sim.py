"""Whole games between bots and many-game simulation (SPEC.md "Bots and simulation"); the editor's playtest API.

`play_game` plays one game and returns a `GameRecord`; `simulate` plays many (optionally on several
processes) and returns a `SimReport` whose `summary()` gives win rates with 95% Wilson intervals.
Seeding: game i of a simulation with seed S is played with seed S + i, so
`play_game(ruleset, record.players, record.seed, bots)` replays any recorded game. Seats: the flocks rotate by one seat per game (game i seats flocks[i:] + flocks[:i]), so
seat and flock effects are not confounded; bots stay with their seat. `variant` picks a rules variant the
content offers (`variants(ruleset)`: today "vto", Variable Turn Order, R-VTO-1..5); None is the standard game.

Solo mode (`mode="solo"`, R-SOLO-1..12): `players`/`flocks` is [player, kiwibot]; only the player has a bot (the
first of `bots`); the engine plays Kiwibot, which never has a pending decision. The flocks do not rotate in a
solo simulation (each game keeps the player's flock and Kiwibot's flock: the roles are what is measured), and
the engine seats Kiwibot (solo.yaml `setup.kiwibot_seat`). `solo_side` is a Solo-mode marker side id (R-SOLO-12;
`solo_sides(ruleset)`) or None to deal it from each game's seed. The summary then adds `solo`: the player's win
rate against Kiwibot with its 95% interval, mean VP by source per role, Season card outcomes per role.

`python -m interpreter.sim --regen-golden` rewrites tests/golden/*.json on purpose.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from interpreter.bots import Bot, make_bot
from interpreter.engine import Game, vto

# A full game is a few hundred decisions; far beyond this means an engine loop, not a long game.
MAX_DECISIONS = 20_000
VP_SOURCES = ("domain", "nests", "season_cards", "total")
# Solo games add Kiwibot's endgame VP for unplaced domain markers (R-SOLO-6) as its own source.
SOLO_VP_SOURCES = ("domain", "nests", "season_cards", "solo", "total")
STANDARD, SOLO = "standard", "solo"
MODES: tuple[str, ...] = (STANDARD, SOLO)
# The `bots` entry of Kiwibot's flock in a solo record: the engine plays it, no Bot does.
KIWIBOT = "kiwibot"
# The variants the engine can play, with a readable name; a variant is available only when the content
# declares it in game.yaml `variants` (e.g. `variants.vto.phases`, R-VTO-1).
KNOWN_VARIANTS: dict[str, str] = {vto.VARIANT: "Variable Turn Order"}


class SimError(RuntimeError):
    """A game could not be played to its end (an engine refusal of a legal option, or no end)."""


@dataclass
class GameRecord:
    """The outcome of one whole game."""

    seed: int
    players: list[str]
    leaders: dict[str, str]
    sides: dict[str, str]
    scores: dict[str, dict[str, int]]
    ranking: list[str]
    decisions: int
    season_cards: list[dict[str, Any]]
    bots: list[str] = field(default_factory=list)
    setup: str = "first-game"
    variant: str | None = None
    # solo mode (R-SOLO-1..12): `players` is [player, kiwibot] as given (so the same call replays the game),
    # `seats` the seat order the engine used, `solo_side` the side asked for (None: dealt from the seed) and
    # `marker_side` the Solo-mode marker side played; scores carry each flock's `solo` VP (R-SOLO-6)
    mode: str = STANDARD
    solo_side: str | None = None
    marker_side: str | None = None
    kiwibot: str | None = None
    seats: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return asdict(self)

    @property
    def seat_order(self) -> list[str]:
        """The flocks in seat order (seat 1 first): `seats`, or `players` for a record without it."""
        return list(self.seats or self.players)

    @property
    def player(self) -> str | None:
        """The human player's flock of a solo game (None in a standard game)."""
        return next((f for f in self.players if f != self.kiwibot), None) if self.kiwibot else None


def default_flocks(ruleset: Any, players: int) -> list[str]:
    """The first `players` flocks of the default seat order: game.yaml `flock.seat_order`, else content order.

    The seat order is content (never hard-coded here); without `flock.seat_order` the flocks' file order is used.
    """
    declared = (ruleset.game.get("flock") or {}).get("seat_order")
    order = list(declared) if declared else [item.id for item in ruleset.items("flocks")]
    if not 1 <= players <= len(order):
        raise ValueError(f"--players must be between 1 and {len(order)}, got {players}")
    return list(order[:players])


def variants(ruleset: Any) -> dict[str, str]:
    """{variant id: name} of the known variants this ruleset's content declares in game.yaml `variants`."""
    declared = ruleset.game.get("variants") or {}
    return {vid: name for vid, name in KNOWN_VARIANTS.items() if declared.get(vid)}


def solo_sides(ruleset: Any) -> list[str]:
    """The Solo-mode marker side ids of this content (solo.yaml `marker.sides`, R-SOLO-12); [] without solo.yaml."""
    from interpreter.engine.rules import compile_rules

    return list((compile_rules(ruleset).solo or {}).get("sides") or {})


def _bot_seed(seed: int, seat: int) -> int:
    """Each seat's bot RNG seed, derived from the game seed (separate from the game's own RNG)."""
    return (seed * 1_000_003 + 7919 * (seat + 1)) & 0xFFFFFFFF


def season_card_results(game: Game) -> list[dict[str, Any]]:
    """[{season, id, victor, values}] for the Season cards resolved so far (R-SCARD-1/2).

    Read from the structured payload of the engine's `season-card` events (`Event.data`: card, season,
    values, victor or None on a tie), never from the event text.
    """
    out: list[dict[str, Any]] = []
    for event in game.events:
        data = getattr(event, "data", None)
        if event.kind != "season-card" or not data or "card" not in data:
            continue
        out.append({"season": int(data.get("season", len(out) + 1)), "id": data["card"],
                    "victor": data.get("victor"), "values": dict(data.get("values") or {})})
    return out


def _seat_bots(players: list[str], seed: int, bots: Sequence[str | Bot], mode: str) -> dict[str, Bot]:
    """The bot of each flock that decides: every seat's (names cycle), or in solo mode only the player's
    (the first of `bots`; Kiwibot is played by the engine, R-SOLO-7)."""
    deciders = players[:1] if mode == SOLO else players
    entries = list(bots) or ["random"]
    built: list[Bot] = []
    for i in range(len(deciders)):
        entry = entries[i % len(entries)]
        # a name makes a bot seeded per seat; a Bot object given by a front-end plays as it is
        built.append(make_bot(entry, _bot_seed(seed, i)) if isinstance(entry, str) else entry)
    return dict(zip(deciders, built))


def play_game(ruleset: Any, players: Sequence[str], seed: int, bots: Sequence[str | Bot] = ("random",),
              leaders: dict[str, str] | None = None, sides: dict[str, str] | None = None,
              setup: str = "first-game", variant: str | None = None,
              on_decision: Callable[[Game, Any, str, Any], None] | None = None,
              on_start: Callable[[Game], None] | None = None, mode: str = STANDARD,
              solo_side: str | None = None) -> GameRecord:
    """Play one game to its end between bots; `on_decision(game, decision, option_id, applied)` sees each step.

    mode "solo": players=[player, kiwibot], the player's bot is the first of `bots` (R-SOLO-1..12).
    Bad options (mode, side, players, variant) raise the engine's SetupError.
    """
    players = list(players)
    by_flock = _seat_bots(players, seed, bots, mode)
    game = Game.new(ruleset, players=players, seed=seed, leaders=leaders, sides=sides, setup=setup, variant=variant,
                    mode=mode, solo_side=solo_side)
    if on_start is not None:
        on_start(game)
    decisions = 0
    while not game.is_over:
        decision = game.pending
        bot = by_flock.get(decision.player)
        if bot is None:   # the engine answers for Kiwibot; a pending decision of it is an engine bug
            raise SimError(f"seed {seed}: decision {decisions} ({decision.kind}) is {decision.player}'s, "
                           f"who has no bot")
        option = bot.choose(game)
        result = game.apply(option)
        if not result.ok:
            raise SimError(f"seed {seed}: decision {decisions} `{option}` refused: {result.code}: {result.message}")
        decisions += 1
        if on_decision is not None:
            on_decision(game, decision, option, result)
        if decisions > MAX_DECISIONS:
            raise SimError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
    view = game.view(None)
    solo = view.get("solo") or {}
    return GameRecord(
        seed=seed, players=players,
        leaders={f: view["flocks"][f]["leader"] for f in players},
        sides={f: view["flocks"][f]["side"] for f in players},
        scores={f: {k: int(v) for k, v in s.items()} for f, s in game.scores().items()},
        ranking=list(game.ranking()), decisions=decisions,
        season_cards=season_card_results(game),
        bots=[by_flock[f].name if f in by_flock else KIWIBOT for f in players], setup=setup, variant=variant,
        mode=mode, solo_side=solo_side, marker_side=solo.get("marker_side"), kiwibot=solo.get("kiwibot"),
        seats=list(game.state.seats))


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (0, 0 for no games)."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # at 0 or all wins the bound is exactly 0 or 1 (the formula gives it only up to rounding)
    lo = 0.0 if wins == 0 else max(0.0, centre - half)
    hi = 1.0 if wins == games else min(1.0, centre + half)
    return lo, hi


def _rate(wins: int, games: int) -> dict[str, float | int]:
    lo, hi = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games if games else 0.0, "lo": lo, "hi": hi}


@dataclass
class SimReport:
    """All records of a simulation and their summary."""

    records: list[GameRecord]

    def summary(self) -> dict[str, Any]:
        """Win rates by seat, flock, leader and bot (95% Wilson), mean VP by source, Season cards, game length;
        with solo games also `solo` (player vs Kiwibot, see `solo_summary`) and the `solo` VP source."""
        games = len(self.records)
        solo_records = [r for r in self.records if r.mode == SOLO]
        sources = SOLO_VP_SOURCES if solo_records else VP_SOURCES
        tallies: dict[str, dict[str, list[int]]] = {"seat": {}, "flock": {}, "leader": {}, "bot": {}}
        vp = {k: 0.0 for k in sources}
        cards: dict[str, dict[str, Any]] = {}
        entries = 0
        for rec in self.records:
            winner = rec.ranking[0]  # a full tie after R-END-3 still goes to the engine's ranking order
            for seat, flock in enumerate(rec.seat_order, start=1):
                keys = {"seat": str(seat), "flock": flock, "leader": rec.leaders.get(flock, "?"),
                        "bot": rec.bots[rec.players.index(flock)] if rec.bots else "?"}
                for group, key in keys.items():
                    tally = tallies[group].setdefault(key, [0, 0])
                    tally[0] += flock == winner
                    tally[1] += 1
                for source in sources:
                    vp[source] += rec.scores[flock].get(source, 0)
                entries += 1
            for card in rec.season_cards:
                c = cards.setdefault(card["id"], {"played": 0, "victor_flocks": {}, "ties": 0})
                c["played"] += 1
                if card.get("victor") is None:
                    c["ties"] += 1
                else:
                    c["victor_flocks"][card["victor"]] = c["victor_flocks"].get(card["victor"], 0) + 1
        out = {
            "games": games,
            "win_rate": {group: {k: _rate(*t) for k, t in sorted(d.items())} for group, d in tallies.items()},
            "mean_vp": {k: (v / entries if entries else 0.0) for k, v in vp.items()},
            "season_cards": dict(sorted(cards.items())),
            "mean_decisions": (sum(r.decisions for r in self.records) / games) if games else 0.0,
        }
        if solo_records:
            out["solo"] = solo_summary(solo_records)
        return out


def solo_summary(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Player vs Kiwibot over solo records (R-SOLO-5/6): win rates with 95% Wilson intervals (overall and per
    Solo-mode marker side), mean VP by source per role, Season card outcomes per role.

    The winner is the engine's ranking[0]: R-END-2 totals (with Kiwibot's R-SOLO-6 VP); a VP tie is Kiwibot's
    (the solo objective is more VP than Kiwibot), so the R-END-3 tiebreakers never make the player the winner.
    """
    n = len(records)
    wins = 0
    vp: dict[str, dict[str, float]] = {role: {k: 0.0 for k in SOLO_VP_SOURCES} for role in ("player", KIWIBOT)}
    by_side: dict[str, list[int]] = {}
    outcomes = {"player": 0, KIWIBOT: 0, "ties": 0}
    cards: dict[str, dict[str, int]] = {}
    for rec in records:
        player, bot = rec.player, rec.kiwibot
        won = rec.ranking[0] == player
        wins += won
        side = by_side.setdefault(rec.marker_side or "?", [0, 0])
        side[0] += won
        side[1] += 1
        for role, flock in (("player", player), (KIWIBOT, bot)):
            for source in SOLO_VP_SOURCES:
                vp[role][source] += rec.scores[flock].get(source, 0)
        for card in rec.season_cards:
            victor = card.get("victor")
            role = "ties" if victor is None else "player" if victor == player else KIWIBOT
            outcomes[role] += 1
            c = cards.setdefault(card["id"], {"played": 0, "player": 0, KIWIBOT: 0, "ties": 0})
            c["played"] += 1
            c[role] += 1
    return {
        "games": n,
        "player": _rate(wins, n), KIWIBOT: _rate(n - wins, n),
        "by_side": {side: _rate(*t) for side, t in sorted(by_side.items())},
        "mean_vp": {role: {k: (v / n if n else 0.0) for k, v in d.items()} for role, d in vp.items()},
        "season_cards": outcomes,
        "season_cards_by_card": dict(sorted(cards.items())),
        "player_flocks": sorted({r.player for r in records if r.player}),
        "kiwibot_flocks": sorted({r.kiwibot for r in records if r.kiwibot}),
    }


@dataclass(frozen=True)
class _Plan:
    """What every game of one simulation shares."""

    ruleset: Any
    seed: int
    flocks: tuple[str, ...]
    bots: tuple[str, ...]
    leaders: dict[str, str] | None
    sides: dict[str, str] | None
    setup: str
    variant: str | None = None
    mode: str = STANDARD
    solo_side: str | None = None

    def play(self, i: int) -> GameRecord:
        """Game i: seed + i, flocks rotated by i seats (solo: not rotated, [player, kiwibot] every game)."""
        shift = 0 if self.mode == SOLO else i % len(self.flocks)
        seats = list(self.flocks[shift:]) + list(self.flocks[:shift])
        return play_game(self.ruleset, seats, self.seed + i, self.bots, leaders=self.leaders, sides=self.sides,
                         setup=self.setup, variant=self.variant, mode=self.mode, solo_side=self.solo_side)


# A worker process's plan: handed over by the pool initializer (inherited by fork, not pickled).
_WORKER_PLAN: list[_Plan] = []


def _init_worker(plan: _Plan) -> None:
    _WORKER_PLAN[:] = [plan]


def _play_in_worker(i: int) -> GameRecord:
    return _WORKER_PLAN[0].play(i)


def simulate(ruleset: Any, games: int, players: int | None = None, seed: int = 0, bots: Sequence[str] = ("random",),
             jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             flocks: Sequence[str] | None = None, leaders: dict[str, str] | None = None,
             sides: dict[str, str] | None = None, setup: str = "first-game",
             variant: str | None = None, mode: str = STANDARD, solo_side: str | None = None) -> SimReport:
    """Play `games` games (seeds seed..seed+games-1, flocks rotating seats) on `jobs` processes.

    players: default 4 (solo: 2, the only count it takes). `variant` (None or a key of KNOWN_VARIANTS), `mode`
    and `solo_side` are checked before any game runs: the engine's SetupError names the known variants or
    sides, or says the content does not offer them. mode "solo": `flocks` is [player, kiwibot] (default: the
    first two of the seat order) and only the player's bot (the first of `bots`) plays.
    """
    from interpreter.engine.setup import SetupError

    if games < 0:
        raise ValueError("games must be >= 0")
    for name in bots:
        make_bot(name, 0)  # fail early on an unknown bot name
    if mode == SOLO and (players not in (None, 2) or (flocks is not None and len(flocks) != 2)):
        raise SetupError(f"solo mode is two flocks, the player and Kiwibot (R-SOLO-1): got "
                         f"{list(flocks) if flocks is not None else f'{players} players'}")
    count = players if players is not None else (2 if mode == SOLO else 4)
    plan = _Plan(ruleset, seed, tuple(flocks) if flocks else tuple(default_flocks(ruleset, count)),
                 tuple(bots) or ("random",), leaders, sides, setup, variant, mode, solo_side)
    if games:
        # fail early (before forking workers) on a bad variant/mode/side/setup/flock choice: the engine's SetupError
        Game.new(ruleset, players=list(plan.flocks), seed=seed, leaders=leaders, sides=sides, setup=setup,
                 variant=variant, mode=mode, solo_side=solo_side)
    records: list[GameRecord] = []
    jobs = max(1, min(jobs, games or 1))
    if jobs == 1:
        for i in range(games):
            records.append(plan.play(i))
            if progress is not None:
                progress(i + 1, games)
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        ctx = multiprocessing.get_context(method)
        with ctx.Pool(jobs, initializer=_init_worker, initargs=(plan,)) as pool:
            for rec in pool.imap(_play_in_worker, range(games), chunksize=1):
                records.append(rec)
                if progress is not None:
                    progress(len(records), games)
    return SimReport(records)


# --- golden playthroughs --------------------------------------------------------------------------------

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
# (name, players, seed, bots, variant): a few seeded full games whose decisions and events are pinned.
GOLDEN_GAMES: tuple[tuple[str, int, int, tuple[str, ...], str | None], ...] = (
    ("random-2p-seed1", 2, 1, ("random",), None),
    ("random-3p-seed2", 3, 2, ("random",), None),
    ("random-4p-seed3", 4, 3, ("random",), None),
    ("greedy-2p-seed4", 2, 4, ("greedy", "random"), None),
    ("random-3p-vto-seed5", 3, 5, ("random",), "vto"),
)
# (name, seed, player's bots, solo_side): seeded solo games against Kiwibot (R-SOLO-1..12), the player and
# Kiwibot being the first two flocks of the seat order; their setup events (Kiwibot's first turn) are pinned too.
GOLDEN_SOLO_GAMES: tuple[tuple[str, int, tuple[str, ...], str | None], ...] = (
    ("solo-greedy-seed6", 6, ("greedy",), None),
)
# GameRecord fields a standard game leaves at their defaults: left out of a standard golden result, so the
# files pinned before solo mode existed stay valid as they are.
_SOLO_RECORD_FIELDS = ("mode", "solo_side", "marker_side", "kiwibot", "seats")


def event_text(event: Any) -> str:
    """A readable line for one engine event."""
    text = getattr(event, "text", None)
    return text if isinstance(text, str) else str(event)


def golden_playthrough(ruleset: Any, players: int, seed: int, bots: Sequence[str],
                       variant: str | None = None, mode: str = STANDARD,
                       solo_side: str | None = None) -> dict[str, Any]:
    """One full game as pinned data: every decision (player, kind, option) with its events, and the result.

    Solo games (mode "solo", 2 players: [player, kiwibot]) also pin `mode`, `solo_side` and `start_events`,
    the events before the player's first decision (setup and Kiwibot's opening turn, R-SOLO-3/7).
    """
    steps: list[dict[str, Any]] = []
    start: list[str] = []

    def record(game: Game, decision: Any, option: str, applied: Any) -> None:
        steps.append({"player": decision.player, "kind": decision.kind, "option": option,
                      "events": [event_text(e) for e in applied.events]})

    def opening(game: Game) -> None:
        start.extend(event_text(e) for e in game.events)

    flocks = default_flocks(ruleset, players)
    rec = play_game(ruleset, flocks, seed, bots, variant=variant, on_decision=record, on_start=opening,
                    mode=mode, solo_side=solo_side)
    result = rec.to_dict()
    data: dict[str, Any] = {"players": flocks, "seed": seed, "bots": list(bots), "variant": variant,
                            "content_hash": ruleset.hash, "result": result, "steps": steps}
    if mode == STANDARD:
        for key in _SOLO_RECORD_FIELDS:
            result.pop(key)
    else:
        data.update(mode=mode, solo_side=solo_side, start_events=start)
    return data


def golden_games() -> list[tuple[str, dict[str, Any]]]:
    """Every pinned game as (file name, golden_playthrough keyword arguments), standard then solo."""
    games = [(name, {"players": players, "seed": seed, "bots": bots, "variant": variant})
             for name, players, seed, bots, variant in GOLDEN_GAMES]
    games += [(name, {"players": 2, "seed": seed, "bots": bots, "mode": SOLO, "solo_side": side})
              for name, seed, bots, side in GOLDEN_SOLO_GAMES]
    return games


def regen_golden(ruleset: Any, directory: Path = GOLDEN_DIR) -> list[Path]:
    """Rewrite every golden file (only on purpose: the test compares them exactly)."""
    import json

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, kwargs in golden_games():
        path = directory / f"{name}.json"
        data = golden_playthrough(ruleset, **kwargs)
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        written.append(path)
    return written


def main(argv: Iterable[str] | None = None) -> int:
    """`python -m interpreter.sim --regen-golden`: rewrite tests/golden/*.json."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--regen-golden"]:
        print("usage: python -m interpreter.sim --regen-golden", file=sys.stderr)
        return 2
    from interpreter.content import load_ruleset

    for path in regen_golden(load_ruleset()):
        print(f"wrote {os.path.relpath(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
