"""`kcd balance`: a balance report of a content set, optionally A/B against another content folder."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.table import Table

from kcd.apps.cli import play_options as opts
from kcd.apps.cli.errors import EXIT_PROBLEMS, fail
from kcd.apps.cli.game import (FLOCKS_HELP, VARIANT_HELP, _bot_names, _choices_or_exit, _exit_on_game_error, _load,
                                  _players_or_exit, _variant_or_exit)


def _run(console: Console, show_bar: bool, total: int, work: Any) -> Any:
    """`work(progress)` with a rich progress bar on a terminal (progress=None otherwise)."""
    if not show_bar:
        return work(None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console) as bar:
        task = bar.add_task("games", total=total)
        return work(lambda done, _total: bar.update(task, completed=done))


def balance_command(
    games: Optional[int] = typer.Option(None, "--games", "-n", min=1,
                                        help="Games to play (default: enough to cover both sides in every seat and "
                                             "about 30 plays of every Leader card, at least 200)."),
    players: int = typer.Option(4, "--players", "-p", min=1, help="Number of players."),
    flocks_opt: Optional[str] = typer.Option(None, "--flocks", help=FLOCKS_HELP + " Seats rotate between games."),
    seed: int = typer.Option(0, "--seed", help="Seed of game 0, 0 to 2^64-1; game i uses seed + i."),
    bots: str = typer.Option("greedy", "--bots", help="Bots by seat, comma-separated: random, greedy, mcts (or mcts:<N>it, mcts:<N>ms)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Processes to run games on."),
    variant: Optional[str] = typer.Option(None, "--variant", help=VARIANT_HELP),
    sides_opt: Optional[str] = typer.Option(None, "--sides",
                                            help="Fix flock board sides: `b`, `a`, or per flock `red=b,green=a`; "
                                                 "flocks not named play both sides by design."),
    leaders_opt: Optional[str] = typer.Option(None, "--leaders", help=opts.LEADERS_HELP),
    edition: Optional[list[str]] = typer.Option(None, "--edition", help="Edition overlay (repeatable, in order)."),
    mod: Optional[list[str]] = typer.Option(None, "--mod", help="Mod overlay (repeatable, in order)."),
    content: Optional[Path] = typer.Option(None, "--content", help="Content root to report on (default: the shipped content)."),
    against: Optional[Path] = typer.Option(None, "--against",
                                           help="A/B: also play the same games on this content folder (A, the "
                                                "baseline) and report what --content (B) changed, paired."),
    focus: Optional[str] = typer.Option(None, "--focus",
                                        help="A/B: entities to list first, e.g. leader:kahu,flock:red (default: the "
                                             "items that differ between the two folders)."),
    until_width: Optional[float] = typer.Option(
        None, "--until-width", min=0.001, max=2.0,
        help="A/B: play batches of games until the 95% interval on the main effect is at most this wide (0.10 = "
             "within +-5 points of win rate); --games is then the cap (default 2000)."),
    main: Optional[str] = typer.Option(None, "--main",
                                       help="A/B with --until-width: the main effect, GROUP:ID (default: the first "
                                            "edited item measured in most games, else seat 1)."),
    effect: float = typer.Option(0.05, "--effect", min=0.001, max=1.0,
                                 help="A/B: the win-rate difference to size the game count for (0.05 = 5 points)."),
    margin: float = typer.Option(0.05, "--margin", min=0.0, max=0.5,
                                 help="Fair band half-width: fair share +- this (0.05 = 5 points)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=opts.SCHEDULER_HELP),
    html: Optional[Path] = typer.Option(None, "--html", help="Write the report as an HTML page with charts."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    engine: str = typer.Option("native", "--engine", help=opts.ENGINE_HELP),
) -> None:
    """Play bot games covering both sides and every Leader card, and report win rates and VP with 95% intervals,
    flagging what lies outside the fair band; with --against, the paired A/B of two content folders."""
    from kcd.analysis.abtest import games_needed, run_ab, run_ab_until
    from kcd.analysis.balance import balance_report, games_for_cover
    from kcd.analysis.sim import simulate

    opts.or_exit(opts.use_engine, engine)
    ruleset = _load(edition, mod, content)
    baseline = _load(edition, mod, against) if against is not None else None
    variant = _variant_or_exit(variant)
    if flocks_opt:
        players = len([f for f in flocks_opt.split(",") if f.strip()])
    chosen = _players_or_exit(ruleset, players, flocks_opt)
    sides, leaders, cards = _choices_or_exit(ruleset, chosen, sides_opt, leaders_opt)
    names = _bot_names(bots)
    focus_keys = _focus_or_exit(focus)
    if focus_keys is not None and baseline is None:
        fail("--focus orders an A/B report: give --against DIR too")
    count = games or games_for_cover(len(chosen), len(ruleset.items("leader_cards")))
    opts.or_exit(opts.parse_seed, seed, count)
    options = dict(players=len(chosen), seed=seed, bots=names, jobs=jobs, flocks=chosen, leaders=leaders,
                   sides=sides, leader_cards=cards, variant=variant, cover=True,
                   scheduler=opts.or_exit(opts.parse_scheduler, scheduler))
    console = Console(stderr=True)
    show_bar = console.is_terminal and not as_json
    ab = until = None
    with opts.exit_on_interrupt("kcd balance"), _exit_on_game_error():
        if baseline is not None and until_width is not None:
            main_keys = _focus_or_exit(main, "--main") if main else None
            main_key = main_keys[0] if main_keys else None
            cap = games or 2000
            seeded = {k: v for k, v in options.items() if k != "seed"}
            until = _run(console, show_bar, 2 * cap, lambda progress: run_ab_until(
                baseline, ruleset, until_width, main=main_key, batch=10 * len(chosen), max_games=cap, seed=seed,
                progress=progress, focus=focus_keys, **seeded))
            records_a, records, ab = until.records_a, until.records_b, until.report
        elif baseline is not None:
            records_a, records, ab = _run(console, show_bar, 2 * count, lambda progress: run_ab(
                baseline, ruleset, count, progress=progress, focus=focus_keys, **options))
        else:
            records = _run(console, show_bar, count,
                           lambda progress: simulate(ruleset, count, progress=progress, **options)).records
    report = balance_report(records, ruleset, margin=margin)
    if html is not None:
        from kcd.analysis.balance_html import render

        try:
            html.write_text(render(report, ab=ab), encoding="utf-8")
        except OSError as err:
            fail(f"cannot write {html}: {err.strerror or err}", EXIT_PROBLEMS)
        console.print(f"wrote {html}")
    if as_json:
        data = report.to_dict()
        if ab is not None:
            data["ab"] = ab.to_dict()
            data["ab"]["games_needed"] = {"effect": effect, "games": games_needed(effect, ab.typical_sd())}
            if until is not None:
                data["ab"]["sequential"] = until.to_dict()["sequential"]
        typer.echo(json.dumps(data))
        return
    _print_report(report, Console())
    if ab is not None:
        out = Console()
        out.print("\n[bold]A/B: what the change did[/bold] (A = --against, B = --content; the same games, paired)")
        out.print(until.summary_text(effect) if until is not None else ab.summary_text(effect), highlight=False)


def _focus_or_exit(text: str | None, option: str = "--focus") -> list[str] | None:
    """`--focus leader:kahu,flock:red` -> the keys (None: not given); exit 2 on a key that is not GROUP:ID."""
    from kcd.analysis.abtest import GROUPS

    if text is None:
        return None
    keys = [k.strip() for k in text.split(",") if k.strip()]
    for key in keys:
        group, colon, item = key.partition(":")
        if not colon or not item or group not in GROUPS:
            fail(f"{option}: `{key}` is not GROUP:ID; groups: {', '.join(GROUPS)}")
    return keys


def _print_report(report: Any, console: Console) -> None:
    """The balance report as rich tables: one per group, then VP by source, the flags and the coverage."""
    from kcd.analysis.balance import GROUP_NAMES, RATE_MEANING, band_rule

    console.print(f"[bold]{report.games} games[/bold]; fair band: {band_rule(report.margin)['rule']}", highlight=False)
    for group, entries in report.groups.items():
        table = Table(title=f"{GROUP_NAMES.get(group, group)}: {RATE_MEANING.get(group, 'win rate')}")
        for col in (GROUP_NAMES.get(group, group), "n", "rate", "95% interval", "fair band", "mean VP", "flag"):
            table.add_column(col, justify="left" if col in (GROUP_NAMES.get(group, group), "flag") else "right")
        for e in entries:
            vp = "" if e.mean_vp is None else f"{e.mean_vp:.2f} ({e.vp_low:.2f}-{e.vp_high:.2f})"
            flag = {"strong": "[red]above band[/red]", "weak": "[blue]below band[/blue]"}.get(e.flag or "", "")
            table.add_row(e.label, str(e.n), f"{e.rate:.1%}", f"{e.low:.1%} - {e.high:.1%}",
                          f"{e.band[0]:.1%} - {e.band[1]:.1%}", vp, flag)
        console.print(table)
    vp_table = Table(title="Mean VP per flock by source (95% interval)")
    vp_table.add_column("flock")
    sources = report.vp_by_source.get("sources", [])
    for source in sources:
        vp_table.add_column(report.vp_by_source["all"][source]["label"], justify="right")
    for flock, table_ in [("all flocks", report.vp_by_source["all"])] + list(report.vp_by_source["by_flock"].items()):
        label = report.names.get(f"flock:{flock}", flock)
        vp_table.add_row(label, *(f"{table_[s]['mean']:.2f} ({table_[s]['low']:.2f}-{table_[s]['high']:.2f})" for s in sources))
    console.print(vp_table)
    if report.flags:
        console.print("[bold]Flagged[/bold] (95% interval outside the fair band):")
        for e in report.flags:
            console.print(f"  - {e.evidence}", highlight=False)
    else:
        console.print("Nothing flagged: every 95% interval reaches into its fair band.")
    cov = report.coverage
    missing = cov.get("missing_leader_cards") or []
    console.print(f"Covered: sides {', '.join(cov.get('sides', []))}; {cov.get('leader_cards', 0)} Leader cards"
                  + (f"; never played: {', '.join(missing)}" if missing else ""), highlight=False)


def register(app: typer.Typer) -> None:
    """Add `kcd balance` to the app."""
    app.command("balance")(balance_command)
