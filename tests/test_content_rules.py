"""The base content says exactly what the rulebook says (RULES.md ids), and every item names its source."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
BASE = CONTENT / "base"


def load(rel: str, root: Path = BASE):
    """A content file as plain data (safe loader)."""
    return yaml.safe_load((root / rel).read_text(encoding="utf-8"))


def by_id(items: list[dict]) -> dict[str, dict]:
    """Items keyed by id."""
    return {i["id"]: i for i in items}


GAME = load("game.yaml")
FLOCKS = {p.stem: yaml.safe_load(p.read_text()) for p in sorted((BASE / "flocks").glob("*.yaml"))}


def rule_ids() -> set[str]:
    """Every clause id RULES.md defines (R-XXX-N and the prototype's Z-N); without the shared rulebook (outside
    the repository) the project's docs/RULE-IDS.md, which holds the same ids; under CI a missing RULES.md fails."""
    from rulebook import known_rule_ids

    return known_rule_ids()


def sources(node, path=""):
    """Yield (path, source) for every mapping that carries a `source`."""
    if isinstance(node, dict):
        if "source" in node:
            yield path, node["source"]
        for k, v in node.items():
            yield from sources(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from sources(v, f"{path}/{i}")


ALL_FILES = sorted(p for p in CONTENT.rglob("*.yaml") if p.relative_to(CONTENT).parts[0] != "positions")  # not content


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: str(p.relative_to(CONTENT)))
def test_every_source_cites_an_existing_rule_or_a_reason(path: Path):
    """`source` is `rulebook <ids that exist in RULES.md>[; designed: ...]` or `designed: <text>`."""
    known = rule_ids()
    found = list(sources(yaml.safe_load(path.read_text())))
    assert found, "a content file without any source"
    for where, src in found:
        if src.startswith("designed: "):
            assert src[len("designed: "):].strip(), where
            continue
        assert src.startswith("rulebook "), (where, src)
        cited = src[len("rulebook "):].split(";")[0]
        ids = [s.strip() for s in cited.split(",")]
        assert ids and all(i in known for i in ids), (where, src)
        if ";" in src:
            assert src.split(";", 1)[1].strip().startswith("designed: "), (where, src)


def test_every_item_and_game_section_has_a_source():
    """Items of every kind, and every mapping section of game.yaml, carry their own source."""
    mapping_sections = [k for k, v in GAME.items() if isinstance(v, dict)]
    assert len(mapping_sections) >= 14
    assert all("source" in GAME[k] for k in mapping_sections)
    lists = [load("action_cards.yaml"), load("nests.yaml"), load("season_cards.yaml"), load("leaders.yaml"),
             [c for leader in load("leaders.yaml") for c in leader["cards"]],
             load("turn_order.yaml")["nests"], load("turn_order.yaml")["tracker"],
             load("island.yaml")["sections"], load("island.yaml")["layouts"], load("island.yaml")["setups"],
             load("solo.yaml")["cards"], load("solo.yaml")["patterns"], list(FLOCKS.values()),
             [s for f in FLOCKS.values() for side in ("side_a", "side_b") for s in f[side]["track"] + f[side]["power"]]]
    for items in lists:
        assert items and all("source" in i for i in items)


def test_R_COMP_1_bags():
    """56 fruit, 14 of each colour; 56 domain markers, 14 of each terrain."""
    comp = GAME["components"]
    assert comp["fruit"] == {"red": 14, "green": 14, "yellow": 14, "blue": 14}
    assert comp["domain"] == {"flower": 14, "grass": 14, "mountain": 14, "sand": 14}
    assert GAME["fruits"] == list(comp["fruit"]) and GAME["terrains"] == list(comp["domain"])


