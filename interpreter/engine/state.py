"""Game state as plain data (dataclasses) with a lossless JSON form and the seeded RNG.

The state holds everything a game needs to continue: the island (hex geometry and terrain, Kiwi
stacks, Nests, domain markers), each flock's private and public resources, the bags, the flow
position (season, phase, step) and the RNG. Turn-local facts (which Kiwi moved this turn) live in
the running step, which `Game` rebuilds by replaying the decisions since the step's checkpoint.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

_MASK = (1 << 64) - 1


def _splitmix(x: int) -> tuple[int, int]:
    """One splitmix64 step: (new state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


@dataclass(slots=True)
class Kiwi:
    """One Kiwi on the island: a stack of `size` tokens of one flock."""

    id: int
    flock: str
    size: int


@dataclass(slots=True)
class Hex:
    """One island hex: static geometry plus what stands on it."""

    id: str
    q: int
    r: int
    terrain: str
    kiwi: list[Kiwi] = field(default_factory=list)
    nest: tuple[str, str] | None = None      # (flock, nest id)
    domain: tuple[str, str] | None = None    # (flock, terrain): a placed marker, covered by a token


@dataclass(slots=True)
class Flock:
    """One player's flock: resources, cards, track and scoring facts."""

    id: str
    seat: int
    side: str = "A"
    leader: str = ""
    leader_card: str = ""
    leader_used: bool = False        # the Leader card is flipped face down (R-LEAD-2)
    leader_hex: str | None = None
    fruit: dict[str, int] = field(default_factory=dict)
    domain: list[str] = field(default_factory=list)     # private reserve of domain markers (terrains)
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)     # cards on the flock board this season
    facedown: list[int] = field(default_factory=list)   # indices into `played` of cards played face down (R-ACT-2)
    track: int = 8                   # tokens still on the Kiwi track
    reserve_kiwi: int = 0            # Kiwi tokens in the Player Reserve (R-RES-1)
    supply: int = 0                  # tokens in hand: not yet set out (setup) or being placed (R-RES-2)
    covers: int = 0                  # tokens lying upside down on own domain markers (R-DM-3)
    nests_built: list[str] = field(default_factory=list)
    season_vp: int = 0
    kept_season_cards: list[str] = field(default_factory=list)
    # Variable Turn Order (R-VTO-2/3): the flock's token on the turn tracker, its slot (None while it waits
    # below the tracker during Wake up) and the slot it held last season
    on_tracker: int = 0
    tracker_slot: int | None = None
    tracker_prev: int | None = None


# Flock fields holding a list or dict: `State.from_dict` gives each copy its own (the rest are immutable values)
_FLOCK_CONTAINERS: tuple[str, ...] = tuple(f.name for f in fields(Flock) if f.default_factory in (list, dict))


