"""Playtests for the editor: what the page offers, the jobs it runs (kcd.apps.editor.logic.runner), the charts of one
playtest and of an A/B between two versions of a file (statistics from kcd.analysis.abtest)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import altair as alt
import pandas as pd

from kcd.apps.editor.logic import runner
from kcd.apps.editor.logic.runner import PlaytestSetup, load

__all__ = ["PlaytestSetup", "load", "run"]

STANDARD = "Standard game"
SOLO_LABEL = "Solo (against Kiwibot)"
SIDE_FROM_SEED = "(dealt from the seed)"
NEUTRAL = "#4c78a8"      # bars that are not a flock's (seats, leaders)
TIE_COLOUR = "#9e9e9e"
PERCENT = alt.Axis(format="%")


def variants(ruleset: Any) -> dict[str, str | None]:
    """{label: variant id} the page offers: the standard game, then each variant the content declares."""
    from kcd.analysis.sim import variants as declared

    return {STANDARD: None, **{label: vid for vid, label in declared(ruleset).items()}}


def modes(ruleset: Any) -> dict[str, str]:
    """{label: mode} the page offers: every registered mode this content offers (`Mode.available`; the standard
    game, and solo against Kiwibot when the content has solo.yaml)."""
    from kcd.engine import mode_registry as registry
    from kcd.content.rules import compile_rules

    rules = compile_rules(ruleset)
    return {m.label: m.name for m in registry.all_modes() if m.variant is None and m.available(rules)}


def mode_of(name: str | None) -> Any:
    """The registered mode of a name `modes` offered (the standard game for None)."""
    from kcd.engine import mode_registry as registry

    return registry.select(name or "standard", None)


def setup_options(ruleset: Any, mode: Any) -> list[tuple[Any, dict[str, str | None]]]:
    """A mode's own setup options (`Mode.setup_options`) with their choices as {label: value}: dealt from each
    game's seed (None), or one value the content offers (solo: a Solo-mode marker side of solo.yaml)."""
    from kcd.content.rules import compile_rules

    return [(option, {SIDE_FROM_SEED: None, **{c: c for c in option.choices}})
            for option in mode.setup_options(compile_rules(ruleset))]


def against_engine(mode: Any) -> bool:
    """Whether the mode seats the engine against the players (solo: Kiwibot), so only the player decides."""
    return any(not role.decides for role in mode.seat_roles(mode.default_players()))


def marker_sides(ruleset: Any) -> dict[str, str | None]:
    """{label: Solo-mode marker side id} (R-SOLO-12): dealt from each game's seed, or one side of solo.yaml."""
    from kcd.analysis.sim import solo_sides

    return {SIDE_FROM_SEED: None, **{side: side for side in solo_sides(ruleset)}}


def bot_names() -> list[str]:
    """Every bot the engine knows (kcd.analysis.bots.BOTS), in its order."""
    from kcd.analysis.bots import BOTS

    return list(BOTS)


def default_bot() -> str:
    """The strongest bot available: mcts once it is registered, else greedy (never random)."""
    names = bot_names()
    return next((b for b in ("mcts", "greedy") if b in names), names[0])


def run(ruleset: Any, setup: PlaytestSetup, progress: Callable[[int, int], None] | None = None) -> Any:
    """Play the games in this process with kcd.analysis.sim.simulate; returns its SimReport (the page runs
    them in a child process instead, see `start`)."""
    return runner.simulate_setup(ruleset, setup, progress)


def start(root: Path, setup: PlaytestSetup) -> runner.Run:
    """Start one playtest of the content folder in a child process."""
    return runner.start(runner.Job(str(root), setup, (runner.Side("A"),)))


def start_ab(root: Path, setup: PlaytestSetup, rel: str, text_a: str, text_b: str) -> runner.Run:
    """Start an A/B playtest in a child process: the same seeds on the content with `rel` as `text_a` (A) and
    as `text_b` (B); every other file as saved."""
    return start_change(root, setup, Change("A", {rel: text_a}), Change("B", {rel: text_b}))


