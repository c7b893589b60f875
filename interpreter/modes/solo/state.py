"""The solo game's own typed data in `State.mode_state` (R-SOLO-1..12) and who Kiwibot is."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from kcd.engine.context import EngineError, Runtime
from kcd.content.types import Solo
from kcd.content.rules import Rules, RulesError
from kcd.core.state import State, register_mode_state


@register_mode_state
@dataclass(slots=True)
class SoloState:
    """`State.mode_state` of a solo game: saved with the game under `solo` (strings, ints, lists of strings).

    bot, player: the two flock ids (Kiwibot, the human player). side: the Solo-mode marker side id in use
    (R-SOLO-2/12) with its `marker_start` (own_leader | player_leader) and `marker_sequence` copied from
    solo.yaml. pile, discarded: Solo card ids, the face-up pile (top first, ascending numbers) and the
    discards (R-SOLO-2/9). set_aside: Kiwibot's Action cards set aside face down (R-SOLO-1/7). flipped: how
    many seasons' Season cards are face up (R-SOLO-4). per_season: Season cards per season (`State.season_cards`
    holds them season after season). kiwibot_fruit: False, Kiwibot never gains fruit (R-SOLO-3/8). wins_ties,
    vp_per_kept_card, domain_per_vp: the scoring numbers of R-SOLO-5/6.
    """

    key: ClassVar[str] = "solo"

    bot: str
    player: str
    side: str
    marker_start: str
    marker_sequence: list[str]
    pile: list[str]
    discarded: list[str]
    set_aside: list[str]
    flipped: int
    per_season: int
    kiwibot_fruit: bool
    wins_ties: bool
    vp_per_kept_card: int
    domain_per_vp: int

    def to_dict(self) -> dict[str, Any]:
        """The saved form: every field by name, in field order, the lists copied."""
        return {"bot": self.bot, "player": self.player, "side": self.side, "marker_start": self.marker_start,
                "marker_sequence": list(self.marker_sequence), "pile": list(self.pile),
                "discarded": list(self.discarded), "set_aside": list(self.set_aside), "flipped": self.flipped,
                "per_season": self.per_season, "kiwibot_fruit": self.kiwibot_fruit, "wins_ties": self.wins_ties,
                "vp_per_kept_card": self.vp_per_kept_card, "domain_per_vp": self.domain_per_vp}

    @classmethod
    def from_dict(cls, data: Any) -> SoloState:
        """Rebuild from `to_dict` output (ValueError naming the first key that is missing, extra or mistyped)."""
        if not isinstance(data, dict):
            raise ValueError(f"solo data must be an object, got {type(data).__name__}")
        if data.keys() != _KINDS.keys():
            missing, extra = sorted(_KINDS.keys() - data.keys()), sorted(data.keys() - _KINDS.keys(), key=str)
            raise ValueError(f"solo data: missing keys {missing}, unknown keys {extra}")
        for name, kind in _KINDS.items():
            value = data[name]
            if kind is list:
                ok = type(value) is list and all(type(v) is str for v in value)
            else:
                ok = type(value) is kind
            if not ok:
                raise ValueError(f"solo data: `{name}` must be {_KIND_TEXT[kind]}, got {str(value)[:40]!r}")
        return cls(data["bot"], data["player"], data["side"], data["marker_start"], list(data["marker_sequence"]),
                   list(data["pile"]), list(data["discarded"]), list(data["set_aside"]), data["flipped"],
                   data["per_season"], data["kiwibot_fruit"], data["wins_ties"], data["vp_per_kept_card"],
                   data["domain_per_vp"])

    def copy(self) -> SoloState:
        """An own copy: the lists copied (play changes them in place), the strings and numbers shared."""
        twin = _NEW(SoloState)
        twin.bot = self.bot
        twin.player = self.player
        twin.side = self.side
        twin.marker_start = self.marker_start
        twin.marker_sequence = self.marker_sequence.copy()
        twin.pile = self.pile.copy()
        twin.discarded = self.discarded.copy()
        twin.set_aside = self.set_aside.copy()
        twin.flipped = self.flipped
        twin.per_season = self.per_season
        twin.kiwibot_fruit = self.kiwibot_fruit
        twin.wins_ties = self.wins_ties
        twin.vp_per_kept_card = self.vp_per_kept_card
        twin.domain_per_vp = self.domain_per_vp
        return twin


_NEW = object.__new__
# each saved key's Python type (`list`: a list of strings), in field order
_KINDS: dict[str, type] = {f.name: (list if str(f.type).startswith("list") else {"str": str, "int": int, "bool": bool}[str(f.type)])
                           for f in fields(SoloState)}
_KIND_TEXT = {str: "a string", int: "a whole number", bool: "true or false", list: "a list of strings"}


def solo_rules(rules: Rules) -> Solo:
    """solo.yaml's compiled setup, marker and patterns (RulesError when the content has no solo mode)."""
    if rules.solo is None:
        raise RulesError("solo mode needs content/base/solo.yaml with Solo cards, `setup`, `marker` and `patterns`")
    return rules.solo


def solo_of(st: State) -> SoloState:
    """The solo data of a solo game's state (an EngineError in any other game)."""
    own = st.mode_state
    if type(own) is not SoloState:
        raise EngineError("a solo procedure ran in a game that is not solo")
    return own


def is_bot(st: State, flock: str) -> bool:
    """True when `flock` is Kiwibot in a solo game."""
    own = st.mode_state
    return type(own) is SoloState and own.bot == flock


def pattern_steps(rt: Runtime, pattern: str) -> list[str]:
    """The steps of one Kiwibot pattern of solo.yaml, in content order (R-SOLO-11)."""
    return list(solo_rules(rt.rules).patterns.get(pattern, ()))
