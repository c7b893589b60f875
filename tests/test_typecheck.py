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


STRICT_FLAGS = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
                "disallow_incomplete_defs", "disallow_untyped_decorators", "warn_return_any", "no_implicit_reexport",
                "extra_checks"}


def test_every_flag_of_strict_covers_the_layers_from_core_to_the_modes() -> None:
    """The layers from the core values up to the modes, and kcd.testing, are under every flag of `--strict` (a
    table that lost a layer or a flag would leave it unchecked without any error)."""
    import tomllib
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    strict: set[str] = set()
    for table in config["overrides"]:
        if STRICT_FLAGS <= {k for k, v in table.items() if v is True}:
            strict.update(table["module"])
    for layer in ("core", "dsl", "content", "engine", "modes", "testing"):
        assert {f"kcd.{layer}", f"kcd.{layer}.*"} <= strict, f"kcd.{layer} is not under every flag of --strict"
