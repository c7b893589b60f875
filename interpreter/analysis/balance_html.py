"""The balance report as one HTML page (`kcd balance --html FILE`): Altair (Vega-Lite) charts and tables.

Charts: win rate by group as bars in % with 95% error bars, the fair band shaded and the fair share as a line
(flocks in their content colours; entities outside the band stand out); VP by source per flock; and, for an
A/B run, the paired differences with their intervals. Labels are content names ("Red Flock", "Swoop (Kahu)",
"VP from Season cards"), never raw keys. The Vega/Vega-Lite/vega-embed JavaScript is inlined (from
vl-convert-python) so the page works offline; without it the page loads them from the jsDelivr CDN.
Tables repeat every figure, so the page says everything without JavaScript too.
"""
from __future__ import annotations

import json
from typing import Any

import jinja2

from kcd.analysis.balance import GROUP_NAMES, RATE_MEANING, BalanceReport, band_rule

NEUTRAL, ABOVE, BELOW = "#7a8793", "#c0392b", "#1f6fb2"
CDN = "https://cdn.jsdelivr.net/npm"
CHART_WIDTH = 900

PAGE = jinja2.Environment(autoescape=True).from_string("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<style>
 body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
 table { border-collapse: collapse; margin: 0.5em 0 1.5em; font-size: 0.9em; }
 th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.7em; text-align: right; }
 th:first-child, td:first-child { text-align: left; }
 .flag-strong { color: #c0392b; font-weight: 600; } .flag-weak { color: #1f6fb2; font-weight: 600; }
 .note { color: #555; } .chart { margin: 1em 0; }
</style>
{% if bundle %}<script>{{ bundle | safe }}</script>{% else %}
<script src="{{ cdn }}/vega@5"></script><script src="{{ cdn }}/vega-lite@5"></script>
<script src="{{ cdn }}/vega-embed@6"></script>{% endif %}
</head>
<body>
<h1>{{ title }}</h1>
<p class="note">{{ played }}</p>
<p class="note">Fair band: {{ band }}</p>
{% if summary %}<h2>What the change did</h2><pre>{{ summary }}</pre>{% endif %}
<h2>Flagged</h2>
{% if flags %}<ul>{% for f in flags %}<li class="flag-{{ f.flag }}">{{ f.evidence }}</li>{% endfor %}</ul>
{% else %}<p>Nothing lies outside the fair band: every 95% interval reaches into it.</p>{% endif %}
{% if coverage %}<p class="note">{{ coverage }}</p>{% endif %}
{% for chart in charts %}
<h2>{{ chart.title }}</h2>
<div class="chart" id="chart-{{ loop.index }}"></div>
{% if chart.rows %}<table><tr>{% for h in chart.header %}<th>{{ h }}</th>{% endfor %}</tr>
{% for row in chart.rows %}<tr>{% for cell in row %}<td{% if loop.index == 1 and chart.flags[row[0]] %} class="flag-{{ chart.flags[row[0]] }}"{% endif %}>{{ cell }}</td>{% endfor %}</tr>{% endfor %}
</table>{% endif %}
{% endfor %}
<script>
const specs = {{ specs | safe }};
specs.forEach((spec, i) => vegaEmbed('#chart-' + (i + 1), spec, {actions: false}).catch(console.error));
</script>
</body>
</html>
""")


def _pct(v: float | None) -> str:
    return "" if v is None else f"{100 * v:.1f}%"


def _num(v: float | None) -> str:
    return "" if v is None else f"{v:.2f}"


def rate_chart(report: BalanceReport, group: str) -> Any:
    """Bars of win rate (%) with 95% error bars, the fair band shaded and the fair share as a line."""
    import altair as alt

    entries = report.groups[group]
    meaning = RATE_MEANING.get(group, "win rate")
    what = f"{GROUP_NAMES.get(group, group)}"
    rows: list[dict[str, Any]] = []
    for e in entries:
        status = "above the fair band" if e.flag == "strong" else "below the fair band" if e.flag == "weak" else \
            "within the fair band"
        rows.append({what: e.label, "key": e.key, "Rate": e.rate, "Low": e.low, "High": e.high, "Fair share": e.fair,
                     "Band low": e.band[0], "Band high": e.band[1], "Games": e.n, "Status": status})
    data = alt.Data(values=rows)
    order = [r[what] for r in rows]
    x = alt.X(f"{what}:N", sort=order, title=what, axis=alt.Axis(labelAngle=-30, labelLimit=220))
    if group == "flock" and report.colours:
        domain = [e.label for e in entries]
        colours = [report.colours.get(e.key, NEUTRAL) for e in entries]
        colour = alt.Color(f"{what}:N", scale=alt.Scale(domain=domain, range=colours), legend=None)
    else:
        colour = alt.Color("Status:N", title="", scale=alt.Scale(
            domain=["within the fair band", "above the fair band", "below the fair band"],
            range=[NEUTRAL, ABOVE, BELOW]))
    y = alt.Y("Rate:Q", title=meaning.capitalize() + " (%)", axis=alt.Axis(format="%"),
              scale=alt.Scale(domain=[0, min(1.0, max([r["High"] for r in rows] + [r["Band high"] for r in rows]) + 0.05)]))
    tooltip = [alt.Tooltip(f"{what}:N"), alt.Tooltip("Rate:Q", format=".1%", title=meaning),
               alt.Tooltip("Low:Q", format=".1%", title="95% low"), alt.Tooltip("High:Q", format=".1%", title="95% high"),
               alt.Tooltip("Games:Q", title="observations"), alt.Tooltip("Status:N")]
    base = alt.Chart(data)
    band = base.mark_bar(color="#e8f1e4", opacity=0.7, width={"band": 1}).encode(
        x=x, y=alt.Y("Band low:Q"), y2="Band high:Q")
    bars = base.mark_bar(width={"band": 0.6}).encode(x=x, y=y, color=colour, tooltip=tooltip)
    errors = base.mark_rule(strokeWidth=2, color="#222").encode(x=x, y="Low:Q", y2="High:Q")
    fair = base.mark_tick(color="#2e7d32", thickness=2, size=40).encode(x=x, y=alt.Y("Fair share:Q"))
    title = f"{what}: {meaning} with 95% intervals; green line: {'fair share' if group not in ('season_card', 'nest', 'nest_type') else 'pooled rate'}, shaded: fair band"
    return alt.layer(band, bars, errors, fair).properties(width=CHART_WIDTH, height=260, title=title)


def vp_chart(report: BalanceReport) -> Any:
    """Mean VP per flock by source (bars per source, one per flock in its colour), with 95% error bars."""
    import altair as alt

    sources = [s for s in report.vp_by_source.get("sources", []) if s != "total"]
    rows = []
    for flock, table in report.vp_by_source["by_flock"].items():
        label = report.names.get(f"flock:{flock}", flock)
        for source in sources:
            cell = table[source]
            rows.append({"Flock": label, "Source": f"VP from {cell['label']}", "Mean VP": cell["mean"],
                         "Low": cell["low"], "High": cell["high"]})
    flocks = list(dict.fromkeys(r["Flock"] for r in rows))
    keys = list(report.vp_by_source["by_flock"])
    colour = alt.Color("Flock:N", scale=alt.Scale(domain=flocks, range=[report.colours.get(k, NEUTRAL) for k in keys]))
    base = alt.Chart(alt.Data(values=rows))
    x = alt.X("Source:N", title="VP source", axis=alt.Axis(labelAngle=0, labelLimit=220))
    bars = base.mark_bar().encode(x=x, xOffset="Flock:N", y=alt.Y("Mean VP:Q", title="Mean VP per flock"),
                                  color=colour, tooltip=["Flock:N", "Source:N", alt.Tooltip("Mean VP:Q", format=".2f")])
    errors = base.mark_rule(color="#222").encode(x=x, xOffset="Flock:N", y="Low:Q", y2="High:Q")
    return alt.layer(bars, errors).properties(width=CHART_WIDTH, height=260,
                                               title="Mean VP per flock by source, with 95% intervals")


def ab_chart(rows: list[Any]) -> Any:
    """Paired differences (B - A) of win rates in points with their 95% intervals; zero marked."""
    import altair as alt

    data = [{"Entity": r.label, "Difference": r.diff, "Low": r.low, "High": r.high, "Verdict": r.verdict}
            for r in rows if r.kind == "rate" and r.n]
    base = alt.Chart(alt.Data(values=data))
    y = alt.Y("Entity:N", sort=[d["Entity"] for d in data], title=None, axis=alt.Axis(labelLimit=300))
    colour = alt.Color("Verdict:N", title="", scale=alt.Scale(
        domain=["no detectable change", "higher in B", "lower in B"], range=[NEUTRAL, ABOVE, BELOW]))
    points = base.mark_point(filled=True, size=60).encode(
        x=alt.X("Difference:Q", title="Win rate, B minus A (points, 95% paired interval)", axis=alt.Axis(format="+%")),
        y=y, color=colour, tooltip=["Entity:N", alt.Tooltip("Difference:Q", format="+.1%"), "Verdict:N"])
    errors = base.mark_rule().encode(x="Low:Q", x2="High:Q", y=y, color=colour)
    zero = alt.Chart(alt.Data(values=[{"zero": 0}])).mark_rule(color="#2e7d32").encode(x="zero:Q")
    return alt.layer(errors, points, zero).properties(width=CHART_WIDTH, height=max(120, 18 * len(data)),
                                                      title="What changed: paired differences, B minus A")


def _bundle() -> str | None:
    """The vega-embed JavaScript bundle for this Altair's Vega-Lite (None without vl-convert-python)."""
    try:
        import vl_convert
        from altair.utils.html import vl_version_for_vl_convert
    except ImportError:
        return None
    # the snippet is optional (vl_convert's docstring); its stub marks it required
    return vl_convert.javascript_bundle(vl_version=vl_version_for_vl_convert())  # type: ignore[call-arg]


def _table(report: BalanceReport, group: str) -> tuple[list[str], list[list[str]], dict[str, str | None]]:
    meaning = RATE_MEANING.get(group, "win rate")
    header = [GROUP_NAMES.get(group, group), meaning, "95% interval", "observations", "fair band"]
    header += ["mean VP (95%)"] if group in ("seat", "flock", "side", "leader", "leader_card", "tracker_slot") else []
    header += ["ties"] if group == "season_card" else ["built per game"] if group == "nest" else []
    rows, flags = [], {}
    for e in report.groups[group]:
        row = [e.label, _pct(e.rate), f"{_pct(e.low)} - {_pct(e.high)}", str(e.n),
               f"{_pct(e.band[0])} - {_pct(e.band[1])}"]
        if len(header) > 5 and header[5].startswith("mean VP"):
            row.append(f"{_num(e.mean_vp)} ({_num(e.vp_low)} - {_num(e.vp_high)})")
        if group == "season_card":
            row.append(str(e.extra.get("ties", 0)))
        if group == "nest":
            row.append(f"{e.extra.get('built_per_game', 0):.2f}")
        rows.append(row)
        flags[e.label] = e.flag
    return header, rows, flags


def render(report: BalanceReport, *, title: str = "Kiwi Chow Down balance report", ab: Any = None,
           inline: bool = True) -> str:
    """The whole page as HTML text (`ab`: an ABReport to chart and summarise first)."""
    charts: list[dict[str, Any]] = []
    specs: list[Any] = []
    if ab is not None:
        charts.append({"title": "A/B: what did the change do", "rows": [], "header": [], "flags": {}})
        specs.append(ab_chart(ab.rows).to_dict())
    for group in report.groups:
        header, rows, flags = _table(report, group)
        charts.append({"title": f"{GROUP_NAMES.get(group, group)}: {RATE_MEANING.get(group, 'win rate')}",
                       "header": header, "rows": rows, "flags": flags})
        specs.append(rate_chart(report, group).to_dict())
    if report.vp_by_source.get("by_flock"):
        header = ["Flock"] + [f"VP from {report.vp_by_source['all'][s]['label']}" if s != "total" else "VP total"
                              for s in report.vp_by_source["sources"]]
        rows = [[report.names.get(f"flock:{flock}", flock)] + [_num(table[s]["mean"]) for s in
                                                                report.vp_by_source["sources"]]
                for flock, table in report.vp_by_source["by_flock"].items()]
        charts.append({"title": "VP by source", "header": header, "rows": rows, "flags": {}})
        specs.append(vp_chart(report).to_dict())
    played = report.played
    text = (f"{report.games} games; {', '.join(str(p) for p in played.get('players', []))} players; bots "
            f"{', '.join(played.get('bots', []))}; {', '.join(played.get('variants', []))}; seeds "
            f"{'-'.join(str(s) for s in played.get('seeds', []))}.")
    cov = report.coverage
    missing = cov.get("missing_leader_cards") or []
    coverage = (f"Covered: sides {', '.join(cov.get('sides', []))}; {cov.get('leader_cards', 0)} Leader cards"
                + (f" (never played: {', '.join(missing)})" if missing else " (every one of the content)") + ".")
    return PAGE.render(title=title, played=text, band=band_rule(report.margin)["rule"], flags=report.flags,
                       coverage=coverage, charts=charts, summary=ab.summary_text() if ab is not None else None,
                       specs=json.dumps(specs).replace("</", "<\\/"), bundle=_bundle() if inline else None, cdn=CDN)
