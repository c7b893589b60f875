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

from typing import Any, Generator

from interpreter.engine import effects, labels, queries
from interpreter.engine.context import Ctx, Runtime, Turn
from interpreter.engine import action_types as A
from interpreter.engine.decisions import ask_action, option
from interpreter.engine.solo_answers import answer
from interpreter.engine.solo_marker import CLOCKWISE, DIRECTIONS, marker_order
from interpreter.engine.solo_marking import mark_one, marking_turn
from interpreter.engine.solo_moves import Segment, bot_move, bot_push, choose_move, plan
from interpreter.engine.solo_patterns import STEPS, best_push, build_hex, feed_target, take_token
from interpreter.engine.solo_patterns import cover as _cover   # the name tests use
from interpreter.engine.solo_state import SoloState, is_bot
from interpreter.engine.solo_verbs import bonus, next_nest, run_segment, verb_for
from interpreter.engine.state import State

__all__ = [
    "MODE", "SoloError", "SoloState", "check_content", "seats", "season_card_count", "setup_state", "setup_extra",
    "is_bot", "bot_turn", "discard_solo_card", "season_cards_of", "flip_season_cards", "season_card_step",
    "endgame_vp", "answer", "verb_for", "take_token", "marking_turn", "mark_one", "marker_order", "DIRECTIONS",
    "CLOCKWISE", "STEPS", "Segment", "plan", "run_segment", "bonus", "choose_move", "bot_move", "bot_push",
    "best_push", "feed_target", "build_hex", "next_nest", "effects", "_cover",
]

MODE = "solo"
ROWS: tuple[str, ...] = ("move", "feed", "build", "wild")


class SoloError(ValueError):
    """A solo game cannot be set up with these parameters or this content (a clear message)."""


# --- content checks and setup (R-SOLO-1..4) ---------------------------------------------------------------
def check_content(rules: Any, side: str | None) -> None:
    """Refuse a solo game the content cannot play: missing solo.yaml parts or unknown pattern steps."""
    solo = rules.solo
    if not solo or not rules.solo_cards:
        raise SoloError("solo mode needs content/base/solo.yaml with Solo cards, `setup`, `marker` and `patterns`")
    setup = solo["setup"]
    for key in ("solo_cards", "set_aside", "kiwibot_seat", "season_cards_per_season", "vp_per_kept_card",
                "domain_per_vp"):
        if not isinstance(setup.get(key), int) or isinstance(setup.get(key), bool):
            raise SoloError(f"solo.yaml setup.{key} must be a whole number")
    if setup["solo_cards"] > len(rules.solo_cards):
        raise SoloError(f"solo.yaml setup.solo_cards is {setup['solo_cards']} but there are "
                        f"{len(rules.solo_cards)} Solo cards")
    if setup["solo_cards"] < rules.seasons:
        # R-SOLO-9 discards one after each Domain Marking: the pile must last the whole game
        raise SoloError(f"solo.yaml setup.solo_cards ({setup['solo_cards']}) must be at least the number of "
                        f"seasons ({rules.seasons})")
    if setup["kiwibot_seat"] not in (1, 2) or setup["domain_per_vp"] < 1 or setup["season_cards_per_season"] < 1:
        raise SoloError("solo.yaml setup: kiwibot_seat must be 1 or 2, domain_per_vp and "
                        "season_cards_per_season at least 1")
    if not solo["sides"]:
        raise SoloError("solo.yaml marker has no sides (R-SOLO-12)")
    for sid, s in solo["sides"].items():
        if s.get("start") not in ("own_leader", "player_leader"):
            raise SoloError(f"solo.yaml marker side `{sid}`: start must be own_leader or player_leader")
        bad = [d for d in s.get("sequence") or [] if d != "here" and d not in DIRECTIONS]
        if bad:
            raise SoloError(f"solo.yaml marker side `{sid}`: unknown direction `{bad[0]}` "
                            f"(here, {', '.join(CLOCKWISE)})")
    if side is not None and side not in solo["sides"]:
        raise SoloError(f"unknown Solo-mode marker side `{side}` (sides: {', '.join(solo['sides'])})")
    for pid, known in STEPS.items():
        steps = solo["patterns"].get(pid)
        if steps is None:
            raise SoloError(f"solo.yaml patterns has no `{pid}` pattern (R-SOLO-11)")
        bad = [s for s in steps if s not in known]
        if bad:
            raise SoloError(f"solo.yaml pattern `{pid}`: unknown step `{bad[0]}` (known: {', '.join(sorted(known))})")
    for cid, card in rules.solo_cards.items():
        for row in ROWS:
            if len((card.get("sections") or {}).get(row) or []) != 4:
                raise SoloError(f"Solo card `{cid}`: row `{row}` needs columns 1-3 and a bonus segment")


