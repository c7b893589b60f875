"""Game setup (R-SETUP-1..8): island layout, flocks, bags, Season cards, decks and hands, starting
positions (first-game positions from island.yaml, or the advanced placement steps of game.yaml)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generator

from kcd.engine import effects, modes, powers
from kcd.engine.context import Ctx, EngineError, Runtime
from kcd.engine import action_types as A
from kcd.engine.decisions import Steps, option
from kcd.engine.frames import Ask, Call, Frame, FrameDataError, Return, Signal, as_frame, drive, register_frame
from kcd.engine.placing import kiwi_of
from kcd.engine.content_types import AdvancedStep, Layout
from kcd.engine.rules import Rules
from kcd.engine.state import Flock, Hex, State
from kcd.memo import PerOwner


class SetupError(ValueError):
    """Bad game parameters (unknown flock, leader, side, player count)."""


def island_hexes(rules: Rules, players: int) -> tuple[dict[str, Hex], Layout]:
    """The hexes of the layout for this player count (R-SETUP-1), and the layout: a new dict of the empty island's
    Hex, which are immutable values, so every game of these rules shares them (built once per layout)."""
    built = _islands(rules)
    hit = built.get(players)
    if hit is None:
        hit = built[players] = _island(rules, players)
    return dict(hit[0]), hit[1]


_ISLANDS = PerOwner()   # per live Rules: dropped with it (a process may load many content sets)


def _islands(rules: Rules) -> dict[int, tuple[dict[str, Hex], Layout]]:
    """{player count: its empty island and layout} of these rules, filled as games ask."""
    found = _ISLANDS.get(rules)
    return _ISLANDS.put(rules, {}) if found is None else found


def _island(rules: Rules, players: int) -> tuple[dict[str, Hex], Layout]:
    """The empty island of the layout for this player count (SetupError when content has none)."""
    layout = next((l for l in rules.layouts if l.players == players), None)
    if layout is None:
        raise SetupError(f"island.yaml has no layout for {players} players")
    hexes: dict[str, Hex] = {}
    for placed in layout.sections:
        section = rules.sections.get(placed.section)
        if section is None:
            raise SetupError(f"layout {layout.id} names unknown section {placed.section}")
        for h in section.hexes:
            hexes[h.id] = Hex(h.id, h.q + placed.dq, h.r + placed.dr, h.terrain)
    return hexes, layout


def params_of(rules: Rules) -> dict:
    """Rule values copied into the state for pure functions (dominance, queries, scoring)."""
    def w(x):
        return {"kiwi": x.kiwi, "leader": x.leader, "nests": x.nests}
    extra = powers.dominance_weights(rules)   # `<pieces> count N for dominance`; absent otherwise, so saves stay as they were
    return {
        **({"dominance_weights": extra} if extra else {}),
        "dominance": {k: w(v) for k, v in rules.dominance.items()},
        "nest_dominance": {n: d.dominance for n, d in rules.nests.items()},
        "nest_vp": {n: d.vp for n, d in rules.nests.items()},
        "max_size": rules.max_size, "domain_vp": rules.domain_vp, "tiebreak": list(rules.tiebreak),
    }


def new_state(rules: Rules, players: list[str], seed: int, leaders: dict | None, leader_cards: dict | None,
              sides: dict | None, mode: str, variant: str | None = None, game_mode: str = "standard",
              solo_side: str | None = None) -> State:
    """A state ready for the setup step: island, flocks dealt, bags filled, cards shuffled, hands drawn.

    game_mode / variant choose the mode (interpreter/engine/modes), which checks its own arguments and adds
    its setup: "solo" takes players [player, kiwibot] and seats them by solo.yaml (R-SOLO-1..4).
    """
    players_given = list(players)
    try:
        game = modes.select(game_mode, variant)
    except modes.ModeError as exc:
        raise SetupError(str(exc)) from None
    options = {"solo_side": solo_side}
    players, leaders = game.prepare(rules, list(players), seed, leaders, options)
    if not 1 <= len(players) <= 4 or len(set(players)) != len(players):
        raise SetupError(f"players must be 1-4 distinct flocks, got {players}")
    for f in players:
        if f not in rules.flocks:
            raise SetupError(f"unknown flock `{f}` (known: {', '.join(rules.flocks)})")
    if mode not in ("first-game", "advanced"):
        raise SetupError(f"setup must be 'first-game' or 'advanced', got {mode!r}")
    game.check(rules, players)
    hexes, layout = island_hexes(rules, len(players))
    st = State(hexes=hexes, flocks={}, seats=list(players), fruit_bag=dict(rules.fruit_counts),
               domain_bag=dict(rules.domain_counts), rng=int(seed) & ((1 << 64) - 1), params=params_of(rules),
               variant=game.variant)
    st.phase, st.step = "setup", 0
    leader_ids = list(rules.leaders)
    if leaders is None:
        st.shuffle(leader_ids)
        leaders = dict(zip(players, leader_ids))
        if len(leader_ids) < len(players):
            raise SetupError(f"{len(players)} players need {len(players)} leaders; the content has "
                             f"{len(leader_ids)}")
    elif any(f not in leaders for f in players):
        missing = [f for f in players if f not in leaders]
        raise SetupError(f"no leader given for {', '.join(missing)}: give one for every player, or leaders=None "
                         "to deal them")
    for seat, f in enumerate(players, start=1):
        leader = leaders.get(f)
        if leader not in rules.leaders:
            raise SetupError(f"unknown leader `{leader}` for {f}")
        cards = rules.leaders[leader].card_ids
        card = (leader_cards or {}).get(f, cards[0] if cards else "")
        if cards and card not in cards:
            raise SetupError(f"leader card `{card}` is not a card of {leader}")
        side = (sides or {}).get(f, "A")
        if side not in ("A", "B"):
            raise SetupError(f"side must be A or B, got {side!r}")
        deck = [c for c, n in rules.deck.items() for _ in range(int(n))]
        for c in deck:
            if c not in rules.cards:
                raise SetupError(f"game.yaml flock.deck names unknown card `{c}`")
        st.shuffle(deck)   # R-SETUP-8
        fl = Flock(id=f, seat=seat, side=side, leader=leader, leader_card=card,
                   fruit={c: 0 for c in rules.fruits}, deck=deck, track=rules.track_tokens,
                   supply=rules.kiwi_tokens - rules.track_tokens)
        st.flocks[f] = fl
        for _ in range(rules.hand):
            fl.hand.append(fl.deck.pop())
    # R-SETUP-7: four random Season cards, one per season (the mode may deal more, e.g. R-SOLO-4)
    pool = list(rules.season_cards)
    st.shuffle(pool)
    st.season_cards = pool[:game.season_cards_dealt(rules, len(pool))]
    game.setup_state(rules, st, list(players_given), options)
    if mode == "first-game":
        _first_game_positions(rules, st, layout)
    st.params["setup"] = mode
    return st


def _first_game_positions(rules: Rules, st: State, layout: Layout) -> None:
    """R-SETUP-5: the fixed starting position for this player count."""
    setup = next((s for s in rules.setups if s.layout == layout.id), None)
    if setup is None:
        raise SetupError(f"island.yaml has no first-game setup for layout {layout.id}")
    seats = {s.seat: s for s in setup.seats}
    for f in st.seats:
        fl = st.flocks[f]
        spec = seats.get(fl.seat)
        if spec is None:
            raise SetupError(f"setup {setup.id} has no seat {fl.seat}")
        fl.leader_hex = spec.leader
        for hex_id, sizes in spec.kiwi.items():
            for size in sizes:
                st.place_new_kiwi(hex_id, f, int(size))
                fl.supply -= int(size)
        if fl.supply < 0:
            raise SetupError(f"setup {setup.id} seat {fl.seat} uses more tokens than the flock has")


@register_frame("setup.step")
@dataclass(eq=False)
class SetupStepFrame(Frame):
    """Turn Order nest resources (R-SETUP-4), then the advanced placement steps if chosen (R-SETUP-6)."""

    asks: ClassVar[frozenset[int] | None] = frozenset()

    i: int = 0
    max_pc: ClassVar[int] = 4

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: each seat's Turn Order nest; 1: the mode's extra setup; 2: advanced steps; 3: the mode's end."""
        st = rt.state
        if self.pc == 0:
            while self.i < len(st.seats):
                f = st.seats[self.i]
                self.i += 1
                nest = rt.rules.turn_nests.get(st.flocks[f].seat)
                if nest is not None:
                    return Call(effects.RunFrame(nest.setup, Ctx(f, source="turn order nest")))
            self.pc, self.i = 1, 0
            return Call(as_frame(rt.mode.setup_extra(rt)))   # e.g. R-SOLO-3: Kiwibot's extra markers
        if self.pc == 1:
            self.pc = 2
        if self.pc == 2:
            if st.params.get("setup") == "advanced" and self.i < len(rt.rules.setup_advanced):
                self.i += 1
                return Call(AdvancedFrame(self.i - 1))
            for f in st.seats:   # decision: tokens not used by the starting position wait in the Reserve
                fl = st.flocks[f]
                fl.reserve_kiwi += fl.supply
                fl.supply = 0
            self.pc = 3
            return Call(as_frame(rt.mode.setup_end(rt)))   # e.g. R-VTO-2: the turn tracker tokens
        return Return()


