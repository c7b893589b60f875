"""One error style for every `kcd` subcommand: exit 2 for a usage error, 1 for a content or game
problem, never a traceback.

The generic cases run against EVERY command registered on the typer app, found at run time, so commands other
parts add later (`replay`, `balance`, `serve` ...) are covered as soon as they are registered: an unknown
option, a non-number for every numeric option, missing required arguments, and a missing file for every path
argument. The table below adds the bad values each command of today's CLI must refuse.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kcd.apps.cli.main import app
from kcd.apps.cli.errors import EXIT_PROBLEMS, EXIT_USAGE

runner = CliRunner()
# (typer may carry its own copy of click, so parameters are read by their attributes, not their classes)
COMMANDS: dict[str, Any] = typer.main.get_command(app).commands  # type: ignore[attr-defined]


def _clean(result, args: list[str]) -> None:
    """No traceback, no exception escaping the command, no safety-net `internal error` (every bad argument
    has its own message)."""
    assert "Traceback" not in result.output, (args, result.output)
    assert "internal error" not in result.output, (args, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))


def _kind(param: Any) -> str:
    """`integer`, `float`, `path` or `other`: from typer's type descriptor, or click's type for older typers."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:
        return {int: "integer", float: "float", Path: "path"}.get(descriptor.annotation, "other")
    name = getattr(getattr(param, "type", None), "name", "")
    return name if name in ("integer", "float", "path") else "other"


def _generic_cases(name: str, command: Any, tmp: Path) -> list[list[str]]:
    """Bad command lines that any command must refuse with exit 2 before doing any work."""
    cases = [[name, "--no-such-option"]]
    required = [p for p in command.params if p.required]
    if required:
        cases.append([name])
    fill: list[str] = []
    for param in required:   # a valid-looking value for each required parameter, so one bad value is alone
        if param.param_type_name == "argument":
            fill.append(str(tmp / "missing.yaml"))
        else:
            fill += [param.opts[0], "1"]
    for param in command.params:
        if param.param_type_name == "option" and _kind(param) in ("integer", "float"):
            cases.append([name, *fill, param.opts[0], "not-a-number"])
        if param.param_type_name == "argument" and _kind(param) == "path":
            cases.append([name, *[f for f in fill if f != str(tmp / "missing.yaml")],
                          str(tmp / "no" / "such" / "file.yaml")])
    return cases


def test_every_registered_command_is_found() -> None:
    """The enumeration sees the app's commands (today's at least), so the generic test below covers them all."""
    assert {"validate", "rules", "reference", "play", "simulate", "position", "editor"} <= set(COMMANDS)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_refuses_bad_arguments_with_exit_2_and_no_traceback(name: str, tmp_path: Path) -> None:
    """Unknown options, non-numbers, missing required arguments, missing files: exit 2, a message, no traceback."""
    for args in _generic_cases(name, COMMANDS[name], tmp_path):
        result = runner.invoke(app, args)
        assert result.exit_code == EXIT_USAGE, (args, result.exit_code, result.output)
        assert result.output.strip(), args
        # click's own usage errors (found before the command runs) read like the commands' own ones
        assert result.output.startswith(f"kcd {name}: error: "), (args, result.output)
        _clean(result, args)


@pytest.fixture
def tmp_files(tmp_path: Path) -> dict[str, str]:
    """A folder, a path under a missing folder and a broken content copy for the table below."""
    broken = tmp_path / "content"
    import shutil

    from kcd.core.paths import content_dir
    shutil.copytree(content_dir(), broken)
    nests = broken / "base" / "nests.yaml"
    nests.write_text(nests.read_text(encoding="utf-8").replace("on_place: gain 1 fruit", "on_place: gian 1 fruit", 1),
                     encoding="utf-8")
    position = tmp_path / "bad-position.yaml"
    position.write_text("players: [purple, nobody]\n", encoding="utf-8")
    return {"dir": str(tmp_path), "nested": str(tmp_path / "missing" / "dir" / "f.txt"), "broken": str(broken),
            "position": str(position)}


