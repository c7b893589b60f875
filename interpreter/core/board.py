"""Axial hex geometry of the island: adjacency, edges, straight lines and distances (cached per state)."""
from __future__ import annotations

from dataclasses import dataclass

from kcd.core.state import State

# Axial directions, clockwise from east (pointy-top hexes).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class Board:
    """Static geometry of one island layout."""

    coords: dict[str, tuple[int, int]]
    at: dict[tuple[int, int], str]
    # neighbours[hex][d] is the hex in direction d, or None when that side is off the island
    neighbours: dict[str, tuple[str | None, ...]]
    # adj[hex]: the island hexes adjacent to it, in direction order (what `adjacent` returns: read, never change)
    adj: dict[str, list[str]]

    @classmethod
    def from_coords(cls, coords: dict[str, tuple[int, int]]) -> "Board":
        """Build the geometry from hex id -> axial (q, r)."""
        at = {qr: hid for hid, qr in coords.items()}
        if len(at) != len(coords):
            raise ValueError("two island hexes share the same axial coordinates")
        neighbours = {hid: tuple(at.get((q + dq, r + dr)) for dq, dr in DIRECTIONS)
                      for hid, (q, r) in coords.items()}
        adj = {hid: [n for n in around if n is not None] for hid, around in neighbours.items()}
        return cls(coords, at, neighbours, adj)

    def adjacent(self, hex_id: str) -> list[str]:
        """Island hexes adjacent to this one, in direction order (one shared list per hex: do not change it)."""
        return self.adj[hex_id]

    def is_edge(self, hex_id: str) -> bool:
        """True when at least one side of the hex faces off the island (R-LEAD-4)."""
        return None in self.neighbours[hex_id]

    def edge_hexes(self) -> list[str]:
        """All edge hexes, in island order."""
        return [h for h in self.coords if self.is_edge(h)]

    def distance(self, a: str, b: str) -> int:
        """Hex distance between two island hexes."""
        (q1, r1), (q2, r2) = self.coords[a], self.coords[b]
        dq, dr = q1 - q2, r1 - r2
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def line(self, start: str, direction: int, n: int) -> list[str] | None:
        """The n hexes walked from `start` in one direction, or None if the line leaves the island."""
        path: list[str] = []
        cur = start
        for _ in range(n):
            nxt = self.neighbours[cur][direction]
            if nxt is None:
                return None
            path.append(nxt)
            cur = nxt
        return path

    def between(self, a: str, b: str) -> list[str]:
        """Hexes strictly between a and b when they lie on one straight line, else []."""
        (q1, r1), (q2, r2) = self.coords[a], self.coords[b]
        n = self.distance(a, b)
        for dq, dr in DIRECTIONS:
            if (q1 + dq * n, r1 + dr * n) == (q2, r2):
                path = []
                for i in range(1, n):
                    hid = self.at.get((q1 + dq * i, r1 + dr * i))
                    if hid is not None:
                        path.append(hid)
                return path
        return []


# islands by their hexes' ids and coordinates: the games of one layout share one Board (it never changes)
_BOARDS: dict[tuple[tuple[str, tuple[int, int]], ...], Board] = {}


def board_of(state: State) -> Board:
    """The (cached) geometry of the state's island."""
    board: Board | None = state._board
    if board is None:
        coords = {h.id: (h.q, h.r) for h in state.hexes.values()}
        key = tuple(coords.items())
        board = _BOARDS.get(key)
        if board is None:
            board = Board.from_coords(coords)
            if len(_BOARDS) >= 64:
                _BOARDS.clear()
            _BOARDS[key] = board
        state._board = board
    return board
