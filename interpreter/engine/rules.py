"""The rule parameters and content of one Ruleset, compiled once into plain lookups for the engine.

Every number the procedures use (limits, feed costs, dominance weights, marking counts...) comes
from game.yaml here; edition differences are different values, never engine branches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RulesError(ValueError):
    """The ruleset lacks something the engine needs (a clear message, never a traceback)."""


@dataclass(frozen=True)
class Weights:
    """How tokens count for dominance in one context (R-DOM-2, Z-4)."""

    kiwi: str      # "size": a Kiwi counts its size; "one": each Kiwi counts 1
    leader: int
    nests: bool = True   # Nests count their `dominance` value


@dataclass(frozen=True)
class Power:
    """A side-B flock power: a trigger with its effect, or a modifier."""

    trigger: str | None
    effect: Any
    modifier: str | None
    when: Any = None            # the bound trigger node (its filters, for compositional triggers)
    modifier_node: Any = None   # the bound modifier node (its values, e.g. `push limit 3`)


@dataclass
class Side:
    """One side of a flock board."""

    extra_move: Any
    track: dict[int, Any]        # slot -> benefit effect (None for no icon)
    powers: list[Power]


@dataclass
class Rules:
    """Compiled rule parameters and content lookups."""

    game: dict
    fruits: list[str]
    terrains: list[str]
    fruit_counts: dict[str, int]
    domain_counts: dict[str, int]
    kiwi_tokens: int
    track_tokens: int
    deck: dict[str, int]
    flock_nests: list[str]
    hand: int
    fruit_limit: int
    max_size: int
    push_count: int
    seasons: int
    cards_per_season: int
    phases: list[str]
    dominance: dict[str, Weights]
    free_moves: int
    feed_cost: dict[int, int]    # target size after feeding -> fruit; key max_size+1 = explode
    feed_rule: str
    feed_domain_own: int
    feed_domain_opponent: int
    build_min_tokens: int
    marking_per_season: list[int | None]   # None = as many as possible
    track_from: int
    facedown: Any
    domain_vp: int
    tiebreak: list[str]
    season_cards_per_game: int
    setup_first_game: bool
    setup_advanced: list[dict]
    cards: dict[str, dict] = field(default_factory=dict)
    action_effect: dict[str, Any] = field(default_factory=dict)   # action type -> effect of that card type
    nests: dict[str, dict] = field(default_factory=dict)
    flocks: dict[str, dict[str, Side]] = field(default_factory=dict)
    leaders: dict[str, dict] = field(default_factory=dict)
    leader_cards: dict[str, Any] = field(default_factory=dict)  # card id -> ability
    season_cards: dict[str, dict] = field(default_factory=dict)
    turn_nests: dict[int, dict] = field(default_factory=dict)
    tracker: dict[int, dict] = field(default_factory=dict)   # Variable Turn Order slot -> item (R-VTO-1/5)
    vto_phases: list[str] = field(default_factory=list)      # a season's phases under Variable Turn Order ([]: not offered)
    layouts: list[dict] = field(default_factory=list)
    sections: dict[str, dict] = field(default_factory=dict)
    setups: list[dict] = field(default_factory=list)
    # solo mode (R-SOLO-1..12): solo.yaml `setup` (kiwibot_setup compiled), `marker` sides by id, `patterns`
    # as {pattern id: [step ids]}, and the Solo cards by id ({} when the content has no solo.yaml)
    solo: dict = field(default_factory=dict)
    solo_cards: dict[str, dict] = field(default_factory=dict)
    # nest id -> the flock's Nests of its type one row lower (R-BUILD-2), filled on first use by build.py
    lower_rows: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    # powers of the compositional DSL by modifier / trigger id, filled on first use by compose.py
    compose_table: dict = field(default_factory=dict, repr=False, compare=False)


_CACHE: dict[int, tuple[Any, "Rules"]] = {}


def _dsl(value: Any, kind: str, rules_ctx: tuple, where: str = "game.yaml DSL") -> Any:
    """A bound AST node; plain DSL text (e.g. game.yaml values) is parsed and checked here."""
    if value is None or not isinstance(value, str):
        return value
    from interpreter.dsl import CheckContext, compile_field  # only needed for text values
    bound, issues = compile_field(value, kind, CheckContext(tuple(rules_ctx[0]), tuple(rules_ctx[1]), rules_ctx[2]))
    errors = [i for i in issues if getattr(i, "severity", "error") == "error"]
    if errors:
        raise RulesError(f"{where} `{value}`: {errors[0].message}")
    return bound


def _get(d: dict, path: str, default: Any = ...) -> Any:
    cur: Any = d
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            if default is ...:
                raise RulesError(f"game.yaml: missing `{path}`")
            return default
        cur = cur[part]
    return cur


def _weights(spec: dict | None, fallback: Weights | None = None) -> Weights:
    if spec is None:
        assert fallback is not None
        return fallback
    kiwi = spec.get("kiwi", "size")
    mode = "one" if kiwi in ("one", "count", "kiwi", 1) else "size"
    return Weights(mode, int(spec.get("leader", 3)), bool(spec.get("nests", True)))


def _purposes(g: Any, default: Weights, dom_for: dict) -> dict[str, Weights]:
    """The dominance weights of each purpose (R-DOM-2, Z-4): the general figure, building, marking, the token counts
    of objectives, and `dominated_hexes`, the purpose game.yaml `season_cards.dominated_hexes` names for the
    "hexes with dominance" objective (R-SCARD-5)."""
    table = {"default": default,
             "build": _weights(dom_for.get("build"), default),
             "marking": _weights(dom_for.get("marking"), default),
             "objective": _weights(dom_for.get("objective"), default)}
    named = str(_get(g, "season_cards", {}).get("dominated_hexes", "default"))
    table["dominated_hexes"] = table.get(named, default)
    return table


def _items(rs: Any, kind: str) -> list:
    try:
        return list(rs.items(kind))
    except (KeyError, AttributeError, ValueError):
        return []


def compile_rules(rs: Any) -> Rules:
    """Compile a Ruleset (`rs.game`, `rs.items(kind)`) into engine lookups; cached on the ruleset."""
    cached = _CACHE.get(id(rs))
    if cached is not None and cached[0] is rs:
        return cached[1]
    g = rs.game
    fruits = list(_get(g, "fruits"))
    terrains = list(_get(g, "terrains"))
    limits = _get(g, "limits")
    ctx = (fruits, terrains, int(limits.get("kiwi_size", 3)))
    dom_default = _weights(_get(g, "dominance", {"kiwi": "size", "leader": 3}))
    dom_for = _get(g, "dominance_for", {}) or {}
    feed = _get(g, "feed")
    max_size = int(limits.get("kiwi_size", 3))
    feed_cost: dict[int, int] = {}
    for key, value in feed["cost"].items():
        feed_cost[max_size + 1 if str(key) == "explode" else int(key)] = int(value)
    per_season = []
    for v in _get(g, "marking.per_season"):
        per_season.append(None if v in ("all", None) else int(v))
    facedown = _get(g, "facedown", {}).get("effect")
    rules = Rules(
        game=g, fruits=fruits, terrains=terrains,
        fruit_counts=dict(_get(g, "components.fruit")), domain_counts=dict(_get(g, "components.domain")),
        kiwi_tokens=int(_get(g, "flock.kiwi_tokens")), track_tokens=int(_get(g, "flock.track_tokens")),
        deck=dict(_get(g, "flock.deck")), flock_nests=list(_get(g, "flock.nests")),
        hand=int(limits.get("hand", 3)), fruit_limit=int(limits.get("fruit", 10)), max_size=max_size,
        push_count=int(limits.get("push", 2)), seasons=int(limits.get("seasons", 4)),
        cards_per_season=int(limits.get("cards_per_season", 3)),
        phases=list(_get(g, "phases", ["season_change", "actions", "season_card", "domain_marking"])),
        dominance=_purposes(g, dom_default, dom_for),
        free_moves=int(_get(g, "moves.free", 2)),
        feed_cost=feed_cost, feed_rule=str(feed.get("colours", "different")),
        feed_domain_own=int(_get(feed, "domain.own", 1)), feed_domain_opponent=int(_get(feed, "domain.opponent", 2)),
        build_min_tokens=int(_get(g, "build.min_tokens", 2)),
        marking_per_season=per_season, track_from=int(_get(g, "track.benefits_from_slot", 3)),
        facedown=_dsl(facedown, "effect", ctx),
        domain_vp=int(_get(g, "scoring.domain_vp", 1)),
        tiebreak=list(_get(g, "scoring.tiebreak", ["size3", "size2", "size1", "unused_domain"])),
        season_cards_per_game=int(_get(g, "season_cards.per_game", 4)),
        setup_first_game=bool(_get(g, "setup.first_game", True)),
        setup_advanced=list(_get(g, "setup.advanced", []) or []),
    )
    for item in _items(rs, "action_cards"):
        d = item.data
        rules.cards[item.id] = d
        # R-WILD-1: a Wildcard played as an action resolves exactly as the first card of that type
        if d.get("type") != "wild" and d.get("type") not in rules.action_effect:
            rules.action_effect[d["type"]] = d.get("effect")
    for item in _items(rs, "nests"):
        rules.nests[item.id] = item.data
    for item in _items(rs, "flocks"):
        sides = {}
        for key, label in (("side_a", "A"), ("side_b", "B")):
            sd = item.data.get(key) or {}
            track = {int(s["slot"]): s.get("benefit") for s in sd.get("track", []) or []}
            powers = []
            for p in sd.get("power", []) or []:
                when = p.get("when")
                powers.append(Power(getattr(when, "primitive", None) if when is not None else None,
                                    p.get("do"), getattr(p.get("modifier"), "primitive", None),
                                    when, p.get("modifier")))
            sides[label] = Side(sd.get("extra_move"), track, powers)
        rules.flocks[item.id] = sides
    for item in _items(rs, "leaders"):
        rules.leaders[item.id] = item.data
        for card in item.data.get("cards", []):
            rules.leader_cards[card["id"]] = card.get("ability")
    for item in _items(rs, "season_cards"):
        rules.season_cards[item.id] = item.data
    for item in _items(rs, "turn_order_nests"):
        rules.turn_nests[int(item.data["seat"])] = item.data
    for item in sorted(_items(rs, "tracker_slots"), key=lambda i: int(i.data["slot"])):
        rules.tracker[int(item.data["slot"])] = item.data
    # R-VTO-1: the variant's phases are content (game.yaml `variants.vto.phases`); no list there means the
    # content does not offer Variable Turn Order (Game.new(variant="vto") is then a SetupError)
    vto = (g.get("variants") or {}).get("vto") or {}
    rules.vto_phases = list(vto.get("phases") or [])
    rules.layouts = [i.data for i in _items(rs, "layouts")]
    rules.sections = {i.id: i.data for i in _items(rs, "sections")}
    rules.setups = [i.data for i in _items(rs, "setups")]
    rules.solo = _solo(getattr(rs, "solo", None) or {}, ctx)
    rules.solo_cards = {i.id: i.data for i in _items(rs, "solo_cards")}
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[id(rs)] = (rs, rules)   # keeps rs alive, so its id cannot be reused while cached
    return rules


def _solo(spec: Any, ctx: tuple) -> dict:
    """solo.yaml's setup numbers, marker sides and patterns as engine lookups (R-SOLO-1..6, R-SOLO-11/12)."""
    if not isinstance(spec, dict) or not spec:
        return {}
    setup = dict(spec.get("setup") or {})
    if isinstance(setup.get("kiwibot_setup"), str):
        setup["kiwibot_setup"] = _dsl(setup["kiwibot_setup"], "effect", ctx, "solo.yaml setup.kiwibot_setup")
    sides = {str(s.get("id")): dict(s) for s in ((spec.get("marker") or {}).get("sides") or [])}
    patterns = {str(p.get("id")): list(p.get("steps") or []) for p in (spec.get("patterns") or [])}
    return {"setup": setup, "sides": sides, "patterns": patterns}
