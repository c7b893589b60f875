"""Readable names of content items for decision prompts and option labels (content names, else the DSL text).

Front ends show `Option.label` as is, so a label never is a bare content id: it is the item's `name` from
content when it has one, else words built from its fields and its rules text (the DSL renderer).
"""
from __future__ import annotations

from typing import Any, Mapping

from interpreter.engine.describe import describe


def _words(item_id: str) -> str:
    """An id read as words: `wild-fruit` -> "Wild Fruit"."""
    return item_id.replace("-", " ").replace("_", " ").title()


def card_name(card_id: str, card: Mapping[str, Any]) -> str:
    """An action card's name: its content `name`, else its id as words ("Move", "Wild Fruit")."""
    name = card.get("name")
    return str(name) if name else _words(card_id)


def card_label(card_id: str, card: Mapping[str, Any]) -> str:
    """A card in hand: its name, and for a Wildcard what its own benefit gives (R-WILD-1)."""

    name = card_name(card_id, card)
    if card.get("type") == "wild" and card.get("benefit") is not None:
        return f"{name} (benefit: {describe(card['benefit'])})"
    return name


def nest_name(nest_id: str, nest: Mapping[str, Any]) -> str:
    """A Nest's name: its content `name`, else "Tree Nest, row 1" from its type and row (R-BUILD-2)."""
    name = nest.get("name")
    if name:
        return str(name)
    kind = str(nest.get("type") or "").strip()
    if not kind:
        return _words(nest_id)
    return f"{kind.capitalize()} Nest, row {nest.get('row', 1)}"


def nest_label(nest_id: str, nest: Mapping[str, Any]) -> str:
    """A Nest to build: name, cost and what placing it gives (R-BUILD-3)."""

    parts = [f"cost: {describe(nest.get('cost'))}"]
    if nest.get("on_place") is not None:
        parts.append(f"on placement: {describe(nest['on_place'])}")
    if nest.get("vp"):
        parts.append(f"{nest['vp']} VP")
    return f"Build the {nest_name(nest_id, nest)} ({'; '.join(parts)})"


def season_card_name(card_id: str, card: Mapping[str, Any]) -> str:
    """A Season card by its content `name`, else by its objective's rules text ("Most Kiwi tokens in flower hexes")."""

    name = card.get("name")
    if name:
        return str(name)
    objective = card.get("objective")
    return describe(objective) if objective is not None else _words(card_id)
