"""Kiwibot's answers to the questions ordinary procedures ask it (R-SOLO-7: it never has a pending decision):
by the Kiwibot patterns (R-SOLO-11), then the Solo-mode marker (R-SOLO-12), then "what benefits Kiwibot most"."""
from __future__ import annotations

from typing import Iterable

from kcd.core import action_types as A
from kcd.engine import placing
from kcd.engine.context import Runtime
from kcd.core.decisions import Decision
from kcd.modes.solo.marker import rank
from kcd.modes.solo.patterns import Piece, feed_target, own_step, push_key
from kcd.modes.solo.state import is_bot, solo_of


def _push_of(rt: Runtime, action: A.Action) -> tuple[Piece, str, str] | None:
    """(piece, origin, destination) of a push action; None for other actions."""
    if isinstance(action, A.PushLeader):
        return ("leader", action.flock), action.hex, action.to
    if isinstance(action, A.PushKiwi):
        origin, kiwi = placing.kiwi_of(rt, action)
        return ("kiwi", kiwi), origin, action.to
    return None


def answer(rt: Runtime, decision: Decision) -> str:
    """Kiwibot's answer to a question an ordinary procedure asks it, by the patterns and the marker."""
    st = rt.state
    ids = [o.id for o in decision.options]
    actions = {o.id: o.action for o in decision.options if o.action is not None}
    ranks = rank(st)
    last = len(ranks) + 1

    def hex_of(option_id: str) -> str:
        return A.where(actions[option_id]) or ""

    def by_hex(opts: Iterable[str]) -> str:
        return min(opts, key=lambda o: (ranks.get(hex_of(o), last), ids.index(o)))

    kind = decision.kind
    if kind == "may":
        # a benefit is always taken (benefits Kiwibot most)
        return next((o for o in ids if isinstance(a := actions[o], A.May) and a.yes), ids[0])
    if kind == "place-kiwi":
        # Pushing / placing Kiwibot Kiwi: pairs in a free hex, pairs anywhere, triads (R-SOLO-11)
        return min(ids, key=lambda o: (own_step(rt, hex_of(o)), ranks.get(hex_of(o), last)))
    if kind == "grow-kiwi":
        found = feed_target(rt, solo_of(st).bot, None)
        if found:
            want = A.Grow(found[1].id, found[1].flock, found[1].size, found[0]).id()
            if want in ids:
                return want
        return by_hex(ids)
    if kind == "push":
        pushes = []
        for o in ids:
            parsed = _push_of(rt, actions[o])
            if parsed is None:
                continue
            piece, _, dest = parsed
            owner = piece[1].flock if piece[0] == "kiwi" else piece[1]
            whose = "own" if is_bot(st, owner) else "player"
            # the player's pieces first: an explosion's pushes are Kiwibot's weapon (R-FEED-5)
            pushes.append(((whose == "own",) + push_key(rt, piece, dest, whose, ranks), o))
        if pushes:
            return min(pushes)[1]
        return ids[0]
    if kind == "nest-order":
        return ids[0]   # decision: Kiwibot takes its Nest benefits in the order it built them
    # decision R-SOLO-11 "benefits Kiwibot most" for the rest (choose, return a marker, payments, advanced
    # setup, where a Leader pushed off lands): the first option offered, or the first hex by the marker when
    # the options name hexes. Kiwibot is never asked to take a token, cover or place a marker, or pick a
    # build hex: its own procedures do those by the patterns (patterns, marking, verbs)
    hexed = [o for o in ids if hex_of(o) in ranks]
    return by_hex(hexed) if hexed else ids[0]
