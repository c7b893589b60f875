"""The loaded, validated content: `Item`, `Pack` and the immutable `Ruleset` the engine and editor read."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

# The item kinds of SPEC.md "Ruleset", in the order rules text and the editor list them.
KINDS: tuple[str, ...] = (
    "action_cards", "nests", "flocks", "leaders", "leader_cards", "season_cards",
    "turn_order_nests", "tracker_slots", "sections", "layouts", "setups", "solo_cards",
)


@dataclass(frozen=True)
class Origin:
    """Where an item was first defined: its pack, file and line."""

    pack: str
    file: str
    line: int


@dataclass(frozen=True)
class Item:
    """One content item: data with DSL fields compiled to bound AST nodes, and the raw data as written."""

    kind: str
    id: str
    data: dict[str, Any]
    raw: dict[str, Any]
    origin: Origin
    overrides: tuple[str, ...] = ()
    parent: str | None = None  # leader_cards: the leader id


@dataclass(frozen=True)
class Pack:
    """An overlay pack (`content/editions/<id>/` or `content/mods/<id>/`) as its pack.yaml describes it."""

    id: str
    name: str
    kind: str  # "edition" | "mod"
    path: Path
    description: str = ""
    source: str = ""


@dataclass(frozen=True)
class Ruleset:
    """A validated, merged content set: the game parameters and every item by kind; immutable."""

    game: Mapping[str, Any]
    hash: str
    packs: tuple[Pack, ...]
    root: Path
    _items: Mapping[str, tuple[Item, ...]] = field(repr=False, default_factory=dict)
    raw_game: Mapping[str, Any] = field(repr=False, default_factory=dict)
    solo: Mapping[str, Any] = field(repr=False, default_factory=dict)  # solo.yaml marker and patterns
    files: tuple[str, ...] = field(repr=False, default=())  # the content files merged, in load order
    _index: dict[tuple[str, str], Item] = field(init=False, repr=False, compare=False)   # (kind, id) -> item

    def __post_init__(self) -> None:
        object.__setattr__(self, "_items", MappingProxyType(dict(self._items)))
        index = {(kind, item.id): item for kind, items in self._items.items() for item in items}
        object.__setattr__(self, "_index", index)

    def kinds(self) -> tuple[str, ...]:
        """The item kinds of a ruleset."""
        return KINDS

    def items(self, kind: str) -> list[Item]:
        """Items of `kind` in file order (KeyError for an unknown kind)."""
        if kind not in KINDS:
            raise KeyError(f"unknown item kind {kind!r}; kinds: {', '.join(KINDS)}")
        return list(self._items.get(kind, ()))

    def item(self, kind: str, item_id: str) -> Item:
        """The item of `kind` with this id (KeyError if none)."""
        try:
            return self._index[(kind, str(item_id))]
        except KeyError:
            raise KeyError(f"no {kind} item {item_id!r}") from None

    @property
    def pack_ids(self) -> tuple[str, ...]:
        """Ids of the overlay packs applied, in order."""
        return tuple(p.id for p in self.packs)

    @property
    def item_count(self) -> int:
        """How many items the ruleset holds."""
        return sum(len(v) for v in self._items.values())
