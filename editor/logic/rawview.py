"""The raw file view: a content file's text with each located problem written under its line, so a YAML syntax
error (which hides the file's items from the forms) can be found and fixed in the editor."""
from __future__ import annotations

from kcd.apps.editor.logic.validation import Problem


def _caret_width(problem: Problem) -> int:
    """How many `^` the diagnostic underlines (1 when it has no caret line)."""
    for line in problem.text.splitlines()[1:]:
        if line.strip() and set(line.strip()) == {"^"}:
            return len(line.strip())
    return 1


def _message(problem: Problem) -> str:
    """`error[yaml-syntax]: ... (hint: ...)` from a formatted diagnostic, without its file:line:col."""
    lines = problem.text.splitlines()
    header = lines[0] if lines else problem.code
    marker = f"{problem.severity}["
    message = header[header.find(marker):] if marker in header else header
    hints = [ln.strip() for ln in lines[1:] if ln.strip().startswith("hint:")]
    return message + (f" ({hints[0]})" if hints else "")


def annotate(text: str, problems: list[Problem], rel: str) -> str:
    """Numbered lines of `text` with every problem of file `rel` under the line it is on (problems past the
    end go after the last line)."""
    lines = text.splitlines() or [""]
    width = len(str(len(lines)))
    by_line: dict[int, list[Problem]] = {}
    for problem in problems:
        if problem.rel == rel:
            by_line.setdefault(min(max(problem.line, 1), len(lines)), []).append(problem)
    out: list[str] = []
    for number, line in enumerate(lines, start=1):
        out.append(f"{number:>{width}} | {line}")
        for problem in sorted(by_line.get(number, []), key=lambda p: p.col):
            pad = " " * (width + 3 + max(problem.col, 1) - 1)
            out.append(f"{pad}{'^' * _caret_width(problem)} {_message(problem)}")
    return "\n".join(out)


def lines_with_problems(problems: list[Problem], rel: str) -> list[int]:
    """The line numbers that carry a problem of `rel`."""
    return sorted({p.line for p in problems if p.rel == rel})
