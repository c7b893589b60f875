"""Random-play invariants over 510 standard and 180 Variable Turn Order full games (2, 3 and 4 players),
checked after every decision.

Every flock's 20 Kiwi tokens are on the track, in the reserve, on the island, under its domain markers or
(Variable Turn Order) on the turn tracker (R-COMP-2, R-RES-1, R-DM-3, R-TRACK-2, R-VTO-2); the 56 fruit and 56 markers are in the bags, the reserves or on the
island (R-COMP-1, R-PAY-1); no stack above size 3 (R-FEED-2/5); Leaders always on the island (R-LEAD-4); at
most one marker and one Nest per hex (R-DM-4, R-BUILD-1); hands never above 3 and fruit at most 10 once a
turn is over (R-LIMIT-1). Under Variable Turn Order every flock has exactly one token on the tracker, the
tokens hold distinct slots (all placed outside Wake up) and the turn order follows the slots (R-VTO-2..4);
in the standard game no token is ever on the tracker. Half the games use flock sides B, a third the
advanced setup. The games run on both cores (a process pool), so the suite stays fast.

Solo games against Kiwibot (R-SOLO-1..12) are checked the same way, plus: Kiwibot never has the pending
decision (R-SOLO-7), never holds fruit or a hand (R-SOLO-3/7/8), its nine Action cards are in its deck, on its
board, in its discard or set aside (R-SOLO-1/7); the Solo card pile and its discards are the dealt cards, the
pile in ascending order (R-SOLO-2/9); eight distinct Season cards, two a season (R-SOLO-4).
"""
from __future__ import annotations

import multiprocessing
from collections import Counter
from typing import Any


from interpreter.content import load_ruleset
from interpreter.sim import default_flocks, play_game, solo_sides

GAMES_PER_COUNT = 170          # x 3 player counts = 510 games
VTO_GAMES_PER_COUNT = 60       # x 3 player counts = 180 Variable Turn Order games
SOLO_GAMES = 240               # solo games against Kiwibot, on two processes
SEED_BASE = 50_000


def violations(state: Any, game_yaml: dict, pending_player: str | None, previous_player: str | None) -> list[str]:
    """Every broken invariant of one state, as readable lines."""
    out: list[str] = []
    limits = game_yaml["limits"]
    tokens = int(game_yaml["flock"]["kiwi_tokens"])
    fruit_total = {k: int(v) for k, v in game_yaml["components"]["fruit"].items()}
    domain_total = {k: int(v) for k, v in game_yaml["components"]["domain"].items()}
    fruit = Counter(state.fruit_bag)
    markers = Counter(state.domain_bag)
    markers_on_island: Counter[str] = Counter()
    nests: Counter[tuple[str, str]] = Counter()
    for h in state.hexes.values():
        for k in h.kiwi:
            if not 1 <= k.size <= int(limits["kiwi_size"]):
                out.append(f"hex {h.id}: {k.flock} Kiwi of size {k.size}")
        if h.domain is not None:
            owner, terrain = h.domain
            markers[terrain] += 1
            markers_on_island[owner] += 1
            if terrain != h.terrain:
                out.append(f"hex {h.id}: a {terrain} marker on {h.terrain}")
        if h.nest is not None:
            nests[h.nest] += 1
    for (flock, nest_id), n in nests.items():
        if n > 1:
            out.append(f"{flock}'s {nest_id} Nest is on {n} hexes")
    for flock_id in state.seats:
        f = state.flocks[flock_id]
        fruit.update(f.fruit)
        markers.update(f.domain)
        counted = state.island_tokens(flock_id) + f.track + f.reserve_kiwi + f.covers + f.supply + f.on_tracker
        if counted != tokens:
            out.append(f"{flock_id}: {counted} Kiwi tokens accounted for (island {state.island_tokens(flock_id)}, "
                       f"track {f.track}, reserve {f.reserve_kiwi}, covers {f.covers}, supply {f.supply}, "
                       f"tracker {f.on_tracker})")
        if f.covers != markers_on_island[flock_id]:
            out.append(f"{flock_id}: {f.covers} covering tokens for {markers_on_island[flock_id]} markers")
        if min([f.track, f.reserve_kiwi, f.covers, f.supply] + list(f.fruit.values())) < 0:
            out.append(f"{flock_id}: a negative count")
        if state.phase not in ("setup",) and f.leader_hex not in state.hexes:
            out.append(f"{flock_id}: Leader not on the island ({f.leader_hex})")
        if len(f.hand) > int(limits["hand"]):
            out.append(f"{flock_id}: {len(f.hand)} cards in hand")
        if (flock_id == previous_player and flock_id != pending_player
                and sum(f.fruit.values()) > int(limits["fruit"])):
            out.append(f"{flock_id}: {sum(f.fruit.values())} fruit after its turn")
        if pending_player is None and sum(f.fruit.values()) > int(limits["fruit"]):
            out.append(f"{flock_id}: {sum(f.fruit.values())} fruit at the end")
        if len(set(f.nests_built)) != len(f.nests_built) or nests_of(nests, flock_id) != sorted(f.nests_built):
            out.append(f"{flock_id}: built {f.nests_built} but on the island {nests_of(nests, flock_id)}")
    out += tracker_violations(state)
    if dict(fruit) != {k: v for k, v in fruit_total.items()}:
        out.append(f"fruit {dict(fruit)} != {fruit_total}")
    if dict(markers) != domain_total:
        out.append(f"markers {dict(markers)} != {domain_total}")
    return out


