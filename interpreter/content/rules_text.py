"""Rules text of a whole ruleset, generated from its DSL, grouped like the rulebook (`kcd rules`)."""
from __future__ import annotations

from typing import Any

from kcd.content.model import Item, Ruleset
from kcd.dsl.ast import Node
from kcd.dsl.render import LANGS, render
from kcd.dsl.render_solo import segment_text

# Headings and labels per language; the DSL renderer provides the rules text itself.
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Kiwi Chow Down: rules text", "action_cards": "Action cards", "nests": "Nests",
        "leaders": "Leaders", "season_cards": "Season cards", "flocks": "Flock boards",
        "turn_order": "Turn Order nests", "tracker": "Variable Turn Order tracker",
        "cost": "Cost", "on_place": "On placement", "on_season_change": "At each Season Change",
        "vp": "Victory Points at the end", "dominance": "Counts in its hex as", "tokens": "Kiwi tokens",
        "row": "row", "copies": "copies in each deck", "copy": "copy in each deck", "play_as": "Play as", "or_benefit": "or for its benefit",
        "objective": "Condition", "victor": "Victor", "others": "Other players", "side": "Side",
        "extra_move": "Extra Move action", "track": "Kiwi track", "slot": "slot", "nothing": "nothing",
        "power": "Power", "requisites": "Requisites", "seat": "Seat", "setup": "Setup",
        "edition": "Content", "facedown": "A card played face down",
        "solo": "Solo cards (Kiwibot)", "solo_card": "Solo card", "column": "column", "bonus": "bonus action",
    },
}


def languages() -> tuple[str, ...]:
    """Languages rules text can be printed in (those of the DSL renderer with labels here)."""
    return tuple(lang for lang in LANGS if lang in _WORDS)


def _text(value: Any, lang: str) -> str:
    """Rules text of a compiled field (None renders as the Season Card Guide's "No benefit")."""
    if value is None or isinstance(value, Node.__args__):  # type: ignore[attr-defined]
        return render(value, lang)
    return str(value)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _title(item: Item) -> str:
    """"Name (id)", or the id read as words ("Wild Fruit") when the item has no name."""
    name = item.data.get("name")
    return f"{name} ({item.id})" if name else item.id.replace("-", " ").replace("_", " ").title()


