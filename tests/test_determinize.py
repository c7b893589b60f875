"""The determiniser (interpreter/analysis/determinize.py): a deal of the hidden information that the player cannot tell
from the real game (R-ACT-2 face-down cards, R-DM-1 face-down markers, R-END-1 revealed reserves, R-SOLO-1..4
Kiwibot's deck, the Solo card pile and face-down Season cards), conserving every count, using only the
caller's RNG, and depending on nothing the player cannot see."""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

import pytest

from kcd.analysis.bots import RandomBot
from kcd.content import load_ruleset
from kcd.analysis.determinize import alternative, determinize, resample
from kcd.engine import Game


@lru_cache(maxsize=1)
def ruleset() -> Any:
    return load_ruleset()


GAMES = [  # (label, Game.new keyword arguments)
    ("2p", {"players": ["red", "green"], "seed": 11}),
    ("4p", {"players": ["red", "green", "purple", "yellow"], "seed": 12}),
    ("vto", {"players": ["red", "green", "purple"], "seed": 13, "variant": "vto"}),
    ("solo", {"players": ["red", "green"], "seed": 14, "mode": "solo"}),
]


@lru_cache(maxsize=None)
def positions(label: str, every: int = 9) -> list[Game]:
    """Copies of one random game at every `every`-th decision, to the end."""
    kwargs = dict(GAMES)[label]
    game = Game.new(ruleset(), **kwargs)
    bot = RandomBot(kwargs["seed"])
    out, n = [], 0
    while not game.is_over:
        if n % every == 0:
            out.append(game.clone())
        game.apply(bot.choose(game))
        n += 1
    return out


def _view(game: Game, player: str) -> dict:
    view = game.view(player)
    view.pop("log")   # a determinised copy keeps only the step's events (clone(events=False))
    return view


def _cards(game: Game, flock: str) -> Counter:
    fl = game.state.flocks[flock]
    extra = game.state.mode_state.set_aside if game.state.mode_state and game.state.mode_state.bot == flock else []
    return Counter(fl.hand + fl.deck + fl.discard + fl.played + extra)


def _markers(game: Game) -> Counter:
    st = game.state
    out = Counter(st.domain_bag)
    for fl in st.flocks.values():
        out.update(fl.domain)
    out.update(h.domain[1] for h in st.hexes.values() if h.domain)
    return +out


def _players(game: Game) -> list[str]:
    """The deciding player and one other seat (a view that is not the decider's)."""
    seats = [f for f in game.state.seats if not (game.state.mode_state and game.state.mode_state.bot == f)]
    decider = game.pending.player
    return [decider] + [f for f in seats if f != decider][:1]


