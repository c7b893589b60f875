"""Game setup (R-SETUP-1..8): island layout, flocks, bags, Season cards, decks and hands, starting
positions (first-game positions from island.yaml, or the advanced placement steps of game.yaml)."""
from __future__ import annotations

from typing import Generator

from interpreter.engine import effects, vto
from interpreter.engine.context import Ctx, Runtime
from interpreter.engine.decisions import Option, ask
from interpreter.engine.placing import find_kiwi, kref
from interpreter.engine.rules import Rules
from interpreter.engine.state import Flock, Hex, State


class SetupError(ValueError):
    """Bad game parameters (unknown flock, leader, side, player count)."""


def island_hexes(rules: Rules, players: int) -> tuple[dict, dict]:
    """The hexes of the layout for this player count (R-SETUP-1), and the layout."""
    layout = next((l for l in rules.layouts if int(l.get("players", 0)) == players), None)
    if layout is None:
        raise SetupError(f"island.yaml has no layout for {players} players")
    hexes: dict[str, Hex] = {}
    for placed in layout["sections"]:
        section = rules.sections.get(placed["section"])
        if section is None:
            raise SetupError(f"layout {layout.get('id')} names unknown section {placed['section']}")
        for h in section["hexes"]:
            hexes[h["id"]] = Hex(h["id"], int(h["q"]) + int(placed.get("dq", 0)), int(h["r"]) + int(placed.get("dr", 0)),
                                 h["terrain"])
    return hexes, layout


def params_of(rules: Rules) -> dict:
    """Rule values copied into the state for pure functions (dominance, queries, scoring)."""
    def w(x):
        return {"kiwi": x.kiwi, "leader": x.leader, "nests": x.nests}
    from interpreter.engine.compose import leader_weights
    extra = leader_weights(rules)   # `my leader counts N for dominance`; absent otherwise, so saves stay as they were
    return {
        **({"leader_weight": extra} if extra else {}),
        "dominance": {k: w(v) for k, v in rules.dominance.items()},
        "nest_dominance": {n: int(d.get("dominance", 0) or 0) for n, d in rules.nests.items()},
        "nest_vp": {n: int(d.get("vp", 0) or 0) for n, d in rules.nests.items()},
        "max_size": rules.max_size, "domain_vp": rules.domain_vp, "tiebreak": list(rules.tiebreak),
    }


def new_state(rules: Rules, players: list[str], seed: int, leaders: dict | None, leader_cards: dict | None,
              sides: dict | None, mode: str, variant: str | None = None, game_mode: str = "standard",
              solo_side: str | None = None) -> State:
    """A state ready for the setup step: island, flocks dealt, bags filled, cards shuffled, hands drawn.

    game_mode "solo": players are [player, kiwibot]; Kiwibot's seat, deck, Solo cards and Season cards follow
    solo.yaml (R-SOLO-1..4, interpreter/engine/solo.py).
    """
    from interpreter.engine import solo
    if game_mode not in ("standard", solo.MODE):
        raise SetupError(f"mode must be 'standard' or 'solo', got {game_mode!r}")
    solo_pair: tuple[str, str] | None = None
    if game_mode == solo.MODE:
        if variant is not None:
            raise SetupError("solo mode is played without Variable Turn Order (variant must be None)")
        try:
            solo.check_content(rules, solo_side)
            seated = solo.seats(rules, list(players))
        except solo.SoloError as exc:
            raise SetupError(str(exc)) from None
        solo_pair = (players[0], players[1])
        if leaders is not None and players[1] not in leaders:
            # R-SOLO-1: Kiwibot's Leader is random: dealt from the seed among those the player did not take
            left = [l for l in rules.leaders if l not in leaders.values()]
            if not left:
                raise SetupError("no Leader left to deal to Kiwibot")
            dealer = State(hexes={}, flocks={}, seats=[], fruit_bag={}, domain_bag={}, rng=int(seed) & ((1 << 64) - 1))
            leaders = {**leaders, players[1]: left[dealer.rand_below(len(left))]}
        players = seated
    elif solo_side is not None:
        raise SetupError("solo_side is only for mode='solo'")
    if not 1 <= len(players) <= 4 or len(set(players)) != len(players):
        raise SetupError(f"players must be 1-4 distinct flocks, got {players}")
    for f in players:
        if f not in rules.flocks:
            raise SetupError(f"unknown flock `{f}` (known: {', '.join(rules.flocks)})")
    if mode not in ("first-game", "advanced"):
        raise SetupError(f"setup must be 'first-game' or 'advanced', got {mode!r}")
    if variant not in (None, vto.VARIANT):
        raise SetupError(f"variant must be None or {vto.VARIANT!r} (Variable Turn Order), got {variant!r}")
    if variant == vto.VARIANT and not rules.vto_phases:
        raise SetupError("Variable Turn Order is not available with this content: game.yaml has no "
                         "`variants.vto.phases` (R-VTO-1)")
    if variant == vto.VARIANT and len(rules.tracker) < len(players):
        raise SetupError(f"Variable Turn Order needs a turn tracker slot per player: turn_order.yaml has "
                         f"{len(rules.tracker)} for {len(players)} players")
    hexes, layout = island_hexes(rules, len(players))
    st = State(hexes=hexes, flocks={}, seats=list(players), fruit_bag=dict(rules.fruit_counts),
               domain_bag=dict(rules.domain_counts), rng=int(seed) & ((1 << 64) - 1), params=params_of(rules),
               variant=variant)
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
        cards = [c["id"] for c in rules.leaders[leader].get("cards", [])]
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
    # R-SETUP-7: four random Season cards, one per season (solo: `per_season` face down per season, R-SOLO-4)
    pool = list(rules.season_cards)
    st.shuffle(pool)
    wanted = rules.season_cards_per_game if solo_pair is None else solo.season_card_count(rules)
    if solo_pair is not None and len(pool) < wanted:
        raise SetupError(f"solo mode deals {wanted} Season cards; the content has {len(pool)}")
    st.season_cards = pool[:wanted]
    if solo_pair is not None:
        solo.setup_state(rules, st, solo_pair[0], solo_pair[1], solo_side)
    if mode == "first-game":
        _first_game_positions(rules, st, layout)
    st.params["setup"] = mode
    return st


