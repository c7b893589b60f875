"""Nest types come from content: the `reeds` mod adds a fourth Nest type with three rows of its
own, and the engine builds it row by row as R-BUILD-2 says, reading types and rows from nests.yaml."""
from __future__ import annotations

import functools
import random
from pathlib import Path

from test_engine_support import fruit, put

from kcd.content import load_ruleset, validate_text
from kcd.engine import Game, build
from kcd.engine.context import Ctx, Runtime
from kcd.content.rules import compile_rules
from kcd.engine.scoring import score
from kcd.engine.setup import new_state
from kcd.testing import drive, steps


@functools.lru_cache(maxsize=None)
def _rules():
    return compile_rules(load_ruleset(["reeds"]))


def _rt() -> Runtime:
    """A two-player reeds game on an empty island (the engine's own setup, then the Kiwi cleared)."""
    r = _rules()
    st = new_state(r, ["red", "green"], 1, {"red": "chopan", "green": "kahu"}, None, None, "first-game")
    for hex_id in st.hexes:
        st.set_kiwi(hex_id, ())
    for f in ("red", "green"):
        st.flocks[f].leader_hex = None
        st.flocks[f].fruit = {c: 0 for c in r.fruits}
    st.phase, st.season, st.step = "actions", 1, 0
    return Runtime(r, st)


def test_the_mod_adds_a_nest_type_to_every_flock_board() -> None:
    r = _rules()
    assert r.flock_nests[-3:] == ["reed-1", "reed-2", "reed-3"]
    # the compiled Nest (a mapping, or a typed record once content is typed): its type and row
    rows = [(_field(r.nests[n], "type"), _field(r.nests[n], "row")) for n in r.flock_nests[-3:]]
    assert rows == [("reed", 1), ("reed", 2), ("reed", 3)]


def _field(item, name: str):
    return item[name] if isinstance(item, dict) else getattr(item, name)


def test_R_BUILD_2_a_mods_nest_type_is_built_row_by_row() -> None:
    """reed-2 only after reed-1, reed-3 only after reed-2 (the rows of its own type); its placement benefit
    runs (`place 1 kiwi on this hex`) and its VP count at the end (R-BUILD-6)."""
    rt = _rt()
    put(rt, "A1", "red", 3)
    fruit(rt, "red", red=3, green=2)
    nests = build.available_nests(rt, "red")
    assert "reed-1" in nests and "reed-2" not in nests and "reed-3" not in nests
    rt.state.flocks["red"].nests_built.append("reed-1")
    assert {"reed-2"} <= set(build.available_nests(rt, "red")) and "reed-3" not in build.available_nests(rt, "red")
    rt.state.flocks["red"].nests_built.append("reed-2")
    assert "reed-3" in build.available_nests(rt, "red")
    before = score(rt.state)["red"]["nests"]
    drive(steps(rt, build.BUILD.start(Ctx("red"))), ["nest:reed-3"])   # A1 is the only hex: asked at once
    assert rt.state.hexes["A1"].nest == ("red", "reed-3")
    assert sorted(k.size for k in rt.state.hexes["A1"].kiwi if k.flock == "red") == [1, 3]   # its on_place
    assert rt.state.flocks["red"].fruit["red"] == 0                                             # 3 identical paid
    assert score(rt.state)["red"]["nests"] == before + 2                                       # reed-3: 2 VP


def test_a_row_without_the_row_before_it_is_refused_with_a_located_error() -> None:
    """nest-twin, generalised: a row-3 Nest whose type has no row-2 Nest is located at its `row`."""
    path = Path(__file__).resolve().parents[1] / "content" / "mods" / "reeds" / "nests.yaml"
    text = path.read_text(encoding="utf-8").replace("  row: 2\n", "  row: 4\n")
    [d] = [d for d in validate_text(path, text) if d.code == "nest-twin"]
    assert d.format().splitlines()[0].endswith(
        "error[nest-twin]: row-3 nest `reed-3` has no row-2 nest of type `reed`")


def test_games_with_the_mod_play_to_the_end_and_build_reed_nests() -> None:
    """Random games under the mod end normally, and Reed Nests get built (every row reachable)."""
    rs = load_ruleset(["reeds"])
    built: set[str] = set()
    for seed in range(6):
        g = Game.new(rs, players=["red", "green", "purple"], seed=seed)
        r = random.Random(seed)
        n = 0
        while not g.is_over:
            opts = g.pending.options
            reed = [o for o in opts if o.id.startswith("nest:reed")]
            g.apply((reed[0] if reed else r.choice(opts)).action)
            n += 1
            assert n < 5000
        built |= {n for f in g.state.seats for n in g.state.flocks[f].nests_built if n.startswith("reed")}
    assert built == {"reed-1", "reed-2", "reed-3"}
