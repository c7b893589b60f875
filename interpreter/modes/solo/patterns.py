"""The Kiwibot patterns of R-SOLO-11 that pick a piece or a hex: pushing (the player's Kiwi, its own),
placing its Kiwi, building, feeding / growing and taking Kiwi tokens. Hexes are tried in the Solo-mode
marker's order (R-SOLO-12); each pattern's steps come from solo.yaml `patterns`, in content order.

The Moving Kiwi pattern lives with Kiwibot's moves (moves.py), Marking Domain with its marking
(marking.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

from kcd.dsl import ast
from kcd.engine import build as build_mod
from kcd.engine import push
from kcd.content.types import SOLO_STEPS
from kcd.engine.context import Runtime
from kcd.engine.modifiers import param
from kcd.engine.selectors import Element, Scope, narrow, select
from kcd.modes.solo.marker import marker_order, rank
from kcd.modes.solo.state import is_bot, pattern_steps, solo_of
from kcd.core.state import Kiwi, State

OFF = push.OFF

# The step ids of solo.yaml `patterns` the engine knows, per pattern (R-SOLO-11): content_types.py, which the
# content compiler (rules.py) checks solo.yaml against
STEPS = SOLO_STEPS

Piece = tuple[str, Any]   # ("kiwi", Kiwi) or ("leader", flock)


@dataclass(frozen=True)
class LeaderMover:
    """A Leader as the size-3 Kiwi it moves and pushes as (R-LEAD-1, R-MOVE-2): what a Kiwibot move moves, and
    what a `kiwi` selector of a Kiwibot move or push names besides Kiwi tokens."""

    flock: str
    size: int
    id: None = None   # never excluded from a push by id: Kiwibot's pushes never take its own Leader


def element(st: State, sel: ast.Selector, hex_id: str, piece: Any) -> Element:
    """A piece as an element a selector of a Kiwibot verb tests: a Kiwi; a Leader as a size-3 Kiwi when the
    selector names `kiwi` (R-LEAD-1), else as a Leader."""
    if isinstance(piece, LeaderMover) and sel.kind != "kiwi":
        return ("leader", hex_id, piece.flock)
    return ("kiwi", hex_id, piece)


# --- pieces and pushes (Pushing player Kiwi, Pushing / placing Kiwibot Kiwi) ----------------------------------
def count_kiwi(st: State, flock: str, hex_id: str) -> int:
    """Kiwi of a flock in a hex (pieces, any size; the Leader is not a Kiwi token here)."""
    return sum(1 for k in st.hexes[hex_id].kiwi if k.flock == flock)


def push_limit(rt: Runtime, flock: str, size: int) -> int:
    """The largest size a Kiwi of `size` pushes (R-PUSH-1; the same size under R-ASYM-5)."""
    return size if param(rt, flock, "push_same_size") else size - 1


def pushable(rt: Runtime, hex_id: str, sel: ast.Selector, sc: Scope, limit: int, exclude: int | None) -> list[Piece]:
    """The pieces in a hex the selector names that a mover pushing up to size `limit` may push (R-PUSH-1):
    Kiwi, and a Leader as a size-3 Kiwi (R-LEAD-1) when a size-3 may be pushed; never the mover itself, never
    Kiwibot's own Leader (the Solo cards push Kiwi)."""
    st = rt.state
    top = rt.rules.max_size
    els: list[Element] = [("kiwi", hex_id, k) for k in st.hexes[hex_id].kiwi if k.size <= limit and k.id != exclude]
    if limit >= top:
        els += [element(st, sel, hex_id, LeaderMover(f, top)) for f in st.seats
                if st.flocks[f].leader_hex == hex_id and not is_bot(st, f)]
    out: list[Piece] = []
    for kind, _, thing in narrow(st, sel, els, sc):
        if isinstance(thing, LeaderMover):
            out.append(("leader", thing.flock))
        else:
            out.append(("leader", thing) if kind == "leader" else ("kiwi", thing))
    return out


def _piece_size(rt: Runtime, piece: Piece) -> int:
    return piece[1].size if piece[0] == "kiwi" else rt.rules.max_size