def test_R_COMP_2_flock_components_and_deck():
    """9 action cards (2 Move, 2 Build, 2 Feed, 3 Wildcards), 20 Kiwi, 6 Nests (2 of each type), 8 on the track."""
    flock = GAME["flock"]
    assert flock["kiwi_tokens"] == 20 and flock["track_tokens"] == 8
    assert flock["deck"] == {"move": 2, "build": 2, "feed": 2, "wild-fruit": 1, "wild-kiwi": 1, "wild-domain": 1}
    assert sum(flock["deck"].values()) == 9
    cards = by_id(load("action_cards.yaml"))
    assert set(flock["deck"]) == set(cards)
    assert sum(n for cid, n in flock["deck"].items() if cards[cid]["type"] == "wild") == 3
    nests = by_id(load("nests.yaml"))
    assert sorted(flock["nests"]) == sorted(nests)
    assert sorted(n["type"] for n in nests.values()) == ["cave", "cave", "control", "control", "tree", "tree"]
    assert set(FLOCKS) == {"red", "green", "purple", "yellow"}
    for f in FLOCKS.values():
        assert {"side_a", "side_b"} <= set(f)


def test_R_COMP_3_box_counts():
    """7 Leaders with 2 cards each (14), 16 Season cards, 4 Turn Order nests, 6 Solo cards and a marker."""
    leaders = load("leaders.yaml")
    assert len(leaders) == 7 and all(len(l["cards"]) == 2 for l in leaders)
    card_ids = [c["id"] for l in leaders for c in l["cards"]]
    assert len(set(card_ids)) == 14
    assert len(load("season_cards.yaml")) == 16
    assert [n["seat"] for n in load("turn_order.yaml")["nests"]] == [1, 2, 3, 4]
    solo = load("solo.yaml")
    assert [c["number"] for c in solo["cards"]] == [1, 2, 3, 4, 5, 6]
    assert len(solo["marker"]["sides"]) == 2


def test_R_LIMIT_1_and_other_limits():
    """Hand 3, fruit 10 (R-LIMIT-1); Kiwi up to size 3 (R-FEED-2); push up to 2 (R-PUSH-1); 4 seasons of 3 cards."""
    limits = {k: v for k, v in GAME["limits"].items() if k != "source"}
    assert limits == {"hand": 3, "fruit": 10, "kiwi_size": 3, "push": 2, "seasons": 4, "cards_per_season": 3}


def test_R_SEASON_1_phases_R_DM_1_marking_R_TRACK_1_R_MOVE_1_R_SETUP_7():
    """Four phases in order; 1,1,1,all markers; track benefits from slot 3; 2 free moves; 4 Season cards."""
    assert GAME["phases"] == ["season_change", "actions", "season_card", "domain_marking"]
    assert GAME["marking"]["per_season"] == [1, 1, 1, "all"]
    assert GAME["track"]["benefits_from_slot"] == 3
    assert GAME["moves"]["free"] == 2
    assert GAME["season_cards"]["per_game"] == 4


def test_R_DOM_2_and_R_LEAD_1_dominance_weights():
    """Each Kiwi its size, a Leader 3, a Control Nest 2 (on the nest item), for building and marking too."""
    for weights in (GAME["dominance"], GAME["dominance_for"]["build"], GAME["dominance_for"]["marking"]):
        assert weights["kiwi"] == "size" and weights["leader"] == 3
    nests = by_id(load("nests.yaml"))
    assert {i: n["dominance"] for i, n in nests.items()} == {
        "tree-1": 0, "tree-2": 0, "control-1": 2, "control-2": 2, "cave-1": 0, "cave-2": 0}


def test_R_FEED_2_R_FEED_4_feed_costs():
    """2 fruit to size 2, 3 to size 3, 4 to explode, different colours; 1 marker own, 2 opponent."""
    feed = GAME["feed"]
    assert feed["cost"] == {"2": 2, "3": 3, "explode": 4}
    assert feed["colours"] == "different"
    assert feed["domain"] == {"own": 1, "opponent": 2}
    assert GAME["build"]["min_tokens"] == 2  # R-BUILD-1


