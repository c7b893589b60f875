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

from itertools import compress
from operator import is_not, itemgetter, ne
from typing import Any

import numpy as np

from kcd.core.board import DIRECTIONS
from kcd.core.events import FORMS
from kcd.engine import mode_registry as modes
from kcd.engine.game import Game
from kcd.modes.base import Observed
from kcd.content.rules import compile_rules
from kcd.engine.setup import island_hexes
from kcd.rl.actions import ActionSpace, action_space, space_of

HISTORY = 16
_NONE_SLOT = 0


def _flock_values(fl: Any) -> tuple:
    """Every Flock field a seat's parts read: its plain values first, then its lists and dicts (compared by value,
    so the board keeps copies of them). Written out: the interpreter reads a slot attribute named in the code
    about twice as fast as `operator.attrgetter` does (it runs for every seat at every observation)."""
    return (fl.id, fl.leader_hex, fl.side, fl.leader, fl.leader_card, fl.leader_used, fl.track, fl.reserve_kiwi,
            fl.supply, fl.covers, fl.season_vp, fl.on_tracker, fl.tracker_slot, fl.tracker_prev, fl.fruit, fl.deck,
            fl.hand, fl.played, fl.facedown, fl.domain, fl.discard, fl.nests_built, fl.kept_season_cards)


_FLOCK_VALUES = 14
_ASK = object()   # `_updated`'s pending decision not given: it asks the game
_SLOT: Any = itemgetter(12)    # `_flock_values`'s tracker slot (of a seat seen: never None)
# which of `_flock_values`'s fields differ, as bits (`_updated`), and the fields each part of a seat is made of
_BITS = tuple(1 << i for i in range(23))
_ALL_FIELDS = (1 << 23) - 1
_MARKS = sum(_BITS[i] for i in (0, 1, 2, 3, 4, 5, 12, 13))   # flock, Leader's place, side, Leader and card, tracker
_SCALARS = sum(_BITS[i] for i in (6, 7, 8, 9, 10, 11))       # track .. tracker tokens
_FRUIT, _DECK, _HAND = _BITS[14], _BITS[15], _BITS[16]       # the deck shows as its size only
_COUNTS = _SCALARS | _FRUIT | _DECK
_PLAYED = _BITS[17] | _BITS[18]                              # played cards and which are face down
_DOMAIN = _BITS[19]
_RECORD = _BITS[20] | _BITS[21] | _BITS[22]                  # discard pile, Nests built, Season cards kept


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


class _Board:
    """The game as every seat sees it at once, by absolute seat (state.seats order), as last built, and what each
    part of it was built from, so the next call rewrites only the parts that differ: an agent reads an observation
    at every decision, and a decision changes a few hexes and a flock or two. An observation is one gather from it
    (`ObservationSpace._gather`: the seats turned to the observer, and the observer's own private parts). A Hex
    never changes (copies of a state share it, a change builds a new one), so a hex is the same when it is the same
    object; a seat's part is the same when its signature (the flock's values it is made of) is equal. Each part
    writes its own entries only (hexes their columns, a seat its vector, its private parts and its Leader's place),
    so a part rewritten clears exactly what it wrote before. What is kept is the game's values, never who asked:
    any game of the space may be observed next (a clone, a resampled twin)."""

    __slots__ = ("flat", "view", "seats", "index", "hexes", "written", "marks", "cards", "hands", "domains", "records",
                 "game", "decider", "bag", "flocks", "reveal", "seat_list")

    def __init__(self, flat: np.ndarray, seats: tuple[str, ...], hexes: int) -> None:
        self.flat = flat
        # what `_rewrite` stores through: a memoryview of the array (format "f"), ~8x faster than numpy's scalar
        # stores (typed Any: typeshed's memoryview takes bytes values only)
        self.view: Any = flat.data
        self.seats = seats
        self.seat_list = list(seats)   # compared with the state's seats (a list) as it is
        self.index = {f: a for a, f in enumerate(seats)}
        self.hexes: tuple[Any, ...] = (None,) * hexes
        self.written: list[tuple[int, ...]] = [()] * hexes   # by hex column, the indices it wrote
        # per seat, the indices each of its parts wrote (`_updated`; its counts have fixed indices)
        self.marks: list[tuple[int, ...]] = [()] * len(seats)
        self.cards: list[tuple[int, ...]] = [()] * len(seats)   # its played cards (face up, face down)
        self.hands: list[tuple[int, ...]] = [()] * len(seats)   # its hand (size, and by card privately)
        self.domains: list[tuple[int, ...]] = [()] * len(seats)
        self.records: list[tuple[int, ...]] = [()] * len(seats)
        self.game: tuple[tuple, tuple[int, ...]] | None = None
        self.decider: tuple[int | None, tuple[int, ...]] | None = None   # (its seat, written)
        self.bag: tuple[dict[str, int], tuple[int, ...]] | None = None   # (the fruit bag, written)
        self.flocks: list[tuple | None] = [None] * len(seats)   # each flock's `_flock_values` as last seen (copies)
        self.reveal = False


