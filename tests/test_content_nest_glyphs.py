"""Each Nest type its own glyph, from content: the catalogue carries it, and content
that gives one type two glyphs or two types one glyph is refused with a located error."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcd.content import ContentError, load_ruleset
from kcd.apps.service.catalogue import catalogue

ROOT = Path(__file__).resolve().parents[1]


def test_every_base_nest_type_has_its_own_glyph_in_the_catalogue() -> None:
    nests = catalogue(load_ruleset())["nests"]
    glyphs = {n["type"]: n["glyph"] for n in nests}
    assert len(glyphs) == 3 and len(set(glyphs.values())) == 3
    assert all(n["glyph"] == glyphs[n["type"]] for n in nests)       # one glyph per type (R-BUILD-2 rows)
    reeds = {n["type"]: n["glyph"] for n in catalogue(load_ruleset(["mods/reeds"]))["nests"]}
    assert reeds["reed"] not in glyphs.values()


@pytest.mark.parametrize("old,new,words", [
    ('dominance: 0\n  glyph: "♣"\n  source: "rulebook R-BUILD-2, R-BUILD-4, R-BUILD-6;',
     'dominance: 0\n  glyph: "T"\n  source: "rulebook R-BUILD-2, R-BUILD-4, R-BUILD-6;', "have two glyphs"),
    ('glyph: "∩"', 'glyph: "♣"', "marks both type"),
])
def test_a_glyph_shared_or_split_is_a_located_content_error(tmp_path: Path, old: str, new: str, words: str) -> None:
    root = tmp_path / "content"
    shutil.copytree(ROOT / "content", root)
    nests = root / "base" / "nests.yaml"
    text = nests.read_text(encoding="utf-8")
    assert old in text
    nests.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        load_ruleset(root=root)
    shown = "\n".join(d.format() for d in err.value.diagnostics)
    assert words in shown and "nests.yaml:" in shown, shown