def tracker_violations(state: Any) -> list[str]:
    """R-VTO-2..4: one token per flock on the turn tracker, on distinct slots, turn order by slot; none without the variant."""
    out: list[str] = []
    flocks = [state.flocks[f] for f in state.seats]
    if state.variant != "vto":
        if any(f.on_tracker or f.tracker_slot is not None for f in flocks):
            out.append("a token on the turn tracker in a standard game")
        return out
    if state.phase == "setup":
        return out   # the tokens are being placed (R-VTO-2)
    if any(f.on_tracker != 1 for f in flocks):
        out.append(f"tracker tokens {[f.on_tracker for f in flocks]}, expected one per flock")
    slots = [f.tracker_slot for f in flocks if f.tracker_slot is not None]
    if len(set(slots)) != len(slots):
        out.append(f"two tokens share a tracker slot: {slots}")
    if state.phase != "wake_up":
        if len(slots) != len(flocks):
            out.append(f"a token below the tracker outside Wake up: {[f.tracker_slot for f in flocks]}")
        elif state.turn_order() != sorted(state.seats, key=lambda x: state.flocks[x].tracker_slot):
            out.append(f"turn order {state.turn_order()} does not follow the tracker slots")
    return out


def solo_violations(state: Any, game_yaml: dict, solo_setup: dict, solo_numbers: dict[str, int],
                    pending_player: str | None) -> list[str]:
    """R-SOLO-1..9 bookkeeping of one solo state, as readable lines (see the module docstring)."""
    out: list[str] = []
    solo = state.solo
    if solo is None:
        return ["a solo game without its solo state"]
    bot = state.flocks[solo["bot"]]
    if pending_player == solo["bot"]:
        out.append("Kiwibot has a pending decision")
    if not solo["kiwibot_fruit"] and sum(bot.fruit.values()):
        out.append(f"Kiwibot holds fruit {dict(bot.fruit)}")
    if bot.hand:
        out.append(f"Kiwibot holds a hand {bot.hand}")
    deck = Counter({c: int(n) for c, n in game_yaml["flock"]["deck"].items()})
    cards = Counter(bot.deck + bot.hand + bot.played + bot.discard + solo["set_aside"])
    if cards != deck:
        out.append(f"Kiwibot's Action cards {dict(cards)} != its deck {dict(deck)}")
    if len(solo["set_aside"]) > int(solo_setup["set_aside"]):
        out.append(f"Kiwibot has {len(solo['set_aside'])} cards set aside")
    dealt = solo["pile"] + solo["discarded"]
    if len(dealt) != int(solo_setup["solo_cards"]) or len(set(dealt)) != len(dealt):
        out.append(f"Solo cards {dealt}: expected {solo_setup['solo_cards']} distinct cards")
    numbers = [solo_numbers[c] for c in solo["pile"]]
    if numbers != sorted(numbers):
        out.append(f"Solo card pile {solo['pile']} is not in ascending order")
    if len(solo["discarded"]) > state.season:
        out.append(f"{len(solo['discarded'])} Solo cards discarded by season {state.season}")
    per_game = int(game_yaml["season_cards"]["per_game"]) * int(solo_setup["season_cards_per_season"])
    if len(state.season_cards) != per_game or len(set(state.season_cards)) != per_game:
        out.append(f"Season cards {state.season_cards}: expected {per_game} distinct")
    return out


