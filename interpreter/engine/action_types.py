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
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from kcd.engine.fastinit import fast_init

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


def _kind(class_name: str, kind: str, fields: str, form: str, doc: str) -> type[Action]:
    """Declare an action kind: `fields` as `name:type` words, `form` its id with `{field}` slots (the grammar of
    docs/ACTIONS.md). The id is compiled once into a function (`id_of`), as fast as a hand-written f-string."""
    typed = dict(f.partition(":")[::2] for f in fields.split())   # {"kiwi": "int", ...}
    names = list(typed)
    own = re.sub(r"\{(\w+)\}", r"{self.\1}", form)
    namespace: dict[str, Any] = {}
    # `form` is a literal of this module (never content): compiled once into two f-string functions
    exec(f"def id_of({', '.join(names)}):\n    return f{form!r}\n"
         f"def id(self):\n    return f{own!r}\n", namespace)
    body: dict[str, Any] = {
        "__annotations__": typed,
        "__doc__": doc, "kind": kind, "doc": doc, "id_of": staticmethod(namespace["id_of"]), "id": namespace["id"],
        "__module__": __name__, "__qualname__": class_name,
    }
    return _register(dataclass(frozen=True)(type(class_name, (Action,), body)))


# words: ids without fields
_WORDS = [("play", "Play the chosen card as its action."),
          ("facedown", "Play the chosen card face down (R-ACT-2)."),
          ("benefit", "Take the chosen Wildcard's benefit (R-WILD-1)."),
          ("ability", "Use the Leader's ability as a Move action (R-LEAD-2)."),
          ("stop", "Stop: no more moves, pushes or Leader steps."),
          ("pass", "Place no domain marker (R-DM-1)."),
          ("take", "Take a tied Season card's benefit (R-SCARD-2)."),
          ("decline", "Decline a tied Season card's benefit (R-SCARD-2).")]
for _name, _doc in _WORDS:
    _kind(f"Word_{_name}", _name, "", _name, _doc)
WORDS = tuple(name for name, _ in _WORDS)


def word(name: str) -> Action:
    """The field-less action `name` (`stop`, `pass`, …)."""
    return KINDS[name]()


# choices with one value
Card = _kind("Card", "card", "card:str", "card:{card}", "Choose an Action card from the hand (R-ACT-1).")
PlayAs = _kind("PlayAs", "as", "action_type:str", "as:{action_type}",
               "Play a Wildcard as an action card of this type (R-WILD-1).")
Extra = _kind("Extra", "extra", "choice:str", "extra:{choice}",
              "Pay for another Move action (`move`) or stop (`stop`) (R-MOVE-3).")
Choice = _kind("Choice", "choice", "index:int", "choice:{index}",
               "Pick alternative `index` (1-based) of a `choose { … } or { … }` effect.")
Nest = _kind("Nest", "nest", "nest:str", "nest:{nest}",
             "Choose a Nest: which to build (R-BUILD-1), or whose Season Change benefit comes next (R-SC-3).")
ReturnMarker = _kind("ReturnMarker", "return-marker", "terrain:str", "return:{terrain}",
                     "Return a domain marker of this terrain to the bag.")
ReturnFruit = _kind("ReturnFruit", "return-fruit", "fruit:str", "return:{fruit}",
                    "Return a fruit of this colour over the fruit limit (R-LIMIT-1).")
Slot = _kind("Slot", "slot", "slot:int", "slot:{slot}", "Put the turn tracker token on this slot (R-VTO-3).")
SeasonCard = _kind("SeasonCard", "season-card", "card:str", "season-card:{card}",
                   "Solo: the Season card the player competes for this season (R-SOLO-5).")
CoverFrom = _kind("CoverFrom", "cover-from", "source:str", "cover:{source}",
                  "Cover a placed domain marker with a token from the `reserve` or the `track` (R-DM-3).")
TakeNoToken = _kind("TakeNoToken", "take-none", "", "take:none",
                    "Take no token from the island (the Kiwi is not placed, R-RES-2).")


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
Place = _kind("Place", "place", "hex:str", "place:{hex}", "Place a new size-1 Kiwi on this hex (R-RES-3).")
Mark = _kind("Mark", "mark", "hex:str", "mark:{hex}", "Place a domain marker on this hex (R-DM-2).")
Build = _kind("Build", "build", "hex:str", "build:{hex}", "Build a Nest on this hex (R-BUILD-1).")
SetupLeader = _kind("SetupLeader", "setup-leader", "hex:str", "setup-leader:{hex}",
                    "Advanced setup: the Leader starts on this hex (R-SETUP-6).")
