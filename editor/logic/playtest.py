"""Playtests for the editor: run interpreter.sim, chart the results, and compare saved vs. draft content."""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import altair as alt
import pandas as pd

from editor.logic import store
from editor.logic.confine import inside


@dataclass(frozen=True)
class PlaytestSetup:
    """Everything the Playtest page asks for."""

    players: int = 2
    games: int = 20
    seed: int = 0
    bots: tuple[str, ...] = ("random",)
    flocks: tuple[str, ...] | None = None
    leaders: Mapping[str, str] | None = None
    sides: Mapping[str, str] | None = None
    setup: str = "first-game"  # first-game starting positions or the advanced setup (R-SETUP-5/6)
    variant: str | None = None  # rules variant: None (standard) or an id of `variants(ruleset)`, e.g. "vto"
    overlays: tuple[str, ...] = ()
    jobs: int = 1  # processes (interpreter.sim forks workers; results do not depend on it)
    # "standard" or "solo": one bot (the first of `bots`) against Kiwibot, flocks = (player, kiwibot) (R-SOLO-1..12)
    mode: str = "standard"
    solo_side: str | None = None  # Solo-mode marker side id (R-SOLO-12); None: dealt from each game's seed


def load(root: Path, overlays: Sequence[str]) -> Any:
    """The ruleset of a content root with overlays (ContentError if it does not validate)."""
    from interpreter.content import load_ruleset

    return load_ruleset(overlays=list(overlays), root=Path(root).resolve())


STANDARD = "Standard game"
SOLO_LABEL = "Solo (against Kiwibot)"
SIDE_FROM_SEED = "(dealt from the seed)"


def variants(ruleset: Any) -> dict[str, str | None]:
    """{label: variant id} the page offers: the standard game, then each variant the content declares."""
    from interpreter.sim import variants as declared

    return {STANDARD: None, **{label: vid for vid, label in declared(ruleset).items()}}


def modes(ruleset: Any) -> dict[str, str]:
    """{label: mode} the page offers: the standard game, and solo against Kiwibot when the content has solo.yaml."""
    from interpreter.sim import solo_sides

    return {STANDARD: "standard", **({SOLO_LABEL: "solo"} if solo_sides(ruleset) else {})}


def marker_sides(ruleset: Any) -> dict[str, str | None]:
    """{label: Solo-mode marker side id} (R-SOLO-12): dealt from each game's seed, or one side of solo.yaml."""
    from interpreter.sim import solo_sides

    return {SIDE_FROM_SEED: None, **{side: side for side in solo_sides(ruleset)}}


def run(ruleset: Any, setup: PlaytestSetup, progress: Callable[[int, int], None] | None = None) -> Any:
    """Play the games with interpreter.sim.simulate; returns its SimReport."""
    from interpreter.sim import simulate

    solo = setup.mode == "solo"
    return simulate(ruleset, setup.games, players=2 if solo else setup.players, seed=setup.seed,
                    bots=tuple(setup.bots)[:1] if solo else tuple(setup.bots),
                    jobs=max(1, int(setup.jobs)), progress=progress, flocks=list(setup.flocks) if setup.flocks else None,
                    leaders=dict(setup.leaders) if setup.leaders else None,
                    sides=dict(setup.sides) if setup.sides else None, setup=setup.setup,
                    variant=None if solo else setup.variant, mode=setup.mode,
                    solo_side=setup.solo_side if solo else None)


def played(report: Any, variant_labels: Mapping[str, str | None]) -> str:
    """What the report's games were, for the page's headline: "Variable Turn Order", "solo against Kiwibot", ..."""
    records = list(report.records)
    if any(getattr(r, "mode", "standard") == "solo" for r in records):
        sides = sorted({str(r.marker_side) for r in records if getattr(r, "marker_side", None)})
        return "solo against Kiwibot" + (f", marker side {', '.join(sides)}" if sides else "")
    kinds = {getattr(r, "variant", None) for r in records}
    return ", ".join(sorted(label for label, vid in variant_labels.items() if vid in kinds)) or "standard game"


def rate_frame(summary: Mapping[str, Any], group: str) -> pd.DataFrame:
    """Win rates of one group (seat, flock, leader) with their 95% interval, as a table."""
    rows = [{"name": str(name), "rate": r["rate"], "lo": r["lo"], "hi": r["hi"], "wins": r["wins"],
             "games": r["games"]} for name, r in (summary.get("win_rate", {}).get(group) or {}).items()]
    return pd.DataFrame(rows, columns=["name", "rate", "lo", "hi", "wins", "games"])


# Row labels (card ids, "win rate leader chopan") are never cut short or thinned out.
_ROW_AXIS = alt.Axis(labelLimit=0, labelOverlap=False)


def _rows_height(rows: int) -> int:
    """A bar chart tall enough for one readable label per row."""
    return max(160, 22 * rows)