def _rewrite(flat: Any, old: tuple[int, ...], ones: Any, counted: Any, counts: Any) -> tuple[int, ...]:
    """Clear the entries a part wrote last time, write its ones and counts, and return the indices now written
    (scalar stores through a memoryview: a part has a few dozen entries at most, and making index arrays of them
    costs more)."""
    for j in old:
        flat[j] = 0.0
    for j in ones:
        flat[j] = 1.0
    for j, n in zip(counted, counts):
        flat[j] = n
    return (*ones, *counted)


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
        self.leaders = tuple(rules.leaders)
        self.leader_cards = tuple(rules.leader_cards)
        self.sides = tuple(sorted({s for sides in rules.flocks.values() for s in sides}))
        self.slots = tuple(sorted(rules.tracker))
        self.phases = tuple(dict.fromkeys(["setup", *rules.phases, *rules.vto_phases, "over"]))
        # the layout is the same whichever mode is played: every registered mode's Season card slots and parts
        self.season_slots = max(mode.season_card_slots(rules) for mode in modes.all_modes())
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
        lay.add("hand", len(self.cards))   # the observer's hand: gathered from its private part (`_gather_of`)
        self._season = lay.add("season", rules.seasons + 1)
        self._phase = lay.add("phase", len(self.phases))
        self._season_card = lay.add("season_cards", self.season_slots * (len(self.season_cards) + 1))
        self._fruit_bag = lay.add("fruit_bag", len(rules.fruits))
        # a mode's own parts (its Observed.parts by name): where each starts and, for flags, each value's place
        self._mode_parts: dict[str, tuple[int, dict[str, int] | None]] = {}
        for mode in modes.all_modes():
            for part in mode.observation_parts(rules):
                if part.name not in self._mode_parts:
                    start = lay.add(part.name, 1 if part.values is None else len(part.values))
                    self._mode_parts[part.name] = (start, None if part.values is None else
                                                   {v: i for i, v in enumerate(part.values)})
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
            ("slot", self.slots), ("phase", self.phases)]}
        self._seasons = rules.seasons
        self._static = np.array(static, dtype=np.intp)
        names = ("flock", "side", "leader", "leader_card", "leader_used", "leader_off", "fruit", "domain_count",
                 "domain", "hand_count", "deck_count", "discard", "played", "facedown", "track", "reserve_kiwi",
                 "supply", "covers", "season_vp", "nests_built", "kept_season_cards", "tracker_slot", "tracker_prev",
                 "on_tracker", "first", "turn_place", "deciding", "kiwibot")
        self._seat_bases = [tuple(at[name] for name in names) for at in self._seat]
        # the board (`_Board`): the observation's layout by absolute seat with each seat's public values, then per
        # seat its private parts: markers in reserve by terrain, played cards face down included, the hand
        terrains, cards = len(rules.terrains), len(self.cards)
        self._private = [self.size + a * (terrains + 2 * cards) for a in range(p)]
        self._private_hand = [b + len(self._terrain_code) + len(self._codes["card"]) for b in self._private]
        self._board_size = self.size + p * (terrains + 2 * cards)
        self._board_base = np.zeros(self._board_size, np.float32)
        self._board_base[self._static] = 1.0
        self._board: _Board | None = None
        # each seat's count entries (`_updated`): its scalars in `_flock_values` order, its fruit, its deck size
        self._counts_at = [(tuple(at[name] for name in ("track", "reserve_kiwi", "supply", "covers", "season_vp",
                                                          "on_tracker")),
                            tuple((c, at["fruit"] + i) for c, i in self._fruit_code.items()), at["deck_count"])
                           for at in self._seat]
        self._hand_count_at = [at["hand_count"] for at in self._seat]
        self._card_code = self._codes["card"]
        self._facedown_at = [at["facedown"] for at in self._seat]
        self._played_at = [at["played"] for at in self._seat]
        self._private_played = [b + len(self._terrain_code) for b in self._private]
        self._gathers = [self._gather_of(r) for r in range(p)]

    def _gather_of(self, r: int) -> np.ndarray:
        """Where each entry of the observation of the player at absolute seat `r` is on the board: seat s shows
        absolute seat (s + r) mod players; the observer's own markers by terrain, played cards and hand come from
        its private parts (nobody else's are ever read)."""
        p, n = self.players, self.n_hexes
        gather = np.arange(self.size, dtype=np.intp)
        plane = {name: i for i, name in enumerate(self.planes)}
        for i, name in enumerate(self.planes):
            parts = name.split("/", 2)
            if parts[0] in ("kiwi", "leader", "nest", "marker"):
                src = plane["/".join([parts[0], str((int(parts[1]) + r) % p), *parts[2:]])]
                gather[i * n:(i + 1) * n] = np.arange(src * n, (src + 1) * n)
        terrains, cards = len(self.rules.terrains), len(self.cards)
        own = {"domain": self._private[r], "played": self._private[r] + terrains}
        for name, start, length in self.vector_fields:
            if name.startswith("seat"):
                seat, field = name.split("/", 1)
                s = int(seat[len("seat"):])
                src = own[field] if s == 0 and field in own else self._seat[(s + r) % p][field]
            elif name == "hand":
                src = self._private[r] + terrains + cards
            else:
                continue
            gather[start:start + length] = np.arange(src, src + length)
        return gather

    def seat_order(self, game: Game, player: str) -> list[str]:
        """The seats from `player`, clockwise (seat 0 is `player`)."""
        seats = game.readonly_state.seats
        if player not in seats:
            raise ValueError(f"unknown player `{player}`: the players are {', '.join(seats)}")
        i = seats.index(player)
        return seats[i:] + seats[:i]

    def _updated(self, game: Game, pending: Any = _ASK) -> _Board:
        """The board (`_Board`), up to date with `game` (`pending`: its pending decision, when the caller has it)."""
        st = game.readonly_state
        hexes = tuple(st.hexes.values())
        board = self._board
        if board is None or board.seat_list != st.seats or len(board.hexes) != len(hexes):
            board = self._board = _Board(self._board_base.copy(), tuple(st.seats), len(hexes))
        flat = board.view
        # the island: only hexes that are other objects than last time (a decision changes a few at most). The
        # tuples compare in C, identical hexes at once, so most decisions (no hex changed) pass in one comparison;
        # hexes equal by value hold the same entries, so one such is rightly passed over too
        before = board.hexes
        if hexes != before:
            written, hex_at, index, kiwi, nests, markers = (board.written, self._hex_at, board.index, self._kiwi,
                                                            self._nest, self._marker)
            for h in compress(hexes, map(is_not, hexes, before)):
                i = hex_at[h.id]
                stacks = h.kiwi
                for j in written[i]:
                    flat[j] = 0.0
                # what the hex adds to the planes, stored at once: 1 for each Kiwi by seat and size (identical Kiwi
                # counted), its Nest's and its marker's seat
                if len(stacks) == 1:   # most hexes hold one Kiwi or none
                    k = stacks[0]
                    j = kiwi[index[k.flock]][k.size - 1] + i
                    flat[j] = 1.0
                    now: tuple[int, ...] = (j,)
                elif stacks:   # identical Kiwi (flock and size) are counted
                    here: dict[int, int] = {}
                    for k in stacks:
                        j = kiwi[index[k.flock]][k.size - 1] + i
                        here[j] = here.get(j, 0) + 1
                    for j, n in here.items():
                        flat[j] = n
                    now = tuple(here)
                else:
                    now = ()
                nest, domain = h.nest, h.domain
                if nest is not None:
                    j = nests[index[nest[0]]][nest[1]] + i
                    flat[j] = 1.0
                    now += (j,)
                if domain is not None:
                    j = markers[index[domain[0]]] + i
                    flat[j] = 1.0
                    now += (j,)
                written[i] = now
            board.hexes = hexes
        # each seat's part: rewritten when what it is made of (its signature) differs from last time
        reveal = st.season >= self._seasons and st.phase in ("domain_marking", "over")   # R-END-1
        flocks = st.flocks
        flocks_seen = board.flocks
        same_reveal = board.reveal == reveal
        moved = False   # a flock rewritten
        for a, f in enumerate(board.seats):
            fl = flocks[f]
            # first the whole flock at once, in C: what it reads now against copies of it as last seen (most
            # decisions change one flock at most)
            now_ = _flock_values(fl)
            last: Any = flocks_seen[a]   # None before its first sight
            if same_reveal and last == now_:
                continue
            moved = True
            # its lists and dicts copied (written out: a third of the time of a `methodcaller` mapped over them)
            fruit, deck, hand, played, facedown, domain, discard, built, kept = now_[_FLOCK_VALUES:]
            flocks_seen[a] = (*now_[:_FLOCK_VALUES], fruit.copy(), deck.copy(), hand.copy(), played.copy(),
                              facedown.copy(), domain.copy(), discard.copy(), built.copy(), kept.copy())
            # then its parts, each rewritten when a field it is made of differs from the copy of last time (most
            # decisions change a count or two and no list): which fields differ, as bits, compared in C
            changed = _ALL_FIELDS if last is None else sum(compress(_BITS, map(ne, last, now_)))
            # its marks: flock, Leader's place, side, Leader, Leader card, card used, tracker slots
            if changed & _MARKS:
                board.marks[a] = _rewrite(flat, board.marks[a], *self._seat_marks(fl, a))
            # its counts (track, reserve, supply, covers, season VP, tracker tokens; fruit; deck size): each at an
            # index of its own, stored by group, zeros too
            if changed & _COUNTS:
                scalars_at, fruit_at, deck_at = self._counts_at[a]
                if changed & _SCALARS:
                    for j, n in zip(scalars_at, now_[6:12]):
                        flat[j] = n
                if changed & _FRUIT:
                    fruit = fl.fruit
                    for c, j in fruit_at:
                        flat[j] = fruit.get(c, 0)
                if changed & _DECK:
                    flat[deck_at] = len(fl.deck)
            # its hand; its played cards; its markers in reserve; its record (discard, Nests, Season cards)
            if changed & _HAND:
                board.hands[a] = self._write_hand(flat, board.hands[a], fl.hand, a)
            if changed & _PLAYED:
                board.cards[a] = self._write_played(flat, board.cards[a], fl, a)
            if changed & _DOMAIN or not same_reveal:
                board.domains[a] = self._write_domain(flat, board.domains[a], fl, a, reveal)
            if changed & _RECORD:
                board.records[a] = self._write_record(flat, board.records[a], fl, a)
        board.reveal = reveal
        # the fruit bag: a part of its own (it changes with every fruit taken, the rest of the game's part seldom)
        kept_bag = board.bag
        if kept_bag is None or kept_bag[0] != st.fruit_bag:
            bag, code = self._fruit_bag, self._fruit_code
            if kept_bag is not None:
                for j in kept_bag[1]:
                    flat[j] = 0.0
            written_bag = []
            for c, n in st.fruit_bag.items():
                if n:
                    j = bag + code[c]
                    flat[j] = n
                    written_bag.append(j)
            board.bag = (dict(st.fruit_bag), tuple(written_bag))
        # the game's part: its signature is what `_game_entries` reads (who decides and the bag aside)
        # (built only when a part of it may differ: a flock rewritten may have moved on the turn tracker)
        kept_game = board.game
        kept_sig = kept_game[0] if kept_game is not None else None
        observed = game.mode.observed(st)   # the mode's own data: may differ after any decision
        if (kept_sig is None or moved or observed is not None or kept_sig[0] != st.first or kept_sig[1] != st.season
                or kept_sig[2] != st.phase or kept_sig[3] != st.season_cards):
            sig = (st.first, st.season, st.phase, st.season_cards.copy(), tuple(map(_SLOT, flocks_seen)), observed)
            if kept_sig != sig:
                board.game = (sig, _rewrite(flat, kept_game[1] if kept_game is not None else (),
                                            *self._game_entries(game, board.seats, observed)))
        # who decides: a part of its own (it changes every turn, the rest of the game's part seldom)
        if pending is _ASK:
            pending = game.pending
        decider = board.index.get(pending.player) if pending is not None else None
        kept_decider = board.decider
        if kept_decider is None or kept_decider[0] != decider:
            if kept_decider is not None:
                for j in kept_decider[1]:
                    flat[j] = 0.0
            if decider is None:
                board.decider = (None, ())
            else:
                j = self._seat_bases[decider][-2]
                flat[j] = 1.0
                board.decider = (decider, (j,))
        return board

    def _gather(self, game: Game, player: str, pending: Any = _ASK) -> np.ndarray:
        """`player`'s observation: the board up to date, turned to the player (a new array; `pending` as
        `_updated`)."""
        board = self._updated(game, pending)
        seat = board.index.get(player)
        if seat is None:
            self.seat_order(game, player)   # a clear error for an unknown player
        assert seat is not None
        # every gathered index is on the board by construction: "clip" skips take's bounds errors (a third faster)
        return board.flat.take(self._gathers[seat], mode="clip")

    def _seat_marks(self, fl: Any, a: int) -> tuple[list[int], list[int], list[float]]:
        """The entries of a flock's marks at seat `a` (its flock, side, Leader and Leader card, the card used, the
        Leader's place, its turn tracker slots): indices whose value is 1, then (none here) indices with counts."""
        ones: list[int] = []
        one = ones.append
        codes = self._codes
        slot_code = codes["slot"]
        at = self._seat[a]
        # a flock and its side are content ids of this ruleset; a Leader or Leader card may be unset ("")
        one(at["leader_off"] if fl.leader_hex is None else self._leader[a] + self._hex_at[fl.leader_hex])
        ones += (at["flock"] + codes["flock"][fl.id], at["side"] + codes["side"][fl.side])
        code = codes["leader"].get(fl.leader)
        if code is not None:
            one(at["leader"] + code)
        code = codes["leader_card"].get(fl.leader_card)
        if code is not None:
            one(at["leader_card"] + code)
        if fl.leader_used:
            one(at["leader_used"])
        one(at["tracker_slot"] + (_NONE_SLOT if fl.tracker_slot is None else 1 + slot_code[fl.tracker_slot]))
        one(at["tracker_prev"] + (_NONE_SLOT if fl.tracker_prev is None else 1 + slot_code[fl.tracker_prev]))
        return ones, [], []

    def _write_hand(self, flat: Any, old: tuple[int, ...], hand: list[str], a: int) -> tuple[int, ...]:
        """Rewrite a flock's hand at seat `a`, stored at once: clear what it wrote last time (`old`), write the hand
        size and the hand by card (its private part); the indices now written."""
        for j in old:
            flat[j] = 0.0
        if not hand:
            return ()
        j = self._hand_count_at[a]
        flat[j] = len(hand)
        written = [j]
        b_hand, card = self._private_hand[a], self._card_code
        for c in set(hand):
            j = b_hand + card[c]
            flat[j] = hand.count(c)
            written.append(j)
        return tuple(written)

    def _write_played(self, flat: Any, old: tuple[int, ...], fl: Any, a: int) -> tuple[int, ...]:
        """Rewrite a flock's played cards at seat `a`, as `_write_hand`: the played cards as everyone sees them and
        the face-down count, then the played cards face down included (its private part)."""
        for j in old:
            flat[j] = 0.0
        played = fl.played
        if not played:
            return ()
        written: list[int] = []
        card = self._card_code
        facedown = fl.facedown
        if facedown:
            j = self._facedown_at[a]
            flat[j] = len(facedown)
            written.append(j)
            # R-ACT-2: a face-down card shows as a card to its owner only (its private part)
            shown = [c for j, c in enumerate(played) if j not in facedown]
        else:
            shown = played
        base = self._played_at[a]
        for c in set(shown):
            j = base + card[c]
            flat[j] = shown.count(c)
            written.append(j)
        base = self._private_played[a]
        for c in set(played):
            j = base + card[c]
            flat[j] = played.count(c)
            written.append(j)
        return tuple(written)

    def _write_domain(self, flat: Any, old: tuple[int, ...], fl: Any, a: int, reveal: bool) -> tuple[int, ...]:
        """Rewrite a flock's domain markers in reserve at seat `a`, as `_write_hand`: their count, by terrain for
        everyone when `reveal` (R-END-1), and by terrain in its private part."""
        for j in old:
            flat[j] = 0.0
        domain = fl.domain
        if not domain:
            return ()
        at = self._seat[a]
        j = at["domain_count"]
        flat[j] = len(domain)
        written = [j]
        terrain_code, private, shown = self._terrain_code, self._private[a], at["domain"]
        for t in set(domain):
            n = domain.count(t)
            code = terrain_code[t]
            if reveal:
                flat[shown + code] = n
                written.append(shown + code)
            flat[private + code] = n
            written.append(private + code)
        return tuple(written)

    def _write_record(self, flat: Any, old: tuple[int, ...], fl: Any, a: int) -> tuple[int, ...]:
        """Rewrite a flock's discard pile (by card), Nests built and Season cards kept at seat `a`, as
        `_write_hand`."""
        for j in old:
            flat[j] = 0.0
        written: list[int] = []
        codes = self._codes
        at = self._seat[a]
        pile = fl.discard
        if pile:
            base, card = at["discard"], self._card_code
            for c in set(pile):
                j = base + card[c]
                flat[j] = pile.count(c)
                written.append(j)
        if fl.nests_built:
            base, nest_code = at["nests_built"], codes["nest"]
            for nid in fl.nests_built:
                j = base + nest_code[nid]
                flat[j] = 1.0
                written.append(j)
        if fl.kept_season_cards:
            base, season_card = at["kept_season_cards"], codes["season_card"]
            for c in fl.kept_season_cards:
                j = base + season_card[c]
                flat[j] = 1.0
                written.append(j)
        return tuple(written)

    def _game_entries(self, game: Game, order: tuple[str, ...],
                      observed: Observed | None) -> tuple[list[int], list[int], list[Any]]:
        """The non-zero entries of the game's part of the vector and of each seat's first, turn place and Kiwibot
        flags (as `_rewrite` takes them; who decides and the fruit bag are parts of their own); `observed`: the
        mode's own data (`Mode.observed`)."""
        st = game.readonly_state
        ones: list[int] = []
        counted: list[int] = []
        counts: list[float] = []
        one, count, value = ones.append, counted.append, counts.append
        codes = self._codes
        bots = observed.engine_flocks if observed is not None else ()
        turn = st.turn_order()
        first = st.seats[st.first]
        for s, f in enumerate(order):
            b_first, b_turn_place, _, b_kiwibot = self._seat_bases[s][-4:]
            if f == first:
                one(b_first)
            if f in turn:
                one(b_turn_place + turn.index(f))
            if f in bots:
                one(b_kiwibot)
        one(self._season + min(st.season, self._seasons))
        phase = codes["phase"].get(st.phase)
        if phase is not None:
            one(self._phase + phase)
        shown_cards = len(st.season_cards)
        if observed is not None:
            shown_cards = observed.season_cards_shown
            parts = self._mode_parts
            for name, shown in observed.parts:
                start, code = parts[name]
                if code is None:
                    if shown:
                        count(start)
                        value(float(shown))
                else:
                    for v in shown:
                        place = code.get(v)
                        if place is not None:
                            one(start + place)
        width = len(self.season_cards) + 1
        season_card = codes["season_card"]
        for j, c in enumerate(st.season_cards[:self.season_slots]):
            # the last value of a slot: a face-down Season card (R-SOLO-4)
            one(self._season_card + j * width + (season_card[c] if j < shown_cards else width - 1))
        return ones, counted, counts

    def observation_tensor(self, game: Game, player: str) -> np.ndarray:
        """What `player` sees now, as a float32 array of `shape` (see the module docstring)."""
        return self._gather(game, player)

    def information_state_tensor(self, game: Game, player: str) -> np.ndarray:
        """The observation followed by the last HISTORY events (form and player seat), a float32 array of
        `information_state_size`."""
        out = np.zeros(self.information_state_size, np.float32)
        out[:self.size] = self._gather(game, player)
        seat = {f: s for s, f in enumerate(self.seat_order(game, player))}
        events = game.events[-HISTORY:]
        width, forms, none_seat = self.history_width, self._forms, len(self._forms) + self.players
        base = self.size + (HISTORY - len(events)) * width
        for j, e in enumerate(events):
            at = base + j * width
            form = forms.get(e.form) if e.form is not None else None
            if form is not None:
                out[at + form] = 1.0
            s = seat.get(e.player) if e.player is not None else None
            out[at + (len(forms) + s if s is not None else none_seat)] = 1.0
        return out

    def planes_of(self, tensor: np.ndarray) -> np.ndarray:
        """The per-hex planes of an observation, shaped (`planes`, hexes)."""
        return tensor[:len(self.planes) * self.n_hexes].reshape(self.plane_shape)


def observation_space(game_or_ruleset: Any, players: int | None = None) -> ObservationSpace:
    """The ObservationSpace of a game (its ruleset and seat count) or of a ruleset and player count, built once."""
    return space_of(ObservationSpace, game_or_ruleset, players)


def observation_tensor(game: Game, player: str) -> np.ndarray:
    """`player`'s observation of `game` (ObservationSpace.observation_tensor)."""
    return observation_space(game).observation_tensor(game, player)


def information_state_tensor(game: Game, player: str) -> np.ndarray:
    """`player`'s information-state tensor of `game` (ObservationSpace.information_state_tensor)."""
    return observation_space(game).information_state_tensor(game, player)