def run_solo_games(job: tuple[int, int]) -> tuple[int, int, list[str]]:
    """Play `count` random solo games against Kiwibot, checking every invariant after every decision."""
    first_seed, count = job
    ruleset = load_ruleset()
    game_yaml = dict(ruleset.game)
    solo_setup = dict(ruleset.solo["setup"])
    solo_numbers = {item.id: int(item.data["number"]) for item in ruleset.items("solo_cards")}
    flocks = default_flocks(ruleset, 2)
    sides = solo_sides(ruleset)
    problems: list[str] = []
    decisions = 0
    for seed in range(first_seed, first_seed + count):
        def check(game: Any, decision: Any, option: str, applied: Any, seed: int = seed) -> None:
            pending = None if game.is_over else game.pending.player
            found = violations(game.state, game_yaml, pending, decision.player)
            found += solo_violations(game.state, game_yaml, solo_setup, solo_numbers, pending)
            if found and len(problems) < 20:
                problems.append(f"solo seed {seed} after `{option}`: " + "; ".join(found))

        # every marker side and the seed-dealt one (R-SOLO-12), flock sides B on odd seeds, advanced setup every third
        side = ([None] + sides)[seed % (len(sides) + 1)]
        flock_sides = {f: "B" for f in flocks} if seed % 2 else None
        setup = "advanced" if seed % 3 == 0 else "first-game"
        decisions += play_game(ruleset, flocks, seed, ("random",), sides=flock_sides, setup=setup, mode="solo",
                               solo_side=side, on_decision=check).decisions
    return count, decisions, problems


def nests_of(nests: Counter, flock: str) -> list[str]:
    """Sorted ids of the flock's Nests on the island."""
    return sorted(n for (f, n) in nests for _ in range(nests[(f, n)]) if f == flock)


def run_games(job: tuple[int, int, int, str | None]) -> tuple[int, int, list[str]]:
    """Play `count` random games with `players` players (and a variant), checking after every decision;
    (games, decisions, problems)."""
    players, first_seed, count, variant = job
    ruleset = load_ruleset()
    game_yaml = dict(ruleset.game)
    flocks = default_flocks(ruleset, players)
    problems: list[str] = []
    decisions = 0
    for seed in range(first_seed, first_seed + count):
        def check(game: Any, decision: Any, option: str, applied: Any, seed: int = seed) -> None:
            pending = None if game.is_over else game.pending.player
            found = violations(game.state, game_yaml, pending, decision.player)
            if found and len(problems) < 20:
                problems.append(f"{players}p {variant or 'standard'} seed {seed} after `{option}`: "
                                + "; ".join(found))

        # a mix of rule sets: flock sides B (R-ASYM-1..5) on odd seeds, advanced setup (R-SETUP-6) every third
        sides = {f: "B" for f in flocks} if seed % 2 else None
        setup = "advanced" if seed % 3 == 0 else "first-game"
        decisions += play_game(ruleset, flocks, seed, ("random",), sides=sides, setup=setup, variant=variant,
                               on_decision=check).decisions
    return count, decisions, problems


def test_random_play_invariants_510_games_and_R_VTO_180_games() -> None:
    """R-COMP-1/2, R-RES-1, R-DM-3/4, R-BUILD-1, R-LEAD-4, R-LIMIT-1, R-FEED-2, R-VTO-2..4: hold after every decision."""
    jobs: list[tuple[int, int, int, str | None]] = []
    for players in (2, 3, 4):
        half = GAMES_PER_COUNT // 2
        base = SEED_BASE + players * 10_000
        jobs += [(players, base, half, None), (players, base + half, GAMES_PER_COUNT - half, None)]
        jobs.append((players, base + 5_000, VTO_GAMES_PER_COUNT, "vto"))
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with ctx.Pool(2) as pool:
        results = pool.map(run_games, jobs, chunksize=1)
    games = sum(r[0] for r in results)
    problems = [p for r in results for p in r[2]]
    assert games == 3 * (GAMES_PER_COUNT + VTO_GAMES_PER_COUNT)
    assert not problems, "\n".join(problems[:20])


