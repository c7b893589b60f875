"""Solo mode against Kiwibot (R-SOLO-1..12), played from content/base/solo.yaml: setup, Kiwibot's turns,
the Solo card pile, solo Season card scoring and Kiwibot's endgame VP. The entry point other modules use.

A solo game is `Game.new(ruleset, players=[player_flock, kiwibot_flock], seed, mode="solo", solo_side=None)`.
Kiwibot never has a pending decision (R-SOLO-7): its Actions turns reveal a card and run a Solo card
segment (DSL, context `solo`) through the Kiwibot verbs, and every question the ordinary procedures ask it
(where a Nest benefit's Kiwi goes, which Kiwi grows, where an explosion pushes...) is answered by the Kiwibot
patterns of R-SOLO-11 (solo.yaml `patterns`, tried in content order) and the Solo-mode marker search of
R-SOLO-12. Remaining ties go to the option that benefits Kiwibot most as stated beside each choice, then to
the marker search order, so a solo game is as deterministic as any other.

The parts, one rule area each:
  solo_state.py     `State.solo` (`SoloState`, its keys), `is_bot`, a pattern's steps
  solo_marker.py    the Solo-mode marker search (R-SOLO-12)
  solo_patterns.py  the Kiwibot patterns that pick pieces and hexes (R-SOLO-11): pushing, placing, building,
                    feeding, taking tokens
  solo_moves.py     Kiwibot's moves and pushes (R-SOLO-10 Move, R-SOLO-11 Moving Kiwi)
  solo_marking.py   Kiwibot's Domain Marking (R-SOLO-11 Marking Domain)
  solo_verbs.py     the Kiwibot DSL verbs and Kiwibot's way of core verbs (R-SOLO-8/10)
  solo_answers.py   Kiwibot's answers to ordinary questions (R-SOLO-7/11/12)
  solo.py           this module: setup (R-SOLO-1..4), turns (R-SOLO-7), the Solo card pile (R-SOLO-9),
                    Season cards (R-SOLO-4/5), endgame (R-SOLO-6), and the names the engine imports

The mode interpreter/engine/modes/solo.py plugs these into the engine (setup, Kiwibot's turns and marking,
the solo Season card step, the Solo card discard, the season flip, Kiwibot's verbs, token taking and answers,
scores, views, saves and undo); no shared module tests for solo.
Event kinds added: `kiwibot` (a revealed card and its segment, data {card, slot, row, column, solo_card}),
`kiwibot-choice` (an answered question, data {kind, option}), `season-flip` (data {season, cards}),
`season-card` (one per card, the standard payload {card, season, values, victor, tied}), `solo-season`
(data {season, won, lost, player_cards, kiwibot_cards, kept}) and `solo-card` (data {discarded, top}).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from kcd.engine import effects, labels, queries
from kcd.engine.context import Ctx, Runtime, Turn
from kcd.engine import action_types as A
from kcd.engine.decisions import Steps, option
from kcd.engine.frames import Ask, Call, Frame, FrameDataError, Return, Signal, drive, register_frame
from kcd.engine.modes.solo.answers import answer
from kcd.engine.modes.solo.marker import CLOCKWISE, DIRECTIONS, marker_order
from kcd.engine.modes.solo.marking import MarkingTurnFrame, mark_one, marking_turn
from kcd.engine.modes.solo.moves import Segment, bot_move, bot_push, choose_move, plan
from kcd.engine.selectors import Scope
from kcd.engine.modes.solo.patterns import STEPS, best_push, build_hex, feed_choice, feed_target, pushable, take_token
from kcd.engine.modes.solo.patterns import cover as _cover   # the name tests use
from kcd.engine.modes.solo.state import SoloState, is_bot, solo_of
from kcd.engine.content_types import SOLO_ROWS
from kcd.engine.rules import Rules
from kcd.engine.modes.solo.verbs import bonus, describe_segment, next_nest, run_segment, segment_frame, verb_for
from kcd.engine.state import State

__all__ = [
    "MODE", "SoloError", "SoloState", "check_content", "seats", "season_card_count", "setup_state", "setup_extra",
    "is_bot", "bot_turn", "discard_solo_card", "season_cards_of", "flip_season_cards", "season_card_step",
    "endgame_vp", "answer", "verb_for", "take_token", "marking_turn", "mark_one", "marker_order", "DIRECTIONS",
    "CLOCKWISE", "STEPS", "Segment", "plan", "run_segment", "bonus", "choose_move", "bot_move", "bot_push",
    "best_push", "pushable", "feed_target", "feed_choice", "Scope", "build_hex", "next_nest", "effects", "_cover",
]

MODE = "solo"
ROWS = SOLO_ROWS   # the rows of a Solo card (content_types.py)


class SoloError(ValueError):
    """A solo game cannot be set up with these parameters or this content (a clear message)."""


# --- content checks and setup (R-SOLO-1..4) ---------------------------------------------------------------
def check_content(rules: Rules, side: str | None) -> None:
    """Refuse a solo game the content does not offer, or an unknown marker side (the content itself is checked
    when it is loaded: rules.py `_solo`, R-SOLO-1..12)."""
    if rules.solo is None or not rules.solo_cards:
        raise SoloError("solo mode needs content/base/solo.yaml with Solo cards, `setup`, `marker` and `patterns`")
    if side is not None and side not in rules.solo.sides:
        raise SoloError(f"unknown Solo-mode marker side `{side}` (sides: {', '.join(rules.solo.sides)})")


def seats(rules: Rules, players: list[str]) -> list[str]:
    """Seat order of a solo game from [player, kiwibot]: Kiwibot at `setup.kiwibot_seat` (R-SOLO-3)."""
    if len(players) != 2 or players[0] == players[1]:
        raise SoloError(f"a solo game takes players=[player_flock, kiwibot_flock], got {players}")
    player, bot = players
    return [bot, player] if rules.solo_mode().setup.kiwibot_seat == 1 else [player, bot]


def season_card_count(rules: Rules) -> int:
    """How many Season cards a solo game deals: `per_season` face down per season (R-SOLO-4)."""
    return rules.season_cards_per_game * rules.solo_mode().setup.season_cards_per_season


def setup_state(rules: Rules, st: State, player: str, bot: str, side: str | None) -> None:
    """Kiwibot's deck with a card set aside (R-SOLO-1), the Solo card pile (R-SOLO-2), the marker side."""
    spec_solo = rules.solo_mode()
    setup = spec_solo.setup
    fl = st.flocks[bot]
    # Kiwibot has no hand: its cards are revealed from the deck (R-SOLO-7)
    fl.deck.extend(fl.hand)
    fl.hand = []
    st.shuffle(fl.deck)   # R-SOLO-1
    set_aside = [fl.deck.pop() for _ in range(min(setup.set_aside, len(fl.deck)))]
    cards = list(rules.solo_cards)
    st.shuffle(cards)
    chosen = cards[:setup.solo_cards]
    chosen.sort(key=lambda c: (rules.solo_cards[c].number, c))   # R-SOLO-2: ascending
    if side is None:   # R-SOLO-2: "use either side": dealt from the game's seed
        sides = list(spec_solo.sides)
        side = sides[st.rand_below(len(sides))]
    spec = spec_solo.sides[side]
    solo: SoloState = {
        "bot": bot, "player": player, "side": side, "marker_start": spec.start,
        "marker_sequence": list(spec.sequence), "pile": chosen, "discarded": [],
        "set_aside": set_aside, "flipped": 0, "per_season": setup.season_cards_per_season,
        "kiwibot_fruit": setup.kiwibot_fruit,
        "wins_ties": setup.kiwibot_wins_ties,
        "vp_per_kept_card": setup.vp_per_kept_card, "domain_per_vp": setup.domain_per_vp,
    }
    st.solo = dict(solo)


