"""The effect DSL: parse text to a spanned AST, check it against the primitive registry, render rules text."""
from __future__ import annotations

from interpreter.dsl import registry
from interpreter.dsl.ast import Call, Choose, May, Node, Objective, Repeat, Seq, Span, Word, walk
from interpreter.dsl.checker import CheckContext, check, compile_field
from interpreter.dsl.errors import DslError, Issue
from interpreter.dsl.parser import parse
from interpreter.dsl.render import reference, render
from interpreter.dsl import render_solo as _render_solo  # noqa: F401  (registers the Kiwibot-side texts)

__all__ = [
    "parse", "check", "compile_field", "render", "reference", "DslError", "Issue", "CheckContext", "registry",
    "Call", "Choose", "May", "Node", "Objective", "Repeat", "Seq", "Span", "Word", "walk",
]
