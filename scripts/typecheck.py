"""mypy over the installed layout of the package: `kcd` (interpreter/), `kcd.apps.editor` (editor/), `kcd.apps.service` (service/).

The import name differs from the folder names, and mypy cannot follow an editable install's import hook, so the
files are mirrored into a folder of the system's temporary directory, one per checkout (copies that keep their
times, so mypy's cache in .mypy_cache stays warm; outside the tree so no search finds them twice), and mypy runs
there; its messages name the repository's own paths. Usage: `python scripts/typecheck.py [mypy options]`.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = Path(tempfile.gettempdir()) / f"kcd-mypy-tree-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"
# installed prefix -> repository folder, longest prefix first
LAYOUT = (("kcd/apps/editor", "editor"), ("kcd/apps/service", "service"), ("kcd", "interpreter"))
CHECKED = ("kcd",)


def mirror() -> None:
    """Copy every .py/.pyi of the package folders to TREE under their import path; drop files gone since."""
    wanted: set[Path] = set()
    for prefix, folder in LAYOUT:
        for src in (ROOT / folder).rglob("*.py*"):
            if src.suffix not in (".py", ".pyi") or "__pycache__" in src.parts:
                continue
            rel = src.relative_to(ROOT / folder)
            if prefix == "kcd" and rel.parts[0] in ("editor", "service"):
                continue
            dst = TREE / prefix / rel
            wanted.add(dst)
            if not dst.exists() or dst.read_bytes() != src.read_bytes():
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
    for old in list(TREE.rglob("*.py*")):
        if old not in wanted:
            old.unlink()


def repo_path(line: str) -> str:
    """A mypy message with the mirrored path turned back into the repository's."""
    for prefix, folder in LAYOUT:
        mark = f"{TREE}/{prefix}/"
        if line.startswith(mark):
            return folder + "/" + line[len(mark):]
    return line


def run(extra: list[str]) -> subprocess.CompletedProcess[str]:
    """Mirror, then run mypy (settings from pyproject.toml) over the mirrored package."""
    mirror()
    mypy = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy") or "mypy"
    proc = subprocess.run([mypy, "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"),
                           *extra, *(str(TREE / c) for c in CHECKED)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, MYPYPATH=str(TREE)))
    proc.stdout = "".join(repo_path(line) + "\n" for line in proc.stdout.splitlines())
    return proc


if __name__ == "__main__":
    result = run(sys.argv[1:])
    sys.stdout.write(result.stdout + result.stderr)
    sys.exit(result.returncode)