def test_R_ACT_2_facedown_and_R_END_2_R_END_3_scoring():
    """Face-down card: may draw one fruit. 1 VP per marker; tiebreak size-3, size-2, size-1, unused markers."""
    assert GAME["facedown"]["effect"] == "may { gain 1 fruit }"
    assert GAME["scoring"]["domain_vp"] == 1
    assert GAME["scoring"]["tiebreak"] == ["size3", "size2", "size1", "unused_domain"]


def test_R_SETUP_6_advanced_setup_steps():
    """Leader + 2 Kiwi on an empty hex; one Kiwi at a time on hexes without own Kiwi up to 10; grow 2."""
    assert GAME["setup"]["advanced"] == [
        {"step": "leader", "kiwi": 2, "hex": "empty"},
        {"step": "place", "until": 10, "hex": "without_own"},
        {"step": "grow", "count": 2}]


def test_R_BUILD_2_R_BUILD_4_R_BUILD_6_nests():
    """The six Nests' costs, benefits and VP exactly as Nest Benefits lists them."""
    nests = by_id(load("nests.yaml"))
    expect = {
        "tree-1": (1, "pay 2 fruit same", "gain 1 fruit", "gain 2 fruit", 0),
        "control-1": (1, "pay 2 fruit same", "move 1", "grow 1 kiwi", 0),
        "cave-1": (1, "pay 2 fruit same", "place 1 kiwi", "gain 1 fruit; place 1 kiwi", 0),
        "tree-2": (2, "pay 3 fruit same", "gain 2 fruit; place 1 kiwi", "gain 3 fruit", 1),
        "control-2": (2, "pay 3 fruit same", "gain 1 domain", "gain 1 domain", 1),
        "cave-2": (2, "pay 3 fruit same", "place 2 kiwi", "place 2 kiwi", 1),
    }
    got = {i: (n["row"], n["cost"], n["on_place"], n["on_season_change"], n["vp"]) for i, n in nests.items()}
    assert got == expect


def test_R_WILD_1_wildcards_and_action_cards():
    """Wildcards: any action card, or 4 fruit / 1 fruit + 2 Kiwi / 2 fruit + 1 marker; Move gives 2 moves + extras."""
    cards = by_id(load("action_cards.yaml"))
    assert cards["move"]["effect"] == "move 2; extra moves"
    assert cards["build"]["effect"] == "build" and cards["feed"]["effect"] == "feed"
    assert {i: c["benefit"] for i, c in cards.items() if c["type"] == "wild"} == {
        "wild-fruit": "gain 4 fruit", "wild-kiwi": "gain 1 fruit; place 2 kiwi", "wild-domain": "gain 2 fruit; gain 1 domain"}
    for c in cards.values():
        if c["type"] == "wild":
            assert c["play_as"] == ["move", "build", "feed"]


SEASON_CARDS = [
    ("most-nests", "most count(my nests)", "gain 1 vp", "gain 1 domain"),
    ("most-size1", "most count(my kiwi of size 1)", "gain 1 domain; grow 1 kiwi", "place 1 kiwi"),
    ("most-flower", "most tokens(my pieces in flower hexes)", "gain 1 domain", None),
    ("least-flower", "least tokens(my pieces in flower hexes)", "gain 2 fruit", "return 2 domain"),
    ("most-size2", "most count(my kiwi of size 2)", "build", "gain 2 fruit"),
    ("most-mountain", "most tokens(my pieces in mountain hexes)", "grow 3 kiwi", "place 1 kiwi"),
    ("least-mountain", "least tokens(my pieces in mountain hexes)", "place 4 kiwi", "gain 1 fruit"),
    ("most-size3", "most count(my kiwi of size 3)", "gain 1 vp", "place 1 kiwi"),
    ("most-grass", "most tokens(my pieces in grass hexes)", "gain 1 domain", "return 1 domain"),
    ("least-grass", "least tokens(my pieces in grass hexes)", "gain 1 domain; gain 1 fruit", "gain 1 fruit"),
    ("most-leader-hex", "most tokens(pieces of anyone in my leader)", "build", "gain 2 fruit"),
    ("most-sand", "most tokens(my pieces in sand hexes)", "gain 1 vp", "remove 1 kiwi"),
    ("least-sand", "least tokens(my pieces in sand hexes)", "gain 2 domain", "grow 1 kiwi"),
    ("most-single-hex", "most largest(hexes, tokens(my pieces in it))", "gain 2 vp", "gain 1 domain"),
    ("most-dominance", "most count(hexes dominated by me)", "gain 1 vp", "gain 1 domain"),
    ("most-lone-kiwi", "most count(hexes where count(my kiwi in it) = 1)", "gain 2 domain", "gain 2 fruit"),
]


