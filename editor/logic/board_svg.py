"""Draw the island as SVG from the engine's public view dict (SPEC.md "Public view"); a pure function."""
from __future__ import annotations

import math
from html import escape
from typing import Any, Mapping

# Terrain fills: light enough that flock colours on top stay readable.
TERRAIN_FILL: dict[str, str] = {
    "flower": "#f4c2d7", "grass": "#b7e0a5", "mountain": "#c9c3b8", "sand": "#f3e3a6",
}
UNKNOWN_FILL = "#e0e0e0"
KIWI_RADIUS = {1: 6.0, 2: 8.0, 3: 10.0}
DISPLAY_WIDTH = 720.0
SQRT3 = math.sqrt(3.0)


def hex_center(q: int, r: int, size: float) -> tuple[float, float]:
    """Pixel centre of an axial hex (pointy-top layout)."""
    return size * SQRT3 * (q + r / 2.0), size * 1.5 * r


def hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex."""
    return [(cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def _colour(flock: str, colours: Mapping[str, str]) -> str:
    """A flock's drawing colour: content's `colour`, else the flock id (the base ids are CSS colour names)."""
    return escape(str(colours.get(flock, flock)), quote=True)


def _pts(points: list[tuple[float, float]]) -> str:
    """SVG points attribute."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """A five-pointed star (a Leader)."""
    pts = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        pts.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return pts


def board_svg(view: Mapping[str, Any], colours: Mapping[str, str] | None = None, size: float = 36.0,
              terrain_fill: Mapping[str, str] | None = None) -> str:
    """The island of `view` as an SVG document: hexes by terrain, Kiwi stacks (flock colour, radius and
    number by size), Leaders (stars), Nests (squares with the nest id), domain markers (diamonds)."""
    colours = dict(colours or {})
    fills = {**TERRAIN_FILL, **dict(terrain_fill or {})}
    hexes: Mapping[str, Any] = view.get("hexes") or {}
    if not hexes:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40">'
                '<text x="10" y="25">empty island</text></svg>')
    centres = {hid: hex_center(int(h.get("q", 0)), int(h.get("r", 0)), size) for hid, h in hexes.items()}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    pad = size * 1.2
    min_x, min_y = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    # drawn at least DISPLAY_WIDTH pixels wide (up to 4x): a two-hex position or a 2p island stays readable
    zoom = max(1.0, min(4.0, DISPLAY_WIDTH / width))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="kcd-board" width="{width * zoom:.0f}" '
           f'height="{height * zoom:.0f}" '
           f'viewBox="{min_x:.1f} {min_y:.1f} {width:.1f} {height:.1f}" font-family="sans-serif">']
    for hid in sorted(hexes, key=lambda h: (centres[h][1], centres[h][0])):
        h = hexes[hid]
        cx, cy = centres[hid]
        terrain = str(h.get("terrain", ""))
        ehid = escape(str(hid), quote=True)
        out.append(f'<g class="hex" data-hex="{ehid}" data-terrain="{escape(terrain, quote=True)}">')
        out.append(f'<polygon points="{_pts(hex_corners(cx, cy, size * 0.97))}" '
                   f'fill="{escape(fills.get(terrain, UNKNOWN_FILL), quote=True)}" stroke="#555" stroke-width="1"/>')
        out.append(f'<text x="{cx:.1f}" y="{cy - size * 0.62:.1f}" font-size="{size * 0.26:.1f}" '
                   f'text-anchor="middle" fill="#333">{ehid}</text>')
        _draw_contents(out, h, cx, cy, size, colours)
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _draw_contents(out: list[str], h: Mapping[str, Any], cx: float, cy: float, size: float,
                   colours: Mapping[str, str]) -> None:
    """Append a hex's domain marker, nest, Leaders and Kiwi stacks."""
    domain = h.get("domain")
    if domain:
        flock = str(domain.get("flock", ""))
        dx, dy, d = cx, cy + size * 0.55, size * 0.17
        out.append(f'<polygon class="domain" data-flock="{escape(flock, quote=True)}" '
                   f'points="{_pts([(dx, dy - d), (dx + d, dy), (dx, dy + d), (dx - d, dy)])}" '
                   f'fill="{_colour(flock, colours)}" stroke="#000" stroke-width="1"/>')
    nest = h.get("nest")
    if nest:
        flock = str(nest.get("flock", ""))
        nest_id = escape(str(nest.get("id", "")), quote=True)
        s = size * 0.3
        nx, ny = cx + size * 0.35, cy - size * 0.45
        out.append(f'<g class="nest" data-flock="{escape(flock, quote=True)}" data-nest="{nest_id}">'
                   f'<rect x="{nx:.1f}" y="{ny:.1f}" width="{s:.1f}" height="{s:.1f}" rx="2" '
                   f'fill="{_colour(flock, colours)}" stroke="#000" stroke-width="1.5"/>'
                   f'<title>{nest_id}</title></g>')
    pieces: list[tuple[str, Any]] = [("leader", f) for f in h.get("leaders") or []]
    pieces += [("kiwi", k) for k in h.get("kiwi") or []]
    if not pieces:
        return
    ring = size * 0.38 if len(pieces) > 1 else 0.0
    for index, (what, piece) in enumerate(pieces):
        angle = math.radians(-90 + 360 * index / len(pieces))
        px, py = cx + ring * math.cos(angle), cy + 4 + ring * math.sin(angle)
        if what == "leader":
            flock = str(piece)
            out.append(f'<polygon class="leader" data-flock="{escape(flock, quote=True)}" '
                       f'points="{_pts(_star(px, py, size * 0.3, size * 0.13))}" fill="{_colour(flock, colours)}" '
                       f'stroke="#000" stroke-width="1.5"><title>Leader of {escape(flock)}</title></polygon>')
        else:
            flock = str(piece.get("flock", ""))
            kiwi_size = int(piece.get("size", 1))
            radius = KIWI_RADIUS.get(kiwi_size, 6.0 + 2 * kiwi_size) * size / 36.0
            out.append(f'<g class="kiwi" data-flock="{escape(flock, quote=True)}" data-size="{kiwi_size}">'
                       f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{radius:.1f}" fill="{_colour(flock, colours)}" '
                       f'stroke="#222" stroke-width="1"/>'
                       f'<text x="{px:.1f}" y="{py + radius * 0.4:.1f}" font-size="{radius * 1.1:.1f}" '
                       f'text-anchor="middle" fill="#fff" stroke="#000" stroke-width="0.3">{kiwi_size}</text></g>')


def as_img_tag(svg: str, alt: str = "the island") -> str:
    """The SVG as an <img> with a data URI (front-ends that sanitise inline SVG still show an image)."""
    import base64
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f'<img class="kcd-board" alt="{escape(alt, quote=True)}" src="data:image/svg+xml;base64,{data}"/>'


def from_img_tag(tag: str) -> str:
    """The SVG text inside an as_img_tag() tag (for tests and tools)."""
    import base64
    return base64.b64decode(tag.split("base64,", 1)[1].split('"', 1)[0]).decode("utf-8")