def rate_chart(frame: pd.DataFrame, title: str) -> alt.LayerChart:
    """Bars of win rate with 95% error bars."""
    base = alt.Chart(frame).encode(x=alt.X("name:N", title=None, sort=None))
    bars = base.mark_bar(opacity=0.8).encode(
        y=alt.Y("rate:Q", title="win rate", scale=alt.Scale(domain=[0, 1])),
        tooltip=["name", alt.Tooltip("rate:Q", format=".2f"), alt.Tooltip("lo:Q", format=".2f"),
                 alt.Tooltip("hi:Q", format=".2f"), "wins", "games"])
    errors = base.mark_errorbar(ticks=True, color="black").encode(y=alt.Y("lo:Q", title="win rate"), y2="hi:Q")
    return (bars + errors).properties(title=title, height=220)


def solo_frame(summary: Mapping[str, Any]) -> pd.DataFrame:
    """Player vs Kiwibot win rates with 95% intervals (R-SOLO-5/6): both roles, then the player per marker side."""
    solo = summary.get("solo") or {}
    rows = []
    named = [("player", solo.get("player")), ("Kiwibot", solo.get("kiwibot"))]
    named += [(f"player, {side}", r) for side, r in (solo.get("by_side") or {}).items()]
    for name, r in named:
        if r:
            rows.append({"name": name, "rate": r["rate"], "lo": r["lo"], "hi": r["hi"], "wins": r["wins"],
                         "games": r["games"]})
    return pd.DataFrame(rows, columns=["name", "rate", "lo", "hi", "wins", "games"])


def vp_chart(summary: Mapping[str, Any]) -> alt.Chart:
    """Mean VP per player by source (domain markers, nests, Season cards; R-END-2); in solo games per role,
    player against Kiwibot, with Kiwibot's endgame VP (R-SOLO-6) as the `solo` source."""
    solo = summary.get("solo")
    if solo:
        frame = pd.DataFrame([{"source": k, "vp": float(v), "who": "Kiwibot" if role == "kiwibot" else "player"}
                              for role, sources in solo["mean_vp"].items() for k, v in sources.items() if k != "total"])
        return alt.Chart(frame).mark_bar().encode(
            y=alt.Y("source:N", title=None, sort=None, axis=_ROW_AXIS), yOffset="who:N",
            x=alt.X("vp:Q", title="mean VP"), color=alt.Color("who:N", title=None),
            tooltip=["who", "source", alt.Tooltip("vp:Q", format=".2f")]).properties(
            title=alt.TitleParams("VP by source, player vs Kiwibot", anchor="start"), height=260)
    mean = summary.get("mean_vp") or {}
    frame = pd.DataFrame([{"source": k, "vp": float(v)} for k, v in mean.items() if k != "total"])
    return alt.Chart(frame).mark_bar().encode(
        y=alt.Y("source:N", title=None, sort=None, axis=_ROW_AXIS), x=alt.X("vp:Q", title="mean VP per player"),
        tooltip=["source", alt.Tooltip("vp:Q", format=".2f")]).properties(
        title=alt.TitleParams("VP by source", anchor="start"), height=220)


def season_frame(summary: Mapping[str, Any]) -> pd.DataFrame:
    """For each Season card: how often it was won by each flock, and tied (R-SCARD-1/2); in solo games by the
    player or by Kiwibot (R-SOLO-5)."""
    rows = []
    by_role = (summary.get("solo") or {}).get("season_cards_by_card")
    if by_role:
        for card, data in by_role.items():
            for role, label in (("player", "won by the player"), ("kiwibot", "won by Kiwibot"),
                                ("ties", "tie (no victor)")):
                if data.get(role):
                    rows.append({"card": card, "outcome": label, "count": data[role]})
        return pd.DataFrame(rows, columns=["card", "outcome", "count"])
    for card, data in (summary.get("season_cards") or {}).items():
        for flock, count in (data.get("victor_flocks") or {}).items():
            rows.append({"card": card, "outcome": f"won by {flock}", "count": count})
        if data.get("ties"):
            rows.append({"card": card, "outcome": "tie (no victor)", "count": data["ties"]})
    return pd.DataFrame(rows, columns=["card", "outcome", "count"])


def season_chart(summary: Mapping[str, Any]) -> alt.Chart:
    """Stacked bars of Season card outcomes."""
    frame = season_frame(summary)
    return alt.Chart(frame).mark_bar().encode(
        y=alt.Y("card:N", title=None, sort=None, axis=_ROW_AXIS), x=alt.X("count:Q", title="games"),
        color=alt.Color("outcome:N"), tooltip=["card", "outcome", "count"]).properties(
        title=alt.TitleParams("Season card outcomes", anchor="start"),
        height=_rows_height(frame["card"].nunique()))


def length_chart(records: Sequence[Any]) -> alt.Chart:
    """Histogram of game length in decisions."""
    frame = pd.DataFrame({"decisions": [int(r.decisions) for r in records]})
    return alt.Chart(frame).mark_bar().encode(
        x=alt.X("decisions:Q", bin=alt.Bin(maxbins=20), title="decisions per game"),
        y=alt.Y("count():Q", title="games")).properties(title="Game length", height=220)


