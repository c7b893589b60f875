"""The Solo-mode marker (R-SOLO-12): the order in which Kiwibot tries the island's hexes."""
from __future__ import annotations

from kcd.core.board import Board, board_of
from kcd.content.types import SOLO_MARKER_DIRECTIONS
from kcd.core.state import State
from kcd.modes.solo.state import SoloState

# Solo-mode marker directions as axial steps; the island is drawn pointy-top with r growing downwards
# (editor/logic/board_svg.py), so this is the clockwise order on the table.
DIRECTIONS: dict[str, tuple[int, int]] = {"e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0),
                                          "nw": (0, -1), "ne": (1, -1)}
CLOCKWISE: tuple[str, ...] = SOLO_MARKER_DIRECTIONS   # the names solo.yaml may use (content_types.py)


# (board, start hex, directions) -> (the board, the island's hex order, the search order, its ranks): a game asks
# for the order at every Kiwibot choice and it only changes when the indicated Leader moves. The entry holds the
# board, so its id is not reused while cached.
_ORDERS: dict[tuple[int, str | None, tuple[str, ...]], tuple[Board, tuple[str, ...], list[str], dict[str, int]]] = {}


def _search(st: State) -> tuple[list[str], dict[str, int]]:
    """The marker's search order and each hex's rank in it, computed once per board, start hex and sequence."""
    solo = st.mode_state
    start: str | None = None
    dirs: tuple[str, ...] = ()
    if isinstance(solo, SoloState):
        start_flock = solo.bot if solo.marker_start == "own_leader" else solo.player
        start = st.flocks[start_flock].leader_hex if start_flock in st.flocks else None
        dirs = tuple(d for d in solo.marker_sequence if d != "here")
    b = board_of(st)
    key = (id(b), start, dirs)
    island = tuple(st.hexes)
    hit = _ORDERS.get(key)
    if hit is not None and hit[0] is b and hit[1] == island:
        return hit[2], hit[3]
    order = _order(st, b, start, dirs)
    if len(_ORDERS) > 4096:
        _ORDERS.clear()
    _ORDERS[key] = (b, island, order, {h: i for i, h in enumerate(order)})
    return order, _ORDERS[key][3]


def marker_order(st: State) -> list[str]:
    """Every island hex in the order the Solo-mode marker searches them (R-SOLO-12; shared: read it, never change it)."""
    return _search(st)[0]


def _order(st: State, b: Board, start: str | None, dirs: tuple[str, ...]) -> list[str]:
    """The search from the indicated Leader's hex (`here`), then ring after ring: in each ring, for each listed
    direction the hex that many steps that way, then clockwise round the ring to the next direction's hex.
    Decision R-SOLO-12: hexes a short sequence never reaches come last in island order, and with the Leader not yet
    on the island (advanced setup) the search is the island order.
    """
    if start is None or start not in st.hexes:
        return list(st.hexes)
    q0, r0 = b.coords[start]
    # decision R-SOLO-12: the start hex is always tried first (every side of the marker starts "here")
    out: list[str] = [start]
    seen = set(out)
    reach = max(b.distance(start, h) for h in b.coords)
    for k in range(1, reach + 1):
        for d in dirs:
            dq, dr = DIRECTIONS[d]
            sq, sr = DIRECTIONS[CLOCKWISE[(CLOCKWISE.index(d) + 2) % 6]]   # clockwise to the next corner
            for i in range(k):
                hid = b.at.get((q0 + dq * k + sq * i, r0 + dr * k + sr * i))
                if hid is not None and hid not in seen:
                    seen.add(hid)
                    out.append(hid)
    out += [h for h in st.hexes if h not in seen]
    return out


def rank(st: State) -> dict[str, int]:
    """Hex -> its position in the marker search (shared: read it, never change it)."""
    return _search(st)[1]