# --- A/B on a whole change ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """One side of an A/B on a whole change: file texts in place of the saved ones (any number of files: Season
    cards and Nests together), and its overlays (a pack; None: the page's)."""

    label: str
    overrides: Mapping[str, str] = field(default_factory=dict)
    overlays: tuple[str, ...] | None = None


SAVED_CONTENT = "The saved content (the last saved version of every file)"
BEFORE_LAST_SAVE = "The version before the last save of each changed file"
WITHOUT_PACK = "The same content without the pack"


def changes(root: Path, unsaved: Mapping[str, str], overlays: Sequence[str]) -> list[Change]:
    """The whole changes the page can test (B): this tab's unsaved edits of every file, every draft, and each
    pack (an edition or mod) not already applied, on top of the applied ones."""
    from kcd.content import available_packs
    from kcd.apps.editor.logic import store

    out = []
    if unsaved:
        out.append(Change(f"Your unsaved edits ({', '.join(sorted(unsaved))})", dict(unsaved)))
    drafts = store.drafts(root)
    if drafts:
        out.append(Change(f"Every draft ({', '.join(sorted(drafts))})", drafts))
    for pack in available_packs(root):
        if pack.id not in overlays:
            out.append(Change(f"The {pack.kind} {pack.id}", {}, tuple(overlays) + (pack.id,)))
    return out


def baselines(change: Change) -> list[str]:
    """What a change can be compared against (A): a pack against the content without it; file texts against
    the saved files or the version before each one's last save."""
    return [WITHOUT_PACK] if change.overlays is not None else [SAVED_CONTENT, BEFORE_LAST_SAVE]


def baseline(root: Path, change: Change, which: str) -> Change:
    """The A side for a change: the saved files (no overrides), or each changed file as it was before its last
    save (a file never saved here stays as saved), or the content without the pack."""
    from kcd.apps.editor.logic import store

    if which == BEFORE_LAST_SAVE:
        before = {}
        for rel in change.overrides:
            kept = store.history(root, rel)
            if kept:
                before[rel] = kept[-1].read_text(encoding="utf-8")
        return Change(which, before)
    return Change(which)


def start_change(root: Path, setup: PlaytestSetup, a: Change, b: Change, width: float | None = None,
                 main: str | None = None, batch: int = 20) -> runner.Run:
    """Start an A/B of two whole content sets in a child process: the same seeds on A and B; with a `width`,
    batches until the 95% interval on the main effect is that narrow (`setup.games`: the cap)."""
    return runner.start(runner.Job(str(root), setup, (runner.Side("A", dict(a.overrides), a.overlays),
                                                      runner.Side("B", dict(b.overrides), b.overlays)),
                                   width, main, batch))


def sequential_of(status: Any) -> Any:
    """A finished sequential A/B run as kcd.analysis.abtest.Sequential (None for a fixed-size run)."""
    from kcd.analysis.abtest import Sequential

    if not status.interval:
        return None
    report = compare(status.records.get("A", []), status.records.get("B", []), status.focus, status.names)
    return Sequential(status.records.get("A", []), status.records.get("B", []), report, status.interval.get("main"),
                      float(status.interval.get("width") or 0), bool(status.interval.get("reached")),
                      status.interval.get("needed"))


def interval_text(interval: Mapping[str, Any] | None) -> str:
    """The live line of a sequential A/B: the main effect's interval width after the pairs played so far."""
    if not interval or interval.get("label") is None:
        return ""
    span, width = interval.get("span"), float(interval.get("width") or 0)
    rate = interval.get("kind") == "rate"

    def shown(v: Any) -> str:
        if v is None or not math.isfinite(float(v)):
            return "unbounded"
        return f"{100 * float(v):.1f} points" if rate else f"{float(v):.2f}"
    return (f"After {interval['pairs']} paired games: the 95% interval on {interval['label']} is {shown(span)} "
            f"wide (asked: {shown(width)})" + (f"; about {interval['needed']} games would do"
                                                if interval.get("needed") else ""))


def report_of(records: Sequence[Mapping[str, Any]]) -> Any:
    """A SimReport of records in their to_dict() form (as a run streams them)."""
    from kcd.analysis.sim import GameRecord, SimReport

    return SimReport([GameRecord(**dict(r)) for r in records])


# --- readable names and colours, from content ---------------------------------------------------------------

@dataclass(frozen=True)
class Labels:
    """Readable names and drawing colours of a ruleset's entities, for charts."""

    names: Mapping[str, str] = field(default_factory=dict)       # "flock:red" -> "Red Flock", ...
    colours: Mapping[str, str] = field(default_factory=dict)     # flock id -> its content `colour`

    @classmethod
    def of(cls, ruleset: Any) -> "Labels":
        """The labels of a ruleset (kcd.analysis.abtest.entity_names; flock colours from content)."""
        from kcd.analysis.abtest import entity_names

        colours = {item.id: str(item.raw.get("colour") or item.id) for item in ruleset.items("flocks")}
        return cls(entity_names(ruleset), colours)

    def name(self, group: str, key: str) -> str:
        """The readable name of an entity (its id when content gives none)."""
        return str(self.names.get(f"{group}:{key}", key))

    def flock_domain(self, flocks: Sequence[str]) -> tuple[list[str], list[str]]:
        """(names, colours) of flocks, for an Altair colour scale."""
        return [self.name("flock", f) for f in flocks], [self.colours.get(f, NEUTRAL) for f in flocks]


def played(report: Any, variant_labels: Mapping[str, str | None]) -> str:
    """What the report's games were, for the page's headline: "Variable Turn Order", "solo against Kiwibot", ..."""
    records = list(report.records)
    against = [r for r in records if getattr(r, "kiwibot", None)]   # a player against the engine's own seat
    if against:
        sides = sorted({str(r.marker_side) for r in records if getattr(r, "marker_side", None)})
        return mode_of(getattr(against[0], "mode", None)).title + (f", marker side {', '.join(sides)}" if sides else "")
    kinds = {getattr(r, "variant", None) for r in records}
    return ", ".join(sorted(label for label, vid in variant_labels.items() if vid in kinds)) or "standard game"


def fair_share(report: Any) -> float:
    """Each player's fair share of wins: 1 / players (of the report's first game)."""
    records = list(report.records)
    return 1.0 / len(records[0].players) if records else 0.0


GROUP_TITLES = {"seat": "seat", "flock": "flock", "leader": "Leader", "bot": "bot"}


def rate_frame(summary: Mapping[str, Any], group: str, labels: Labels = Labels()) -> pd.DataFrame:
    """Win rates of one group (seat, flock, leader) with their 95% interval, as a table with readable names."""
    rows = []
    for key, r in (summary.get("win_rate", {}).get(group) or {}).items():
        name = f"seat {key}" if group == "seat" else labels.name(group, str(key))
        colour = labels.colours.get(str(key), NEUTRAL) if group == "flock" else NEUTRAL
        rows.append({"name": name, "key": str(key), "rate": r["rate"], "lo": r["lo"], "hi": r["hi"],
                     "wins": r["wins"], "games": r["games"], "colour": colour})
    return pd.DataFrame(rows, columns=["name", "key", "rate", "lo", "hi", "wins", "games", "colour"])


# Row labels (card names, leader names) are never cut short or thinned out.
_ROW_AXIS = alt.Axis(labelLimit=0, labelOverlap=False)


def _rows_height(rows: int) -> int:
    """A bar chart tall enough for one readable label per row."""
    return max(160, 24 * rows)


def rate_chart(frame: pd.DataFrame, title: str, fair: float | None = None) -> alt.LayerChart:
    """Bars of win rate (%) in each row's colour with 95% error bars and, when given, the fair-share line."""
    base = alt.Chart(frame).encode(x=alt.X("name:N", title=None, sort=None, axis=alt.Axis(labelAngle=0,
                                                                                         labelLimit=0)))
    bars = base.mark_bar(opacity=0.85).encode(
        y=alt.Y("rate:Q", title="win rate", scale=alt.Scale(domain=[0, 1]), axis=PERCENT),
        color=alt.Color("colour:N", scale=None, legend=None),
        tooltip=["name", alt.Tooltip("rate:Q", title="win rate", format=".1%"),
                 alt.Tooltip("lo:Q", title="95% from", format=".1%"), alt.Tooltip("hi:Q", title="95% to", format=".1%"),
                 "wins", "games"])
    errors = base.mark_errorbar(ticks=True, color="black").encode(y=alt.Y("lo:Q", title="win rate"), y2="hi:Q")
    layers = [bars, errors]
    if fair:
        line = pd.DataFrame({"fair": [fair], "text": [f"fair share {fair:.0%}"]})
        layers.append(alt.Chart(line).mark_rule(strokeDash=[6, 4], color="#333").encode(y="fair:Q"))
        layers.append(alt.Chart(line).mark_text(align="left", dx=4, dy=-6, color="#333").encode(
            y="fair:Q", x=alt.value(0), text="text:N"))
    return alt.LayerChart(layer=layers).properties(title=title, height=240)   # alt.layer, less its facet hoisting


def solo_frame(summary: Mapping[str, Any], labels: Labels = Labels()) -> pd.DataFrame:
    """Player vs Kiwibot win rates with 95% intervals (R-SOLO-5/6): both roles, then the player per marker side,
    in the colours of the player's and Kiwibot's flocks."""
    solo = summary.get("solo") or {}
    player_colour = labels.colours.get(next(iter(solo.get("player_flocks") or []), ""), NEUTRAL)
    bot_colour = labels.colours.get(next(iter(solo.get("kiwibot_flocks") or []), ""), TIE_COLOUR)
    rows = []
    named = [("player", solo.get("player"), player_colour), ("Kiwibot", solo.get("kiwibot"), bot_colour)]
    named += [(f"player, {side}", r, player_colour) for side, r in (solo.get("by_side") or {}).items()]
    for name, r, colour in named:
        if r:
            rows.append({"name": name, "key": name, "rate": r["rate"], "lo": r["lo"], "hi": r["hi"],
                         "wins": r["wins"], "games": r["games"], "colour": colour})
    return pd.DataFrame(rows, columns=["name", "key", "rate", "lo", "hi", "wins", "games", "colour"])


def vp_source_name(source: str) -> str:
    """A readable VP source: `season_cards` -> "Season cards" (R-END-2; R-SOLO-6 for `solo`)."""
    from kcd.analysis.abtest import VP_SOURCE_NAMES

    return VP_SOURCE_NAMES.get(source, source.replace("_", " ").capitalize())


def vp_chart(summary: Mapping[str, Any], labels: Labels = Labels()) -> alt.Chart:
    """Mean VP per player by source (domain markers, Nests, Season cards; R-END-2); in solo games per role,
    player against Kiwibot, with Kiwibot's endgame VP (R-SOLO-6) as its own source."""
    versus = summary.get("solo")   # the summary's player-vs-Kiwibot section (solo simulations only)
    if versus:
        frame = pd.DataFrame([{"source": vp_source_name(k), "vp": float(v),
                               "who": "Kiwibot" if role == "kiwibot" else "player"}
                              for role, sources in versus["mean_vp"].items() for k, v in sources.items() if k != "total"])
        player = labels.colours.get(next(iter(versus.get("player_flocks") or []), ""), NEUTRAL)
        bot = labels.colours.get(next(iter(versus.get("kiwibot_flocks") or []), ""), TIE_COLOUR)
        return alt.Chart(frame).mark_bar().encode(
            y=alt.Y("source:N", title=None, sort=None, axis=_ROW_AXIS), yOffset="who:N",
            x=alt.X("vp:Q", title="mean VP"),
            color=alt.Color("who:N", title=None, scale=alt.Scale(domain=["player", "Kiwibot"], range=[player, bot])),
            tooltip=["who", "source", alt.Tooltip("vp:Q", format=".2f")]).properties(
            title=alt.TitleParams("VP by source, player vs Kiwibot", anchor="start"), height=260)
    mean = summary.get("mean_vp") or {}
    frame = pd.DataFrame([{"source": vp_source_name(k), "vp": float(v)} for k, v in mean.items() if k != "total"])
    return alt.Chart(frame).mark_bar(color=NEUTRAL).encode(
        y=alt.Y("source:N", title=None, sort=None, axis=_ROW_AXIS), x=alt.X("vp:Q", title="mean VP per player"),
        tooltip=["source", alt.Tooltip("vp:Q", format=".2f")]).properties(
        title=alt.TitleParams("VP by source", anchor="start"), height=220)


def season_frame(summary: Mapping[str, Any], labels: Labels = Labels()) -> pd.DataFrame:
    """For each Season card (by its readable objective): how often it was won by each flock, and tied
    (R-SCARD-1/2); in solo games by the player or by Kiwibot (R-SOLO-5). `colour` is the outcome's colour."""
    rows = []
    solo = summary.get("solo") or {}
    by_role = solo.get("season_cards_by_card")
    if by_role:
        player = labels.colours.get(next(iter(solo.get("player_flocks") or []), ""), NEUTRAL)
        bot = labels.colours.get(next(iter(solo.get("kiwibot_flocks") or []), ""), "#555555")
        for card, data in by_role.items():
            for role, label, colour in (("player", "won by the player", player), ("kiwibot", "won by Kiwibot", bot),
                                        ("ties", "tie (no victor)", TIE_COLOUR)):
                if data.get(role):
                    rows.append({"card": labels.name("season_card", card), "outcome": label, "count": data[role],
                                 "colour": colour})
        return pd.DataFrame(rows, columns=["card", "outcome", "count", "colour"])
    for card, data in (summary.get("season_cards") or {}).items():
        for flock, count in (data.get("victor_flocks") or {}).items():
            rows.append({"card": labels.name("season_card", card), "outcome": f"won by {labels.name('flock', flock)}",
                         "count": count, "colour": labels.colours.get(flock, NEUTRAL)})
        if data.get("ties"):
            rows.append({"card": labels.name("season_card", card), "outcome": "tie (no victor)",
                         "count": data["ties"], "colour": TIE_COLOUR})
    return pd.DataFrame(rows, columns=["card", "outcome", "count", "colour"])


def season_chart(summary: Mapping[str, Any], labels: Labels = Labels()) -> alt.Chart:
    """Stacked bars of Season card outcomes, each flock's wins in that flock's colour, ties grey."""
    frame = season_frame(summary, labels)
    pairs = list(dict.fromkeys(zip(frame["outcome"], frame["colour"])))
    return alt.Chart(frame).mark_bar().encode(
        y=alt.Y("card:N", title=None, sort=None, axis=_ROW_AXIS), x=alt.X("count:Q", title="games"),
        color=alt.Color("outcome:N", title=None, scale=alt.Scale(domain=[p[0] for p in pairs],
                                                                  range=[p[1] for p in pairs])),
        tooltip=["card", "outcome", "count"]).properties(
        title=alt.TitleParams("Season card outcomes", anchor="start"),
        height=_rows_height(frame["card"].nunique()))


def length_chart(records: Sequence[Any]) -> alt.Chart:
    """Histogram of game length in decisions."""
    frame = pd.DataFrame({"decisions": [int(r.decisions) for r in records]})
    return alt.Chart(frame).mark_bar(color=NEUTRAL).encode(
        x=alt.X("decisions:Q", bin=alt.Bin(maxbins=20), title="decisions per game"),
        y=alt.Y("count():Q", title="games")).properties(title="Game length", height=220)


def charts(report: Any, labels: Labels = Labels()) -> dict[str, Any]:
    """Every playtest chart, by name; solo games add "solo", the player-vs-Kiwibot win rate."""
    summary = report.summary()
    fair = fair_share(report) if not summary.get("solo") else None
    extra = ({"solo": rate_chart(solo_frame(summary, labels), "Player vs Kiwibot win rate (95% interval)")}
             if summary.get("solo") else {})
    return {
        **extra,
        "seat": rate_chart(rate_frame(summary, "seat", labels), "Win rate by seat (95% interval)", fair),
        "flock": rate_chart(rate_frame(summary, "flock", labels), "Win rate by flock (95% interval)", fair),
        "leader": rate_chart(rate_frame(summary, "leader", labels), "Win rate by Leader (95% interval)", fair),
        "vp": vp_chart(summary, labels),
        "season_cards": season_chart(summary, labels),
        "length": length_chart(report.records),
    }


# --- A/B between two versions of a file ----------------------------------------------------------------------

def ab_files(root: Path, rels: Sequence[str], session: str = "") -> dict[str, list[tuple[str, str]]]:
    """{file: its versions} of the files with at least two versions to compare (kcd.apps.editor.logic.versions; the
    unsaved edits are those this browser session autosaved)."""
    from kcd.apps.editor.logic.versions import versions

    out = {}
    for rel in rels:
        found = versions(root, rel, session)
        if len(found) >= 2:
            out[rel] = found
    return out


def default_pair(labels: Sequence[str]) -> tuple[int, int]:
    """(A, B) indexes into a file's version labels (newest first): B the newest, A the saved file (or, when the
    newest is the saved file, the save before it) — "before" against "after"."""
    from kcd.apps.editor.logic.versions import SAVED

    if not labels:
        return 0, 0
    saved = labels.index(SAVED) if SAVED in labels else None
    if saved is None or saved == 0:
        return min(1, len(labels) - 1), 0
    return saved, 0


def compare(records_a: Sequence[Mapping[str, Any]], records_b: Sequence[Mapping[str, Any]],
            focus: Sequence[str] = (), names: Mapping[str, str] | None = None) -> Any:
    """The paired comparison of an A/B run (kcd.analysis.abtest.compare)."""
    from kcd.analysis.abtest import compare as paired

    return paired(records_a, records_b, focus=focus, names=names)


def ab_summary(report: Any, names: Mapping[str, str] | None = None) -> str:
    """The report's summary in plain words (kcd.analysis.abtest), after a line for each edited item that never
    came up in these games (a Season card not drawn, a Leader not dealt): it was not measured, not unchanged."""
    from kcd.analysis.abtest import default_label

    shown = {r.id for r in report.rows}
    lines = []
    for entity in report.focus:
        if entity not in shown:
            group, _, key = entity.partition(":")
            lines.append(f"Edited, but not in any of these {report.pairs} games, so not measured: "
                         f"{default_label(group, key, names)}. Play more games, or choose the flocks and "
                         "leaders it concerns.")
    return "\n".join(lines + [report.summary_text()])


def ab_frame(report: Any) -> pd.DataFrame:
    """Every row of an A/B report as a readable table: A, B and the change with its 95% interval, in % points for
    win rates, and the verdict in words; edited items first and marked."""
    rows = []
    for r in report.rows:
        rate = r.kind == "rate"
        scale = 100.0 if rate else 1.0

        def shown(v: float) -> float | None:
            return round(v * scale, 2) if math.isfinite(v) else None
        rows.append({"what": ("(edited) " if r.focus else "") + r.label, "kind": "win rate" if rate else "mean",
                     "A": f"{r.a:.1%}" if rate else f"{r.a:.2f}", "B": f"{r.b:.1%}" if rate else f"{r.b:.2f}",
                     "change": shown(r.diff), "95% from": shown(r.low), "95% to": shown(r.high),
                     "unit": "points" if rate else ("decisions" if r.group == "length" else "VP"),
                     "games": r.n, "verdict": r.verdict})
    return pd.DataFrame(rows, columns=["what", "kind", "A", "B", "change", "95% from", "95% to", "unit", "games",
                                       "verdict"])


VERDICT_COLOURS = {"no detectable change": TIE_COLOUR, "higher in B": "#2a9d8f", "lower in B": "#e76f51"}


def ab_chart(report: Any) -> alt.LayerChart:
    """The win-rate changes B - A in % points, each with its paired 95% interval, a zero line, and the colour of
    its verdict (grey: no detectable change)."""
    rows = [r for r in report.rows if r.kind == "rate" and r.n]
    frame = pd.DataFrame([{"what": ("(edited) " if r.focus else "") + r.label, "diff": r.diff,
                           "low": max(-1.0, r.low), "high": min(1.0, r.high), "verdict": r.verdict} for r in rows],
                         columns=["what", "diff", "low", "high", "verdict"])
    order = list(frame["what"])
    colour = alt.Color("verdict:N", title=None, scale=alt.Scale(domain=list(VERDICT_COLOURS),
                                                                 range=list(VERDICT_COLOURS.values())))
    base = alt.Chart(frame).encode(y=alt.Y("what:N", sort=order, title=None, axis=_ROW_AXIS))
    bars = base.mark_errorbar(ticks=True, thickness=2).encode(
        x=alt.X("low:Q", title="change in win rate, B - A (95% interval)", axis=PERCENT), x2="high:Q", color=colour)
    points = base.mark_point(filled=True, size=70).encode(
        x="diff:Q", color=colour,
        tooltip=["what", alt.Tooltip("diff:Q", title="change", format="+.1%"),
                 alt.Tooltip("low:Q", title="95% from", format="+.1%"),
                 alt.Tooltip("high:Q", title="95% to", format="+.1%"), "verdict"])
    zero = alt.Chart(pd.DataFrame({"zero": [0.0]})).mark_rule(color="#333").encode(x="zero:Q")
    return alt.LayerChart(layer=[zero, bars, points]).properties(
        title=alt.TitleParams("A/B: change in win rates (B - A)", anchor="start"), height=_rows_height(len(frame)))
