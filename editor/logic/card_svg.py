"""A live card face as SVG for the Content page: name, type, cost, rules text and the flock colour, for action
cards, Nests, leader cards and Season cards (the rules text comes from the DSL renderer)."""
from __future__ import annotations

import base64
import html
import textwrap
from dataclasses import dataclass
from typing import Any, Callable

WIDTH, HEIGHT = 240, 336   # a 63 x 88 mm card at about 3.8 px/mm
PREVIEWED = ("action_cards", "nests", "leaders", "season_cards")

# which fields of each kind hold rules text, as (label on the card, field, DSL kind)
RULE_FIELDS: dict[str, list[tuple[str, str, str]]] = {
    "action_cards": [("", "effect", "effect"), ("Benefit", "benefit", "effect")],
    "nests": [("When built", "on_place", "effect"), ("Each season change", "on_season_change", "effect")],
    "leaders": [("", "ability", "ability")],
    "season_cards": [("Objective", "objective", "objective"), ("Victor", "victor", "effect"),
                     ("Others", "others", "effect")],
}


@dataclass(frozen=True)
class Face:
    """What a card shows."""

    title: str
    kind: str          # "Action card: move", "Tree Nest, row 1", "Leader card of Chopan", "Season card"
    cost: str | None
    lines: tuple[tuple[str, str], ...]   # (label, rules text)
    footer: str
    colour: str


def face(kind: str, node: dict, render: Callable[[Any, str], str], colour: str, owner: str = "") -> Face:
    """The face of one item (`node` as plain data; `render(text, dsl_kind)` gives its rules text)."""
    title = str(node.get("name") or node.get("id") or "?")
    if kind == "season_cards":
        from kcd.analysis.abtest import season_card_name

        title = season_card_name(node, str(node.get("id") or "?"))   # as the Board and the A/B name it
    if kind == "action_cards":
        what = f"Action card: {node.get('type', '?')}"
        if node.get("play_as"):
            what += " (plays as " + ", ".join(map(str, node["play_as"])) + ")"
    elif kind == "nests":
        what = f"{str(node.get('type', '?')).title()} Nest, row {node.get('row', '?')}"
    elif kind == "leaders":
        what = f"Leader card of {owner}" if owner else "Leader card"
    else:
        what = "Season card"
    cost = render(node["cost"], "cost") if node.get("cost") else None
    lines = tuple((label, render(node.get(name), dsl)) for label, name, dsl in RULE_FIELDS.get(kind, [])
                  if name in node)
    footer = []
    if "vp" in node:
        footer.append(f"{node['vp']} VP")
    if node.get("dominance"):
        footer.append(f"dominance {node['dominance']}")
    return Face(title, what, cost, lines, " · ".join(footer), colour)


def _wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` characters."""
    return textwrap.wrap(text, width) or [""]


def svg(card: Face) -> str:
    """The card face as a standalone SVG document."""
    e = html.escape
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" class="card-face" role="img" aria-label="{e(card.title)}">',
           f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="14" fill="#fffdf7" '
           f'stroke="{e(card.colour)}" stroke-width="4"/>',
           f'<rect x="2" y="2" width="{WIDTH - 4}" height="46" rx="14" fill="{e(card.colour)}" class="band"/>',
           f'<text x="{WIDTH // 2}" y="32" text-anchor="middle" font-family="sans-serif" font-size="18" '
           f'font-weight="bold" fill="#ffffff" class="title">{e(card.title)}</text>',
           f'<text x="{WIDTH // 2}" y="68" text-anchor="middle" font-family="sans-serif" font-size="12" '
           f'fill="#444" class="kind">{e(card.kind)}</text>']
    y = 92
    if card.cost:
        out.append(f'<text x="16" y="{y}" font-family="sans-serif" font-size="12" font-weight="bold" '
                   f'class="cost">Cost: {e(card.cost)}</text>')
        y += 24
    for label, text in card.lines:
        if label:
            out.append(f'<text x="16" y="{y}" font-family="sans-serif" font-size="11" fill="#666" '
                       f'font-weight="bold">{e(label)}</text>')
            y += 15
        for line in _wrap(text, 34):
            out.append(f'<text x="16" y="{y}" font-family="sans-serif" font-size="13" class="rules">{e(line)}</text>')
            y += 17
        y += 8
    if card.footer:
        out.append(f'<text x="{WIDTH // 2}" y="{HEIGHT - 18}" text-anchor="middle" font-family="sans-serif" '
                   f'font-size="13" font-weight="bold" class="footer">{e(card.footer)}</text>')
    out.append("</svg>")
    return "".join(out)


def img_tag(document: str) -> str:
    """An <img> with the SVG as a data URL (Streamlit's st.html shows it without running scripts)."""
    data = base64.b64encode(document.encode("utf-8")).decode("ascii")
    return f'<img src="data:image/svg+xml;base64,{data}" alt="card preview" style="max-width:100%">'
