"""The `kcd` command: one typer app; each area registers its own subcommands."""
from __future__ import annotations

import typer

from kcd.apps.cli import balance as cli_balance, content as cli_content, game as cli_game
from kcd.apps.cli import replay as cli_replay
from kcd.apps.cli.errors import SafeGroup, fail
from kcd.apps.service import cli as service_cli

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=SafeGroup,
                  help="Kiwi Chow Down: validate content, print rules, play, simulate, edit.")


@app.callback()
def _root() -> None:
    """Kiwi Chow Down: validate content, print rules, play, simulate, edit."""


cli_content.register(app)
cli_game.register(app)
cli_replay.register(app)
service_cli.register(app)   # `kcd serve` (service/)
cli_balance.register(app)


def reference_text(kind: str | None = None) -> str:
    """The effect language's reference as `kcd reference` prints it (also the docs site's reference page)."""
    from kcd.dsl import reference
    from kcd.dsl.render import reference_parts

    rows = [row for row in reference() if kind is None or row["kind"] == kind]
    part_rows = [row for row in reference_parts() if kind is None or row["kind"] == kind]
    if not rows and not part_rows:
        fail(f"no parts of kind `{kind}`; kinds are grammar, verb, trigger, modifier, noun, "
             "determiner, reference, filter, function, statement, comparison")
    out: list[str] = []
    for row in part_rows:
        if row["kind"] == "grammar":
            out.append(f"{row['name']} := {row['syntax']}  [grammar; {', '.join(row['fields'])}]")
            out.append(f"    {row['doc']}")
            out.append(f"    e.g. `{row['field'] or row['example']}`" + (f" -> {row['text']}" if row["text"] else ""))
    for row in rows:
        out.append(f"{row['display']}  [{row['kind']}; {', '.join(row['contexts'])}]")
        out.append(f"    {row['doc']}")
        out.append(f"    e.g. `{row['example']}` -> {row['text']}")
        if row["kind"] == "trigger":   # the references the event binds in the power's effect
            out.append("    binds: " + ("; ".join(row["binds"]) or "no hex (`this hex` is refused in its effect)"))
        if row.get("during"):
            out.append("    also for one action: `this action: " + row["example"] + "; ...`")
        if row.get("note"):
            out.append(f"    ({row['note']})")
    for row in part_rows:
        if row["kind"] == "grammar":
            continue
        applies = f"; narrows {', '.join(row['applies'])}" if row["applies"] else ""
        out.append(f"{row['name']}  [{row['kind']}{applies}]")
        out.append(f"    {row['doc']}")
        out.append(f"    e.g. `{row['field']}` -> {row['text']}")
    return "".join(line + "\n" for line in out)


@app.command("reference")
def reference_command(
    kind: str = typer.Option(None, "--kind", help="Only parts of this kind: grammar, verb, trigger, modifier, noun, "
                                                   "determiner, reference, filter, function, statement, comparison."),
) -> None:
    """Print the effect language's reference: its grammar, every primitive and every part (noun, filter,
    function ...), each with what it does and an example with its rules text."""
    typer.echo(reference_text(kind), nl=False)


@app.command("editor")
def editor_command(
    content: str = typer.Option(None, "--content", help="Content folder to edit (default: the shipped content)."),
    port: int = typer.Option(8501, "--port", help="Port on localhost."),
) -> None:
    """Start the designers' editor (Streamlit) on localhost and print its address."""
    from kcd.apps.editor.launch import launch

    raise typer.Exit(launch(content, port))


@app.command("docs")
def docs_command(
    port: int = typer.Option(8000, "--port", help="Port to serve the site on."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (default: this machine only)."),
) -> None:
    """Serve the documentation site (mkdocs, from the source checkout) and print its address; Ctrl-C stops it."""
    import importlib.util
    import os
    import sys
    from pathlib import Path

    config = Path(__file__).resolve().parents[3] / "mkdocs.yml"
    if not config.is_file():
        fail(f"no mkdocs.yml beside the installed package ({config.parent}): the site is built from a source "
             "checkout", hint="clone the repository and `pip install -e '.[docs]'` there")
    if importlib.util.find_spec("mkdocs") is None:
        fail("mkdocs is not installed", hint="install the docs extra: pip install -e '.[docs]'")
    typer.echo(f"kcd docs: serving http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    sys.stderr.flush()
    # exec, not a child: Ctrl-C and SIGTERM reach the server itself, and no launcher is left waiting on it
    os.execv(sys.executable, [sys.executable, "-m", "mkdocs", "serve", "--config-file", str(config),
                              "--dev-addr", f"{host}:{port}"])


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
