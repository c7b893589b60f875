"""Typed actions: what an option does, as a frozen value (python-chess's `Move`), and its id grammar.

Every `Option` carries an `action`; `action.id()` writes it in the option-id grammar of docs/ACTIONS.md
(`move:red/2@A3->A4`, `pay:red,marker-sand`, `stop` …), which is the option id. Procedures, Kiwibot, bots and
the editor read the action's fields; nothing parses an id. A Kiwi is named by its piece id (`kiwi`) and, for
the readable id, by flock, size and hex: identical Kiwi in one hex ("twins") share an id, so they are one
choice, and the action names the very piece the engine moves.

`action.to_dict()` / `action_from_dict(d)` are the JSON form: `{"kind": "move", "kiwi": 12, ...}`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from interpreter.engine.decisions import fast_init

KINDS: dict[str, type["Action"]] = {}


def _register(cls: type["Action"]) -> type["Action"]:
    """Add a kind to KINDS, with the faster __init__ of `fast_init` (a game builds thousands of actions)."""
    fast_init(cls)
    KINDS[cls.kind] = cls
    return cls


@dataclass(frozen=True)
class Action:
    """Base of every action kind: `kind` names it, the dataclass fields carry its values, and each kind's
    `id()` writes it in the grammar (no abc.ABC: its instance check would double the cost of building the
    thousands of options a game offers)."""

    kind: ClassVar[str] = ""
    doc: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: `kind` plus the fields (tuples as lists)."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_TYPES = {"str": str, "int": int, "bool": bool, "tuple[str, ...]": tuple}


def action_from_dict(data: Any) -> Action:
    """The action of `to_dict` output; ValueError naming what is wrong (unknown kind, missing or bad field)."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise ValueError(f"an action is an object with a `kind`, got {str(data)[:80]}")
    cls = KINDS.get(data["kind"])
    if cls is None:
        raise ValueError(f"unknown action kind `{data['kind'][:40]}` (known: {', '.join(sorted(KINDS))})")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    extra = set(data) - set(fields) - {"kind"}
    if extra:
        raise ValueError(f"action `{cls.kind}` has no field {', '.join(sorted(map(str, extra)))[:80]}")
    values = {}
    for name, f in fields.items():
        if name not in data:
            raise ValueError(f"action `{cls.kind}` needs `{name}`")
        value = data[name]
        want = _TYPES[str(f.type)]
        if want is tuple:
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                raise ValueError(f"action `{cls.kind}`: `{name}` must be a list of strings")
            value = tuple(value)
        elif not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise ValueError(f"action `{cls.kind}`: `{name}` must be {want.__name__}, got {str(value)[:40]}")
        values[name] = value
    return cls(**values)


def _sentence(doc: str) -> str:
    return doc[0].upper() + doc[1:] + "."


# --- words: ids without fields ---------------------------------------------------------------------------
@dataclass(frozen=True)
class _Word(Action):
    def id(self) -> str:
        return self.kind


def _word(name: str, doc: str) -> type[Action]:
    cls = type(f"Word_{name.replace('-', '_')}", (_Word,), {"kind": name, "doc": doc, "__doc__": _sentence(doc)})
    return _register(dataclass(frozen=True)(cls))


for _name, _doc in [("play", "play the chosen card as its action"),
                    ("facedown", "play the chosen card face down (R-ACT-2)"),
                    ("benefit", "take the chosen Wildcard's benefit (R-WILD-1)"),
                    ("ability", "use the Leader's ability as a Move action (R-LEAD-2)"),
                    ("stop", "stop: no more moves, pushes or Leader steps"),
                    ("pass", "place no domain marker (R-DM-1)"),
                    ("take", "take a tied Season card's benefit (R-SCARD-2)"),
                    ("decline", "decline a tied Season card's benefit (R-SCARD-2)")]:
    _word(_name, _doc)
WORDS = ("play", "facedown", "benefit", "ability", "stop", "pass", "take", "decline")


def word(name: str) -> Action:
    """The field-less action `name` (`stop`, `pass`, …)."""
    return KINDS[name]()


# --- choices with one value ------------------------------------------------------------------------------
@_register
@dataclass(frozen=True)
class Card(Action):
    """Choose an Action card from the hand (R-ACT-1)."""

    kind: ClassVar[str] = "card"
    card: str

    def id(self) -> str:
        return f"card:{self.card}"