@pytest.mark.parametrize("label", [g[0] for g in GAMES])
def test_determinised_view_is_unchanged_and_counts_are_conserved(label: str) -> None:
    """R-ACT-2, R-DM-1, R-SOLO-1..4: the player's view is the same; each flock's cards, each terrain's markers,
    hand, deck and reserve sizes, the fruit bag and (solo) the pile, set-aside and Season card counts are kept."""
    checked = 0
    for game in positions(label):
        for player in _players(game):
            for k in range(3):
                world = determinize(game, player, random.Random(k))
                assert _view(world, player) == _view(game, player)
                assert _markers(world) == _markers(game)
                assert world.state.fruit_bag == game.state.fruit_bag
                for flock in game.state.seats:
                    real, dealt = game.state.flocks[flock], world.state.flocks[flock]
                    assert _cards(world, flock) == _cards(game, flock)
                    assert (len(dealt.hand), len(dealt.deck), len(dealt.domain)) == \
                        (len(real.hand), len(real.deck), len(real.domain))
                    assert dealt.domain == sorted(dealt.domain)
                own = world.state.flocks[player], game.state.flocks[player]
                assert (own[0].hand, own[0].domain, own[0].played) == (own[1].hand, own[1].domain, own[1].played)
                if game.state.mode_state is not None:
                    solo, real_solo = world.state.mode_state.to_dict(), game.state.mode_state.to_dict()
                    assert len(solo["pile"]) == len(real_solo["pile"])
                    assert len(solo["set_aside"]) == len(real_solo["set_aside"])
                    assert len(set(world.state.season_cards)) == len(world.state.season_cards)
                    assert solo["pile"] == sorted(solo["pile"], key=lambda c: (
                        int(world.rules.solo_cards[c].number), c))
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("label", [g[0] for g in GAMES])
def test_determinised_hidden_information_really_changes(label: str) -> None:
    """The deal is not a copy: across positions and seeds, other hands, the player's own deck order, other
    reserves, the RNG and (solo) Kiwibot's cards, the pile and face-down Season cards all change somewhere."""
    changed: Counter = Counter()
    for game in positions(label):
        player = game.pending.player
        world = determinize(game, player, random.Random(1))
        st, real = world.state, game.state
        changed["rng"] += st.rng != real.rng
        for flock in real.seats:
            a, b = st.flocks[flock], real.flocks[flock]
            if flock == player:
                changed["own deck"] += a.deck != b.deck
            else:
                changed["other cards"] += (a.hand, a.deck) != (b.hand, b.deck)
                changed["other markers"] += a.domain != b.domain
        if real.mode_state is not None:
            changed["solo pile"] += st.mode_state.pile != real.mode_state.pile
            changed["set aside"] += st.mode_state.set_aside != real.mode_state.set_aside
            changed["season cards"] += st.season_cards != real.season_cards
    expected = {"rng", "own deck", "other cards", "other markers"}
    if label == "solo":
        expected |= {"solo pile", "set aside", "season cards"}
    assert {k for k, v in changed.items() if v} >= expected


def test_determinised_games_play_on_and_leave_the_real_game_alone() -> None:
    """A deal is a playable game (random play to the end, no engine error); dealing reads no game RNG and changes
    nothing in the real game (to_json identical)."""
    for label in ("2p", "solo"):
        for game in positions(label, every=23):
            before = game.to_json()
            world = determinize(game, game.pending.player, random.Random(3))
            assert game.to_json() == before
            bot = RandomBot(5)
            while not world.is_over:
                assert world.apply(bot.choose(world)).ok


@pytest.mark.parametrize("label", [g[0] for g in GAMES])
def test_determinisation_depends_only_on_what_the_player_sees(label: str) -> None:
    """Two games the player cannot tell apart (`alternative`: the step's checkpoint dealt again, the step
    replayed, the same view) give exactly the same deal for the same RNG: no hidden fact leaks into it."""
    compared = differed = 0
    for game in positions(label):
        player = game.pending.player
        for k in range(4):
            other = alternative(game, player, random.Random(100 + k))
            if other is None:
                continue
            differed += other.state.to_dict() != game.state.to_dict()
            mine = determinize(game, player, random.Random(7)).state.to_dict()
            theirs = determinize(other, player, random.Random(7)).state.to_dict()
            assert mine == theirs
            compared += 1
    assert compared >= 10 and differed >= 5


def test_alternative_is_a_whole_game_with_the_same_view() -> None:
    """An alternative saves and loads as itself (its checkpoint holds its own hidden information) and shows the
    player the same view; a state of the wrong player is refused clearly."""
    game = positions("4p")[5]
    player = game.pending.player
    other = next(o for k in range(10) if (o := alternative(game, player, random.Random(k))) is not None)
    loaded = Game.from_json(ruleset(), other.to_json())
    assert loaded.state.to_dict() == other.state.to_dict()
    assert _view(other, player) == _view(game, player)
    with pytest.raises(ValueError, match="unknown player `blue`"):
        resample(game.clone().state, "blue", game.rules, random.Random(0))


def test_R_END_1_revealed_reserves_are_not_dealt() -> None:
    """In the last Domain Marking every reserve is shown (R-END-1), so nobody's markers are dealt again."""
    late = [g for g in positions("2p", every=1) if g.state.season == 4 and g.state.phase == "domain_marking"]
    assert late
    for game in late:
        player = game.pending.player
        world = determinize(game, player, random.Random(0))
        for flock in game.state.seats:
            assert world.state.flocks[flock].domain == game.state.flocks[flock].domain
        assert world.state.domain_bag == game.state.domain_bag
