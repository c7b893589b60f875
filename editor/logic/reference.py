"""The effect language's reference beside each DSL field: the registry's primitives allowed in that field kind,
each with its pattern, what it does, an example and the example's rules text (interpreter.dsl.reference)."""
from __future__ import annotations

from typing import Any

# the statement forms every effect-like field also takes (README "The effect DSL")
FORMS = [("choose { A } or { B }", "the player picks one of the effects", "choose { gain 2 fruit } or { place 1 kiwi }"),
         ("may { A }", "the player may do it or not", "may { grow 1 kiwi }"),
         ("repeat N { A }", "do it N times (1-10)", "repeat 2 { grow 1 kiwi }"),
         ("A; B", "one after the other", "gain 1 fruit; place 1 kiwi")]
_COMBINED = ("effect", "ability", "solo")   # cost fields take pay verbs only


def rows_for(kind: str, ctx: Any = None) -> list[dict]:
    """The registry's primitives usable in a field of DSL kind `kind` (effect, cost, ability, objective ...)."""
    from interpreter.dsl import reference

    return [r for r in reference(ctx) if kind in r["contexts"]]


def _cell(text: str) -> str:
    """A Markdown table cell: pipes escaped, `<` kept from being read as HTML."""
    return str(text).replace("|", "\\|").replace("<", "\\<")


def markdown(kind: str, ctx: Any = None) -> str:
    """The reference for one field kind as a Markdown table (with the statement forms for effects)."""
    lines = [f"**{kind}** fields take:", "", "| write | what it does | example | reads as |", "|---|---|---|---|"]
    for row in rows_for(kind, ctx):
        lines.append(f"| `{row['display']}` | {_cell(row['doc'])} | `{row['example']}` | {_cell(row['text'])} |")
    if kind in _COMBINED:
        for form, what, example in FORMS:
            lines.append(f"| `{form}` | {what} | `{example}` | |")
    return "\n".join(lines)
