"""Game state as plain data (dataclasses) with a lossless JSON form and the seeded RNG.

The state holds everything a game needs to continue: the island (hex geometry and terrain, Kiwi
stacks, Nests, domain markers), each flock's private and public resources, the bags, the flow
position (season, phase, step) and the RNG. The island's Hex and Kiwi are immutable values that copies of a
state share; the island writers of State (`add_kiwi`, `resize_kiwi`, `set_nest`, ...) replace them. Turn-local
facts (which Kiwi moved this turn) live in the running step's frames (interpreter/engine/values.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar, Protocol, Self, TypeVar

_MASK = (1 << 64) - 1


# Hex and Kiwi are immutable values (frozen dataclasses), so copies of a state share them: `State.copy` copies the
# `hexes` dict only, and every change builds the new Hex (and Kiwi) in that state's own dict (the island writers of
# State). A writer that bypasses those fails loudly (FrozenInstanceError; a tuple has no `append`) instead of
# changing every copy's island at once. The writers build a Hex on every move, so they build it fast: the slots
# live on a private mutable base, filled by plain attribute stores, and the object then becomes the frozen class
# (`__class__` assignment: same slots, same layout), about three times faster than a frozen dataclass's
# `__init__`, which goes through `object.__setattr__` once per field.
class _KiwiSlots:
    __slots__ = ("id", "flock", "size")
    id: int
    flock: str
    size: int


class _HexSlots:
    __slots__ = ("id", "q", "r", "terrain", "kiwi", "nest", "domain", "memo")
    id: str
    q: int
    r: int
    terrain: str
    kiwi: tuple["Kiwi", ...]
    nest: tuple[str, str] | None
    domain: tuple[str, str] | None
    # not a field (not compared, saved or shown): a cache for pure functions of this one Hex, which never changes, so
    # what they keep here stays exact (dominance.dominant_all); `remember` sets it
    memo: Any


@dataclass(frozen=True, init=False)
class Kiwi(_KiwiSlots):
    """One Kiwi on the island: a stack of `size` tokens of one flock. Immutable: a Kiwi that grows or shrinks is
    a new Kiwi with the same id (`State.resize_kiwi`), so copies of a state share their Kiwi."""

    __slots__ = ()
    id: int
    flock: str
    size: int

    def __new__(cls, id: int, flock: str, size: int) -> "Kiwi":
        return _kiwi(id, flock, size)

    def __reduce__(self) -> tuple[type[Kiwi], tuple[int, str, int]]:
        return (Kiwi, (self.id, self.flock, self.size))


@dataclass(frozen=True, init=False)
class Hex(_HexSlots):
    """One island hex: static geometry plus what stands on it. Immutable: every change replaces the hex in
    `State.hexes` (the island writers of State), so copies of a state share their hexes."""

    __slots__ = ()
    id: str
    q: int
    r: int
    terrain: str
    kiwi: tuple[Kiwi, ...]               # stacks in placement order
    nest: tuple[str, str] | None         # (flock, nest id)
    domain: tuple[str, str] | None       # (flock, terrain): a placed marker, covered by a token

    def __new__(cls, id: str, q: int, r: int, terrain: str, kiwi: tuple[Kiwi, ...] = (),
                nest: tuple[str, str] | None = None, domain: tuple[str, str] | None = None) -> "Hex":
        return _hex(id, q, r, terrain, tuple(kiwi), nest, domain)

    def __reduce__(self) -> tuple[type[Hex], tuple[Any, ...]]:
        return (Hex, (self.id, self.q, self.r, self.terrain, self.kiwi, self.nest, self.domain))


def _kiwi(id: int, flock: str, size: int) -> Kiwi:
    """A new Kiwi (see the comment above _KiwiSlots)."""
    k = _NEW(_KiwiSlots)
    k.id = id
    k.flock = flock
    k.size = size
    k.__class__ = Kiwi
    return k  # type: ignore[return-value]  # its class is Kiwi now


def _hex(id: str, q: int, r: int, terrain: str, kiwi: tuple[Kiwi, ...], nest: tuple[str, str] | None,
         domain: tuple[str, str] | None) -> Hex:
    """A new Hex (see the comment above _KiwiSlots)."""
    h = _NEW(_HexSlots)
    h.id = id
    h.q = q
    h.r = r
    h.terrain = terrain
    h.kiwi = kiwi
    h.nest = nest
    h.domain = domain
    h.memo = None
    h.__class__ = Hex
    return h  # type: ignore[return-value]  # its class is Hex now


def _at(stack: tuple[Kiwi, ...], kiwi_id: int, hex_id: str) -> int:
    """The place of the Kiwi with this piece id in a hex's stacks (KeyError when it is not there)."""
    for i, k in enumerate(stack):
        if k.id == kiwi_id:
            return i
    raise KeyError(f"no Kiwi {kiwi_id} on {hex_id}")


