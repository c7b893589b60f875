"""The type checker is part of the test command: mypy over the package (scripts/typecheck.py, settings in
pyproject.toml [tool.mypy]).
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_passes_over_the_package() -> None:
    """mypy reports no error in the installed layout of `kcd` (scripts/typecheck.py; its messages are the failure
    text, with the repository's paths)."""
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None and shutil.which("mypy") is None:
        pytest.fail("mypy is not installed: it is in the `test` extra (pip install -e '.[test]')")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import typecheck
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    proc = typecheck.run([])
    assert proc.returncode == 0, proc.stdout + proc.stderr
