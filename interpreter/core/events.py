"""Events as data: every event form, its typed fields, and its text rendered for a viewer.

A procedure emits `rt.emit(form, player, **fields)`; the Event keeps its `kind` (the log's category, e.g.
`move`), its `form` (which sentence, e.g. `move-kiwi`), its `fields` and the text its own player and the
spectator-owner log read (`Event.text`, as before). `event.text_for(viewer)` renders the text for one viewer:
a form's `private` fields are shown only to the event's player, so a player's log never shows what that player
may not see (the face-down markers someone pays, the marker Kiwibot returns). `FORMS` lists every form; the
view (`view(player)["log"]`) uses `text_for`.

Events name pieces by id (interpreter/core/pieces.py): a form about one Kiwi stack has a `kiwi` field, its
`Kiwi.id` (piece `kiwi-<n>`, the `kiwi` field of actions; for `place` the new stack's); Leaders, Nests and markers
are named by the fields their ids are made of (`leader-<flock>`, `nest-<flock>-<nest>`, `marker-<hex>`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

Render = Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Form:
    """One kind of event sentence: its log kind, fields, text, and the text others see when some are private."""

    name: str
    kind: str
    fields: tuple[str, ...]
    render: Render
    private: tuple[str, ...] = ()          # fields only the event's player may see
    public: Render | None = None           # the text for everyone else (required when `private`)


FORMS: dict[str, Form] = {}


def _form(name: str, kind: str, fields: str, render: str | Render, private: str = "",
          public: str | Render | None = None) -> None:
    def as_render(r: str | Render) -> Render:
        return r.format_map if isinstance(r, str) else r
    FORMS[name] = Form(name, kind, tuple(fields.split()), as_render(render), tuple(private.split()),
                       as_render(public) if public is not None else None)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _paid(f: dict[str, Any], hide: bool) -> str:
    """`red, blue, sand marker` for the payer; `red, blue, 1 domain marker` for everyone else."""
    markers = f["markers"]
    if not hide:
        return ", ".join(list(f["fruit"]) + [t + " marker" for t in markers])
    return ", ".join(list(f["fruit"]) + ([f"{len(markers)} domain marker{_s(len(markers))}"] if markers else []))


# cards and the Actions phase (R-ACT-1..3, R-WILD-1)
_form("shuffle", "shuffle", "flock", "{flock} shuffles the discard pile into a new deck")
_form("play-facedown", "card", "flock", "{flock} plays a card face down")
_form("play-benefit", "card", "flock card", "{flock} plays {card} for its benefit")
_form("play-as", "card", "flock card action_type", "{flock} plays {card} as a {action_type} card")
_form("play", "card", "flock card", "{flock} plays {card}")
# building, feeding, effects
_form("cannot-build", "build", "flock", "{flock} cannot build")
_form("build", "build", "flock nest hex", "{flock} builds {nest} on {hex}")
_form("cannot-pay", "effect", "flock effect", "{flock} cannot pay: the rest of `{effect}` is skipped")
_form("power", "power", "flock trigger", "{flock}'s power fires ({trigger})")
_form("gain-fruit", "gain", "flock fruit",
      lambda f: f"{f['flock']} gains {len(f['fruit'])} fruit"
      + (f" ({', '.join(f['fruit'])})" if f["fruit"] else " (the bag is empty)"))
_form("gain-domain", "gain", "flock count", lambda f: f"{f['flock']} gains {f['count']} domain marker{_s(f['count'])}")
_form("return-domain", "return", "flock", "{flock} returns a domain marker")
_form("gain-vp", "vp", "flock vp", "{flock} gains {vp} VP")
_form("cannot-feed", "feed", "flock", "{flock} cannot feed any Kiwi")
_form("explode", "explode", "flock owner size hex kiwi", "{flock} feeds the {owner} size-{size} Kiwi on {hex}: it explodes")
_form("feed", "feed", "flock owner size hex kiwi", "{flock} feeds the {owner} size-{size} Kiwi on {hex}")
_form("pay", "pay", "flock fruit markers", lambda f: f"{f['flock']} pays {_paid(f, False)}", private="markers",
      public=lambda f: f"{f['flock']} pays {_paid(f, True)}")
_form("fruit-limit", "limit", "flock fruit limit", "{flock} returns a {fruit} fruit (limit {limit})")
# flow and Season cards (R-SEASON-1, R-SC-1..3, R-SCARD-1..3)
_form("end", "end", "", "The game is over")
_form("season-begins", "season", "season", "Season {season} begins")
_form("first-player", "season", "flock", "{flock} is the First Player")
_form("season-card", "season-card", "card values",
      lambda f: f"{f['card']}: " + ", ".join(f"{k} {v}" for k, v in f["values"].items()))
_form("season-card-victor", "season-card", "flock card", "{flock} wins {card}")
_form("season-card-tie", "season-card", "card tied", lambda f: f"{f['card']}: tie between {', '.join(f['tied'])}")
# moving, pushing, tokens (R-MOVE-1..4, R-PUSH-1..3, R-RES-2/3, R-TRACK-1, R-DM-3)
_form("ability", "ability", "flock", "{flock} uses the Leader's ability")
_form("move-leader", "move", "flock hex to", "{flock} moves the Leader from {hex} to {to}")
_form("move-kiwi", "move", "flock size hex to kiwi", "{flock} moves a size-{size} Kiwi from {hex} to {to}")
_form("no-move", "move", "flock", "{flock} has no legal Move action left")
_form("leader-lands", "ability", "flock hex to", "{flock} Leader goes from {hex} to {to}")
_form("mark", "mark", "flock hex terrain", "{flock} marks {hex} ({terrain})")
_form("no-token", "token", "flock", "{flock} takes no token from the island")
_form("token", "token", "flock hex kiwi", "{flock} takes a token from a Kiwi on {hex}")
_form("track", "track", "flock slot", "{flock} uncovers track slot {slot}")
_form("no-kiwi", "place", "flock", "{flock} has no Kiwi token left to place")
_form("place", "place", "flock hex kiwi", "{flock} places a size-1 Kiwi on {hex}")
_form("no-growth", "grow", "flock hex size kiwi", "{flock} has no token to stack; the Kiwi on {hex} stays size {size}")
_form("grow", "grow", "flock hex size kiwi", "{flock} Kiwi on {hex} grows to size {size}")
_form("remove", "remove", "flock size hex kiwi", "{flock} removes a size-{size} Kiwi from {hex} to the Reserve")
_form("push-leader", "push", "flock leader hex to", "{flock} pushes the {leader} Leader from {hex} to {to}")
_form("push-off", "push", "flock owner size hex kiwi", "{flock} pushes a {owner} size-{size} Kiwi off the island from {hex}")
_form("push", "push", "flock owner size hex to kiwi", "{flock} pushes a {owner} size-{size} Kiwi from {hex} to {to}")
_form("setup-leader", "setup", "flock hex", "{flock} places the Leader on {hex}")
# verbs of the compositional effect language (interpreter/engine/compose.py); `piece`: "the red size-1 Kiwi on A3"
_form("push-stays", "push", "flock piece", "{piece} has no hex to be pushed to and stays")
_form("no-place-hex", "place", "flock", "{flock} has no hex to place a Kiwi on")
_form("shrink", "shrink", "flock owner hex size kiwi", "{flock} shrinks a {owner} Kiwi on {hex} to size {size}")
_form("remove-piece", "remove", "flock owner size hex kiwi", "{flock} removes a {owner} size-{size} Kiwi from {hex}")
_form("move-piece", "move", "flock piece to", "{flock} moves {piece} to {to}")
_form("return-fruit", "return", "flock fruit", "{flock} returns a {fruit} fruit to the bag")
# Variable Turn Order (R-VTO-1..5)
_form("tracker-cannot-pay", "tracker", "flock effect", "{flock} cannot pay `{effect}`")
_form("tracker-slot", "tracker", "flock slot", "{flock} takes turn tracker slot {slot}")
# solo (R-SOLO-1..12): Kiwibot's choices, cards and markers are public, except what it pays or returns
_form("kiwibot-choice", "kiwibot-choice", "decision option label public_label", "Kiwibot: {label}",
      private="option label", public="Kiwibot: {public_label}")
_form("kiwibot-no-card", "kiwibot", "flock", "Kiwibot ({flock}) has no Action card to reveal")
_form("kiwibot-no-solo-card", "kiwibot", "flock card", "Kiwibot ({flock}) reveals {card}: no Solo card left")
_form("kiwibot-reveals", "kiwibot", "flock card_name slot solo_card row column segment",
      "Kiwibot ({flock}) reveals {card_name} into slot {slot}: {solo_card}, {row} row, column {column}: {segment}")
_form("kiwibot-shuffle", "shuffle", "flock set_aside",
      "Kiwibot ({flock}) shuffles its cards into a new deck and sets {set_aside} aside")
_form("solo-card", "solo-card", "card top", lambda f: f"Solo card {f['card']} is discarded"
      + (f"; {f['top']} is on top" if f["top"] else ""))
_form("season-flip", "season-flip", "season cards", lambda f: f"Season {f['season']} cards: {', '.join(f['cards'])}")
_form("solo-season-card", "season-card", "card solo_player player_value bot bot_value victor",
      lambda f: f"{f['card']}: {f['solo_player']} {f['player_value']}, {f['bot']} {f['bot_value']}; "
      + (f"{f['victor']} wins it" if f["victor"] else "a tie"))
_form("solo-season", "solo-season", "season solo_player won cards kept",
      lambda f: f"Season {f['season']}: {f['solo_player']} wins {f['won']} of {f['cards']} Season cards"
      + (f"; Kiwibot keeps {', '.join(f['kept'])}" if f["kept"] else ""))
_form("kiwibot-no-marker", "mark", "flock", "Kiwibot ({flock}) reveals no marker that fits")
_form("kiwibot-marker-instead", "mark", "flock", "Kiwibot ({flock}) has no fitting marker and gains one instead")
_form("kiwibot-cannot-move", "move", "flock", "Kiwibot ({flock}) has no Kiwi that can make this move")
_form("kiwibot-token", "token", "flock hex kiwi", "Kiwibot ({flock}) takes a token from a Kiwi on {hex}")
_form("kiwibot-bonus", "kiwibot", "flock action segment", "Kiwibot gains a bonus {action} action: {segment}")
_form("kiwibot-no-feed", "feed", "flock", "Kiwibot ({flock}) finds no Kiwi to feed")
_form("kiwibot-cannot-build", "build", "flock", "Kiwibot ({flock}) cannot build: it places a Kiwi and gains a bonus Move")
_form("kiwibot-no-fruit", "gain", "flock", "Kiwibot ({flock}) gains no fruit")


def render(form: str, fields: dict[str, Any], viewer: Any, player: str | None) -> str:
    """The text of an event of `form` for `viewer` (a flock, None for a spectator, OWNER for the full text)."""
    spec = FORMS[form]
    if spec.private and viewer != OWNER and viewer != player:
        assert spec.public is not None
        return spec.public(fields)
    return spec.render(fields)


# Event fields that hold a flock id (a list of them: `tied`; a dict keyed by them: `values`), and those that hold a
# card's or a Nest's id or a list of card ids: what `with_names` replaces by names for a readable log.
FLOCK_FIELDS = ("flock", "owner", "leader", "victor", "solo_player", "bot")
THING_FIELDS = ("card", "nest")
THING_LISTS = ("cards", "kept", "set_aside")


def with_names(fields: dict[str, Any], flocks: Mapping[str, str], things: Mapping[str, str]) -> dict[str, Any]:
    """A copy of an event's fields with flock ids (`flocks`: id -> name) and card and Nest ids (`things`) replaced
    by names, for `render`: the same sentence, readable (ids not in the maps stay as they are)."""
    shown = dict(fields)
    for key in FLOCK_FIELDS:
        if isinstance(shown.get(key), str):
            shown[key] = flocks.get(shown[key], shown[key])
    for key in THING_FIELDS:
        if isinstance(shown.get(key), str):
            shown[key] = things.get(shown[key], shown[key])
    for key in THING_LISTS:
        if isinstance(shown.get(key), list):
            shown[key] = [things.get(c, c) if isinstance(c, str) else c for c in shown[key]]
    if isinstance(shown.get("tied"), list):
        shown["tied"] = [flocks.get(f, f) for f in shown["tied"]]
    if isinstance(shown.get("values"), dict):
        shown["values"] = {flocks.get(k, k): v for k, v in shown["values"].items()}
    return shown


class _Owner:
    """The viewer who sees everything (the event's own text, golden files, bot logs)."""

    def __repr__(self) -> str:
        return "OWNER"


OWNER: Any = _Owner()


def public_label(action: Any, label: str) -> str:
    """An option's label without what only its chooser may know (the terrains of paid or returned markers)."""
    kind = getattr(action, "kind", None)
    if kind == "pay":
        return "Pay " + (_paid({"fruit": action.fruit, "markers": action.markers}, True) or "nothing")
    if kind == "return-marker":
        return "Return a domain marker"
    return label
