"""`kcd validate` and `kcd rules` (owned by the content loader)."""
from __future__ import annotations

from typing import List, Optional

import typer

from kcd.apps.cli.errors import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, fail, fail_content, pack_ids


def validate_command(
    paths: Optional[List[str]] = typer.Argument(
        None, help="Content roots (with base/), pack folders or single .yaml files; default: the shipped content."),
) -> None:
    """Validate content: YAML safety, schemas, DSL fields, cross-file ids and overlays; report every problem."""
    from kcd.content import validate_report

    report = validate_report(paths or [])
    for message in report.usage_errors:
        typer.echo(f"kcd validate: error: {message}", err=True)
    if report.usage_errors:
        raise typer.Exit(EXIT_USAGE)
    for diagnostic in report.diagnostics:
        typer.echo(diagnostic.format())
    typer.echo(report.summary())
    raise typer.Exit(EXIT_OK if report.ok else EXIT_PROBLEMS)


def rules_command(
    lang: str = typer.Option("en", "--lang", help="Language of the rules text."),
    edition: Optional[List[str]] = typer.Option(None, "--edition", help="Edition overlay to apply (repeatable)."),
    mod: Optional[List[str]] = typer.Option(None, "--mod", help="Mod overlay to apply (repeatable)."),
    content: Optional[str] = typer.Option(None, "--content", help="Content root (default: the shipped content)."),
) -> None:
    """Print the rules text of every card, nest, leader, Season card, flock and Turn Order item."""
    from kcd.content import ContentError, load_ruleset
    from kcd.content.loader import content_root
    from kcd.content.rules_text import languages, rules_text

    if lang not in languages():
        fail(f"unknown language `{lang}`; available: {', '.join(languages())}")
    root = content_root(content)
    if not (root / "base").is_dir():
        fail(f"{content} is not a content folder (it has no base/)")
    overlays = pack_ids(root, "edition", edition, "--edition") + pack_ids(root, "mod", mod, "--mod")
    try:
        rs = load_ruleset(overlays, root=root)
    except ContentError as err:
        fail_content(err.diagnostics, "the content does not validate; run `kcd validate`")
    typer.echo(rules_text(rs, lang), nl=False)


def register(app: typer.Typer) -> None:
    """Add the content commands to the app."""
    app.command("validate")(validate_command)
    app.command("rules")(rules_command)
