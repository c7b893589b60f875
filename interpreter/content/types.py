"""The content kinds as the engine reads them: frozen dataclasses compiled once from a Ruleset (rules.py).

Each field is what the schema allows, already converted (numbers as int, lists as tuples, DSL text as bound
AST nodes), so the procedures read attributes, never dict keys, and a bad value is refused when the content
is loaded (`RulesError` located at its file and key path), not when a game reaches it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

from kcd.dsl.ast import Call, Node, Objective, Phrase

# A bound DSL field: an effect, cost, ability, objective, trigger or modifier node; None where content has none.
Dsl = Union[Node, None]


@dataclass(frozen=True)
class ActionCard:
    """An action card (R-ACT-1, R-WILD-1): its type, the effect it resolves, a Wildcard's modes and benefit."""

    id: str
    type: str                      # move | build | feed | wild
    name: str | None = None
    effect: Dsl = None             # move / build / feed cards
    play_as: tuple[str, ...] = ()  # a Wildcard: the action types it may be played as
    benefit: Dsl = None            # a Wildcard: what it gives when played as itself


@dataclass(frozen=True)
class Nest:
    """A Nest of a flock board (R-BUILD-1..4): type and row, cost, benefits, VP and dominance."""

    id: str
    type: str                      # tree | control | cave
    row: int
    cost: Dsl
    on_place: Dsl
    on_season_change: Dsl
    vp: int
    dominance: int                 # tokens it counts for its owner in its hex (R-SCARD-4)
    name: str | None = None


@dataclass(frozen=True)
class LeaderCard:
    """A Leader card (R-LEAD-1..6): the ability it gives its Leader."""

    id: str
    name: str
    ability: Dsl
    leader: str                    # the id of the Leader it belongs to


@dataclass(frozen=True)
class Leader:
    """A Leader with its two Leader cards (R-LEAD-1)."""

    id: str
    name: str
    cards: tuple[LeaderCard, ...]

    @property
    def card_ids(self) -> list[str]:
        """The ids of its cards, in content order."""
        return [c.id for c in self.cards]


@dataclass(frozen=True)
class SeasonCard:
    """A Season card (R-SCARD-1..5): its objective, the victor's benefit and the others' (None: no benefit)."""

    id: str
    objective: Objective
    victor: Dsl
    others: Dsl
    name: str | None = None


@dataclass(frozen=True)
class TurnOrderNest:
    """A Turn Order nest (R-SETUP-4): the seat it gives and the starting resources."""

    id: str
    seat: int
    setup: Dsl


@dataclass(frozen=True)
class TrackerSlot:
    """A Variable Turn Order tracker slot (R-VTO-1..5): its order and what taking it gives or costs."""

    id: str
    slot: int
    effect: Dsl


@dataclass(frozen=True)
class Power:
    """A side-B flock power: a trigger with its effect, or a modifier."""

    trigger: str | None            # the trigger primitive id
    effect: Dsl
    modifier: str | None           # the modifier primitive id
    when: Call | Phrase | None = None            # the bound trigger (its filters, for compositional triggers)
    modifier_node: Call | Phrase | None = None   # the bound modifier (its values, e.g. `push limit 3`)


@dataclass(frozen=True)
class Side:
    """One side of a flock board (R-ASYM-1..4)."""

    extra_move: Dsl                      # the paid extra Move's cost (R-MOVE-3)
    track: Mapping[int, Dsl]             # Kiwi track slot -> benefit effect (None for no icon, R-TRACK-1)
    powers: tuple[Power, ...]


@dataclass(frozen=True)
class HexSpec:
    """One hex of an island section, in the section's own axial coordinates."""

    id: str
    q: int
    r: int
    terrain: str


@dataclass(frozen=True)
class Section:
    """An island section (R-SETUP-1)."""

    id: str
    hexes: tuple[HexSpec, ...]