# (command line, expected exit code, text the message must contain); {dir} etc. come from `tmp_files`.
TABLE: list[tuple[list[str], int, str]] = [
    (["play", "--log", "{dir}"], EXIT_USAGE, "is a folder: give a file name"),
    (["play", "--log", "{nested}"], EXIT_USAGE, "does not exist"),
    (["play", "--mod", "nope"], EXIT_USAGE, "unknown mod `nope`; available: compose, example, kiwibot-cards, lastmile, lastmile-duel, reeds, scoped"),
    (["play", "--edition", "nope"], EXIT_USAGE, "unknown edition `nope`; available: prototype"),
    (["rules", "--edition", "nope"], EXIT_USAGE, "unknown edition `nope`; available: prototype"),
    (["rules", "--mod", "nope"], EXIT_USAGE, "unknown mod `nope`; available: compose, example, kiwibot-cards, lastmile, lastmile-duel, reeds, scoped"),
    (["play", "--edition", "/etc"], EXIT_USAGE, "--edition takes a pack id, not a path: `/etc`"),
    (["rules", "--edition", "/etc"], EXIT_USAGE, "--edition takes a pack id, not a path"),
    (["play", "--mod", "../editions/prototype"], EXIT_USAGE, "--mod takes a pack id, not a path"),
    (["simulate", "-n", "1", "--edition", "editions/prototype"], EXIT_USAGE, "takes a pack id"),
    (["play", "--bots", ""], EXIT_USAGE, "--bots is empty"),
    (["play", "--bots", ",,,"], EXIT_USAGE, "--bots is empty"),
    (["play", "--bots", "random,,greedy"], EXIT_USAGE, "has an empty item"),
    (["simulate", "-n", "1", "--bots", ""], EXIT_USAGE, "--bots is empty"),
    (["play", "--flocks", ""], EXIT_USAGE, "--flocks is empty"),
    (["play", "--flocks", ",red"], EXIT_USAGE, "has an empty item"),
    (["simulate", "-n", "1", "--flocks", ""], EXIT_USAGE, "--flocks is empty"),
    (["play", "--flocks", "red,nobody"], EXIT_USAGE, "unknown flock `nobody`"),
    (["play", "--bots", "clever"], EXIT_USAGE, "unknown bot `clever`"),
    (["play", "--variant", "turbo"], EXIT_USAGE, "unknown variant `turbo`"),
    (["play", "--solo-side", "x"], EXIT_USAGE, "needs --solo"),
    (["play", "--content", "{dir}"], EXIT_USAGE, "is not a content folder"),
    (["rules", "--content", "{dir}"], EXIT_USAGE, "is not a content folder"),
    (["rules", "--lang", "xx"], EXIT_USAGE, "unknown language `xx`"),
    (["reference", "--kind", "spell"], EXIT_USAGE, "no parts of kind `spell`"),
    (["validate", "{nested}"], EXIT_USAGE, "no such file or folder"),
    (["position", "{dir}"], EXIT_USAGE, "is not a file"),
    (["position", "{nested}"], EXIT_USAGE, "no such position file"),
    (["editor", "--content", "{dir}"], EXIT_USAGE, "is not a content folder"),
    (["editor", "--port", "0"], EXIT_USAGE, "--port must be 1..65535"),
    # content or game problems: exit 1 with located diagnostics
    (["play", "--content", "{broken}"], EXIT_PROBLEMS, "unknown verb `gian`"),
    (["simulate", "-n", "1", "--content", "{broken}"], EXIT_PROBLEMS, "unknown verb `gian`"),
    (["rules", "--content", "{broken}"], EXIT_PROBLEMS, "unknown verb `gian`"),
    (["validate", "{broken}"], EXIT_PROBLEMS, "unknown verb `gian`"),
    (["position", "{position}"], EXIT_PROBLEMS, "error[id-unknown]: unknown flock"),
]


