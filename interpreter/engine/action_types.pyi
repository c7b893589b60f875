# Generated from interpreter/engine/action_types.py by tests/test_typecheck.py (KCD_REGEN_STUBS=1 to rewrite):
# the action kinds `_kind` builds at import time, spelled out for the type checker. Do not edit by hand.
from dataclasses import dataclass
from typing import Any, ClassVar

KINDS: dict[str, type[Action]]
WORDS: tuple[str, ...]


@dataclass(frozen=True)
class Action:
    kind: ClassVar[str]
    doc: ClassVar[str]

    def id(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...


def action_from_dict(data: Any) -> Action: ...
def word(name: str) -> Action: ...
def pay_id(fruit: tuple[str, ...], markers: tuple[str, ...]) -> str: ...
def where(action: Action) -> str | None: ...


@dataclass(frozen=True)
class Build(Action):
    hex: str

    @staticmethod
    def id_of(hex: str) -> str: ...


@dataclass(frozen=True)
class Card(Action):
    card: str

    @staticmethod
    def id_of(card: str) -> str: ...


@dataclass(frozen=True)
class Choice(Action):
    index: int

    @staticmethod
    def id_of(index: int) -> str: ...


@dataclass(frozen=True)
class ChoosePlayer(Action):
    flock: str

    @staticmethod
    def id_of(flock: str) -> str: ...


@dataclass(frozen=True)
class Cover(Action):
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str: ...


@dataclass(frozen=True)
class CoverFrom(Action):
    source: str

    @staticmethod
    def id_of(source: str) -> str: ...


@dataclass(frozen=True)
class Edge(Action):
    flock: str
    to: str

    @staticmethod
    def id_of(flock: str, to: str) -> str: ...


@dataclass(frozen=True)
class Extra(Action):
    choice: str

    @staticmethod
    def id_of(choice: str) -> str: ...


@dataclass(frozen=True)
class Feed(Action):
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str: ...


@dataclass(frozen=True)
class GiveFruit(Action):
    fruit: str

    @staticmethod
    def id_of(fruit: str) -> str: ...


@dataclass(frozen=True)
class Grow(Action):
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str: ...


@dataclass(frozen=True)
class LeaderTo(Action):
    hex: str
    to: str

    @staticmethod
    def id_of(hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class Mark(Action):
    hex: str

    @staticmethod
    def id_of(hex: str) -> str: ...


@dataclass(frozen=True)
class May(Action):
    yes: bool


@dataclass(frozen=True)
class MoveKiwi(Action):
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class MoveLeader(Action):
    hex: str
    to: str

    @staticmethod
    def id_of(hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class MoveToKiwi(Action):
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class MoveToLeader(Action):
    flock: str
    hex: str
    to: str

    @staticmethod
    def id_of(flock: str, hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class Nest(Action):
    nest: str

    @staticmethod
    def id_of(nest: str) -> str: ...


@dataclass(frozen=True)
class Pay(Action):
    fruit: tuple[str, ...]
    markers: tuple[str, ...]


@dataclass(frozen=True)
class PickKiwi(Action):
    verb: str
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(verb: str, kiwi: int, flock: str, size: int, hex: str) -> str: ...


@dataclass(frozen=True)
class PickLeader(Action):
    verb: str
    flock: str
    hex: str

    @staticmethod
    def id_of(verb: str, flock: str, hex: str) -> str: ...


@dataclass(frozen=True)
class Place(Action):
    hex: str

    @staticmethod
    def id_of(hex: str) -> str: ...


@dataclass(frozen=True)
class PlayAs(Action):
    action_type: str

    @staticmethod
    def id_of(action_type: str) -> str: ...


@dataclass(frozen=True)
class PushKiwi(Action):
    kiwi: int
    flock: str
    size: int
    hex: str
    to: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class PushLeader(Action):
    flock: str
    hex: str
    to: str

    @staticmethod
    def id_of(flock: str, hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class Remove(Action):
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str: ...


@dataclass(frozen=True)
class ReturnFruit(Action):
    fruit: str

    @staticmethod
    def id_of(fruit: str) -> str: ...


@dataclass(frozen=True)
class ReturnMarker(Action):
    terrain: str

    @staticmethod
    def id_of(terrain: str) -> str: ...


@dataclass(frozen=True)
class SeasonCard(Action):
    card: str

    @staticmethod
    def id_of(card: str) -> str: ...


@dataclass(frozen=True)
class SetupGrow(Action):
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str: ...


@dataclass(frozen=True)
class SetupLeader(Action):
    hex: str

    @staticmethod
    def id_of(hex: str) -> str: ...


@dataclass(frozen=True)
class SetupPlace(Action):
    hex: str

    @staticmethod
    def id_of(hex: str) -> str: ...


@dataclass(frozen=True)
class Slot(Action):
    slot: int

    @staticmethod
    def id_of(slot: int) -> str: ...


@dataclass(frozen=True)
class Step(Action):
    hex: str
    to: str

    @staticmethod
    def id_of(hex: str, to: str) -> str: ...


@dataclass(frozen=True)
class TakeNoToken(Action):
    pass

    @staticmethod
    def id_of() -> str: ...


@dataclass(frozen=True)
class TakeToken(Action):
    kiwi: int
    flock: str
    size: int
    hex: str

    @staticmethod
    def id_of(kiwi: int, flock: str, size: int, hex: str) -> str: ...
