"""Kiwibot's answers to the questions ordinary procedures ask it (R-SOLO-7: it never has a pending decision):
by the Kiwibot patterns (R-SOLO-11), then the Solo-mode marker (R-SOLO-12), then "what benefits Kiwibot most"."""
from __future__ import annotations

from typing import Iterable

from interpreter.engine import placing
from interpreter.engine.context import Runtime
from interpreter.engine.decisions import Decision
from interpreter.engine.solo_marker import rank
from interpreter.engine.solo_patterns import Piece, feed_target, own_step, push_key
from interpreter.engine.solo_state import is_bot


def _hex_of(option_id: str) -> str | None:
    """The hex an option id ends at (`place:<hex>`, `grow:<flock>/<size>@<hex>`, `push:<ref>-><hex>`, `edge:<flock>-><hex>`)."""
    tail = option_id.rsplit("->", 1)[-1] if "->" in option_id else option_id.split(":", 1)[-1]
    return tail.rsplit("@", 1)[-1]


def _parse_push(rt: Runtime, option_id: str) -> tuple[Piece, str, str] | None:
    """(piece, origin, destination) of a `push:<ref>-><dest>` option."""
    try:
        ref, dest = option_id.split(":", 1)[1].rsplit("->", 1)
        if ref.startswith("leader-"):
            flock, origin = ref[len("leader-"):].rsplit("@", 1)
            return ("leader", flock), origin, dest
        origin, kiwi = placing.find_kiwi(rt, ref)
        return ("kiwi", kiwi), origin, dest
    except (KeyError, ValueError, IndexError):
        return None


def answer(rt: Runtime, decision: Decision) -> str:
    """Kiwibot's answer to a question an ordinary procedure asks it, by the patterns and the marker."""
    st = rt.state
    ids = [o.id for o in decision.options]
    ranks = rank(st)
    last = len(ranks) + 1

    def by_hex(opts: Iterable[str]) -> str:
        return min(opts, key=lambda o: (ranks.get(_hex_of(o) or "", last), ids.index(o)))

    kind = decision.kind
    if kind == "may":
        return "may:yes" if "may:yes" in ids else ids[0]   # a benefit is always taken (benefits Kiwibot most)
    if kind == "place-kiwi":
        # Pushing / placing Kiwibot Kiwi: pairs in a free hex, pairs anywhere, triads (R-SOLO-11)
        return min(ids, key=lambda o: (own_step(rt, _hex_of(o) or ""), ranks.get(_hex_of(o) or "", last)))
    if kind == "grow-kiwi":
        found = feed_target(rt, st.solo["bot"], None)
        want = f"grow:{placing.kref(found[1].flock, found[1].size, found[0])}" if found else None
        if want in ids:
            return want
        return by_hex(ids)
    if kind == "push":
        pushes = []
        for o in ids:
            parsed = _parse_push(rt, o)
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
    # build hex: its own procedures do those by the patterns (solo_patterns, solo_marking, solo_verbs)
    hexed = [o for o in ids if (_hex_of(o) or "") in ranks]
    return by_hex(hexed) if hexed else ids[0]
