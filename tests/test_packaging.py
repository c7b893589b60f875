"""The installed package (non-editable) carries its content and schemas: `kcd validate` works from any directory."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the project's wheel once (PEP 517, as `pip install .` does)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, text=True)
    (whl,) = out.glob("*.whl")
    return whl


def test_wheel_ships_content_and_schemas(wheel: Path) -> None:
    """R-COMP-1: the shipped wheel holds the base content (game.yaml) and every schema."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "interpreter/_data/content/base/game.yaml" in names
    assert any(n.startswith("interpreter/_data/content/editions/prototype/") for n in names)
    assert any(n.startswith("interpreter/_data/content/mods/example/") for n in names)
    repo_schemas = {p.name for p in (ROOT / "schemas").glob("*.json")}
    shipped = {Path(n).name for n in names if n.startswith("interpreter/_data/schemas/")}
    assert repo_schemas and repo_schemas <= shipped


def test_installed_validate_runs_from_any_directory(wheel: Path, tmp_path: Path) -> None:
    """A non-editable install validates its own shipped content from an unrelated working directory."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    # The installed copy first; the venv's site-packages only for third-party dependencies.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]]))
    probe = subprocess.run([sys.executable, "-c", "import interpreter, sys; print(interpreter.__file__)"],
                           cwd=cwd, env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.strip().startswith(str(target))
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate"], cwd=cwd, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
