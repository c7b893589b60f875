"""What the Board page draws: a layout (with its first-game setup), a position from the content folder's
`positions/` or an uploaded one, or a recorded game stepped decision by decision (standard, Variable Turn Order,
or solo against Kiwibot: its turns, the Solo card pile and the face-down Season cards, R-SOLO-1..12), with the
hexes each decision changed, its events, and the final scores and winner."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from kcd.apps.editor.logic.confine import inside

POSITIONS_DIR = "positions"


def flock_colours(ruleset: Any) -> dict[str, str]:
    """Each flock's drawing colour from content (`colour`)."""
    return {item.id: str(item.raw.get("colour") or item.id) for item in ruleset.items("flocks")}


def flock_names(ruleset: Any) -> dict[str, str]:
    """Each flock's readable name from content (`name`, else its id)."""
    return {item.id: str(item.raw.get("name") or item.id) for item in ruleset.items("flocks")}


def nest_glyphs(ruleset: Any) -> dict[str, dict[str, Any]]:
    """{nest id: {type, row, shape}}: each Nest type of the content its own glyph (board_svg.nest_glyphs)."""
    from kcd.apps.editor.logic.board_svg import nest_glyphs as glyphs

    return glyphs({"id": item.id, **item.raw} for item in ruleset.items("nests"))


def terrains(ruleset: Any) -> list[str]:
    """The terrain ids of game.yaml, for the legend."""
    return [str(t) for t in (ruleset.game.get("terrains") or [])]


def flock_order(ruleset: Any) -> list[str]:
    """Flock ids in the ruleset's default seat order."""
    order = (ruleset.game.get("flock") or {}).get("seat_order") if isinstance(ruleset.game, dict) else None
    return list(order or [item.id for item in ruleset.items("flocks")])


def layout_view(ruleset: Any, layout_id: str, setup_id: str | None = None,
                flocks: Sequence[str] | None = None) -> dict[str, Any]:
    """A public-view-shaped dict of a layout's hexes; with a first-game setup, its Leaders and Kiwi,
    seat 1 taking the first flock of `flocks` (default: the seat order)."""
    sections = {item.id: item.raw for item in ruleset.items("sections")}
    layout = ruleset.item("layouts", layout_id).raw
    hexes: dict[str, dict[str, Any]] = {}
    for placed in layout.get("sections") or []:
        section = sections.get(placed.get("section"))
        if section is None:
            continue
        for h in section.get("hexes") or []:
            hexes[str(h["id"])] = {"q": int(h["q"]) + int(placed.get("dq", 0)),
                                   "r": int(h["r"]) + int(placed.get("dr", 0)), "terrain": h.get("terrain"),
                                   "kiwi": [], "leaders": [], "nest": None, "domain": None}
    view: dict[str, Any] = {"hexes": hexes, "flocks": {}, "season": None, "pending": None, "over": False}
    if setup_id:
        setup = ruleset.item("setups", setup_id).raw
        order = list(flocks or flock_order(ruleset))
        for seat in setup.get("seats") or []:
            index = int(seat.get("seat", 1)) - 1
            if index >= len(order):
                continue
            flock = order[index]
            view["flocks"][flock] = {"seat": index + 1}
            leader_hex = seat.get("leader")
            if leader_hex in hexes:
                hexes[leader_hex]["leaders"].append(flock)
            for hid, sizes in (seat.get("kiwi") or {}).items():
                if hid in hexes:
                    hexes[hid]["kiwi"] += [{"flock": flock, "size": int(s)} for s in sizes]
    return view


def position_files(root: Path) -> list[str]:
    """The position files of the content folder: `positions/**/*.yaml`, content-relative (links leading out
    of the folder are left out)."""
    from kcd.apps.editor.logic.confine import OutsideContentError

    folder = Path(root) / POSITIONS_DIR
    out = []
    for path in sorted(folder.rglob("*.yaml")) if folder.is_dir() else []:
        rel = path.relative_to(root).as_posix()
        try:
            inside(root, rel)
        except OutsideContentError:
            continue
        out.append(rel)
    return out


MAX_POSITION_BYTES = 1_000_000   # the loader's limit for a content file


