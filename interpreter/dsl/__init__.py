"""The effect DSL: parse text to a spanned AST, check it against the primitive registry, render rules text."""
from __future__ import annotations

from kcd.dsl import registry
from kcd.dsl.ast import Call, Choose, May, Node, Objective, Repeat, Seq, Span, Word, walk
from kcd.dsl.checker import CheckContext, check, compile_field
from kcd.dsl.errors import DslError, Issue
from kcd.dsl.parser import parse
from kcd.dsl.render import reference, render
from kcd.dsl import render_solo as _render_solo  # noqa: F401  (registers the Kiwibot-side texts)

__all__ = [
    "parse", "check", "compile_field", "render", "reference", "DslError", "Issue", "CheckContext", "registry",
    "Call", "Choose", "May", "Node", "Objective", "Repeat", "Seq", "Span", "Word", "walk",
]
