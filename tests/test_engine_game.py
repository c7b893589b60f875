"""Engine Game API: decisions, refusals, JSON round trip, determinism, views, random-play invariants,
and content added in YAML playing with no Python change."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from test_engine_support import ruleset, totals

from kcd.content import load_ruleset
from kcd.engine import Game, Refused
from kcd.testing import play_random, steps


def _advance(g: Game, n: int, seed: int = 0) -> None:
    r = random.Random(seed)
    for _ in range(n):
        if g.is_over:
            return
        assert g.apply(r.choice(g.pending.options).id).ok


def test_pending_decision_shape_and_option_ids():
    """A pending Decision names its player, kind, prompt and >= 2 options with readable ids."""
    g = Game.new(ruleset(), ["red", "green"], seed=1)
    d = g.pending
    assert d.player == "red" and d.kind == "card" and len(d.options) >= 2
    assert all(o.id.startswith("card:") and o.label for o in d.options)
    assert [o.id for o in g.legal_options()] == d.option_ids()


def test_refusals_leave_json_identical():
    """Refused options (wrong-player, stale, malformed, illegal, game-over) change nothing."""
    g = Game.new(ruleset(), ["red", "green"], seed=2)
    _advance(g, 3)
    before = g.to_json()
    prev_ids = g._previous.option_ids()
    stale = next((i for i in prev_ids if i not in g.pending.option_ids()), None)
    cases = [("wrong-player", g.pending.options[0].id, "purple" if g.pending.player != "purple" else "red"),
             ("malformed", "Not An Id!", None), ("malformed", 42, None), ("illegal", "move:red/9@Z9->Z8", None)]
    if stale:
        cases.append(("stale", stale, None))
    for code, option, player in cases:
        res = g.apply(option, player=player)
        assert isinstance(res, Refused) and res.code == code, (code, res)
        assert g.to_json() == before
    play_random(g, 3)
    over = g.to_json()
    res = g.apply("pass")
    assert res.code == "game-over" and g.to_json() == over


@pytest.mark.parametrize("stop", [1, 7, 40, 120])
def test_json_round_trip_mid_game_continues_identically(stop):
    """to_json/from_json at any moment (mid-decision) continues exactly like the original game."""
    g = Game.new(ruleset(), ["red", "green", "purple"], seed=11, sides={"green": "B", "purple": "B"})
    _advance(g, stop, seed=4)
    text = g.to_json()
    h = Game.from_json(ruleset(), text)
    assert h.to_json() == text and h.pending == g.pending
    r1, r2 = random.Random(9), random.Random(9)
    while not g.is_over:
        a = r1.choice(g.pending.options).id
        assert a == r2.choice(h.pending.options).id
        assert g.apply(a).ok and h.apply(a).ok
    assert h.to_json() == g.to_json() and h.scores() == g.scores()


def test_clone_is_independent():
    """clone() copies the game at the same point; applying to the clone leaves the original unchanged."""
    g = Game.new(ruleset(), ["red", "green"], seed=12)
    _advance(g, 10)
    before = g.to_json()
    c = g.clone()
    assert c.to_json() == before
    c.apply(c.pending.options[0].id)
    assert g.to_json() == before


def test_determinism_same_seed_same_decisions():
    """Same ruleset + seed + decisions -> the same game, byte for byte."""
    a = Game.new(ruleset(), ["red", "green", "purple", "yellow"], seed=5)
    b = Game.new(ruleset(), ["red", "green", "purple", "yellow"], seed=5)
    play_random(a, 8)
    play_random(b, 8)
    assert a.to_json() == b.to_json() and a.ranking() == b.ranking()


def test_from_json_rejects_garbage():
    """Loading bad text gives a clear ValueError, not a traceback from deep inside."""
    with pytest.raises(ValueError):
        Game.from_json(ruleset(), "{not json")
    with pytest.raises(ValueError):
        Game.from_json(ruleset(), json.dumps({"state": {}}))


def test_view_hides_hidden_information():
    """view(player) hides other hands, deck order, other reserves' markers and bag contents."""
    g = Game.new(ruleset(), ["red", "green"], seed=3)
    v = g.view("red")
    assert "hand" in v["flocks"]["red"] and "hand" not in v["flocks"]["green"]
    assert v["flocks"]["green"]["hand_count"] == 3 and "domain" not in v["flocks"]["green"]
    assert "deck" not in v["flocks"]["red"] and "fruit_bag" not in v and "domain_bag" not in v
    spectator = g.view(None)
    assert all("hand" not in f for f in spectator["flocks"].values())
    assert spectator["pending"]["player"] == "red" and set(v["hexes"]) == set(g.state.hexes)
    json.dumps(v)


def _check_invariants(g: Game) -> None:
    st = g.state
    t = totals(st)
    assert all(n == 20 for n in t["tokens"].values()), t
    assert t["fruit"] == 56 and t["domain"] == 56
    for h in st.hexes.values():
        assert all(1 <= k.size <= 3 for k in h.kiwi)
    for f in st.seats:
        fl = st.flocks[f]
        assert fl.leader_hex in st.hexes or st.phase == "setup"
        assert len(fl.hand) <= 3
        assert len(set(fl.nests_built)) == len(fl.nests_built)
        if g.pending is None or g.pending.kind != "return-fruit":
            assert sum(fl.fruit.values()) <= 10
    nests = [h.nest[0] + h.nest[1] for h in st.hexes.values() if h.nest]
    assert len(nests) == len(set(nests))


