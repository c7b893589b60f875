"""Draw the island as SVG from the engine's public view dict (SPEC.md "Public view"), and its legend; pure
functions.

Each hex keeps three zones so nothing hides anything: along the top its Nest (a glyph per Nest type, from
content: `nest_glyphs`) and its domain marker (a diamond) either side of the hex id; below them the pieces
(Leaders as stars, Kiwi as discs whose size number is printed large enough to read at 100% zoom). Hexes a
decision changed are outlined (`highlight`)."""
from __future__ import annotations

import math
from html import escape
from typing import Any, Iterable, Mapping, Sequence

# Terrain fills: light enough that flock colours on top stay readable.
TERRAIN_FILL: dict[str, str] = {
    "flower": "#f4c2d7", "grass": "#b7e0a5", "mountain": "#c9c3b8", "sand": "#f3e3a6",
}
UNKNOWN_FILL = "#e0e0e0"
HEX_SIZE = 48.0                                 # centre-to-corner, in pixels at zoom 1
KIWI_RADIUS = {1: 9.0, 2: 11.5, 3: 14.0}        # at HEX_SIZE; a size's disc is visibly bigger than the one below
MIN_FONT = 11.0                                 # pixels: the smallest text drawn on the board
DISPLAY_WIDTH = 720.0
HIGHLIGHT = "#ff6f00"                           # outline of the hexes the last decision changed
SQRT3 = math.sqrt(3.0)
# Glyphs for Nest types, given out in the order the types first appear in the content's nests (never by id).
NEST_SHAPES = ("triangle", "square", "arch", "pentagon", "hexagon", "circle")


def hex_center(q: int, r: int, size: float) -> tuple[float, float]:
    """Pixel centre of an axial hex (pointy-top layout)."""
    return size * SQRT3 * (q + r / 2.0), size * 1.5 * r


def hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex."""
    return [(cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


def _attr(value: Any) -> str:
    return escape(str(value), quote=True)


def _colour(flock: str, colours: Mapping[str, str]) -> str:
    """A flock's drawing colour: content's `colour`, else the flock id (the base ids are CSS colour names)."""
    return _attr(colours.get(flock, flock))


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (a #rrggbb colour; white on anything else)."""
    value = str(fill).lstrip("#")
    if len(value) != 6:
        return "#fff"
    try:
        r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return "#fff"
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "#fff"


def _pts(points: Iterable[tuple[float, float]]) -> str:
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


def _regular(cx: float, cy: float, radius: float, sides: int, turn: float = -90.0) -> list[tuple[float, float]]:
    return [(cx + radius * math.cos(math.radians(turn + 360 * i / sides)),
             cy + radius * math.sin(math.radians(turn + 360 * i / sides))) for i in range(sides)]


def shape_svg(shape: str, cx: float, cy: float, half: float, fill: str, stroke: str = "#000",
              width: float = 1.5) -> str:
    """One Nest glyph (`NEST_SHAPES`) centred at (cx, cy), `half` pixels from centre to edge."""
    common = f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"'
    if shape == "triangle":
        return f'<polygon points="{_pts([(cx, cy - half), (cx + half, cy + half), (cx - half, cy + half)])}" {common}/>'
    if shape == "arch":   # a cave mouth: flat floor, round roof
        return (f'<path d="M{cx - half:.1f},{cy + half:.1f} L{cx - half:.1f},{cy:.1f} '
                f'A{half:.1f},{half:.1f} 0 0 1 {cx + half:.1f},{cy:.1f} L{cx + half:.1f},{cy + half:.1f} Z" {common}/>')
    if shape == "pentagon":
        return f'<polygon points="{_pts(_regular(cx, cy, half * 1.1, 5))}" {common}/>'
    if shape == "hexagon":
        return f'<polygon points="{_pts(_regular(cx, cy, half * 1.05, 6, 0))}" {common}/>'
    if shape == "circle":
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{half:.1f}" {common}/>'
    return (f'<rect x="{cx - half:.1f}" y="{cy - half:.1f}" width="{2 * half:.1f}" height="{2 * half:.1f}" '
            f'rx="1.5" {common}/>')


