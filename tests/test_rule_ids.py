"""docs/RULE-IDS.md explains every rule id, so a message's R-id can be looked up without ../shared."""
from __future__ import annotations

import re
from pathlib import Path

import yaml
from rulebook import RULE_IDS_MD, ids_in_rule_index, ids_in_rules_md, rulebook_file

ROOT = Path(__file__).resolve().parents[1]
ID = re.compile(r"\b(R-[A-Z]+-\d+|Z-\d+)\b")


def _sources(node):
    if isinstance(node, dict):
        if isinstance(node.get("source"), str):
            yield node["source"]
        for value in node.values():
            yield from _sources(value)
    elif isinstance(node, list):
        for value in node:
            yield from _sources(value)


def test_the_index_has_one_line_per_id_with_words() -> None:
    """Each id appears once, with a sentence after it; the README links the page."""
    ids = ids_in_rule_index()
    assert len(ids) == len(set(ids)) and len(ids) >= 90
    for line in RULE_IDS_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("- **"):
            assert len(line.split("** ", 1)[1]) > 20, line
    assert "docs/RULE-IDS.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_id_cited_in_content_is_in_the_index() -> None:
    """Always (no rulebook needed): every id in a content `source:` field can be looked up in docs/RULE-IDS.md."""
    known = set(ids_in_rule_index())
    cited: dict[str, str] = {}
    for path in sorted((ROOT / "content").rglob("*.yaml")):
        for source in _sources(yaml.safe_load(path.read_text(encoding="utf-8"))):
            for rule_id in ID.findall(source):
                cited.setdefault(rule_id, str(path.relative_to(ROOT)))
    assert len(cited) > 30
    assert {i: f for i, f in cited.items() if i not in known} == {}


def test_every_id_of_rules_md_is_in_the_index_and_no_other() -> None:
    """With the shared rulebook (skipped without it, failing under CI): the index holds exactly RULES.md's ids,
    in its order."""
    text = rulebook_file("RULES.md").read_text(encoding="utf-8")
    assert ids_in_rule_index() == ids_in_rules_md(text)


def test_a_missing_rulebook_skips_locally_and_fails_under_ci(tmp_path: Path, monkeypatch) -> None:
    """Without ../shared a rulebook test skips on a developer's machine, fails under CI=true; ids still resolve."""
    import pytest

    import rulebook

    monkeypatch.setattr(rulebook, "SHARED_RULEBOOK", tmp_path)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        rulebook.rulebook_file("RULES.md")
    assert rulebook.known_rule_ids() == set(ids_in_rule_index())
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        rulebook.rulebook_file("RULES.md")
    with pytest.raises(pytest.fail.Exception):
        rulebook.known_rule_ids()