def seats(rules: Any, players: list[str]) -> list[str]:
    """Seat order of a solo game from [player, kiwibot]: Kiwibot at `setup.kiwibot_seat` (R-SOLO-3)."""
    if len(players) != 2 or players[0] == players[1]:
        raise SoloError(f"a solo game takes players=[player_flock, kiwibot_flock], got {players}")
    player, bot = players
    return [bot, player] if int(rules.solo["setup"]["kiwibot_seat"]) == 1 else [player, bot]


def season_card_count(rules: Any) -> int:
    """How many Season cards a solo game deals: `per_season` face down per season (R-SOLO-4)."""
    return rules.season_cards_per_game * int(rules.solo["setup"]["season_cards_per_season"])


def setup_state(rules: Any, st: State, player: str, bot: str, side: str | None) -> None:
    """Kiwibot's deck with a card set aside (R-SOLO-1), the Solo card pile (R-SOLO-2), the marker side."""
    setup = rules.solo["setup"]
    fl = st.flocks[bot]
    # Kiwibot has no hand: its cards are revealed from the deck (R-SOLO-7)
    fl.deck.extend(fl.hand)
    fl.hand = []
    st.shuffle(fl.deck)   # R-SOLO-1
    set_aside = [fl.deck.pop() for _ in range(min(int(setup["set_aside"]), len(fl.deck)))]
    cards = list(rules.solo_cards)
    st.shuffle(cards)
    chosen = cards[:int(setup["solo_cards"])]
    chosen.sort(key=lambda c: (int(rules.solo_cards[c].get("number", 0)), c))   # R-SOLO-2: ascending
    if side is None:   # R-SOLO-2: "use either side": dealt from the game's seed
        sides = list(rules.solo["sides"])
        side = sides[st.rand_below(len(sides))]
    spec = rules.solo["sides"][side]
    solo: SoloState = {
        "bot": bot, "player": player, "side": side, "marker_start": str(spec["start"]),
        "marker_sequence": [str(d) for d in spec.get("sequence") or []], "pile": chosen, "discarded": [],
        "set_aside": set_aside, "flipped": 0, "per_season": int(setup["season_cards_per_season"]),
        "kiwibot_fruit": bool(setup.get("kiwibot_fruit", False)),
        "wins_ties": bool(setup.get("kiwibot_wins_ties", True)),
        "vp_per_kept_card": int(setup["vp_per_kept_card"]), "domain_per_vp": int(setup["domain_per_vp"]),
    }
    st.solo = dict(solo)


def setup_extra(rt: Runtime) -> Generator:
    """R-SOLO-3: Kiwibot's extra starting resources (its Turn Order nest fruit never arrives, R-SOLO-8)."""
    bot = rt.state.solo["bot"]
    yield from effects.run(rt, rt.rules.solo["setup"].get("kiwibot_setup"), Ctx(bot, source="solo setup"))


# --- Kiwibot's turn (R-SOLO-7) -------------------------------------------------------------------------------
def bot_turn(rt: Runtime, bot: str) -> Generator:
    """Reveal Kiwibot's next Action card into the next slot and resolve its Solo card segment (R-SOLO-7)."""
    st = rt.state
    fl = st.flocks[bot]
    if not fl.deck:
        _reshuffle(rt, bot)
    if not fl.deck:
        rt.emit("kiwibot-no-card", bot, flock=bot)
        return
    card_id = fl.deck.pop()
    fl.played.append(card_id)
    slot = len(fl.played)
    row = str(rt.rules.cards[card_id].get("type"))
    # decision R-SOLO-7: a slot beyond the card's three columns (more cards per season) uses column 3
    column = min(slot, 3)
    top = st.solo["pile"][0] if st.solo["pile"] else None
    if top is None:
        rt.emit("kiwibot-no-solo-card", bot, flock=bot, card=card_id)
        return
    segment = rt.rules.solo_cards[top]["sections"][row][column - 1]
    rt.emit("kiwibot-reveals", bot, data={"card": card_id, "slot": slot, "row": row, "column": column, "solo_card": top},
            flock=bot, card_name=labels.card_name(card_id, rt.rules.cards[card_id]), slot=slot, solo_card=top,
            row=row, column=column, segment=effects.describe(segment))
    yield from run_segment(rt, segment, Ctx(bot, turn=Turn(), source=f"{top} {row} {column}"))


def _reshuffle(rt: Runtime, bot: str) -> None:
    """R-SOLO-7: an empty deck: shuffle all of Kiwibot's cards, set one aside, the rest is the new deck.

    Decision R-SOLO-7: "all" means every card not on the flock board this season (discards and the card set
    aside); the cards in this season's slots stay there until Season Change (R-SC-2).
    """
    st = rt.state
    fl = st.flocks[bot]
    cards = fl.discard + st.solo["set_aside"]
    fl.discard = []
    st.shuffle(cards)
    n = min(int(rt.rules.solo["setup"]["set_aside"]), max(len(cards) - 1, 0))
    st.solo["set_aside"] = [cards.pop() for _ in range(n)]
    fl.deck = cards
    rt.emit("kiwibot-shuffle", bot, flock=bot, set_aside=n)