@dataclass
class State:
    """The whole game state; plain data, JSON-serialisable with `to_dict`/`from_dict`."""

    hexes: dict[str, Hex]
    flocks: dict[str, Flock]
    seats: list[str]                 # flock ids in seat order (clockwise)
    fruit_bag: dict[str, int]
    domain_bag: dict[str, int]
    rng: int = 0
    first: int = 0                   # index in `seats` of the First Player
    season: int = 1
    phase: str = "setup"
    step: int = 0                    # index of the step within the phase
    season_cards: list[str] = field(default_factory=list)
    next_kiwi: int = 1
    over: bool = False
    variant: str | None = None       # None: the standard game; "vto": Variable Turn Order (R-VTO-1..5)
    # solo mode against Kiwibot (R-SOLO-1..12), None in the standard game: flat plain data (strings, ints,
    # lists of strings), see interpreter/engine/solo.py `SoloState` for the keys
    solo: dict | None = None
    # the mode's name when the state itself must say it (a mode added as a plug-in); None for the built-in
    # modes, which their own data shows (interpreter/engine/modes `for_state`)
    mode: str | None = None
    # rule values pure functions need without the ruleset: dominance weights, nest values, size limit,
    # scoring (copied from game.yaml / nests.yaml when the game is created)
    params: dict = field(default_factory=dict)
    _board: Any = field(default=None, repr=False, compare=False)

    # --- randomness -----------------------------------------------------------------------
    def rand_below(self, n: int) -> int:
        """A uniform integer in [0, n) from the state's seeded RNG."""
        self.rng, out = _splitmix(self.rng)
        return out % n

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place with the state's RNG (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.rand_below(i + 1)
            items[i], items[j] = items[j], items[i]

    def draw_from(self, bag: dict[str, int]) -> str | None:
        """Draw one item at random from a bag of counts; None when empty."""
        total = sum(bag.values())
        if total <= 0:
            return None
        pick = self.rand_below(total)
        # sorted keys: the draw must not depend on dict order (JSON round trips sort keys)
        for key in sorted(bag):
            count = bag[key]
            if pick < count:
                bag[key] -= 1
                return key
            pick -= count
        raise AssertionError("unreachable: bag count mismatch")

    # --- lookups --------------------------------------------------------------------------
    def marker_order(self) -> list[str]:
        """Flocks clockwise from the holder of the First Player marker (R-SETUP-2)."""
        return self.seats[self.first:] + self.seats[:self.first]

    def turn_order(self) -> list[str]:
        """Flocks in turn order this season: from the First Player (R-SETUP-2), or by turn tracker slot when
        every flock holds one (R-VTO-4: only Variable Turn Order puts tokens on the tracker; while they wait
        below it in Wake up, the marker order)."""
        flocks = self.flocks
        if flocks[self.seats[0]].tracker_slot is not None:
            slots = [flocks[f].tracker_slot for f in self.seats]
            if None not in slots:
                return sorted(self.seats, key=lambda f: flocks[f].tracker_slot or 0)   # none is None here
        return self.marker_order()

    def new_kiwi(self, flock: str, size: int) -> Kiwi:
        """A fresh Kiwi with a unique id."""
        kiwi = Kiwi(self.next_kiwi, flock, size)
        self.next_kiwi += 1
        return kiwi

    def leaders_in(self, hex_id: str) -> list[str]:
        """Flocks whose Leader stands on this hex, in seat order."""
        return [f for f in self.seats if self.flocks[f].leader_hex == hex_id]

    def own_kiwi(self, flock: str) -> list[tuple[str, Kiwi]]:
        """(hex, Kiwi) of every Kiwi of this flock on the island, in hex order."""
        return [(h.id, k) for h in self.hexes.values() for k in h.kiwi if k.flock == flock]

    def has_presence(self, flock: str, hex_id: str) -> bool:
        """True when the flock has a Kiwi or its Leader on the hex."""
        if self.flocks[flock].leader_hex == hex_id:
            return True
        return any(k.flock == flock for k in self.hexes[hex_id].kiwi)

    def presence(self, flock: str) -> set[str]:
        """Hexes where the flock has a Kiwi or its Leader."""
        out: set[str] = set()
        for h in self.hexes.values():   # a plain loop: this runs on every placement and lookahead
            for k in h.kiwi:
                if k.flock == flock:
                    out.add(h.id)
                    break
        leader_hex = self.flocks[flock].leader_hex
        if leader_hex is not None:
            out.add(leader_hex)
        return out

    def island_tokens(self, flock: str) -> int:
        """Face-up Kiwi tokens of the flock on the island (sum of sizes)."""
        return sum(k.size for h in self.hexes.values() for k in h.kiwi if k.flock == flock)

    # --- JSON -----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Plain JSON-ready data."""
        return {
            "hexes": [[h.id, h.q, h.r, h.terrain, [[k.id, k.flock, k.size] for k in h.kiwi],
                       list(h.nest) if h.nest else None, list(h.domain) if h.domain else None]
                      for h in self.hexes.values()],
            "flocks": [{
                "id": f.id, "seat": f.seat, "side": f.side, "leader": f.leader, "leader_card": f.leader_card,
                "leader_used": f.leader_used, "leader_hex": f.leader_hex, "fruit": dict(f.fruit),
                "domain": list(f.domain), "hand": list(f.hand), "deck": list(f.deck), "discard": list(f.discard),
                "played": list(f.played), "facedown": list(f.facedown), "track": f.track, "reserve_kiwi": f.reserve_kiwi, "supply": f.supply,
                "covers": f.covers, "nests_built": list(f.nests_built), "season_vp": f.season_vp,
                "kept_season_cards": list(f.kept_season_cards), "on_tracker": f.on_tracker,
                "tracker_slot": f.tracker_slot, "tracker_prev": f.tracker_prev} for f in self.flocks.values()],
            "seats": list(self.seats), "fruit_bag": dict(self.fruit_bag), "domain_bag": dict(self.domain_bag),
            "rng": self.rng, "first": self.first, "season": self.season, "phase": self.phase, "step": self.step,
            "season_cards": list(self.season_cards), "next_kiwi": self.next_kiwi, "over": self.over, "variant": self.variant,
            "params": self.params,
            # only solo games carry the key, so a standard game's JSON is unchanged
            **({"solo": _copy_solo(self.solo)} if self.solo is not None else {}),
            **({"mode": self.mode} if self.mode is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "State":
        """Rebuild a state from `to_dict` output."""
        hexes = {}
        for hid, q, r, terrain, kiwi, nest, domain in data["hexes"]:
            hexes[hid] = Hex(hid, q, r, terrain, [Kiwi(i, f, s) for i, f, s in kiwi],
                             tuple(nest) if nest else None, tuple(domain) if domain else None)
        flocks = {}
        for fd in data["flocks"]:
            fl = Flock(**fd)
            for name in _FLOCK_CONTAINERS:   # own copies of the lists and dicts (bots clone states often)
                value = getattr(fl, name)
                setattr(fl, name, dict(value) if isinstance(value, dict) else list(value))
            flocks[fd["id"]] = fl
        return cls(hexes=hexes, flocks=flocks, seats=list(data["seats"]), fruit_bag=dict(data["fruit_bag"]),
                   domain_bag=dict(data["domain_bag"]), rng=data["rng"], first=data["first"],
                   season=data["season"], phase=data["phase"], step=data["step"],
                   season_cards=list(data["season_cards"]), next_kiwi=data["next_kiwi"], over=data["over"],
                   variant=data.get("variant"), params=data.get("params", {}),
                   solo=_copy_solo(data["solo"]) if data.get("solo") is not None else None,
                   mode=data.get("mode"))

    def copy(self) -> "State":
        """An independent copy, equal by `to_dict`: the mutable containers (Kiwi stacks, hands, bags, ...) are
        copied, what never changes once play starts is shared (hex geometry, the `(flock, id)` tuples of Nests
        and markers, the strings, `params`, the island's cached Board). Bots copy states on every lookahead, so
        this is written out by hand rather than through `to_dict`/`from_dict` (about 3x faster).
        A field added to State that holds a mutable value must be copied here (tests/test_engine_state_copy.py)."""
        new_hex, new_kiwi = _HEX_NEW, _KIWI_NEW
        hexes = {}
        for hid, h in self.hexes.items():
            c = new_hex(Hex)
            c.id = h.id
            c.q = h.q
            c.r = h.r
            c.terrain = h.terrain
            stack = []
            for k in h.kiwi:
                ck = new_kiwi(Kiwi)
                ck.id = k.id
                ck.flock = k.flock
                ck.size = k.size
                stack.append(ck)
            c.kiwi = stack
            c.nest = h.nest
            c.domain = h.domain
            hexes[hid] = c
        copy_flock = _copy_flock
        flocks = {fid: copy_flock(f) for fid, f in self.flocks.items()}
        twin = _STATE_NEW(State)
        d = twin.__dict__
        d.update(self.__dict__)
        d["hexes"] = hexes
        d["flocks"] = flocks
        d["seats"] = self.seats.copy()
        d["fruit_bag"] = self.fruit_bag.copy()
        d["domain_bag"] = self.domain_bag.copy()
        d["season_cards"] = self.season_cards.copy()
        if self.solo is not None:
            d["solo"] = _copy_solo(self.solo)
        return twin


_HEX_NEW = Hex.__new__
_KIWI_NEW = Kiwi.__new__
_STATE_NEW = object.__new__


def _flock_copier() -> Any:
    """`copy(f)`: an own copy of a flock, its lists and dicts copied and its values (immutable) shared; compiled
    once from the dataclass fields (a loop of setattr calls was most of a state copy)."""
    lines = ["def copy(f):", "    c = new(Flock)"]
    for f in fields(Flock):
        copy = ".copy()" if f.name in _FLOCK_CONTAINERS else ""
        lines.append(f"    c.{f.name} = f.{f.name}{copy}")
    lines.append("    return c")
    namespace: dict[str, Any] = {"new": Flock.__new__, "Flock": Flock}
    exec("\n".join(lines), namespace)   # field names of this module's dataclass only
    return namespace["copy"]


_copy_flock = _flock_copier()


def _copy_solo(solo: dict) -> dict:
    """An own copy of the solo data (its lists change during play; checkpoints must not)."""
    return {k: list(v) if isinstance(v, list) else v for k, v in solo.items()}
