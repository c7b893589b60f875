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
  state.py          `State.mode_state` (a `SoloState`), `is_bot`, a pattern's steps
  marker.py         the Solo-mode marker search (R-SOLO-12)
  patterns.py       the Kiwibot patterns that pick pieces and hexes (R-SOLO-11): pushing, placing, building,
                    feeding, taking tokens
  moves.py          Kiwibot's moves and pushes (R-SOLO-10 Move, R-SOLO-11 Moving Kiwi)
  marking.py        Kiwibot's Domain Marking (R-SOLO-11 Marking Domain)
  verbs.py          the Kiwibot DSL verbs and Kiwibot's way of core verbs (R-SOLO-8/10)
  answers.py        Kiwibot's answers to ordinary questions (R-SOLO-7/11/12)
  procedures.py     this module: setup (R-SOLO-1..4), turns (R-SOLO-7), the Solo card pile (R-SOLO-9),
                    Season cards (R-SOLO-4/5), endgame (R-SOLO-6), and the names the engine imports

The mode (this package's __init__.py) plugs these into the engine (setup, Kiwibot's turns and marking,
the solo Season card step, the Solo card discard, the season flip, Kiwibot's verbs, token taking and answers,
scores, views, saves and undo); no shared module tests for solo.
Event kinds added: `kiwibot` (a revealed card and its segment, data {card, slot, row, column, solo_card}),
`kiwibot-choice` (an answered question, data {kind, option}), `season-flip` (data {season, cards}),
`season-card` (one per card, the standard payload {card, season, values, victor, tied}), `solo-season`
(data {season, won, lost, player_cards, kiwibot_cards, kept}) and `solo-card` (data {discarded, top}).
"""
from __future__ import annotations

from typing import Any

from kcd.engine import effects, labels, queries
from kcd.engine.context import Ctx, Runtime, Turn
from kcd.core import action_types as A
from kcd.core.decisions import option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Cont as Entry
from kcd.engine.machine import Ask, Call, Do, Env, ForEach, If, Jump, Label, Question, Return, program
from kcd.modes.solo.answers import answer
from kcd.modes.solo.marker import CLOCKWISE, DIRECTIONS, marker_order
from kcd.modes.solo.marking import MARKING_TURN
from kcd.modes.solo.moves import Segment, choose_move, plan
from kcd.engine.selectors import Scope
from kcd.modes.solo.patterns import STEPS, best_push, build_hex, feed_choice, feed_target, pushable, take_token
from kcd.modes.solo.patterns import cover as _cover   # the name tests use
from kcd.modes.solo.state import SoloState, is_bot, solo_of, solo_rules
from kcd.content.types import SOLO_ROWS
from kcd.content.rules import Rules
from kcd.modes.solo.verbs import describe_segment, next_nest, segment_frame, verb_for
from kcd.core.state import State

__all__ = [
    "MODE", "SoloError", "SoloState", "check_content", "seats", "season_card_count", "setup_state",
    "setup_extra_frame", "is_bot", "BOT_TURN", "DISCARD_SOLO_CARD", "season_cards_of", "flip_season_cards",
    "SEASON_CARD_STEP", "LEFT_BENEFIT", "endgame_vp", "answer", "verb_for", "take_token", "MARKING_TURN",
    "marker_order", "DIRECTIONS", "CLOCKWISE", "STEPS", "Segment", "plan", "segment_frame", "choose_move",
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
    return [bot, player] if solo_rules(rules).setup.kiwibot_seat == 1 else [player, bot]


def season_card_count(rules: Rules) -> int:
    """How many Season cards a solo game deals: `per_season` face down per season (R-SOLO-4)."""
    return rules.season_cards_per_game * solo_rules(rules).setup.season_cards_per_season


def setup_state(rules: Rules, st: State, player: str, bot: str, side: str | None) -> None:
    """Kiwibot's deck with a card set aside (R-SOLO-1), the Solo card pile (R-SOLO-2), the marker side."""
    spec_solo = solo_rules(rules)
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
    st.mode_state = SoloState(
        bot=bot, player=player, side=side, marker_start=spec.start, marker_sequence=list(spec.sequence),
        pile=chosen, discarded=[], set_aside=set_aside, flipped=0, per_season=setup.season_cards_per_season,
        kiwibot_fruit=setup.kiwibot_fruit, wins_ties=setup.kiwibot_wins_ties,
        vp_per_kept_card=setup.vp_per_kept_card, domain_per_vp=setup.domain_per_vp)


