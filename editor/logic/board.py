"""What the Board page draws: a layout (with its first-game setup), a position file, or a recorded game
(standard, or solo against Kiwibot: its turns, the Solo card pile and the face-down Season cards, R-SOLO-1..12)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence


def flock_colours(ruleset: Any) -> dict[str, str]:
    """Each flock's drawing colour from content (`colour`)."""
    return {item.id: str(item.raw.get("colour") or item.id) for item in ruleset.items("flocks")}


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


def position_view(path: Path) -> tuple[dict[str, Any], Any]:
    """The spectator view of a position file and the game built from it (PositionError on bad input)."""
    from interpreter.position import load_position

    game = load_position(path)
    return _watcher_view(game), game


@dataclass
class Recording:
    """A played game: how to rebuild it and the option chosen at each decision.

    Solo games (mode "solo", players = [player, kiwibot]): only the player decides; Kiwibot's turns happen
    between the decisions (R-SOLO-7), so `kiwibot` holds, per decision, the log lines of what Kiwibot did after
    it, and `opening` what it did before the first one.
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


def kiwibot_lines(events: Sequence[Any], kiwibot: str | None) -> list[str]:
    """The log lines of Kiwibot's doings among `events`: its revealed cards and answers, and events it caused."""
    if kiwibot is None:
        return []
    return [str(e.text) for e in events
            if str(getattr(e, "kind", "")).startswith("kiwibot") or getattr(e, "player", None) == kiwibot]


def record_game(ruleset: Any, players: Sequence[str], seed: int, bots: Sequence[str],
                setup: str = "first-game", mode: str = "standard", solo_side: str | None = None,
                variant: str | None = None) -> Recording:
    """Play a game between bots (interpreter.sim.play_game) and record every decision taken; mode "solo":
    players = [player, kiwibot] and the first bot plays the player (R-SOLO-1..12)."""
    from interpreter.sim import play_game

    rec = Recording(list(players), seed, list(bots), setup, mode=mode, solo_side=solo_side, variant=variant)
    kiwibot = players[1] if mode == "solo" and len(players) == 2 else None

    def start(game: Any) -> None:
        rec.opening.extend(kiwibot_lines(game.events, kiwibot))

    def keep(game: Any, decision: Any, option: str, applied: Any) -> None:
        label = next((o.label for o in decision.options if o.id == option), option)
        rec.decisions.append(option)
        rec.labels.append(f"{decision.player}: {label}")
        rec.kiwibot.append(kiwibot_lines(applied.events, kiwibot))

    # leaders/sides stay None in the recording: the engine deals them from the seeded RNG, so the replay
    # must make the same call to draw the same leaders, decks and bags
    play_game(ruleset, rec.players, seed, rec.bots, setup=setup, on_decision=keep, on_start=start, mode=mode,
              solo_side=solo_side, variant=variant)
    return rec


def replay_views(ruleset: Any, rec: Recording) -> list[dict[str, Any]]:
    """The spectator view before the first decision and after each one, replayed with the engine."""
    from interpreter.engine import Game

    game = Game.new(ruleset, players=rec.players, seed=rec.seed, leaders=rec.leaders, sides=rec.sides,
                    setup=rec.setup, mode=rec.mode, solo_side=rec.solo_side, variant=rec.variant)
    views = [_watcher_view(game)]
    for index, option in enumerate(rec.decisions):
        result = game.apply(option)
        if not getattr(result, "ok", True):
            raise RuntimeError(f"replay diverged at decision {index + 1} `{option}`: "
                               f"{getattr(result, 'message', result)}")
        views.append(_watcher_view(game))
    return views


def _watcher_view(game: Any) -> dict[str, Any]:
    """The spectator view plus the whole pending decision: the designer watching bots hides nothing from
    themself, while the engine's spectator view shows only who decides (so it never leaks a hand)."""
    view = game.view(None)
    if game.pending is not None:
        view["pending"] = game.pending.to_dict()
    return view


def scoreboard(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Per-flock rows for the table beside the board (in a solo game with each flock's role)."""
    solo = view.get("solo") or {}
    rows = []
    for flock, data in (view.get("flocks") or {}).items():
        fruit = data.get("fruit") or {}
        row = {"flock": flock, "side": data.get("side"), "leader": data.get("leader"),
               "fruit": sum(fruit.values()) if isinstance(fruit, dict) else fruit,
               "domain": data.get("domain_count"), "track": data.get("track"),
               "reserve": data.get("reserve_kiwi"), "nests": ", ".join(data.get("nests_built") or []),
               "season VP": data.get("season_vp")}
        if solo:
            row = {"role": "Kiwibot" if flock == solo.get("kiwibot") else "player", **row,
                   "kept Season cards": ", ".join(data.get("kept_season_cards") or [])}
        rows.append(row)
    return rows


FACE_DOWN = "facedown"   # the engine view's id of a Season card not flipped yet (R-SOLO-4)


def season_card_rows(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The game's Season cards by season; a solo game's unflipped ones show as face down (R-SOLO-4)."""
    return [{"season": c.get("season"), "card": "(face down)" if c.get("id") == FACE_DOWN else c.get("id")}
            for c in view.get("season_cards") or []]


def solo_panel(view: dict[str, Any]) -> list[dict[str, str]]:
    """The solo block of a view as rows: Kiwibot, the marker side, the top Solo card, cards left and discarded,
    Kiwibot's cards set aside (R-SOLO-1/2/9/12); [] for a standard game."""
    solo = view.get("solo")
    if not solo:
        return []
    discarded = solo.get("solo_cards_discarded") or []
    return [
        {"what": "Kiwibot", "value": str(solo.get("kiwibot"))},
        {"what": "Player", "value": str(solo.get("player"))},
        {"what": "Solo-mode marker side", "value": str(solo.get("marker_side"))},
        {"what": "Top Solo card", "value": str(solo.get("solo_card") or "(none left)")},
        {"what": "Solo cards left", "value": str(solo.get("solo_cards_left", 0))},
        {"what": "Solo cards discarded", "value": ", ".join(discarded) or "(none)"},
        {"what": "Kiwibot's cards set aside", "value": str(solo.get("set_aside_count", 0))},
    ]
