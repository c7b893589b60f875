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

`python -m kcd.analysis.sim --regen-golden` rewrites tests/golden/*.json on purpose.
"""
from __future__ import annotations

import math
import os
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from kcd.analysis import simrun
from kcd.analysis.bots import Bot, make_bot
from kcd.engine import Game, Refused, mode_registry as modes

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset

# A full game is a few hundred decisions; far beyond this means an engine loop, not a long game.
MAX_DECISIONS = 20_000
VP_SOURCES = ("domain", "nests", "season_cards", "total")
# Solo games add Kiwibot's endgame VP for unplaced domain markers (R-SOLO-6) as its own source.
SOLO_VP_SOURCES = modes.select("solo", None).score_columns()
STANDARD = "standard"
MODES: tuple[str, ...] = tuple(modes.names())
# The `bots` entry of Kiwibot's flock in a solo record: the engine plays it, no Bot does (its seat role's id).
KIWIBOT = modes.select("solo", None).seat_roles(2)[1].id
# The variants the engine can play, with a readable name; a variant is available only when the content
# declares it in game.yaml `variants` (e.g. `variants.vto.phases`, R-VTO-1).
KNOWN_VARIANTS: dict[str, str] = {m.variant: m.title for m in modes.all_modes() if m.variant is not None}
# The engine's decision kind for taking a turn tracker slot (option ids `slot:<n>`, R-VTO-2/3).
TRACKER_DECISION = "tracker-slot"


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
    # what each flock played and did, for balance reports (interpreter/analysis/balance.py): its Leader card, the Nests it
    # built (in build order) and, under Variable Turn Order, the turn tracker slot it took at setup and in each
    # Wake up (R-VTO-2/3). Records written before these fields existed load with them empty.
    leader_cards: dict[str, str] = field(default_factory=dict)
    nests: dict[str, list[str]] = field(default_factory=dict)
    tracker_slots: dict[str, list[int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameRecord":
        """A record from its `to_dict()` form (fields it lacks take their defaults; unknown keys are ignored)."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def seat_order(self) -> list[str]:
        """The flocks in seat order (seat 1 first): `seats`, or `players` for a record without it."""
        return list(self.seats or self.players)

    @property
    def player(self) -> str | None:
        """The human player's flock of a solo game (None in a standard game)."""
        return next((f for f in self.players if f != self.kiwibot), None) if self.kiwibot else None


def _mode(name: str) -> Any:
    """The registered mode `name` (kcd.engine.mode_registry), or the engine's SetupError naming the registered ones."""
    from kcd.engine.setup import SetupError

    try:
        return modes.select(name, None)
    except modes.ModeError as err:
        raise SetupError(str(err)) from None


def default_flocks(ruleset: Ruleset, players: int) -> list[str]:
    """The first `players` flocks of the default seat order: game.yaml `flock.seat_order`, else content order.

    The seat order is content (never hard-coded here); without `flock.seat_order` the flocks' file order is used.
    """
    declared = (ruleset.game.get("flock") or {}).get("seat_order")
    order = list(declared) if declared else [item.id for item in ruleset.items("flocks")]
    if not 1 <= players <= len(order):
        raise ValueError(f"--players must be between 1 and {len(order)}, got {players}")
    return list(order[:players])


def variants(ruleset: Ruleset) -> dict[str, str]:
    """{variant id: name} of the known variants this ruleset's content declares in game.yaml `variants`."""
    declared = ruleset.game.get("variants") or {}
    return {vid: name for vid, name in KNOWN_VARIANTS.items() if declared.get(vid)}


def solo_sides(ruleset: Ruleset) -> list[str]:
    """The Solo-mode marker side ids of this content (solo.yaml `marker.sides`, R-SOLO-12); [] without solo.yaml."""
    return list(setup_choices(ruleset, "solo", "solo_side"))


def setup_choices(ruleset: Ruleset, mode: str, option: str) -> tuple[str, ...]:
    """The values this content offers for one of a mode's own setup options (`Mode.setup_options`)."""
    from kcd.content.rules import compile_rules

    rules = compile_rules(ruleset)
    return next((o.choices for o in _mode(mode).setup_options(rules) if o.name == option), ())


def deal_leaders(ruleset: Ruleset, players: Sequence[str], seed: int, fixed: dict[str, str] | None = None) -> dict[str, str]:
    """{flock: leader id} for every flock of `players`: those in `fixed` as given, the others dealt from the Leaders
    nobody took, shuffled by a state RNG seeded from the game seed (so the same seed deals the same Leaders).

    SetupError if a Leader is given to two flocks or too few are left to deal.
    """
    from kcd.content.rules import compile_rules
    from kcd.engine.setup import SetupError
    from kcd.core.state import State

    fixed = dict(fixed or {})
    taken = [leader for f, leader in fixed.items() if f in players]
    twice = sorted({leader for leader in taken if taken.count(leader) > 1})
    if twice:
        raise SetupError(f"Leader `{twice[0]}` is given to two flocks; a Leader leads one flock (R-SETUP-3)")
    left = [leader for leader in compile_rules(ruleset).leaders if leader not in taken]
    # a dealer RNG of its own (the game's RNG stays untouched), from the seed like every other deal
    dealer = State(hexes={}, flocks={}, seats=[], fruit_bag={}, domain_bag={}, rng=(int(seed) ^ _DEAL_SALT) & _MASK64)
    dealer.shuffle(left)
    out = {}
    for flock in players:
        if flock in fixed:
            out[flock] = fixed[flock]
        elif left:
            out[flock] = left.pop(0)
        else:
            raise SetupError(f"no Leader left to deal to {flock}: {len(players)} flocks need {len(players)} Leaders")
    return out


def _complete_leaders(ruleset: Ruleset, players: list[str], seed: int, leaders: dict[str, str] | None,
                      mode: str) -> dict[str, str] | None:
    """Leaders given for some flocks, the rest dealt (`deal_leaders`); None stays None (the engine deals all).
    In solo mode Kiwibot's Leader is left to the engine, which deals it among the rest (R-SOLO-1)."""
    if not leaders:
        return None
    dealt = _mode(mode).deciders(players)
    return deal_leaders(ruleset, dealt, seed, leaders) if any(f not in leaders for f in dealt) else leaders


_DEAL_SALT = 0x1EAD_E125
_MASK64 = (1 << 64) - 1


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
    deciders = _mode(mode).deciders(players)
    entries = list(bots) or ["random"]
    built: list[Bot] = []
    for i in range(len(deciders)):
        entry = entries[i % len(entries)]
        # a name makes a bot seeded per seat; a Bot object given by a front-end plays as it is
        built.append(make_bot(entry, _bot_seed(seed, i)) if isinstance(entry, str) else entry)
    return dict(zip(deciders, built))


def play_game(ruleset: Ruleset, players: Sequence[str], seed: int, bots: Sequence[str | Bot] = ("random",),
              leaders: dict[str, str] | None = None, sides: dict[str, str] | None = None,
              setup: str = "first-game", variant: str | None = None,
              on_decision: Callable[[Game, Any, str, Any], None] | None = None,
              on_start: Callable[[Game], None] | None = None, mode: str = STANDARD,
              solo_side: str | None = None, leader_cards: dict[str, str] | None = None) -> GameRecord:
    """Play one game to its end between bots; `on_decision(game, decision, option_id, applied)` sees each step.

    mode "solo": players=[player, kiwibot], the player's bot is the first of `bots` (R-SOLO-1..12).
    leaders: {flock: leader id} for some or all flocks (the rest are dealt from the seed, `deal_leaders`;
    Kiwibot's by the engine); leader_cards: {flock: leader card id} (default: the Leader's first card).
    Bad options (mode, side, players, variant, leader, leader card) raise the engine's SetupError.
    """
    players = list(players)
    by_flock = _seat_bots(players, seed, bots, mode)
    leaders = _complete_leaders(ruleset, players, seed, leaders, mode)
    game = Game.new(ruleset, players=players, seed=seed, leaders=leaders, sides=sides, setup=setup, variant=variant,
                    mode=mode, solo_side=solo_side, leader_cards=leader_cards)
    if on_start is not None:
        on_start(game)
    decisions = 0
    slots: dict[str, list[int]] = {}
    while not game.is_over:
        decision = game.pending
        assert decision is not None   # the game is not over
        bot = by_flock.get(decision.player)
        if bot is None:   # the engine answers for Kiwibot; a pending decision of it is an engine bug
            raise SimError(f"seed {seed}: decision {decisions} ({decision.kind}) is {decision.player}'s, "
                           f"who has no bot")
        option = bot.choose(game)
        result = game.apply(option)
        if isinstance(result, Refused):
            raise SimError(f"seed {seed}: decision {decisions} `{option}` refused: {result.code}: {result.message}")
        decisions += 1
        if decision.kind == TRACKER_DECISION:
            slots.setdefault(decision.player, []).append(int(option.split(":", 1)[1]))
        if on_decision is not None:
            on_decision(game, decision, option, result)
        if decisions > MAX_DECISIONS:
            raise SimError(f"seed {seed}: no end after {MAX_DECISIONS} decisions")
    st = game.state   # the finished game's own state, read (a whole view cost ~1% of a random game)
    # the mode's public extras (solo: Kiwibot and the marker side), as a view shows them
    extras: dict[str, Any] = {}
    game.mode.view_extras(st, extras)
    solo = extras.get("solo") or {}
    return GameRecord(
        seed=seed, players=players,
        leaders={f: st.flocks[f].leader for f in players},
        sides={f: st.flocks[f].side for f in players},
        scores={f: {k: int(v) for k, v in s.items()} for f, s in game.scores().items()},
        ranking=list(game.ranking()), decisions=decisions,
        season_cards=season_card_results(game),
        bots=[by_flock[f].name if f in by_flock else KIWIBOT for f in players], setup=setup, variant=variant,
        mode=mode, solo_side=solo_side, marker_side=solo.get("marker_side"), kiwibot=solo.get("kiwibot"),
        seats=list(st.seats),
        leader_cards={f: st.flocks[f].leader_card for f in players},
        nests={f: list(st.flocks[f].nests_built) for f in players}, tracker_slots=slots)


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
    cancelled: bool = False   # the run was stopped (`simulate(cancel=...)`): `records` are the games finished

    def summary(self) -> dict[str, Any]:
        """Win rates by seat, flock, leader, bot, side and leader card (95% Wilson), mean VP by source, Season cards, game length;
        with solo games also `solo` (player vs Kiwibot, see `solo_summary`) and the `solo` VP source."""
        games = len(self.records)
        # player-vs-engine games (a seat the engine plays, e.g. Kiwibot) get a summary by role
        solo_records = [r for r in self.records if r.kiwibot is not None]
        sources = SOLO_VP_SOURCES if solo_records else VP_SOURCES
        tallies: dict[str, dict[str, list[int]]] = {"seat": {}, "flock": {}, "leader": {}, "bot": {}, "side": {},
                                                    "leader_card": {}}
        vp = {k: 0.0 for k in sources}
        cards: dict[str, dict[str, Any]] = {}
        entries = 0
        for rec in self.records:
            winner = rec.ranking[0]  # a full tie after R-END-3 still goes to the engine's ranking order
            for seat, flock in enumerate(rec.seat_order, start=1):
                keys = {"seat": str(seat), "flock": flock, "leader": rec.leaders.get(flock, "?"),
                        "bot": rec.bots[rec.players.index(flock)] if rec.bots else "?",
                        "side": rec.sides.get(flock, "?"), "leader_card": rec.leader_cards.get(flock)}
                for group, key in keys.items():
                    if key is None:    # a record from before leader cards were recorded
                        continue
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
        assert player is not None and bot is not None   # solo records only
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
    """What every game of one simulation shares (picklable but for the ruleset: see interpreter/analysis/simrun.py)."""

    ruleset: Ruleset
    seed: int
    flocks: tuple[str, ...]
    bots: tuple[str, ...]
    leaders: dict[str, str] | None
    sides: dict[str, str] | None
    setup: str
    variant: str | None = None
    mode: str = STANDARD
    solo_side: str | None = None
    leader_cards: dict[str, str] | None = None
    cover: bool = False

    @staticmethod
    def record_from_dict(data: dict[str, Any]) -> "GameRecord":
        """A record sent back as plain data (a Dask worker's result)."""
        return GameRecord.from_dict(data)

    def game_options(self, i: int) -> dict[str, Any]:
        """play_game's arguments of game i: seed + i, flocks rotated by i seats (solo: not rotated).

        With `cover`, the flocks not fixed by `sides` / `leaders` / `leader_cards` play both sides and every
        Leader card by design: in block b = i // n (n flocks) flock j plays side B when b + j is odd, so over
        2n games each flock plays each seat on each side; Leaders are dealt from the seed (`deal_leaders`)
        and a dealt Leader plays its card number (i // 2n + j) mod (its cards), so side and card alternate
        independently and every card of every Leader comes up.
        """
        n = len(self.flocks)
        shift = i % n if _mode(self.mode).rotates_seats else 0
        seats = list(self.flocks[shift:]) + list(self.flocks[:shift])
        leaders, sides, cards = self.leaders, self.sides, self.leader_cards
        if self.cover:
            block = i // n
            sides = {f: (self.sides or {}).get(f) or ("B" if (block + j) % 2 else "A")
                     for j, f in enumerate(self.flocks)}
            dealt = _mode(self.mode).deciders(self.flocks)
            leaders = deal_leaders(self.ruleset, list(dealt), self.seed + i, self.leaders)
            from kcd.content.rules import compile_rules

            rules = compile_rules(self.ruleset)
            cards = dict(self.leader_cards or {})
            for j, f in enumerate(dealt):
                own = rules.leaders[leaders[f]].card_ids
                if f not in cards and own:
                    cards[f] = own[(i // (2 * n) + j) % len(own)]
        return {"players": seats, "seed": self.seed + i, "bots": self.bots, "leaders": leaders, "sides": sides,
                "leader_cards": cards, "setup": self.setup, "variant": self.variant, "mode": self.mode,
                "solo_side": self.solo_side}

    def play(self, i: int) -> GameRecord:
        """Play game i of the simulation."""
        return play_game(self.ruleset, **self.game_options(i))


def simulate(ruleset: Ruleset, games: int, players: int | None = None, seed: int = 0, bots: Sequence[str] = ("random",),
             jobs: int = 1, progress: Callable[[int, int], None] | None = None,
             flocks: Sequence[str] | None = None, leaders: dict[str, str] | None = None,
             sides: dict[str, str] | None = None, setup: str = "first-game",
             variant: str | None = None, mode: str = STANDARD, solo_side: str | None = None,
             leader_cards: dict[str, str] | None = None, cover: bool = False,
             cancel: Callable[[], bool] | Any = None, scheduler: str | None = None) -> SimReport:
    """Play `games` games (seeds seed..seed+games-1, flocks rotating seats) on `jobs` processes or a Dask cluster.

    players: default 4 (solo: 2, the only count it takes). `variant` (None or a key of KNOWN_VARIANTS), `mode`
    and `solo_side` are checked before any game runs: the engine's SetupError names the known variants or
    sides, or says the content does not offer them. mode "solo": `flocks` is [player, kiwibot] (default: the
    first two of the seat order) and only the player's bot (the first of `bots`) plays.
    leaders / leader_cards / sides: per flock (leaders not given are dealt from each game's seed); `cover=True`
    makes the other flocks play both sides and every Leader card by design (`_Plan.game_options`).
    cancel: a callable returning True (or a threading.Event, when set) stops the run: every worker ends and the
    report holds the games finished so far, with `cancelled=True`. scheduler: a Dask distributed scheduler
    address (`tcp://host:port`): the games run on that cluster, giving the same records as local processes.
    """
    from kcd.engine.setup import SetupError

    if games < 0:
        raise ValueError("games must be >= 0")
    for name in bots:
        make_bot(name, 0)  # fail early on an unknown bot name
    chosen = _mode(mode)
    wanted = chosen.player_count
    if wanted is not None and (players not in (None, wanted) or (flocks is not None and len(flocks) != wanted)):
        raise SetupError(f"{mode} mode is {chosen.seats_text}: got "
                         f"{list(flocks) if flocks is not None else f'{players} players'}")
    count = players if players is not None else chosen.default_players()
    plan = _Plan(ruleset, seed, tuple(flocks) if flocks else tuple(default_flocks(ruleset, count)),
                 tuple(bots) or ("random",), leaders, sides, setup, variant, mode, solo_side, leader_cards, cover)
    if games:
        # fail early (before starting workers) on a bad variant/mode/side/setup/flock/leader choice: the
        # engine's SetupError
        first = plan.game_options(0)
        first_leaders = _complete_leaders(ruleset, first["players"], first["seed"], first["leaders"], mode)
        Game.new(ruleset, players=first["players"], seed=seed, leaders=first_leaders, sides=first["sides"],
                 setup=setup, variant=variant, mode=mode, solo_side=solo_side, leader_cards=first["leader_cards"])
    try:
        records, cancelled = simrun.run(plan, games, jobs=jobs, progress=progress, cancel=cancel, scheduler=scheduler)
    except simrun.SchedulerError as err:
        raise SimError(str(err)) from None
    return SimReport(records, cancelled=cancelled)


# --- golden playthroughs --------------------------------------------------------------------------------

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "tests" / "golden"
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
# GameRecord fields added for balance reports (Leader cards, Nests built, tracker slots): left out of every golden
# result, so the pinned files stay as they are (the decisions and events pin what these fields summarise).
_BALANCE_RECORD_FIELDS = ("leader_cards", "nests", "tracker_slots")


def event_text(event: Any) -> str:
    """A readable line for one engine event."""
    text = getattr(event, "text", None)
    return text if isinstance(text, str) else str(event)


def golden_playthrough(ruleset: Ruleset, players: int, seed: int, bots: Sequence[str],
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
    for key in _BALANCE_RECORD_FIELDS:
        result.pop(key)
    data: dict[str, Any] = {"players": flocks, "seed": seed, "bots": list(bots), "variant": variant,
                            "content_hash": ruleset.hash, "result": result, "steps": steps}
    if not _mode(mode).engine_seats(flocks):   # a game without a mode's own record fields
        for key in _SOLO_RECORD_FIELDS:
            result.pop(key)
    else:
        data.update(mode=mode, solo_side=solo_side, start_events=start)
    return data


def golden_games() -> list[tuple[str, dict[str, Any]]]:
    """Every pinned game as (file name, golden_playthrough keyword arguments), standard then solo."""
    games = [(name, {"players": players, "seed": seed, "bots": bots, "variant": variant})
             for name, players, seed, bots, variant in GOLDEN_GAMES]
    games += [(name, {"players": 2, "seed": seed, "bots": bots, "mode": "solo", "solo_side": side})
              for name, seed, bots, side in GOLDEN_SOLO_GAMES]
    return games


def regen_golden(ruleset: Ruleset, directory: Path = GOLDEN_DIR) -> list[Path]:
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
    """`python -m kcd.analysis.sim --regen-golden`: rewrite tests/golden/*.json."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--regen-golden"]:
        print("usage: python -m kcd.analysis.sim --regen-golden", file=sys.stderr)
        return 2
    from kcd.content import load_ruleset

    for path in regen_golden(load_ruleset()):
        print(f"wrote {os.path.relpath(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
