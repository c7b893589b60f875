"""Validating content roots, pack folders or single files: what `kcd validate` runs."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from interpreter import paths
from interpreter.content.loader import _dedupe, available_packs, build, pack_of
from interpreter.diagnostics import Diagnostic, count_summary


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
        text = f"OK: {len(self.files)} file{'s' if len(self.files) != 1 else ''}, {len(self.items)} items"
        if names:
            text += ", " + " + ".join(names)
        if self.diagnostics:
            text += f" ({count_summary(self.diagnostics)})"
        return text


def _is_root(path: Path) -> bool:
    return (path / "base").is_dir()


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


def validate_report(paths_in: Iterable[str | Path] = ()) -> ValidationReport:
    """Validate every path (content root, pack folder or .yaml file); every problem reported once."""
    report = ValidationReport()
    targets = [Path(p) for p in paths_in] or [paths.content_dir()]
    for target in targets:
        if not target.exists():
            report.usage_errors.append(f"no such file or folder: {target}")
            continue
        plan = _plan(target.resolve())
        if plan is None:
            report.usage_errors.append(f"not a content root, pack folder or content .yaml file: {target}")
            continue
        root, runs, only = plan
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
                report.items.add((kind, item_id, state.origin.pack))
            report.sets.append(" + ".join(("base",) + overlays))
    report.diagnostics = _dedupe(report.diagnostics)
    return report


def validate_paths(paths_in: Iterable[str | Path]) -> list[Diagnostic]:
    """Every diagnostic of the given content roots, pack folders or files; ValueError for a bad path."""
    report = validate_report(paths_in)
    if report.usage_errors:
        raise ValueError("; ".join(report.usage_errors))
    return report.diagnostics