def test_R_SOLO_random_play_invariants_240_solo_games() -> None:
    """R-SOLO-1..9 with R-COMP-1/2, R-RES-1, R-DM-3/4, R-BUILD-1, R-LEAD-4, R-LIMIT-1: tokens, fruit, markers and
    cards accounted for after every decision of random solo games against Kiwibot."""
    half = SOLO_GAMES // 2
    jobs = [(SEED_BASE + 90_000, half), (SEED_BASE + 90_000 + half, SOLO_GAMES - half)]
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with ctx.Pool(2) as pool:
        results = pool.map(run_solo_games, jobs, chunksize=1)
    problems = [p for r in results for p in r[2]]
    assert sum(r[0] for r in results) == SOLO_GAMES
    assert sum(r[1] for r in results) > 20 * SOLO_GAMES   # whole games were played
    assert not problems, "\n".join(problems[:20])


def test_R_SOLO_invariant_checker_catches_solo_bookkeeping() -> None:
    """The solo checks work: fruit or a hand given to Kiwibot, a lost Action card, a Solo card out of order."""
    from interpreter.engine import Game

    ruleset = load_ruleset()
    game_yaml = dict(ruleset.game)
    solo_setup = dict(ruleset.solo["setup"])
    numbers = {item.id: int(item.data["number"]) for item in ruleset.items("solo_cards")}
    game = Game.new(ruleset, players=default_flocks(ruleset, 2), seed=3, mode="solo")
    state = game.state
    assert solo_violations(state, game_yaml, solo_setup, numbers, game.pending.player) == []
    bot = state.flocks[state.solo["bot"]]
    bot.fruit[next(iter(bot.fruit))] += 1
    bot.hand.append(bot.deck.pop())
    state.solo["pile"].reverse()
    found = solo_violations(state, game_yaml, solo_setup, numbers, state.solo["bot"])
    assert any("holds fruit" in p for p in found) and any("holds a hand" in p for p in found)
    assert any("ascending" in p for p in found) and any("pending decision" in p for p in found)
    bot.hand.clear()
    assert any("Action cards" in p for p in solo_violations(state, game_yaml, solo_setup, numbers, None))


def test_invariant_checker_catches_a_lost_token() -> None:
    """The checker itself works: a token removed by hand is reported."""
    from interpreter.engine import Game

    ruleset = load_ruleset()
    game = Game.new(ruleset, players=default_flocks(ruleset, 2), seed=1)
    state = game.state
    assert violations(state, dict(ruleset.game), game.pending.player, None) == []
    flock = state.seats[0]
    state.flocks[flock].track -= 1
    state.fruit_bag[next(iter(state.fruit_bag))] += 1
    found = violations(state, dict(ruleset.game), game.pending.player, None)
    assert any("Kiwi tokens accounted" in p for p in found) and any(p.startswith("fruit") for p in found)


def test_R_VTO_2_invariant_checker_counts_the_tracker_token() -> None:
    """R-VTO-2: the token on the turn tracker is one of the flock's 20; a second one or a shared slot is reported."""
    from interpreter.engine import Game

    ruleset = load_ruleset()
    game = Game.new(ruleset, players=default_flocks(ruleset, 3), seed=4, variant="vto")
    while game.state.phase == "setup":
        assert game.apply(game.pending.options[0].id).ok
    state = game.state
    assert all(state.flocks[f].on_tracker == 1 for f in state.seats)
    assert violations(state, dict(ruleset.game), game.pending.player, None) == []
    first, second = state.seats[:2]
    state.flocks[first].on_tracker = 2
    state.flocks[second].tracker_slot = state.flocks[state.seats[2]].tracker_slot
    found = violations(state, dict(ruleset.game), game.pending.player, None)
    assert any("Kiwi tokens accounted" in p and "tracker 2" in p for p in found)
    assert any("share a tracker slot" in p for p in found)
