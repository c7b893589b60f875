"""Typed actions: what an option does, as a frozen value (python-chess's `Move`), and its id grammar.

Every `Option` carries an `action`; `action.id()` writes it in the option-id grammar of docs/ACTIONS.md
(`move:red/2@A3->A4`, `pay:red,marker-sand`, `stop` …), which is the option id. Procedures, Kiwibot, bots and
the editor read the action's fields; nothing parses an id. A Kiwi is named by its piece id (`kiwi`) and, for
the readable id, by flock, size and hex: identical Kiwi in one hex ("twins") share an id, so they are one
choice, and the action names the very piece the engine moves.

Each kind is a frozen dataclass with slots, written out below: its `kind` (the JSON tag), its fields, `id()` and,
for every kind but `may` and `pay`, `id_of(...)`, the same id from the field values without building the action
(a decision offers dozens of options and only the chosen one's action is built). `KINDS` lists them in this
file's order, which is the order of the protocol's schemas and of the RL action space's blocks.

`action.to_dict()` / `action_from_dict(d)` are the JSON form: `{"kind": "move", "kiwi": 12, ...}`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from kcd.core.fastinit import frozen_slots

KINDS: dict[str, type["Action"]] = {}

K = TypeVar("K", bound="type[Action]")


def _register(cls: K) -> K:
    """Add a kind to KINDS, its docstring as its `doc`, made ready by `frozen_slots` (a faster __init__: a game
    builds thousands of actions)."""
    frozen_slots(cls)
    cls.doc = cls.__doc__ or ""
    KINDS[cls.kind] = cls
    return cls


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action kind: `kind` names it, the dataclass fields carry its values, and each kind's
    `id()` writes it in the grammar (no abc.ABC: its instance check would double the cost of building the
    thousands of options a game offers)."""

    kind: ClassVar[str] = ""
    doc: ClassVar[str] = ""

    def id(self) -> str:
        """The option id of this action (docs/ACTIONS.md's grammar)."""
        raise NotImplementedError(type(self).__name__)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data: `kind` plus the fields (tuples as lists)."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool, "tuple[str, ...]": tuple}


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
    values: dict[str, Any] = {}
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


# words: ids without fields
@_register
@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play the chosen card as its action."""

    kind: ClassVar[str] = "play"

    @staticmethod
    def id_of() -> str:
        """The id of the `play` action."""
        return "play"

    def id(self) -> str:
        return "play"


@_register
@dataclass(frozen=True, slots=True)
class FaceDown(Action):
    """Play the chosen card face down (R-ACT-2)."""

    kind: ClassVar[str] = "facedown"

    @staticmethod
    def id_of() -> str:
        """The id of the `facedown` action."""
        return "facedown"

    def id(self) -> str:
        return "facedown"


@_register
@dataclass(frozen=True, slots=True)
class Benefit(Action):
    """Take the chosen Wildcard's benefit (R-WILD-1)."""

    kind: ClassVar[str] = "benefit"

    @staticmethod
    def id_of() -> str:
        """The id of the `benefit` action."""
        return "benefit"

    def id(self) -> str:
        return "benefit"


@_register
@dataclass(frozen=True, slots=True)
class Ability(Action):
    """Use the Leader's ability as a Move action (R-LEAD-2)."""

    kind: ClassVar[str] = "ability"

    @staticmethod
    def id_of() -> str:
        """The id of the `ability` action."""
        return "ability"

    def id(self) -> str:
        return "ability"


@_register
@dataclass(frozen=True, slots=True)
class Stop(Action):
    """Stop: no more moves, pushes or Leader steps."""

    kind: ClassVar[str] = "stop"

    @staticmethod
    def id_of() -> str:
        """The id of the `stop` action."""
        return "stop"

    def id(self) -> str:
        return "stop"