def setup_extra_frame(rt: Runtime) -> Frame:
    """R-SOLO-3: Kiwibot's extra starting resources (its Turn Order nest fruit never arrives, R-SOLO-8)."""
    bot = solo_of(rt.state)["bot"]
    return effects.run_frame(rt, rt.rules.solo_mode().setup.kiwibot_setup, Ctx(bot, source="solo setup"))


def setup_extra(rt: Runtime) -> Steps[None]:
    """R-SOLO-3: Kiwibot's extra starting resources (its Turn Order nest fruit never arrives, R-SOLO-8)."""
    return (yield from drive(rt, setup_extra_frame(rt)))


# --- Kiwibot's turn (R-SOLO-7) -------------------------------------------------------------------------------
@register_frame("solo.bot_turn")
@dataclass(eq=False)
class BotTurnFrame(Frame):
    """Reveal Kiwibot's next Action card into the next slot and resolve its Solo card segment (R-SOLO-7)."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    bot: str
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: reveal the card and resolve its segment; 1: done."""
        if self.pc == 1:
            return Return()
        self.pc = 1
        bot = self.bot
        st = rt.state
        fl = st.flocks[bot]
        if not fl.deck:
            _reshuffle(rt, bot)
        if not fl.deck:
            rt.emit("kiwibot-no-card", bot, flock=bot)
            return Return()
        card_id = fl.deck.pop()
        fl.played.append(card_id)
        slot = len(fl.played)
        row = rt.rules.cards[card_id].type
        # decision R-SOLO-7: a slot beyond the card's three columns (more cards per season) uses column 3
        column = min(slot, 3)
        top = solo_of(st)["pile"][0] if solo_of(st)["pile"] else None
        if top is None:
            rt.emit("kiwibot-no-solo-card", bot, flock=bot, card=card_id)
            return Return()
        segment = rt.rules.solo_cards[top].sections[row][column - 1]
        rt.emit("kiwibot-reveals", bot, data={"card": card_id, "slot": slot, "row": row, "column": column,
                                              "solo_card": top},
                flock=bot, card_name=labels.card_name(card_id, rt.rules.cards[card_id]), slot=slot, solo_card=top,
                row=row, column=column, segment=describe_segment(segment))
        return Call(segment_frame(rt, segment, Ctx(bot, turn=Turn(), source=f"{top} {row} {column}")))


