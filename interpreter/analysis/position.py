"""Hand-written YAML positions and their analysis (`kcd position`).

A position file (the keys; full examples in tests/golden/positions/, ids here are placeholders):
```yaml
edition: [base, <pack>]          # optional: overlays in order (default: base)
players: [<flock>, ...]          # flock ids in seat order; the first is the first player
island:                          # an inline island; or instead `layout: <layout id>` from content
  - {id: A, q: 0, r: 0, terrain: <terrain>}
season: 2                        # optional, default 1
season_card: <season card id>    # optional: the Season card in play
hexes:                           # only hexes with something on them
  A:
    kiwi: {<flock>: [1, 1, 2]}   # the size of each Kiwi stack
    leaders: [<flock>]
    nest: {<flock>: <nest id>}
    domain: <flock>              # a placed domain marker (of the hex's terrain) and its owner
flocks:                          # optional per-flock state
  <flock>: {fruit: {<fruit>: 1}, domain_reserve: [<terrain>], season_vp: 1, track: 8, leader: <id>,
            leader_card: <card id>, side: A}
```
Decisions (where the format is silent):
- Each flock's 20 Kiwi tokens (R-COMP-2) are laid out as: the island stacks, one covering token per own
  domain marker (R-DM-3), then the track filled first (up to `track_tokens`), the rest in the reserve.
  A flock may set `track: N` (tokens left on its track) to put the rest in its reserve instead.
- Fruit and domain markers named in the position come out of the bags (R-COMP-1); more than the bag
  holds is an error.
- A flock may also set `leader: <leader id>` and `side: A|B`; without `leader:` it takes the first content
  leader no other flock names. A flock whose Leader is not under `hexes` has no Leader on the island (legal in
  a puzzle; the engine's Leader rules then never apply to it).
- `leader_card: <card id>` picks the flock's Leader card among its Leader's cards (the Leader named by `leader:`,
  or the one it takes without it); without it the flock holds its Leader's first card.
- The game continues from the Actions phase of `season` (first player to play a card), with decks shuffled
  and hands dealt from the state's RNG (seed 0), so a position can be played on by bots.
The analysis is computed only by the engine's own functions (dominance, scoring, queries).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from kcd.content.yamlsafe import YamlDoc, parse_yaml
from kcd.core.diagnostics import Diagnostic, Location

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset

TOP_KEYS = ("edition", "players", "island", "layout", "season", "season_card", "hexes", "flocks")
HEX_KEYS = ("kiwi", "leaders", "nest", "domain")
FLOCK_KEYS = ("fruit", "domain_reserve", "season_vp", "track", "leader", "leader_card", "side")
ISLAND_KEYS = ("id", "q", "r", "terrain")


class PositionError(Exception):
    """The position file is invalid; `diagnostics` locates every problem."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics) or "invalid position")


@dataclass
class IslandHex:
    """One hex of the position's island."""

    id: str
    q: int
    r: int
    terrain: str


@dataclass
class HexContent:
    """What lies on one hex."""

    kiwi: dict[str, list[int]] = field(default_factory=dict)
    leaders: list[str] = field(default_factory=list)
    nest: tuple[str, str] | None = None     # (flock, nest id)
    domain: str | None = None               # owner of the placed marker


@dataclass
class FlockState:
    """Per-flock resources of the position."""

    fruit: dict[str, int] = field(default_factory=dict)
    domain_reserve: list[str] = field(default_factory=list)
    season_vp: int = 0
    track: int | None = None
    leader: str | None = None
    leader_card: str | None = None
    side: str = "A"


@dataclass
class Position:
    """A validated position, ready to be built into a game state."""

    file: str
    overlays: list[str]
    players: list[str]
    island: list[IslandHex]
    season: int
    season_card: str | None
    hexes: dict[str, HexContent]
    flocks: dict[str, FlockState]