@_register
@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Place no domain marker (R-DM-1)."""

    kind: ClassVar[str] = "pass"

    @staticmethod
    def id_of() -> str:
        """The id of the `pass` action."""
        return "pass"

    def id(self) -> str:
        return "pass"


@_register
@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take a tied Season card's benefit (R-SCARD-2)."""

    kind: ClassVar[str] = "take"

    @staticmethod
    def id_of() -> str:
        """The id of the `take` action."""
        return "take"

    def id(self) -> str:
        return "take"


@_register
@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline a tied Season card's benefit (R-SCARD-2)."""

    kind: ClassVar[str] = "decline"

    @staticmethod
    def id_of() -> str:
        """The id of the `decline` action."""
        return "decline"

    def id(self) -> str:
        return "decline"


# choices with one value
@_register
@dataclass(frozen=True, slots=True)
class Card(Action):
    """Choose an Action card from the hand (R-ACT-1)."""

    kind: ClassVar[str] = "card"
    card: str

    @staticmethod
    def id_of(card: str) -> str:
        """The id of the `card` action of these field values, without building it."""
        return f"card:{card}"

    def id(self) -> str:
        return f"card:{self.card}"


@_register
@dataclass(frozen=True, slots=True)
class PlayAs(Action):
    """Play a Wildcard as an action card of this type (R-WILD-1)."""

    kind: ClassVar[str] = "as"
    action_type: str

    @staticmethod
    def id_of(action_type: str) -> str:
        """The id of the `as` action of these field values, without building it."""
        return f"as:{action_type}"

    def id(self) -> str:
        return f"as:{self.action_type}"


@_register
@dataclass(frozen=True, slots=True)
class Extra(Action):
    """Pay for another Move action (`move`) or stop (`stop`) (R-MOVE-3)."""

    kind: ClassVar[str] = "extra"
    choice: str

    @staticmethod
    def id_of(choice: str) -> str:
        """The id of the `extra` action of these field values, without building it."""
        return f"extra:{choice}"

    def id(self) -> str:
        return f"extra:{self.choice}"


@_register
@dataclass(frozen=True, slots=True)
class Choice(Action):
    """Pick alternative `index` (1-based) of a `choose { … } or { … }` effect."""

    kind: ClassVar[str] = "choice"
    index: int

    @staticmethod
    def id_of(index: int) -> str:
        """The id of the `choice` action of these field values, without building it."""
        return f"choice:{index}"

    def id(self) -> str:
        return f"choice:{self.index}"


@_register
@dataclass(frozen=True, slots=True)
class Nest(Action):
    """Choose a Nest: which to build (R-BUILD-1), or whose Season Change benefit comes next (R-SC-3)."""

    kind: ClassVar[str] = "nest"
    nest: str

    @staticmethod
    def id_of(nest: str) -> str:
        """The id of the `nest` action of these field values, without building it."""
        return f"nest:{nest}"

    def id(self) -> str:
        return f"nest:{self.nest}"


@_register
@dataclass(frozen=True, slots=True)
class ReturnMarker(Action):
    """Return a domain marker of this terrain to the bag."""

    kind: ClassVar[str] = "return-marker"
    terrain: str

    @staticmethod
    def id_of(terrain: str) -> str:
        """The id of the `return-marker` action of these field values, without building it."""
        return f"return:{terrain}"

    def id(self) -> str:
        return f"return:{self.terrain}"


@_register
@dataclass(frozen=True, slots=True)
class ReturnFruit(Action):
    """Return a fruit of this colour over the fruit limit (R-LIMIT-1)."""

    kind: ClassVar[str] = "return-fruit"
    fruit: str

    @staticmethod
    def id_of(fruit: str) -> str:
        """The id of the `return-fruit` action of these field values, without building it."""
        return f"return:{fruit}"

    def id(self) -> str:
        return f"return:{self.fruit}"


