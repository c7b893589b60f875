"""The optional extension kcd._native: the wheel carries it where a C++ compiler is found, the source distribution
carries its source, and without it `kcd` runs the Python machine, saying so once."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from kcd.core import native

ROOT = Path(__file__).resolve().parent.parent

# `kcd` in a process where the extension cannot be imported (as after an install without a compiler)
WITHOUT_NATIVE = ("import sys; sys.modules['kcd._native'] = None; from kcd.apps.cli.main import main; "
                  "sys.argv = ['kcd'] + sys.argv[1:]; main()")


def _kcd_without_native(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != native.ENV}
    return subprocess.run([sys.executable, "-c", WITHOUT_NATIVE, *args], capture_output=True, text=True, env=env,
                          timeout=300)


def test_without_the_extension_kcd_runs_the_python_machine_and_says_so_once() -> None:
    run = _kcd_without_native("simulate", "-n", "2", "--players", "2", "--json")
    assert run.returncode == 0, run.stderr
    assert '"games": 2' in run.stdout
    told = [line for line in run.stderr.splitlines() if "running the Python machine" in line]
    assert len(told) == 1 and "native kernels are not built" in told[0]
    quiet = _kcd_without_native("simulate", "-n", "1", "--players", "2", "--engine", "python")
    assert quiet.returncode == 0 and "Python machine" not in quiet.stderr


def test_a_bad_engine_name_is_a_usage_error() -> None:
    run = subprocess.run([sys.executable, "-m", "kcd.apps.cli", "play", "--engine", "turbo"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 2
    assert "--engine: unknown engine 'turbo': choose one of native, python" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_source_distribution_lists_the_extension_source() -> None:
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split("\n")
    assert "graft native" in manifest and "include setup.py" in manifest
    assert (ROOT / "native" / "kcd_native.cpp").is_file()
    assert "pybind11" in (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[project]")[0]


@pytest.mark.skipif(shutil.which("c++") is None and shutil.which("g++") is None, reason="no C++ compiler")
def test_the_wheel_carries_the_compiled_kernels(tmp_path: Path) -> None:
    out = tmp_path / "wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)], check=True,
                   timeout=600)
    (wheel,) = out.glob("*.whl")
    assert "-py3-none-any" not in wheel.name   # a platform wheel: it holds compiled code
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n in names if n.startswith("kcd/_native") and n.endswith(".so")]
    assert not [n for n in names if n.startswith("native/") or n == "setup.py"]
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
                   check=True, timeout=600)
    probe = ("from kcd.core import native; assert native.available(), native.missing_reason(); "
             "print(native.kernels.__file__)")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(target)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().startswith(str(target))
