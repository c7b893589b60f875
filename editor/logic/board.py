"""What the Board page draws: a layout (with its first-game setup), a position file, or a recorded game."""
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
    """A played game: how to rebuild it and the option chosen at each decision."""

    players: list[str]
    seed: int
    bots: list[str]
    setup: str = "first-game"
    leaders: dict[str, str] | None = None
    sides: dict[str, str] | None = None
    decisions: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


def record_game(ruleset: Any, players: Sequence[str], seed: int, bots: Sequence[str],
                setup: str = "first-game") -> Recording:
    """Play a game between bots (interpreter.sim.play_game) and record every decision taken."""
    from interpreter.sim import play_game

    rec = Recording(list(players), seed, list(bots), setup)

    def keep(game: Any, decision: Any, option: str, applied: Any) -> None:
        label = next((o.label for o in decision.options if o.id == option), option)
        rec.decisions.append(option)
        rec.labels.append(f"{decision.player}: {label}")

    # leaders/sides stay None in the recording: the engine deals them from the seeded RNG, so the replay
    # must make the same call to draw the same leaders, decks and bags
    play_game(ruleset, rec.players, seed, rec.bots, setup=setup, on_decision=keep)
    return rec


def replay_views(ruleset: Any, rec: Recording) -> list[dict[str, Any]]:
    """The spectator view before the first decision and after each one, replayed with the engine."""
    from interpreter.engine import Game

    game = Game.new(ruleset, players=rec.players, seed=rec.seed, leaders=rec.leaders, sides=rec.sides,
                    setup=rec.setup)
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
    """Per-flock rows for the table beside the board."""
    rows = []
    for flock, data in (view.get("flocks") or {}).items():
        fruit = data.get("fruit") or {}
        rows.append({"flock": flock, "side": data.get("side"), "leader": data.get("leader"),
                     "fruit": sum(fruit.values()) if isinstance(fruit, dict) else fruit,
                     "domain": data.get("domain_count"), "track": data.get("track"),
                     "reserve": data.get("reserve_kiwi"), "nests": ", ".join(data.get("nests_built") or []),
                     "season VP": data.get("season_vp")})
    return rows
