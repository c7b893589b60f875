"""Located content diagnostics: `file:line:col: error[CODE]: message`, the source line, a caret and a hint."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# Every diagnostic code the loader emits (SPEC.md "Diagnostics").
CODES = (
    "yaml-syntax", "yaml-unsafe", "yaml-duplicate-key", "schema",
    "dsl-syntax", "dsl-unknown", "dsl-arg-type", "dsl-arg-count", "dsl-context", "dsl-bound",
    "id-duplicate", "id-unknown", "nest-twin", "trigger-unreachable",
    "overlay-conflict", "overlay-target", "content-path", "effect-bound", "content-value",
)


@dataclass(frozen=True)
class Location:
    """A place in a file: 1-based line and column; `end_col` is the column just past the span."""

    file: str
    line: int
    col: int
    end_col: int | None = None


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in content, with where it is and how to fix it."""

    code: str
    message: str
    location: Location
    source_line: str | None = None
    hint: str | None = None
    severity: str = "error"

    def format(self) -> str:
        """The diagnostic as the CLI and editor print it (header, source line, caret, hint)."""
        loc = self.location
        lines = [f"{display_path(loc.file)}:{loc.line}:{loc.col}: {self.severity}[{self.code}]: {self.message}"]
        if self.source_line is not None and self.source_line.strip():
            raw = self.source_line.rstrip("\r\n")
            shown = raw.lstrip()
            indent = len(raw) - len(shown)
            start = max(loc.col - 1 - indent, 0)
            width = 1
            if loc.end_col is not None and loc.end_col > loc.col:
                width = loc.end_col - loc.col
            width = max(1, min(width, max(len(shown) - start, 1)))
            lines.append("  " + shown)
            lines.append("  " + " " * start + "^" * width)
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


class ContentError(Exception):
    """Content did not validate; `diagnostics` says every problem found."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__(format_all(self.diagnostics) or "invalid content")


def display_path(file: str) -> str:
    """`file` relative to the current directory when it lies below it, else as given."""
    # The path itself, never its symlink target: a link out of the content folder is reported by its own name.
    try:
        path = Path(file)
        if not path.is_absolute():
            return file
        path = Path(os.path.normpath(path))
        for cwd in (Path(os.getcwd()), Path(os.getcwd()).resolve()):
            if path.is_relative_to(cwd):
                return path.relative_to(cwd).as_posix()
        return file
    except (ValueError, OSError):
        return file


def format_all(diagnostics: list[Diagnostic]) -> str:
    """All diagnostics formatted, separated by newlines."""
    return "\n".join(d.format() for d in diagnostics)


def count_summary(diagnostics: list[Diagnostic]) -> str:
    """"3 errors in 2 files" (warnings counted separately when present)."""
    errors = [d for d in diagnostics if d.severity == "error"]
    warnings = [d for d in diagnostics if d.severity != "error"]
    files = {d.location.file for d in diagnostics}
    parts = []
    if errors:
        parts.append(f"{len(errors)} error{'s' if len(errors) != 1 else ''}")
    if warnings:
        parts.append(f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}")
    return f"{' and '.join(parts)} in {len(files)} file{'s' if len(files) != 1 else ''}"
