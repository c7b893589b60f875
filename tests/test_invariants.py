"""Random-play invariants over 510 standard and 180 Variable Turn Order full games (2, 3 and 4 players),
checked after every decision.

Every flock's 20 Kiwi tokens are on the track, in the reserve, on the island, under its domain markers or
(Variable Turn Order) on the turn tracker (R-COMP-2, R-RES-1, R-DM-3, R-TRACK-2, R-VTO-2); the 56 fruit and 56 markers are in the bags, the reserves or on the
island (R-COMP-1, R-PAY-1); no stack above size 3 (R-FEED-2/5); Leaders always on the island (R-LEAD-4); at
most one marker and one Nest per hex (R-DM-4, R-BUILD-1); hands never above 3 and fruit above 10 only while
that flock is asked to return fruit (R-LIMIT-1). The checker is the engine's own (interpreter/engine/
invariants.py), the one a loaded save must pass too. Under Variable Turn Order every flock has exactly one token on the tracker, the
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
from typing import Any

from kcd.content import load_ruleset
from kcd.core.decisions import Decision
from kcd.engine.invariants import violations
from kcd.content.rules import compile_rules
from kcd.analysis.sim import default_flocks, play_game, solo_sides

GAMES_PER_COUNT = 170          # x 3 player counts = 510 games
VTO_GAMES_PER_COUNT = 60       # x 3 player counts = 180 Variable Turn Order games
SOLO_GAMES = 240               # solo games against Kiwibot, on two processes
SEED_BASE = 50_000


def run_solo_games(job: tuple[int, int]) -> tuple[int, int, list[str]]:
    """Play `count` random solo games against Kiwibot, checking every invariant after every decision."""
    first_seed, count = job
    ruleset = load_ruleset()
    rules = compile_rules(ruleset)
    flocks = default_flocks(ruleset, 2)
    sides = solo_sides(ruleset)
    problems: list[str] = []
    decisions = 0
    for seed in range(first_seed, first_seed + count):
        def check(game: Any, decision: Any, option: str, applied: Any, seed: int = seed) -> None:
            found = violations(game.state, rules, None if game.is_over else game.pending)
            if found and len(problems) < 20:
                problems.append(f"solo seed {seed} after `{option}`: " + "; ".join(found))

        # every marker side and the seed-dealt one (R-SOLO-12), flock sides B on odd seeds, advanced setup every third
        side = ([None] + sides)[seed % (len(sides) + 1)]
        flock_sides = {f: "B" for f in flocks} if seed % 2 else None
        setup = "advanced" if seed % 3 == 0 else "first-game"
        decisions += play_game(ruleset, flocks, seed, ("random",), sides=flock_sides, setup=setup, mode="solo",
                               solo_side=side, on_decision=check).decisions
    return count, decisions, problems


def run_games(job: tuple[int, int, int, str | None]) -> tuple[int, int, list[str]]:
    """Play `count` random games with `players` players (and a variant), checking after every decision;
    (games, decisions, problems)."""
    players, first_seed, count, variant = job
    ruleset = load_ruleset()
    rules = compile_rules(ruleset)
    flocks = default_flocks(ruleset, players)
    problems: list[str] = []
    decisions = 0
    for seed in range(first_seed, first_seed + count):
        def check(game: Any, decision: Any, option: str, applied: Any, seed: int = seed) -> None:
            found = violations(game.state, rules, None if game.is_over else game.pending)
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
    from kcd.engine import Game

    ruleset = load_ruleset()
    rules = compile_rules(ruleset)
    game = Game.new(ruleset, players=default_flocks(ruleset, 2), seed=3, mode="solo")
    state = game.state
    assert violations(state, rules, game.pending) == []
    bot = state.flocks[state.mode_state.bot]
    bot.fruit[next(iter(bot.fruit))] += 1
    bot.hand.append(bot.deck.pop())
    state.mode_state.pile.reverse()
    found = violations(state, rules, Decision(state.mode_state.bot, "card", "", ()))
    assert any("holds fruit" in p for p in found) and any("holds a hand" in p for p in found)
    assert any("ascending" in p for p in found) and any("pending decision" in p for p in found)
    bot.hand.clear()
    assert any("Action cards" in p for p in violations(state, rules, None))


def test_invariant_checker_catches_a_lost_token() -> None:
    """The checker itself works: a token removed by hand is reported."""
    from kcd.engine import Game

    ruleset = load_ruleset()
    game = Game.new(ruleset, players=default_flocks(ruleset, 2), seed=1)
    state = game.state
    rules = compile_rules(ruleset)
    assert violations(state, rules, game.pending) == []
    flock = state.seats[0]
    state.flocks[flock].track -= 1
    state.fruit_bag[next(iter(state.fruit_bag))] += 1
    found = violations(state, rules, game.pending)
    assert any("Kiwi tokens accounted" in p for p in found) and any(p.startswith("fruit_bag") for p in found)


def test_R_LIMIT_1_R_LEAD_4_checker_catches_fruit_over_the_limit_and_a_lost_leader() -> None:
    """R-LIMIT-1: above the fruit limit only while that flock is asked to return fruit, never once the game is over;
    R-LEAD-4: a Leader always has a hex outside the advanced setup."""
    from kcd.engine import Game

    ruleset = load_ruleset()
    rules = compile_rules(ruleset)
    game = Game.new(ruleset, players=default_flocks(ruleset, 2), seed=1)
    state = game.state
    flock = state.seats[0]
    colour = next(c for c, n in state.fruit_bag.items() if n >= 11)
    state.fruit_bag[colour] -= 11
    state.flocks[flock].fruit[colour] = state.flocks[flock].fruit.get(colour, 0) + 11
    assert any(p.startswith(f"flocks/{flock}/fruit") for p in violations(state, rules, game.pending))
    assert any(p.startswith(f"flocks/{flock}/fruit") for p in violations(state, rules, None))
    asked = Decision(flock, "return-fruit", "", ())
    assert not any("fruit" in p for p in violations(state, rules, asked))
    state.flocks[flock].leader_hex = None
    assert any(p.startswith(f"flocks/{flock}/leader_hex") for p in violations(state, rules, asked))


def test_R_VTO_2_invariant_checker_counts_the_tracker_token() -> None:
    """R-VTO-2: the token on the turn tracker is one of the flock's 20; a second one or a shared slot is reported."""
    from kcd.engine import Game

    ruleset = load_ruleset()
    game = Game.new(ruleset, players=default_flocks(ruleset, 3), seed=4, variant="vto")
    while game.state.phase == "setup":
        assert game.apply(game.pending.options[0].id).ok
    state = game.state
    assert all(state.flocks[f].on_tracker == 1 for f in state.seats)
    rules = compile_rules(ruleset)
    assert violations(state, rules, game.pending) == []
    first, second = state.seats[:2]
    state.flocks[first].on_tracker = 2
    state.flocks[second].tracker_slot = state.flocks[state.seats[2]].tracker_slot
    found = violations(state, rules, game.pending)
    assert any("Kiwi tokens accounted" in p and "tracker 2" in p for p in found)
    assert any("share a tracker slot" in p for p in found)