def nest_glyphs(nests: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """{nest id: {type, row, shape}} from content nest items (`id`, `type`, `row`): each type its own glyph, in
    the order the types first appear; a Nest without a type is its own type."""
    shapes: dict[str, str] = {}
    out: dict[str, dict[str, Any]] = {}
    for nest in nests:
        nest_id = str(nest.get("id"))
        kind = str(nest.get("type") or nest_id)
        shapes.setdefault(kind, NEST_SHAPES[len(shapes) % len(NEST_SHAPES)])
        out[nest_id] = {"type": kind, "row": nest.get("row"), "shape": shapes[kind]}
    return out


def _grid(count: int) -> tuple[int, float]:
    """(columns, disc scale) for `count` pieces in a hex: one row up to 3, two rows up to 6, then three."""
    if count <= 3:
        return max(count, 1), 1.0
    if count <= 6:
        return math.ceil(count / 2), 0.9
    return max(3, math.ceil(count / 3)), 0.75


def board_svg(view: Mapping[str, Any], colours: Mapping[str, str] | None = None, size: float = HEX_SIZE,
              terrain_fill: Mapping[str, str] | None = None, nests: Mapping[str, Mapping[str, Any]] | None = None,
              highlight: Iterable[str] = ()) -> str:
    """The island of `view` as an SVG document: hexes by terrain, Kiwi stacks (flock colour, disc size and number
    by size), Leaders (stars), Nests (a glyph per type from `nests`, see `nest_glyphs`, with its row), domain
    markers (diamonds); the hexes in `highlight` outlined."""
    colours = dict(colours or {})
    fills = {**TERRAIN_FILL, **dict(terrain_fill or {})}
    hexes: Mapping[str, Any] = view.get("hexes") or {}
    marked = set(highlight)
    if not hexes:
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" viewBox="0 0 200 40">'
                '<text x="10" y="25">empty island</text></svg>')
    centres = {hid: hex_center(int(h.get("q", 0)), int(h.get("r", 0)), size) for hid, h in hexes.items()}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    pad = size * 1.1
    min_x, min_y = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    # drawn at least DISPLAY_WIDTH pixels wide (up to 4x): a two-hex position is not a speck
    zoom = max(1.0, min(4.0, DISPLAY_WIDTH / width))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="kcd-board" width="{width * zoom:.0f}" '
           f'height="{height * zoom:.0f}" '
           f'viewBox="{min_x:.1f} {min_y:.1f} {width:.1f} {height:.1f}" font-family="sans-serif">']
    for hid in sorted(hexes, key=lambda h: (centres[h][1], centres[h][0])):
        h = hexes[hid]
        cx, cy = centres[hid]
        terrain = str(h.get("terrain", ""))
        lit = hid in marked
        out.append(f'<g class="hex{" changed" if lit else ""}" data-hex="{_attr(hid)}" data-terrain="{_attr(terrain)}">')
        out.append(f'<polygon points="{_pts(hex_corners(cx, cy, size * 0.97))}" '
                   f'fill="{_attr(fills.get(terrain, UNKNOWN_FILL))}" stroke="#555" stroke-width="1"/>')
        out.append(f'<text x="{cx:.1f}" y="{cy - size * 0.5:.1f}" font-size="{MIN_FONT:.0f}" text-anchor="middle" '
                   f'fill="#333">{escape(str(hid))}</text>')
        _draw_contents(out, h, cx, cy, size, colours, nests or {})
        if lit:   # drawn last, over the pieces' edges, so the outline is never hidden
            out.append(f'<polygon class="last-move" points="{_pts(hex_corners(cx, cy, size * 0.9))}" fill="none" '
                       f'stroke="{HIGHLIGHT}" stroke-width="4"/>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def _draw_contents(out: list[str], h: Mapping[str, Any], cx: float, cy: float, size: float,
                   colours: Mapping[str, str], nests: Mapping[str, Mapping[str, Any]]) -> None:
    """Append a hex's Nest and domain marker (top zone), then its Leaders and Kiwi stacks (below)."""
    top = cy - size * 0.55
    domain = h.get("domain")
    if domain:
        flock = str(domain.get("flock", ""))
        dx, d = cx + size * 0.45, size * 0.2
        out.append(f'<polygon class="domain" data-flock="{_attr(flock)}" '
                   f'points="{_pts([(dx, top - d), (dx + d, top), (dx, top + d), (dx - d, top)])}" '
                   f'fill="{_colour(flock, colours)}" stroke="#000" stroke-width="1.5">'
                   f'<title>Domain marker of {escape(flock)}</title></polygon>')
    nest = h.get("nest")
    if nest:
        flock = str(nest.get("flock", ""))
        nest_id = str(nest.get("id", ""))
        glyph = nests.get(nest_id) or {}
        shape = str(glyph.get("shape", "square"))
        nx, half = cx - size * 0.45, size * 0.19
        fill = str(colours.get(flock, flock))
        row = glyph.get("row")
        label = (f'<text x="{nx:.1f}" y="{top + half * (0.75 if shape == "triangle" else 0.45):.1f}" '
                 f'font-size="{MIN_FONT - 1:.0f}" font-weight="bold" text-anchor="middle" '
                 f'fill="{text_colour(fill)}">{escape(str(row))}</text>' if row is not None else "")
        out.append(f'<g class="nest" data-flock="{_attr(flock)}" data-nest="{_attr(nest_id)}" '
                   f'data-shape="{_attr(shape)}">{shape_svg(shape, nx, top, half, _attr(fill))}{label}'
                   f'<title>{escape(nest_id)} of {escape(flock)}</title></g>')
    pieces: list[tuple[str, Any]] = [("leader", f) for f in h.get("leaders") or []]
    # bigger Kiwi first: the upper rows are where the hex is widest
    pieces += [("kiwi", k) for k in sorted(h.get("kiwi") or [], key=lambda k: (-int(k.get("size", 1)),
                                                                              str(k.get("flock"))))]
    if not pieces:
        return
    columns, scale = _grid(len(pieces))
    rows = math.ceil(len(pieces) / columns)
    step_x = min(size * 0.62 * scale, size * 1.5 / max(columns, 1))
    # the rows sit below the top zone (Nest, hex id, marker) and above the bottom corner
    step_y = size * (0.45 * scale if rows <= 2 else 0.37)
    first_y = cy + size * (0.18 if rows <= 2 else 0.32) - step_y * (rows - 1) / 2
    for index, (what, piece) in enumerate(pieces):
        row, col = divmod(index, columns)
        in_row = min(columns, len(pieces) - row * columns)
        px = cx + (col - (in_row - 1) / 2) * step_x
        py = first_y + row * step_y
        if what == "leader":
            flock = str(piece)
            out.append(f'<polygon class="leader" data-flock="{_attr(flock)}" '
                       f'points="{_pts(_star(px, py, size * 0.3 * scale, size * 0.13 * scale))}" '
                       f'fill="{_colour(flock, colours)}" stroke="#000" stroke-width="1.5">'
                       f'<title>Leader of {escape(flock)}</title></polygon>')
            continue
        flock = str(piece.get("flock", ""))
        kiwi_size = int(piece.get("size", 1))
        radius = KIWI_RADIUS.get(kiwi_size, 9.0 + 2.5 * (kiwi_size - 1)) * size / HEX_SIZE * scale
        fill = str(colours.get(flock, flock))
        font = max(MIN_FONT, radius * 1.25)
        out.append(f'<g class="kiwi" data-flock="{_attr(flock)}" data-size="{kiwi_size}">'
                   f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{radius:.1f}" fill="{_attr(fill)}" '
                   f'stroke="#222" stroke-width="1.2"/>'
                   f'<text x="{px:.1f}" y="{py + font * 0.36:.1f}" font-size="{font:.1f}" font-weight="bold" '
                   f'text-anchor="middle" fill="{text_colour(fill)}">{kiwi_size}</text>'
                   f'<title>size-{kiwi_size} Kiwi of {escape(flock)}</title></g>')


