"""Validation for the editor: the loader's own located diagnostics (the same text as `kcd validate`)."""
from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic import yamlrt
from kcd.apps.editor.logic.catalog import ItemRef
from kcd.apps.editor.logic.fields import Field


@dataclass(frozen=True)
class Problem:
    """One diagnostic with where it belongs in the content folder."""

    rel: str | None        # file relative to the content root (None when outside it)
    line: int
    col: int
    code: str
    severity: str
    text: str              # the diagnostic formatted exactly like `kcd validate`
    packs: tuple[str, ...] = ()   # which overlay combinations reported it


def diag_rel(root: Path, diag: Any) -> str | None:
    """The content-relative file of a diagnostic (None when it is not inside the content folder)."""
    file = Path(diag.location.file)
    if not file.is_absolute():
        file = Path(os.getcwd()) / file
    try:
        return file.resolve().relative_to(Path(root).resolve()).as_posix()
    except (ValueError, OSError):
        return None


def to_problem(root: Path, diag: Any, packs: tuple[str, ...] = ()) -> Problem:
    """Wrap a loader Diagnostic."""
    return Problem(diag_rel(root, diag), int(diag.location.line), int(diag.location.col or 1), diag.code,
                   getattr(diag, "severity", "error"), diag.format(), packs)


def validate_edit(root: Path, rel: str, text: str) -> list[Problem]:
    """Problems of the whole file `rel` with `text` as its content, in the context of the rest of the set
    (kcd.content.validate_text, the loader's per-edit entry point)."""
    from kcd.content import validate_text

    path = Path(root).resolve() / rel
    diags = validate_text(path, text, root=Path(root).resolve(), overlays=list(cat.overlays_for(rel)))
    return [to_problem(root, d) for d in diags]


def blocking(problems: list[Problem], rel: str | None = None) -> list[str]:
    """The formatted errors that block saving `rel`: errors located in that file (or in no known file).
    Errors in other files of the set are shown but do not block, so one broken file elsewhere does not
    freeze every other edit; warnings never block."""
    return [p.text for p in problems if p.severity == "error" and (rel is None or p.rel in (rel, None))]


def whole_report(root: Path) -> list[Problem]:
    """Every problem of the whole set: base alone, then base + each edition and base + each mod; each
    problem reported once, with the combinations that showed it."""
    from kcd.content import available_packs, load_ruleset
    from kcd.core.diagnostics import ContentError

    combos: list[tuple[str, ...]] = [()] + [(p.id,) for p in available_packs(root)]
    seen: dict[str, Problem] = {}
    for overlays in combos:
        try:
            load_ruleset(overlays=list(overlays), root=Path(root).resolve())
        except ContentError as exc:
            label = "+".join(("base",) + overlays)
            for diag in exc.diagnostics:
                problem = to_problem(root, diag, (label,))
                old = seen.get(problem.text)
                seen[problem.text] = problem if old is None else replace(old, packs=old.packs + (label,))
    from kcd.content.validate import mod_pair_conflicts

    # like `kcd validate`: mods that are each valid but cannot be stacked are warned about
    for diag in mod_pair_conflicts(Path(root).resolve()):
        problem = to_problem(root, diag)
        seen.setdefault(problem.text, problem)
    return sorted(seen.values(), key=lambda p: (p.rel or "", p.line, p.text))


def link(problems: list[Problem], items: list[ItemRef]) -> list[tuple[Problem, ItemRef | None]]:
    """Each problem with the item whose lines contain it (None for file-level problems)."""
    return [(p, cat.item_at(items, p.rel, p.line) if p.rel else None) for p in problems]


@dataclass
class Placed:
    """Problems of one file split by where the editor shows them."""

    by_field: dict[tuple, list[Problem]]
    item: list[Problem]
    elsewhere: list[Problem]


def place(problems: list[Problem], rel: str, text: str, item: ItemRef, fields: list[Field]) -> Placed:
    """Attach each problem to the field written on its line (in the edited text), else to the item, else
    to "elsewhere" (other parts of the file or other files)."""
    data = yamlrt.load(text)
    starts: list[tuple[int, int, tuple]] = []
    for field in fields:
        pos = yamlrt.value_pos(data, field.doc_path)
        if pos is not None:
            starts.append((pos[0], pos[1], field.path))
    starts.sort()
    items_now = cat.items_in_text(rel, text)
    here = next((i for i in items_now if i.kind == item.kind and i.path == item.path), item)
    placed = Placed({}, [], [])
    for problem in problems:
        if problem.rel != rel or not (here.line <= problem.line <= here.end_line):
            placed.elsewhere.append(problem)
            continue
        # the field written on the problem's line at or before its column (flow mappings put several
        # fields on one line); else the last field above it (a block scalar spans several lines)
        same = [(c, path) for line, c, path in starts if line == problem.line and c <= max(problem.col, 1)]
        above = [path for line, _, path in starts if line < problem.line]
        on_line = [path for line, _, path in starts if line == problem.line]
        owner = max(same, key=lambda t: t[0])[1] if same else (on_line[0] if on_line else (above[-1] if above else None))
        if owner is None:
            placed.item.append(problem)
        else:
            placed.by_field.setdefault(owner, []).append(problem)
    return placed
