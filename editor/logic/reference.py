"""The effect language's reference beside each DSL field, read from the registries (kcd.dsl.reference and
reference_parts): the grammar of that field kind, the primitives allowed in it, and the parts that build selectors,
quantities and conditions, each with what it does, an example and the example's rules text."""
from __future__ import annotations

from typing import Any

_STATEMENT_FIELDS = ("effect", "ability", "solo", "cost")   # fields whose text is an effect (statements)
_PART_KINDS = ("determiner", "noun", "reference", "filter", "function", "comparison")   # what builds selectors


def rows_for(kind: str, ctx: Any = None) -> list[dict]:
    """The registry's primitives usable in a field of DSL kind `kind` (effect, cost, ability, objective ...)."""
    from kcd.dsl import reference

    return [r for r in reference(ctx) if kind in r["contexts"]]


def grammar_for(kind: str, ctx: Any = None) -> list[dict]:
    """The grammar rules that make up a field of DSL kind `kind` (effect, selector, quantity ...), in order."""
    from kcd.dsl.render import reference_parts

    return [r for r in reference_parts(ctx) if r["kind"] == "grammar" and kind in r["fields"]]


def parts_for(kind: str, ctx: Any = None) -> list[dict]:
    """The statements (effect fields) and the selector, quantity and condition parts a field kind may use."""
    from kcd.dsl.render import reference_parts

    rules = {r["name"] for r in grammar_for(kind, ctx)}
    wanted: tuple[str, ...] = ("statement",) if kind in _STATEMENT_FIELDS and kind != "cost" else ()
    if "selector" in rules:
        wanted += _PART_KINDS
    return [r for r in reference_parts(ctx) if r["kind"] in wanted]


def _cell(text: str) -> str:
    """A Markdown table cell: pipes escaped, `<` kept from being read as HTML."""
    return str(text).replace("|", "\\|").replace("<", "\\<")


def _code(text: str) -> str:
    return f"`{text}`" if text else ""


def markdown(kind: str, ctx: Any = None) -> str:
    """The reference for one field kind as Markdown: its grammar, then a table of the primitives it takes and of
    the parts (statements, determiners, nouns, filters, functions, comparisons) with an example each."""
    lines = [f"**{kind}** fields are written:", ""]
    for rule in grammar_for(kind, ctx):
        lines.append(f"- **{rule['name']}** := `{rule['syntax']}`: {_cell(rule['doc'])} "
                     f"e.g. `{rule['field'] or rule['example']}`")
    lines += ["", f"**{kind}** fields take:", "", "| write | what it does | example | reads as |", "|---|---|---|---|"]
    for row in rows_for(kind, ctx):
        lines.append(f"| `{row['display']}` | {_cell(row['doc'])} | `{row['example']}` | {_cell(row['text'])} |")
    for part in parts_for(kind, ctx):
        lines.append(f"| `{part['name']}` ({part['kind']}) | {_cell(part['doc'])} | {_code(part['field'] or part['example'])} "
                     f"| {_cell(part['text'])} |")
    return "\n".join(lines)
