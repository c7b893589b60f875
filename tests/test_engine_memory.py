"""Memory per ruleset: a process that loads many rulesets (the editor, the service, a mod fuzzer) keeps only what
the live ones need. What the engine keeps for a ruleset (its compiled Rules, the node index saves name frames by,
its empty islands) dies with it (interpreter/core/memo.py PerOwner); every other cache keyed by content is bounded
(option caches, per-node memos, the loader's parsed files)."""
from __future__ import annotations

import gc
import random
import shutil
import tracemalloc
import weakref
from pathlib import Path

from kcd.core import paths
from kcd.content import loader, load_ruleset
from kcd.engine import Game
from kcd.core.memo import PerOwner


def _play(rs) -> Game:
    """A short game of `rs` with what tools do to games: views, a save loaded again, a clone."""
    game = Game.new(rs, players=["red", "green", "purple"], seed=7)
    rng = random.Random(7)
    for _ in range(60):
        if game.is_over:
            break
        assert game.apply(rng.choice(game.pending.options).id).ok
    game.view("red"), game.view(None)
    Game.from_json(rs, game.to_json()).clone()
    return game


def test_rulesets_die_with_everything_the_engine_kept_for_them_and_memory_stays_flat(tmp_path: Path) -> None:
    """Six distinct rulesets (game.yaml patched), a short game each: once dropped, each Ruleset and its Rules are
    collected, and memory grows by less than 3 MB over the last four (it grew by about 0.35 MB a ruleset, and
    without bound over a Rules index kept for every ruleset ever saved)."""
    root = tmp_path / "content"
    shutil.copytree(paths.content_dir(), root)
    shutil.copytree(paths.schemas_dir(), tmp_path / "schemas")
    game_yaml = root / "base" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert '  source: "rulebook R-COMP-1"' in text
    refs = []
    start = 0
    for i in range(6):
        if i == 2:
            gc.collect()
            tracemalloc.start()
            start = tracemalloc.get_traced_memory()[0]
        game_yaml.write_text(text.replace('  source: "rulebook R-COMP-1"',
                                          f'  source: "rulebook R-COMP-1; designed: variant {i}"', 1), encoding="utf-8")
        rs = load_ruleset(root=root)
        game = _play(rs)
        refs.append((weakref.ref(rs), weakref.ref(game.rules)))
        del rs, game
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert all(r() is None and rules() is None for r, rules in refs)
    assert grown < 3_000_000, grown


def test_per_owner_values_die_with_their_owner_and_strong_ones_are_bounded() -> None:
    """PerOwner: a weakly referenced owner's value goes when the owner does; others are kept, at most the limit."""
    class Owner:
        pass

    table = PerOwner(strong_limit=4)
    owner = Owner()
    value = Owner()
    assert table.put(owner, value) is value and table.get(owner) is value and len(table) == 1
    seen = weakref.ref(value)
    del owner, value
    gc.collect()
    assert len(table) == 0 and seen() is None
    keys = [(i,) for i in range(10)]   # tuples cannot be weakly referenced
    for k in keys:
        table.put(k, k)
    assert len(table) <= 4 and table.get(keys[-1]) == keys[-1] and table.get(("other",)) is None


def test_the_loader_keeps_a_bounded_number_of_parsed_files(tmp_path: Path, monkeypatch) -> None:
    """Parsed files are kept for at most DOC_CACHE_FILES paths (a mod fuzzer writes a new pack per mod)."""
    monkeypatch.setattr(loader, "DOC_CACHE_FILES", 50)
    for i in range(120):
        path = tmp_path / f"f{i}.yaml"
        path.write_text(f"a: {i}\n", encoding="utf-8")
        doc, _ = loader.read_doc(path)
        assert doc is not None
    assert len(loader._DOC_CACHE) <= 50
    assert str(tmp_path / "f119.yaml") in loader._DOC_CACHE
