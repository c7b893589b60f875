"""The position heuristic the greedy bot scores one-step results with, and the mcts bot scores its leaves with.

It reads only the engine's own scoring, dominance and Season card queries (no second implementation) and what
the evaluating flock may see in the state it is given (mcts hands it determinised states).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kcd.engine import Game, queries, scoring, selectors


@dataclass(frozen=True)
class Weights:
    """How the greedy heuristic values one flock's position (VP dominate; the rest steers towards VP)."""

    vp: float = 10.0
    dominated_hex: float = 2.5
    domain_marker: float = 1.2   # each unused marker is a likely VP in the last Domain Marking (R-END-1)
    fruit: float = 0.4
    island_token: float = 0.5    # Kiwi tokens on the island: dominance material (R-DOM-2)
    opponent_vp: float = 3.0     # a little spite: the best opponent's VP count against us
    # Alone in the lead on the objective of the current season's card: its victor benefit (R-SCARD-1), often a
    # domain marker or a VP; tied for the lead: only the right benefit, and only for the tied (R-SCARD-2).
    # Measured against the previous heuristic (same bots otherwise, 2-player, seats swapped): 300 fresh games
    # won 66% [61%, 71%] (95% Wilson), mean VP 5.45 vs 4.41; solo vs Kiwibot mean VP 5.5 -> 6.1. Also measured and left out (no gain): a bonus per unused marker
    # matching an unmarked hex the flock dominates (R-DM-2; -3% at 3.0, no gain on top of this term either),
    # a bonus per point of lead on the objective (-7%), a higher dominated_hex (3.5: -5%).
    season_lead: float = 4.0
    season_tie: float = 1.0


# Decision kinds (engine ids, not content) where options of one family (the option id up to its first `:`)
# leave everything the heuristic reads equal until a later decision of the same turn, so one-ply lookahead
# on each of them always ties and only costs a clone per option:
# - card (`card:<id>`): the card only moves to the flock board; how it is played is the next decision;
# - mark (`mark:<hex>`): every marker placed scores 1 VP and leaves the reserve alike (R-DM-2); `pass`
#   (stopping in the last season's marking) is its own family and is compared;
# - return-fruit: returning any one fruit over the limit lowers the count alike (R-LIMIT-1);
# - pay (`pay:<fruit>,...,marker-<terrain>`): the heuristic counts fruit and markers, not their colours
#   or terrains, so payments handing over as many fruit and as many markers are one family (R-PAY-1).
# Not build-nest, build-hex or feed: usually their payment comes next, but when it is answered by itself the
# Nest's VP and dominance, or whose Kiwi was fed, show at once (measured). tests/test_bots.py checks the
# ties over whole greedy games of the shipped content; a choice outside these kinds is always compared.

def evaluate(game: Game, flock: str, weights: Weights = Weights()) -> float:
    """Heuristic value of the position for `flock`, from the engine's own scoring, dominance and queries."""
    state = game.state
    # one pass over the island for the markers placed (scoring) and the flock's Kiwi tokens there
    placed = dict.fromkeys(state.seats, 0)
    tokens = 0
    for h in state.hexes.values():
        stack, marker = h.kiwi, h.domain
        if stack:
            for k in stack:
                if k.flock == flock:
                    tokens += k.size
        if marker is not None and marker[0] in placed:
            placed[marker[0]] += 1
    scores = scoring.score(state, placed)
    own = scores[flock]["total"]
    best_other = max((s["total"] for f, s in scores.items() if f != flock), default=0)
    # every hex's dominant flock in one pass (R-DOM-1/2), kept for the Season card objective on this state
    memo: dict = {}
    dominated = [*selectors.dominant_table(state, "default", memo).values()].count(flock)
    fs = state.flocks[flock]
    value = (weights.vp * own - weights.opponent_vp * best_other + weights.dominated_hex * dominated
             + weights.domain_marker * len(fs.domain) + weights.fruit * sum(fs.fruit.values())
             + weights.island_token * tokens)
    if (weights.season_lead or weights.season_tie) and not state.over:
        value += _season_standing(game, flock, queries, weights, memo)
    return value


def _season_standing(game: Game, flock: str, queries: Any, weights: Weights, memo: dict | None = None) -> float:
    """The current season's Season card outlook for the flock: alone in the lead, tied for it, or behind
    (R-SCARD-1/2; solo: each of the season's cards, a tie wins nothing for the player, R-SOLO-5)."""
    state = game.state
    rules = getattr(game, "rules", None)   # a Game-like object without compiled rules: no card to read
    # Not switched off once the card is resolved (Season Card Resolution, Domain Marking): measured, that
    # lost ~14 points of win rate against keeping it (the last turns of a season stop guarding the lead).
    if rules is None:
        return 0.0
    cards = game.mode.season_cards_of(state, state.season)
    # against the engine's own seat a tie wins nothing for the player (solo: Kiwibot wins ties, R-SOLO-5)
    tie = 0.0 if game.mode.engine_flocks(state) else weights.season_tie
    out = 0.0
    for card_id in cards:
        card = rules.season_cards.get(card_id)
        if card is None or card.objective is None:
            continue
        best, _ = queries.winners(state, card.objective, list(state.seats), memo)
        if flock in best:
            out += weights.season_lead if len(best) == 1 else tie
    return out
