"""States a viewer cannot tell apart: resample what one seat cannot see (GUIDE "hidden information never reaches a
view, a label or a log line meant for someone else") and compare everything that seat sees.

`indistinguishable` deals again other flocks' hands, decks and face-down cards, their domain reserves and the bag
(and the RNG); `views_leak` compares every viewer's whole view on such twins (the check `random_sim_test` runs).
"""
from __future__ import annotations

import json
import random

from kcd.core.state import State
from kcd.engine import Game, mode_registry as modes
from kcd.engine.context import Runtime
from kcd.engine.view import view as make_view


def indistinguishable(state: State, viewer: str | None, rng: random.Random, *, cards: bool = True,
                      reveal: bool = False, keep: bool = False) -> State:
    """A copy of `state` that `viewer` (None: a spectator) cannot tell apart from it: other flocks' hands, decks and
    face-down cards dealt again, the viewer's own deck shuffled and a new RNG (`cards`), others' domain reserves and
    the bag dealt again (unless `reveal`: every reserve is face up). `keep`: the RNG and the viewer's own deck, the
    face-down cards and Kiwibot's cards and reserve stay, so what is drawn, discarded or revealed later is the same
    in public."""
    twin = State.from_dict(state.to_dict())
    # (`keep`: the decks and reserves of the flocks the engine plays (Kiwibot) stay, since their turns reveal them,
    # R-SOLO-7/11)
    played = modes.for_state(twin).engine_flocks(twin) if keep else []
    others = [f for f in twin.seats if f != viewer and f not in played]
    if cards:
        for f in others:
            fl = twin.flocks[f]
            # (`keep`: face-down cards stay, since Season Change discards them face up)
            hidden = fl.hand + fl.deck + ([] if keep else [fl.played[i] for i in fl.facedown])
            rng.shuffle(hidden)
            fl.hand, fl.deck = hidden[:len(fl.hand)], hidden[len(fl.hand):len(fl.hand) + len(fl.deck)]
            rest = hidden[len(fl.hand) + len(fl.deck):]
            for i in ([] if keep else fl.facedown):
                fl.played[i] = rest.pop()
        if viewer is not None and not keep:
            rng.shuffle(twin.flocks[viewer].deck)
        if not keep:
            twin.rng = rng.getrandbits(64)
    if not reveal:
        pool = [t for t, n in sorted(twin.domain_bag.items()) for _ in range(n)]
        for f in others:
            pool += twin.flocks[f].domain
        rng.shuffle(pool)
        for f in others:
            fl = twin.flocks[f]
            fl.domain, pool = sorted(pool[:len(fl.domain)]), pool[len(fl.domain):]
        twin.domain_bag = {t: pool.count(t) for t in state.domain_bag}
    return twin


def reserves_revealed(game: Game) -> bool:
    """R-END-1: in the last Domain Marking, and once the game is over, every domain reserve is face up."""
    st = game.readonly_state
    return st.season >= game.rules.seasons and st.phase in ("domain_marking", "over")


def views_leak(game: Game, rng: random.Random) -> str | None:
    """Where a view shows something hidden from its viewer, or None: for every seat and the spectator, the whole
    view (board, resources, the pending decision, the log as that viewer reads it) must be the same on a twin state
    `indistinguishable` from the game's for that viewer."""
    reveal = reserves_revealed(game)
    for viewer in [*game.readonly_state.seats, None]:
        twin = indistinguishable(game.readonly_state, viewer, rng, reveal=reveal)
        seen = game.view(viewer)
        again = make_view(Runtime(game.rules, twin, game.events, game.mode), viewer, game.pending)
        if json.dumps(seen, sort_keys=True) != json.dumps(again, sort_keys=True):
            where = first_difference(json.loads(json.dumps(seen)), json.loads(json.dumps(again)), "")
            return f"the view of {viewer or 'a spectator'} depends on what it cannot see (at {where})"
    return None


def first_difference(a: object, b: object, path: str) -> str:
    """Where two JSON values first differ, as `/key/index: a != b` (for failure messages)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), f"{path}/{k}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{path}/{i}")
    return f"{path or '/'}: {_short(a)} != {_short(b)}"


def _short(value: object) -> str:
    """A value's repr, cut to a line."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."
