"""The `kcd` command: one typer app; each area registers its own subcommands."""
from __future__ import annotations

import typer

from interpreter import cli_balance, cli_content, cli_game
from interpreter import cli_replay
from interpreter.cli_errors import SafeGroup, fail

app = typer.Typer(add_completion=False, no_args_is_help=True, cls=SafeGroup,
                  help="Kiwi Chow Down: validate content, print rules, play, simulate, edit.")


@app.callback()
def _root() -> None:
    """Kiwi Chow Down: validate content, print rules, play, simulate, edit."""


cli_content.register(app)
cli_game.register(app)
cli_replay.register(app)
__import__("service.cli").cli.register(app)   # `kcd serve` (service/)
cli_balance.register(app)


@app.command("reference")
def reference_command(
    kind: str = typer.Option(None, "--kind", help="Only parts of this kind: grammar, verb, trigger, modifier, noun, "
                                                   "determiner, reference, filter, function, statement, comparison."),
) -> None:
    """Print the effect language's reference: its grammar, every primitive and every part (noun, filter,
    function ...), each with what it does and an example with its rules text."""
    from interpreter.dsl import reference
    from interpreter.dsl.render import reference_parts

    rows = [row for row in reference() if kind is None or row["kind"] == kind]
    part_rows = [row for row in reference_parts() if kind is None or row["kind"] == kind]
    if not rows and not part_rows:
        fail(f"no parts of kind `{kind}`; kinds are grammar, verb, trigger, modifier, noun, "
             "determiner, reference, filter, function, statement, comparison")
    grammar = [row for row in part_rows if row["kind"] == "grammar"]
    for row in grammar:
        typer.echo(f"{row['name']} := {row['syntax']}  [grammar; {', '.join(row['fields'])}]")
        typer.echo(f"    {row['doc']}")
        typer.echo(f"    e.g. `{row['field'] or row['example']}`" + (f" -> {row['text']}" if row["text"] else ""))
    for row in rows:
        typer.echo(f"{row['display']}  [{row['kind']}; {', '.join(row['contexts'])}]")
        typer.echo(f"    {row['doc']}")
        typer.echo(f"    e.g. `{row['example']}` -> {row['text']}")
        if row["kind"] == "trigger":   # the references the event binds in the power's effect
            typer.echo("    binds: " + ("; ".join(row["binds"]) or "no hex (`this hex` is refused in its effect)"))
        if row.get("during"):
            typer.echo("    also for one action: `this action: " + row["example"] + "; ...`")
        if row.get("note"):
            typer.echo(f"    ({row['note']})")
    for row in part_rows:
        if row["kind"] == "grammar":
            continue
        applies = f"; narrows {', '.join(row['applies'])}" if row["applies"] else ""
        typer.echo(f"{row['name']}  [{row['kind']}{applies}]")
        typer.echo(f"    {row['doc']}")
        typer.echo(f"    e.g. `{row['field']}` -> {row['text']}")


@app.command("editor")
def editor_command(
    content: str = typer.Option(None, "--content", help="Content folder to edit (default: the shipped content)."),
    port: int = typer.Option(8501, "--port", help="Port on localhost."),
) -> None:
    """Start the designers' editor (Streamlit) on localhost and print its address."""
    from editor.launch import launch

    raise typer.Exit(launch(content, port))


def main() -> None:
    """Console entry point."""
    app()


if __name__ == "__main__":
    main()
