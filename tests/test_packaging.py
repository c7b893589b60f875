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
    assert "kcd/_data/content/base/game.yaml" in names
    assert any(n.startswith("kcd/_data/content/editions/prototype/") for n in names)
    assert any(n.startswith("kcd/_data/content/mods/example/") for n in names)
    repo_schemas = {p.name for p in (ROOT / "schemas").glob("*.json")}
    shipped = {Path(n).name for n in names if n.startswith("kcd/_data/schemas/")}
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
    probe = subprocess.run([sys.executable, "-c", "import kcd, sys; print(kcd.__file__)"],
                           cwd=cwd, env=env, capture_output=True, text=True, check=True)
    assert probe.stdout.strip().startswith(str(target))
    run = subprocess.run([sys.executable, "-m", "kcd.apps.cli.main", "validate"], cwd=cwd, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr


def test_the_wheel_installs_one_import_name(wheel: Path) -> None:
    """The wheel's only import name is `kcd`: no generic `interpreter`, `editor` or `service` to shadow a user's own."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert tops == {"kcd"}
    assert "kcd/apps/editor/Home.py" in names and "kcd/apps/service/hub.py" in names


def test_every_package_folder_is_in_the_wheel(wheel: Path) -> None:
    """pyproject.toml lists the packages by hand (a found package would carry its folder's name): none is missed."""
    names = set(zipfile.ZipFile(wheel).namelist())
    prefixes = {"interpreter": "kcd", "editor": "kcd/apps/editor", "service": "kcd/apps/service"}
    for folder, prefix in prefixes.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.relative_to(ROOT / folder).as_posix()
            assert f"{prefix}/{rel}" in names, f"{folder}/{rel}: add its package to [tool.setuptools] packages"


def test_only_kcd_imports_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    """From an unrelated folder the installed package imports as `kcd`, and the old generic names do not import."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, capture_output=True, text=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]]))
    # A namespace leftover of an older install in site-packages (no __init__, no code) is not an import name.
    code = ("import importlib.util, kcd, kcd.apps.editor.logic.store, kcd.apps.service.hub\n"
            "print([n for n in ('interpreter', 'editor', 'service') if getattr(importlib.util.find_spec(n), 'origin', None)])\n"
            "print(kcd.__file__)")
    probe = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                           check=True)
    generic, where = probe.stdout.split("\n")[:2]
    assert generic == "[]" and where.startswith(str(target))
