"""Per-player views (SPEC "Public view"): other hands, deck order, face-down markers and bags hidden."""
from __future__ import annotations

from typing import Any

from kcd.engine.context import Runtime
from kcd.core.decisions import Decision
from kcd.core.pieces import leader_piece, marker_piece, nest_piece


def reserves_revealed(rt: Runtime) -> bool:
    """R-END-1: in the last Domain Marking (and after the game) every reserve is face up, so the terrains of
    everyone's markers are public; before, only their number is (R-SETUP-4)."""
    st = rt.state
    return st.season >= rt.rules.seasons and st.phase in ("domain_marking", "over")


def view(rt: Runtime, player: str | None, pending: Decision | None) -> dict[str, Any]:
    """The public view for `player` (None: spectator)."""
    st = rt.state
    if player is not None and player not in st.flocks:
        raise ValueError(f"unknown player `{player}`: the players are {', '.join(st.seats)} (None: spectator)")
    reveal = reserves_revealed(rt)
    hexes = {}
    for h in st.hexes.values():
        hexes[h.id] = {
            "q": h.q, "r": h.r, "terrain": h.terrain,
            # `id`: the piece id an action names (docs/ACTIONS.md `kiwi`); stacks are public, so are their ids
            "kiwi": [{"id": k.id, "flock": k.flock, "size": k.size} for k in h.kiwi],
            "leaders": st.leaders_in(h.id),
            # `piece`: the ids of the Leaders, Nest and marker for their lifetime (interpreter/core/pieces.py)
            "leader_pieces": [leader_piece(f) for f in st.leaders_in(h.id)],
            "nest": {"flock": h.nest[0], "id": h.nest[1], "piece": nest_piece(*h.nest)} if h.nest else None,
            "domain": {"flock": h.domain[0], "terrain": h.domain[1], "piece": marker_piece(h.id)} if h.domain else None,
        }
    flocks = {}
    for f in st.seats:
        fl = st.flocks[f]
        own = player == f
        d = {
            "leader": fl.leader, "leader_piece": leader_piece(f), "leader_card": fl.leader_card, "leader_card_used": fl.leader_used, "side": fl.side,
            "fruit": dict(fl.fruit), "domain_count": len(fl.domain), "deck_count": len(fl.deck),
            # R-ACT-2: a card played face down shows as "facedown" to everyone but its owner; decision
            # (rulebook silent): the discard pile is public, so it is revealed when discarded at Season Change
            "discard": list(fl.discard),
            "played": [c if own or i not in fl.facedown else "facedown" for i, c in enumerate(fl.played)],
            "track": fl.track,
            "reserve_kiwi": fl.reserve_kiwi, "nests_built": list(fl.nests_built), "season_vp": fl.season_vp,
            "kept_season_cards": list(fl.kept_season_cards),
        }
        if own or reveal:
            d["domain"] = list(fl.domain)
        if own:
            d["hand"] = list(fl.hand)
        else:
            d["hand_count"] = len(fl.hand)
        flocks[f] = d
    order = st.turn_order()
    out = {
        # the First Player marker's holder; under Variable Turn Order the tracker, not the marker, sets
        # `turn_order` (R-VTO-4), so the two may differ
        "season": st.season, "phase": st.phase, "first_player": st.seats[st.first], "turn_order": order,
        "season_cards": [{"season": i + 1, "id": c} for i, c in enumerate(st.season_cards)],
        "pending": _pending(pending, player),
        "hexes": hexes, "flocks": flocks,
        # each line as this viewer may read it: no face-down marker someone else paid (events.py `private`)
        "log": [e.text_for(player) for e in rt.events[-30:]], "over": st.over,
    }
    rt.mode.view_extras(st, out)   # e.g. the VTO tracker, solo's face-down Season cards and Solo card pile
    return out


def _pending(pending: Decision | None, player: str | None) -> dict[str, Any] | None:
    """The pending decision: whole for the player deciding; for anyone else only who decides and its kind.

    The options and the prompt can show hidden things (R-ACT-2, R-DM-1): a card choice lists the hand, a
    payment or a marker to return lists the face-down domain markers, "How do you play Move?" names a card
    that may then be played face down.
    """
    if pending is None:
        return None
    if player == pending.player:
        return pending.to_dict()
    return {"player": pending.player, "kind": pending.kind, "prompt": f"Waiting for {pending.player}",
            "options": []}