@_register
@dataclass(frozen=True)
class PlayAs(Action):
    """Play a Wildcard as an action card of this type (R-WILD-1)."""

    kind: ClassVar[str] = "as"
    action_type: str

    def id(self) -> str:
        return f"as:{self.action_type}"


@_register
@dataclass(frozen=True)
class Extra(Action):
    """Pay for another Move action (`move`) or stop (`stop`) (R-MOVE-3)."""

    kind: ClassVar[str] = "extra"
    choice: str

    def id(self) -> str:
        return f"extra:{self.choice}"


@_register
@dataclass(frozen=True)
class May(Action):
    """Take (`yes`) or skip an optional effect (`may { … }`)."""

    kind: ClassVar[str] = "may"
    yes: bool

    def id(self) -> str:
        return "may:yes" if self.yes else "may:no"


@_register
@dataclass(frozen=True)
class Choice(Action):
    """Pick alternative `index` (1-based) of a `choose { … } or { … }` effect."""

    kind: ClassVar[str] = "choice"
    index: int

    def id(self) -> str:
        return f"choice:{self.index}"


@_register
@dataclass(frozen=True)
class Nest(Action):
    """Choose a Nest: which to build (R-BUILD-1), or whose Season Change benefit comes next (R-SC-3)."""

    kind: ClassVar[str] = "nest"
    nest: str

    def id(self) -> str:
        return f"nest:{self.nest}"


@_register
@dataclass(frozen=True)
class ReturnMarker(Action):
    """Return a domain marker of this terrain to the bag."""

    kind: ClassVar[str] = "return-marker"
    terrain: str

    def id(self) -> str:
        return f"return:{self.terrain}"


@_register
@dataclass(frozen=True)
class ReturnFruit(Action):
    """Return a fruit of this colour over the fruit limit (R-LIMIT-1)."""

    kind: ClassVar[str] = "return-fruit"
    fruit: str

    def id(self) -> str:
        return f"return:{self.fruit}"


@_register
@dataclass(frozen=True)
class Pay(Action):
    """Hand over these fruit and domain markers (terrains) for a cost (R-PAY-1)."""

    kind: ClassVar[str] = "pay"
    fruit: tuple[str, ...]
    markers: tuple[str, ...]

    def id(self) -> str:
        return pay_id(self.fruit, self.markers)


def pay_id(fruit: tuple[str, ...], markers: tuple[str, ...]) -> str:
    """The id of a `pay` action (payments are deduplicated by it before any action is built)."""
    return "pay:" + ",".join(list(fruit) + [f"marker-{t}" for t in markers])


@_register
@dataclass(frozen=True)
class Slot(Action):
    """Put the turn tracker token on this slot (R-VTO-3)."""

    kind: ClassVar[str] = "slot"
    slot: int

    def id(self) -> str:
        return f"slot:{self.slot}"


@_register
@dataclass(frozen=True)
class SeasonCard(Action):
    """Solo: the Season card the player competes for this season (R-SOLO-5)."""

    kind: ClassVar[str] = "season-card"
    card: str

    def id(self) -> str:
        return f"season-card:{self.card}"


@_register
@dataclass(frozen=True)
class CoverFrom(Action):
    """Cover a placed domain marker with a token from the `reserve` or the `track` (R-DM-3)."""

    kind: ClassVar[str] = "cover-from"
    source: str

    def id(self) -> str:
        return f"cover:{self.source}"


@_register
@dataclass(frozen=True)
class TakeNoToken(Action):
    """Take no token from the island (the Kiwi is not placed, R-RES-2)."""

    kind: ClassVar[str] = "take-none"

    def id(self) -> str:
        return "take:none"


# --- a hex -------------------------------------------------------------------------------------------------
def _hex_kind(name: str, head: str, doc: str) -> type[Action]:
    def id_(self: Any) -> str:
        return f"{head}:{self.hex}"
    cls = type(f"Hex_{name.replace('-', '_')}", (Action,),
               {"kind": name, "doc": doc, "__doc__": _sentence(doc), "id": id_, "__annotations__": {"hex": "str"}})
    return _register(dataclass(frozen=True)(cls))


