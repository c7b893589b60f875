"""The rule parameters and content of one Ruleset, compiled once into plain lookups for the engine.

Every number the procedures use (limits, feed costs, dominance weights, marking counts...) comes
from game.yaml here; edition differences are different values, never engine branches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

from kcd.content.types import (
    ActionCard, AdvancedStep, Dsl, FirstGameSetup, HexSpec, Layout, Leader, LeaderCard, MarkerSide, Nest,
    Placement, Power, SeasonCard, SeatStart, Section, Side, SOLO_MARKER_DIRECTIONS, SOLO_ROWS, SOLO_STEPS, Solo,
    SoloCard, SoloSetup, TrackerSlot, TurnOrderNest)
from kcd.core.memo import PerOwner
from kcd.content.yamlsafe import Path as YamlPath

__all__ = ["Rules", "RulesError", "Weights", "Power", "Side", "compile_rules", "RulesetLike"]


class RulesError(ValueError):
    """The ruleset lacks something the engine needs, or holds a value it cannot play (a clear message).

    `file` (the logical content file: `solo.yaml`, `flocks/`) and `path` (keys and list indexes into its merged
    data) say where, so the loader reports it as a located diagnostic; `hint` says how to fix it.
    """

    def __init__(self, message: str, file: str | None = None, path: YamlPath = (), hint: str | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.path = tuple(path)
        self.hint = hint


@dataclass(frozen=True)
class Weights:
    """How tokens count for dominance in one context (R-DOM-2, Z-4)."""

    kiwi: str      # "size": a Kiwi counts its size; "one": each Kiwi counts 1
    leader: int
    nests: bool = True   # Nests count their `dominance` value


class ItemLike(Protocol):
    """What compile_rules reads of a content item (kcd.content.Item)."""

    @property
    def id(self) -> str: ...
    @property
    def data(self) -> dict[str, Any]: ...


class RulesetLike(Protocol):
    """What compile_rules reads of a Ruleset (kcd.content.Ruleset): game.yaml, items by kind, solo.yaml."""

    @property
    def game(self) -> Mapping[str, Any]: ...
    @property
    def solo(self) -> Mapping[str, Any]: ...
    def items(self, kind: str) -> Sequence[ItemLike]: ...


@dataclass
class Rules:
    """Compiled rule parameters and the content as typed values (interpreter/content/types.py)."""

    game: Mapping[str, Any]      # game.yaml merged, as loaded (its values are read into the fields below)
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
    facedown: Dsl
    domain_vp: int
    tiebreak: list[str]
    season_cards_per_game: int
    setup_first_game: bool
    setup_advanced: list[AdvancedStep]
    cards: dict[str, ActionCard] = field(default_factory=dict)
    action_effect: dict[str, Dsl] = field(default_factory=dict)   # action type -> effect of that card type
    nests: dict[str, Nest] = field(default_factory=dict)
    flocks: dict[str, dict[str, Side]] = field(default_factory=dict)   # flock id -> "A" / "B" -> side
    leaders: dict[str, Leader] = field(default_factory=dict)
    leader_cards: dict[str, LeaderCard] = field(default_factory=dict)
    season_cards: dict[str, SeasonCard] = field(default_factory=dict)
    turn_nests: dict[int, TurnOrderNest] = field(default_factory=dict)   # seat -> Turn Order nest
    tracker: dict[int, TrackerSlot] = field(default_factory=dict)   # Variable Turn Order slot (R-VTO-1/5)
    vto_phases: list[str] = field(default_factory=list)      # a season's phases under Variable Turn Order ([]: not offered)
    layouts: list[Layout] = field(default_factory=list)
    sections: dict[str, Section] = field(default_factory=dict)
    setups: list[FirstGameSetup] = field(default_factory=list)
    # solo mode (R-SOLO-1..12): solo.yaml's setup, marker sides and patterns (None when the content has no solo
    # mode), and the Solo cards by id
    solo: Solo | None = None
    solo_cards: dict[str, SoloCard] = field(default_factory=dict)
    # nest id -> the flock's Nests of its type one row lower (R-BUILD-2), filled on first use by build.py
    lower_rows: dict[str, list[str]] = field(default_factory=dict, repr=False, compare=False)
    # powers of the compositional DSL by modifier / trigger id, filled on first use by powers.py
    compose_table: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def leader_ability(self, card_id: str | None) -> Dsl:
        """The ability of a Leader card (None for an unknown card)."""
        card = self.leader_cards.get(card_id or "")
        return card.ability if card is not None else None


# the compiled Rules of each live ruleset: dropped with it (interpreter/core/memo.py PerOwner)
_CACHE = PerOwner()
_MISSING: Any = object()
T = TypeVar("T")

# item kind -> (logical file, key of its list in that file, or None for a list file), for located errors
_WHERE: dict[str, tuple[str, str | None]] = {}


def _where(kind: str) -> tuple[str, str | None]:
    """The logical file of an item kind and the key of its list there (interpreter/content/layout.py)."""
    if not _WHERE:
        from kcd.content.layout import FILES   # read on first use: the engine imports no loader
        for spec in FILES:
            if spec.kind:
                _WHERE[spec.kind] = (spec.name, None)
            for key, group_kind in spec.groups:
                _WHERE[group_kind] = (spec.name, key)
    return _WHERE.get(kind, (kind, None))


class _At:
    """Reads one content mapping; a missing or wrong value is a RulesError located at its file and key path."""

    def __init__(self, data: Any, file: str, path: YamlPath, what: str) -> None:
        if not isinstance(data, Mapping):
            raise RulesError(f"{what}: expected a mapping, got {type(data).__name__}", file, path)
        self.data, self.file, self.path, self.what = data, file, path, what

    def error(self, key: Any, message: str, hint: str | None = None) -> RulesError:
        """A located error about `key` of this mapping."""
        return RulesError(f"{self.what}: `{key}` {message}", self.file, self.path + (key,), hint)

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """The value at `key` as written (None counts as absent when a default is given)."""
        value = self.data.get(key)
        if value is None:
            if default is _MISSING:
                raise self.error(key, "is missing")
            return default
        return value

    def num(self, key: str, default: Any = _MISSING, lo: int | None = None, hi: int | None = None) -> int:
        """A whole number in [lo, hi]."""
        value = self.raw(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be a whole number, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f"{lo}..{hi}" if lo is not None and hi is not None else (f">= {lo}" if lo is not None else f"<= {hi}")
            raise self.error(key, f"must be {bounds}, got {value}")
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        """A text value (ids and enum words)."""
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise self.error(key, f"must be text, got {value!r}")
        return value

    def opt_str(self, key: str) -> str | None:
        """An optional text value (a display name)."""
        return None if self.data.get(key) is None else self.text(key)

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        """true or false."""
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {value!r}")
        return value

    def seq(self, key: str, default: Any = _MISSING) -> list[Any]:
        """A list value."""
        value = self.raw(key, default)
        if not isinstance(value, list):
            raise self.error(key, f"must be a list, got {type(value).__name__}")
        return value

    def dsl(self, key: str, kind: str, ctx: tuple[Any, ...]) -> Dsl:
        """A DSL field as a bound node (text not yet compiled, e.g. read from game.yaml, is compiled here)."""
        value = self.data.get(key)
        if value is None or not isinstance(value, str):
            return value
        return _dsl(value, kind, ctx, f"{self.what} `{key}`", self.file, self.path + (key,))

    def at(self, key: str, what: str | None = None) -> "_At":
        """The mapping at `key`."""
        return _At(self.data.get(key), self.file, self.path + (key,), what or f"{self.what}.{key}")

    def each(self, key: str, what: str, default: Any = _MISSING) -> list["_At"]:
        """The mappings of the list at `key`."""
        return [_At(v, self.file, self.path + (key, i), f"{what} {i + 1}")
                for i, v in enumerate(self.seq(key, default))]


def _dsl(value: Any, kind: str, rules_ctx: tuple[Any, ...], where: str = "game.yaml DSL", file: str | None = None,
         path: YamlPath = ()) -> Dsl:
    """A bound AST node; plain DSL text (e.g. game.yaml values) is parsed and checked here."""
    if value is None or not isinstance(value, str):
        return value
    from kcd.dsl import CheckContext, compile_field  # only needed for text values
    bound, issues = compile_field(value, kind, CheckContext(tuple(rules_ctx[0]), tuple(rules_ctx[1]), rules_ctx[2]))
    errors = [i for i in issues if getattr(i, "severity", "error") == "error"]
    if errors:
        raise RulesError(f"{where} `{value}`: {errors[0].message}", file, path, getattr(errors[0], "hint", None))
    return bound


def _get(d: Mapping[str, Any], path: str, default: Any = ...) -> Any:
    cur: Any = d
    for part in path.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            if default is ...:
                raise RulesError(f"game.yaml: missing `{path}`", "game.yaml", tuple(path.split(".")[:-1]))
            return default
        cur = cur[part]
    return cur


def _weights(spec: Mapping[str, Any] | None, fallback: Weights | None = None) -> Weights:
    if spec is None:
        assert fallback is not None
        return fallback
    kiwi = spec.get("kiwi", "size")
    mode = "one" if kiwi in ("one", "count", "kiwi", 1) else "size"
    return Weights(mode, int(spec.get("leader", 3)), bool(spec.get("nests", True)))


def _purposes(g: Mapping[str, Any], default: Weights, dom_for: Mapping[str, Any]) -> dict[str, Weights]:
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


def _items(rs: RulesetLike, kind: str, what: str) -> list[tuple[str, _At]]:
    """(id, reader) of each item of `kind`, located at its index in the merged file (the Ruleset's file order)."""
    try:
        items = list(rs.items(kind))
    except (KeyError, AttributeError, ValueError):
        return []
    file, key = _where(kind)
    prefix: YamlPath = (key,) if key else ()
    return [(str(item.id), _At(item.data, file, prefix + (i,), f"{what} `{item.id}`")) for i, item in enumerate(items)]


def _by_id(rows: list[tuple[str, _At]], build: Callable[[str, _At], T]) -> dict[str, T]:
    return {item_id: build(item_id, at) for item_id, at in rows}


def compile_rules(rs: RulesetLike, cache: bool = True) -> Rules:
    """Compile a Ruleset (`rs.game`, `rs.items(kind)`, `rs.solo`) into typed engine values; cached on the ruleset.

    Raises RulesError, located at the content file and key, for anything the engine could not play; the loader
    calls it with cache=False to report that as a diagnostic.
    """
    cached = _CACHE.get(rs)
    if cached is not None:
        return cached   # type: ignore[no-any-return]   # PerOwner holds what `put` was given: Rules
    rules = _compile(rs)
    if cache:
        _CACHE.put(rs, rules)
    return rules


def _compile(rs: RulesetLike) -> Rules:
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
    per_season: list[int | None] = []
    for v in _get(g, "marking.per_season"):
        per_season.append(None if v in ("all", None) else int(v))
    game_at = _At(g, "game.yaml", (), "game.yaml")
    facedown = game_at.at("facedown").dsl("effect", "effect", ctx) if isinstance(g.get("facedown"), Mapping) else None
    setup_at = game_at.at("setup") if isinstance(g.get("setup"), Mapping) else None
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
        facedown=facedown,
        domain_vp=int(_get(g, "scoring.domain_vp", 1)),
        tiebreak=list(_get(g, "scoring.tiebreak", ["size3", "size2", "size1", "unused_domain"])),
        season_cards_per_game=int(_get(g, "season_cards.per_game", 4)),
        setup_first_game=bool(_get(g, "setup.first_game", True)),
        setup_advanced=[_advanced(at) for at in setup_at.each("advanced", "setup.advanced step", [])]
        if setup_at else [],
    )
    rules.cards = _by_id(_items(rs, "action_cards", "action card"), lambda i, at: ActionCard(
        i, at.text("type"), at.opt_str("name"), at.raw("effect", None),
        tuple(str(t) for t in at.seq("play_as", [])), at.raw("benefit", None)))
    for card in rules.cards.values():
        # R-WILD-1: a Wildcard played as an action resolves exactly as the first card of that type
        if card.type != "wild" and card.type not in rules.action_effect:
            rules.action_effect[card.type] = card.effect
    rules.nests = _by_id(_items(rs, "nests", "Nest"), lambda i, at: Nest(
        i, at.text("type"), at.num("row", 1, lo=1), at.raw("cost", None), at.raw("on_place", None),
        at.raw("on_season_change", None), at.num("vp", 0, lo=0), at.num("dominance", 0, lo=0), at.opt_str("name")))
    rules.flocks = _by_id(_items(rs, "flocks", "flock"), _flock)
    rules.leaders = _by_id(_items(rs, "leaders", "Leader"), _leader)
    for leader in rules.leaders.values():
        for lc in leader.cards:
            rules.leader_cards[lc.id] = lc
    rules.season_cards = _by_id(_items(rs, "season_cards", "Season card"), lambda i, at: SeasonCard(
        i, at.raw("objective"), at.raw("victor", None), at.raw("others", None), at.opt_str("name")))
    for i, at in _items(rs, "turn_order_nests", "Turn Order nest"):
        nest = TurnOrderNest(i, at.num("seat", lo=1), at.raw("setup", None))
        rules.turn_nests[nest.seat] = nest
    slots = [TrackerSlot(i, at.num("slot", lo=1), at.raw("effect", None))
             for i, at in _items(rs, "tracker_slots", "tracker slot")]
    rules.tracker = {s.slot: s for s in sorted(slots, key=lambda s: s.slot)}
    # R-VTO-1: the variant's phases are content (game.yaml `variants.vto.phases`); no list there means the
    # content does not offer Variable Turn Order (Game.new(variant="vto") is then a SetupError)
    vto = (g.get("variants") or {}).get("vto") or {}
    rules.vto_phases = list(vto.get("phases") or [])
    rules.sections = _by_id(_items(rs, "sections", "section"), lambda i, at: Section(
        i, tuple(HexSpec(h.text("id"), h.num("q"), h.num("r"), h.text("terrain")) for h in at.each("hexes", "hex"))))
    rules.layouts = [Layout(i, at.num("players", lo=1), tuple(
        Placement(p.text("section"), p.num("dq", 0), p.num("dr", 0)) for p in at.each("sections", "placed section")))
        for i, at in _items(rs, "layouts", "layout")]
    rules.setups = [FirstGameSetup(i, at.text("layout"), tuple(_seat(s) for s in at.each("seats", "seat")))
                    for i, at in _items(rs, "setups", "first-game setup")]
    rules.solo_cards = _by_id(_items(rs, "solo_cards", "Solo card"), _solo_card)
    rules.solo = _solo(rs.solo if isinstance(getattr(rs, "solo", None), Mapping) else {}, rules, ctx)
    return rules