def legend_svg(colours: Mapping[str, str], names: Mapping[str, str] | None = None,
               nests: Mapping[str, Mapping[str, Any]] | None = None, terrains: Sequence[str] = (),
               terrain_fill: Mapping[str, str] | None = None, sizes: Sequence[int] = (1, 2, 3)) -> str:
    """A legend for `board_svg`: flocks by colour, terrains, Kiwi sizes, the Leader, the domain marker, each Nest
    type's glyph (with its row number) and the last-move outline. `names`: {flock id: name}."""
    names = dict(names or {})
    fills = {**TERRAIN_FILL, **dict(terrain_fill or {})}
    entries: list[tuple[str, str]] = []   # (svg of the swatch centred at 0,0, text)
    for flock, colour in colours.items():
        entries.append((f'<circle cx="0" cy="0" r="8" fill="{_attr(colour)}" stroke="#222"/>',
                        names.get(flock, flock)))
    for terrain in terrains:
        entries.append((f'<polygon points="{_pts(hex_corners(0, 0, 10))}" fill="{_attr(fills.get(terrain, UNKNOWN_FILL))}" '
                        f'stroke="#555"/>', str(terrain)))
    grey = "#bbbbbb"
    for s in sizes:
        radius = KIWI_RADIUS.get(s, 9.0 + 2.5 * (s - 1))
        entries.append((f'<circle cx="0" cy="0" r="{radius:.1f}" fill="{grey}" stroke="#222"/>'
                        f'<text x="0" y="{MIN_FONT * 0.4:.1f}" font-size="{max(MIN_FONT, radius * 1.25):.0f}" '
                        f'font-weight="bold" text-anchor="middle" fill="#111">{s}</text>', f"size-{s} Kiwi"))
    entries.append((f'<polygon points="{_pts(_star(0, 0, 13, 6))}" fill="{grey}" stroke="#000"/>', "Leader"))
    entries.append((f'<polygon points="0,-9 9,0 0,9 -9,0" fill="{grey}" stroke="#000"/>', "domain marker"))
    seen: dict[str, Mapping[str, Any]] = {}
    for glyph in (nests or {}).values():
        seen.setdefault(str(glyph.get("type")), glyph)
    for kind, glyph in seen.items():
        entries.append((shape_svg(str(glyph.get("shape")), 0, 0, 9, grey), f"{kind} Nest (number: row)"))
    entries.append((f'<polygon points="{_pts(hex_corners(0, 0, 11))}" fill="none" stroke="{HIGHLIGHT}" '
                    f'stroke-width="3"/>', "changed by the last decision"))
    per_row, cell_w, cell_h = 4, 210, 30
    rows = math.ceil(len(entries) / per_row)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="kcd-legend" width="{per_row * cell_w}" '
           f'height="{rows * cell_h + 8}" font-family="sans-serif" font-size="13">']
    for index, (swatch, text) in enumerate(entries):
        row, col = divmod(index, per_row)
        x, y = col * cell_w + 18, row * cell_h + 19
        out.append(f'<g class="legend-entry" transform="translate({x},{y})">{swatch}'
                   f'<text x="20" y="5" fill="#222">{escape(text)}</text></g>')
    out.append("</svg>")
    return "".join(out)


def as_img_tag(svg: str, alt: str = "the island") -> str:
    """The SVG as an <img> with a data URI (front-ends that sanitise inline SVG still show an image), at its
    own pixel size: text stays as large as drawn (a narrower column scrolls, see `scroll_box`)."""
    import base64
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<img class="kcd-board" alt="{escape(alt, quote=True)}" style="max-width:none" '
            f'src="data:image/svg+xml;base64,{data}"/>')


def scroll_box(html: str) -> str:
    """`html` in a box that scrolls sideways when its column is narrower (rather than shrinking the board)."""
    return f'<div class="kcd-scroll" style="overflow-x:auto">{html}</div>'



def from_img_tag(tag: str) -> str:
    """The SVG text inside an as_img_tag() tag (for tests and tools)."""
    import base64
    return base64.b64decode(tag.split("base64,", 1)[1].split('"', 1)[0]).decode("utf-8")