Place = _hex_kind("place", "place", "place a new size-1 Kiwi on this hex (R-RES-3)")
Mark = _hex_kind("mark", "mark", "place a domain marker on this hex (R-DM-2)")
Build = _hex_kind("build", "build", "build a Nest on this hex (R-BUILD-1)")
SetupLeader = _hex_kind("setup-leader", "setup-leader", "advanced setup: the Leader starts on this hex (R-SETUP-6)")
SetupPlace = _hex_kind("setup-place", "setup-place", "advanced setup: a Kiwi starts on this hex (R-SETUP-6)")


# --- a hex to another ---------------------------------------------------------------------------------------
@_register
@dataclass(frozen=True)
class MoveLeader(Action):
    """Move the own Leader from `hex` to the adjacent `to` (R-LEAD-1)."""

    kind: ClassVar[str] = "move-leader"
    hex: str
    to: str

    def id(self) -> str:
        return f"move:leader@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True)
class LeaderTo(Action):
    """A Leader ability's landing hex: from `hex` to `to` (straight line or jump)."""

    kind: ClassVar[str] = "leader"
    hex: str
    to: str

    def id(self) -> str:
        return f"leader:{self.hex}->{self.to}"


@_register
@dataclass(frozen=True)
class Step(Action):
    """One step of a walking Leader ability, from `hex` to the adjacent `to`."""

    kind: ClassVar[str] = "step"
    hex: str
    to: str

    def id(self) -> str:
        return f"step:{self.hex}->{self.to}"


@_register
@dataclass(frozen=True)
class PushLeader(Action):
    """Push `flock`'s Leader from `hex` to `to` (`off`: off the island, R-LEAD-4)."""

    kind: ClassVar[str] = "push-leader"
    flock: str
    hex: str
    to: str

    def id(self) -> str:
        return f"push:leader-{self.flock}@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True)
class Edge(Action):
    """Where `flock`'s Leader pushed off the island lands: the edge hex `to` (R-LEAD-4)."""

    kind: ClassVar[str] = "edge"
    flock: str
    to: str

    def id(self) -> str:
        return f"edge:{self.flock}->{self.to}"


# --- a Kiwi (named by piece id; the id shows flock/size@hex) ---------------------------------------------------
def _kiwi_kind(name: str, head: str, doc: str) -> type[Action]:
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        return f"{head}:{flock}/{size}@{hex}"

    def id_(self: Any) -> str:
        return id_of(self.kiwi, self.flock, self.size, self.hex)
    cls = type(f"Kiwi_{name.replace('-', '_')}", (Action,),
               {"kind": name, "doc": doc, "__doc__": _sentence(doc), "id": id_, "id_of": staticmethod(id_of),
                "__annotations__": {"kiwi": "int", "flock": "str", "size": "int", "hex": "str"}})
    return _register(dataclass(frozen=True)(cls))


TakeToken = _kiwi_kind("take-token", "take", "take a token from this Kiwi for a new Kiwi or a growth (R-RES-2)")
Grow = _kiwi_kind("grow", "grow", "grow this own Kiwi by one size")
Remove = _kiwi_kind("remove", "remove", "remove this own Kiwi to the Reserve")
Cover = _kiwi_kind("cover", "cover", "cover a placed marker with a token from this Kiwi (R-DM-3)")
Feed = _kiwi_kind("feed", "feed", "feed this Kiwi (R-FEED-1)")
SetupGrow = _kiwi_kind("setup-grow", "setup-grow", "advanced setup: grow this Kiwi (R-SETUP-6)")


@_register
@dataclass(frozen=True)
class MoveKiwi(Action):
    """Move this own Kiwi to the adjacent hex `to` (R-MOVE-2)."""

    kind: ClassVar[str] = "move"
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    def id(self) -> str:
        return self.id_of(self.kiwi, self.flock, self.size, self.hex, self.to)

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str:
        """The id of a move without building it (`lazy_option`)."""
        return f"move:{flock}/{size}@{hex}->{to}"


@_register
@dataclass(frozen=True)
class PushKiwi(Action):
    """Push this Kiwi to `to` (`off`: off the island into its owner's Reserve, R-PUSH-1..3)."""

    kind: ClassVar[str] = "push"
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    def id(self) -> str:
        return f"push:{self.flock}/{self.size}@{self.hex}->{self.to}"


def where(action: Action) -> str | None:
    """The hex an action ends at (its `to`, else its `hex`), None for actions without a place."""
    to = getattr(action, "to", None)
    return to if to is not None else getattr(action, "hex", None)