def _advanced(at: _At) -> AdvancedStep:
    until = at.data.get("until")
    return AdvancedStep(at.text("step"), at.text("hex", "any"), at.num("kiwi", 0, lo=0),
                        None if until is None else at.num("until", lo=0), at.num("count", 0, lo=0))


def _flock(flock_id: str, at: _At) -> dict[str, Side]:
    sides = {}
    for key, label in (("side_a", "A"), ("side_b", "B")):
        sd = at.at(key, f"flock `{flock_id}` {key}") if at.data.get(key) is not None else \
            _At({}, at.file, at.path + (key,), f"flock `{flock_id}` {key}")
        track = {s.num("slot", lo=1): s.raw("benefit", None) for s in sd.each("track", "track slot", [])}
        powers = []
        for p in sd.each("power", "power", []):
            when, modifier = p.raw("when", None), p.raw("modifier", None)
            powers.append(Power(getattr(when, "primitive", None) if when is not None else None,
                                p.raw("do", None), getattr(modifier, "primitive", None), when, modifier))
        sides[label] = Side(sd.raw("extra_move", None), track, tuple(powers))
    return sides


def _leader(leader_id: str, at: _At) -> Leader:
    cards = tuple(LeaderCard(c.text("id"), c.text("name", c.data.get("id")), c.raw("ability", None), leader_id)
                  for c in at.each("cards", f"Leader `{leader_id}` card", []))
    return Leader(leader_id, at.text("name", leader_id), cards)