def position_view(root: Path, name: str, text: str | bytes) -> tuple[dict[str, Any], Any]:
    """The spectator view of a position (its text, named `name` in messages) and the game built from it, its
    `edition` packs taken from content folder `root`; PositionError with located diagnostics on bad input."""
    from kcd.core.diagnostics import Diagnostic, Location
    from kcd.analysis.position import PositionError, build_game, load_ruleset_for, parse_document, parse_position

    if isinstance(text, bytes):
        if len(text) > MAX_POSITION_BYTES:
            raise PositionError([Diagnostic("position", f"the file is {len(text):,} bytes; a position is at most "
                                                        f"{MAX_POSITION_BYTES:,}", Location(name, 1, 1))])
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise PositionError([Diagnostic("position", "the file is not UTF-8 text (is it a YAML position?)",
                                            Location(name, 1, 1))]) from None
    doc = parse_document(name, text)
    ruleset = load_ruleset_for(doc, root)
    game = build_game(ruleset, parse_position(doc, ruleset))
    return _watcher_view(game), game


def position_file_view(root: Path, rel: str) -> tuple[dict[str, Any], Any]:
    """`position_view` of a file of the content folder (only inside it: OutsideContentError otherwise)."""
    from kcd.core.diagnostics import Diagnostic, Location
    from kcd.analysis.position import PositionError

    path = inside(root, rel)
    if path.stat().st_size > MAX_POSITION_BYTES:   # never read a huge file whole
        raise PositionError([Diagnostic("position", f"the file is {path.stat().st_size:,} bytes; a position is at "
                                                    f"most {MAX_POSITION_BYTES:,}", Location(rel, 1, 1))])
    return position_view(root, rel, path.read_bytes())


@dataclass
class Recording:
    """A played game: how to rebuild it and the option chosen at each decision.

    Solo games (mode "solo", players = [player, kiwibot]): only the player decides; Kiwibot's turns happen
    between the decisions (R-SOLO-7), so `kiwibot` holds, per decision, the log lines of what Kiwibot did after
    it, and `opening` what it did before the first one. `events` holds every event line of each decision
    (Kiwibot's included), `start_events` the setup's.
    """

    players: list[str]
    seed: int
    bots: list[str]
    setup: str = "first-game"
    leaders: dict[str, str] | None = None
    sides: dict[str, str] | None = None
    decisions: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    mode: str = "standard"
    solo_side: str | None = None
    opening: list[str] = field(default_factory=list)
    kiwibot: list[list[str]] = field(default_factory=list)
    variant: str | None = None   # "vto": Variable Turn Order (R-VTO)
    overlays: tuple[str, ...] = ()   # the editions and mods the game was played with (for the page's caption)
    events: list[list[str]] = field(default_factory=list)
    start_events: list[str] = field(default_factory=list)


def log_names(ruleset: Any) -> tuple[dict[str, str], dict[str, str]]:
    """(flock id -> name, card or Nest id -> name) for log lines: flocks, Action cards, Leader cards, Solo cards
    and Nests by their content `name` (a Nest without one by type and row), Season cards as the A/B names them."""
    from kcd.analysis.abtest import entity_names
    from kcd.engine.labels import card_name
    from kcd.content.rules import compile_rules

    # Action cards as the engine names them in a hand (content `name`, else the id in words)
    things: dict[str, str] = {cid: card_name(cid, card) for cid, card in compile_rules(ruleset).cards.items()}
    for kind in ("leader_cards", "solo_cards", "leaders"):
        try:
            items = ruleset.items(kind)
        except (KeyError, ValueError):   # a content set without solo cards
            continue
        things.update({i.id: str(i.raw.get("name")) for i in items if isinstance(i.raw, dict) and i.raw.get("name")})
    for key, name in entity_names(ruleset).items():
        group, _, item = key.partition(":")
        if group in ("season_card", "nest"):
            things[item] = name
    return flock_names(ruleset), things


def event_line(event: Any, names: tuple[Mapping[str, str], Mapping[str, str]]) -> str:
    """One event's full text with flocks, cards and Nests by name instead of id (the event's own fields,
    rendered by its form; an event without a form keeps its text)."""
    from kcd.core.events import FORMS, OWNER, render, with_names

    form, fields = getattr(event, "form", None), getattr(event, "fields", None)
    if form not in FORMS or not isinstance(fields, dict):
        return str(event.text)
    shown = with_names(fields, *names)
    try:
        return render(form, shown, OWNER, getattr(event, "player", None))
    except (KeyError, TypeError, ValueError):   # a form whose text needs the ids themselves
        return str(event.text)


def game_log(frames: Sequence["Frame"], upto: int) -> list[str]:
    """The running log of a played game up to frame `upto`: every event line, each after its decision number
    ("setup" before the first), oldest first."""
    out = []
    for frame in frames[: upto + 1]:
        tag = "setup" if frame.index == 0 else f"{frame.index:>3}"
        out += [f"{tag}  {line}" for line in frame.events]
    return out


