"""The effect DSL: parse text to a spanned AST, check it against the primitive registry, render rules text."""
from __future__ import annotations

from kcd.dsl import registry
from kcd.dsl.ast import Call, Choose, May, Node, Objective, Repeat, Seq, Span, Word, walk
from kcd.dsl.checker import CheckContext, check, compile_field
from kcd.dsl.errors import DslError, Issue
from kcd.dsl.parser import parse
from kcd.dsl.render import reference, render

__all__ = [
    "parse", "check", "compile_field", "render", "reference", "DslError", "Issue", "CheckContext", "registry",
    "Call", "Choose", "May", "Node", "Objective", "Repeat", "Seq", "Span", "Word", "walk",
]