def _dest_step(rt: Runtime, dest: str, whose: str) -> int:
    """The first pattern step a push destination meets (R-SOLO-11), len(steps) if none."""
    if whose != "player":
        return own_step(rt, dest)
    st = rt.state
    player = solo_of(st).player
    steps = pattern_steps(rt, "pushing-player")
    for i, step in enumerate(steps):
        if step == "off-island" and dest == OFF:
            return i
        if dest == OFF:
            continue
        h = st.hexes[dest]
        if step == "to-domain-marker-hex" and h.domain is not None:
            return i
        if step == "to-player-nest-hex" and h.nest is not None and h.nest[0] == player:
            return i
        if step == "to-player-pair-hex" and count_kiwi(st, player, dest) >= 2:
            return i
    return len(steps)


def own_step(rt: Runtime, hex_id: str) -> int:
    """Pushing / placing Kiwibot Kiwi: the first step a hex meets (pairs, then triads; R-SOLO-11)."""
    st = rt.state
    steps = pattern_steps(rt, "pushing-placing-own")
    if hex_id == OFF:
        return len(steps) + 1   # never the Kiwi's own choice: off the island only when nothing else is left
    h = st.hexes[hex_id]
    n = count_kiwi(st, solo_of(st).bot, hex_id)
    free = h.nest is None and h.domain is None
    for i, step in enumerate(steps):
        if (step == "pair-in-free-hex" and n == 1 and free) or (step == "pair-in-any-hex" and n == 1) \
                or (step == "triad-in-free-hex" and n == 2 and free):
            return i
    return len(steps)


def push_key(rt: Runtime, piece: Piece, dest: str, whose: str, ranks: dict[str, int]) -> tuple[int, int, int]:
    """Order of (piece, destination) pairs: pattern step; then the player's biggest piece (it loses the most
    strength) or Kiwibot's smallest (its big Kiwi keep the hex it pushed into); then the marker order."""
    size = _piece_size(rt, piece)
    return (_dest_step(rt, dest, whose), -size if whose == "player" else size,
            ranks.get(dest, len(ranks)) if dest != OFF else -1)


def best_push(rt: Runtime, origin: str, found: list[Piece]) -> tuple[Piece, str] | None:
    """The push Kiwibot makes of one of `found` out of `origin`: the player's pieces before its own, then the
    pattern step, the piece and the marker order (R-SOLO-11/12)."""
    if not found:
        return None
    st = rt.state
    ranks = rank(st)
    # the destinations of any push: the neighbours, and off the island from an edge (R-PUSH-3)
    pairs = [(p, d) for p in found for d in push._targets(rt, origin)]

    def key(pd: tuple[Piece, str]) -> tuple[bool, int, int, int]:
        piece, dest = pd
        whose = "own" if is_bot(st, piece[1].flock if piece[0] == "kiwi" else piece[1]) else "player"
        return (whose == "own",) + push_key(rt, piece, dest, whose, ranks)
    return min(pairs, key=key)


# --- Feeding and Increasing size ------------------------------------------------------------------------------
def feed_target(rt: Runtime, owner: str, size: int | None) -> tuple[str, Kiwi] | None:
    """The Kiwi of `owner` Kiwibot feeds or grows: the Feeding pattern, hexes by the marker (R-SOLO-11/12).

    size None (a plain "grow 1 kiwi"): decision R-SOLO-11: no size is indicated, so the last step ("any size-1
    Kiwi") comes first, then the next sizes up.
    """
    return _feeding(rt, size, lambda k: k.flock == owner)


def feed_choice(rt: Runtime, sel: ast.Selector, sc: Scope) -> tuple[str, Kiwi] | None:
    """The Kiwi `bot feeds <pieces>` feeds: among those the selector names, its `of size` being the indicated
    size the Feeding pattern starts from (then the next lower size, then size 1; R-SOLO-11), hexes by the marker."""
    size = next((f.n for f in sel.filters if f.op == "size"), None)
    rest = replace(sel, filters=tuple(f for f in sel.filters if f.op != "size"))
    named = {e[2].id for e in select(rt.state, rest, sc) if e[0] == "kiwi"}
    return _feeding(rt, size, lambda k: k.id in named)


