"""Solo against Kiwibot (R-SOLO-1..12) as a mode: the procedures are procedures.py of this package (and its
other modules); this module plugs them into setup, the flow, decisions, views, scores and saves, and presents
the mode to the apps (the player and Kiwibot's seats, the `solo` score column, the marker side option)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from kcd.dsl import ast
from kcd.engine import mode_registry as modes
from kcd.modes.solo import hidden
from kcd.modes.solo import procedures as solo
from kcd.engine.context import Ctx, Runtime
from kcd.core.decisions import Decision
from kcd.modes.base import (PLAYER, SCORE_COLUMNS, Mode, Observed, ObservedPart, Procedure, SeatRole,
                                   SetupOption)
from kcd.content.rules import Rules
from kcd.engine.setup import SetupError
from kcd.modes.solo.state import SoloState, is_bot, solo_of
from kcd.core.state import State

# Kiwibot's seat: the engine plays it, it never has a pending decision (R-SOLO-7); its id is the service's seat kind
KIWIBOT = SeatRole("kiwibot", "Kiwibot", decides=False)
# Kiwibot's endgame VP for its unplaced domain markers (R-SOLO-6), a score column of its own before the total
MARKERS_COLUMN = "solo"


class Solo(Mode):
    """A game of one player against Kiwibot, who never has a pending decision (R-SOLO-7)."""

    name = solo.MODE
    title = "solo against Kiwibot"
    data_field = SoloState.key   # State.mode_state: a SoloState, saved under `solo`
    label = "Solo (against Kiwibot)"
    player_count = 2
    seats_text = "two flocks, the player and Kiwibot (R-SOLO-1)"
    takes_variants = False
    rotates_seats = False   # the roles are what a solo simulation measures: each game keeps them

    # --- presentation to the apps ---------------------------------------------------------------------
    def available(self, rules: Rules) -> bool:
        """The content has solo.yaml with its Solo-mode marker sides."""
        return rules.solo is not None and bool(rules.solo.sides)

    def seat_roles(self, count: int) -> tuple[SeatRole, ...]:
        """players=[player, kiwibot] (R-SOLO-1)."""
        return ((PLAYER, KIWIBOT) + (PLAYER,) * max(0, count - 2))[:count]

    def engine_flocks(self, st: State) -> list[str]:
        """Kiwibot's flock (R-SOLO-7)."""
        return [solo_of(st).bot]

    def season_cards_of(self, st: State, season: int) -> list[str]:
        """R-SOLO-4/5: `per_season` Season cards each season."""
        return solo.season_cards_of(st, season)

    def view_roles(self, view: dict[str, Any]) -> dict[str, str]:
        """Kiwibot's flock and the player's, from the view's `solo` part."""
        data = view.get("solo") or {}
        if not data:
            return {}
        flocks = [*(view.get("flocks") or {}), *(f for f in (data.get("player"), data.get("kiwibot")) if f)]
        return {f: KIWIBOT.label if f == data.get("kiwibot") else PLAYER.label for f in flocks}

    def view_flock_extras(self, view: dict[str, Any], flock_view: dict[str, Any]) -> dict[str, str]:
        """The Season cards a flock kept (R-SOLO-5)."""
        return {"kept Season cards": ", ".join(flock_view.get("kept_season_cards") or [])} if view.get("solo") else {}

    def view_panel(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Kiwibot, the marker side, the top Solo card, cards left and discarded, Kiwibot's cards set aside
        (R-SOLO-1/2/9/12)."""
        data = view.get("solo")
        if not data:
            return []
        discarded = data.get("solo_cards_discarded") or []
        return [("Kiwibot", str(data.get("kiwibot"))), ("Player", str(data.get("player"))),
                ("Solo-mode marker side", str(data.get("marker_side"))),
                ("Top Solo card", str(data.get("solo_card") or "(none left)")),
                ("Solo cards left", str(data.get("solo_cards_left", 0))),
                ("Solo cards discarded", ", ".join(discarded) or "(none)"),
                ("Kiwibot's cards set aside", str(data.get("set_aside_count", 0)))]

    def hidden_card_slots(self, st: State, flock: str) -> list[list[str]] | None:
        """Kiwibot's deck and its set-aside cards are one unknown pool (R-SOLO-1/7)."""
        return [st.flocks[flock].deck, solo_of(st).set_aside] if flock == solo_of(st).bot else None

    def resample_hidden(self, st: State, rules: Rules, rng: random.Random) -> None:
        """The Solo cards under the top one (R-SOLO-2), then the face-down Season cards (R-SOLO-4)."""
        hidden.deal_solo_pile(st, rules, rng)
        hidden.deal_season_cards(st, rules, rng)

    def score_columns(self) -> tuple[str, ...]:
        """Kiwibot's unplaced markers score in a column of their own (R-SOLO-6)."""
        return SCORE_COLUMNS[:-1] + (MARKERS_COLUMN, SCORE_COLUMNS[-1])

    def score_label(self, column: str) -> str:
        """R-SOLO-6: the `solo` column is Kiwibot's unplaced markers."""
        return "Kiwibot's unplaced markers" if column == MARKERS_COLUMN else super().score_label(column)

    def setup_options(self, rules: Rules) -> tuple[SetupOption, ...]:
        """The Solo-mode marker side (R-SOLO-12), dealt from the seed when not given."""
        sides = tuple(rules.solo.sides) if rules.solo is not None else ()
        return (SetupOption("solo_side", "Solo-mode marker side",
                            "The side of the Solo-mode marker Kiwibot's searches follow (R-SOLO-12).", sides),)

    def check_options(self, rules: Rules, options: dict[str, Any]) -> str | None:
        """The content must have solo.yaml's marker sides, and a side asked for must be one of them."""
        known = list(rules.solo.sides) if rules.solo is not None else []
        side = options.get("solo_side")
        if not known:
            return "this content has no solo mode (no Solo-mode marker sides in solo.yaml)"
        if side is not None and side not in known:
            return f"unknown solo side `{side}`; known sides: {', '.join(known)}"
        return None

    def with_variant(self, variant: Mode) -> Mode:
        """Solo takes no variant."""
        raise SetupError("solo mode is played without Variable Turn Order (variant must be None)")

    # --- setup (R-SOLO-1..4) --------------------------------------------------------------------------
    def prepare(self, rules: Rules, players: list[str], seed: int, leaders: dict[str, Any] | None,
                options: dict[str, Any]) -> tuple[list[str], dict[str, Any] | None]:
        """players=[player, kiwibot]: Kiwibot's seat from solo.yaml, its Leader dealt when not given (R-SOLO-1)."""
        try:
            solo.check_content(rules, options.get("solo_side"))
            seated = solo.seats(rules, list(players))
        except solo.SoloError as exc:
            raise SetupError(str(exc)) from None
        if leaders is not None and players[1] not in leaders:
            # R-SOLO-1: Kiwibot's Leader is random: dealt from the seed among those the player did not take
            left = [l for l in rules.leaders if l not in leaders.values()]
            if not left:
                raise SetupError("no Leader left to deal to Kiwibot")
            dealer = State(hexes={}, flocks={}, seats=[], fruit_bag={}, domain_bag={}, rng=int(seed) & ((1 << 64) - 1))
            leaders = {**leaders, players[1]: left[dealer.rand_below(len(left))]}
        return seated, leaders

    def season_cards_dealt(self, rules: Rules, available: int) -> int:
        """R-SOLO-4: `per_season` face-down Season cards per season."""
        wanted = solo.season_card_count(rules)
        if available < wanted:
            raise SetupError(f"solo mode deals {wanted} Season cards; the content has {available}")
        return wanted

    def setup_state(self, rules: Rules, st: State, players: list[str], options: dict[str, Any]) -> None:
        """Kiwibot's deck, the Solo card pile and the marker side (R-SOLO-1/2)."""
        solo.setup_state(rules, st, players[0], players[1], options.get("solo_side"))

    def setup_extra(self, rt: Runtime) -> "Procedure | None":
        """R-SOLO-3: Kiwibot's extra markers."""
        return solo.setup_extra_frame(rt)

    # --- flow ----------------------------------------------------------------------------------------
    def turn(self, rt: Runtime, flock: str) -> Procedure:
        """R-SOLO-7: Kiwibot reveals a card and resolves the Solo card instead of playing a hand."""
        return solo.BOT_TURN.start(flock) if is_bot(rt.state, flock) else super().turn(rt, flock)

    def season_card(self, rt: Runtime) -> Procedure:
        """R-SOLO-5: the player against Kiwibot on each of the season's cards."""
        return solo.SEASON_CARD_STEP.start()

    def marking_turn(self, rt: Runtime, flock: str) -> Procedure:
        """R-SOLO-11: Kiwibot marks by its pattern."""
        return solo.MARKING_TURN.start(flock) if is_bot(rt.state, flock) else super().marking_turn(rt, flock)

    def after_marking(self, rt: Runtime) -> Procedure | None:
        """R-SOLO-9: after everyone marked, the top Solo card is discarded."""
        return solo.DISCARD_SOLO_CARD.start()

    def on_season_change(self, rt: Runtime) -> None:
        """R-SOLO-4: the season's face-down Season cards are flipped."""
        solo.flip_season_cards(rt)

    # --- decisions (R-SOLO-7/8/10/11) ----------------------------------------------------------------
    def answer(self, rt: Runtime, decision: Decision) -> str | None:
        """Kiwibot answers its questions at once by its patterns; the player is asked."""
        return solo.answer(rt, decision) if decision.player == solo_of(rt.state).bot else None

    @staticmethod
    def verb_for(rt: Runtime, node: ast.Call, ctx: Ctx, fn: Callable[..., Any] | None) -> Callable[..., Any] | None:
        """The Kiwibot verbs, and Kiwibot's way of some core verbs (R-SOLO-8/10)."""
        return solo.verb_for(rt, node, ctx, fn)

    def token_taker(self, st: State, flock: str) -> Callable[..., Any] | None:
        """R-SOLO-11: Kiwibot takes tokens by its `tokens-for-island` pattern, never asking."""
        return solo.take_token if solo_of(st).bot == flock else None

    # --- results (R-SOLO-6) --------------------------------------------------------------------------
    def view_extras(self, st: State, out: dict[str, Any]) -> None:
        """Face-down Season cards and Kiwibot's set-aside cards stay hidden; the Solo card pile is face up."""
        data = solo_of(st)
        per = data.per_season
        out["season_cards"] = [{"season": i // per + 1,
                                "id": c if i // per + 1 <= data.flipped else "facedown"}
                               for i, c in enumerate(st.season_cards)]
        out["solo"] = {
            "kiwibot": data.bot, "player": data.player, "marker_side": data.side,
            "solo_card": data.pile[0] if data.pile else None, "solo_cards_left": len(data.pile),
            "solo_cards_discarded": list(data.discarded), "set_aside_count": len(data.set_aside),
        }

    def score_extras(self, st: State, flock: str, row: dict[str, int]) -> None:
        """R-SOLO-6: Kiwibot's kept Season cards are Season card VP; its unplaced markers score under `solo`."""
        kept, markers = solo.endgame_vp(st, flock)
        row["season_cards"] += kept
        row["solo"] = markers
        row["total"] += kept + markers

    def ranking(self, st: State, scores: dict[str, dict[str, int]], order: list[str]) -> list[str]:
        """R-SOLO-1, R-SOLO-6 and the solo Objective "get more Victory Points than Kiwibot": the player wins only
        with more VP, so a VP tie is Kiwibot's and the R-END-3 tiebreakers never decide it. Decision: this follows
        the solo setup's `kiwibot_wins_ties` (solo.yaml, the rule R-SOLO-5 states for Season cards), so content
        that lets the player win ties gets the ordinary tiebreakers."""
        data = solo_of(st)
        if data.wins_ties and data.bot in order:
            bot = data.bot
            best_other = max((scores[f]["total"] for f in order if f != bot), default=None)
            if best_other is not None and best_other <= scores[bot]["total"]:
                return [bot] + [f for f in order if f != bot]
        return order

    # --- saves and undo -------------------------------------------------------------------------------
    def check_save(self, rules: Rules, data: dict[str, Any]) -> list[str]:
        """The solo data names real flocks, a real marker side and distinct Solo cards of solo.yaml."""
        out = super().check_save(rules, data)
        if data["variant"] is not None:
            out.append("a solo game with Variable Turn Order")
        own = data["solo"]
        flocks = {f["id"] for f in data["flocks"]}
        if not rules.solo_cards:
            return out + ["a solo game, but this content has no solo.yaml"]
        if own["bot"] not in flocks or own["player"] not in flocks or own["bot"] == own["player"]:
            out.append(f"solo players {own['bot']}, {own['player']} are not the flocks")
        if rules.solo is None or own["side"] not in rules.solo.sides:
            out.append(f"unknown Solo-mode marker side `{own['side']}`")
        dealt = own["pile"] + own["discarded"]
        if any(c not in rules.solo_cards for c in dealt) or len(set(dealt)) != len(dealt):
            out.append(f"Solo cards {dealt} are not distinct cards of solo.yaml")
        if own["flipped"] > rules.seasons:
            out.append(f"{own['flipped']} seasons of Season cards face up in a {rules.seasons}-season game")
        return out

    def violations(self, st: State, rules: Rules, pending_player: str | None) -> list[str]:
        """R-SOLO-1..9 bookkeeping (interpreter/engine/invariants.py): Kiwibot never has the pending decision, never
        holds fruit (unless the content gives it some) or a hand, its Action cards are its deck; the Solo card pile
        is the dealt cards in ascending order, at most one discarded a season; the solo count of Season cards."""
        out = super().violations(st, rules, pending_player)
        state = st
        solo = state.mode_state
        if not isinstance(solo, SoloState):
            return ["solo: a solo game without its solo state"]
        bot_id = solo.bot
        if bot_id not in state.flocks or rules.solo is None:
            return [f"solo/bot: Kiwibot `{bot_id}` is not playing, or the content has no solo mode"]
        setup = rules.solo.setup
        bot = state.flocks[bot_id]
        if pending_player == bot_id:
            out.append("pending: Kiwibot has a pending decision")
        if not setup.kiwibot_fruit and any(bot.fruit.values()):
            out.append(f"flocks/{bot_id}/fruit: Kiwibot holds fruit {dict(bot.fruit)}")
        if bot.hand:
            out.append(f"flocks/{bot_id}/hand: Kiwibot holds a hand {bot.hand}")
        cards = Counter(bot.deck + bot.hand + bot.played + bot.discard + list(solo.set_aside))
        if cards != +Counter(rules.deck):
            out.append(f"flocks/{bot_id}/deck: Kiwibot's Action cards {dict(cards)} are not its deck {dict(rules.deck)}")
        if len(solo.set_aside) > setup.set_aside:
            out.append(f"solo/set_aside: Kiwibot has {len(solo.set_aside)} cards set aside")
        dealt = list(solo.pile) + list(solo.discarded)
        if len(dealt) != setup.solo_cards or len(set(dealt)) != len(dealt) or any(c not in rules.solo_cards for c in dealt):
            out.append(f"solo/pile: Solo cards {dealt}: expected {setup.solo_cards} distinct cards")
        else:
            numbers = [rules.solo_cards[c].number for c in solo.pile]
            if numbers != sorted(numbers):
                out.append(f"solo/pile: the Solo card pile {solo.pile} is not in ascending order")
        if len(solo.discarded) > state.season:
            out.append(f"solo/discarded: {len(solo.discarded)} Solo cards discarded by season {state.season}")
        per_game = rules.season_cards_per_game * setup.season_cards_per_season
        if len(state.season_cards) != per_game or len(set(state.season_cards)) != per_game:
            out.append(f"season_cards: {state.season_cards}: expected {per_game} distinct")
        return out

    def extra_cards(self, data: dict[str, Any], flock: str) -> list[str]:
        """Kiwibot's cards set aside (R-SOLO-1/7)."""
        return list(data["solo"]["set_aside"]) if flock == data["solo"]["bot"] else []

    def revealed(self, old: State, new: State) -> str | None:
        """A Kiwibot card, Solo card or Season card turned up."""
        bot = solo_of(old).bot
        if (old.flocks[bot].deck != new.flocks[bot].deck or solo_of(old).pile != solo_of(new).pile
                or solo_of(old).flipped != solo_of(new).flipped or solo_of(old).set_aside != solo_of(new).set_aside):
            return "a Kiwibot card, Solo card or Season card was turned up since that decision"
        return None

    # --- the RL observation ---------------------------------------------------------------------------
    def observation_parts(self, rules: Rules) -> tuple[ObservedPart, ...]:
        """The top Solo card, the cards left in the pile, the discarded ones, Kiwibot's set-aside count and the
        Solo-mode marker side (R-SOLO-2/7/9/12)."""
        cards = tuple(rules.solo_cards)
        return (ObservedPart("solo/card", cards), ObservedPart("solo/left"), ObservedPart("solo/discarded", cards),
                ObservedPart("solo/set_aside"),
                ObservedPart("solo/marker_side", tuple(rules.solo.sides) if rules.solo is not None else ()))

    def season_card_slots(self, rules: Rules) -> int:
        """`per_season` Season cards each season (R-SOLO-4)."""
        per = rules.solo.setup.season_cards_per_season if rules.solo is not None else 1
        return max(rules.season_cards_per_game, rules.seasons * per)

    def observed(self, st: State) -> Observed:
        """Kiwibot's flock, the Season cards face up (R-SOLO-4) and the parts of `observation_parts`."""
        data = solo_of(st)
        pile = data.pile
        return Observed((data.bot,), data.flipped * data.per_season,
                        (("solo/card", (pile[0],) if pile else ()), ("solo/left", len(pile)),
                         ("solo/discarded", tuple(data.discarded)), ("solo/set_aside", len(data.set_aside)),
                         ("solo/marker_side", (data.side,))))


SOLO = modes.register(Solo())