def _seat(at: _At) -> SeatStart:
    kiwi_at = at.at("kiwi") if at.data.get("kiwi") is not None else _At({}, at.file, at.path + ("kiwi",), at.what)
    kiwi: dict[str, tuple[int, ...]] = {}
    for hex_id, sizes in kiwi_at.data.items():
        if not isinstance(sizes, list) or any(isinstance(s, bool) or not isinstance(s, int) for s in sizes):
            raise kiwi_at.error(hex_id, f"must be a list of Kiwi sizes, got {sizes!r}")
        kiwi[str(hex_id)] = tuple(sizes)
    return SeatStart(at.num("seat", lo=1), at.text("leader"), kiwi)


def _solo_card(card_id: str, at: _At) -> SoloCard:
    rows = at.at("sections", f"Solo card `{card_id}` sections")
    sections: dict[str, tuple[Dsl, ...]] = {}
    for row in SOLO_ROWS:
        segments = rows.seq(row)
        if len(segments) != 4:
            raise rows.error(row, f"needs 4 segments (columns 1-3 and the bonus action's), has {len(segments)}")
        sections[row] = tuple(segments)
    return SoloCard(card_id, at.num("number", 0, lo=0), sections)


def _solo(spec: Mapping[str, Any], rules: Rules, ctx: tuple[Any, ...]) -> Solo | None:
    """solo.yaml's setup numbers, marker sides and patterns, checked so a solo game can always start
    (R-SOLO-1..6, R-SOLO-11/12); None when the content has no solo mode."""
    if not spec:   # no solo.yaml setup, marker or patterns: the content offers no solo mode
        return None
    top = _At(spec, "solo.yaml", (), "solo.yaml")
    for part in ("setup", "marker", "patterns"):
        if spec.get(part) is None:
            raise RulesError(f"solo.yaml: `{part}` is missing (solo mode needs Solo cards, `setup`, `marker` and "
                             "`patterns`)", "solo.yaml", ())
    if not rules.solo_cards:
        raise RulesError("solo.yaml: no Solo cards (solo mode needs Solo cards, `setup`, `marker` and `patterns`)",
                         "solo.yaml", ())
    at = top.at("setup", "solo.yaml setup")
    setup = SoloSetup(
        solo_cards=at.num("solo_cards", lo=1, hi=len(rules.solo_cards)), set_aside=at.num("set_aside", lo=0),
        kiwibot_seat=at.num("kiwibot_seat", lo=1, hi=2), kiwibot_fruit=at.flag("kiwibot_fruit", False),
        kiwibot_setup=at.dsl("kiwibot_setup", "effect", ctx),
        season_cards_per_season=at.num("season_cards_per_season", lo=1),
        kiwibot_wins_ties=at.flag("kiwibot_wins_ties", True), vp_per_kept_card=at.num("vp_per_kept_card", lo=0),
        domain_per_vp=at.num("domain_per_vp", lo=1))
    if setup.solo_cards < rules.seasons:
        # R-SOLO-9 discards one after each Domain Marking: the pile must last the whole game
        raise at.error("solo_cards", f"({setup.solo_cards}) must be at least the number of seasons ({rules.seasons})",
                       "R-SOLO-9 discards a Solo card every season")
    sides: dict[str, MarkerSide] = {}
    for side in top.at("marker", "solo.yaml marker").each("sides", "marker side"):
        start = side.text("start")
        if start not in ("own_leader", "player_leader"):
            raise side.error("start", "must be own_leader or player_leader")
        sequence = tuple(str(d) for d in side.seq("sequence", []))
        bad = [d for d in sequence if d != "here" and d not in SOLO_MARKER_DIRECTIONS]
        if bad:
            raise side.error("sequence", f"has an unknown direction `{bad[0]}`",
                             f"use here, {', '.join(SOLO_MARKER_DIRECTIONS)}")
        sides[side.text("id")] = MarkerSide(side.text("id"), start, sequence)
    if not sides:
        raise RulesError("solo.yaml marker has no sides (R-SOLO-12)", "solo.yaml", ("marker",))
    patterns: dict[str, tuple[str, ...]] = {}
    listed = top.each("patterns", "Kiwibot pattern")
    for p in listed:
        pid = p.text("id")
        steps = tuple(str(s) for s in p.seq("steps"))
        known = SOLO_STEPS.get(pid)
        if known is not None:
            bad = [s for s in steps if s not in known]
            if bad:
                raise p.error("steps", f"has an unknown step `{bad[0]}` for pattern `{pid}`",
                              f"known: {', '.join(sorted(known))}")
        patterns[pid] = steps
    for pid in SOLO_STEPS:
        if pid not in patterns:
            raise RulesError(f"solo.yaml patterns has no `{pid}` pattern (R-SOLO-11)", "solo.yaml", ("patterns",))
    return Solo(setup, sides, patterns)
