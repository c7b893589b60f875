"""Bots in solo games against Kiwibot (R-SOLO-1..12): legal, deterministic, and greedy does better than random."""
from __future__ import annotations

import pytest

from kcd.analysis.bots import GreedyBot, evaluate, make_bot
from kcd.content import load_ruleset
from kcd.engine import Game
from kcd.analysis.sim import KIWIBOT, default_flocks, simulate


@pytest.fixture(scope="module")
def ruleset():
    return load_ruleset()


def test_R_SOLO_7_kiwibot_is_no_bot_name() -> None:
    """R-SOLO-7: Kiwibot is played by the engine: asking for it as a bot says so."""
    with pytest.raises(ValueError, match="Kiwibot is no bot: play a solo game"):
        make_bot(KIWIBOT, 0)


def test_R_SOLO_7_greedy_picks_legal_options_and_its_lookahead_is_the_same_game(ruleset) -> None:
    """R-SOLO-7: in a solo game the greedy bot's clones replay Kiwibot's answers exactly (same state as applying
    the option for real), and every pick is legal; the heuristic counts Kiwibot's solo VP against the player."""
    player, kiwibot = default_flocks(ruleset, 2)
    game = Game.new(ruleset, players=[player, kiwibot], seed=9, mode="solo")
    bot = GreedyBot(seed=9)
    for _ in range(25):
        option = bot.choose(game)
        assert option in game.pending.option_ids()
        trial = game.clone(events=False)
        assert trial.apply(option).ok and game.apply(option).ok
        assert trial.state.to_dict() == game.state.to_dict()
        assert game.pending is None or game.pending.player == player
    before = evaluate(game, player)
    game.state.flocks[kiwibot].domain.extend(["flower"] * 3)   # 3 more unplaced markers: 1 more Kiwibot VP
    assert evaluate(game, player) < before


def test_R_SOLO_greedy_scores_more_than_random_against_kiwibot(ruleset) -> None:
    """Against the same Kiwibot games (same seeds), the greedy player scores more VP on average than random."""
    random_vp = simulate(ruleset, 8, seed=300, mode="solo", bots=("random",)).summary()["solo"]["mean_vp"]
    greedy_vp = simulate(ruleset, 8, seed=300, mode="solo", bots=("greedy",), jobs=2).summary()["solo"]["mean_vp"]
    assert greedy_vp["player"]["total"] > random_vp["player"]["total"]
