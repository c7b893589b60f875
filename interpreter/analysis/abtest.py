"""Paired A/B statistics over game records: what did a content change do, with honest 95% intervals.

The same games (same seed, same seat order) are played under content A and content B. Every game gives
each entity a figure on each side (did flock red win: 0/1; mean VP from Nests per flock; ...), so the change
is measured per game, as the paired difference `b - a`, which cancels the luck the two sides share (the
same dealt leaders, Season cards and bot seeds) and needs far fewer games than two independent runs.

Interval: the normal interval on the mean paired difference, `mean ± z * sd / sqrt(n)` (sample sd). When
every paired difference is equal (often: a change that never altered a game's winner), the sd is 0 and the
normal interval would claim certainty; a rate row then uses a Wilson-style bound instead: with no discordant
pair among n, the chance of one is at most the Wilson upper bound of 0 successes in n (about 3.8/n at 95%),
so the interval is `diff ± that bound`. A mean row (VP) with every difference equal keeps the zero-width
interval (every game moved by exactly that much); a row with fewer than 2 pairs gets an unbounded interval.
The verdict is "no detectable change" whenever the interval holds zero.

Win rates are per-game 0/1 outcomes (win = first in `ranking`); rates are fractions 0..1 here, displays show %.
Groups (keys as `group:key`, e.g. "flock:red", "leader:kahu", "season_card:most-nests", "nest:tree-1"):

- seat, flock, leader, leader_card, bot: win rate of the flock(s) in that seat / with that flock, leader,
  leader card or bot (a per-game fraction when several flocks share the key, e.g. a bot);
- side: win rate of the flocks on side A or B (the per-game fraction of them that won);
- season_card: how often that card's victor wins the game (games where it was played and won outright);
- tracker_slot: win rate of the flocks taking that turn tracker slot (Variable Turn Order, each pick counts);
- nest: mean number of that Nest built per game (all flocks together);
- vp: mean VP per flock from each source (domain, nests, season_cards, [solo], total);
- length: mean decisions per game.

Fields a record lacks (older records without `leader_cards`, `nests` or `tracker_slots`) just give no rows.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset

RATE, MEAN = "rate", "mean"
NO_CHANGE, HIGHER, LOWER = "no detectable change", "higher in B", "lower in B"
# Group order of the report (focus rows first, then this order) and each group's readable name.
GROUPS: dict[str, str] = {
    "seat": "Seat", "flock": "Flock", "side": "Side", "leader": "Leader", "leader_card": "Leader card",
    "bot": "Bot", "season_card": "Season card", "nest": "Nest", "tracker_slot": "Turn tracker slot",
    "vp": "VP", "length": "Game length",
}
VP_SOURCE_NAMES: dict[str, str] = {
    "domain": "Domain markers", "nests": "Nests", "season_cards": "Season cards", "solo": "Kiwibot's unplaced markers",
    "total": "total",
}
# The sd of a paired win-rate difference with no correlation between the sides at a 50% rate:
# sqrt(2 * 0.5 * 0.5); the conservative default of `games_needed`.
DEFAULT_RATE_SD = math.sqrt(0.5)


@dataclass(frozen=True)
class ABRow:
    """One entity's figure on A and on B, and their paired difference with its 95% interval."""

    group: str
    key: str
    label: str
    a: float
    b: float
    diff: float
    low: float
    high: float
    n: int
    verdict: str
    focus: bool = False
    kind: str = RATE        # "rate" (0..1) or "mean" (VP, decisions)
    sd: float = 0.0         # sample sd of the paired differences (for games_needed)

    @property
    def id(self) -> str:
        """The entity key `group:key` (as `focus` names it)."""
        return f"{self.group}:{self.key}"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (an unbounded interval end is None)."""
        out = asdict(self)
        for k in ("low", "high"):
            if not math.isfinite(out[k]):
                out[k] = None
        return out

    def describe(self) -> str:
        """One line in plain words, e.g. `Flock Red win rate: 25.0% -> 31.5% (+6.5 points, 95% +2.1 to +10.9)`."""
        if self.kind == RATE:
            fmt, unit = (lambda v: f"{100 * v:.1f}%"), " points"
            sfmt = lambda v: f"{100 * v:+.1f}" if math.isfinite(v) else ("-inf" if v < 0 else "+inf")  # noqa: E731
        else:
            fmt, unit = (lambda v: f"{v:.2f}"), ""
            sfmt = lambda v: f"{v:+.2f}" if math.isfinite(v) else ("-inf" if v < 0 else "+inf")  # noqa: E731
        return (f"{self.label}: {fmt(self.a)} -> {fmt(self.b)} ({sfmt(self.diff)}{unit}, 95% {sfmt(self.low)} to "
                f"{sfmt(self.high)}; {self.n} paired games): {self.verdict}")


@dataclass(frozen=True)
class ABReport:
    """The rows of a paired comparison: focus rows first, then by group and key."""

    rows: list[ABRow]
    pairs: int
    z: float = 1.96
    focus: tuple[str, ...] = ()
    unpaired: dict[str, int] = field(default_factory=dict)   # {"group:key": games it appears in on one side only}

    def row(self, group: str, key: str) -> ABRow | None:
        """The row of one entity, or None if it appears on neither side."""
        return next((r for r in self.rows if r.group == group and r.key == key), None)

    def changed(self) -> list[ABRow]:
        """The rows whose interval excludes zero."""
        return [r for r in self.rows if r.verdict != NO_CHANGE]

    def typical_sd(self) -> float | None:
        """The median sd of the win-rate rows (None when none varies: games_needed's default)."""
        sds = sorted(r.sd for r in self.rows if r.kind == RATE and r.n and r.sd > 0)
        return sds[len(sds) // 2] if sds else None

    def summary_text(self, effect: float | None = None) -> str:
        """Plain words: the focus rows, then what changed detectably (or that nothing did), and games needed
        (for a change of `effect`, or of 5 and 10 points)."""
        lines: list[str] = []
        focus = [r for r in self.rows if r.focus]
        if focus:
            lines.append("Your edited items:")
            lines += [f"  {r.describe()}" for r in focus]
        changed = [r for r in self.changed() if not r.focus]
        changed_rates = [r for r in changed if r.kind == RATE]
        if not changed_rates:
            lines.append(f"No detectable change in any win rate over {self.pairs} paired games "
                         f"(every 95% interval holds zero).")
        if changed:
            lines.append(f"Detectable changes over {self.pairs} paired games:")
            lines += [f"  {r.describe()}" for r in changed]
        sd = self.typical_sd()
        if effect is not None:
            lines.append(f"To detect a {100 * effect:.0f}-point change in a win rate, play about "
                         f"{games_needed(effect, sd, z=self.z)} paired games.")
        else:
            lines.append(f"To detect a 5-point change in a win rate, play about {games_needed(0.05, sd, z=self.z)} "
                         f"paired games (10 points: {games_needed(0.10, sd, z=self.z)}).")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: pairs, focus, rows, unpaired and the summary text."""
        return {"pairs": self.pairs, "z": self.z, "focus": list(self.focus), "rows": [r.to_dict() for r in self.rows],
                "unpaired": dict(self.unpaired), "summary": self.summary_text()}


def _get(record: Any, name: str, default: Any = None) -> Any:
    """A field of a GameRecord or of its to_dict() form."""
    if isinstance(record, Mapping):
        return record.get(name, default)
    return getattr(record, name, default)


def seat_order(record: Any) -> list[str]:
    """The flocks in seat order of a record (its `seats`, else `players`)."""
    return list(_get(record, "seats") or _get(record, "players") or [])


def _add(out: dict[tuple[str, str], list[float]], group: str, key: Any, value: float) -> None:
    out.setdefault((group, str(key)), []).append(float(value))


def outcomes(record: Any) -> dict[tuple[str, str], tuple[float, str]]:
    """{(group, key): (figure, kind)} of one game: the per-game figures `compare` pairs (see the module doc)."""
    ranking = list(_get(record, "ranking") or [])
    winner = ranking[0] if ranking else None
    players = list(_get(record, "players") or [])
    seats = seat_order(record)
    leaders = _get(record, "leaders") or {}
    cards = _get(record, "leader_cards") or {}
    sides = _get(record, "sides") or {}
    bots = list(_get(record, "bots") or [])
    scores = _get(record, "scores") or {}
    rates: dict[tuple[str, str], list[float]] = {}
    means: dict[tuple[str, str], list[float]] = {}
    for seat, flock in enumerate(seats, start=1):
        won = 1.0 if flock == winner else 0.0
        _add(rates, "seat", seat, won)
        _add(rates, "flock", flock, won)
        if flock in sides:
            _add(rates, "side", sides[flock], won)
        if flock in leaders:
            _add(rates, "leader", leaders[flock], won)
        if cards.get(flock):
            _add(rates, "leader_card", cards[flock], won)
        if bots and flock in players:
            _add(rates, "bot", bots[players.index(flock)], won)
        for source, vp in (scores.get(flock) or {}).items():
            _add(means, "vp", source, vp)
    for card in _get(record, "season_cards") or []:
        victor = card.get("victor")
        if victor is not None and winner is not None:
            _add(rates, "season_card", card["id"], 1.0 if victor == winner else 0.0)
    for flock, slots in (_get(record, "tracker_slots") or {}).items():
        for slot in slots:
            _add(rates, "tracker_slot", slot, 1.0 if flock == winner else 0.0)
    nests = _get(record, "nests")
    if nests is not None:
        built: dict[str, int] = {}
        for flock_nests in nests.values():
            for nest in flock_nests:
                built[nest] = built.get(nest, 0) + 1
        for nest, count in built.items():
            means[("nest", nest)] = [float(count)]
    decisions = _get(record, "decisions")
    if decisions is not None:
        means[("length", "decisions")] = [float(decisions)]
    out = {k: (sum(v) / len(v), RATE) for k, v in rates.items()}
    # a nest type some game never built counts 0 in it: filled in by `compare` for nests seen anywhere
    out.update({k: (sum(v) / len(v) if k[0] != "nest" else v[0], MEAN) for k, v in means.items()})
    return out


def _pair(records_a: Sequence[Any], records_b: Sequence[Any]) -> list[tuple[Any, Any]]:
    """The records matched by (seed, seat order); ValueError naming the seed of any record without a partner."""
    def index(records: Sequence[Any], side: str) -> dict[tuple[int, tuple[str, ...]], Any]:
        out: dict[tuple[int, tuple[str, ...]], Any] = {}
        for rec in records:
            key = (int(_get(rec, "seed")), tuple(seat_order(rec)))
            if key in out:
                raise ValueError(f"seed {key[0]} (seats {', '.join(key[1])}) appears twice in the {side} records")
            out[key] = rec
        return out

    a, b = index(records_a, "A"), index(records_b, "B")
    for key in a:
        if key not in b:
            other = [s for (seed, s) in b if seed == key[0]]
            extra = f" (B has it with seats {', '.join(other[0])})" if other else ""
            raise ValueError(f"seed {key[0]} (seats {', '.join(key[1])}) is in A but not in B{extra}: "
                             "A/B needs the same games on both sides")
    for key in b:
        if key not in a:
            raise ValueError(f"seed {key[0]} (seats {', '.join(key[1])}) is in B but not in A: "
                             "A/B needs the same games on both sides")
    return [(a[k], b[k]) for k in sorted(a)]


def _interval(diffs: Sequence[float], kind: str, z: float) -> tuple[float, float, float, float]:
    """(mean diff, low, high, sd) of paired differences (see the module doc for the fallbacks)."""
    n = len(diffs)
    if n == 0:
        return 0.0, -math.inf, math.inf, 0.0
    mean = sum(diffs) / n
    if n < 2:
        lo, hi = (-1.0, 1.0) if kind == RATE else (-math.inf, math.inf)
        return mean, lo, hi, 0.0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    sd = math.sqrt(var)
    if sd == 0.0 and kind == RATE:
        from kcd.analysis.sim import wilson

        half = wilson(0, n, z)[1]
    else:
        half = z * sd / math.sqrt(n)
    lo, hi = mean - half, mean + half
    if kind == RATE:
        lo, hi = max(-1.0, lo), min(1.0, hi)
    return mean, lo, hi, sd


def default_label(group: str, key: str, names: Mapping[str, str] | None = None) -> str:
    """A readable row label: `Flock Red win rate`, `VP from Season cards`, `Season card X: its winner wins`."""
    name = (names or {}).get(f"{group}:{key}")
    if group == "vp":
        source = VP_SOURCE_NAMES.get(key, key.replace("_", " "))
        return "VP total (mean per flock)" if key == "total" else f"VP from {source} (mean per flock)"
    if group == "length":
        return "Game length (decisions)"
    title = GROUPS.get(group, group.replace("_", " ").capitalize())
    shown = name or key
    if group == "season_card":
        return f"Season card {shown}: its winner wins the game"
    if group == "nest":
        return f"Nest {shown}: built per game"
    # a content name that already says what it is ("Red Flock") is not prefixed again
    return f"{shown} win rate" if title.lower() in shown.lower() else f"{title} {shown} win rate"


def compare(records_a: Iterable[Any], records_b: Iterable[Any], *, focus: Iterable[str] = (), z: float = 1.96,
            names: Mapping[str, str] | None = None) -> ABReport:
    """Paired comparison of the same games under content A and B (see the module doc).

    records_*: GameRecords or their to_dict() forms, paired by seed and seat order (ValueError names the seed
    of an unpaired record). focus: `group:key` entities edited (their rows come first). names: optional
    {"group:key": readable name} for labels (`entity_names(ruleset)`).
    """
    pairs = _pair(list(records_a), list(records_b))
    focus_keys = tuple(focus)
    per_pair = [(outcomes(ra), outcomes(rb)) for ra, rb in pairs]
    keys: set[tuple[str, str]] = set()
    for oa, ob in per_pair:
        keys.update(oa)
        keys.update(ob)
    rows: list[ABRow] = []
    unpaired: dict[str, int] = {}
    for group, key in keys:
        kind = RATE
        a_vals, b_vals, lone = [], [], 0
        for oa, ob in per_pair:
            fa, fb = oa.get((group, key)), ob.get((group, key))
            if group == "nest":   # a Nest not built in a game was built 0 times there (a paired 0, not missing)
                fa, fb = fa or (0.0, MEAN), fb or (0.0, MEAN)
            if fa is not None and fb is not None:
                a_vals.append(fa[0])
                b_vals.append(fb[0])
                kind = fa[1]
            elif fa is not None or fb is not None:
                lone += 1
                kind = (fa or fb)[1]  # type: ignore[index]
        if lone:
            unpaired[f"{group}:{key}"] = lone
        n = len(a_vals)
        diff, low, high, sd = _interval([b - a for a, b in zip(a_vals, b_vals)], kind, z)
        verdict = NO_CHANGE if low <= 0 <= high else HIGHER if low > 0 else LOWER
        rows.append(ABRow(group=group, key=key, label=default_label(group, key, names),
                          a=sum(a_vals) / n if n else 0.0, b=sum(b_vals) / n if n else 0.0, diff=diff,
                          low=low, high=high, n=n, verdict=verdict, focus=f"{group}:{key}" in focus_keys,
                          kind=kind, sd=sd))
    order = list(GROUPS)

    def sort_key(r: ABRow) -> tuple:
        rank = focus_keys.index(r.id) if r.focus else len(focus_keys)
        natural = (0, int(r.key), "") if r.key.isdigit() else (1, 0, r.key)
        return (rank, order.index(r.group) if r.group in order else len(order), r.group, natural)

    rows.sort(key=sort_key)
    return ABReport(rows=rows, pairs=len(pairs), z=z, focus=focus_keys, unpaired=unpaired)


def games_needed(effect: float, sd: float | None = None, *, z: float = 1.96, power_z: float = 0.84) -> int:
    """Paired games needed to detect a difference of `effect` (e.g. 0.05 = 5 points of win rate).

    n = ((z + power_z) * sd / effect)^2: a 95% two-sided interval (z 1.96) and 80% power (power_z 0.84). sd is
    the sd of one game's paired difference (ABRow.sd of a comparable row); None takes sqrt(0.5), a 50% win rate
    with no correlation between the sides, which over-estimates for paired games (they share their luck).
    """
    if not effect or effect <= 0 or not math.isfinite(effect):
        raise ValueError(f"effect must be a positive difference (e.g. 0.05 for 5 points), got {effect!r}")
    if sd is None:
        sd = DEFAULT_RATE_SD
    if sd < 0 or not math.isfinite(sd):
        raise ValueError(f"sd must be a non-negative number, got {sd!r}")
    return max(1, math.ceil(((z + power_z) * sd / effect) ** 2))


def season_card_name(raw: Any, card_id: str) -> str:
    """A Season card's readable name: its content `name`, else its id in words ("Most nests"): objectives are
    DSL text, not labels."""
    words = str((raw.get("name") if isinstance(raw, Mapping) else None) or card_id.replace("-", " "))
    return words[:1].upper() + words[1:]


def entity_names(ruleset: Ruleset) -> dict[str, str]:
    """{"group:key": readable name} from the content (flocks, leaders, leader cards, Season cards by objective,
    Nests by type and row), for `compare(names=...)` and the balance report's labels."""
    out: dict[str, str] = {}
    kinds = ("flocks", "leaders", "leader_cards", "season_cards", "nests")
    items = {kind: ruleset.items(kind) for kind in kinds}
    leaders = {item.id: str(item.raw.get("name") or item.id) for item in items["leaders"]}
    for item in items["flocks"]:
        out[f"flock:{item.id}"] = str(item.raw.get("name") or item.id)
    for leader_id, name in leaders.items():
        out[f"leader:{leader_id}"] = name
    for item in items["leader_cards"]:
        card = str(item.raw.get("name") or item.id)
        out[f"leader_card:{item.id}"] = f"{card} ({leaders.get(item.parent or '', item.parent)})" if item.parent else card
    for item in items["season_cards"]:
        out[f"season_card:{item.id}"] = season_card_name(item.raw, item.id)
    for item in items["nests"]:
        kind, row = item.raw.get("type"), item.raw.get("row")
        out[f"nest:{item.id}"] = (f"{str(kind).capitalize()} Nest, row {row}" if kind and row is not None
                                  else str(item.raw.get("name") or item.id))
    return out


# Content kinds whose items are report entities, and the group their rows are in.
_ENTITY_KINDS: dict[str, str] = {"flocks": "flock", "leaders": "leader", "leader_cards": "leader_card",
                                 "season_cards": "season_card", "nests": "nest"}


def _without_sources(value: Any) -> Any:
    """An item's raw data without its `source` notes (they document a value, they do not change play)."""
    if isinstance(value, Mapping):
        return {k: _without_sources(v) for k, v in value.items() if k != "source"}
    if isinstance(value, list):
        return [_without_sources(v) for v in value]
    return value


def changed_entities(ruleset_a: Ruleset, ruleset_b: Ruleset) -> list[str]:
    """The `group:key` entities whose content differs between A and B (added, removed or edited), for `focus`:
    an edited flock side also names `side:A`/`side:B`, an edited Leader card also its Leader."""
    out: list[str] = []
    for kind, group in _ENTITY_KINDS.items():
        a = {item.id: item for item in ruleset_a.items(kind)}
        b = {item.id: item for item in ruleset_b.items(kind)}
        for item_id in list(a) + [i for i in b if i not in a]:
            ia, ib = a.get(item_id), b.get(item_id)
            raw_a = _without_sources(ia.raw) if ia is not None else None
            raw_b = _without_sources(ib.raw) if ib is not None else None
            if raw_a == raw_b:
                continue
            out.append(f"{group}:{item_id}")
            if kind == "leader_cards":
                either = ib or ia
                parent = either.parent if either is not None else None
                if parent and f"leader:{parent}" not in out:
                    out.append(f"leader:{parent}")
            if kind == "flocks":
                for side in ("A", "B"):
                    key = f"side_{side.lower()}"
                    if (raw_a or {}).get(key) != (raw_b or {}).get(key) and f"side:{side}" not in out:
                        out.append(f"side:{side}")
    return out


def run_ab(ruleset_a: Ruleset, ruleset_b: Ruleset, games: int, players: int | None = None, seed: int = 0,
           bots: Sequence[str] = ("greedy",), jobs: int = 1, *, flocks: Sequence[str] | None = None,
           leaders: dict[str, str] | None = None, sides: dict[str, str] | None = None,
           leader_cards: dict[str, str] | None = None, setup: str = "first-game", variant: str | None = None,
           cover: bool = False, scheduler: str | None = None, cancel: Any = None,
           progress: Any = None, focus: Iterable[str] | None = None,
           z: float = 1.96) -> tuple[list[Any], list[Any], ABReport]:
    """Play the same games (seeds seed..seed+games-1, the same seatings) under content A and B; compare them.

    Returns (records_a, records_b, report). focus: the edited entities (default: `changed_entities(A, B)`).
    progress(done, total) counts the games of both sides (total = 2 * games). A cancelled run compares the games
    both sides finished. The other arguments are `kcd.analysis.sim.simulate`'s.
    """
    from kcd.analysis.sim import simulate

    options = dict(players=players, seed=seed, bots=bots, jobs=jobs, flocks=flocks, leaders=leaders, sides=sides,
                   leader_cards=leader_cards, setup=setup, variant=variant, cover=cover, scheduler=scheduler,
                   cancel=cancel)

    def side_progress(offset: int) -> Any:
        return None if progress is None else (lambda done, total: progress(offset + done, 2 * games))

    run_a = simulate(ruleset_a, games, progress=side_progress(0), **options)
    done_a = len(run_a.records)
    run_b = simulate(ruleset_b, done_a, progress=side_progress(games), **options) if done_a else run_a
    records_a, records_b = run_a.records[:len(run_b.records)], run_b.records
    names = {**entity_names(ruleset_a), **entity_names(ruleset_b)}
    edited = list(focus) if focus is not None else changed_entities(ruleset_a, ruleset_b)
    return records_a, records_b, compare(records_a, records_b, focus=edited, z=z, names=names)


# --- sequential A/B: as many games as the question needs ---------------------------------------------------------
#
# Rather than a fixed number of games, play in batches until the 95% interval on the main effect (the row the
# question is about) is narrower than a chosen width, or a cap is reached. The stopping rule looks only at the
# interval's width, never at whether it holds zero: the width depends on the spread of the paired differences,
# not on their mean, so stopping on it does not steer the estimate towards any answer (stopping when a
# difference "looks significant" would). Each look uses the same interval as a fixed run (`_interval`: normal
# on the paired differences, the Wilson bound when every difference is equal). The spread is only estimated
# well from a few dozen pairs, so no run stops before MIN_PAIRS pairs of the main row.
MIN_PAIRS = 30


def width_of(row: ABRow) -> float:
    """The width of a row's 95% interval (high - low; infinite while unbounded)."""
    return row.high - row.low


def main_row(report: ABReport, main: str | None = None) -> ABRow | None:
    """The row a question is about: `main` ("group:key") when given; else the first edited item measured in at
    least half the games (a win rate before a mean), else the seat 1 win rate, which every game measures (a
    Season card's row counts only the games it was won outright in). None when there is no such row."""
    if main is not None:
        group, _, key = main.partition(":")
        return report.row(group, key)
    focus = [r for r in report.rows if r.focus and r.n and 2 * r.n >= report.pairs]
    return next((r for r in focus if r.kind == RATE), None) or next(iter(focus), None) or report.row("seat", "1")


def games_for_width(width: float, sd: float | None = None, *, z: float = 1.96) -> int:
    """Paired games for a 95% interval of `width` on a mean paired difference: n = (2 z sd / width)^2.

    sd: the sd of one game's paired difference (ABRow.sd of the main row after a first batch); None takes
    sqrt(0.5), as `games_needed` does (a 50% win rate, no correlation between the sides: an over-estimate)."""
    if not width or width <= 0 or not math.isfinite(width):
        raise ValueError(f"width must be a positive interval width (e.g. 0.10 for +-5 points), got {width!r}")
    if sd is None:
        sd = DEFAULT_RATE_SD
    return max(MIN_PAIRS, math.ceil((2 * z * sd / width) ** 2))


@dataclass(frozen=True)
class Sequential:
    """The outcome of a sequential A/B: the records of both sides, the report, the main row's id, the width
    asked for, whether it was reached, and (when it was not) about how many paired games would reach it."""

    records_a: list[Any]
    records_b: list[Any]
    report: ABReport
    main: str | None
    width: float
    reached: bool
    needed: int | None = None

    def summary_text(self, effect: float | None = None) -> str:
        """The stopping decision in plain words, then the report's summary (`ABReport.summary_text(effect)`)."""
        row = self.report.row(*self.main.split(":", 1)) if self.main else None
        if row is None:
            head = f"No row to measure the main effect on after {self.report.pairs} paired games."
        elif self.reached:
            head = (f"Stopped after {self.report.pairs} paired games: the 95% interval on {row.label} is "
                    f"{_width_text(row)} wide, narrower than the {_width_text(row, self.width)} asked for.")
        else:
            head = (f"Stopped at the cap of {self.report.pairs} paired games: the 95% interval on {row.label} is "
                    f"still {_width_text(row)} wide (asked: {_width_text(row, self.width)}); about "
                    f"{self.needed} paired games would reach it.")
        return head + "\n" + self.report.summary_text(effect)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data: the report's, with the stopping decision."""
        return {**self.report.to_dict(), "sequential": {"main": self.main, "width": self.width,
                                                        "reached": self.reached, "needed": self.needed}}


def _width_text(row: ABRow, width: float | None = None) -> str:
    """A width in the row's unit: points for a rate, plain for a mean."""
    value = width_of(row) if width is None else width
    if not math.isfinite(value):
        return "unbounded"
    return f"{100 * value:.1f} points" if row.kind == RATE else f"{value:.2f}"


def until_narrow(play: Any, width: float, *, main: str | None = None, batch: int = 20, max_games: int = 2000,
                 focus: Iterable[str] = (), names: Mapping[str, str] | None = None, z: float = 1.96,
                 on_batch: Any = None) -> Sequential:
    """Play batches with `play(first_game, games) -> (records_a, records_b)` (game indexes 0, batch, 2 * batch,
    ...) until the main row's 95% interval is at most `width` wide (after at least MIN_PAIRS pairs) or
    `max_games` pairs are played. on_batch(Sequential) after each batch (progress, a live interval). A batch
    that comes back short (a cancelled run) ends the run with what was played."""
    if batch < 1 or max_games < 1:
        raise ValueError(f"batch and max_games must be at least 1, got {batch} and {max_games}")
    if not width or width <= 0 or not math.isfinite(width):
        raise ValueError(f"width must be a positive interval width (e.g. 0.10 for +-5 points), got {width!r}")
    records_a: list[Any] = []
    records_b: list[Any] = []
    focus_keys = tuple(focus)
    outcome = None
    while len(records_a) < max_games:
        count = min(batch, max_games - len(records_a))
        got_a, got_b = play(len(records_a), count)
        records_a += list(got_a)
        records_b += list(got_b)
        report = compare(records_a, records_b, focus=focus_keys, z=z, names=names)
        row = main_row(report, main)
        reached = row is not None and row.n >= MIN_PAIRS and width_of(row) <= width
        needed = None
        if row is not None and not reached:
            needed = max(report.pairs, games_for_width(width, row.sd if row.sd > 0 else None, z=z))
        outcome = Sequential(records_a, records_b, report, row.id if row is not None else main, width, reached,
                             needed)
        if on_batch is not None:
            on_batch(outcome)
        if reached or len(got_a) < count or len(got_b) < count:
            break
    assert outcome is not None
    return outcome


def run_ab_until(ruleset_a: Ruleset, ruleset_b: Ruleset, width: float, *, main: str | None = None,
                 batch: int = 20, max_games: int = 2000, seed: int = 0, progress: Any = None,
                 focus: Iterable[str] | None = None, z: float = 1.96, **options: Any) -> Sequential:
    """`run_ab`, but with as many games as the question needs: batches of the same games under A and B until the
    95% interval on the main row (`main`, default `main_row`'s choice) is at most `width` wide, or `max_games`
    pairs. progress(done, total) counts the games of both sides against 2 * max_games. The other options are
    `kcd.analysis.sim.simulate`'s."""
    from kcd.analysis.sim import simulate

    names = {**entity_names(ruleset_a), **entity_names(ruleset_b)}
    edited = list(focus) if focus is not None else changed_entities(ruleset_a, ruleset_b)

    def play(first: int, games: int) -> tuple[list[Any], list[Any]]:
        def side_progress(offset: int) -> Any:
            return None if progress is None else (
                lambda d, _t: progress(2 * first + offset + d, 2 * max_games))
        run_a = simulate(ruleset_a, games, seed=seed + first, progress=side_progress(0), **options)
        run_b = simulate(ruleset_b, len(run_a.records), seed=seed + first, progress=side_progress(games),
                         **options) if run_a.records else run_a
        return run_a.records[:len(run_b.records)], run_b.records

    return until_narrow(play, width, main=main, batch=batch, max_games=max_games, focus=edited, names=names, z=z)
