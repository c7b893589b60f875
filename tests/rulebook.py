"""Where the shared rulebook is, and what a test does when it is not there.

The rulebook (`../shared/rulebook/` beside the clone) is not part of the repository. On a developer's machine a
test that needs its text skips when it is missing; under CI (`CI=true`, as CI services set it) the same test
fails loudly, so a CI run without the rulebook can never pass by skipping rulebook checks. Rule ids alone are
always available from `docs/RULE-IDS.md`.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_RULEBOOK = ROOT.parent / "shared" / "rulebook"
RULE_IDS_MD = ROOT / "docs" / "RULE-IDS.md"


def under_ci() -> bool:
    """True when the environment says this is a CI run (CI=true/1/yes)."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def rulebook_file(name: str) -> Path:
    """The path of a file of the shared rulebook folder; skip the test without it (fail under CI)."""
    path = SHARED_RULEBOOK / name
    if path.is_file():
        return path
    message = f"the shared rulebook file {path} is missing"
    if under_ci():
        pytest.fail(message + " (CI must run with ../shared/rulebook beside the clone)")
    pytest.skip(message)


def ids_in_rules_md(text: str) -> list[str]:
    """The clause ids RULES.md defines, in order (`- R-DOM-1 ...`, `- Z-4 ...`)."""
    return re.findall(r"^- ((?:R-[A-Z]+-\d+)|(?:Z-\d+)) ", text, flags=re.M)


def ids_in_rule_index() -> list[str]:
    """The ids docs/RULE-IDS.md explains, in order (`- **R-DOM-1** ...`)."""
    return re.findall(r"^- \*\*((?:R-[A-Z]+-\d+)|(?:Z-\d+))\*\* ", RULE_IDS_MD.read_text(encoding="utf-8"), flags=re.M)


def known_rule_ids() -> set[str]:
    """Every rule id: from RULES.md when present, else from the project's own index docs/RULE-IDS.md."""
    path = SHARED_RULEBOOK / "RULES.md"
    if path.is_file():
        return set(ids_in_rules_md(path.read_text(encoding="utf-8")))
    if under_ci():
        pytest.fail(f"{path} is missing under CI")
    return set(ids_in_rule_index())
