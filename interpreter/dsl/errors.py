"""Errors and issues of the effect DSL: a syntax error is raised, checker findings are returned."""
from __future__ import annotations

from dataclasses import dataclass

from kcd.dsl.ast import Span


@dataclass(frozen=True)
class Issue:
    """One finding about a DSL field: a code of SPEC.md "Diagnostics", a message, where, and a hint."""

    code: str
    message: str
    span: Span
    hint: str | None = None
    severity: str = "error"        # "warning": the field still compiles and plays
    rule: str | None = None        # the rule id a content `exceptions:` entry may waive (an ability's R-LEAD-5)


class DslError(Exception):
    """A DSL text that cannot be parsed (code `dsl-syntax`), with the span of the offending text."""

    def __init__(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.hint = hint

    def to_issue(self) -> Issue:
        """The same finding as an Issue value."""
        return Issue(self.code, self.message, self.span, self.hint)

    def __repr__(self) -> str:
        return f"DslError({self.code!r}, {self.message!r}, {self.span!r}, {self.hint!r})"
