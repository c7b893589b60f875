"""The `mcts` bot (interpreter/analysis/mcts.py): registered by name with a budget, deterministic from its own seed, reads
no hidden information (its choice is the same on every game its player cannot tell apart, R-ACT-2/R-DM-1),
never touches the game's RNG, and plays whole standard, Variable Turn Order and solo games."""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from typer.testing import CliRunner

from kcd.analysis.bots import BOTS, Bot, RandomBot, bot_name_error, make_bot
from kcd.apps.cli.main import app
from kcd.content import load_ruleset
from kcd.analysis.determinize import alternative
from kcd.engine import Game
from kcd.analysis.mcts import DEFAULT_WORK, DEPTH_COST, MIN_ITERATIONS, PER_OPTION, MctsBot, iterations_for, parse_budget
from kcd.analysis.sim import play_game


@lru_cache(maxsize=1)
def ruleset() -> Any:
    return load_ruleset()


def test_mcts_names_and_budgets() -> None:
    """`mcts`, `mcts:<N>it`, `mcts:<N>` and `mcts:<N>ms` build the bot; bad budgets and budgets on other bots are
    refused with a message naming the forms."""
    assert "mcts" in BOTS
    bot = make_bot("mcts", 3)
    assert isinstance(bot, MctsBot) and isinstance(bot, Bot)
    assert (bot.name, bot.iterations, bot.cpu_ms) == ("mcts", None, None)
    assert make_bot("mcts:40it", 3).iterations == 40
    assert make_bot("mcts:40", 3).iterations == 40
    assert make_bot("mcts:150ms", 3).cpu_ms == 150.0
    assert make_bot("mcts:150ms", 3).name == "mcts:150ms"
    assert parse_budget(" 7IT ") == {"iterations": 7}
    for bad in ("mcts:fast", "mcts:0it", "mcts:-5ms", "mcts:"):
        with pytest.raises(ValueError, match=r"bad mcts budget .*mcts:300it.*mcts:500ms"):
            make_bot(bad, 0)
    with pytest.raises(ValueError, match="bot `greedy` takes no budget"):
        make_bot("greedy:10it", 0)
    assert bot_name_error("mcts:9it") is None
    assert "unknown bot `clever`" in bot_name_error("clever")


