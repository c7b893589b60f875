"""Balance reports over simulated games (`kcd balance`): who wins how often, with 95% intervals, and what is unfair.

`balance_report(records, ruleset)` turns GameRecords into a report (plain data, `to_dict()` is the JSON form):

- win rate (95% Wilson interval) and mean VP (95% normal interval) by seat, flock, side, Leader, Leader card,
  turn tracker slot (Variable Turn Order: every slot a flock took counts once);
- Season cards: how often each card's victor wins the game (plays with an outright victor), and how often it ties;
- Nests: how often each Nest (and each Nest type) is built, and the win rate of the flocks that built it;
- VP by source (mean per flock, and per flock and per side), with 95% intervals.

The fair band. An entity is flagged only when its whole 95% interval lies outside the band, so noise alone
(about 1 in 20 intervals misses the truth) rarely flags, and a flag says "this is off by more than the margin".
- Seat, flock, side, Leader, Leader card, tracker slot: the fair share is what a flock would win at random, the
  mean of 1/players over the games the entity played; the band is fair share +- `margin` (default 5 points).
- Season cards, Nests, Nest types: the reference is the pooled rate of the group (all cards' victors, all
  builders; for a Nest, the builders of the Nests of its row, since a row-2 Nest is built by flocks already
  ahead), since winning a card or building a Nest is already good play; the band is that rate +- `margin`.
Each flag carries its evidence in words: the rate, its interval, the band and the games behind it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from kcd.analysis.abtest import GROUPS, VP_SOURCE_NAMES, entity_names, seat_order
from kcd.analysis.sim import GameRecord, wilson

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset

DEFAULT_MARGIN = 0.05
# Groups whose reference is each flock's fair share (1/players), and groups measured against their pooled rate.
FAIR_SHARE_GROUPS: tuple[str, ...] = ("seat", "flock", "side", "leader", "leader_card", "tracker_slot")
POOLED_GROUPS: tuple[str, ...] = ("season_card", "nest", "nest_type")
REPORT_GROUPS: tuple[str, ...] = FAIR_SHARE_GROUPS + POOLED_GROUPS
GROUP_NAMES: dict[str, str] = {**GROUPS, "nest_type": "Nest type", "tracker_slot": "Turn tracker slot"}
# What a group's rate means, for titles and axes.
RATE_MEANING: dict[str, str] = {
    "season_card": "its victor wins the game", "nest": "win rate of its builders",
    "nest_type": "win rate of its builders",
}


@dataclass
class Entry:
    """One entity's figures: its win rate with the Wilson interval, mean VP with a normal interval, the band."""

    group: str
    key: str
    label: str
    n: int
    wins: int
    rate: float
    low: float
    high: float
    fair: float
    band: tuple[float, float]
    mean_vp: float | None = None
    vp_low: float | None = None
    vp_high: float | None = None
    flag: str | None = None          # "strong" (interval above the band), "weak" (below) or None
    evidence: str = ""
    extra: dict[str, Any] = field(default_factory=dict)   # per group: times built, ties, ...

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {"group": self.group, "key": self.key, "label": self.label, "n": self.n, "wins": self.wins,
                "rate": self.rate, "low": self.low, "high": self.high, "fair": self.fair, "band": list(self.band),
                "mean_vp": self.mean_vp, "vp_low": self.vp_low, "vp_high": self.vp_high, "flag": self.flag,
                "evidence": self.evidence, **self.extra}


@dataclass
class BalanceReport:
    """A balance report: entries per group, VP by source, flags, coverage and what was played."""

    games: int
    margin: float
    groups: dict[str, list[Entry]]
    vp_by_source: dict[str, Any]
    flags: list[Entry]
    coverage: dict[str, Any]
    played: dict[str, Any]
    colours: dict[str, str] = field(default_factory=dict)   # flock id -> colour from content
    names: dict[str, str] = field(default_factory=dict)

    def entry(self, group: str, key: str) -> Entry | None:
        """The entry of one entity, or None."""
        return next((e for e in self.groups.get(group, []) if e.key == key), None)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (`kcd balance --json`)."""
        return {"games": self.games, "played": self.played, "fair_band": band_rule(self.margin),
                "groups": {g: [e.to_dict() for e in entries] for g, entries in self.groups.items()},
                "vp_by_source": self.vp_by_source, "flags": [e.to_dict() for e in self.flags],
                "coverage": self.coverage, "colours": self.colours}


def band_rule(margin: float) -> dict[str, Any]:
    """How the fair band is chosen, in data and words (for the JSON, the HTML and the terminal)."""
    return {"margin": margin, "rule": (
        f"Seat, flock, side, Leader, Leader card and tracker slot: fair share (1/players) +- {100 * margin:.0f} "
        f"points; Season cards and Nest types: the group's pooled rate, a Nest: the pooled rate of its row's Nests, "
        f"+- {100 * margin:.0f} points. Flagged only when "
        "the whole 95% interval lies outside the band.")}


def _mean_interval(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """(mean, low, high): the normal 95% interval of a mean (zero width for fewer than 2 values), cut at 0.

    VP are never negative, so neither is their mean: the normal interval's lower end is clamped to 0 rather than
    reporting a mean VP no game could have (few games with many zeros give a wide interval around a small mean)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), mean + half