def discard_solo_card(rt: Runtime) -> Generator:
    """R-SOLO-9: after each Domain Marking the top Solo card is discarded."""
    solo = rt.state.solo
    if solo["pile"]:
        card = solo["pile"].pop(0)
        solo["discarded"].append(card)
        top = solo["pile"][0] if solo["pile"] else None
        rt.emit("solo-card", data={"discarded": card, "top": top}, card=card, top=top)
    yield from ()


# --- Season cards (R-SOLO-4/5) ------------------------------------------------------------------------------
def season_cards_of(st: State, season: int) -> list[str]:
    """The Season cards of one season in a solo game."""
    per = int(st.solo["per_season"])
    return st.season_cards[(season - 1) * per: season * per]


def flip_season_cards(rt: Runtime) -> None:
    """R-SOLO-4: at the beginning of each Season Change the season's face-down cards are flipped."""
    st = rt.state
    st.solo["flipped"] = max(int(st.solo["flipped"]), st.season)
    cards = season_cards_of(st, st.season)
    rt.emit("season-flip", data={"season": st.season, "cards": cards}, season=st.season, cards=list(cards))


def season_card_step(rt: Runtime) -> Generator:
    """R-SOLO-5: the player against Kiwibot on each of the season's cards (Kiwibot wins ties); left benefits only."""
    st = rt.state
    solo = st.solo
    player, bot = solo["player"], solo["bot"]
    cards = season_cards_of(st, st.season)
    if not cards:
        return
    won, lost = [], []
    for card_id in cards:
        card = rt.rules.season_cards[card_id]
        best, values = queries.winners(st, card["objective"], [player, bot])
        if len(best) == 1:
            victor = best[0]
        else:
            # R-SOLO-5: Kiwibot wins ties; decision: content saying otherwise leaves a tie to nobody
            victor = bot if solo["wins_ties"] else None
        (won if victor == player else lost if victor == bot else []).append(card_id)
        rt.emit("solo-season-card", data={"card": card_id, "season": st.season,
                                          "values": {f: values[f] for f in st.turn_order()}, "victor": victor, "tied": []},
                card=card_id, solo_player=player, player_value=values[player], bot=bot, bot_value=values[bot], victor=victor)
    bot_cards: list[str] = []
    kept: list[str] = []
    if won and len(won) == len(cards):
        # the player wins every card: they take one card's left benefit, Kiwibot the others' and discards them
        act = yield from ask_action(player, "solo-season-card", "You won every Season card: whose left benefit do you take?",
                                    [option(A.SeasonCard(c), labels.lazy(labels.season_card_benefit, c,
                                                                         rt.rules.season_cards[c])) for c in cards])
        player_card = act.card
        bot_cards = [c for c in cards if c != player_card]
        player_cards = [player_card]
    else:
        player_cards = list(won)
        bot_cards = list(lost)
        kept = list(lost)   # Kiwibot keeps the cards it won next to its flock board (R-SOLO-5/6)
    # decision R-SOLO-5: the player's benefit first (their choice decides what Kiwibot takes), then Kiwibot's
    for card_id in player_cards:
        yield from _left_benefit(rt, player, card_id, keep_if_vp=True)
    for card_id in bot_cards:
        yield from _left_benefit(rt, bot, card_id, keep_if_vp=False)
    st.flocks[bot].kept_season_cards.extend(kept)
    rt.emit("solo-season", data={"season": st.season, "won": won, "lost": lost, "player_cards": player_cards,
                                 "kiwibot_cards": bot_cards, "kept": kept},
            season=st.season, solo_player=player, won=len(won), cards=len(cards), kept=list(kept))


def _left_benefit(rt: Runtime, flock: str, card_id: str, keep_if_vp: bool) -> Generator:
    """A Season card's left benefit; the player keeps a VP card as a reminder (R-SCARD-3)."""
    st = rt.state
    before = st.flocks[flock].season_vp
    yield from effects.run(rt, rt.rules.season_cards[card_id].get("victor"), Ctx(flock, source=card_id))
    if keep_if_vp and st.flocks[flock].season_vp > before:
        st.flocks[flock].kept_season_cards.append(card_id)


# --- scoring (R-SOLO-6) -----------------------------------------------------------------------------------------
def endgame_vp(st: State, flock: str) -> tuple[int, int]:
    """Kiwibot's endgame VP: (kept Season cards, every `domain_per_vp` unplaced markers); (0, 0) for the player."""
    if not is_bot(st, flock):
        return 0, 0
    fl = st.flocks[flock]
    return (int(st.solo["vp_per_kept_card"]) * len(fl.kept_season_cards),
            len(fl.domain) // int(st.solo["domain_per_vp"]))