def bot_turn(rt: Runtime, bot: str) -> Steps[None]:
    """Reveal Kiwibot's next Action card into the next slot and resolve its Solo card segment (BotTurnFrame)."""
    return (yield from drive(rt, BotTurnFrame(bot)))


def _reshuffle(rt: Runtime, bot: str) -> None:
    """R-SOLO-7: an empty deck: shuffle all of Kiwibot's cards, set one aside, the rest is the new deck.

    Decision R-SOLO-7: "all" means every card not on the flock board this season (discards and the card set
    aside); the cards in this season's slots stay there until Season Change (R-SC-2).
    """
    st = rt.state
    fl = st.flocks[bot]
    cards = fl.discard + solo_of(st)["set_aside"]
    fl.discard = []
    st.shuffle(cards)
    n = min(rt.rules.solo_mode().setup.set_aside, max(len(cards) - 1, 0))
    solo_of(st)["set_aside"] = [cards.pop() for _ in range(n)]
    fl.deck = cards
    rt.emit("kiwibot-shuffle", bot, flock=bot, set_aside=n)


@register_frame("solo.discard_solo_card")
@dataclass(eq=False)
class DiscardSoloCardFrame(Frame):
    """R-SOLO-9: after each Domain Marking the top Solo card is discarded."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    def resume(self, rt: Runtime, value: Any) -> Signal:
        """Discard it (nothing is asked)."""
        solo = solo_of(rt.state)
        if solo["pile"]:
            card = solo["pile"].pop(0)
            solo["discarded"].append(card)
            top = solo["pile"][0] if solo["pile"] else None
            rt.emit("solo-card", data={"discarded": card, "top": top}, card=card, top=top)
        return Return()


def discard_solo_card(rt: Runtime) -> Steps[None]:
    """R-SOLO-9: after each Domain Marking the top Solo card is discarded (DiscardSoloCardFrame)."""
    return (yield from drive(rt, DiscardSoloCardFrame()))


# --- Season cards (R-SOLO-4/5) ------------------------------------------------------------------------------
def season_cards_of(st: State, season: int) -> list[str]:
    """The Season cards of one season in a solo game."""
    per = int(solo_of(st)["per_season"])
    return st.season_cards[(season - 1) * per: season * per]


def flip_season_cards(rt: Runtime) -> None:
    """R-SOLO-4: at the beginning of each Season Change the season's face-down cards are flipped."""
    st = rt.state
    solo_of(st)["flipped"] = max(int(solo_of(st)["flipped"]), st.season)
    cards = season_cards_of(st, st.season)
    rt.emit("season-flip", data={"season": st.season, "cards": cards}, season=st.season, cards=list(cards))