class _Obs:
    """Observations of one entity: (won, VP total, fair share) per appearance."""

    __slots__ = ("won", "vp", "fair")

    def __init__(self) -> None:
        self.won: list[int] = []
        self.vp: list[float] = []
        self.fair: list[float] = []

    def add(self, won: bool, vp: float | None, fair: float) -> None:
        self.won.append(1 if won else 0)
        if vp is not None:
            self.vp.append(float(vp))
        self.fair.append(fair)


def _label(group: str, key: str, names: Mapping[str, str]) -> str:
    name = names.get(f"{group}:{key}")
    if group == "seat":
        return f"Seat {key}"
    if group == "side":
        return f"Side {key}"
    if group == "tracker_slot":
        return f"Slot {key}"
    if group == "nest_type":
        return f"{key.capitalize()} Nests"
    return name or key


def balance_report(records: Iterable[Any], ruleset: Ruleset | None = None, *, margin: float = DEFAULT_MARGIN,
                   z: float = 1.96) -> BalanceReport:
    """The balance report of these games (GameRecords or their dicts); `ruleset` gives names, colours, Nest types
    and the coverage check (every side and Leader card of the content played)."""
    recs = [r if isinstance(r, GameRecord) else GameRecord.from_dict(dict(r)) for r in records]
    names = entity_names(ruleset) if ruleset is not None else {}
    nest_types = ({item.id: str(item.raw.get("type")) for item in ruleset.items("nests") if item.raw.get("type")}
                  if ruleset is not None else {})
    nest_rows = ({item.id: item.raw.get("row", 1) for item in ruleset.items("nests")} if ruleset is not None else {})
    obs: dict[str, dict[str, _Obs]] = {g: {} for g in REPORT_GROUPS}
    ties: dict[str, int] = {}
    built: dict[str, int] = {}
    sources: list[str] = []
    vp_all: dict[str, list[float]] = {}
    vp_flock: dict[str, dict[str, list[float]]] = {}
    vp_side: dict[str, dict[str, list[float]]] = {}

    def add(group: str, key: Any, won: bool, vp: float | None, fair: float) -> None:
        obs[group].setdefault(str(key), _Obs()).add(won, vp, fair)

    for rec in recs:
        seats = seat_order(rec)
        fair = 1.0 / len(seats) if seats else 0.0
        winner = rec.ranking[0] if rec.ranking else None
        for seat, flock in enumerate(seats, start=1):
            won, score = flock == winner, rec.scores.get(flock, {})
            vp = score.get("total")
            add("seat", seat, won, vp, fair)
            add("flock", flock, won, vp, fair)
            add("side", rec.sides.get(flock, "?"), won, vp, fair)
            add("leader", rec.leaders.get(flock, "?"), won, vp, fair)
            if rec.leader_cards.get(flock):
                add("leader_card", rec.leader_cards[flock], won, vp, fair)
            for slot in rec.tracker_slots.get(flock, []):
                add("tracker_slot", slot, won, vp, fair)
            for nest in rec.nests.get(flock, []):
                built[nest] = built.get(nest, 0) + 1
                add("nest", nest, won, vp, 0.0)
            for kind in {nest_types[n] for n in rec.nests.get(flock, []) if n in nest_types}:
                add("nest_type", kind, won, vp, 0.0)
            for source, value in score.items():
                if source not in sources:
                    sources.append(source)
                vp_all.setdefault(source, []).append(value)
                vp_flock.setdefault(flock, {}).setdefault(source, []).append(value)
                vp_side.setdefault(rec.sides.get(flock, "?"), {}).setdefault(source, []).append(value)
        for card in rec.season_cards:
            if card.get("victor") is None:
                ties[card["id"]] = ties.get(card["id"], 0) + 1
                obs["season_card"].setdefault(card["id"], _Obs())
            else:
                add("season_card", card["id"], card["victor"] == winner, None, 0.0)

    groups: dict[str, list[Entry]] = {}
    flags: list[Entry] = []
    for group in REPORT_GROUPS:
        entries = []
        # a Nest is measured against the Nests of its row (a row-2 Nest is built by flocks already ahead)
        cohort = (lambda key: nest_rows.get(key)) if group == "nest" else (lambda key: None)
        pooled: dict[Any, list[int]] = {}
        for key, o in obs[group].items():
            tally = pooled.setdefault(cohort(key), [0, 0])
            tally[0] += sum(o.won)
            tally[1] += len(o.won)
        for key, o in obs[group].items():
            n, wins = len(o.won), sum(o.won)
            low, high = wilson(wins, n, z)
            same = pooled[cohort(key)]
            fair = (sum(o.fair) / n if n else 0.0) if group in FAIR_SHARE_GROUPS else (
                same[0] / same[1] if same[1] else 0.0)
            band = (max(0.0, fair - margin), min(1.0, fair + margin))
            mean_vp, vp_low, vp_high = _mean_interval(o.vp, z) if o.vp else (None, None, None)
            entry = Entry(group, key, _label(group, key, names), n, wins, wins / n if n else 0.0, low, high, fair,
                          band, mean_vp, vp_low, vp_high)
            if group == "season_card":
                entry.extra = {"played": n + ties.get(key, 0), "ties": ties.get(key, 0)}
            elif group == "nest":
                entry.extra = {"built": built.get(key, 0), "built_per_game": built.get(key, 0) / len(recs) if recs else 0}
            if n and (low > band[1] or high < band[0]):
                entry.flag = "strong" if low > band[1] else "weak"
                ref = ("fair share" if group in FAIR_SHARE_GROUPS else
                       f"pooled rate of row-{cohort(key)} Nests" if cohort(key) is not None else "pooled rate")
                title = GROUP_NAMES.get(group, group)
                named = entry.label if title.lower() in entry.label.lower() else f"{title} {entry.label}"
                entry.evidence = (f"{named}: {100 * entry.rate:.1f}% "
                                  f"(95% {100 * low:.1f}-{100 * high:.1f}%, {wins}/{n}) is "
                                  f"{'above' if entry.flag == 'strong' else 'below'} the fair band "
                                  f"{100 * band[0]:.1f}-{100 * band[1]:.1f}% ({ref} {100 * fair:.1f}% "
                                  f"+- {100 * margin:.0f} points)")
                flags.append(entry)
            entries.append(entry)
        entries.sort(key=lambda e: ((0, int(e.key), "") if e.key.isdigit() else (1, 0, e.key)))
        if entries:
            groups[group] = entries

    def vp_table(values: dict[str, list[float]]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}   # mean, low, high (numbers) and the source's label
        for source in sources:
            mean, low, high = _mean_interval(values.get(source, []), z)
            out[source] = {"mean": mean, "low": low, "high": high, "label": VP_SOURCE_NAMES.get(source, source)}
        return out

    by_source = {"all": vp_table(vp_all), "by_flock": {f: vp_table(v) for f, v in sorted(vp_flock.items())},
          "by_side": {s: vp_table(v) for s, v in sorted(vp_side.items())}, "sources": sources}
    flags.sort(key=lambda e: -max(e.low - e.band[1], e.band[0] - e.high))
    colours = ({item.id: str(item.raw.get("colour")) for item in ruleset.items("flocks") if item.raw.get("colour")}
               if ruleset is not None else {})
    return BalanceReport(games=len(recs), margin=margin, groups=groups, vp_by_source=by_source, flags=flags,
                         coverage=coverage(recs, ruleset), played=_played(recs), colours=colours, names=names)