def setup_extra_frame(rt: Runtime) -> Entry | None:
    """R-SOLO-3: Kiwibot's extra starting resources (its Turn Order nest fruit never arrives, R-SOLO-8)."""
    bot = solo_of(rt.state).bot
    setup = solo_rules(rt.rules).setup.kiwibot_setup
    frame: Entry | None = effects.run_frame(rt, setup, Ctx(bot, source="solo setup"))
    return frame


# --- Kiwibot's turn (R-SOLO-7) -------------------------------------------------------------------------------
def _reshuffle_if_empty(rt: Runtime, env: Env) -> None:
    """An empty deck is reshuffled before the card is revealed (R-SOLO-7)."""
    if not rt.state.flocks[env["bot"]].deck:
        _reshuffle(rt, env["bot"])


def _reveal(rt: Runtime, env: Env) -> Any:
    """Reveal Kiwibot's next Action card into the next slot: its Solo card segment (None: no card, or no Solo
    card left)."""
    bot = env["bot"]
    st = rt.state
    fl = st.flocks[bot]
    if not fl.deck:
        rt.emit("kiwibot-no-card", bot, flock=bot)
        return None
    card_id = fl.deck.pop()
    fl.played.append(card_id)
    slot = len(fl.played)
    row = rt.rules.cards[card_id].type
    # decision R-SOLO-7: a slot beyond the card's three columns (more cards per season) uses column 3
    column = min(slot, 3)
    pile = solo_of(st).pile
    top = pile[0] if pile else None
    if top is None:
        rt.emit("kiwibot-no-solo-card", bot, flock=bot, card=card_id)
        return None
    segment = rt.rules.solo_cards[top].sections[row][column - 1]
    rt.emit("kiwibot-reveals", bot, data={"card": card_id, "slot": slot, "row": row, "column": column,
                                          "solo_card": top},
            flock=bot, card_name=labels.card_name(card_id, rt.rules.cards[card_id]), slot=slot, solo_card=top,
            row=row, column=column, segment=describe_segment(segment))
    return segment_frame(rt, segment, Ctx(bot, turn=Turn(), source=f"{top} {row} {column}"))


def _check_bot_turn(rt: Runtime, env: Env, at: str) -> None:
    """A loaded Kiwibot turn is Kiwibot's."""
    if not is_bot(rt.state, env["bot"]):
        raise FrameDataError("solo.bot_turn: not Kiwibot's turn")


# Reveal Kiwibot's next Action card into the next slot and resolve its Solo card segment (R-SOLO-7)
BOT_TURN = program(
    "solo.bot_turn", ("bot",), {"bot": str},
    Do(_reshuffle_if_empty),
    Call("segment", _reveal),
    check=_check_bot_turn)


def _reshuffle(rt: Runtime, bot: str) -> None:
    """R-SOLO-7: an empty deck: shuffle all of Kiwibot's cards, set one aside, the rest is the new deck.

    Decision R-SOLO-7: "all" means every card not on the flock board this season (discards and the card set
    aside); the cards in this season's slots stay there until Season Change (R-SC-2).
    """
    st = rt.state
    fl = st.flocks[bot]
    cards = fl.discard + solo_of(st).set_aside
    fl.discard = []
    st.shuffle(cards)
    n = min(solo_rules(rt.rules).setup.set_aside, max(len(cards) - 1, 0))
    solo_of(st).set_aside = [cards.pop() for _ in range(n)]
    fl.deck = cards
    rt.emit("kiwibot-shuffle", bot, flock=bot, set_aside=n)