@dataclass(frozen=True)
class Placement:
    """A section of a layout, shifted by an axial offset."""

    section: str
    dq: int
    dr: int


@dataclass(frozen=True)
class Layout:
    """The island for one player count: which sections, where (R-SETUP-1)."""

    id: str
    players: int
    sections: tuple[Placement, ...]


@dataclass(frozen=True)
class SeatStart:
    """One seat's first-game position: its Leader's hex and Kiwi stack sizes per hex (R-SETUP-5)."""

    seat: int
    leader: str
    kiwi: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class FirstGameSetup:
    """The first-game starting positions of a layout (R-SETUP-5)."""

    id: str
    layout: str
    seats: tuple[SeatStart, ...]


@dataclass(frozen=True)
class AdvancedStep:
    """One step of game.yaml `setup.advanced` (R-SETUP-6, Z-2)."""

    step: str                      # leader | place | grow
    hex: str = "any"               # empty | without_own | with_own | any
    kiwi: int = 0                  # leader: Kiwi placed with the Leader
    until: int | None = None       # place: round the table until each has this many Kiwi on the island
    count: int = 0                 # place / grow: how many each places or grows


@dataclass(frozen=True)
class SoloCard:
    """A Solo card (R-SOLO-7/8): per row (the revealed card's type) the segments of columns 1-3 and the bonus."""

    id: str
    number: int
    sections: Mapping[str, tuple[Dsl, ...]]


@dataclass(frozen=True)
class SoloSetup:
    """The numbers of solo.yaml `setup` (R-SOLO-1..6)."""

    solo_cards: int
    set_aside: int
    kiwibot_seat: int              # 1 or 2
    kiwibot_fruit: bool
    kiwibot_setup: Dsl
    season_cards_per_season: int
    kiwibot_wins_ties: bool
    vp_per_kept_card: int
    domain_per_vp: int


@dataclass(frozen=True)
class MarkerSide:
    """A side of the Solo-mode marker (R-SOLO-12): whose Leader starts the search, in which directions."""

    id: str
    start: str                     # own_leader | player_leader
    sequence: tuple[str, ...]      # `here` and directions


@dataclass(frozen=True)
class Solo:
    """Solo mode's content (solo.yaml without its cards): setup numbers, marker sides, Kiwibot patterns."""

    setup: SoloSetup
    sides: Mapping[str, MarkerSide]
    patterns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)   # R-SOLO-11: pattern id -> steps


# The directions a Solo-mode marker side may list after `here`, clockwise on the table (R-SOLO-12; modes/solo/marker.py
# gives their axial steps).
SOLO_MARKER_DIRECTIONS: tuple[str, ...] = ("e", "se", "sw", "w", "nw", "ne")

# The rows of a Solo card: the types of Kiwibot's revealed action card (R-SOLO-7).
SOLO_ROWS: tuple[str, ...] = ("move", "feed", "build", "wild")

# The step ids of solo.yaml `patterns` the engine knows, per pattern (R-SOLO-11); content picks their order.
SOLO_STEPS: dict[str, frozenset[str]] = {
    "moving": frozenset({"indicated-size-can-push", "any-size-can-push-one", "any-size-to-indicated-hex"}),
    "pushing-player": frozenset({"off-island", "to-domain-marker-hex", "to-player-nest-hex", "to-player-pair-hex"}),
    "building": frozenset({"dominance-two-kiwi-no-nest"}),
    "pushing-placing-own": frozenset({"pair-in-free-hex", "pair-in-any-hex", "triad-in-free-hex"}),
    "marking-domain": frozenset({"reveal-until-fit", "shuffle-back-seasons-1-3", "gain-if-none-fits"}),
    "tokens-for-island": frozenset({"from-track", "from-reserve", "from-island-by-marker"}),
    "feeding-growing": frozenset({"indicated-size", "next-lower-size", "any-size-1"}),
    "tokens-for-domain": frozenset({"from-reserve", "from-track", "from-island-by-marker"}),
}