def setup_step(rt: Runtime) -> Steps[Any]:
    """Turn Order nest resources (R-SETUP-4), then the advanced placement steps if chosen (R-SETUP-6)."""
    return (yield from drive(rt, SetupStepFrame()))


def _hex_ok(st: State, flock: str, hex_id: str, rule: str) -> bool:
    h = st.hexes[hex_id]
    if rule == "empty":
        return not h.kiwi and not st.leaders_in(hex_id)
    if rule == "without_own":
        return not st.has_presence(flock, hex_id)
    if rule == "with_own":
        return st.has_presence(flock, hex_id)
    return True


@register_frame("setup.advanced")
@dataclass(eq=False)
class AdvancedFrame(Frame):
    """One step of game.yaml setup.advanced (its index `spec`), in turn order (R-SETUP-6, Z-2)."""

    asks: ClassVar[frozenset[int] | None] = frozenset({1})
    ask_kinds = {1: {"setup-leader": ("setup-leader",), "setup-place": ("setup-place",), "setup-grow": ("setup-grow",)}}

    spec: int
    seat: int = 0                # the seat whose turn it is
    n: int = 0                   # grow: tokens stacked by this seat so far
    progressed: bool = False     # place: someone placed in this round
    target: dict = field(default_factory=dict)
    done: list = field(default_factory=list)
    max_pc: ClassVar[int] = 1

    def resume(self, rt: Runtime, value: Any) -> Signal:
        """pc 0: the next question; pc 1: its answer."""
        st = rt.state
        spec = rt.rules.setup_advanced[self.spec]
        kind = spec.step
        rule = spec.hex
        seats = st.seats
        if kind == "leader":
            if self.pc == 1:
                f, hex_id = seats[self.seat], value.hex
                st.flocks[f].leader_hex = hex_id
                for _ in range(spec.kiwi):
                    _supply_kiwi(st, f, hex_id)
                rt.emit("setup-leader", f, flock=f, hex=hex_id)
                self.seat += 1
            if self.seat >= len(seats):
                return Return()
            f = seats[self.seat]
            self.pc = 1
            return Ask(f, "setup-leader", "Place your Leader",
                       [option(A.SetupLeader(h), ("Leader on {}", (h,))) for h in st.hexes if _hex_ok(st, f, h, rule)])
        if kind == "place":
            # `until: N`: round the table one Kiwi at a time until each has N Kiwi on the island (R-SETUP-6);
            # `count: N`: each places N more, one at a time in turn order (Z-2)
            if not self.target:
                self.target = {f: spec.until if spec.until is not None else len(st.own_kiwi(f)) + spec.count
                               for f in seats}
            if self.pc == 1:
                _supply_kiwi(st, seats[self.seat], value.hex)
                self.progressed = True
                self.seat += 1
            while True:
                while self.seat < len(seats):
                    f = seats[self.seat]
                    if len(st.own_kiwi(f)) < self.target[f] and st.flocks[f].supply > 0:
                        opts = [option(A.SetupPlace(h), ("Kiwi on {}", (h,))) for h in st.hexes if _hex_ok(st, f, h, rule)]
                        if opts:
                            self.pc = 1
                            return Ask(f, "setup-place", "Place a size-1 Kiwi", opts)
                    self.seat += 1
                if not self.progressed:
                    return Return()
                self.seat, self.progressed = 0, False
        if kind == "grow":
            if self.pc == 1:
                f = seats[self.seat]
                where, kiwi = kiwi_of(rt, value)
                st.resize_kiwi(where, kiwi.id, 1)
                self.done.append(kiwi.id)
                st.flocks[f].supply -= 1
                self.n += 1
            while self.seat < len(seats):
                f = seats[self.seat]
                if self.n < spec.count:
                    cands = [(h, k) for h, k in st.own_kiwi(f) if k.size == 1 and k.id not in self.done]
                    if cands and st.flocks[f].supply > 0:
                        self.pc = 1
                        return Ask(f, "setup-grow", "Stack a token on a size-1 Kiwi",
                                   [option(A.SetupGrow(k.id, f, 1, h), ("Grow the Kiwi on {}", (h,))) for h, k in cands])
                self.seat, self.n, self.done = self.seat + 1, 0, []
            return Return()
        raise EngineError(f"unknown advanced setup step `{kind}` in game.yaml")

    def check(self, rt: Runtime) -> None:
        """A loaded step is a step of the content, at a seat that plays."""
        if not 0 <= self.spec < len(rt.rules.setup_advanced) or not 0 <= self.seat <= len(rt.state.seats):
            raise FrameDataError(f"setup.advanced: no advanced setup step {self.spec}")


def _advanced(rt: Runtime, spec: AdvancedStep) -> Steps[Any]:
    """One step of game.yaml setup.advanced, in turn order (R-SETUP-6, Z-2)."""
    return (yield from drive(rt, AdvancedFrame(next(i for i, s in enumerate(rt.rules.setup_advanced) if s is spec))))


def _supply_kiwi(st: State, flock: str, hex_id: str) -> None:
    st.place_new_kiwi(hex_id, flock, 1)
    st.flocks[flock].supply -= 1