def coverage(records: Sequence[GameRecord], ruleset: Ruleset | None = None) -> dict[str, Any]:
    """What the games covered: sides and Leader cards played, and the content's ones never played."""
    sides = sorted({s for r in records for s in r.sides.values()})
    cards = {c for r in records for c in r.leader_cards.values()}
    leaders = {ld for r in records for ld in r.leaders.values()}
    out: dict[str, Any] = {"sides": sides, "leader_cards": len(cards), "leaders": len(leaders)}
    if ruleset is not None:
        out["missing_leader_cards"] = [i.id for i in ruleset.items("leader_cards") if i.id not in cards]
        out["missing_leaders"] = [i.id for i in ruleset.items("leaders") if i.id not in leaders]
        out["missing_sides"] = [s for s in ("A", "B") if s not in sides]
    return out


def _played(records: Sequence[GameRecord]) -> dict[str, Any]:
    """What the games were: player counts, bots, variants, seeds."""
    seeds = [r.seed for r in records]
    return {"players": sorted({len(r.players) for r in records}), "bots": sorted({b for r in records for b in r.bots}),
            "variants": sorted({r.variant or "standard" for r in records}),
            "seeds": [min(seeds), max(seeds)] if seeds else [], "flocks": sorted({f for r in records for f in r.players})}


def games_for_cover(players: int, leader_cards: int, minimum: int = 200) -> int:
    """A game count that covers both sides in every seat for every flock (a multiple of 2 * players) and gives
    each Leader card about 30 appearances at least: max(minimum, 30 * cards / players), rounded up to 2n."""
    block = 2 * players
    wanted = max(minimum, math.ceil(30 * leader_cards / max(1, players)))
    return math.ceil(wanted / block) * block
