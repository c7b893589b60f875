"""Piece ids: every Kiwi stack, Leader, Nest and placed domain marker on the island has one for its lifetime.

Kiwi stacks carry a number in the state (`Kiwi.id`, drawn from `State.next_kiwi`; its piece id is
`kiwi-<n>`), since twins of one flock and size can share a hex and stacks are born, split and removed. The other
pieces are unique by rule, so their ids are read off the state facts that never change while they exist, and
need no counter (saves and golden games stay as they were):
  leader-<flock>          a flock's one Leader (R-LEAD-1), from setup to the end
  nest-<flock>-<nest>     a built Nest: each flock builds each Nest once (R-BUILD-2), and it never moves
  marker-<hex>            a placed domain marker: one per hex, covered where it lies (R-DM-2/3), never moved
Views show these ids (`piece`), and `action_pieces` / `event_pieces` give the pieces an action or an event
names, read from their typed fields (an event about a Kiwi stack has its `kiwi` field, events.py): nothing
parses an option id or an event text.
"""
from __future__ import annotations

from typing import Any

from kcd.core.state import State


def kiwi_piece(kiwi_id: int) -> str:
    """The piece id of the Kiwi stack numbered `kiwi_id` (`Kiwi.id`)."""
    return f"kiwi-{kiwi_id}"


def leader_piece(flock: str) -> str:
    """The piece id of a flock's Leader."""
    return f"leader-{flock}"


def nest_piece(flock: str, nest: str) -> str:
    """The piece id of a Nest a flock built."""
    return f"nest-{flock}-{nest}"


def marker_piece(hex_id: str) -> str:
    """The piece id of the domain marker placed on a hex."""
    return f"marker-{hex_id}"


def pieces(state: State) -> dict[str, dict[str, Any]]:
    """Every piece on the island by id: {"kind": kiwi|leader|nest|marker, "flock", "hex"} (+ size, nest, terrain)."""
    out: dict[str, dict[str, Any]] = {}
    for h in state.hexes.values():
        for k in h.kiwi:
            out[kiwi_piece(k.id)] = {"kind": "kiwi", "flock": k.flock, "hex": h.id, "size": k.size}
        if h.nest is not None:
            out[nest_piece(*h.nest)] = {"kind": "nest", "flock": h.nest[0], "hex": h.id, "nest": h.nest[1]}
        if h.domain is not None:
            out[marker_piece(h.id)] = {"kind": "marker", "flock": h.domain[0], "hex": h.id, "terrain": h.domain[1]}
    for f in state.seats:
        where = state.flocks[f].leader_hex
        if where is not None:
            out[leader_piece(f)] = {"kind": "leader", "flock": f, "hex": where}
    return out


# action kinds that name the deciding player's Leader, and those that put a piece on their `hex`
_OWN_LEADER = frozenset({"move-leader", "leader", "step", "setup-leader"})


def action_pieces(action: Any, player: str) -> tuple[str, ...]:
    """The pieces an action of `player` names: the Kiwi it moves, grows or feeds, the Leader it moves or pushes,
    the marker it places (read from the action's typed fields, docs/ACTIONS.md)."""
    kind = action.kind
    if hasattr(action, "kiwi"):
        return (kiwi_piece(action.kiwi),)
    if kind in _OWN_LEADER:
        return (leader_piece(player),)
    if kind == "push-leader" or kind == "edge":
        return (leader_piece(action.flock),)
    if kind == "mark":
        return (marker_piece(action.hex),)
    if kind == "nest":
        return (nest_piece(player, action.nest),)
    return ()


def event_pieces(event: Any) -> tuple[str, ...]:
    """The pieces an event names, read from its typed fields (`Event.fields`): the Kiwi stack of its `kiwi` field,
    the Leader, Nest or marker its fields make the id of."""
    f = event.fields or {}
    form = event.form
    if "kiwi" in f:
        return (kiwi_piece(f["kiwi"]),)
    if form == "build":
        return (nest_piece(f["flock"], f["nest"]),)
    if form in ("move-leader", "leader-lands", "setup-leader"):
        return (leader_piece(f["flock"]),)
    if form == "push-leader":
        return (leader_piece(f["leader"]),)
    if form == "mark":
        return (marker_piece(f["hex"]),)
    return ()


def action_problem(state: State, action: Any) -> str | None:
    """Why an action does not fit the state, or None: the Kiwi it names by piece id must stand on its `hex` with its
    flock and size, a Leader it names on its `hex` (a loaded save's pending options are checked with it)."""
    kiwi_id = getattr(action, "kiwi", None)
    hex_id = getattr(action, "hex", None)
    if kiwi_id is not None:
        h = state.hexes.get(hex_id) if isinstance(hex_id, str) else None
        if h is None or not any(k.id == kiwi_id and k.flock == action.flock and k.size == action.size for k in h.kiwi):
            return (f"{action.id()} names Kiwi {kiwi_id}, which is not a {action.flock} size-{action.size} Kiwi "
                    f"on {hex_id}")
        return None
    if action.kind in ("push-leader", "pick-leader", "move-to-leader"):
        fl = state.flocks.get(action.flock)
        if fl is None or fl.leader_hex != hex_id:
            return f"{action.id()} names a Leader that is not on {hex_id}"
    return None
