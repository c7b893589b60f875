"""The `kcd` command: one typer app; each area registers its own subcommands."""
from __future__ import annotations

import typer

from interpreter import cli_content, cli_game

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Kiwi Chow Down: validate content, print rules, play, simulate, edit.")



@app.callback()
def _root() -> None:
    """Kiwi Chow Down: validate content, print rules, play, simulate, edit."""


cli_content.register(app)
cli_game.register(app)


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
