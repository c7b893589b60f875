"""One error style for every `kcd` subcommand: a message on stderr and an exit code, never a traceback.

Exit codes: 0 done, 1 a content or game problem (content that does not validate, a position that is not a
position, a game that cannot go on), 2 a usage error (an unknown option value, a missing or unwritable path, an
unknown pack, bot, flock or variant). Messages read `kcd <command>: error: <what>` with an optional
`  hint: <how to fix it>` line; content problems print their located diagnostics. `SafeGroup` is the app's
command class: anything a command did not turn into one of these is reported the same way (exit 1), so a bug
never prints a traceback to a user (set KCD_DEBUG=1 to see it).
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterable, NoReturn, Sequence, TextIO

import click
import typer
from typer.core import TyperGroup

try:   # typer 0.2x carries its own copy of click; older versions use click itself
    from typer import _click as _typer_click
    _PASSED: tuple[type[BaseException], ...] = (_typer_click.ClickException,)
    _CLICK_ERRORS: tuple[type[Exception], ...] = (click.ClickException, _typer_click.ClickException)
    _USAGE_ERRORS: tuple[type[Exception], ...] = (click.UsageError, _typer_click.exceptions.UsageError)
    _ABORTS: tuple[type[BaseException], ...] = (click.exceptions.Abort, typer.Abort)
    _HELP: tuple[type[BaseException], ...] = (_typer_click.exceptions.NoArgsIsHelpError,)
except ImportError:   # pragma: no cover - depends on the installed typer
    _PASSED = ()
    _CLICK_ERRORS, _USAGE_ERRORS, _ABORTS = (click.ClickException,), (click.UsageError,), (click.exceptions.Abort,)
    _HELP = ()
# What a command may raise on purpose (exits, aborts, usage errors): passed on to typer untouched.
_PASSED += (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, typer.Exit, typer.Abort)

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2



# The subcommand being run (set by SafeGroup when it resolves it), for the `kcd <command>:` prefix.
_RUNNING: dict[str, str] = {}


def _command() -> str:
    """`kcd play` for the running subcommand (`kcd` outside one)."""
    name = _RUNNING.get("command")
    return f"kcd {name}" if name else "kcd"


def fail(message: str, code: int = EXIT_USAGE, hint: str | None = None) -> NoReturn:
    """Print `kcd <command>: error: message` (and a hint) on stderr and exit with `code` (2: usage error)."""
    typer.echo(f"{_command()}: error: {message}", err=True)
    if hint:
        typer.echo(f"  hint: {hint}", err=True)
    raise typer.Exit(code)


def fail_content(diagnostics: Iterable[Any], note: str | None = None) -> NoReturn:
    """Print located diagnostics (content or position problems) on stderr and exit 1."""
    for diagnostic in diagnostics:
        typer.echo(diagnostic.format(), err=True)
    if note:
        typer.echo(f"{_command()}: error: {note}", err=True)
    raise typer.Exit(EXIT_PROBLEMS)


def comma_list(text: str | None, option: str, what: str) -> list[str] | None:
    """`a,b` -> ["a", "b"]; None when the option was not given; exit 2 for an empty list or an empty item."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",")]
    if not any(names):
        fail(f"{option} is empty: give one or more {what}, comma-separated")
    if not all(names):
        fail(f"{option} `{text}` has an empty item: give {what} separated by single commas")
    return names


def pack_ids(root: Path, kind: str, names: Iterable[str] | None, option: str) -> list[str]:
    """The overlay names `editions/<id>` / `mods/<id>` of pack ids given to `--edition` / `--mod`.

    Only ids are taken (a path such as `/etc` or `../x` is refused), and only packs that exist under the
    content root; both are usage errors (exit 2) that list the packs there are.
    """
    from kcd.content import available_packs
    from kcd.content.layout import PACK_DIRS, PACK_ID   # a pack id is its folder name: never a path

    folder = next(name for name, of in PACK_DIRS if of == kind)
    known = [p.id for p in available_packs(root) if p.path.parent.name == folder]
    out: list[str] = []
    for name in names or []:
        available = f"available: {', '.join(known) or 'none'}"
        if not PACK_ID.fullmatch(name):
            fail(f"{option} takes a pack id, not a path: `{name}`", hint=f"{kind} ids are folder names under "
                 f"content/{folder}/; {available}")
        if name not in known:
            fail(f"unknown {kind} `{name}`; {available}")
        out.append(f"{folder}/{name}")
    return out


def output_file(path: Path | None, option: str) -> TextIO | None:
    """Open `path` for writing (None stays None); exit 2 when it is a folder or cannot be written."""
    if path is None:
        return None
    if path.is_dir():
        fail(f"{option} {path} is a folder: give a file name", hint=f"e.g. {option} {path / 'game.txt'}")
    if not path.parent.is_dir():
        fail(f"{option} {path}: the folder {path.parent} does not exist", hint="create it first or give another path")
    try:
        return path.open("w", encoding="utf-8")
    except OSError as err:
        fail(f"{option} {path}: cannot write the file ({err.strerror})")


def input_file(path: Path, what: str) -> None:
    """Exit 2 unless `path` is an existing regular file."""
    if not path.exists():
        fail(f"no such {what}: {path}")
    if not path.is_file():
        fail(f"{path} is not a file (a {what} is a YAML file)")


class SafeGroup(TyperGroup):
    """The `kcd` command group: an exception no command turned into an exit code is reported, not raised."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        """Run the command line; click's own usage errors read `kcd <command>: error: ...` like every other."""
        _RUNNING.clear()
        run = dict(args=args, prog_name=prog_name, complete_var=complete_var, standalone_mode=False,
                   windows_expand_args=windows_expand_args, **extra)
        if not standalone_mode:
            return super().main(**run)
        try:
            code = super().main(**run)
        except _HELP as help_shown:    # `kcd` alone: typer has printed the help already
            sys.exit(getattr(help_shown, "exit_code", EXIT_USAGE))
        except _CLICK_ERRORS as found:   # an unknown option, a missing argument, a bad value: before the command ran
            err: Any = found   # click's or typer's own copy of click: the same attributes
            typer.echo(f"{_command()}: error: {err.format_message()}", err=True)
            if isinstance(err, _USAGE_ERRORS):
                typer.echo(f"  hint: `{_command()} --help` lists the options", err=True)
            sys.exit(err.exit_code)
        except _ABORTS:
            typer.echo(f"{_command()}: interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """Find the subcommand and remember its name for the messages."""
        name, command, rest = super().resolve_command(ctx, args)
        _RUNNING["command"] = command.name if command is not None and command.name else (name or "")
        return name, command, rest

    def invoke(self, ctx: Any) -> Any:
        """Run the subcommand; an unexpected exception becomes one error line and exit 1 (KCD_DEBUG=1 re-raises)."""
        try:
            return super().invoke(ctx)
        except _PASSED:
            raise
        except KeyboardInterrupt:
            typer.echo("kcd: interrupted", err=True)
            raise typer.Exit(130) from None
        except BrokenPipeError:   # the reader went away (`kcd validate | head`): stop quietly, as SIGPIPE would
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            raise typer.Exit(141) from None
        except Exception as err:  # the last line of defence: a message, never a traceback
            if os.environ.get("KCD_DEBUG"):
                raise
            typer.echo(f"{_command()}: internal error: {type(err).__name__}: {err}", err=True)
            typer.echo("  hint: this is a bug in kcd; please report it with the command line "
                       "(KCD_DEBUG=1 shows the traceback)", err=True)
            raise typer.Exit(EXIT_PROBLEMS) from None
