"""The solo game's plain data in `State.solo` (R-SOLO-1..12) and who Kiwibot is."""
from __future__ import annotations

from typing import Any, TypedDict

from kcd.engine.context import EngineError, Runtime
from kcd.content.types import Solo
from kcd.content.rules import Rules, RulesError
from kcd.core.state import State


class SoloState(TypedDict):
    """`State.solo`: flat plain data saved with the game (strings, ints, lists of strings).

    bot, player: the two flock ids (Kiwibot, the human player). side: the Solo-mode marker side id in use
    (R-SOLO-2/12) with its `marker_start` (own_leader | player_leader) and `marker_sequence` copied from
    solo.yaml. pile, discarded: Solo card ids, the face-up pile (top first, ascending numbers) and the
    discards (R-SOLO-2/9). set_aside: Kiwibot's Action cards set aside face down (R-SOLO-1/7). flipped: how
    many seasons' Season cards are face up (R-SOLO-4). per_season: Season cards per season (`State.season_cards`
    holds them season after season). kiwibot_fruit: False, Kiwibot never gains fruit (R-SOLO-3/8). wins_ties,
    vp_per_kept_card, domain_per_vp: the scoring numbers of R-SOLO-5/6.
    """

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


def solo_rules(rules: Rules) -> Solo:
    """solo.yaml's compiled setup, marker and patterns (RulesError when the content has no solo mode)."""
    if rules.solo is None:
        raise RulesError("solo mode needs content/base/solo.yaml with Solo cards, `setup`, `marker` and `patterns`")
    return rules.solo


def solo_of(st: State) -> dict[str, Any]:
    """The solo data of a solo game's state (`SoloState` keys; an EngineError in any other game)."""
    if st.solo is None:
        raise EngineError("a solo procedure ran in a game that is not solo")
    return st.solo


def is_bot(st: State, flock: str) -> bool:
    """True when `flock` is Kiwibot in a solo game."""
    return st.solo is not None and st.solo["bot"] == flock


def pattern_steps(rt: Runtime, pattern: str) -> list[str]:
    """The steps of one Kiwibot pattern of solo.yaml, in content order (R-SOLO-11)."""
    return list(solo_rules(rt.rules).patterns.get(pattern, ()))