def _feeding(rt: Runtime, size: int | None, ok: Callable[[Kiwi], bool]) -> tuple[str, Kiwi] | None:
    """The first Kiwi that `ok` accepts by the Feeding pattern's sizes, hexes by the marker (R-SOLO-11/12)."""
    st = rt.state
    order = marker_order(st)
    if size is None:
        wanted = list(range(1, rt.rules.max_size + 1))
    else:
        wanted = []
        for step in pattern_steps(rt, "feeding-growing"):
            s = {"indicated-size": size, "next-lower-size": size - 1, "any-size-1": 1}[step]
            if s >= 1 and s not in wanted:
                wanted.append(s)
    for s in wanted:
        for h in order:
            for k in st.hexes[h].kiwi:
                if k.size == s and ok(k):
                    return h, k
    return None


# --- Building ----------------------------------------------------------------------------------------------------
def build_hex(rt: Runtime, bot: str, where: ast.Selector | None = None, sc: Scope | None = None) -> str | None:
    """The Building pattern: a hex without Nest where Kiwibot dominates with enough tokens, by the marker; among
    the hexes `where` names when given (`bot builds nest 1 on a flower hex`).

    Decision R-SOLO-11: "established dominance with two or more Kiwi" is the Build rule itself (R-BUILD-1:
    `build.min_tokens` tokens and dominance), so Kiwibot builds only where a player could.
    """
    ok = set(build_mod.hexes(rt, bot))
    if where is not None:
        ok = {e[1] for e in narrow(rt.state, where, [("hex", h, h) for h in sorted(ok)], sc or Scope(bot))}
    for step in pattern_steps(rt, "building"):
        if step == "dominance-two-kiwi-no-nest":
            for h in marker_order(rt.state):
                if h in ok:
                    return h
    return None


# --- Taking Kiwi tokens (for the island, for Domain markers) ---------------------------------------------------
def _island_token(rt: Runtime, bot: str, exclude: int | None) -> tuple[str, Kiwi] | None:
    """The island token Kiwibot takes: the first hex by the marker holding its Kiwi, from the smallest Kiwi
    there (decision R-SOLO-11: its larger Kiwi keep their pushing size)."""
    st = rt.state
    for h in marker_order(st):
        mine = [k for k in st.hexes[h].kiwi if k.flock == bot and k.id != exclude]
        if mine:
            return h, min(mine, key=lambda k: k.size)
    return None


def _take_island(rt: Runtime, bot: str, exclude: int | None) -> bool:
    """Take one token off Kiwibot's island Kiwi by the marker (R-RES-2); False when it has none."""
    found = _island_token(rt, bot, exclude)
    if found is None:
        return False
    hex_id, kiwi = found
    rt.state.resize_kiwi(hex_id, kiwi.id, -1)   # a size-0 Kiwi leaves the hex
    rt.emit("kiwibot-token", bot, flock=bot, hex=hex_id, kiwi=kiwi.id)
    return True


def take_token(rt: Runtime, bot: str, exclude: int | None) -> tuple[str, int] | None:
    """Kiwibot takes a token for the island in the order of the `tokens-for-island` pattern (R-SOLO-11).

    Returns the source like `placing.take_token` (("track", slot), ("reserve", 0), ("island", 0)) or None.
    """
    fl = rt.state.flocks[bot]
    for step in pattern_steps(rt, "tokens-for-island"):
        if step == "from-track" and fl.track > 0:
            fl.track -= 1
            fl.supply += 1
            return ("track", rt.rules.track_tokens - fl.track)
        if step == "from-reserve" and fl.reserve_kiwi > 0:
            fl.reserve_kiwi -= 1
            fl.supply += 1
            return ("reserve", 0)
        if step == "from-island-by-marker" and _take_island(rt, bot, exclude):
            fl.supply += 1
            return ("island", 0)
    return None


def cover(rt: Runtime, bot: str, hex_id: str) -> bool:
    """Take a token to cover a marker in the `tokens-for-domain` order (R-SOLO-11, R-DM-3); False if none."""
    fl = rt.state.flocks[bot]
    for step in pattern_steps(rt, "tokens-for-domain"):
        if step == "from-reserve" and fl.reserve_kiwi > 0:
            fl.reserve_kiwi -= 1
            return True
        if step == "from-track" and fl.track > 0:
            fl.track -= 1   # R-DM-3: no track benefit
            return True
        if step == "from-island-by-marker" and _take_island(rt, bot, None):
            return True
    return False
