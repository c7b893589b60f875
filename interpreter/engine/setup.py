"""Game setup (R-SETUP-1..8): island layout, flocks, bags, Season cards, decks and hands, starting
positions (first-game positions from island.yaml, or the advanced placement steps of game.yaml)."""
from __future__ import annotations

from typing import Any

from kcd.engine import effects, mode_registry as modes, powers
from kcd.engine.context import Ctx, EngineError, Runtime
from kcd.core import action_types as A
from kcd.core.decisions import option
from kcd.engine.values import FrameDataError
from kcd.engine.machine import Ask, Call, Cont, Do, Env, ForEach, If, Label, Question, Return, While, program
from kcd.engine.placing import kiwi_of
from kcd.content.types import AdvancedStep, Layout
from kcd.content.rules import Rules, Weights
from kcd.core.state import Flock, Hex, Kiwi, State
from kcd.core.memo import PerOwner


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
    found: dict[int, tuple[dict[str, Hex], Layout]] | None = _ISLANDS.get(rules)   # PerOwner holds Any
    if found is None:
        found = _ISLANDS.put(rules, {})
    return found


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


def params_of(rules: Rules) -> dict[str, Any]:
    """Rule values copied into the state for pure functions (dominance, queries, scoring)."""
    def w(x: Weights) -> dict[str, Any]:
        return {"kiwi": x.kiwi, "leader": x.leader, "nests": x.nests}
    extra = powers.dominance_weights(rules)   # `<pieces> count N for dominance`; absent otherwise, so saves stay as they were
    return {
        **({"dominance_weights": extra} if extra else {}),
        "dominance": {k: w(v) for k, v in rules.dominance.items()},
        "nest_dominance": {n: d.dominance for n, d in rules.nests.items()},
        "nest_vp": {n: d.vp for n, d in rules.nests.items()},
        "max_size": rules.max_size, "domain_vp": rules.domain_vp, "tiebreak": list(rules.tiebreak),
    }


def new_state(rules: Rules, players: list[str], seed: int, leaders: dict[str, str] | None,
              leader_cards: dict[str, str] | None, sides: dict[str, str] | None, mode: str,
              variant: str | None = None, game_mode: str = "standard",
              solo_side: str | None = None) -> State:
    """A state ready for the setup step: island, flocks dealt, bags filled, cards shuffled, hands drawn.

    game_mode / variant choose the mode (interpreter/modes), which checks its own arguments and adds
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


# --- the setup step: Turn Order nest resources (R-SETUP-4), then the advanced placement steps if chosen
# (R-SETUP-6) ---------------------------------------------------------------------------------------------
def _seats(rt: Runtime, env: Env) -> list[str]:
    return rt.state.seats


def _turn_nest_setup(rt: Runtime, env: Env) -> Any:
    """The flock's Turn Order nest resources (None: its seat has no Turn Order nest)."""
    flock = env["flock"]
    nest = rt.rules.turn_nests.get(rt.state.flocks[flock].seat)
    return None if nest is None else effects.run_frame(rt, nest.setup, Ctx(flock, source="turn order nest"))


def _setup_extra(rt: Runtime, env: Env) -> Any:
    """The mode's extra setup, e.g. R-SOLO-3: Kiwibot's extra markers."""
    return (rt.mode.setup_extra(rt))


def _advanced_steps(rt: Runtime, env: Env) -> range:
    """The advanced placement steps, when the game was set up so (R-SETUP-6)."""
    return range(len(rt.rules.setup_advanced) if rt.state.params.get("setup") == "advanced" else 0)


def _run_advanced(rt: Runtime, env: Env) -> Cont:
    return ADVANCED.start(env["spec"])


def _to_reserve(rt: Runtime, env: Env) -> None:
    """Decision: tokens not used by the starting position wait in the Reserve."""
    st = rt.state
    for f in st.seats:
        fl = st.flocks[f]
        fl.reserve_kiwi += fl.supply
        fl.supply = 0


def _setup_end(rt: Runtime, env: Env) -> Any:
    """The mode's last setup steps, e.g. R-VTO-2: the turn tracker tokens."""
    return (rt.mode.setup_end(rt))


SETUP_STEP = program(
    "setup.step", (), {"flock": str, "spec": int},
    ForEach("flock", _seats, (Call("nest", _turn_nest_setup),)),
    Call("extra", _setup_extra),
    ForEach("spec", _advanced_steps, (Call("advanced", _run_advanced),)),
    Do(_to_reserve),
    Call("end", _setup_end))


def _hex_ok(st: State, flock: str, hex_id: str, rule: str) -> bool:
    h = st.hexes[hex_id]
    if rule == "empty":
        return not h.kiwi and not st.leaders_in(hex_id)
    if rule == "without_own":
        return not st.has_presence(flock, hex_id)
    if rule == "with_own":
        return st.has_presence(flock, hex_id)
    return True


# --- one step of game.yaml setup.advanced (its index `spec`), in turn order (R-SETUP-6, Z-2) -------------------
def _spec(rt: Runtime, env: Env) -> AdvancedStep:
    return rt.rules.setup_advanced[env["spec"]]


def _is_leader_step(rt: Runtime, env: Env) -> bool:
    return _spec(rt, env).step == "leader"


def _is_place_step(rt: Runtime, env: Env) -> bool:
    return _spec(rt, env).step == "place"


def _is_grow_step(rt: Runtime, env: Env) -> bool:
    return _spec(rt, env).step == "grow"


def _seat_indexes(rt: Runtime, env: Env) -> range:
    return range(len(rt.state.seats))