def _discard(rt: Runtime, env: Env) -> None:
    """Discard the top Solo card (nothing is asked)."""
    solo = solo_of(rt.state)
    if solo.pile:
        card = solo.pile.pop(0)
        solo.discarded.append(card)
        top = solo.pile[0] if solo.pile else None
        rt.emit("solo-card", data={"discarded": card, "top": top}, card=card, top=top)


# R-SOLO-9: after each Domain Marking the top Solo card is discarded
DISCARD_SOLO_CARD = program(
    "solo.discard_solo_card", (), {},
    Do(_discard))


# --- Season cards (R-SOLO-4/5) ------------------------------------------------------------------------------
def season_cards_of(st: State, season: int) -> list[str]:
    """The Season cards of one season in a solo game."""
    per = solo_of(st).per_season
    return st.season_cards[(season - 1) * per: season * per]


def flip_season_cards(rt: Runtime) -> None:
    """R-SOLO-4: at the beginning of each Season Change the season's face-down cards are flipped."""
    st = rt.state
    solo_of(st).flipped = max(solo_of(st).flipped, st.season)
    cards = season_cards_of(st, st.season)
    rt.emit("season-flip", data={"season": st.season, "cards": cards}, season=st.season, cards=list(cards))


def _no_season_cards(rt: Runtime, env: Env) -> bool:
    return not season_cards_of(rt.state, rt.state.season)


def _compare(rt: Runtime, env: Env) -> None:
    """The player against Kiwibot on each of the season's cards; Kiwibot wins ties (R-SOLO-5)."""
    st = rt.state
    solo = solo_of(st)
    player, bot = solo.player, solo.bot
    cards = season_cards_of(st, st.season)
    env["cards"] = len(cards)
    won: list[str] = []
    lost: list[str] = []
    env["won"], env["lost"] = won, lost
    env["player_cards"], env["bot_cards"], env["kept"] = [], [], []
    for card_id in cards:
        card = rt.rules.season_cards[card_id]
        best, values = queries.winners(st, card.objective, [player, bot])
        victor: str | None = best[0] if len(best) == 1 else None
        if len(best) != 1:
            # R-SOLO-5: Kiwibot wins ties; decision: content saying otherwise leaves a tie to nobody
            victor = bot if solo.wins_ties else None
        (won if victor == player else lost if victor == bot else []).append(card_id)
        rt.emit("solo-season-card", data={"card": card_id, "season": st.season,
                                          "values": {f: values[f] for f in st.turn_order()}, "victor": victor,
                                          "tied": []},
                card=card_id, solo_player=player, player_value=values[player], bot=bot,
                bot_value=values[bot], victor=victor)


def _ask_season_card(rt: Runtime, env: Env) -> Question | None:
    """The player won every card: whose left benefit they take (None: they did not)."""
    won = env["won"]
    if not won or len(won) != env["cards"]:
        return None
    # the player takes one card's left benefit, Kiwibot the others' and discards them
    return Question(solo_of(rt.state).player, "solo-season-card",
                    "You won every Season card: whose left benefit do you take?",
                    [option(A.SeasonCard(c), labels.lazy(labels.season_card_benefit, c, rt.rules.season_cards[c]))
                     for c in season_cards_of(rt.state, rt.state.season)])


def _player_took(rt: Runtime, env: Env) -> None:
    player_card = env.pop("picked").card
    env["bot_cards"] = [c for c in season_cards_of(rt.state, rt.state.season) if c != player_card]
    env["player_cards"] = [player_card]


def _split(rt: Runtime, env: Env) -> None:
    env["player_cards"] = list(env["won"])
    env["bot_cards"] = list(env["lost"])
    env["kept"] = list(env["lost"])   # Kiwibot keeps the cards it won next to its flock board (R-SOLO-5/6)