def test_R_SCARD_5_the_16_season_cards_in_order():
    """The 16 Season cards, in the Season Card Guide's order, with condition, victor and others' benefits."""
    got = [(c["id"], c["objective"], c["victor"], c["others"]) for c in load("season_cards.yaml")]
    assert got == SEASON_CARDS


def test_R_ASYM_2_to_5_side_b_powers():
    """Red pays 1 fruit for a second marker; green takes one more and returns one; purple doubles nest benefits;
    yellow gains one more Move action and pushes same-size Kiwi. Side A has no power."""
    def powers(fid):
        return [{k: v for k, v in p.items() if k != "source"} for p in FLOCKS[fid]["side_b"]["power"]]
    assert powers("red") == [{"when": "domain marking", "do": "may { pay 1 fruit any; mark domain }"}]
    assert powers("green") == [{"when": "gain domain", "do": "gain 1 domain; return 1 domain"}]
    assert powers("purple") == [{"modifier": "my nests give benefits twice"}]
    assert powers("yellow") == [{"when": "gain move", "do": "move 1"}, {"modifier": "my pieces can push kiwi of equal size"}]
    assert all(f["side_a"]["power"] == [] for f in FLOCKS.values())


def test_R_TRACK_1_track_slots_and_R_MOVE_3_extra_move_costs():
    """8 slots per side, slots 1-2 give nothing; extra Moves cost 2 fruit of a pair, a different pair per flock
    (yellow/green as the rulebook's example shows)."""
    pairs = set()
    for fid, f in FLOCKS.items():
        for side in ("side_a", "side_b"):
            track = f[side]["track"]
            assert [s["slot"] for s in track] == list(range(1, 9))
            assert track[0]["benefit"] is None and track[1]["benefit"] is None
            assert all(s["benefit"] for s in track[2:])
            words = f[side]["extra_move"].split()
            assert words[:4] == ["pay", "2", "fruit", "of"] and len(words) == 6
        pairs.add(frozenset(f["side_a"]["extra_move"].split()[4:]))
    assert len(pairs) == 4
    assert FLOCKS["yellow"]["side_a"]["extra_move"] == "pay 2 fruit of yellow green"


def test_R_LEAD_6_chopan():
    """Chopan moves 3 hexes and pushes all Kiwi between its start and landing hexes."""
    chopan = by_id(load("leaders.yaml"))["chopan"]
    assert chopan["cards"][0]["ability"] == "leader moves 3 straight; push the pieces out of the passed hexes"
    assert chopan["cards"][0]["source"] == "rulebook R-LEAD-6"


def test_R_LEAD_5_every_leader_card_moves_the_leader():
    """An ability ends with the Leader in a different hex: each card starts with a leader movement."""
    for leader in load("leaders.yaml"):
        for card in leader["cards"]:
            assert card["ability"].startswith("leader "), card["id"]


def test_R_VTO_5_tracker_slots_and_R_SETUP_4_turn_order_nests():
    """Slots 1 gain 1 fruit, 2 gain 1 marker, 3 gain 2 fruit, 6 pay 1 marker and 1 fruit; nests give fruit and markers."""
    to = load("turn_order.yaml")
    slots = {s["slot"]: s["effect"] for s in to["tracker"]}
    assert sorted(slots) == [1, 2, 3, 4, 5, 6]
    assert slots[1] == "gain 1 fruit" and slots[2] == "gain 1 domain" and slots[3] == "gain 2 fruit"
    assert slots[6] == "pay 1 domain; pay 1 fruit any"
    for nest in to["nests"]:
        assert "fruit" in nest["setup"] and "domain" in nest["setup"]


