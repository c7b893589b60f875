"""The Actions phase turn (R-ACT-1..3, R-WILD-1): play a card (as an action, a wildcard benefit or face
down for a fruit), resolve it, draw back to the hand size (reshuffling the discard pile when the deck is empty)."""
from __future__ import annotations

from typing import Any

from kcd.content.types import ActionCard
from kcd.engine import effects, labels
from kcd.engine.context import Ctx, Runtime, Turn
from kcd.core import action_types as A
from kcd.core.decisions import Option, Text, option, shared_option_caches
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Do, Env, Label, Question, program


def draw(rt: Runtime, flock: str) -> None:
    """Draw up to the hand limit; an empty deck is the shuffled discard pile (R-ACT-3, R-LIMIT-1)."""
    fl = rt.state.flocks[flock]
    while len(fl.hand) < rt.rules.hand:
        if not fl.deck:
            if not fl.discard:
                return
            fl.deck = fl.discard
            fl.discard = []
            rt.state.shuffle(fl.deck)
            rt.emit("shuffle", flock, flock=flock)
        fl.hand.append(fl.deck.pop())


class _CardOptions:
    """What a card's questions offer: a function of the card's content alone, built once and shared by every
    question (decisions.SharedOptionCaches: an option is a value, its label built when first read)."""

    __slots__ = ("card", "choose", "play", "benefit", "play_as")

    def __init__(self, card_id: str, card: ActionCard) -> None:
        self.card = card   # kept, so the id the cache is keyed by is not reused while cached
        self.choose = _parts(A.Card(card_id), labels.lazy(labels.card_label, card_id, card))
        self.play = _parts(A.word("play"), ("Play it: {}", (labels.lazy(effects.describe, card.effect),)))
        self.benefit = (None if card.benefit is None else
                        _parts(A.word("benefit"), ("Take the benefit: {}", (labels.lazy(effects.describe, card.benefit),))))
        self.play_as = {t: _parts(A.PlayAs(t), ("Play as a {} card", (t.capitalize(),))) for t in card.play_as}


def _parts(action: A.Action, label: Text) -> Option[A.Action]:
    return Option(action.id(), label, action)


_CARD_OPTIONS: dict[tuple[str, int], _CardOptions] = shared_option_caches.register({})


def _card_options(card_id: str, card: ActionCard) -> _CardOptions:
    """The shared options of one card (by its id and content object)."""
    hit = _CARD_OPTIONS.get((card_id, id(card)))
    if hit is None or hit.card is not card:
        if len(_CARD_OPTIONS) >= 4096:
            _CARD_OPTIONS.clear()
        hit = _CARD_OPTIONS[(card_id, id(card))] = _CardOptions(card_id, card)
    return hit


def modes(rt: Runtime, card_id: str, ctx: Ctx) -> list[Option[A.Action]]:
    """How a card may be played: its action (if it can be performed), wildcard uses, or face down (R-ACT-2)."""
    card = rt.rules.cards[card_id]
    shared = _card_options(card_id, card)
    opts: list[Option[A.Action]] = []
    if card.type == "wild":
        for t in card.play_as:
            eff = rt.rules.action_effect.get(t)
            if eff is not None and effects.possible(rt, eff, ctx):
                opts.append(shared.play_as[t])
        if shared.benefit is not None:
            opts.append(shared.benefit)
    elif effects.possible(rt, card.effect, ctx):
        opts.append(shared.play)
    opts.append(_FACEDOWN)
    return opts


_FACEDOWN = _parts(A.word("facedown"), "Play it face down (no effect; you may draw a fruit)")


# --- one player's turn in the Actions phase (R-ACT-1): a card, how it is played, its effect, then the draw -----
def _ask_card(rt: Runtime, env: Env) -> Question | None:
    """The card to play (None: an empty hand, nothing to play)."""
    flock = env["flock"]
    hand = rt.state.flocks[flock].hand
    if not hand:
        return None
    cards = rt.rules.cards
    # each card of the hand once, in the hand's order; asked whenever the hand holds two cards or more, even
    # two of a kind: its size is public, its cards are not (R-ACT-1), so who is asked must not tell them
    opts = []
    shared = _CARD_OPTIONS
    for c in dict.fromkeys(hand):
        card = cards[c]
        hit = shared.get((c, id(card)))   # `_card_options`, its hit written out (every turn, every card)
        opts.append((hit if hit is not None and hit.card is card else _card_options(c, card)).choose)
    return Question(flock, "card", "Play a card", opts, len(hand) > 1)


def _ask_mode(rt: Runtime, env: Env) -> Question:
    """How the chosen card is played."""
    env["card"] = card_id = env.pop("chosen").card
    # always asked: the ways to play depend on the card, which others do not see until it is played (a
    # card only playable face down would otherwise show as a turn without this question, R-ACT-2)
    return Question(env["flock"], "play-mode",
                    ("How do you play {}?", (labels.lazy(labels.card_name, card_id, rt.rules.cards[card_id]),)),
                    modes(rt, card_id, env["ctx"]), True)


def _play_card(rt: Runtime, env: Env) -> Any:
    """Play the card as chosen: its effect, its benefit, a wildcard's action, or face down."""
    flock, card_id, ctx = env["flock"], env["card"], env["ctx"]
    mode = env.pop("mode")
    fl = rt.state.flocks[flock]
    fl.hand.remove(card_id)
    fl.played.append(card_id)
    card = rt.rules.cards[card_id]
    if mode.kind == "facedown":
        fl.facedown.append(len(fl.played) - 1)   # R-ACT-2: other players' views must not show which card
        rt.emit("play-facedown", flock, flock=flock)
        return effects.run_frame(rt, rt.rules.facedown, ctx)
    if mode.kind == "benefit":
        rt.emit("play-benefit", flock, flock=flock, card=card_id)
        return effects.run_frame(rt, card.benefit, ctx)
    if isinstance(mode, A.PlayAs):
        t = mode.action_type
        rt.emit("play-as", flock, flock=flock, card=card_id, action_type=t)
        return effects.run_frame(rt, rt.rules.action_effect[t], ctx)   # R-WILD-1: no benefit then
    rt.emit("play", flock, flock=flock, card=card_id)
    return effects.run_frame(rt, card.effect, ctx)


def _draw_back(rt: Runtime, env: Env) -> None:
    draw(rt, env["flock"])


def _check_turn(rt: Runtime, env: Env, at: str) -> None:
    """A loaded turn plays a card of the content, still in the hand while its play mode is asked."""
    card = env.get("card", "")
    if (at != "card" and card not in rt.rules.cards
            or at == "mode" and card not in rt.state.flocks[env["flock"]].hand):
        raise FrameDataError(f"actions.turn: card `{str(card)[:40]}` is not in {env['flock']}'s hand")


TURN = program(
    "actions.turn", ("flock", "ctx"), {"flock": str, "ctx": Ctx, "chosen": A.Card, "card": str, "mode": A.Action},
    Ask("card", _ask_card, into="chosen", kinds={"card": ("card",)}, otherwise="draw"),
    Ask("mode", _ask_mode, into="mode", kinds={"play-mode": ("play", "benefit", "facedown", "as")}),
    Call("play", _play_card),
    Label("draw"),
    Do(_draw_back),
    check=_check_turn)


def turn_frame(rt: Runtime, flock: str) -> Cont:
    """The continuation of one player's Actions turn (R-ACT-1)."""
    return TURN.start(flock, Ctx(flock, turn=Turn(), source="action card"))