_NEW = object.__new__
# `remember(h, value)`: `h.memo = value`, past the frozen class (the slot's own setter)
remember: Callable[[Hex, Any], None] = _HexSlots.__dict__["memo"].__set__


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
    # a mode's own typed data (a `ModeState` the mode defines and registers, saved under its `key`), None in a
    # game whose mode keeps none (the standard game, Variable Turn Order)
    mode_state: ModeState | None = None
    # the mode's name when the state itself must say it (a mode added as a plug-in); None for the built-in
    # modes, which their own data shows (interpreter/modes `for_state`)
    mode: str | None = None
    # rule values pure functions need without the ruleset: dominance weights, nest values, size limit,
    # scoring (copied from game.yaml / nests.yaml when the game is created)
    params: dict[str, Any] = field(default_factory=dict)
    _board: Any = field(default=None, repr=False, compare=False)   # kcd.core.board.board_of's, which imports this

    # --- randomness -----------------------------------------------------------------------
    def rand_below(self, n: int) -> int:
        """A uniform integer in [0, n) from the state's seeded RNG."""
        x = self.rng = (self.rng + 0x9E3779B97F4A7C15) & _MASK   # one splitmix64 step, written out (a hot path)
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (z ^ (z >> 31)) % n

    def shuffle(self, items: list[Any]) -> None:
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
        """A fresh Kiwi with a unique id (not yet on the island: `add_kiwi` puts it there)."""
        kiwi = _kiwi(self.next_kiwi, flock, size)
        self.next_kiwi += 1
        return kiwi

    # --- the island's writers -------------------------------------------------------------
    # Hex and Kiwi are immutable, so copies of the state share them (`copy`); each change builds the new Hex
    # (and Kiwi) and puts it in this state's own `hexes`. A writer that bypasses these fails loudly (a frozen
    # dataclass, a tuple of Kiwi) instead of changing another copy's island.
    def add_kiwi(self, hex_id: str, kiwi: Kiwi) -> None:
        """Put a Kiwi on a hex, last in its placement order."""
        h = self.hexes[hex_id]
        self.hexes[hex_id] = _hex(h.id, h.q, h.r, h.terrain, h.kiwi + (kiwi,), h.nest, h.domain)

    def place_new_kiwi(self, hex_id: str, flock: str, size: int) -> Kiwi:
        """A fresh Kiwi (`new_kiwi`) put on a hex (`add_kiwi`)."""
        kiwi = self.new_kiwi(flock, size)
        self.add_kiwi(hex_id, kiwi)
        return kiwi

    def remove_kiwi(self, hex_id: str, kiwi_id: int) -> Kiwi:
        """Take the Kiwi with this piece id off the hex and return it (KeyError when it is not there)."""
        hexes = self.hexes
        h = hexes[hex_id]
        stack = h.kiwi
        i = _at(stack, kiwi_id, hex_id)
        hexes[hex_id] = _hex(h.id, h.q, h.r, h.terrain, stack[:i] + stack[i + 1:] if len(stack) > 1 else (),
                             h.nest, h.domain)
        return stack[i]

    def move_kiwi(self, origin: str, dest: str, kiwi_id: int) -> Kiwi:
        """Move the Kiwi with this piece id from `origin` to the end of `dest`'s stacks; returns it (KeyError when
        it is not on `origin`)."""
        kiwi = self.remove_kiwi(origin, kiwi_id)
        self.add_kiwi(dest, kiwi)
        return kiwi

    def resize_kiwi(self, hex_id: str, kiwi_id: int, by: int) -> Kiwi:
        """Grow (by > 0) or shrink the Kiwi with this piece id on the hex, keeping its place in the stacks; at size 0
        it leaves the hex. Returns the resized Kiwi (KeyError when it is not there)."""
        hexes = self.hexes
        h = hexes[hex_id]
        stack = h.kiwi
        i = _at(stack, kiwi_id, hex_id)
        k = stack[i]
        new = _kiwi(kiwi_id, k.flock, k.size + by)
        if len(stack) == 1:
            stack = (new,) if new.size > 0 else ()
        else:
            stack = stack[:i] + (new,) + stack[i + 1:] if new.size > 0 else stack[:i] + stack[i + 1:]
        hexes[hex_id] = _hex(h.id, h.q, h.r, h.terrain, stack, h.nest, h.domain)
        return new

    def set_kiwi(self, hex_id: str, stack: tuple[Kiwi, ...] | list[Kiwi]) -> None:
        """Replace the hex's Kiwi stacks (setting up a position by hand; play uses the writers above)."""
        h = self.hexes[hex_id]
        self.hexes[hex_id] = _hex(h.id, h.q, h.r, h.terrain, tuple(stack), h.nest, h.domain)

    def set_nest(self, hex_id: str, nest: tuple[str, str] | None) -> None:
        """Put a Nest `(flock, nest id)` on the hex (None: none)."""
        h = self.hexes[hex_id]
        self.hexes[hex_id] = _hex(h.id, h.q, h.r, h.terrain, h.kiwi, nest, h.domain)

    def set_domain(self, hex_id: str, domain: tuple[str, str] | None) -> None:
        """Put a domain marker `(flock, terrain)` on the hex (None: none)."""
        h = self.hexes[hex_id]
        self.hexes[hex_id] = _hex(h.id, h.q, h.r, h.terrain, h.kiwi, h.nest, domain)

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
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            # an empty stack without the inner comprehension (most hexes; checkpoints take this often)
            "hexes": [[h.id, h.q, h.r, h.terrain, [[k.id, k.flock, k.size] for k in h.kiwi] if h.kiwi else [],
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
            # a mode's own data and the mode's name: only games that set them carry the keys, so a standard
            # game's JSON is unchanged
            **({} if (own := self.mode_state) is None else {own.key: own.to_dict()}),
            **({} if self.mode is None else {"mode": self.mode}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "State":
        """Rebuild a state from `to_dict` output."""
        hexes = {}
        for hid, q, r, terrain, kiwi, nest, domain in data["hexes"]:
            hexes[hid] = _hex(hid, q, r, terrain, tuple([_kiwi(i, f, s) for i, f, s in kiwi]),
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
                   mode_state=_mode_state(data), mode=data.get("mode"))

    def copy(self) -> "State":
        """An independent copy, equal by `to_dict`: the mutable containers (the hexes dict, hands, bags, ...) are
        copied, what never changes in place is shared: the island's Hex and Kiwi (immutable: a change replaces the
        Hex in the copy's own `hexes`), the `(flock, id)` tuples, the strings, `params`, the island's cached Board.
        Bots copy states on every lookahead, so this is written out by hand rather than through
        `to_dict`/`from_dict`. A field added to State that holds a mutable value must be copied here
        (tests/test_engine_state_copy.py)."""
        copy_flock = _copy_flock
        flocks = {fid: copy_flock(f) for fid, f in self.flocks.items()}
        twin = _STATE_NEW(State)
        d = twin.__dict__
        d.update(self.__dict__)
        d["hexes"] = self.hexes.copy()
        d["flocks"] = flocks
        d["seats"] = self.seats.copy()
        d["fruit_bag"] = self.fruit_bag.copy()
        d["domain_bag"] = self.domain_bag.copy()
        d["season_cards"] = self.season_cards.copy()
        own = self.mode_state
        if own is not None:
            d["mode_state"] = own.copy()
        return twin


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


class ModeState(Protocol):
    """A mode's own typed data in `State.mode_state`: its `key` names it in the state's JSON form, and `to_dict`,
    `from_dict` and `copy` keep saves, loads and clones exact. A mode defines it (a dataclass, compared by value)
    and `register_mode_state`s the class so `State.from_dict` reads its key; the core names no mode."""

    key: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (fresh lists: a save must not share what play changes)."""
        ...

    @classmethod
    def from_dict(cls, data: Any) -> Self:
        """Rebuild from `to_dict` output; ValueError naming what is wrong with other data."""
        ...

    def copy(self) -> Self:
        """An independent copy, equal by value (its mutable parts copied)."""
        ...


_MS = TypeVar("_MS", bound=ModeState)
# key in a state's JSON form -> the ModeState class that reads it (`register_mode_state`)
_MODE_STATES: dict[str, type[ModeState]] = {}
# the keys of a state's JSON form that are not a mode's own data (`State.to_dict`'s: a key added there goes here too)
_STATE_KEYS = frozenset({"hexes", "flocks", "seats", "fruit_bag", "domain_bag", "rng", "first", "season", "phase",
                         "step", "season_cards", "next_kiwi", "over", "variant", "params", "mode"})


def register_mode_state(cls: type[_MS]) -> type[_MS]:
    """Make `State.from_dict` read a mode's own data under `cls.key` (a class decorator); returns the class."""
    if not isinstance(getattr(cls, "key", None), str) or cls.key in _STATE_KEYS:
        raise ValueError(f"{cls.__name__}.key must be a string naming no shared state field")
    _MODE_STATES[cls.key] = cls
    return cls


def _mode_state(data: dict[str, Any]) -> ModeState | None:
    """The mode's own data of a state's JSON form, read by its registered class (ValueError for a key no
    registered mode reads: its mode was not loaded, or the data is not a state's)."""
    found: ModeState | None = None
    for key, value in data.items():
        if key in _STATE_KEYS or value is None:
            continue
        cls = _MODE_STATES.get(key)
        if cls is None:
            raise ValueError(f"state data has `{key}`, which no loaded mode reads "
                             f"(mode data: {', '.join(_MODE_STATES) or 'none registered'})")
        if found is not None:
            raise ValueError(f"state data holds two modes' data: `{found.key}` and `{key}`")
        found = cls.from_dict(value)
    return found
