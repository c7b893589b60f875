"""`kcd play`, `kcd simulate`, `kcd position` (owned by bots/CLI)."""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Optional, TextIO

import typer
from rich.console import Console
from rich.table import Table

from kcd.apps.cli.errors import (EXIT_PROBLEMS, EXIT_USAGE, comma_list, fail, fail_content, input_file,
                                   output_file, pack_ids)
from kcd.apps.cli import play_options as opts

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset


def _load(editions: list[str] | None, mods: list[str] | None, content: Path | None = None) -> Any:
    """The ruleset (from `content`, default the shipped content): exit 2 for a bad folder or pack id, exit 1
    printing the located diagnostics when the content does not validate."""
    from kcd.content import ContentError, load_ruleset
    from kcd.content.loader import content_root

    if content is not None and not (content / "base").is_dir():
        fail(f"{content} is not a content folder (it has no base/)")
    root = content_root(content)
    overlays = pack_ids(root, "edition", editions, "--edition") + pack_ids(root, "mod", mods, "--mod")
    try:
        return load_ruleset(overlays=overlays, root=content)
    except ContentError as err:
        fail_content(err.diagnostics)


@contextmanager
def _exit_on_game_error() -> Iterator[None]:
    """A refused setup exits 2, a game that cannot be played to its end exits 1: a message, never a traceback."""
    from kcd.engine.context import EngineError
    from kcd.engine.setup import SetupError
    from kcd.analysis.sim import SimError

    try:
        yield
    except SetupError as err:
        fail(str(err), EXIT_USAGE)
    except (SimError, EngineError) as err:
        fail(str(err), EXIT_PROBLEMS)


def _bot_names(text: str) -> list[str]:
    """`random,greedy` -> ["random", "greedy"], exit 2 on an empty list, an unknown bot or a bad `mcts:<budget>`."""
    from kcd.analysis.bots import BOTS, bot_name_error

    names = comma_list(text, "--bots", f"bots ({', '.join(BOTS)})") or []
    for name in names:
        if (error := bot_name_error(name)) is not None:   # unknown bot, or a bad `mcts:<budget>`
            fail(error)
    return names


def _variant_or_exit(name: str | None) -> str | None:
    """`--variant vto` -> "vto"; None stays the standard game; exit 2 listing the known variants otherwise."""
    from kcd.analysis.sim import KNOWN_VARIANTS

    if name is None:
        return None
    if name not in KNOWN_VARIANTS:
        known = ", ".join(f"{vid} ({label})" for vid, label in sorted(KNOWN_VARIANTS.items()))
        fail(f"unknown variant `{name}`; known variants: {known}")
    return name


VARIANT_HELP = "Rules variant: vto (Variable Turn Order, R-VTO-1..5); omit for the standard game."


def _players_or_exit(ruleset: Ruleset, players: int, flocks: str | None = None) -> list[str]:
    """The flocks in seat order: `--flocks a,b,…` as given (checked against content), else the first `players`
    of the default seat order; exit 2 with the known flocks on a bad choice."""
    from kcd.analysis.sim import default_flocks

    chosen = comma_list(flocks, "--flocks", "flock ids")
    if chosen is not None:
        known = [item.id for item in ruleset.items("flocks")]
        unknown = [f for f in chosen if f not in known]
        problem = (f"unknown flock `{unknown[0]}`; known flocks: {', '.join(known)}" if unknown
                   else "a flock can take only one seat" if len(set(chosen)) != len(chosen)
                   else f"--flocks names {len(chosen)} flocks but --players is {players}" if len(chosen) != players
                   else None)
        if problem:
            fail(problem)
        return chosen
    try:
        return default_flocks(ruleset, players)
    except ValueError as err:
        fail(str(err))


def _choices_or_exit(ruleset: Ruleset, flocks: list[str], sides: str | None,
                     leaders: str | None) -> tuple[Any, Any, Any]:
    """(sides, leaders, leader_cards) from --sides/--leaders (interpreter/apps/cli/play_options.py), exit 2 on a bad value."""
    known = opts.known_flocks(ruleset)
    chosen_leaders, cards = opts.or_exit(opts.parse_leaders, leaders, ruleset, flocks, known)
    return opts.or_exit(opts.parse_sides, sides, flocks, known), chosen_leaders, cards