def _ask_leader(rt: Runtime, env: Env) -> Question:
    st = rt.state
    f, rule = st.seats[env["seat"]], _spec(rt, env).hex
    return Question(f, "setup-leader", "Place your Leader",
                    [option(A.SetupLeader(h), ("Leader on {}", (h,))) for h in st.hexes if _hex_ok(st, f, h, rule)])


def _place_leader(rt: Runtime, env: Env) -> None:
    st = rt.state
    f, hex_id = st.seats[env["seat"]], env.pop("answer").hex
    st.flocks[f].leader_hex = hex_id
    for _ in range(_spec(rt, env).kiwi):
        _supply_kiwi(st, f, hex_id)
    rt.emit("setup-leader", f, flock=f, hex=hex_id)


def _targets(rt: Runtime, env: Env) -> None:
    """`until: N`: round the table one Kiwi at a time until each has N Kiwi on the island (R-SETUP-6); `count: N`:
    each places N more, one at a time in turn order (Z-2)."""
    st = rt.state
    spec = _spec(rt, env)
    env["target"] = {f: spec.until if spec.until is not None else len(st.own_kiwi(f)) + spec.count for f in st.seats}
    env["progressed"] = True


def _progressed(rt: Runtime, env: Env) -> bool:
    """Another round while someone placed in the last one."""
    progressed: bool = env["progressed"]
    return progressed


def _new_round(rt: Runtime, env: Env) -> None:
    env["progressed"] = False


def _ask_place(rt: Runtime, env: Env) -> Question | None:
    """Where the seat places a Kiwi (None: it has enough, no supply, or nowhere to place)."""
    st = rt.state
    f = st.seats[env["seat"]]
    if len(st.own_kiwi(f)) >= env["target"][f] or st.flocks[f].supply <= 0:
        return None
    rule = _spec(rt, env).hex
    opts = [option(A.SetupPlace(h), ("Kiwi on {}", (h,))) for h in st.hexes if _hex_ok(st, f, h, rule)]
    return Question(f, "setup-place", "Place a size-1 Kiwi", opts) if opts else None


def _place_kiwi(rt: Runtime, env: Env) -> None:
    st = rt.state
    _supply_kiwi(st, st.seats[env["seat"]], env.pop("answer").hex)
    env["progressed"] = True


def _new_seat(rt: Runtime, env: Env) -> None:
    """Grow: the seat has stacked no token yet."""
    env["n"], env["done"] = 0, []


def _grow_candidates(rt: Runtime, env: Env) -> list[tuple[str, Kiwi]]:
    st = rt.state
    done = env["done"]
    return [(h, k) for h, k in st.own_kiwi(st.seats[env["seat"]]) if k.size == 1 and k.id not in done]


def _can_grow(rt: Runtime, env: Env) -> bool:
    """The seat stacks another token while it has stacked fewer than the step's count, on a size-1 Kiwi not grown
    in this step, with a token in its supply."""
    st = rt.state
    return (env["n"] < _spec(rt, env).count and st.flocks[st.seats[env["seat"]]].supply > 0
            and bool(_grow_candidates(rt, env)))


def _ask_grow(rt: Runtime, env: Env) -> Question:
    f = rt.state.seats[env["seat"]]
    return Question(f, "setup-grow", "Stack a token on a size-1 Kiwi",
                    [option(A.SetupGrow(k.id, f, 1, h), ("Grow the Kiwi on {}", (h,)))
                     for h, k in _grow_candidates(rt, env)])


def _grow_kiwi(rt: Runtime, env: Env) -> None:
    st = rt.state
    where, kiwi = kiwi_of(rt, env.pop("answer"))
    st.resize_kiwi(where, kiwi.id, 1)
    env["done"].append(kiwi.id)
    st.flocks[st.seats[env["seat"]]].supply -= 1
    env["n"] += 1


def _unknown_step(rt: Runtime, env: Env) -> None:
    raise EngineError(f"unknown advanced setup step `{_spec(rt, env).step}` in game.yaml")


def _check_advanced(rt: Runtime, env: Env, at: str) -> None:
    """A loaded step is a step of the content, at a seat that plays."""
    spec = env["spec"]
    if not 0 <= spec < len(rt.rules.setup_advanced) or not 0 <= env.get("seat", 0) <= len(rt.state.seats):
        raise FrameDataError(f"setup.advanced: no advanced setup step {spec}")


ADVANCED = program(
    "setup.advanced", ("spec",),
    {"spec": int, "seat": int, "n": int, "progressed": bool, "target": dict, "done": list,
     "answer": (A.SetupLeader, A.SetupPlace, A.SetupGrow)},
    If(_is_leader_step, (
        ForEach("seat", _seat_indexes, (
            Ask("leader", _ask_leader, into="answer", kinds={"setup-leader": ("setup-leader",)}),
            Do(_place_leader))),
        Return())),
    If(_is_place_step, (
        Do(_targets),
        While(_progressed, (
            Do(_new_round),
            ForEach("seat", _seat_indexes, (
                Ask("place", _ask_place, into="answer", kinds={"setup-place": ("setup-place",)},
                    otherwise="next seat"),
                Do(_place_kiwi),
                Label("next seat"))))),
        Return())),
    If(_is_grow_step, (
        ForEach("seat", _seat_indexes, (
            Do(_new_seat),
            While(_can_grow, (Ask("grow", _ask_grow, into="answer", kinds={"setup-grow": ("setup-grow",)}),
                              Do(_grow_kiwi))))),
        Return())),
    Do(_unknown_step),
    check=_check_advanced)


def _supply_kiwi(st: State, flock: str, hex_id: str) -> None:
    st.place_new_kiwi(hex_id, flock, 1)
    st.flocks[flock].supply -= 1
