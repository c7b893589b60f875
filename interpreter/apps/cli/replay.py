"""`kcd replay SAVE`: replay a save's history from its seed and report the first decision that diverges.

The save's seed and setup (or start state) and its decisions are replayed under the content given (by default
the shipped content; `--content`, `--edition`, `--mod` choose another), so a designer can check whether a
content change alters a recorded game. Exit 0 when the game replays exactly, 1 when it diverges or the save
is unreadable, 2 on a usage error; never a traceback.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from kcd.apps.cli.errors import EXIT_PROBLEMS, fail

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset


@dataclass(frozen=True)
class ReplayReport:
    """What replaying a save gave: `exact`, or where it diverged and why."""

    decisions: int                 # decisions in the save's history
    replayed: int                  # decisions that replayed
    exact: bool
    message: str
    same_content: bool             # the save's content hash is the content's

    def to_dict(self) -> dict:
        """Plain data for `--json`."""
        return {"decisions": self.decisions, "replayed": self.replayed, "exact": self.exact,
                "same_content": self.same_content, "message": self.message}


def replay_save(ruleset: Ruleset, text: str | bytes) -> ReplayReport:
    """Replay the save's history from its origin under `ruleset`; ValueError when the save is unreadable."""
    from kcd.engine import Game, Refused
    from kcd.engine import game as game_module
    from kcd.engine import save, setup
    from kcd.content.rules import compile_rules

    data = save.parse(text)
    save.check_schema(data)
    if (data["setup"] is None) == (data["start"] is None):
        raise ValueError("save needs exactly one origin: `setup` (with its seed) or `start`")
    if data["start"] is not None:   # a hand-built start state runs as it is: it must be a possible state
        rules = compile_rules(ruleset)
        save.check_state(rules, data["start"], "start", setup.params_of(rules))
    same = data.get("content_hash") == getattr(ruleset, "hash", None)
    history = data["history"]
    origin = {"seed": data["seed"], "setup": data["setup"], "start": data["start"]}
    try:
        game = Game._replay(ruleset, origin, [])
    except ValueError as exc:
        return ReplayReport(len(history), 0, False, f"the game does not start: {exc}", same)
    for i, option_id in enumerate(history):
        pending = game.pending
        try:
            result = game.apply(option_id)
        except game_module._REPLAY_ERRORS as exc:
            return ReplayReport(len(history), i, False,
                                f"decision {i + 1} `{option_id}` fails: {type(exc).__name__}: {exc}", same)
        if isinstance(result, Refused):
            asked = (f"{pending.player} is asked {pending.kind}, options "
                     f"{', '.join(pending.option_ids()[:8])}{' …' if len(pending.options) > 8 else ''}"
                     if pending is not None else "the game is already over")
            return ReplayReport(len(history), i, False,
                                f"diverges at decision {i + 1}: `{option_id}` is refused ({result.code}); {asked}", same)
    difference = game_module._first_difference(data["state"], game.state.to_dict(), "state")
    if difference:
        return ReplayReport(len(history), len(history), False,
                            f"all {len(history)} decisions replay, but the state differs: {difference}", same)
    return ReplayReport(len(history), len(history), True,
                        f"replays exactly: {len(history)} decisions, the same state", same)


def replay_command(
    save_file: Path = typer.Argument(..., help="A save written by Game.to_json()."),
    content: Optional[Path] = typer.Option(None, "--content", help="Content root (default: the shipped content)."),
    edition: Optional[list[str]] = typer.Option(None, "--edition", help="Edition overlay (repeatable, in order)."),
    mod: Optional[list[str]] = typer.Option(None, "--mod", help="Mod overlay (repeatable, in order)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Replay a save's decisions from its seed and report the first one that diverges (or that it replays exactly)."""
    from kcd.apps.cli.game import _load

    from kcd.engine.save import MAX_TEXT

    try:
        if save_file.stat().st_size > 4 * MAX_TEXT:   # refuse before reading gigabytes
            fail(f"{save_file}: {save_file.stat().st_size:,} bytes is not a save", EXIT_PROBLEMS)
        text = save_file.read_bytes()
    except OSError as exc:
        fail(f"cannot read {save_file}: {exc.strerror or exc}")
    ruleset = _load(edition, mod, content)
    try:
        report = replay_save(ruleset, text)
    except ValueError as exc:
        fail(f"{save_file}: {exc}", EXIT_PROBLEMS)
    if as_json:
        typer.echo(json.dumps(report.to_dict()))
    else:
        if not report.same_content:
            typer.echo("note: the save was made with other content (its content hash differs)")
        typer.echo(f"{save_file}: {report.message}")
    raise typer.Exit(0 if report.exact else 1)


def register(app: typer.Typer) -> None:
    """Add `kcd replay` to the app."""
    app.command("replay")(replay_command)