FLOCKS_HELP = "Flocks in seat order, comma-separated (default: the first N of game.yaml's flock.seat_order)."
SOLO_HELP = ("Solo mode against Kiwibot (R-SOLO-1..12): the two flocks (--flocks, else the first two of the seat "
             "order) are the player and Kiwibot; the player's bot is the first of --bots. Two players only, no --variant.")
SOLO_SIDE_HELP = "Solo-mode marker side (R-SOLO-12), e.g. bot-side or player-side; omit to deal it from the seed."


def _mode_or_exit(ruleset: Ruleset, switch: bool, solo_side: str | None, players: int | None,
                  variant: str | None) -> str:
    """The mode's name from --solo (kcd.engine.mode_registry; the standard game without it); exit 2 on an option or a
    combination the mode does not take, in the mode's own words (`Mode.check_options`)."""
    from kcd.engine import mode_registry as modes
    from kcd.content.rules import compile_rules

    name = MODE_FLAGS["--solo"] if switch else STANDARD_MODE
    mode = modes.select(name, None)
    rules = compile_rules(ruleset)
    options = {"solo_side": solo_side}
    own = {o.name for o in mode.setup_options(rules)}
    for key, value in options.items():
        owner = modes.option_owner(rules, key)
        if value is not None and key not in own and owner is not None:
            label = next(o.label for o in owner.setup_options(rules) if o.name == key)
            fail(f"--{key.replace('_', '-')} is the {label}: it needs {_flag_of(owner.name)}")
    if mode.player_count is not None and players is not None and players != mode.player_count:
        fail(f"{_flag_of(name)} is {mode.seats_text}: --players must be {mode.player_count}, got {players}")
    if variant is not None and not mode.takes_variants:
        fail(f"{_flag_of(name)} is played without variants: drop --variant {variant}")
    problem = mode.check_options(rules, options)
    if problem:
        fail(problem)
    return name


# The command line's mode switches: flag -> mode name (kcd.engine.mode_registry); no flag plays the standard game.
MODE_FLAGS = {"--solo": "solo"}
STANDARD_MODE = "standard"


def _flag_of(mode: str) -> str:
    """The command-line switch that picks a mode (a plug-in mode without one: its name)."""
    return next((flag for flag, name in MODE_FLAGS.items() if name == mode), f"the {mode} mode")


def _mode_of(name: str) -> Any:
    """The registered mode of a name the command line chose (`_mode_or_exit`)."""
    from kcd.engine import mode_registry as modes

    return modes.select(name, None)


class _TurnLog:
    """Writes a readable turn-by-turn log of a game (`kcd play --log`): headings per season and phase.

    In a solo game Kiwibot never decides (R-SOLO-7): its turns are events, so each revealed card (`kiwibot`
    event) gets a line of its own at the level of a decision, and its answers (`kiwibot-choice`) and their
    effects are indented below it.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.printed: tuple[Any, ...] = ()
        self.upcoming: tuple[Any, ...] = ()
        self.season: Any = None   # the season of the latest solo `season-flip` event

    def start(self, game: Any) -> None:
        """Log the setup's events and note where the first decision happens."""
        self.out.write("\n== Setup ==\n")
        self.printed = (None, "setup")
        solo = game.view(None).get("solo") or {}
        if solo.get("marker_side"):
            self.out.write(f"      Solo-mode marker side: {solo['marker_side']}\n")
        for event in game.events:
            self._event(event)
        self.upcoming = self._where(game)

    def _event(self, event: Any) -> None:
        """One event line: a Kiwibot turn stands out like a decision, everything else is indented."""
        from kcd.analysis.sim import event_text

        kind, data = getattr(event, "kind", None), getattr(event, "data", None) or {}
        if kind == "season-flip":
            self.season = data.get("season", self.season)
        if kind == "kiwibot" and "card" in data and self.season is not None:
            # a revealed card is always an Actions turn (R-SOLO-7), though it may run among the events of the
            # player's previous decision (or of setup): head it by where it happens, not where the player was
            self._heading((self.season, "actions"))
        if kind == "kiwibot":
            self.out.write(f"  {getattr(event, 'player', None) or 'Kiwibot'} [kiwibot] {event_text(event)}\n")
        else:
            self.out.write(f"      {event_text(event)}\n")

    def __call__(self, game: Any, decision: Any, option: str, applied: Any) -> None:
        """Log one decision (after a heading when its season or phase is new), then its events."""
        self._heading(self.upcoming)
        label = next((o.label for o in decision.options if o.id == option), option)
        self.out.write(f"  {decision.player} [{decision.kind}] {label}\n")
        for event in applied.events:
            self._event(event)
        self.upcoming = self._where(game)

    def _heading(self, where: tuple[Any, ...]) -> None:
        """Write a `== Season N: phase ==` heading unless it is the one already written; setup steps that ask
        decisions (the advanced draft, the VTO tracker, R-SETUP-6, R-VTO-2) stay under `== Setup ==`."""
        if where[1] == "setup":
            where = (None, "setup")
        if where != self.printed:
            self.printed = where
            title = "Setup" if where[1] == "setup" else f"Season {where[0]}: {where[1]}"
            self.out.write(f"\n== {title} ==\n")

    @staticmethod
    def _where(game: Any) -> tuple[Any, ...]:
        view = game.view(None)
        return view.get("season"), view.get("phase")