def _first_game_positions(rules: Rules, st: State, layout: dict) -> None:
    """R-SETUP-5: the fixed starting position for this player count."""
    setup = next((s for s in rules.setups if s.get("layout") == layout.get("id")), None)
    if setup is None:
        raise SetupError(f"island.yaml has no first-game setup for layout {layout.get('id')}")
    seats = {int(s["seat"]): s for s in setup["seats"]}
    for f in st.seats:
        fl = st.flocks[f]
        spec = seats.get(fl.seat)
        if spec is None:
            raise SetupError(f"setup {setup.get('id')} has no seat {fl.seat}")
        fl.leader_hex = spec["leader"]
        for hex_id, sizes in (spec.get("kiwi") or {}).items():
            for size in sizes:
                st.hexes[hex_id].kiwi.append(st.new_kiwi(f, int(size)))
                fl.supply -= int(size)
        if fl.supply < 0:
            raise SetupError(f"setup {setup.get('id')} seat {fl.seat} uses more tokens than the flock has")


def setup_step(rt: Runtime) -> Generator:
    """Turn Order nest resources (R-SETUP-4), then the advanced placement steps if chosen (R-SETUP-6)."""
    st = rt.state
    for f in st.seats:
        nest = rt.rules.turn_nests.get(st.flocks[f].seat)
        if nest is not None:
            yield from effects.run(rt, nest.get("setup"), Ctx(f, source="turn order nest"))
    if st.solo is not None:   # solo: Kiwibot's extra markers (R-SOLO-3)
        from interpreter.engine import solo
        yield from solo.setup_extra(rt)
    if st.params.get("setup") == "advanced":
        for spec in rt.rules.setup_advanced:
            yield from _advanced(rt, spec)
    for f in st.seats:   # decision: tokens not used by the starting position wait in the Reserve
        fl = st.flocks[f]
        fl.reserve_kiwi += fl.supply
        fl.supply = 0
    if st.variant == vto.VARIANT:
        yield from vto.setup_tracker(rt)   # R-VTO-2


def _hex_ok(st: State, flock: str, hex_id: str, rule: str) -> bool:
    h = st.hexes[hex_id]
    if rule == "empty":
        return not h.kiwi and not st.leaders_in(hex_id)
    if rule == "without_own":
        return not st.has_presence(flock, hex_id)
    if rule == "with_own":
        return st.has_presence(flock, hex_id)
    return True


def _advanced(rt: Runtime, spec: dict) -> Generator:
    """One step of game.yaml setup.advanced, in turn order (R-SETUP-6, Z-2)."""
    st = rt.state
    kind = spec.get("step")
    rule = spec.get("hex", "any")
    if kind == "leader":
        for f in st.seats:
            opts = [Option(f"setup-leader:{h}", f"Leader on {h}") for h in st.hexes if _hex_ok(st, f, h, rule)]
            choice = yield from ask(f, "setup-leader", "Place your Leader", opts)
            hex_id = choice.split(":", 1)[1]
            st.flocks[f].leader_hex = hex_id
            for _ in range(int(spec.get("kiwi", 0))):
                _supply_kiwi(st, f, hex_id)
            rt.log("setup", f"{f} places the Leader on {hex_id}", f)
    elif kind == "place":
        # `until: N`: round the table one Kiwi at a time until each has N Kiwi on the island (R-SETUP-6);
        # `count: N`: each places N more, one at a time in turn order (Z-2)
        target = {f: int(spec["until"]) if "until" in spec else len(st.own_kiwi(f)) + int(spec.get("count", 0))
                  for f in st.seats}
        while True:
            progressed = False
            for f in st.seats:
                if len(st.own_kiwi(f)) >= target[f] or st.flocks[f].supply <= 0:
                    continue
                opts = [Option(f"setup-place:{h}", f"Kiwi on {h}") for h in st.hexes if _hex_ok(st, f, h, rule)]
                if not opts:
                    continue
                choice = yield from ask(f, "setup-place", "Place a size-1 Kiwi", opts)
                _supply_kiwi(st, f, choice.split(":", 1)[1])
                progressed = True
            if not progressed:
                break
    elif kind == "grow":
        for f in st.seats:
            done: set[int] = set()
            for _ in range(int(spec.get("count", 0))):
                cands = [(h, k) for h, k in st.own_kiwi(f) if k.size == 1 and k.id not in done]
                if not cands or st.flocks[f].supply <= 0:
                    break
                choice = yield from ask(f, "setup-grow", "Stack a token on a size-1 Kiwi",
                                        [Option(f"setup-grow:{kref(f, 1, h)}", f"Grow the Kiwi on {h}") for h, k in cands])
                _, kiwi = find_kiwi(rt, choice.split(":", 1)[1], lambda k: k.id not in done and k.size == 1)
                kiwi.size += 1
                done.add(kiwi.id)
                st.flocks[f].supply -= 1
    else:
        from interpreter.engine.context import EngineError
        raise EngineError(f"unknown advanced setup step `{kind}` in game.yaml")


def _supply_kiwi(st: State, flock: str, hex_id: str) -> None:
    st.hexes[hex_id].kiwi.append(st.new_kiwi(flock, 1))
    st.flocks[flock].supply -= 1