def _benefits(rt: Runtime, env: Env) -> list[tuple[str, str, bool]]:
    """Each left benefit in turn: decision R-SOLO-5: the player's first (their choice decides what Kiwibot takes),
    then Kiwibot's."""
    solo = solo_of(rt.state)
    return ([(solo.player, c, True) for c in env["player_cards"]]
            + [(solo.bot, c, False) for c in env["bot_cards"]])


def _left_benefit(rt: Runtime, env: Env) -> Any:
    flock, card, keep = env["left"]
    return LEFT_BENEFIT.start(flock, card, keep)


def _season_result(rt: Runtime, env: Env) -> None:
    """Kiwibot keeps the cards it won; the season's result."""
    st = rt.state
    solo = solo_of(st)
    kept = env["kept"]
    st.flocks[solo.bot].kept_season_cards.extend(kept)
    rt.emit("solo-season", data={"season": st.season, "won": env["won"], "lost": env["lost"],
                                 "player_cards": env["player_cards"], "kiwibot_cards": env["bot_cards"],
                                 "kept": kept},
            season=st.season, solo_player=solo.player, won=len(env["won"]), cards=env["cards"], kept=list(kept))


def _check_season_card_step(rt: Runtime, env: Env, at: str) -> None:
    """Loaded Season card lists name Season cards of the content."""
    for name in ("won", "lost", "player_cards", "bot_cards", "kept"):
        if not all(isinstance(c, str) and c in rt.rules.season_cards for c in env.get(name, ())):
            raise FrameDataError("solo.season_card_step: unknown Season card")


# R-SOLO-5: the player against Kiwibot on each of the season's cards (Kiwibot wins ties); left benefits only
SEASON_CARD_STEP = program(
    "solo.season_card_step", (),
    {"cards": int, "won": list, "lost": list, "player_cards": list, "bot_cards": list, "kept": list,
     "picked": A.SeasonCard, "left": tuple},
    If(_no_season_cards, (Return(),)),
    Do(_compare),
    Ask("card", _ask_season_card, into="picked", kinds={"solo-season-card": ("season-card",)}, otherwise="split"),
    Do(_player_took),
    Jump("benefits"),
    Label("split"),
    Do(_split),
    Label("benefits"),
    ForEach("left", _benefits, (Call("benefit", _left_benefit),)),
    Do(_season_result),
    check=_check_season_card_step)


def _run_left_benefit(rt: Runtime, env: Env) -> Any:
    flock, card = env["flock"], env["card"]
    env["before"] = rt.state.flocks[flock].season_vp
    return effects.run_frame(rt, rt.rules.season_cards[card].victor, Ctx(flock, source=card))


def _keep_if_vp(rt: Runtime, env: Env) -> None:
    """The player keeps a VP card as a reminder (R-SCARD-3)."""
    fl = rt.state.flocks[env["flock"]]
    if env["keep_if_vp"] and fl.season_vp > env["before"]:
        fl.kept_season_cards.append(env["card"])


def _check_left_benefit(rt: Runtime, env: Env, at: str) -> None:
    """A loaded left benefit names a Season card of the content."""
    if env["card"] not in rt.rules.season_cards:
        raise FrameDataError("solo.left_benefit: unknown Season card")


# A Season card's left benefit; the player keeps a VP card as a reminder (R-SCARD-3)
LEFT_BENEFIT = program(
    "solo.left_benefit", ("flock", "card", "keep_if_vp"),
    {"flock": str, "card": str, "keep_if_vp": bool, "before": int},
    Call("benefit", _run_left_benefit),
    Do(_keep_if_vp),
    check=_check_left_benefit)


# --- scoring (R-SOLO-6) -----------------------------------------------------------------------------------------
def endgame_vp(st: State, flock: str) -> tuple[int, int]:
    """Kiwibot's endgame VP: (kept Season cards, every `domain_per_vp` unplaced markers); (0, 0) for the player."""
    if not is_bot(st, flock):
        return 0, 0
    fl = st.flocks[flock]
    return (solo_of(st).vp_per_kept_card * len(fl.kept_season_cards),
            len(fl.domain) // solo_of(st).domain_per_vp)
