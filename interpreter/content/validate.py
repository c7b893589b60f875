"""Validating content roots, pack folders or single files: what `kcd validate` runs."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Iterable

from kcd.core import paths
from kcd.content.layout import BASE_FOLDER
from kcd.content.loader import _dedupe, available_packs, build, pack_of
from kcd.core.diagnostics import Diagnostic, count_summary


@dataclass
class ValidationReport:
    """The outcome of validating some paths: problems, what was read, and path errors (usage)."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: set[str] = field(default_factory=set)
    items: set[tuple[str, str, str]] = field(default_factory=set)
    sets: list[str] = field(default_factory=list)
    usage_errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no error was found."""
        return not self.usage_errors and not any(d.severity == "error" for d in self.diagnostics)

    def summary(self) -> str:
        """"OK: 11 files, 92 items, base + prototype + example" or "3 errors in 2 files"."""
        if self.diagnostics and not self.ok:
            return count_summary(self.diagnostics)
        names: list[str] = []
        for s in self.sets:
            for part in s.split(" + "):
                if part not in names:
                    names.append(part)
        text = f"OK: {len(self.files)} file{'s' if len(self.files) != 1 else ''}, {len(self.items)} item{'s' if len(self.items) != 1 else ''}"
        if names:
            text += ", " + " + ".join(names)
        if self.diagnostics:
            text += f" ({count_summary(self.diagnostics)})"
        return text


def _is_root(path: Path) -> bool:
    return (path / BASE_FOLDER).is_dir()


def _plan(path: Path) -> tuple[Path, list[tuple[str, ...]], Path | None] | None:
    """(content root, overlay lists to validate, single file to report on) for one path, or None."""
    if path.is_dir() and _is_root(path):
        runs: list[tuple[str, ...]] = [()] + [(p.id,) for p in available_packs(path)]
        return path, runs, None
    found = pack_of(path)
    if found is None:
        return None
    root, pack = found
    runs = [()] if pack is None else [(pack,)]
    if path.is_file():
        if path.suffix not in (".yaml", ".yml"):
            return None
        return root, runs, path
    return root, runs, None


def _stacked(plans: list[tuple[Path, list[tuple[str, ...]], Path | None]]
             ) -> list[tuple[Path, list[tuple[str, ...]], Path | None]]:
    """Pack folders of one root given together are validated as one stack, in the order given.

    `kcd validate content/mods/a content/mods/b` asks whether a and b work together, exactly as
    `kcd play --mod a --mod b` would load them, so the overlay conflicts between them are reported.
    """
    out: list[tuple[Path, list[tuple[str, ...]], Path | None]] = []
    stacks: dict[Path, list[str]] = {}
    for root, runs, only in plans:
        if only is None and runs and runs[0] and len(runs) == 1:
            if root not in stacks:
                stacks[root] = []
                out.append((root, [], None))
            if runs[0][0] not in stacks[root]:
                stacks[root].append(runs[0][0])
            continue
        out.append((root, runs, only))
    return [(root, [tuple(stacks[root])], None) if only is None and not runs else (root, runs, only)
            for root, runs, only in out]


def mod_pair_conflicts(root: Path) -> list[Diagnostic]:
    """Mods of a root that cannot be played together: their overlay conflicts, as warnings.

    Each mod is valid on its own (checked separately); two mods changing the same item only fail when a
    player stacks them (`kcd play --mod a --mod b`), so the root's report warns about it up front.
    """
    mods = [p.id for p in available_packs(root) if p.kind == "mod"]
    found: list[Diagnostic] = []
    for first, second in combinations(mods, 2):
        for diag in build(root, (first, second)).diagnostics:
            if diag.code == "overlay-conflict":
                hint = f"mods `{first}` and `{second}` cannot be played together; {diag.hint or ''}".rstrip("; ")
                found.append(replace(diag, severity="warning", hint=hint))
    return found


def validate_report(paths_in: Iterable[str | Path] = ()) -> ValidationReport:
    """Validate every path (content root, pack folder or .yaml file); every problem reported once."""
    report = ValidationReport()
    targets = [Path(p) for p in paths_in] or [paths.content_dir()]
    plans: list[tuple[Path, list[tuple[str, ...]], Path | None]] = []
    for target in targets:
        if not target.exists():
            report.usage_errors.append(f"no such file or folder: {target}")
            continue
        plan = _plan(target.resolve())
        if plan is None:
            report.usage_errors.append(f"not a content root, pack folder or content .yaml file: {target}")
            continue
        plans.append(plan)
    for root, runs, only in _stacked(plans):
        for overlays in runs:
            result = build(root, overlays)
            diags = result.diagnostics
            if only is not None:
                diags = [d for d in diags if Path(d.location.file).resolve() == only]
                report.files.add(str(only))
            else:
                report.files.update(result.files)
            report.diagnostics.extend(diags)
            for (kind, item_id), state in result.item_states.items():
                # one file validated in its pack's context counts the items it holds, not the whole set's
                if only is None or Path(state.origin.file).resolve() == only:
                    report.items.add((kind, item_id, state.origin.pack))
            report.sets.append(" + ".join(p.pack.id for p in result.packs))   # the packs required too, in order
        if only is None and len(runs) > 1:
            report.diagnostics.extend(mod_pair_conflicts(root))
    report.diagnostics = _dedupe(report.diagnostics)
    return report


def validate_paths(paths_in: Iterable[str | Path]) -> list[Diagnostic]:
    """Every diagnostic of the given content roots, pack folders or files; ValueError for a bad path."""
    report = validate_report(paths_in)
    if report.usage_errors:
        raise ValueError("; ".join(report.usage_errors))
    return report.diagnostics