def test_default_budget_shares_work_by_the_cost_of_an_iteration() -> None:
    """The default budget is deterministic work: DEFAULT_WORK iterations at a step's first decision when it has
    enough options, PER_OPTION per option (and one more) when it has few, fewer deeper into a step (each deal
    replays it), never fewer than MIN_ITERATIONS."""
    two = Game.new(ruleset(), players=["red", "green"], seed=1)
    four = Game.new(ruleset(), players=["red", "green", "purple", "yellow"], seed=1)
    assert two.step_depth == 0 and four.step_depth == 0
    for game in (two, four):
        expected = min(DEFAULT_WORK, PER_OPTION * (1 + len(game.pending.options)))
        assert iterations_for(game) == expected
    wide = Game.new(ruleset(), players=["red", "green"], seed=1)
    while wide.step_depth == 0 or len(wide.pending.options) < 8:
        wide.apply(wide.pending.options[0].id)
    assert iterations_for(wide) == int(DEFAULT_WORK // (1 + wide.step_depth / DEPTH_COST)) < DEFAULT_WORK
    assert iterations_for(four, work=10) == MIN_ITERATIONS


def _decisions(label: str) -> list[Game]:
    kwargs = {"2p": {"players": ["red", "green"], "seed": 21},
              "4p": {"players": ["red", "green", "purple", "yellow"], "seed": 22},
              "solo": {"players": ["red", "green"], "seed": 23, "mode": "solo"}}[label]
    game = Game.new(ruleset(), **kwargs)
    bot = RandomBot(9)
    out, n = [], 0
    while not game.is_over:
        if n % 11 == 0:
            out.append(game.clone())
        game.apply(bot.choose(game))
        n += 1
    return out


@lru_cache(maxsize=None)
def hidden_variants(label: str) -> list[tuple[Game, list[Game]]]:
    """Positions with games their deciding player cannot tell from them (other hands, decks, markers, bag,
    RNG and in solo Kiwibot's cards, the Solo pile and face-down Season cards dealt again)."""
    out = []
    for game in _decisions(label):
        player = game.pending.player
        others = [o for k in range(6) if (o := alternative(game, player, random.Random(k))) is not None]
        others = [o for o in others if o.state.to_dict() != game.state.to_dict()][:3]
        if others:
            out.append((game, others))
    return out


def _search_stats(game: Game, seed: int = 5) -> tuple[str, dict[str, tuple[int, float, int]]]:
    """The bot's choice and its whole root statistics (visits, value sum, availability per option)."""
    bot = MctsBot(seed, iterations=40)
    root, _ = bot.search(game)
    stats = {o: (c.visits, round(c.total, 9), c.available) for o, c in sorted(root.children.items())}
    return bot.choose(game), stats


@pytest.mark.parametrize("label", ["2p", "4p", "solo"])
def test_mcts_choice_does_not_change_when_hidden_information_is_resampled(label: str) -> None:
    """The same bot seed on games that differ only in what its player cannot see chooses the same option every
    time, and its whole search is the same: every root option's visits, value sum and availability are equal,
    so no hidden fact moved any figure (R-ACT-2 hands and face-down cards, R-DM-1 markers, the bag, deck order,
    the game RNG, R-SOLO-1..4 Kiwibot's cards and face-down Season cards)."""
    cases = hidden_variants(label)
    assert len(cases) >= 5
    for game, others in cases:
        expected = _search_stats(game)
        for other in others:
            assert _search_stats(other) == expected


def _seen(game: Game, player: str) -> dict:
    """What `player` sees of the game, its log aside."""
    view = game.view(player)
    view.pop("log")
    return view


def test_mcts_reused_tree_reads_no_hidden_information() -> None:
    """Through a whole run of the bot's own decisions (the kept subtree serves the next one), a game and every game
    its player cannot tell from it get the same choices while they still look the same to that player."""
    checked = 0
    for game, others in hidden_variants("2p")[:4] + hidden_variants("solo")[:3]:
        player = game.pending.player
        for other in others[:2]:
            a, b = game.clone(), other.clone()
            bot_a, bot_b = MctsBot(7, iterations=30), MctsBot(7, iterations=30)
            while not a.is_over and a.pending.player == player and _seen(a, player) == _seen(b, player):
                pick = bot_a.choose(a)
                assert bot_b.choose(b) == pick
                assert a.apply(pick).ok and b.apply(pick).ok
                checked += 1
    assert checked >= 20


def _true_cards(real: Any) -> Any:
    """A leaking determiniser: it deals everything, then puts back the true hands, decks and played cards."""
    def leak(game: Game, player: str, rng: random.Random) -> Game:
        copy = real(game, player, rng)
        for flock in game.state.seats:
            dealt, true = copy.state.flocks[flock], game.state.flocks[flock]
            dealt.hand[:], dealt.deck[:], dealt.played[:] = true.hand, true.deck, true.played
        return copy
    return leak


@pytest.mark.parametrize("peek", ["true state", "game RNG", "true cards"])
def test_the_hidden_information_check_catches_a_peeking_search(peek: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The resampling check has teeth: a search that plays on the true hidden state (no deal: the real hands, bag
    and RNG), deals from the game's RNG instead of its own, or keeps the true cards gives different search figures
    on a quarter or more of the solo positions. (In standard games the same leaks change no figure: within the
    bot's own turn, its horizon, no hidden card or marker is drawn or scored, so there is nothing to leak.)"""
    import kcd.analysis.mcts as mcts

    real = mcts.determinize
    leak = {"true state": lambda game, player, rng: game.clone(events=False),
            "game RNG": lambda game, player, rng: real(game, player, random.Random(game.state.rng ^ rng.getrandbits(32))),
            "true cards": _true_cards(real)}
    monkeypatch.setattr(mcts, "determinize", leak[peek])
    pairs = differs = 0
    for game, others in hidden_variants("solo"):
        expected = _search_stats(game)
        for other in others:
            pairs += 1
            differs += _search_stats(other) != expected
    assert pairs >= 15 and differs >= pairs // 4, (differs, pairs)


def test_mcts_is_deterministic_and_leaves_the_game_alone() -> None:
    """Same seed, same game, same choice; choosing changes nothing in the game (to_json identical), so its RNG
    (all of the game's randomness) is never drawn from; the choice is a legal option."""
    for game in _decisions("2p")[::3]:
        before = game.to_json()
        first = MctsBot(11, iterations=30).choose(game)
        assert game.to_json() == before
        assert first == MctsBot(11, iterations=30).choose(game)
        assert first in game.pending.option_ids()


def test_mcts_time_budget_returns_a_legal_option() -> None:
    """A CPU-time budget (`mcts:<N>ms`) stops the search and still answers with a legal option."""
    game = _decisions("4p")[3]
    bot = make_bot("mcts:30ms", 1)
    root, _ = bot.search(game)
    assert root.visits >= 1
    assert bot.choose(game) in game.pending.option_ids()


def test_mcts_plays_whole_games_in_every_mode() -> None:
    """Standard (2 and 3 players), Variable Turn Order and solo games against Kiwibot play to their end."""
    rs = ruleset()
    for players, kwargs in ((["red", "green"], {}), (["red", "green", "purple"], {"variant": "vto"}),
                            (["red", "green"], {"mode": "solo"})):
        rec = play_game(rs, players, 31, ["mcts:12it", "random"], **kwargs)
        assert rec.decisions > 50 and sorted(rec.ranking) == sorted(players)
        assert rec.bots[0] == "mcts:12it"


def test_mcts_beats_random() -> None:
    """A small search already plays far better than random: mcts:40it wins 6 seeded 2-player games out of 6
    against random, from either seat (deterministic: seeded bots and games)."""
    rs = ruleset()
    wins = 0
    for seed in range(6):
        bots = ["mcts:40it", "random"] if seed % 2 == 0 else ["random", "mcts:40it"]
        rec = play_game(rs, ["red", "green"], 40 + seed, bots)
        wins += rec.bots[rec.players.index(rec.ranking[0])] == "mcts:40it"
    assert wins == 6


def test_cli_plays_with_an_mcts_budget_and_refuses_a_bad_one() -> None:
    """`kcd play --bots mcts:<budget>,...` plays; a bad budget exits 2 with the forms named, no traceback."""
    runner = CliRunner()
    ok = runner.invoke(app, ["play", "--players", "2", "--seed", "3", "--bots", "mcts:8it,greedy", "--json"])
    assert ok.exit_code == 0, ok.output
    assert '"mcts:8it"' in ok.output or "mcts:8it" in ok.output
    bad = runner.invoke(app, ["play", "--players", "2", "--bots", "mcts:soon"])
    assert bad.exit_code == 2
    assert "bad mcts budget `soon`" in bad.output and "Traceback" not in bad.output


def test_every_surface_plays_mcts() -> None:
    """`kcd simulate` and `kcd balance` take mcts (with a budget) in `--bots`, the server plays an mcts bot seat to
    the game's end, and the editor's playtest offers mcts and picks it by default."""
    import json

    from kcd.apps.editor.logic import playtest
    from test_service_protocol import InProcess, play_through

    runner = CliRunner()
    sim = runner.invoke(app, ["simulate", "--games", "2", "--players", "2", "--bots", "mcts:6it,greedy", "--json"])
    assert sim.exit_code == 0, sim.output
    summary = json.loads(sim.output)
    assert summary["win_rate"]["bot"]["mcts:6it"]["games"] == 2
    bal = runner.invoke(app, ["balance", "--games", "4", "--players", "2", "--bots", "mcts:6it", "--json"])
    assert bal.exit_code == 0, bal.output
    assert json.loads(bal.output)["games"] == 4
    client = InProcess()
    result = play_through(client, [{"kind": "human"}, {"kind": "bot", "bot": "mcts:6it"}], seed=77)
    assert result["view"]["over"] and result["view"]["ranking"]
    assert "mcts" in playtest.bot_names() and playtest.default_bot() == "mcts"


def test_default_budget_stops_at_the_work_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default budget also weighs the engine work of its deals (events, deterministic): under a low WORK_CAP the
    search stops sooner, counts the decision in `capped`, still answers a legal option, and chooses alike every
    time; a fixed `mcts:<N>it` budget is never capped."""
    import kcd.analysis.mcts as mcts

    game = _decisions("4p")[2]
    full, _ = MctsBot(3).search(game)
    monkeypatch.setattr(mcts, "WORK_CAP", 60)
    bot = MctsBot(3)
    root, _ = bot.search(game)
    assert bot.capped == 1 and root.visits < full.visits and root.visits <= 60
    assert MctsBot(3).choose(game) == MctsBot(3).choose(game) in game.pending.option_ids()
    fixed = MctsBot(3, iterations=100)
    assert 60 < fixed.search(game)[0].visits <= 100 and fixed.capped == 0
