"""Observation tensors for learning agents: what one player sees, as a flat float32 array, built without text.

`ObservationSpace(ruleset, players)` publishes the layout (`shape`, `planes`, `vector_fields`); the tensor is the
per-hex planes (`planes` x `hexes`, row-major) followed by the vector. Seats are ordered from the observer:
seat 0 is the observer, then clockwise (state.seats order), so a policy reads "mine" and "the next player's" the
same way in every seat. Counts are raw numbers (not scaled).

Planes, one value per island hex (hexes in `ActionSpace.hexes` order):
- `terrain/<t>`: 1 on hexes of terrain t; `edge`: 1 on edge hexes (R-LEAD-4);
- `kiwi/<seat>/<size>`: how many Kiwi of that seat's flock and size stand on the hex;
- `leader/<seat>`: that seat's Leader is on the hex;
- `nest/<seat>/<nest>`: that seat's Nest of this id (type and row) is on the hex;
- `marker/<seat>`: that seat's domain marker is on the hex.

The vector, per seat from the observer: flock, side, Leader and Leader card (one-hot), Leader card used, Leader
off the island, fruit by colour, domain markers in reserve (count; by terrain for the observer, and for everyone
in the last Domain Marking, R-END-1), hand and deck sizes, discard pile and face-up played cards by card,
face-down played cards (count, R-ACT-2), track, Player Reserve, supply, covers, season VP, Nests built, Season
cards kept, turn tracker slot and last slot (R-VTO-3, one-hot with "none"), tokens on the tracker, First
Player, place in this season's turn order, deciding now, is Kiwibot; then the observer's hand by card; then the
game: season and phase (one-hot), the Season cards by season slot (one-hot, with a face-down flag, R-SOLO-4),
the fruit bag by colour, and in solo games the top Solo card, Solo cards left, discarded Solo cards, Kiwibot's
set-aside count and the marker side. Nothing else hidden enters: other hands, deck orders, face-down cards and
reserves, the domain bag and the RNG never do (tests/test_rl_observation.py resamples them).

`information_state_tensor` appends the last `HISTORY` events of the game log, each as its form (one-hot over
events.FORMS) and the seat of its player (one-hot, plus "none"): every event is shown to every player in some
form (`view`'s log), so this adds memory of what happened, never a hidden value.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from interpreter.engine.board import DIRECTIONS
from interpreter.engine.events import FORMS
from interpreter.engine.game import Game
from interpreter.engine.rules import compile_rules
from interpreter.engine.setup import island_hexes
from interpreter.engine.solo_state import solo_of
from interpreter.memo import per_object
from interpreter.rl.actions import ActionSpace, action_space

HISTORY = 16
_NONE_SLOT = 0


class _Layout:
    """Named ranges of a flat vector, appended in order."""

    def __init__(self) -> None:
        self.size = 0
        self.fields: list[tuple[str, int, int]] = []   # (name, start, length)

    def add(self, name: str, length: int) -> int:
        start = self.size
        self.fields.append((name, start, length))
        self.size += length
        return start


class ObservationSpace:
    """The observation layout of one ruleset and player count, and the encoders (see the module docstring)."""

    def __init__(self, ruleset: Any, players: int) -> None:
        rules = compile_rules(ruleset)
        self.rules = rules
        self.players = players
        self.actions: ActionSpace = action_space(ruleset, players)
        hexes, _ = island_hexes(rules, players)
        self.hexes = self.actions.hexes
        n = self.n_hexes = len(self.hexes)
        self._hex_at = {h: i for i, h in enumerate(self.hexes)}
        self.flocks = self.actions.flocks
        self.nests = tuple(rules.nests)
        self.cards = tuple(rules.cards)
        self.season_cards = tuple(rules.season_cards)
        self.solo_cards = tuple(rules.solo_cards)
        self.leaders = tuple(rules.leaders)
        self.leader_cards = tuple(rules.leader_cards)
        self.sides = tuple(sorted({s for sides in rules.flocks.values() for s in sides}))
        self.slots = tuple(sorted(rules.tracker))
        self.phases = tuple(dict.fromkeys(["setup", *rules.phases, *rules.vto_phases, "over"]))
        per = rules.solo.setup.season_cards_per_season if rules.solo is not None else 1
        self.season_slots = max(rules.season_cards_per_game, rules.seasons * per)
        self.marker_sides = tuple(rules.solo.sides) if rules.solo is not None else ()
        p, size = players, rules.max_size
        # planes
        self.planes: list[str] = []
        for t in rules.terrains:
            self.planes.append(f"terrain/{t}")
        self.planes.append("edge")
        for s in range(p):
            self.planes += [f"kiwi/{s}/{k}" for k in range(1, size + 1)]
        self.planes += [f"leader/{s}" for s in range(p)]
        for s in range(p):
            self.planes += [f"nest/{s}/{nest}" for nest in self.nests]
        self.planes += [f"marker/{s}" for s in range(p)]
        plane = {name: i for i, name in enumerate(self.planes)}
        self._kiwi = [[plane[f"kiwi/{s}/{k}"] * n for k in range(1, size + 1)] for s in range(p)]
        self._leader = [plane[f"leader/{s}"] * n for s in range(p)]
        self._nest = [{nest: plane[f"nest/{s}/{nest}"] * n for nest in self.nests} for s in range(p)]
        self._marker = [plane[f"marker/{s}"] * n for s in range(p)]
        coords = {h.id: (h.q, h.r) for h in hexes.values()}
        at = set(coords.values())
        static: list[int] = []
        for i, hid in enumerate(self.hexes):
            static.append(plane[f"terrain/{hexes[hid].terrain}"] * n + i)
            q, r = coords[hid]
            if any((q + dq, r + dr) not in at for dq, dr in DIRECTIONS):
                static.append(plane["edge"] * n + i)
        self._static = static
        # the vector, after the planes
        lay = _Layout()
        lay.size = len(self.planes) * n
        self._seat: list[dict[str, int]] = []
        for s in range(p):
            at_ = {}
            for name, length in [("flock", len(self.flocks)), ("side", len(self.sides)),
                                 ("leader", len(self.leaders)), ("leader_card", len(self.leader_cards)),
                                 ("leader_used", 1), ("leader_off", 1), ("fruit", len(rules.fruits)),
                                 ("domain_count", 1), ("domain", len(rules.terrains)), ("hand_count", 1),
                                 ("deck_count", 1), ("discard", len(self.cards)), ("played", len(self.cards)),
                                 ("facedown", 1), ("track", 1), ("reserve_kiwi", 1), ("supply", 1), ("covers", 1),
                                 ("season_vp", 1), ("nests_built", len(self.nests)),
                                 ("kept_season_cards", len(self.season_cards)), ("tracker_slot", len(self.slots) + 1),
                                 ("tracker_prev", len(self.slots) + 1), ("on_tracker", 1), ("first", 1),
                                 ("turn_place", p), ("deciding", 1), ("kiwibot", 1)]:
                at_[name] = lay.add(f"seat{s}/{name}", length)
            self._seat.append(at_)
        self._hand = lay.add("hand", len(self.cards))
        self._season = lay.add("season", rules.seasons + 1)
        self._phase = lay.add("phase", len(self.phases))
        self._season_card = lay.add("season_cards", self.season_slots * (len(self.season_cards) + 1))
        self._fruit_bag = lay.add("fruit_bag", len(rules.fruits))
        self._solo_card = lay.add("solo/card", len(self.solo_cards))
        self._solo_left = lay.add("solo/left", 1)
        self._solo_discarded = lay.add("solo/discarded", len(self.solo_cards))
        self._solo_set_aside = lay.add("solo/set_aside", 1)
        self._solo_side = lay.add("solo/marker_side", len(self.marker_sides))
        self.vector_fields = lay.fields
        self.size = lay.size
        self.shape = (self.size,)
        self.plane_shape = (len(self.planes), n)
        self._forms = {form: i for i, form in enumerate(FORMS)}
        self.history_width = len(self._forms) + p + 1
        self.information_state_size = self.size + HISTORY * self.history_width
        self._fruit_code = {c: i for i, c in enumerate(rules.fruits)}
        self._terrain_code = {t: i for i, t in enumerate(rules.terrains)}
        self._codes = {name: {v: i for i, v in enumerate(values)} for name, values in [
            ("flock", self.flocks), ("side", self.sides), ("leader", self.leaders), ("leader_card", self.leader_cards),
            ("card", self.cards), ("nest", self.nests), ("season_card", self.season_cards),
            ("solo_card", self.solo_cards), ("slot", self.slots), ("phase", self.phases),
            ("marker_side", self.marker_sides)]}
        self._seasons = rules.seasons

    def seat_order(self, game: Game, player: str) -> list[str]:
        """The seats from `player`, clockwise (seat 0 is `player`)."""
        seats = game.readonly_state.seats
        if player not in seats:
            raise ValueError(f"unknown player `{player}`: the players are {', '.join(seats)}")
        i = seats.index(player)
        return seats[i:] + seats[:i]

    def _entries(self, game: Game, player: str) -> tuple[list[int], list[float]]:
        """The non-zero entries of the observation: indices and values (repeated indices add up)."""
        st = game.readonly_state
        order = self.seat_order(game, player)
        seat = {f: s for s, f in enumerate(order)}
        n = self.n_hexes
        ix = list(self._static)
        vx = [1.0] * len(ix)
        add_i, add_v = ix.append, vx.append
        hex_at, kiwi, nest, marker, leader = self._hex_at, self._kiwi, self._nest, self._marker, self._leader
        for h in st.hexes.values():
            i = hex_at[h.id]
            for k in h.kiwi:
                add_i(kiwi[seat[k.flock]][k.size - 1] + i)
                add_v(1.0)
            if h.nest is not None:
                add_i(nest[seat[h.nest[0]]][h.nest[1]] + i)
                add_v(1.0)
            if h.domain is not None:
                add_i(marker[seat[h.domain[0]]] + i)
                add_v(1.0)
        codes = self._codes
        fruit_code, terrain_code = self._fruit_code, self._terrain_code
        reveal = st.season >= self._seasons and st.phase in ("domain_marking", "over")   # R-END-1
        pending = game.pending
        decider = pending.player if pending is not None else None
        bot = solo_of(st)["bot"] if st.solo is not None else None
        turn = {f: i for i, f in enumerate(st.turn_order())}
        first = st.seats[st.first]
        slot_code = codes["slot"]
        for f in order:
            s = seat[f]
            at = self._seat[s]
            fl = st.flocks[f]
            if fl.leader_hex is not None:
                add_i(leader[s] + hex_at[fl.leader_hex])
                add_v(1.0)
            else:
                add_i(at["leader_off"])
                add_v(1.0)
            for name, value in (("flock", f), ("side", fl.side), ("leader", fl.leader),
                                ("leader_card", fl.leader_card)):
                code = codes[name].get(value)
                if code is not None:
                    add_i(at[name] + code)
                    add_v(1.0)
            if fl.leader_used:
                add_i(at["leader_used"])
                add_v(1.0)
            base = at["fruit"]
            for c, count in fl.fruit.items():
                if count:
                    add_i(base + fruit_code[c])
                    add_v(float(count))
            add_i(at["domain_count"])
            add_v(float(len(fl.domain)))
            if f == player or reveal:
                base = at["domain"]
                for t in fl.domain:
                    add_i(base + terrain_code[t])
                    add_v(1.0)
            add_i(at["hand_count"])
            add_v(float(len(fl.hand)))
            add_i(at["deck_count"])
            add_v(float(len(fl.deck)))
            card = codes["card"]
            base = at["discard"]
            for c in fl.discard:
                add_i(base + card[c])
                add_v(1.0)
            base = at["played"]
            facedown = fl.facedown
            for j, c in enumerate(fl.played):
                if j in facedown:
                    if f != player:
                        continue
                    add_i(at["facedown"])
                    add_v(1.0)
                add_i(base + card[c])
                add_v(1.0)
            if facedown and f != player:
                add_i(at["facedown"])
                add_v(float(len(facedown)))
            for name in ("track", "reserve_kiwi", "supply", "covers", "season_vp", "on_tracker"):
                value = getattr(fl, name)
                if value:
                    add_i(at[name])
                    add_v(float(value))
            base = at["nests_built"]
            for nid in fl.nests_built:
                add_i(base + codes["nest"][nid])
                add_v(1.0)
            base = at["kept_season_cards"]
            for c in fl.kept_season_cards:
                add_i(base + codes["season_card"][c])
                add_v(1.0)
            add_i(at["tracker_slot"] + (_NONE_SLOT if fl.tracker_slot is None else 1 + slot_code[fl.tracker_slot]))
            add_v(1.0)
            add_i(at["tracker_prev"] + (_NONE_SLOT if fl.tracker_prev is None else 1 + slot_code[fl.tracker_prev]))
            add_v(1.0)
            if f == first:
                add_i(at["first"])
                add_v(1.0)
            if f in turn:
                add_i(at["turn_place"] + turn[f])
                add_v(1.0)
            if f == decider:
                add_i(at["deciding"])
                add_v(1.0)
            if f == bot:
                add_i(at["kiwibot"])
                add_v(1.0)
        card = codes["card"]
        for c in st.flocks[player].hand:
            add_i(self._hand + card[c])
            add_v(1.0)
        add_i(self._season + min(st.season, self._seasons))
        add_v(1.0)
        phase = codes["phase"].get(st.phase)
        if phase is not None:
            add_i(self._phase + phase)
            add_v(1.0)
        shown = len(st.season_cards)
        if st.solo is not None:
            data = solo_of(st)
            shown = int(data["flipped"]) * int(data["per_season"])
            pile = data["pile"]
            if pile:
                add_i(self._solo_card + codes["solo_card"][pile[0]])
                add_v(1.0)
            add_i(self._solo_left)
            add_v(float(len(pile)))
            for c in data["discarded"]:
                add_i(self._solo_discarded + codes["solo_card"][c])
                add_v(1.0)
            add_i(self._solo_set_aside)
            add_v(float(len(data["set_aside"])))
            side = codes["marker_side"].get(data["side"])
            if side is not None:
                add_i(self._solo_side + side)
                add_v(1.0)
        width = len(self.season_cards) + 1
        season_card = codes["season_card"]
        for j, c in enumerate(st.season_cards[:self.season_slots]):
            # the last value of a slot: a face-down Season card (R-SOLO-4)
            add_i(self._season_card + j * width + (season_card[c] if j < shown else width - 1))
            add_v(1.0)
        fruit_bag = self._fruit_bag
        for c, count in st.fruit_bag.items():
            if count:
                add_i(fruit_bag + fruit_code[c])
                add_v(float(count))
        return ix, vx

    def observation_tensor(self, game: Game, player: str) -> np.ndarray:
        """What `player` sees now, as a float32 array of `shape` (see the module docstring)."""
        ix, vx = self._entries(game, player)
        return np.bincount(ix, weights=vx, minlength=self.size).astype(np.float32)

    def information_state_tensor(self, game: Game, player: str) -> np.ndarray:
        """The observation followed by the last HISTORY events (form and player seat), a float32 array of
        `information_state_size`."""
        ix, vx = self._entries(game, player)
        order = self.seat_order(game, player)
        seat = {f: s for s, f in enumerate(order)}
        events = game.events[-HISTORY:]
        width, forms, none_seat = self.history_width, self._forms, len(self._forms) + self.players
        base = self.size + (HISTORY - len(events)) * width
        for j, e in enumerate(events):
            at = base + j * width
            form = forms.get(e.form) if e.form is not None else None
            if form is not None:
                ix.append(at + form)
                vx.append(1.0)
            s = seat.get(e.player) if e.player is not None else None
            ix.append(at + (len(forms) + s if s is not None else none_seat))
            vx.append(1.0)
        return np.bincount(ix, weights=vx, minlength=self.information_state_size).astype(np.float32)

    def planes_of(self, tensor: np.ndarray) -> np.ndarray:
        """The per-hex planes of an observation, shaped (`planes`, hexes)."""
        return tensor[:len(self.planes) * self.n_hexes].reshape(self.plane_shape)


@per_object(16)
def _spaces(rules: Any) -> dict[int, ObservationSpace]:
    """{player count: its ObservationSpace} of these rules."""
    return {}


def observation_space(game_or_ruleset: Any, players: int | None = None) -> ObservationSpace:
    """The ObservationSpace of a game (its ruleset and seat count) or of a ruleset and player count, built once."""
    if isinstance(game_or_ruleset, Game):
        ruleset, players = game_or_ruleset.ruleset, len(game_or_ruleset.readonly_state.seats)
    else:
        ruleset = game_or_ruleset
        if players is None:
            raise ValueError("observation_space(ruleset, players): give the player count")
    spaces = _spaces(compile_rules(ruleset))
    space = spaces.get(players)
    if space is None:
        space = spaces[players] = ObservationSpace(ruleset, players)
    return space


def observation_tensor(game: Game, player: str) -> np.ndarray:
    """`player`'s observation of `game` (ObservationSpace.observation_tensor)."""
    return observation_space(game).observation_tensor(game, player)


def information_state_tensor(game: Game, player: str) -> np.ndarray:
    """`player`'s information-state tensor of `game` (ObservationSpace.information_state_tensor)."""
    return observation_space(game).information_state_tensor(game, player)
