"""Readable names of content items for decision prompts and option labels (content names, else the DSL text).

Front ends show `Option.label` as is, so a label never is a bare content id: it is the item's `name` from
content when it has one, else words built from its fields and its rules text (the DSL renderer). Labels are built
only when read (decisions.Text): a procedure passes `lazy(card_label, card_id, card)`, not the string.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

from kcd.content.types import ActionCard, Nest, SeasonCard
from kcd.engine.describe import describe


def lazy(fn: Callable[..., str], *args: Any) -> Callable[[], str]:
    """`fn(*args)`, called only when the label or prompt it gives is read (a decisions.Text)."""
    return partial(fn, *args)


def _words(item_id: str) -> str:
    """An id read as words: `wild-fruit` -> "Wild Fruit"."""
    return item_id.replace("-", " ").replace("_", " ").title()


def card_name(card_id: str, card: ActionCard) -> str:
    """An action card's name: its content `name`, else its id as words ("Move", "Wild Fruit")."""
    return card.name if card.name else _words(card_id)


# (card id, id of its compiled data) -> (the data, its label): a hand's labels are built on every turn and every
# bot lookahead replays turns, while the compiled card data never changes; the entry keeps the data alive, so its
# id is not reused while cached.
_CARD_LABELS: dict[tuple[str, int], tuple[ActionCard, str]] = {}


def card_label(card_id: str, card: ActionCard) -> str:
    """A card in hand: its name, and for a Wildcard what its own benefit gives (R-WILD-1)."""
    hit = _CARD_LABELS.get((card_id, id(card)))
    if hit is not None and hit[0] is card:
        return hit[1]

    name = card_name(card_id, card)
    if card.type == "wild" and card.benefit is not None:
        name = f"{name} (benefit: {describe(card.benefit)})"
    if len(_CARD_LABELS) > 512:
        _CARD_LABELS.clear()
    _CARD_LABELS[(card_id, id(card))] = (card, name)
    return name


def nest_name(nest_id: str, nest: Nest) -> str:
    """A Nest's name: its content `name`, else "Tree Nest, row 1" from its type and row (R-BUILD-2)."""
    if nest.name:
        return nest.name
    kind = nest.type.strip()
    if not kind:
        return _words(nest_id)
    return f"{kind.capitalize()} Nest, row {nest.row}"


def nest_label(nest_id: str, nest: Nest) -> str:
    """A Nest to build: name, cost and what placing it gives (R-BUILD-3)."""

    parts = [f"cost: {describe(nest.cost)}"]
    if nest.on_place is not None:
        parts.append(f"on placement: {describe(nest.on_place)}")
    if nest.vp:
        parts.append(f"{nest.vp} VP")
    return f"Build the {nest_name(nest_id, nest)} ({'; '.join(parts)})"


def season_card_name(card_id: str, card: SeasonCard) -> str:
    """A Season card by its content `name`, else by its objective's rules text ("Most Kiwi tokens in flower hexes")."""

    if card.name:
        return card.name
    return describe(card.objective) if card.objective is not None else _words(card_id)


def season_card_benefit(card_id: str, card: SeasonCard) -> str:
    """A Season card and its victor's benefit: "Most Nests: Gain 2 Fruits" (R-SOLO-5: whose benefit to take)."""
    return f"{season_card_name(card_id, card)}: {describe(card.victor)}"