@_register
@dataclass(frozen=True, slots=True)
class Slot(Action):
    """Put the turn tracker token on this slot (R-VTO-3)."""

    kind: ClassVar[str] = "slot"
    slot: int

    @staticmethod
    def id_of(slot: int) -> str:
        """The id of the `slot` action of these field values, without building it."""
        return f"slot:{slot}"

    def id(self) -> str:
        return f"slot:{self.slot}"


@_register
@dataclass(frozen=True, slots=True)
class SeasonCard(Action):
    """Solo: the Season card the player competes for this season (R-SOLO-5)."""

    kind: ClassVar[str] = "season-card"
    card: str

    @staticmethod
    def id_of(card: str) -> str:
        """The id of the `season-card` action of these field values, without building it."""
        return f"season-card:{card}"

    def id(self) -> str:
        return f"season-card:{self.card}"


@_register
@dataclass(frozen=True, slots=True)
class CoverFrom(Action):
    """Cover a placed domain marker with a token from the `reserve` or the `track` (R-DM-3)."""

    kind: ClassVar[str] = "cover-from"
    source: str

    @staticmethod
    def id_of(source: str) -> str:
        """The id of the `cover-from` action of these field values, without building it."""
        return f"cover:{source}"

    def id(self) -> str:
        return f"cover:{self.source}"


@_register
@dataclass(frozen=True, slots=True)
class TakeNoToken(Action):
    """Take no token from the island (the Kiwi is not placed, R-RES-2)."""

    kind: ClassVar[str] = "take-none"

    @staticmethod
    def id_of() -> str:
        """The id of the `take-none` action."""
        return "take:none"

    def id(self) -> str:
        return "take:none"


@_register
@dataclass(frozen=True, slots=True)
class May(Action):
    """Take (`yes`) or skip an optional effect (`may { … }`)."""

    kind: ClassVar[str] = "may"
    yes: bool

    def id(self) -> str:
        return "may:yes" if self.yes else "may:no"


@_register
@dataclass(frozen=True, slots=True)
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


# a hex
@_register
@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place a new size-1 Kiwi on this hex (R-RES-3)."""

    kind: ClassVar[str] = "place"
    hex: str

    @staticmethod
    def id_of(hex: str) -> str:
        """The id of the `place` action of these field values, without building it."""
        return f"place:{hex}"

    def id(self) -> str:
        return f"place:{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class Mark(Action):
    """Place a domain marker on this hex (R-DM-2)."""

    kind: ClassVar[str] = "mark"
    hex: str

    @staticmethod
    def id_of(hex: str) -> str:
        """The id of the `mark` action of these field values, without building it."""
        return f"mark:{hex}"

    def id(self) -> str:
        return f"mark:{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class Build(Action):
    """Build a Nest on this hex (R-BUILD-1)."""

    kind: ClassVar[str] = "build"
    hex: str

    @staticmethod
    def id_of(hex: str) -> str:
        """The id of the `build` action of these field values, without building it."""
        return f"build:{hex}"

    def id(self) -> str:
        return f"build:{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class SetupLeader(Action):
    """Advanced setup: the Leader starts on this hex (R-SETUP-6)."""

    kind: ClassVar[str] = "setup-leader"
    hex: str

    @staticmethod
    def id_of(hex: str) -> str:
        """The id of the `setup-leader` action of these field values, without building it."""
        return f"setup-leader:{hex}"

    def id(self) -> str:
        return f"setup-leader:{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class SetupPlace(Action):
    """Advanced setup: a Kiwi starts on this hex (R-SETUP-6)."""

    kind: ClassVar[str] = "setup-place"
    hex: str

    @staticmethod
    def id_of(hex: str) -> str:
        """The id of the `setup-place` action of these field values, without building it."""
        return f"setup-place:{hex}"

    def id(self) -> str:
        return f"setup-place:{self.hex}"


# a hex to another (`to` may be `off`: off the island)
@_register
@dataclass(frozen=True, slots=True)
class MoveLeader(Action):
    """Move the own Leader from `hex` to the adjacent `to` (R-LEAD-1)."""

    kind: ClassVar[str] = "move-leader"
    hex: str
    to: str

    @staticmethod
    def id_of(hex: str, to: str) -> str:
        """The id of the `move-leader` action of these field values, without building it."""
        return f"move:leader@{hex}->{to}"

    def id(self) -> str:
        return f"move:leader@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class LeaderTo(Action):
    """A Leader ability's landing hex: from `hex` to `to` (straight line or jump)."""

    kind: ClassVar[str] = "leader"
    hex: str
    to: str

    @staticmethod
    def id_of(hex: str, to: str) -> str:
        """The id of the `leader` action of these field values, without building it."""
        return f"leader:{hex}->{to}"

    def id(self) -> str:
        return f"leader:{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class Step(Action):
    """One step of a walking Leader ability, from `hex` to the adjacent `to`."""

    kind: ClassVar[str] = "step"
    hex: str
    to: str

    @staticmethod
    def id_of(hex: str, to: str) -> str:
        """The id of the `step` action of these field values, without building it."""
        return f"step:{hex}->{to}"

    def id(self) -> str:
        return f"step:{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class PushLeader(Action):
    """Push `flock`'s Leader from `hex` to `to` (`off`: off the island, R-LEAD-4)."""

    kind: ClassVar[str] = "push-leader"
    flock: str
    hex: str
    to: str

    @staticmethod
    def id_of(flock: str, hex: str, to: str) -> str:
        """The id of the `push-leader` action of these field values, without building it."""
        return f"push:leader-{flock}@{hex}->{to}"

    def id(self) -> str:
        return f"push:leader-{self.flock}@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class Edge(Action):
    """Where `flock`'s Leader pushed off the island lands: the edge hex `to` (R-LEAD-4)."""

    kind: ClassVar[str] = "edge"
    flock: str
    to: str

    @staticmethod
    def id_of(flock: str, to: str) -> str:
        """The id of the `edge` action of these field values, without building it."""
        return f"edge:{flock}->{to}"

    def id(self) -> str:
        return f"edge:{self.flock}->{self.to}"


