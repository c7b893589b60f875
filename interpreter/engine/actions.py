"""The Actions phase turn (R-ACT-1..3, R-WILD-1): play a card (as an action, a wildcard benefit or face
down for a fruit), resolve it, draw back to the hand size (reshuffling the discard pile when the deck is empty)."""
from __future__ import annotations

from interpreter.engine import effects, labels
from interpreter.engine.context import Ctx, Runtime, Turn
from interpreter.engine import action_types as A
from interpreter.engine.decisions import Option, Steps, ask_action, option


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


def modes(rt: Runtime, card_id: str, ctx: Ctx) -> list[Option]:
    """How a card may be played: its action (if it can be performed), wildcard uses, or face down (R-ACT-2)."""
    card = rt.rules.cards[card_id]
    opts: list[Option[A.Action]] = []
    if card.type == "wild":
        for t in card.play_as:
            eff = rt.rules.action_effect.get(t)
            if eff is not None and effects.possible(rt, eff, ctx):
                opts.append(option(A.PlayAs(t), f"Play as a {t.capitalize()} card"))
        if card.benefit is not None:
            opts.append(option(A.word("benefit"), f"Take the benefit: {effects.describe(card.benefit)}"))
    elif effects.possible(rt, card.effect, ctx):
        opts.append(option(A.word("play"), f"Play it: {effects.describe(card.effect)}"))
    opts.append(option(A.word("facedown"), "Play it face down (no effect; you may draw a fruit)"))
    return opts


def turn(rt: Runtime, flock: str) -> Steps[None]:
    """One player's turn in the Actions phase (R-ACT-1)."""
    fl = rt.state.flocks[flock]
    ctx = Ctx(flock, turn=Turn(), source="action card")
    if fl.hand:
        seen: list[str] = []
        for c in fl.hand:
            if c not in seen:
                seen.append(c)
        act = yield from ask_action(flock, "card", "Play a card",
                                    [option(A.Card(c), labels.card_label(c, rt.rules.cards[c])) for c in seen])
        card_id = act.card
        mode = yield from ask_action(flock, "play-mode", f"How do you play {labels.card_name(card_id, rt.rules.cards[card_id])}?",
                              modes(rt, card_id, ctx))
        fl.hand.remove(card_id)
        fl.played.append(card_id)
        card = rt.rules.cards[card_id]
        if mode.kind == "facedown":
            fl.facedown.append(len(fl.played) - 1)   # R-ACT-2: other players' views must not show which card
            rt.emit("play-facedown", flock, flock=flock)
            yield from effects.run(rt, rt.rules.facedown, ctx)
        elif mode.kind == "benefit":
            rt.emit("play-benefit", flock, flock=flock, card=card_id)
            yield from effects.run(rt, card.benefit, ctx)
        elif isinstance(mode, A.PlayAs):
            t = mode.action_type
            rt.emit("play-as", flock, flock=flock, card=card_id, action_type=t)
            yield from effects.run(rt, rt.rules.action_effect[t], ctx)   # R-WILD-1: no benefit then
        else:
            rt.emit("play", flock, flock=flock, card=card_id)
            yield from effects.run(rt, card.effect, ctx)
    draw(rt, flock)