@register_frame("solo.season_card_step")
@dataclass(eq=False)
class SeasonCardStepFrame(Frame):
    """R-SOLO-5: the player against Kiwibot on each of the season's cards (Kiwibot wins ties); left benefits only."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})   # the steps that wait for an answer
    ask_kinds = {1: {"solo-season-card": ("season-card",)}}
    won: list = field(default_factory=list)
    lost: list = field(default_factory=list)
    cards: int = 0
    player_cards: list = field(default_factory=list)
    bot_cards: list = field(default_factory=list)
    kept: list = field(default_factory=list)
    i: int = 0              # the next left benefit (the player's, then Kiwibot's)
    max_pc: ClassVar[int] = 3

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: compare the cards (and ask when the player won every card); 1: the answer; 2: each left benefit in
        turn, then the result; 3: done."""
        st = rt.state
        solo = solo_of(st)
        player, bot = solo["player"], solo["bot"]
        if self.pc == 3:
            return Return()
        if self.pc == 0:
            cards = season_cards_of(st, st.season)
            if not cards:
                return Return()
            self.cards = len(cards)
            won, lost = self.won, self.lost
            for card_id in cards:
                card = rt.rules.season_cards[card_id]
                best, values = queries.winners(st, card.objective, [player, bot])
                victor: str | None = best[0] if len(best) == 1 else None
                if len(best) != 1:
                    # R-SOLO-5: Kiwibot wins ties; decision: content saying otherwise leaves a tie to nobody
                    victor = bot if solo["wins_ties"] else None
                (won if victor == player else lost if victor == bot else []).append(card_id)
                rt.emit("solo-season-card", data={"card": card_id, "season": st.season,
                                                  "values": {f: values[f] for f in st.turn_order()}, "victor": victor,
                                                  "tied": []},
                        card=card_id, solo_player=player, player_value=values[player], bot=bot,
                        bot_value=values[bot], victor=victor)
            if won and len(won) == len(cards):
                # the player wins every card: they take one card's left benefit, Kiwibot the others' and discards them
                self.pc = 1
                return Ask(player, "solo-season-card", "You won every Season card: whose left benefit do you take?",
                           [option(A.SeasonCard(c),
                                   labels.lazy(labels.season_card_benefit, c, rt.rules.season_cards[c]))
                            for c in cards])
            self.player_cards = list(won)
            self.bot_cards = list(lost)
            self.kept = list(lost)   # Kiwibot keeps the cards it won next to its flock board (R-SOLO-5/6)
        elif self.pc == 1:
            player_card = value.card
            self.bot_cards = [c for c in season_cards_of(st, st.season) if c != player_card]
            self.player_cards = [player_card]
        self.pc = 2
        # decision R-SOLO-5: the player's benefit first (their choice decides what Kiwibot takes), then Kiwibot's
        benefits = [(player, c, True) for c in self.player_cards] + [(bot, c, False) for c in self.bot_cards]
        if self.i < len(benefits):
            flock, card_id, keep = benefits[self.i]
            self.i += 1
            return Call(LeftBenefitFrame(flock, card_id, keep))
        st.flocks[bot].kept_season_cards.extend(self.kept)
        rt.emit("solo-season", data={"season": st.season, "won": self.won, "lost": self.lost,
                                     "player_cards": self.player_cards, "kiwibot_cards": self.bot_cards,
                                     "kept": self.kept},
                season=st.season, solo_player=player, won=len(self.won), cards=self.cards, kept=list(self.kept))
        self.pc = 3
        return Return()

    def check(self, rt: Runtime) -> None:
        """Loaded Season card lists name Season cards of the content."""
        for cards in (self.won, self.lost, self.player_cards, self.bot_cards, self.kept):
            if not all(isinstance(c, str) and c in rt.rules.season_cards for c in cards):
                raise FrameDataError("solo.season_card_step: unknown Season card")


def season_card_step(rt: Runtime) -> Steps[None]:
    """R-SOLO-5: the player against Kiwibot on each of the season's cards (SeasonCardStepFrame)."""
    return (yield from drive(rt, SeasonCardStepFrame()))


@register_frame("solo.left_benefit")
@dataclass(eq=False)
class LeftBenefitFrame(Frame):
    """A Season card's left benefit; the player keeps a VP card as a reminder (R-SCARD-3)."""

    asks: ClassVar[frozenset[int] | None] = frozenset()   # it never asks itself
    flock: str
    card: str
    keep_if_vp: bool
    before: int = 0
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the benefit; 1: keep the card when it gave VP."""
        fl = rt.state.flocks[self.flock]
        if self.pc == 0:
            self.before = fl.season_vp
            self.pc = 1
            return Call(effects.run_frame(rt, rt.rules.season_cards[self.card].victor,
                                         Ctx(self.flock, source=self.card)))
        if self.keep_if_vp and fl.season_vp > self.before:
            fl.kept_season_cards.append(self.card)
        return Return()

    def check(self, rt: Runtime) -> None:
        """A loaded left benefit names a Season card of the content."""
        if self.card not in rt.rules.season_cards:
            raise FrameDataError("solo.left_benefit: unknown Season card")


# --- scoring (R-SOLO-6) -----------------------------------------------------------------------------------------
def endgame_vp(st: State, flock: str) -> tuple[int, int]:
    """Kiwibot's endgame VP: (kept Season cards, every `domain_per_vp` unplaced markers); (0, 0) for the player."""
    if not is_bot(st, flock):
        return 0, 0
    fl = st.flocks[flock]
    return (int(solo_of(st)["vp_per_kept_card"]) * len(fl.kept_season_cards),
            len(fl.domain) // int(solo_of(st)["domain_per_vp"]))