# a Kiwi, named by piece id (`kiwi`); the id shows flock/size@hex
@_register
@dataclass(frozen=True, slots=True)
class TakeToken(Action):
    """Take a token from this Kiwi for a new Kiwi or a growth (R-RES-2)."""

    kind: ClassVar[str] = "take-token"
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `take-token` action of these field values, without building it."""
        return f"take:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"take:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class Grow(Action):
    """Grow this own Kiwi by one size."""

    kind: ClassVar[str] = "grow"
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `grow` action of these field values, without building it."""
        return f"grow:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"grow:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class Remove(Action):
    """Remove this own Kiwi to the Reserve."""

    kind: ClassVar[str] = "remove"
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `remove` action of these field values, without building it."""
        return f"remove:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"remove:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class Cover(Action):
    """Cover a placed marker with a token from this Kiwi (R-DM-3)."""

    kind: ClassVar[str] = "cover"
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `cover` action of these field values, without building it."""
        return f"cover:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"cover:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class Feed(Action):
    """Feed this Kiwi (R-FEED-1)."""

    kind: ClassVar[str] = "feed"
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `feed` action of these field values, without building it."""
        return f"feed:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"feed:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class SetupGrow(Action):
    """Advanced setup: grow this Kiwi (R-SETUP-6)."""

    kind: ClassVar[str] = "setup-grow"
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `setup-grow` action of these field values, without building it."""
        return f"setup-grow:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"setup-grow:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class MoveKiwi(Action):
    """Move this own Kiwi to the adjacent hex `to` (R-MOVE-2)."""

    kind: ClassVar[str] = "move"
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str:
        """The id of the `move` action of these field values, without building it."""
        return f"move:{flock}/{size}@{hex}->{to}"

    def id(self) -> str:
        return f"move:{self.flock}/{self.size}@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class PushKiwi(Action):
    """Push this Kiwi to `to` (`off`: off the island into its owner's Reserve, R-PUSH-1..3)."""

    kind: ClassVar[str] = "push"
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str:
        """The id of the `push` action of these field values, without building it."""
        return f"push:{flock}/{size}@{hex}->{to}"

    def id(self) -> str:
        return f"push:{self.flock}/{self.size}@{self.hex}->{self.to}"