def charts(report: Any) -> dict[str, Any]:
    """Every playtest chart, by name; solo games add "solo", the player-vs-Kiwibot win rate."""
    summary = report.summary()
    extra = ({"solo": rate_chart(solo_frame(summary), "Player vs Kiwibot win rate (95% interval)")}
             if summary.get("solo") else {})
    return {
        **extra,
        "seat": rate_chart(rate_frame(summary, "seat"), "Win rate by seat (95% interval)"),
        "flock": rate_chart(rate_frame(summary, "flock"), "Win rate by flock (95% interval)"),
        "leader": rate_chart(rate_frame(summary, "leader"), "Win rate by leader (95% interval)"),
        "vp": vp_chart(summary),
        "season_cards": season_chart(summary),
        "length": length_chart(report.records),
    }


def draft_root(root: Path, edited: Mapping[str, str], dest: Path | None = None) -> Path:
    """A copy of the content folder with edited file texts (unsaved buffers or drafts) written over the
    saved ones: the "B" side of an A/B playtest. The real content folder is never touched."""
    dest = Path(dest) if dest else Path(tempfile.mkdtemp(prefix="kcd-draft-"))
    store.copy_content(root, dest)
    for rel, text in edited.items():
        inside(root, rel)  # the same confinement as a real save
        store.atomic_write(inside(dest, rel), text)
    return dest


def deltas(a: Mapping[str, Any], b: Mapping[str, Any]) -> pd.DataFrame:
    """Per seat / flock / leader win-rate change from A (saved) to B (draft), plus VP and length."""
    rows = []
    for group in ("seat", "flock", "leader"):
        ra = a.get("win_rate", {}).get(group) or {}
        rb = b.get("win_rate", {}).get(group) or {}
        for name in sorted(set(ra) | set(rb)):
            va, vb = ra.get(name, {}).get("rate", 0.0), rb.get(name, {}).get("rate", 0.0)
            rows.append({"what": f"win rate {group} {name}", "A (saved)": va, "B (draft)": vb, "delta": vb - va})
    solo_a, solo_b = a.get("solo") or {}, b.get("solo") or {}
    if solo_a or solo_b:
        va = (solo_a.get("player") or {}).get("rate", 0.0)
        vb = (solo_b.get("player") or {}).get("rate", 0.0)
        rows.append({"what": "win rate player vs Kiwibot", "A (saved)": va, "B (draft)": vb, "delta": vb - va})
    sources = ("domain", "nests", "season_cards", "solo", "total") if (solo_a or solo_b) else (
        "domain", "nests", "season_cards", "total")
    for source in sources:
        va, vb = float(a.get("mean_vp", {}).get(source, 0.0)), float(b.get("mean_vp", {}).get(source, 0.0))
        rows.append({"what": f"mean VP {source}", "A (saved)": va, "B (draft)": vb, "delta": vb - va})
    va, vb = float(a.get("mean_decisions", 0.0)), float(b.get("mean_decisions", 0.0))
    rows.append({"what": "mean decisions", "A (saved)": va, "B (draft)": vb, "delta": vb - va})
    return pd.DataFrame(rows, columns=["what", "A (saved)", "B (draft)", "delta"])


def delta_chart(frame: pd.DataFrame) -> alt.Chart:
    """Win-rate deltas (B - A) by flock and seat as diverging bars."""
    rates = frame[frame["what"].str.startswith("win rate")]
    return alt.Chart(rates).mark_bar().encode(
        y=alt.Y("what:N", sort=None, title=None, axis=_ROW_AXIS), x=alt.X("delta:Q", title="B - A win rate"),
        color=alt.condition("datum.delta >= 0", alt.value("#2a9d8f"), alt.value("#e76f51")),
        tooltip=["what", alt.Tooltip("delta:Q", format="+.3f")]).properties(
        title=alt.TitleParams("Draft vs saved", anchor="start"), height=_rows_height(rates["what"].nunique()))


def ab(root: Path, edited: Mapping[str, str], setup: PlaytestSetup,
       progress: Callable[[int, int], None] | None = None) -> tuple[Any, Any, pd.DataFrame]:
    """Run the same seeds on the saved content (A) and on the edited content (B); reports and deltas."""
    rs_a = load(root, setup.overlays)
    with tempfile.TemporaryDirectory(prefix="kcd-ab-") as tmp:
        rs_b = load(draft_root(root, edited, Path(tmp)), setup.overlays)
    total = 2 * setup.games

    def half(offset: int) -> Callable[[int, int], None] | None:
        return None if progress is None else (lambda done, _n: progress(offset + done, total))

    report_a = run(rs_a, setup, half(0))
    report_b = run(rs_b, setup, half(setup.games))
    return report_a, report_b, deltas(report_a.summary(), report_b.summary())