def _human_seed(seed: int | None) -> int:
    """The seed of a game against a person: the one given (at most the service's 63 bits), else one from the OS,
    as the service draws for a `create` without a seed (a fixed default would deal every terminal game alike)."""
    import secrets

    from kcd.apps.service.hub import SEED_BITS

    if seed is None:
        return secrets.randbits(SEED_BITS)
    return opts.or_exit(opts.parse_seed, seed, 1, (1 << SEED_BITS) - 1, " with --human (the service's seeds)")


def play_command(
    players: Optional[int] = typer.Option(None, "--players", "-p", min=1,
                                          help="Number of players (default 2, or the number of --flocks)."),
    flocks_opt: Optional[str] = typer.Option(None, "--flocks", help=FLOCKS_HELP),
    seed: Optional[int] = typer.Option(None, "--seed", help="Game seed, 0 to 2^64-1: the same arguments always play "
                                       "the same game (default 0; with --human a random one, printed at the end)."),
    bots: str = typer.Option("random", "--bots", help="Bots by seat, comma-separated: random, greedy, mcts (or mcts:<N>it, mcts:<N>ms)."),
    edition: Optional[list[str]] = typer.Option(None, "--edition", help="Edition overlay (repeatable, in order)."),
    mod: Optional[list[str]] = typer.Option(None, "--mod", help="Mod overlay (repeatable, in order)."),
    variant: Optional[str] = typer.Option(None, "--variant", help=VARIANT_HELP),
    solo: bool = typer.Option(False, "--solo", help=SOLO_HELP),
    solo_side: Optional[str] = typer.Option(None, "--solo-side", help=SOLO_SIDE_HELP),
    content: Optional[Path] = typer.Option(None, "--content", help="Content root to play (default: the shipped content)."),
    sides_opt: Optional[str] = typer.Option(None, "--sides", help=opts.SIDES_HELP),
    leaders_opt: Optional[str] = typer.Option(None, "--leaders", help=opts.LEADERS_HELP),
    log: Optional[Path] = typer.Option(None, "--log", help="Write a readable turn-by-turn log to this file."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    human: Optional[str] = typer.Option(None, "--human", help="Play this seat (flock or number) yourself; bots play the rest."),
    engine: str = typer.Option("native", "--engine", help=opts.ENGINE_HELP),
) -> None:
    """Play one whole game between bots (or one bot against Kiwibot with --solo) and print the scores."""
    from kcd.modes.base import SCORE_COLUMNS
    from kcd.analysis.sim import play_game

    opts.or_exit(opts.use_engine, engine)
    if seed is not None:
        opts.or_exit(opts.parse_seed, seed)
    ruleset = _load(edition, mod, content)
    variant = _variant_or_exit(variant)
    if players is None:
        players = len(comma_list(flocks_opt, "--flocks", "flock ids") or [1, 2])
    mode = _mode_or_exit(ruleset, solo, solo_side, players, variant)
    flocks = _players_or_exit(ruleset, players, flocks_opt)
    sides, leaders, cards = _choices_or_exit(ruleset, flocks, sides_opt, leaders_opt)
    names = _bot_names(bots)
    if human is not None:   # a person at the terminal (service/terminal.py)
        from kcd.apps.service.terminal import human_command
        human_seed = _human_seed(seed)
        code = human_command(human, flocks, names, human_seed, edition, mod, variant, mode, solo_side, content,
                             __import__("sys").stdout)
        if code != EXIT_USAGE:   # a game was dealt: its seed only now, or the player could read the bots' hands
            typer.echo(f"This game's seed: {human_seed} (--seed {human_seed} plays it again).")
        raise typer.Exit(code)
    seed = 0 if seed is None else seed
    game_mode = _mode_of(mode)
    engine_seats = game_mode.engine_seats(flocks)
    roles = dict(zip(flocks, game_mode.seat_roles(len(flocks))))
    if engine_seats:
        names = names[:len(game_mode.deciders(flocks))]   # the engine plays its own seats (Kiwibot, R-SOLO-7)
    handle = output_file(log, "--log")
    try:
        tlog = _TurnLog(handle) if handle is not None else None
        if handle is not None:
            rules = f"; variant {variant}" if variant else ""
            if engine_seats:   # a player against the engine's own seats (solo: Kiwibot)
                rules = (f"; {mode}: {', '.join(game_mode.deciders(flocks))} against "
                         f"{', '.join(f'{roles[f].label} ({f})' for f in engine_seats)}, marker side "
                         f"{solo_side or 'dealt from the seed'}")
            handle.write(f"Kiwi Chow Down: {', '.join(flocks)}; seed {seed}; bots {', '.join(names)}{rules}\n")
        with _exit_on_game_error():
            record = play_game(ruleset, flocks, seed, names, variant=variant, on_decision=tlog,
                               on_start=tlog.start if tlog else None, mode=mode, solo_side=solo_side,
                               leaders=leaders, sides=sides, leader_cards=cards)
        if handle is not None:
            handle.write("\n== Final scores ==\n")
            for flock in record.ranking:
                s = record.scores[flock]
                extra = "".join(f", {c} {s[c]}" for c in game_mode.score_columns() if c not in SCORE_COLUMNS)
                who = "".join(f" ({roles[flock].label})" for f in engine_seats if f == flock)
                handle.write(f"  {flock}{who}: {s['total']} VP (domain {s['domain']}, nests {s['nests']}, "
                             f"season cards {s['season_cards']}{extra})\n")
    finally:
        if handle is not None:
            handle.close()
    if as_json:
        out = {"seed": seed, "players": record.players, "scores": record.scores, "ranking": record.ranking,
               "decisions": record.decisions, "leaders": record.leaders, "leader_cards": record.leader_cards,
               "sides": record.sides,
               "bots": record.bots, "season_cards": record.season_cards, "variant": record.variant,
               "mode": record.mode}
        if engine_seats:   # the record's fields of a game against the engine's seats (solo)
            out.update(solo_side=record.solo_side, marker_side=record.marker_side, kiwibot=record.kiwibot,
                       seats=record.seats, solo_vp={f: s.get("solo", 0) for f, s in record.scores.items()})
        typer.echo(json.dumps(out))
        return
    console = Console()
    rules = f", {variant}" if variant else ""
    if engine_seats:
        rules = f", {game_mode.title} ({record.kiwibot}, marker side {record.marker_side})"
    table = Table(title=f"Kiwi Chow Down, seed {seed}{rules}: {record.decisions} decisions")
    extra_columns = [c for c in game_mode.score_columns() if c not in SCORE_COLUMNS]   # solo: Kiwibot's markers
    columns = ["rank", "flock", "leader", "bot", "domain", "nests", "season cards", *extra_columns]
    for col in columns + ["total"]:
        table.add_column(col, justify="left" if col in ("flock", "leader", "bot") else "right")
    for rank, flock in enumerate(record.ranking, start=1):
        s = record.scores[flock]
        row = [str(rank), flock, record.leaders.get(flock, ""), record.bots[record.players.index(flock)],
               str(s["domain"]), str(s["nests"]), str(s["season_cards"])]
        row += [str(s.get(c, 0)) for c in extra_columns]
        table.add_row(*row, str(s["total"]))
    console.print(table)


def simulate_command(
    games: int = typer.Option(..., "--games", "-n", min=1, help="Number of games."),
    players: Optional[int] = typer.Option(None, "--players", "-p", min=1,
                                          help="Number of players (default 4; 2 with --solo; or the number of --flocks)."),
    flocks_opt: Optional[str] = typer.Option(None, "--flocks", help=FLOCKS_HELP + " Seats rotate between games."),
    seed: int = typer.Option(0, "--seed", help="Seed of game 0, 0 to 2^64-1; game i uses seed + i."),
    bots: str = typer.Option("random", "--bots", help="Bots by seat, comma-separated: random, greedy, mcts (or mcts:<N>it, mcts:<N>ms)."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1, help="Processes to run games on."),
    variant: Optional[str] = typer.Option(None, "--variant", help=VARIANT_HELP),
    solo: bool = typer.Option(False, "--solo", help=SOLO_HELP),
    solo_side: Optional[str] = typer.Option(None, "--solo-side", help=SOLO_SIDE_HELP),
    edition: Optional[list[str]] = typer.Option(None, "--edition", help="Edition overlay (repeatable, in order)."),
    mod: Optional[list[str]] = typer.Option(None, "--mod", help="Mod overlay (repeatable, in order)."),
    content: Optional[Path] = typer.Option(None, "--content", help="Content root to play (default: the shipped content)."),
    sides_opt: Optional[str] = typer.Option(None, "--sides", help=opts.SIDES_HELP),
    leaders_opt: Optional[str] = typer.Option(None, "--leaders", help=opts.LEADERS_HELP),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=opts.SCHEDULER_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    engine: str = typer.Option("native", "--engine", help=opts.ENGINE_HELP),
) -> None:
    """Run many bot games and print win rates (95% Wilson intervals), mean VP by source and game length;
    with --solo also the player's win rate against Kiwibot."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kcd.analysis.sim import simulate

    opts.or_exit(opts.use_engine, engine)
    opts.or_exit(opts.parse_seed, seed, games)
    ruleset = _load(edition, mod, content)
    variant = _variant_or_exit(variant)
    if players is None and flocks_opt is not None:
        players = len(comma_list(flocks_opt, "--flocks", "flock ids") or [])
    mode = _mode_or_exit(ruleset, solo, solo_side, players, variant)
    game_mode = _mode_of(mode)
    count = players if players is not None else game_mode.default_players()
    chosen = _players_or_exit(ruleset, count, flocks_opt)
    sides, leaders, cards = _choices_or_exit(ruleset, chosen, sides_opt, leaders_opt)
    names = _bot_names(bots)
    if game_mode.engine_seats(chosen):
        names = names[:len(game_mode.deciders(chosen))]   # the engine plays its own seats (Kiwibot, R-SOLO-7)
    console = Console(stderr=True)
    show_bar = console.is_terminal and not as_json
    options = {"players": count, "seed": seed, "bots": names, "jobs": jobs, "variant": variant, "mode": mode,
               "solo_side": solo_side, "flocks": chosen if flocks_opt else None, "sides": sides, "leaders": leaders,
               "leader_cards": cards, "scheduler": opts.or_exit(opts.parse_scheduler, scheduler)}
    with opts.exit_on_interrupt("kcd simulate"), _exit_on_game_error():
        if show_bar:
            with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=console) as bar:
                task = bar.add_task("games", total=games)
                report = simulate(ruleset, games, **options,
                                  progress=lambda done, total: bar.update(task, completed=done))
        else:
            report = simulate(ruleset, games, **options)
    summary = report.summary()
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print_summary(summary)


def _print_summary(summary: dict[str, Any]) -> None:
    """Readable tables of a simulation summary."""
    console = Console()
    console.print(f"[bold]{summary['games']} games[/bold], mean length {summary['mean_decisions']:.1f} decisions")
    for group in ("seat", "flock", "side", "leader", "leader_card", "bot"):
        table = Table(title=f"Win rate by {group.replace('_', ' ')}")
        for col in (group, "wins", "games", "rate", "95% interval"):
            table.add_column(col, justify="left" if col == group else "right")
        for key, r in summary["win_rate"][group].items():
            table.add_row(key, str(r["wins"]), str(r["games"]), f"{r['rate']:.1%}", f"{r['lo']:.1%} - {r['hi']:.1%}")
        console.print(table)
    vp = Table(title="Mean VP per flock by source")
    for col in summary["mean_vp"]:
        vp.add_column(col, justify="right")
    vp.add_row(*(f"{v:.2f}" for v in summary["mean_vp"].values()))
    console.print(vp)
    if summary.get("solo"):
        _print_solo(summary["solo"], console)
    if summary["season_cards"]:
        cards = Table(title="Season cards")
        for col in ("card", "played", "ties", "victors"):
            cards.add_column(col)
        for cid, c in summary["season_cards"].items():
            victors = ", ".join(f"{f} {n}" for f, n in sorted(c["victor_flocks"].items()))
            cards.add_row(cid, str(c["played"]), str(c["ties"]), victors)
        console.print(cards)


def _print_solo(solo: dict[str, Any], console: Console) -> None:
    """The player-vs-Kiwibot tables of a solo simulation (R-SOLO-5/6)."""
    rates = Table(title="Player vs Kiwibot (solo)")
    for col in ("", "wins", "games", "rate", "95% interval"):
        rates.add_column(col, justify="left" if not col else "right")
    rows = [("player", solo["player"]), ("Kiwibot", solo["kiwibot"])]
    rows += [(f"player, marker side {side}", r) for side, r in solo["by_side"].items()]
    for name, r in rows:
        rates.add_row(name, str(r["wins"]), str(r["games"]), f"{r['rate']:.1%}", f"{r['lo']:.1%} - {r['hi']:.1%}")
    console.print(rates)
    vp = Table(title="Mean VP by source, player vs Kiwibot")
    vp.add_column("role")
    sources = list(solo["mean_vp"]["player"])
    for col in sources:
        vp.add_column(col, justify="right")
    for role, label in (("player", "player"), ("kiwibot", "Kiwibot")):
        vp.add_row(label, *(f"{solo['mean_vp'][role][k]:.2f}" for k in sources))
    console.print(vp)
    c = solo["season_cards"]
    console.print(f"Season cards: player won {c['player']}, Kiwibot won {c['kiwibot']}, ties {c['ties']}")


def position_command(
    file: Path = typer.Argument(..., help="A position YAML file."),
    as_json: bool = typer.Option(False, "--json", help="Print the analysis as JSON."),
) -> None:
    """Load a hand-written position and print dominance per hex, VP, tiebreakers, ranking and the Season card."""
    from kcd.analysis.position import PositionError, analyse, load_position

    input_file(file, "position file")
    try:
        game = load_position(file)
    except PositionError as err:
        fail_content(err.diagnostics)
    analysis = analyse(game)
    if as_json:
        typer.echo(json.dumps(analysis))
        return
    print_analysis(analysis, Console())


def print_analysis(analysis: dict[str, Any], console: Console) -> None:
    """The position analysis as rich tables."""
    hexes = Table(title="Hexes")
    first: dict[str, Any] = next(iter(analysis["hexes"].values()), {})
    purposes = list(first.get("by_purpose", {}))
    for col in ("hex", "terrain", "strength", "dominant") + tuple(f"{p} (strength: dominant)" for p in purposes):
        hexes.add_column(col)

    def strength(counts: dict[str, int]) -> str:
        return ", ".join(f"{f} {n}" for f, n in counts.items())

    for hex_id, h in analysis["hexes"].items():
        extra = [f"{strength(h['by_purpose'][p]['strength'])}: {h['by_purpose'][p]['dominant'] or '-'}"
                 for p in purposes]
        hexes.add_row(hex_id, h["terrain"], strength(h["strength"]), h["dominant"] or "-", *extra)
    console.print(hexes)
    flocks = Table(title="Flocks (ranked)")
    for col in ("flock", "domain", "nests", "season cards", "total", "tiebreak (s3, s2, s1, unused markers)"):
        flocks.add_column(col)
    for flock in analysis["ranking"]:
        f = analysis["flocks"][flock]
        vp = f["vp"]
        flocks.add_row(flock, str(vp["domain"]), str(vp["nests"]), str(vp["season_cards"]), str(vp["total"]),
                       str(f["tiebreak"]))
    console.print(flocks)
    card = analysis.get("season_card")
    if card:
        values = ", ".join(f"{f} {v}" for f, v in card["values"].items())
        console.print(f"Season card [bold]{card['id']}[/bold]: {values}; victor: {card['victor'] or 'none (tie)'}")


def register(app: typer.Typer) -> None:
    """Add the game commands to the app."""
    app.command("play")(play_command)
    app.command("simulate")(simulate_command)
    app.command("position")(position_command)