@pytest.mark.parametrize("n,seed,setup", [(2, 1, "first-game"), (3, 2, "first-game"), (4, 3, "first-game"),
                                          (2, 4, "advanced"), (4, 5, "advanced")])
def test_random_full_games_keep_invariants(n, seed, setup):
    """R-COMP-1/2, R-DM-4, R-LIMIT-1, R-LEAD-4: random full games keep every component accounted for after every decision."""
    players = ["red", "green", "purple", "yellow"][:n]
    sides = {p: "AB"[(i + seed) % 2] for i, p in enumerate(players)}
    g = Game.new(ruleset(), players, seed=seed, sides=sides, setup=setup)
    play_random(g, seed, check=_check_invariants)
    assert g.is_over and g.pending is None and set(g.ranking()) == set(players)
    assert all(s["total"] == s["domain"] + s["nests"] + s["season_cards"] for s in g.scores().values())


def test_prototype_edition_plays():
    """Edition differences are parameters: the prototype overlay (Z-1..Z-4) plays with no engine change."""
    rs = load_ruleset(overlays=["prototype"])
    g = Game.new(rs, ["red", "green", "purple"], seed=7, setup="advanced")
    play_random(g, 7)
    assert g.is_over


def _extra_pack(tmp_path: Path, season_cards_yaml: str):
    """The base content plus a YAML-only mod `extra`: the given Season cards and a new Nest `burrow-1`."""
    from kcd.core.paths import content_dir
    root = tmp_path / "content"
    shutil.copytree(content_dir() / "base", root / "base")
    pack = root / "mods" / "extra"
    pack.mkdir(parents=True)
    (pack / "pack.yaml").write_text('id: extra\nname: Extra\nkind: mod\ndescription: test pack\nsource: "designed: test"\n')
    (pack / "season_cards.yaml").write_text(season_cards_yaml)
    (pack / "nests.yaml").write_text(
        '- id: burrow-1\n  type: cave\n  row: 1\n  cost: pay 1 fruit any\n  on_place: gain 1 vp; gain 2 domain\n'
        '  on_season_change: gain 1 fruit\n  vp: 2\n  dominance: 1\n  source: "designed: test"\n')
    (pack / "game.yaml").write_text(
        'flock:\n  nests: [tree-1, tree-2, control-1, control-2, cave-1, cave-2, burrow-1]\n  source: "designed: test"\n')
    return load_ruleset(overlays=["extra"], root=root)


def test_new_nest_and_season_card_in_yaml_need_no_python(tmp_path: Path):
    """A Season card and a Nest written only in YAML (an overlay) are built, resolved and scored by the engine."""
    rs = _extra_pack(tmp_path, (
        '- id: most-lone-grass\n  objective: most tokens(my pieces in grass hexes)\n  victor: gain 3 vp\n'
        '  others: choose { gain 1 fruit } or { gain 1 domain }\n  source: "designed: test"\n'))
    g = Game.new(rs, ["red", "green"], seed=2)
    g.state.season_cards[0] = "most-lone-grass"
    built = False
    r = random.Random(2)
    while not g.is_over:
        ids = g.pending.option_ids()
        pick = next((i for i in ids if i == "nest:burrow-1"), None) or next(
            (i for i in ids if i.startswith("build:") or i == "as:build" or i == "play" and "build" in g.pending.prompt), None)
        choice = pick or r.choice(ids)
        built |= choice == "nest:burrow-1"
        assert g.apply(choice).ok
    resolved = [e.text for e in g.events if e.kind == "season-card" and e.text.startswith("most-lone-grass")]
    assert resolved
    if built:
        assert any(g.scores()[f]["nests"] >= 2 for f in ("red", "green"))


def test_new_yaml_nest_built_and_season_card_resolved_directly(tmp_path: Path):
    """R-BUILD-3 / R-SCARD-1 for YAML-only content: the new Nest's cost, benefit, dominance and VP, the new card's objective."""
    from kcd.engine import build as build_mod
    from kcd.core import dominance
    from kcd.engine import flow, scoring
    from kcd.engine.context import Ctx
    rs = _extra_pack(tmp_path, (
        '- id: most-grass-x\n  objective: most tokens(my pieces in grass hexes)\n  victor: gain 3 vp\n  others: null\n  source: "designed: test"\n'))
    g = Game.new(rs, ["red", "green"], seed=3)
    rt = g.rt
    where = build_mod.hexes(rt, "red")[0]
    gen = steps(rt, build_mod.BUILD.start(Ctx("red")))
    d = next(gen)
    try:
        while True:
            ids = d.option_ids()
            want = [i for i in ids if i in (f"build:{where}", "nest:burrow-1")]
            d = gen.send(want[0] if want else ids[0])
    except StopIteration:
        pass
    assert rt.state.hexes[where].nest == ("red", "burrow-1")
    assert rt.state.flocks["red"].season_vp == 1
    assert dominance.strengths(rt.state, where)["red"] >= 1 + 2
    assert scoring.score(rt.state)["red"]["nests"] == 2
    rt.state.season_cards[0] = "most-grass-x"
    rt.state.phase = "season_card"
    gen = steps(rt, flow.SEASON_CARD.start())
    for _ in gen:
        raise AssertionError("no decision expected")
    assert any(e.text.startswith("most-grass-x") for e in rt.events)
