"""The content catalogue a front end needs to show a game: packs, flocks (names, colours, sides), leaders and
their cards, action cards, Nests, Season cards with rules text, terrains, fruits, variants, modes and bots.

Everything comes from the loaded ruleset and the DSL renderer (`describe`), so a mod's new items show with
their own names and rules text.
"""
from __future__ import annotations

from typing import Any

from kcd.analysis.bots import BOTS
from kcd.content.loader import available_packs
from kcd.engine import labels
from kcd.engine.effects import describe
from kcd.content.rules import compile_rules
from kcd.analysis.sim import solo_sides, variants


def packs(root: Any = None) -> list[dict]:
    """The editions and mods of the content folder (default: the shipped content)."""
    return [{"id": p.id, "name": p.name, "kind": p.kind, "description": p.description}
            for p in available_packs(root)]


def seat_order(ruleset: Any) -> list[str]:
    """Every flock: game.yaml's `flock.seat_order` first, then the others (a mod's new flock) in content order."""
    declared = list((ruleset.game.get("flock") or {}).get("seat_order") or [])
    return declared + [item.id for item in ruleset.items("flocks") if item.id not in declared]


def nest_glyph(data: dict) -> str:
    """The symbol that marks a Nest's type on a board: its content `glyph`, else the type's first letter."""
    glyph = data.get("glyph")
    return str(glyph) if glyph else str(data.get("type") or "?")[:1].upper()


def _text(node: Any) -> str | None:
    return None if node is None else describe(node)


def catalogue(ruleset: Any) -> dict:
    """Names, rules text and colours of everything a game of this ruleset can show."""
    flocks = []
    for item in ruleset.items("flocks"):
        d = item.data
        sides = {}
        for key in ("side_a", "side_b"):
            side = d.get(key)
            if not isinstance(side, dict):
                continue
            sides[key] = {
                "extra_move": _text(side.get("extra_move")),
                "track": [{"slot": s.get("slot"), "benefit": _text(s.get("benefit"))} for s in side.get("track") or []],
                "powers": [_text(p.get("modifier")) if p.get("modifier") is not None
                           else f"{describe(p.get('when'))}: {describe(p.get('do'))}" for p in side.get("power") or []],
            }
        flocks.append({"id": item.id, "name": d.get("name", item.id), "colour": d.get("colour", "#888888"),
                       "sides": sides})
    leaders = [{"id": item.id, "name": item.data.get("name", item.id),
                "cards": [{"id": c.get("id"), "name": c.get("name", c.get("id")), "text": _text(c.get("ability"))}
                          for c in item.data.get("cards") or []]} for item in ruleset.items("leaders")]
    cards = [{"id": item.id, "name": labels.card_name(item.id, compile_rules(ruleset).cards[item.id]), "type": item.data.get("type"),
              "text": _text(item.data.get("effect")) if item.data.get("effect") is not None
              else f"Play as {', '.join(item.data.get('play_as') or [])}, or for its benefit: "
                   f"{_text(item.data.get('benefit'))}"}
             for item in ruleset.items("action_cards")]
    nests = [{"id": item.id, "name": labels.nest_name(item.id, compile_rules(ruleset).nests[item.id]), "type": item.data.get("type"),
              "glyph": nest_glyph(item.data),
              "row": item.data.get("row"), "vp": item.data.get("vp", 0),
              "text": labels.nest_label(item.id, compile_rules(ruleset).nests[item.id])} for item in ruleset.items("nests")]
    season_cards = [{"id": item.id, "name": labels.season_card_name(item.id, compile_rules(ruleset).season_cards[item.id]),
                     "objective": _text(item.data.get("objective")), "victor": _text(item.data.get("victor")),
                     "others": _text(item.data.get("others"))} for item in ruleset.items("season_cards")]
    order = seat_order(ruleset)
    counts = [int(item.data.get("players", 0)) for item in ruleset.items("layouts")] or [len(order)]
    return {
        "content": {"editions": [p.id for p in ruleset.packs if p.kind == "edition"],
                    "mods": [p.id for p in ruleset.packs if p.kind == "mod"]},
        "packs": packs(ruleset.root),
        "flocks": flocks, "seat_order": order, "leaders": leaders, "action_cards": cards, "nests": nests,
        "season_cards": season_cards,
        "terrains": list(ruleset.game.get("terrains") or []), "fruits": list(ruleset.game.get("fruits") or []),
        "variants": [{"id": vid, "name": name} for vid, name in variants(ruleset).items()],
        "modes": ["standard"] + (["solo"] if solo_sides(ruleset) else []),
        "solo_sides": solo_sides(ruleset),
        "setups": ["first-game", "advanced"],
        "players": {"min": 2, "max": min(max(counts), len(order))},
        "bots": sorted(BOTS),
    }