def kiwibot_lines(events: Sequence[Any], kiwibot: str | None) -> list[str]:
    """The log lines of Kiwibot's doings among `events`: its revealed cards and answers, and events it caused."""
    if kiwibot is None:
        return []
    return [str(e.text) for e in events
            if str(getattr(e, "kind", "")).startswith("kiwibot") or getattr(e, "player", None) == kiwibot]


def record_game(ruleset: Any, players: Sequence[str], seed: int, bots: Sequence[str],
                setup: str = "first-game", mode: str = "standard", solo_side: str | None = None,
                variant: str | None = None, leaders: Mapping[str, str] | None = None,
                sides: Mapping[str, str] | None = None, overlays: Sequence[str] = ()) -> Recording:
    """Play a game between bots (kcd.analysis.sim.play_game) and record every decision taken and its events;
    mode "solo": players = [player, kiwibot] and the first bot plays the player (R-SOLO-1..12). `leaders`: one
    per flock or None (dealt from the seed, R-SETUP-3); `sides`: flock -> "A"/"B" (default A)."""
    from kcd.analysis.sim import play_game

    rec = Recording(list(players), seed, list(bots), setup, leaders=dict(leaders) if leaders else None,
                    sides=dict(sides) if sides else None, mode=mode, solo_side=solo_side, variant=variant,
                    overlays=tuple(overlays))
    from kcd.engine import mode_registry as modes

    kiwibot = next(iter(modes.select(mode, None).engine_seats(list(players))), None)   # the engine's own seat
    names = log_names(ruleset)

    def start(game: Any) -> None:
        rec.opening.extend(kiwibot_lines(game.events, kiwibot))
        rec.start_events.extend(event_line(e, names) for e in game.events)

    def keep(game: Any, decision: Any, option: str, applied: Any) -> None:
        label = next((o.label for o in decision.options if o.id == option), option)
        rec.decisions.append(option)
        rec.labels.append(f"{decision.player}: {label}")
        rec.kiwibot.append(kiwibot_lines(applied.events, kiwibot))
        rec.events.append([event_line(e, names) for e in applied.events])

    # unchosen leaders and sides stay None in the recording: the engine deals them from the seeded RNG, so the
    # replay makes the same call to draw the same leaders, decks and bags
    play_game(ruleset, rec.players, seed, rec.bots, setup=setup, on_decision=keep, on_start=start, mode=mode,
              solo_side=solo_side, variant=variant, leaders=rec.leaders, sides=rec.sides)
    return rec


@dataclass(frozen=True)
class Frame:
    """The board before the first decision (index 0) or after decision `index`: the view, what the decision was,
    the hexes it changed, its events, and the scores and ranking then (R-END-2/3)."""

    index: int
    view: dict[str, Any]
    label: str
    events: tuple[str, ...]
    changed: tuple[str, ...]
    scores: dict[str, dict[str, int]]
    ranking: tuple[str, ...]

    @property
    def over(self) -> bool:
        """The game has ended at this frame."""
        return bool(self.view.get("over"))


def changed_hexes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The hex ids whose contents (Kiwi, Leaders, Nest, domain marker) differ between two views."""
    a, b = before.get("hexes") or {}, after.get("hexes") or {}
    return sorted(h for h in set(a) | set(b) if a.get(h) != b.get(h))


def _frame(game: Any, index: int, label: str, events: Sequence[str], previous: Mapping[str, Any] | None) -> Frame:
    view = _watcher_view(game)
    return Frame(index, view, label, tuple(events), tuple(changed_hexes(previous, view)) if previous else (),
                 {f: {k: int(v) for k, v in s.items()} for f, s in game.scores().items()}, tuple(game.ranking()))


def replay(ruleset: Any, rec: Recording) -> list[Frame]:
    """Every frame of a recorded game, replayed with the engine: the start, then one per decision."""
    from kcd.engine import Game

    game = Game.new(ruleset, players=rec.players, seed=rec.seed, leaders=rec.leaders, sides=rec.sides,
                    setup=rec.setup, mode=rec.mode, solo_side=rec.solo_side, variant=rec.variant)
    frames = [_frame(game, 0, "Start of the game", rec.start_events, None)]
    for index, option in enumerate(rec.decisions):
        result = game.apply(option)
        if not result.ok:
            raise RuntimeError(f"replay diverged at decision {index + 1} `{option}`: {result.message}")
        label = rec.labels[index] if index < len(rec.labels) else option
        events = rec.events[index] if index < len(rec.events) else [str(e.text) for e in result.events]
        frames.append(_frame(game, index + 1, label, events, frames[-1].view))
    return frames


def replay_views(ruleset: Any, rec: Recording) -> list[dict[str, Any]]:
    """The spectator view before the first decision and after each one, replayed with the engine."""
    return [frame.view for frame in replay(ruleset, rec)]


def result_rows(frame: Frame, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The scores at a frame in ranking order (R-END-2: VP by source; R-END-3 breaks ties): place, flock, VP."""
    from kcd.engine import mode_registry as modes
    from kcd.modes.base import SCORE_COLUMNS

    rows = []
    for place, flock in enumerate(frame.ranking, start=1):
        score = frame.scores.get(flock) or {}
        row = {"place": place, "flock": names.get(flock, flock), "VP": score.get("total", 0),
               "domain markers": score.get("domain", 0), "Nests": score.get("nests", 0),
               "Season cards": score.get("season_cards", 0)}
        for column, vp in score.items():   # a mode's own VP source (solo: Kiwibot's unplaced markers)
            if column not in SCORE_COLUMNS:
                row[modes.score_label(column)] = vp
        rows.append(row)
    return rows