SetupPlace = _kind("SetupPlace", "setup-place", "hex:str", "setup-place:{hex}",
                   "Advanced setup: a Kiwi starts on this hex (R-SETUP-6).")

# a hex to another (`to` may be `off`: off the island)
MoveLeader = _kind("MoveLeader", "move-leader", "hex:str to:str", "move:leader@{hex}->{to}",
                   "Move the own Leader from `hex` to the adjacent `to` (R-LEAD-1).")
LeaderTo = _kind("LeaderTo", "leader", "hex:str to:str", "leader:{hex}->{to}",
                 "A Leader ability's landing hex: from `hex` to `to` (straight line or jump).")
Step = _kind("Step", "step", "hex:str to:str", "step:{hex}->{to}",
             "One step of a walking Leader ability, from `hex` to the adjacent `to`.")
PushLeader = _kind("PushLeader", "push-leader", "flock:str hex:str to:str", "push:leader-{flock}@{hex}->{to}",
                   "Push `flock`'s Leader from `hex` to `to` (`off`: off the island, R-LEAD-4).")
Edge = _kind("Edge", "edge", "flock:str to:str", "edge:{flock}->{to}",
             "Where `flock`'s Leader pushed off the island lands: the edge hex `to` (R-LEAD-4).")

# a Kiwi, named by piece id (`kiwi`); the id shows flock/size@hex
_KIWI = "kiwi:int flock:str size:int hex:str"
TakeToken = _kind("TakeToken", "take-token", _KIWI, "take:{flock}/{size}@{hex}",
                  "Take a token from this Kiwi for a new Kiwi or a growth (R-RES-2).")
Grow = _kind("Grow", "grow", _KIWI, "grow:{flock}/{size}@{hex}", "Grow this own Kiwi by one size.")
Remove = _kind("Remove", "remove", _KIWI, "remove:{flock}/{size}@{hex}", "Remove this own Kiwi to the Reserve.")
Cover = _kind("Cover", "cover", _KIWI, "cover:{flock}/{size}@{hex}",
              "Cover a placed marker with a token from this Kiwi (R-DM-3).")
Feed = _kind("Feed", "feed", _KIWI, "feed:{flock}/{size}@{hex}", "Feed this Kiwi (R-FEED-1).")
SetupGrow = _kind("SetupGrow", "setup-grow", _KIWI, "setup-grow:{flock}/{size}@{hex}",
                  "Advanced setup: grow this Kiwi (R-SETUP-6).")
MoveKiwi = _kind("MoveKiwi", "move", _KIWI + " to:str", "move:{flock}/{size}@{hex}->{to}",
                 "Move this own Kiwi to the adjacent hex `to` (R-MOVE-2).")
PushKiwi = _kind("PushKiwi", "push", _KIWI + " to:str", "push:{flock}/{size}@{hex}->{to}",
                 "Push this Kiwi to `to` (`off`: off the island into its owner's Reserve, R-PUSH-1..3).")


# the compositional effect language (interpreter/engine/compose.py): a piece a verb acts on, a player, a fruit
ChoosePlayer = _kind("ChoosePlayer", "choose-player", "flock:str", "player:{flock}",
                     "Choose the player an effect's `a chosen player` names.")
PickKiwi = _kind("PickKiwi", "pick-kiwi", "verb:str " + _KIWI, "{verb}:{flock}/{size}@{hex}",
                 "Choose the Kiwi an effect's verb (`verb`: push, grow, shrink, remove, move, swap, swap-with) acts on.")
PickLeader = _kind("PickLeader", "pick-leader", "verb:str flock:str hex:str", "{verb}:leader-{flock}@{hex}",
                   "Choose the Leader an effect's verb (`verb`: push, move, swap, swap-with) acts on.")
MoveToKiwi = _kind("MoveToKiwi", "move-to", _KIWI + " to:str", "moveto:{flock}/{size}@{hex}->{to}",
                   "An effect's `move <pieces> to <hexes>`: this Kiwi goes to `to` (no push).")
MoveToLeader = _kind("MoveToLeader", "move-to-leader", "flock:str hex:str to:str", "moveto:leader-{flock}@{hex}->{to}",
                     "An effect's `move <pieces> to <hexes>`: this Leader goes to `to` (no push).")
GiveFruit = _kind("GiveFruit", "give-fruit", "fruit:str", "return-fruit:{fruit}",
                  "An effect's `return N fruit`: return a fruit of this colour to the bag.")

def where(action: Action) -> str | None:
    """The hex an action ends at (its `to`, else its `hex`), None for actions without a place."""
    to = getattr(action, "to", None)
    return to if to is not None else getattr(action, "hex", None)