def test_R_SOLO_8_bonus_segment_is_the_third_column_and_R_SOLO_11_patterns():
    """A bonus action resolves the 3rd-column segment; bonus chains stay bounded; the eight patterns in order."""
    solo = load("solo.yaml")
    for card in solo["cards"]:
        for row, segs in card["sections"].items():
            assert len(segs) == 4 and segs[3] == segs[2], (card["id"], row)
            if row != "wild":
                assert all("bot bonus" not in s for s in segs), (card["id"], row)
    assert [p["id"] for p in solo["patterns"]] == [
        "moving", "pushing-player", "building", "pushing-placing-own", "marking-domain",
        "tokens-for-island", "feeding-growing", "tokens-for-domain"]
    assert {s["start"] for s in solo["marker"]["sides"]} == {"own_leader", "player_leader"}


PROTO = CONTENT / "editions" / "prototype"


def test_Z_1_to_Z_5_prototype_overlay():
    """Z-1 bags, Z-2 setup steps, Z-3 feed always 2, Z-4 Leader 1 for build/marking dominance, Z-5 only cave-2 VP."""
    pack = load("pack.yaml", PROTO)
    assert pack["kind"] == "edition" and pack["id"] == "prototype"
    game = load("game.yaml", PROTO)
    assert game["components"]["fruit"] == {"red": 12, "green": 12, "yellow": 12, "blue": 12}
    assert game["components"]["domain"] == {"flower": 11, "grass": 11, "mountain": 11, "sand": 11}
    steps = game["setup"]["advanced"]
    assert steps[0] == {"step": "leader", "kiwi": 0, "hex": "any"}
    assert steps[1] == {"step": "place", "until": 7, "hex": "without_own"}
    assert steps[2] == {"step": "place", "count": 3, "hex": "with_own"}
    assert steps[3] == {"step": "grow", "count": 2}
    assert game["feed"]["cost"] == {"2": 2, "3": 2, "explode": 2}
    assert game["dominance_for"]["build"]["leader"] == 1 and game["dominance_for"]["marking"]["leader"] == 1
    assert "dominance" not in game  # Season cards keep the Leader at 3
    patches = {n["id"]: n for n in load("nests.yaml", PROTO)}
    assert set(patches) == {"tree-2", "control-2"}
    assert all(p["op"] == "patch" and p["vp"] == 0 for p in patches.values())


def test_example_mod_adds_a_leader_and_a_flock_built_from_existing_primitives():
    """The example mod: one new leader with 2 cards, one new flock with both sides and a trigger power."""
    mod = CONTENT / "mods" / "example"
    assert load("pack.yaml", mod)["kind"] == "mod"
    leaders = load("leaders.yaml", mod)
    base_ids = set(by_id(load("leaders.yaml")))
    assert len(leaders) == 1 and leaders[0]["id"] not in base_ids and len(leaders[0]["cards"]) == 2
    flocks = list((mod / "flocks").glob("*.yaml"))
    assert len(flocks) == 1
    orange = yaml.safe_load(flocks[0].read_text())
    assert orange["id"] not in FLOCKS and orange["side_b"]["power"]


def test_R_SOLO_1_to_R_SOLO_6_solo_setup_numbers():
    """One card set aside; 4 Solo cards; Kiwibot first seat, no fruit, 2 extra markers; 2 Season cards a season;
    Kiwibot wins ties; 1 VP per kept card and per 3 unplaced markers."""
    setup = {k: v for k, v in load("solo.yaml")["setup"].items() if k != "source"}
    assert setup == {"solo_cards": 4, "set_aside": 1, "kiwibot_seat": 1, "kiwibot_fruit": False,
                     "kiwibot_setup": "gain 2 domain", "season_cards_per_season": 2, "kiwibot_wins_ties": True,
                     "vp_per_kept_card": 1, "domain_per_vp": 3}