# the compositional effect language (interpreter/engine/compose.py): a piece a verb acts on, a player, a fruit
@_register
@dataclass(frozen=True, slots=True)
class ChoosePlayer(Action):
    """Choose the player an effect's `a chosen player` names."""

    kind: ClassVar[str] = "choose-player"
    flock: str

    @staticmethod
    def id_of(flock: str) -> str:
        """The id of the `choose-player` action of these field values, without building it."""
        return f"player:{flock}"

    def id(self) -> str:
        return f"player:{self.flock}"


@_register
@dataclass(frozen=True, slots=True)
class PickKiwi(Action):
    """Choose the Kiwi an effect's verb (`verb`: push, grow, shrink, remove, move, swap, swap-with) acts on."""

    kind: ClassVar[str] = "pick-kiwi"
    verb: str
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(verb: str, kiwi: int, flock: str, size: int, hex: str) -> str:
        """The id of the `pick-kiwi` action of these field values, without building it."""
        return f"{verb}:{flock}/{size}@{hex}"

    def id(self) -> str:
        return f"{self.verb}:{self.flock}/{self.size}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class PickLeader(Action):
    """Choose the Leader an effect's verb (`verb`: push, move, swap, swap-with) acts on."""

    kind: ClassVar[str] = "pick-leader"
    verb: str
    flock: str
    hex: str

    @staticmethod
    def id_of(verb: str, flock: str, hex: str) -> str:
        """The id of the `pick-leader` action of these field values, without building it."""
        return f"{verb}:leader-{flock}@{hex}"

    def id(self) -> str:
        return f"{self.verb}:leader-{self.flock}@{self.hex}"


@_register
@dataclass(frozen=True, slots=True)
class MoveToKiwi(Action):
    """An effect's `move <pieces> to <hexes>`: this Kiwi goes to `to` (no push)."""

    kind: ClassVar[str] = "move-to"
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str:
        """The id of the `move-to` action of these field values, without building it."""
        return f"moveto:{flock}/{size}@{hex}->{to}"

    def id(self) -> str:
        return f"moveto:{self.flock}/{self.size}@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class MoveToLeader(Action):
    """An effect's `move <pieces> to <hexes>`: this Leader goes to `to` (no push)."""

    kind: ClassVar[str] = "move-to-leader"
    flock: str
    hex: str
    to: str

    @staticmethod
    def id_of(flock: str, hex: str, to: str) -> str:
        """The id of the `move-to-leader` action of these field values, without building it."""
        return f"moveto:leader-{flock}@{hex}->{to}"

    def id(self) -> str:
        return f"moveto:leader-{self.flock}@{self.hex}->{self.to}"


@_register
@dataclass(frozen=True, slots=True)
class GiveFruit(Action):
    """An effect's `return N fruit`: return a fruit of this colour to the bag."""

    kind: ClassVar[str] = "give-fruit"
    fruit: str

    @staticmethod
    def id_of(fruit: str) -> str:
        """The id of the `give-fruit` action of these field values, without building it."""
        return f"return-fruit:{fruit}"

    def id(self) -> str:
        return f"return-fruit:{self.fruit}"


WORDS = ("play", "facedown", "benefit", "ability", "stop", "pass", "take", "decline")


def word(name: str) -> Action:
    """The field-less action `name` (`stop`, `pass`, …)."""
    return KINDS[name]()


def where(action: Action) -> str | None:
    """The hex an action ends at (its `to`, else its `hex`), None for actions without a place."""
    to = getattr(action, "to", None)
    return to if to is not None else getattr(action, "hex", None)