def winner_text(frame: Frame, names: Mapping[str, str]) -> str:
    """Who won, in words: "Winner: Red Flock with 12 VP" (and when the VP were level, that the tiebreak decided,
    R-END-3); in a solo game whether the player or Kiwibot won (R-SOLO-6)."""
    if not frame.ranking:
        return ""
    first = frame.ranking[0]
    total = (frame.scores.get(first) or {}).get("total", 0)
    tied = [f for f in frame.ranking[1:] if (frame.scores.get(f) or {}).get("total", 0) == total]
    from kcd.engine import mode_registry as modes

    roles = modes.view_roles(frame.view)   # solo: Kiwibot or the player
    who = names.get(first, first)
    if roles:
        role = roles.get(first, "player")
        who = f"{'the ' if role == 'player' else ''}{role} ({who})"
    text = f"Winner: {who} with {total} VP"
    if tied:
        text += f" (level with {', '.join(names.get(f, f) for f in tied)}; won on the tiebreak, R-END-3)"
    return text


def position_frame(game: Any) -> Frame:
    """A position's board as a frame: its view, the scores and ranking it stands at."""
    return _frame(game, 0, "Position", (), None)


def _watcher_view(game: Any) -> dict[str, Any]:
    """The spectator view plus the whole pending decision: the designer watching bots hides nothing from
    themself, while the engine's spectator view shows only who decides (so it never leaks a hand)."""
    view = game.view(None)
    if game.pending is not None:
        view["pending"] = game.pending.to_dict()
    return view


def scoreboard(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Per-flock rows for the table beside the board (in a solo game with each flock's role)."""
    from kcd.engine import mode_registry as modes

    roles = modes.view_roles(view)   # solo: Kiwibot and the player
    rows = []
    for flock, data in (view.get("flocks") or {}).items():
        fruit = data.get("fruit") or {}
        row = {"flock": flock, "side": data.get("side"), "leader": data.get("leader"),
               "fruit": sum(fruit.values()) if isinstance(fruit, dict) else fruit,
               "domain": data.get("domain_count"), "track": data.get("track"),
               "reserve": data.get("reserve_kiwi"), "nests": ", ".join(data.get("nests_built") or []),
               "season VP": data.get("season_vp")}
        if roles:
            row = {"role": roles.get(flock, "player"), **row, **modes.view_flock_extras(view, data)}
        rows.append(row)
    return rows


FACE_DOWN = "facedown"   # the engine view's id of a Season card not flipped yet (R-SOLO-4)


def season_card_rows(view: dict[str, Any], names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """The game's Season cards by season (`names`: card id -> readable name, e.g. its objective); a solo game's
    unflipped ones show as face down (R-SOLO-4)."""
    names = names or {}
    return [{"season": c.get("season"),
             "card": "(face down)" if c.get("id") == FACE_DOWN else names.get(str(c.get("id")), c.get("id"))}
            for c in view.get("season_cards") or []]


def season_card_names(ruleset: Any) -> dict[str, str]:
    """Each Season card's readable name: its objective as a sentence ("Most nests"), as the A/B report names it."""
    from kcd.analysis.abtest import entity_names

    prefix = "season_card:"
    return {k[len(prefix):]: v for k, v in entity_names(ruleset).items() if k.startswith(prefix)}


def solo_panel(view: dict[str, Any]) -> list[dict[str, str]]:
    """The mode's own block of a view as rows (`Mode.view_panel`; solo: Kiwibot, the marker side, the top Solo
    card, cards left and discarded, Kiwibot's cards set aside, R-SOLO-1/2/9/12); [] for a standard game."""
    from kcd.engine import mode_registry as modes

    return [{"what": what, "value": value} for what, value in modes.view_panel(view)]