@pytest.mark.parametrize("args,code,text", TABLE, ids=[" ".join(a) for a, _, _ in TABLE])
def test_bad_argument_gets_its_exit_code_and_message(args: list[str], code: int, text: str,
                                                     tmp_files: dict[str, str]) -> None:
    """Each mistake of the table: the same kind of mistake gives the same exit code, with a clear message."""
    argv = [a.format(**tmp_files) for a in args]
    result = runner.invoke(app, argv)
    assert result.exit_code == code, (argv, result.output)
    assert text in result.output, (argv, result.output)
    _clean(result, argv)


def test_usage_messages_name_the_command() -> None:
    """Usage errors read `kcd <command>: error: ...` whichever command found them."""
    for args in (["play", "--mod", "nope"], ["rules", "--mod", "nope"], ["reference", "--kind", "x"]):
        result = runner.invoke(app, args)
        assert result.output.startswith(f"kcd {args[0]}: error: "), result.output


def test_an_unexpected_exception_is_one_message_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last line of defence: a bug inside a command prints `internal error` and exits 1 (KCD_DEBUG re-raises)."""
    import kcd.dsl

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(kcd.dsl, "reference", broken)
    result = runner.invoke(app, ["reference"])
    assert result.exit_code == EXIT_PROBLEMS
    assert "kcd reference: internal error: ZeroDivisionError: boom" in result.output
    assert "Traceback" not in result.output
    monkeypatch.setenv("KCD_DEBUG", "1")
    assert isinstance(runner.invoke(app, ["reference"]).exception, ZeroDivisionError)


@pytest.mark.parametrize("args,code", [
    (["replay", "{missing}"], EXIT_USAGE),
    (["replay", "{bad_save}"], EXIT_PROBLEMS),
    (["balance", "-n", "1", "--focus", "nonsense"], EXIT_USAGE),
    (["balance", "-n", "1", "--bots", ""], EXIT_USAGE),
    (["simulate", "--bots", "random"], EXIT_USAGE),
    (["play", "--players", "two"], EXIT_USAGE),
    (["validate", "{missing}"], EXIT_USAGE),
    (["position", "{missing}"], EXIT_USAGE),
])
def test_every_command_prefixes_its_errors_the_same_way(args: list[str], code: int, tmp_path: Path) -> None:
    """One form across commands: `kcd <command>: error: ...` on stderr, whether the command, its helpers or click
    found the mistake."""
    bad_save = tmp_path / "bad.json"
    bad_save.write_text("{", encoding="utf-8")
    argv = [a.format(missing=tmp_path / "missing.json", bad_save=bad_save) for a in args]
    result = runner.invoke(app, argv)
    assert result.exit_code == code, (argv, result.output)
    assert result.output.startswith(f"kcd {args[0]}: error: "), (argv, result.output)
    _clean(result, argv)


def test_an_unknown_command_and_a_bare_kcd_are_usage_errors() -> None:
    """`kcd frob` names the mistake in the same form; `kcd` alone prints the help (exit 2, as click does)."""
    result = runner.invoke(app, ["frob"])
    assert result.exit_code == EXIT_USAGE and result.output.startswith("kcd: error: No such command 'frob'")
    bare = runner.invoke(app, [])
    assert bare.exit_code == EXIT_USAGE and "Usage:" in bare.output and "error" not in bare.output


def test_an_empty_bots_list_names_every_registered_bot() -> None:
    """`--bots ""` lists the bots of the registry (kcd.analysis.bots.BOTS), mcts included, in every command."""
    from kcd.analysis.bots import BOTS

    assert "mcts" in BOTS
    for args in (["play", "--bots", ""], ["simulate", "-n", "1", "--bots", ""], ["balance", "-n", "1", "--bots", ""]):
        result = runner.invoke(app, args)
        assert result.exit_code == EXIT_USAGE, result.output
        assert f"give one or more bots ({', '.join(BOTS)})" in result.output, result.output
