"""The optional compiled kernels `kcd._native` (native/, C++17, pybind11); everything else is in pyproject.toml.

The build is optional: where no C++ compiler is found or the compile fails, the install goes on without the
extension and `kcd` runs the Python machine (interpreter/core/native.py says so once). `pip install -e .` builds
it in place (interpreter/_native*.so); run it again after changing native/ to rebuild.
"""
from __future__ import annotations

import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

try:
    from pybind11.setup_helpers import Pybind11Extension
except ImportError:   # pybind11 is in [build-system] requires; a build without isolation may lack it
    Pybind11Extension = None


class OptionalBuildExt(build_ext):
    """build_ext that reports a failed compile and goes on (the extension is an optional speed-up)."""

    def run(self) -> None:
        """Build the extensions, or say why not and carry on."""
        try:
            super().run()
        except Exception as exc:   # no compiler at all (CC=/nonexistent): a platform or exec error
            _skipped(exc)

    def build_extension(self, ext) -> None:
        """Build one extension, or say why not and carry on."""
        try:
            super().build_extension(ext)
        except Exception as exc:   # a compile or link error
            _skipped(exc)


_SAID: list[str] = []


def _skipped(exc: Exception) -> None:
    """Say once on stderr that the native kernels are not built and why (the first failure is the cause)."""
    if _SAID:
        return
    _SAID.append(str(exc))
    print(f"kcd: the optional native kernels (kcd._native) were not built ({exc}); kcd runs the Python "
          "machine", file=sys.stderr)


if Pybind11Extension is None:
    print("kcd: pybind11 is not installed, so the optional native kernels (kcd._native) are not built",
          file=sys.stderr)
    ext_modules = []
else:
    ext_modules = [Pybind11Extension("kcd._native", ["native/kcd_native.cpp"], cxx_std=17,
                                     extra_compile_args=["-O2"])]

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
