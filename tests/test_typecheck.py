"""The type checker is part of the test command: mypy over the package (scripts/typecheck.py, settings in
pyproject.toml [tool.mypy]).

The action kinds of interpreter/engine/action_types.py are built at import time (`_kind`), so the type checker
reads them from the stub beside it, action_types.pyi, which is generated from the runtime kinds and checked
here to be current (regenerate with `KCD_REGEN_STUBS=1 .venv/bin/pytest tests/test_typecheck.py`).
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "interpreter" / "engine" / "action_types.pyi"

STUB_HEAD = '''\
# Generated from interpreter/engine/action_types.py by tests/test_typecheck.py (KCD_REGEN_STUBS=1 to rewrite):
# the action kinds `_kind` builds at import time, spelled out for the type checker. Do not edit by hand.
from dataclasses import dataclass
from typing import Any, ClassVar

KINDS: dict[str, type[Action]]
WORDS: tuple[str, ...]


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str]
    doc: ClassVar[str]

    def id(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...


def action_from_dict(data: Any) -> Action: ...
def word(name: str) -> Action: ...
def pay_id(fruit: tuple[str, ...], markers: tuple[str, ...]) -> str: ...
def where(action: Action) -> str | None: ...
'''


def stub_text() -> str:
    """The stub of the runtime action kinds: one frozen dataclass per public kind class, with its fields."""
    from kcd.engine import action_types as A

    out = [STUB_HEAD]
    for name in sorted(n for n in vars(A) if not n.startswith("_")):
        cls = getattr(A, name)
        if not (isinstance(cls, type) and issubclass(cls, A.Action) and cls is not A.Action):
            continue
        fields = [(f.name, str(f.type)) for f in dataclasses.fields(cls)]
        lines = ["", "", "@dataclass(frozen=True)", f"class {name}(Action):"]
        lines += [f"    {fname}: {ftype}" for fname, ftype in fields] or ["    pass"]
        if hasattr(cls, "id_of"):
            args = ", ".join(f"{fname}: {ftype}" for fname, ftype in fields)
            lines += ["", "    @staticmethod", f"    def id_of({args}) -> str: ..."]
        out.append("\n".join(lines) + "\n")
    return "".join(out)


def test_action_types_stub_matches_the_runtime_kinds() -> None:
    """The stub declares exactly the action kinds, fields and field types action_types.py builds."""
    want = stub_text()
    if os.environ.get("KCD_REGEN_STUBS") == "1":
        STUB.write_text(want, encoding="utf-8")
    assert STUB.read_text(encoding="utf-8") == want, \
        "interpreter/engine/action_types.pyi is stale: KCD_REGEN_STUBS=1 .venv/bin/pytest tests/test_typecheck.py"


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