def rules_text(rs: Ruleset, lang: str = "en") -> str:
    """The whole ruleset's rules text as Markdown-like plain text."""
    if lang not in languages():
        raise ValueError(f"unknown language `{lang}`; available: {', '.join(languages())}")
    w = _WORDS[lang]
    out: list[str] = []
    content = " + ".join(["base"] + [p.id for p in rs.packs])
    out += [f"# {w['title']}", "", f"{w['edition']}: {content}", ""]

    deck = (rs.game.get("flock") or {}).get("deck") or {}
    out += [f"## {w['action_cards']}", ""]
    for card in rs.items("action_cards"):
        copies = deck.get(card.id)
        count = f" ({copies} {w['copy'] if copies == 1 else w['copies']})" if copies else ""
        d = card.data
        if d.get("effect") is not None:
            out.append(f"- {_title(card)}{count}: {_sentence(_text(d['effect'], lang))}")
        else:
            play_as = ", ".join(str(t).capitalize() for t in d.get("play_as") or [])
            benefit = _text(d.get("benefit"), lang)
            out.append(f"- {_title(card)}{count}: {w['play_as']} {play_as}, {w['or_benefit']}: {_sentence(benefit)}")
    facedown = (rs.game.get("facedown") or {}).get("effect")
    if facedown is not None:
        out.append(f"- {w['facedown']}: {_sentence(_text(facedown, lang))}")
    out.append("")

    out += [f"## {w['nests']}", ""]
    for nest in rs.items("nests"):
        d = nest.data
        head = f"- {str(d.get('type', '')).capitalize()} Nest, {w['row']} {d.get('row')} ({nest.id})"
        parts = [f"{w['cost']}: {_sentence(_text(d.get('cost'), lang))}"]
        parts.append(f"{w['on_place']}: {_sentence(_text(d.get('on_place'), lang))}")
        parts.append(f"{w['on_season_change']}: {_sentence(_text(d.get('on_season_change'), lang))}")
        if d.get("dominance"):
            parts.append(f"{w['dominance']} {d['dominance']} {w['tokens']}.")
        parts.append(f"{w['vp']}: {d.get('vp', 0)}.")
        out.append(head + ": " + " ".join(parts))
    out.append("")

    out += [f"## {w['leaders']}", ""]
    for leader in rs.items("leaders"):
        out.append(f"### {leader.data.get('name', leader.id)}")
        for card in leader.data.get("cards") or []:
            out.append(f"- {card.get('name', card.get('id'))} ({card.get('id')}): "
                       f"{_sentence(_text(card.get('ability'), lang))}")
        out.append("")

    out += [f"## {w['season_cards']}", ""]
    for card in rs.items("season_cards"):
        d = card.data
        out.append(f"- {card.id}: {w['objective']}: {_sentence(_text(d.get('objective'), lang))} "
                   f"{w['victor']}: {_sentence(_text(d.get('victor'), lang))} "
                   f"{w['others']}: {_sentence(_text(d.get('others'), lang))}")
    out.append("")

    out += [f"## {w['flocks']}", ""]
    for flock in rs.items("flocks"):
        out.append(f"### {flock.data.get('name', flock.id)}")
        for side_key, side_name in (("side_a", "A"), ("side_b", "B")):
            side = flock.data.get(side_key)
            if not isinstance(side, dict):
                continue
            out.append(f"{w['side']} {side_name}:")
            if side.get("extra_move") is not None:
                out.append(f"- {w['extra_move']}: {_sentence(_text(side['extra_move'], lang))}")
            slots = []
            for slot in side.get("track") or []:
                benefit = slot.get("benefit")
                said = w["nothing"] if benefit is None else render(benefit, lang, sentence=False)
                slots.append(f"{w['slot']} {slot.get('slot')}: {said}")
            if slots:
                out.append(f"- {w['track']}: " + "; ".join(slots) + ".")
            for power in side.get("power") or []:
                if power.get("modifier") is not None:
                    out.append(f"- {w['power']}: {_sentence(_text(power['modifier'], lang))}")
                else:
                    when = render(power.get("when"), lang)
                    do = render(power.get("do"), lang, sentence=False)
                    out.append(f"- {w['power']}: {when}, {_sentence(do)}")
            if side.get("requisites"):
                out.append(f"- {w['requisites']}: {side['requisites']}")
        out.append("")

    out += [f"## {w['turn_order']}", ""]
    for nest in rs.items("turn_order_nests"):
        out.append(f"- {w['seat']} {nest.data.get('seat')} ({nest.id}): {w['setup']}: "
                   f"{_sentence(_text(nest.data.get('setup'), lang))}")
    out.append("")
    tracker = rs.items("tracker_slots")
    if tracker:
        out += [f"## {w['tracker']}", ""]
        for slot in tracker:
            out.append(f"- {w['slot'].capitalize()} {slot.data.get('slot')}: "
                       f"{_sentence(_text(slot.data.get('effect'), lang))}")
        out.append("")
    solo_cards = rs.items("solo_cards")
    if solo_cards:   # each row: the segment of flock-board columns 1-3, then the one a bonus action resolves (R-SOLO-7/8)
        out += [f"## {w['solo']}", ""]
        for card in solo_cards:
            out.append(f"### {w['solo_card']} {card.data.get('number', card.id)} ({card.id})")
            for row, segments in (card.data.get("sections") or {}).items():
                parts = [f"{w['column'].capitalize()} {i + 1}: {_sentence(segment_text(seg))}"
                         for i, seg in enumerate(segments[:-1])]
                parts.append(f"{w['bonus'].capitalize()}: {_sentence(segment_text(segments[-1]))}" if segments else "")
                out.append(f"- {row.capitalize()}: " + " ".join(p for p in parts if p))
            out.append("")
    return "\n".join(out).rstrip() + "\n"