def _suggest(word: Any, choices: list[str]) -> str | None:
    """A did-you-mean hint, or a list of the valid words."""
    close = difflib.get_close_matches(str(word), choices, n=1)
    if close:
        return f"did you mean `{close[0]}`?"
    if choices:
        return "expected one of: " + ", ".join(choices)
    return None


class _Check:
    """Collects located diagnostics while reading a position document."""

    def __init__(self, doc: YamlDoc) -> None:
        self.doc = doc
        self.diags: list[Diagnostic] = []

    def error(self, code: str, message: str, path: tuple[Any, ...], *, key: bool = False,
              hint: str | None = None) -> None:
        """Record one problem at the value (or key) at `path`."""
        self.diags.append(self.doc.diagnostic(code, message, path, key=key, hint=hint))

    def mapping(self, value: Any, path: tuple[Any, ...], what: str, allowed: tuple[str, ...] | None = None) -> dict:
        """`value` as a mapping (empty after an error), refusing unknown keys when `allowed` is given."""
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error("schema", f"{what} must be a mapping, got {_kind(value)}", path)
            return {}
        if allowed is not None:
            for key in value:
                if key not in allowed:
                    self.error("schema", f"unknown field `{key}` in {what}", path + (key,), key=True,
                               hint=_suggest(key, list(allowed)))
        return value

    def seq(self, value: Any, path: tuple[Any, ...], what: str) -> list:
        """`value` as a list (empty after an error)."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.error("schema", f"{what} must be a list, got {_kind(value)}", path)
            return []
        return value

    def integer(self, value: Any, path: tuple[Any, ...], what: str, lo: int, hi: int | None = None) -> int | None:
        """`value` as an int within [lo, hi], else None after an error."""
        if not isinstance(value, int) or isinstance(value, bool):
            self.error("schema", f"{what} must be a whole number, got {_kind(value)}", path)
            return None
        if value < lo or (hi is not None and value > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            self.error("position", f"{what} must be {bound}, got {value}", path)
            return None
        return value

    def ident(self, value: Any, path: tuple[Any, ...], what: str, known: list[str], *, key: bool = False) -> str | None:
        """`value` as one of the `known` ids, else None after an `id-unknown` error."""
        if not isinstance(value, str) or value not in known:
            self.error("id-unknown", f"unknown {what} `{value}`", path, key=key, hint=_suggest(value, known))
            return None
        return value


def leaders_of(players: list[str], flocks: Mapping[str, FlockState], leader_ids: list[str]) -> dict[str, str]:
    """Each flock's Leader: its `leader:`, else the first leader of the content no flock names ("" when none is
    left); in seat order."""
    taken = {f.leader for f in flocks.values() if f.leader}
    spare = [lid for lid in leader_ids if lid not in taken]
    out: dict[str, str] = {}
    for flock in players:
        # decision: a flock without `leader:` gets the first leader of the content not named by another
        named = flocks[flock].leader if flock in flocks else None
        out[flock] = named or (spare.pop(0) if spare else "")
    return out


def _kind(value: Any) -> str:
    """A readable name of a YAML value's type."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    return {dict: "a mapping", list: "a list", str: f"`{value}`", int: f"{value}", float: f"{value}"}.get(
        type(value), type(value).__name__)


def read_document(path: str | Path) -> YamlDoc:
    """The position file parsed with the loader's safe line-mapped YAML; PositionError when unreadable."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise PositionError([Diagnostic("position", f"cannot read the position: {reason}",
                                        Location(file, 1, 1))]) from None
    return parse_document(file, text)


def parse_document(file: str, text: str) -> YamlDoc:
    """A position's text (named `file` in messages) parsed with the loader's safe line-mapped YAML;
    PositionError when it is not a YAML mapping."""
    doc, diags = parse_yaml(file, text)
    if diags or doc is None:
        raise PositionError(diags)
    if not isinstance(doc.data, dict):
        raise PositionError([doc.diagnostic("schema", f"a position must be a mapping, got {_kind(doc.data)}", ())])
    return doc


def _edition_entries(doc: YamlDoc) -> list[tuple[str, tuple[Any, ...]]]:
    """(pack name, path) of each `edition` entry other than base; PositionError on a malformed value."""
    if "edition" not in doc.data:
        return []
    value = doc.data["edition"]
    check = _Check(doc)
    entries: list[tuple[str, tuple[Any, ...]]] = []
    items = [(value, ("edition",))] if isinstance(value, str) else [
        (v, ("edition", i)) for i, v in enumerate(check.seq(value, ("edition",), "`edition`"))]
    for name, path in items:
        if not isinstance(name, str):
            check.error("schema", f"an edition must be a name, got {_kind(name)}", path)
        elif name != "base":
            entries.append((name, path))
    if check.diags:
        raise PositionError(check.diags)
    return entries


def overlays_of(doc: YamlDoc) -> list[str]:
    """The overlay packs named by `edition`, in order (base is implicit and first)."""
    return [name for name, _ in _edition_entries(doc)]


def load_ruleset_for(doc: YamlDoc, root: str | Path | None = None) -> Any:
    """The ruleset for the position's `edition` list, from content root `root` (default: the shipped content);
    unknown packs are located in the position file."""
    from kcd.content import ContentError, available_packs, load_ruleset

    known = [p.id for p in available_packs(root)]
    check = _Check(doc)
    for name, path in _edition_entries(doc):
        check.ident(name, path, "edition or mod", known)
    if check.diags:
        raise PositionError(check.diags)
    try:
        return load_ruleset(overlays=overlays_of(doc), root=root)
    except ContentError as err:
        raise PositionError(err.diagnostics) from None


def parse_position(doc: YamlDoc, ruleset: Ruleset) -> Position:
    """Validate the document against the ruleset and return the Position; PositionError lists every problem."""
    c = _Check(doc)
    data = c.mapping(doc.data, (), "a position", TOP_KEYS)
    game = ruleset.game
    flock_ids = [item.id for item in ruleset.items("flocks")]
    terrains = list(game["terrains"])
    fruits = list(game["fruits"])
    max_size = int(game["limits"]["kiwi_size"])
    seasons = int(game["limits"]["seasons"])

    # players
    players: list[str] = []
    if "players" not in data:
        c.error("schema", "missing field `players` (flock ids in seat order)", ())
    for i, flock in enumerate(c.seq(data.get("players"), ("players",), "`players`")):
        if c.ident(flock, ("players", i), "flock", flock_ids) is not None:
            if flock in players:
                c.error("position", f"flock `{flock}` is seated twice", ("players", i))
            else:
                players.append(flock)
    if "players" in data and isinstance(data["players"], list) and not data["players"]:
        c.error("position", "`players` needs at least one flock", ("players",))

    # island
    island = _parse_island(c, data, ruleset, terrains)
    on_island = {h.id: h for h in island}

    season = 1
    if "season" in data:
        season = c.integer(data["season"], ("season",), "`season`", 1, seasons) or 1
    season_card = None
    if data.get("season_card") is not None:
        season_card = c.ident(data["season_card"], ("season_card",), "Season card",
                              [item.id for item in ruleset.items("season_cards")])

    # hexes
    nest_ids = [item.id for item in ruleset.items("nests")]
    hexes: dict[str, HexContent] = {}
    leaders_seen: dict[str, tuple[Any, ...]] = {}
    nests_seen: set[tuple[str, str]] = set()
    for hex_id, raw in c.mapping(data.get("hexes"), ("hexes",), "`hexes`").items():
        base = ("hexes", hex_id)
        if hex_id not in on_island:
            c.error("position", f"hex `{hex_id}` is not on the island", base, key=True,
                    hint=_suggest(hex_id, list(on_island)))
            continue
        content = HexContent()
        spec = c.mapping(raw, base, f"hex `{hex_id}`", HEX_KEYS)
        for flock, sizes in c.mapping(spec.get("kiwi"), base + ("kiwi",), "`kiwi`").items():
            path = base + ("kiwi", flock)
            if _seated(c, flock, players, flock_ids, path) is None:
                continue
            stacks: list[int] = []
            for j, size in enumerate(c.seq(sizes, path, f"the Kiwi of `{flock}`")):
                ok = c.integer(size, path + (j,), "a Kiwi size", 1, max_size)
                if ok is not None:
                    stacks.append(ok)
            content.kiwi[flock] = stacks
        for j, flock in enumerate(c.seq(spec.get("leaders"), base + ("leaders",), "`leaders`")):
            path = base + ("leaders", j)
            if _seated(c, flock, players, flock_ids, path) is None:
                continue
            if flock in leaders_seen:
                c.error("position", f"the Leader of `{flock}` is already on the island", path,
                        hint="each flock has one Leader (R-SETUP-3)")
                continue
            leaders_seen[flock] = path
            content.leaders.append(flock)
        if spec.get("nest") is not None:
            nest = c.mapping(spec["nest"], base + ("nest",), "`nest`")
            if len(nest) != 1:
                c.error("position", "a hex holds at most one Nest: write `nest: {flock: nest id}`",
                        base + ("nest",), hint="R-BUILD-1")
            for flock, nest_id in list(nest.items())[:1]:
                path = base + ("nest", flock)
                if _seated(c, flock, players, flock_ids, path) is None:
                    continue
                if c.ident(nest_id, path, "Nest", nest_ids) is None:
                    continue
                if (flock, nest_id) in nests_seen:
                    c.error("position", f"`{flock}` has only one `{nest_id}` Nest", path)
                    continue
                nests_seen.add((flock, nest_id))
                content.nest = (flock, nest_id)
        if spec.get("domain") is not None:
            if _seated(c, spec["domain"], players, flock_ids, base + ("domain",)) is not None:
                content.domain = spec["domain"]
        hexes[hex_id] = content

    # flocks
    flocks: dict[str, FlockState] = {f: FlockState() for f in players}
    leader_ids = [item.id for item in ruleset.items("leaders")]
    cards_named: dict[str, tuple[Any, tuple[Any, ...]]] = {}
    for flock, raw in c.mapping(data.get("flocks"), ("flocks",), "`flocks`").items():
        base = ("flocks", flock)
        if _seated(c, flock, players, flock_ids, base, key=True) is None:
            continue
        spec = c.mapping(raw, base, f"flock `{flock}`", FLOCK_KEYS)
        state = flocks[flock]
        for colour, n in c.mapping(spec.get("fruit"), base + ("fruit",), "`fruit`").items():
            if c.ident(colour, base + ("fruit", colour), "fruit", fruits, key=True) is None:
                continue
            count = c.integer(n, base + ("fruit", colour), f"the number of {colour} fruit", 0)
            if count:
                state.fruit[colour] = count
        held = sum(state.fruit.values())
        if held > int(game["limits"]["fruit"]):
            c.error("position", f"`{flock}` holds {held} fruit; the limit is {game['limits']['fruit']}",
                    base + ("fruit",), hint="R-LIMIT-1")
        for j, terrain in enumerate(c.seq(spec.get("domain_reserve"), base + ("domain_reserve",), "`domain_reserve`")):
            if c.ident(terrain, base + ("domain_reserve", j), "terrain", terrains) is not None:
                state.domain_reserve.append(terrain)
        if "season_vp" in spec:
            state.season_vp = c.integer(spec["season_vp"], base + ("season_vp",), "`season_vp`", 0) or 0
        if "track" in spec:
            state.track = c.integer(spec["track"], base + ("track",), "`track`", 0,
                                    int(game["flock"]["track_tokens"]))
        if spec.get("leader") is not None:
            state.leader = c.ident(spec["leader"], base + ("leader",), "leader", leader_ids)
        if spec.get("leader_card") is not None:
            cards_named[flock] = (spec["leader_card"], base + ("leader_card",))
        if "side" in spec:
            if spec["side"] not in ("A", "B"):
                c.error("schema", f"`side` must be A or B, got {_kind(spec['side'])}", base + ("side",))
            else:
                state.side = spec["side"]

    if cards_named:
        leaders = leaders_of(players, flocks, leader_ids)
        cards_of = {item.id: [str(card.get("id")) for card in (item.data.get("cards") or []) if isinstance(card, dict)]
                    for item in ruleset.items("leaders")}
        for flock, (card, path) in cards_named.items():
            leader = leaders.get(flock) or ""
            known = cards_of.get(leader, [])
            if card in known:
                flocks[flock].leader_card = card
            else:
                c.error("id-unknown", f"`{card}` is not a card of `{flock}`'s Leader `{leader}`", path,
                        hint=_suggest(card, known))
    if not c.diags:
        _check_counts(c, game, players, island, hexes, flocks)
    if c.diags:
        raise PositionError(c.diags)
    return Position(doc.file, overlays_of(doc), players, island, season, season_card, hexes, flocks)


def _seated(c: _Check, flock: Any, players: list[str], flock_ids: list[str], path: tuple[Any, ...],
            key: bool = True) -> str | None:
    """`flock` when it is one of the seated players; else an error (unknown flock, or not playing)."""
    if c.ident(flock, path, "flock", flock_ids, key=key) is None:
        return None
    if flock not in players:
        c.error("position", f"flock `{flock}` is not one of the players", path, key=key,
                hint="add it to `players`")
        return None
    return flock


def _parse_island(c: _Check, data: dict, ruleset: Ruleset, terrains: list[str]) -> list[IslandHex]:
    """The island: inline hexes, or a content layout."""
    if "island" in data and "layout" in data:
        c.error("position", "give either `island` or `layout`, not both", ("layout",), key=True)
        return []
    if "layout" in data:
        layouts = [item.id for item in ruleset.items("layouts")]
        layout = c.ident(data["layout"], ("layout",), "layout", layouts)
        return [] if layout is None else layout_hexes(ruleset, layout)
    if "island" not in data:
        c.error("schema", "missing field `island` (or `layout`)", ())
        return []
    hexes: list[IslandHex] = []
    ids: set[str] = set()
    coords: dict[tuple[int, int], str] = {}
    for i, raw in enumerate(c.seq(data["island"], ("island",), "`island`")):
        path = ("island", i)
        spec = c.mapping(raw, path, "an island hex", ISLAND_KEYS)
        missing = [k for k in ISLAND_KEYS if k not in spec]
        if missing:
            c.error("schema", f"an island hex needs {', '.join(f'`{k}`' for k in missing)}", path)
            continue
        hex_id = spec["id"]
        if not isinstance(hex_id, (str, int)) or isinstance(hex_id, bool):
            c.error("schema", f"a hex id must be a name, got {_kind(hex_id)}", path + ("id",))
            continue
        hex_id = str(hex_id)
        q = c.integer(spec["q"], path + ("q",), "`q`", -1000, 1000)
        r = c.integer(spec["r"], path + ("r",), "`r`", -1000, 1000)
        terrain = c.ident(spec["terrain"], path + ("terrain",), "terrain", terrains)
        if q is None or r is None or terrain is None:
            continue
        if hex_id in ids:
            c.error("position", f"hex id `{hex_id}` appears twice", path + ("id",))
            continue
        if (q, r) in coords:
            c.error("position", f"hexes `{coords[(q, r)]}` and `{hex_id}` share coordinates ({q}, {r})", path)
            continue
        ids.add(hex_id)
        coords[(q, r)] = hex_id
        hexes.append(IslandHex(hex_id, q, r, terrain))
    return hexes


def layout_hexes(ruleset: Ruleset, layout_id: str) -> list[IslandHex]:
    """The hexes of a content layout: its sections shifted by their axial offsets."""
    layout = ruleset.item("layouts", layout_id).data
    out: list[IslandHex] = []
    for placed in layout["sections"]:
        section = ruleset.item("sections", placed["section"]).data
        for h in section["hexes"]:
            out.append(IslandHex(str(h["id"]), int(h["q"]) + int(placed.get("dq", 0)),
                                 int(h["r"]) + int(placed.get("dr", 0)), h["terrain"]))
    return out


def _check_counts(c: _Check, game: Mapping[str, Any], players: list[str], island: list[IslandHex],
                  hexes: dict[str, HexContent], flocks: dict[str, FlockState]) -> None:
    """Component counts: 20 Kiwi tokens per flock (R-COMP-2), bag sizes (R-COMP-1), marker terrain (R-DM-2)."""
    terrain = {h.id: h.terrain for h in island}
    tokens = {f: 0 for f in players}
    for content in hexes.values():
        for flock, stacks in content.kiwi.items():
            tokens[flock] += sum(stacks)
        if content.domain is not None:
            tokens[content.domain] += 1  # the covering token (R-DM-3)
    per_flock = int(game["flock"]["kiwi_tokens"])
    for flock, n in tokens.items():
        if n > per_flock:
            c.error("position", f"`{flock}` has {n} Kiwi tokens on the island (counting one under each of its "
                    f"domain markers); a flock has {per_flock}", ("players",), hint="R-COMP-2")
    for colour, total in game["components"]["fruit"].items():
        used = sum(f.fruit.get(colour, 0) for f in flocks.values())
        if used > int(total):
            c.error("position", f"the players hold {used} {colour} fruit; the bag has only {total}", ("flocks",),
                    hint="R-COMP-1")
    for t, total in game["components"]["domain"].items():
        used = sum(f.domain_reserve.count(t) for f in flocks.values())
        used += sum(1 for h, content in hexes.items() if content.domain is not None and terrain[h] == t)
        if used > int(total):
            c.error("position", f"{used} {t} domain markers are in use; the bag has only {total}", ("flocks",),
                    hint="R-COMP-1")


def build_state(ruleset: Ruleset, position: Position) -> Any:
    """A engine State holding exactly the position (see the module docstring for the decisions)."""
    from kcd.engine import Flock, Hex, State
    from kcd.content.rules import compile_rules
    from kcd.engine.setup import params_of

    rules = compile_rules(ruleset)
    state = State(hexes={h.id: Hex(h.id, h.q, h.r, h.terrain) for h in position.island}, flocks={},
                  seats=list(position.players), fruit_bag=dict(rules.fruit_counts),
                  domain_bag=dict(rules.domain_counts), rng=0, params=params_of(rules))
    leaders = leaders_of(position.players, position.flocks, list(rules.leaders))
    for seat, flock_id in enumerate(position.players, start=1):
        spec = position.flocks[flock_id]
        leader = leaders[flock_id]
        cards = rules.leaders[leader].card_ids if leader in rules.leaders else []
        if spec.leader_card in cards:
            cards = [spec.leader_card]
        deck = [c for c, n in rules.deck.items() for _ in range(int(n))]
        state.shuffle(deck)   # R-SETUP-8, from the state's RNG
        fruit = {c: spec.fruit.get(c, 0) for c in rules.fruits}
        for colour, n in spec.fruit.items():
            state.fruit_bag[colour] -= n
        for terrain in spec.domain_reserve:
            state.domain_bag[terrain] -= 1
        state.flocks[flock_id] = Flock(id=flock_id, seat=seat, side=spec.side, leader=leader,
                                       leader_card=cards[0] if cards else "", fruit=fruit,
                                       domain=list(spec.domain_reserve), deck=deck, season_vp=spec.season_vp)
        flock = state.flocks[flock_id]
        for _ in range(rules.hand):
            flock.hand.append(flock.deck.pop())
    for hex_id, content in position.hexes.items():
        terrain = state.hexes[hex_id].terrain
        for flock_id, sizes in content.kiwi.items():
            for size in sizes:
                state.place_new_kiwi(hex_id, flock_id, size)
        for flock_id in content.leaders:
            state.flocks[flock_id].leader_hex = hex_id
        if content.nest is not None:
            state.set_nest(hex_id, content.nest)
            state.flocks[content.nest[0]].nests_built.append(content.nest[1])
        if content.domain is not None:
            state.set_domain(hex_id, (content.domain, terrain))
            state.domain_bag[terrain] -= 1
            state.flocks[content.domain].covers += 1   # the covering token (R-DM-3)
    order = {n: i for i, n in enumerate(rules.flock_nests)}
    for flock_id in position.players:
        f = state.flocks[flock_id]
        f.nests_built.sort(key=lambda n: order.get(n, len(order)))
        free = rules.kiwi_tokens - state.island_tokens(flock_id) - f.covers
        want = position.flocks[flock_id].track
        f.track = min(rules.track_tokens, free) if want is None else min(want, free)
        f.reserve_kiwi = free - f.track
    if position.season_card is not None:
        # decision: the named card is the current season's; earlier seasons' slots hold other cards (already
        # resolved, never read again) and later seasons have none, so play from here ends without more cards
        others = [c for c in rules.season_cards if c != position.season_card]
        state.shuffle(others)
        state.season_cards = others[: position.season - 1] + [position.season_card]
    # a position starts at the Actions phase of its season: the first player is about to play a card
    state.season, state.phase, state.step = position.season, "actions", 0
    return state


def build_game(ruleset: Ruleset, position: Position) -> Any:
    """The Game continuing from the position (through the engine's `Game.from_state`)."""
    from kcd.engine import Game

    return Game.from_state(ruleset, build_state(ruleset, position))


def load_position(path: str | Path) -> Any:
    """The Game built from the position file at `path`; PositionError(diagnostics) on bad input."""
    doc = read_document(path)
    ruleset = load_ruleset_for(doc)
    position = parse_position(doc, ruleset)
    return build_game(ruleset, position)


# The purposes dominance is counted for besides the general figure (game.yaml `dominance_for`, and the purpose
# `season_cards.dominated_hexes` names for the "hexes with dominance" objective).
PURPOSES = ("build", "marking", "dominated_hexes")


def analyse(game: Any) -> dict[str, Any]:
    """The `kcd position --json` analysis of a game's current state, from the engine's own functions."""
    from kcd.core import dominance
    from kcd.engine import queries, scoring

    state = game.state
    seats = list(state.seats)
    hexes: dict[str, Any] = {}
    # Purposes whose weights differ from the general figure (Z-4 in the prototype): reported beside it per hex.
    general = dominance.weights(state)
    purposes = [p for p in PURPOSES if dominance.weights(state, p) != general]
    for hex_id, h in state.hexes.items():
        counts = dominance.strengths(state, hex_id)
        hexes[hex_id] = {"terrain": h.terrain,
                         "strength": {f: counts[f] for f in seats if counts.get(f)},
                         "dominant": dominance.dominant(state, hex_id)}
        if purposes:
            hexes[hex_id]["by_purpose"] = {}
            for purpose in purposes:
                counts = dominance.strengths(state, hex_id, purpose)
                hexes[hex_id]["by_purpose"][purpose] = {"strength": {f: counts[f] for f in seats if counts.get(f)},
                                                        "dominant": dominance.dominant(state, hex_id, purpose)}
    scores = scoring.score(state)
    flocks = {f: {"vp": {k: int(v) for k, v in scores[f].items()},
                  "tiebreak": [int(x) for x in scoring.tiebreak(state, f)]} for f in seats}
    out: dict[str, Any] = {"hexes": hexes, "flocks": flocks, "ranking": list(game.ranking())}
    # The Season card in play: the current season's card (a position has one only when it names one).
    cards = list(state.season_cards)
    card_id = cards[state.season - 1] if 0 < state.season <= len(cards) else None
    if card_id is not None:
        objective = game.ruleset.item("season_cards", card_id).data["objective"]
        best, values = queries.winners(state, objective, seats)
        # R-SCARD-1/2: the victor beats every other player; a tie for the best has none
        out["season_card"] = {"id": card_id, "values": {f: int(values[f]) for f in seats},
                              "victor": best[0] if len(best) == 1 else None}
    return out
