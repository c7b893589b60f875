"""Solo mode against Kiwibot (R-SOLO-1..12), played from content/base/solo.yaml.

A solo game is `Game.new(ruleset, players=[player_flock, kiwibot_flock], seed, mode="solo", solo_side=None)`.
Kiwibot never has a pending decision (R-SOLO-7): its Actions turns reveal a card and run a Solo card
segment (DSL, context `solo`) through the Kiwibot verbs below, and every question the ordinary procedures
ask it (where a Nest benefit's Kiwi goes, which Kiwi grows, where an explosion pushes...) is answered here
by the Kiwibot patterns of R-SOLO-11 (solo.yaml `patterns`, tried in content order) and the Solo-mode
marker search of R-SOLO-12. Remaining ties go to the option that benefits Kiwibot most as stated beside
each choice, then to the marker search order, so a solo game is as deterministic as any other.

`State.solo` (plain data, saved with the game) holds:
  bot, player         the two flock ids (Kiwibot, the human player)
  side                the Solo-mode marker side id in use (R-SOLO-2/12), with its `marker_start`
                      (own_leader | player_leader) and `marker_sequence` copied from solo.yaml
  pile, discarded     Solo card ids: the face-up pile (top first, ascending numbers) and the discards (R-SOLO-2/9)
  set_aside           Kiwibot's Action cards set aside face down (R-SOLO-1/7)
  flipped             how many seasons' Season cards are face up (R-SOLO-4)
  per_season          Season cards per season (`State.season_cards` holds them season after season)
  kiwibot_fruit       False: Kiwibot never gains fruit (R-SOLO-3/8)
  wins_ties, vp_per_kept_card, domain_per_vp   the scoring numbers of R-SOLO-5/6

Hooks elsewhere (each marked "solo"): setup.new_state / setup_step (R-SOLO-1..4), flow (Kiwibot's turns,
marking, the solo Season card step, the Solo card discard, the season flip), effects.run (Kiwibot verbs),
placing.take_token (Kiwibot's token patterns), Game._advance (Kiwibot's answers), scoring and view.
Event kinds added: `kiwibot` (a revealed card and its segment, data {card, slot, row, column, solo_card}),
`kiwibot-choice` (an answered question, data {kind, option}), `season-flip` (data {season, cards}),
`season-card` (one per card, the standard payload {card, season, values, victor, tied}), `solo-season`
(data {season, won, lost, player_card, kiwibot_cards, kept}) and `solo-card` (data {discarded, top}).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generator, Iterable

from interpreter.dsl import ast
from interpreter.engine import build as build_mod
from interpreter.engine import dominance, effects, labels, placing, push, queries
from interpreter.engine.board import board_of
from interpreter.engine.context import Ctx, EngineError, Runtime, Turn
from interpreter.engine.decisions import Decision, Option, ask
from interpreter.engine.modifiers import param
from interpreter.engine.state import Kiwi, State

MODE = "solo"
OFF = push.OFF

# Solo-mode marker directions (R-SOLO-12) as axial steps; the island is drawn pointy-top with r growing
# downwards (editor/logic/board_svg.py), so this is the clockwise order on the table.
DIRECTIONS: dict[str, tuple[int, int]] = {"e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0),
                                          "nw": (0, -1), "ne": (1, -1)}
CLOCKWISE: tuple[str, ...] = ("e", "se", "sw", "w", "nw", "ne")

# The step ids of solo.yaml `patterns` the engine knows, per pattern (R-SOLO-11); content picks their order.
STEPS: dict[str, frozenset[str]] = {
    "moving": frozenset({"indicated-size-can-push", "any-size-can-push-one", "any-size-to-indicated-hex"}),
    "pushing-player": frozenset({"off-island", "to-domain-marker-hex", "to-player-nest-hex", "to-player-pair-hex"}),
    "building": frozenset({"dominance-two-kiwi-no-nest"}),
    "pushing-placing-own": frozenset({"pair-in-free-hex", "pair-in-any-hex", "triad-in-free-hex"}),
    "marking-domain": frozenset({"reveal-until-fit", "shuffle-back-seasons-1-3", "gain-if-none-fits"}),
    "tokens-for-island": frozenset({"from-track", "from-reserve", "from-island-by-marker"}),
    "feeding-growing": frozenset({"indicated-size", "next-lower-size", "any-size-1"}),
    "tokens-for-domain": frozenset({"from-reserve", "from-track", "from-island-by-marker"}),
}
ROWS: tuple[str, ...] = ("move", "feed", "build", "wild")


class SoloError(ValueError):
    """A solo game cannot be set up with these parameters or this content (a clear message)."""


# --- content checks and setup (R-SOLO-1..4) ---------------------------------------------------------------
def check_content(rules: Any, side: str | None) -> None:
    """Refuse a solo game the content cannot play: missing solo.yaml parts or unknown pattern steps."""
    solo = rules.solo
    if not solo or not rules.solo_cards:
        raise SoloError("solo mode needs content/base/solo.yaml with Solo cards, `setup`, `marker` and `patterns`")
    setup = solo["setup"]
    for key in ("solo_cards", "set_aside", "kiwibot_seat", "season_cards_per_season", "vp_per_kept_card",
                "domain_per_vp"):
        if not isinstance(setup.get(key), int) or isinstance(setup.get(key), bool):
            raise SoloError(f"solo.yaml setup.{key} must be a whole number")
    if setup["solo_cards"] > len(rules.solo_cards):
        raise SoloError(f"solo.yaml setup.solo_cards is {setup['solo_cards']} but there are "
                        f"{len(rules.solo_cards)} Solo cards")
    if setup["solo_cards"] < rules.seasons:
        # R-SOLO-9 discards one after each Domain Marking: the pile must last the whole game
        raise SoloError(f"solo.yaml setup.solo_cards ({setup['solo_cards']}) must be at least the number of "
                        f"seasons ({rules.seasons})")
    if setup["kiwibot_seat"] not in (1, 2) or setup["domain_per_vp"] < 1 or setup["season_cards_per_season"] < 1:
        raise SoloError("solo.yaml setup: kiwibot_seat must be 1 or 2, domain_per_vp and "
                        "season_cards_per_season at least 1")
    if not solo["sides"]:
        raise SoloError("solo.yaml marker has no sides (R-SOLO-12)")
    for sid, s in solo["sides"].items():
        if s.get("start") not in ("own_leader", "player_leader"):
            raise SoloError(f"solo.yaml marker side `{sid}`: start must be own_leader or player_leader")
        bad = [d for d in s.get("sequence") or [] if d != "here" and d not in DIRECTIONS]
        if bad:
            raise SoloError(f"solo.yaml marker side `{sid}`: unknown direction `{bad[0]}` "
                            f"(here, {', '.join(CLOCKWISE)})")
    if side is not None and side not in solo["sides"]:
        raise SoloError(f"unknown Solo-mode marker side `{side}` (sides: {', '.join(solo['sides'])})")
    for pid, known in STEPS.items():
        steps = solo["patterns"].get(pid)
        if steps is None:
            raise SoloError(f"solo.yaml patterns has no `{pid}` pattern (R-SOLO-11)")
        bad = [s for s in steps if s not in known]
        if bad:
            raise SoloError(f"solo.yaml pattern `{pid}`: unknown step `{bad[0]}` (known: {', '.join(sorted(known))})")
    for cid, card in rules.solo_cards.items():
        for row in ROWS:
            if len((card.get("sections") or {}).get(row) or []) != 4:
                raise SoloError(f"Solo card `{cid}`: row `{row}` needs columns 1-3 and a bonus segment")


def seats(rules: Any, players: list[str]) -> list[str]:
    """Seat order of a solo game from [player, kiwibot]: Kiwibot at `setup.kiwibot_seat` (R-SOLO-3)."""
    if len(players) != 2 or players[0] == players[1]:
        raise SoloError(f"a solo game takes players=[player_flock, kiwibot_flock], got {players}")
    player, bot = players
    return [bot, player] if int(rules.solo["setup"]["kiwibot_seat"]) == 1 else [player, bot]


def season_card_count(rules: Any) -> int:
    """How many Season cards a solo game deals: `per_season` face down per season (R-SOLO-4)."""
    return rules.season_cards_per_game * int(rules.solo["setup"]["season_cards_per_season"])


def setup_state(rules: Any, st: State, player: str, bot: str, side: str | None) -> None:
    """Kiwibot's deck with a card set aside (R-SOLO-1), the Solo card pile (R-SOLO-2), the marker side."""
    setup = rules.solo["setup"]
    fl = st.flocks[bot]
    # Kiwibot has no hand: its cards are revealed from the deck (R-SOLO-7)
    fl.deck.extend(fl.hand)
    fl.hand = []
    st.shuffle(fl.deck)   # R-SOLO-1
    set_aside = [fl.deck.pop() for _ in range(min(int(setup["set_aside"]), len(fl.deck)))]
    cards = list(rules.solo_cards)
    st.shuffle(cards)
    chosen = cards[:int(setup["solo_cards"])]
    chosen.sort(key=lambda c: (int(rules.solo_cards[c].get("number", 0)), c))   # R-SOLO-2: ascending
    if side is None:   # R-SOLO-2: "use either side": dealt from the game's seed
        sides = list(rules.solo["sides"])
        side = sides[st.rand_below(len(sides))]
    spec = rules.solo["sides"][side]
    st.solo = {
        "bot": bot, "player": player, "side": side, "marker_start": str(spec["start"]),
        "marker_sequence": [str(d) for d in spec.get("sequence") or []], "pile": chosen, "discarded": [], "set_aside": set_aside,
        "flipped": 0, "per_season": int(setup["season_cards_per_season"]),
        "kiwibot_fruit": bool(setup.get("kiwibot_fruit", False)),
        "wins_ties": bool(setup.get("kiwibot_wins_ties", True)),
        "vp_per_kept_card": int(setup["vp_per_kept_card"]), "domain_per_vp": int(setup["domain_per_vp"]),
    }


def setup_extra(rt: Runtime) -> Generator:
    """R-SOLO-3: Kiwibot's extra starting resources (its Turn Order nest fruit never arrives, R-SOLO-8)."""
    bot = rt.state.solo["bot"]
    yield from effects.run(rt, rt.rules.solo["setup"].get("kiwibot_setup"), Ctx(bot, source="solo setup"))


def is_bot(st: State, flock: str) -> bool:
    """True when `flock` is Kiwibot in a solo game."""
    return st.solo is not None and st.solo["bot"] == flock


# --- the Solo-mode marker (R-SOLO-12) ---------------------------------------------------------------
def marker_order(st: State) -> list[str]:
    """Every island hex in the order the Solo-mode marker searches them (R-SOLO-12).

    From the indicated Leader's hex (`here`), then ring after ring: in each ring, for each listed direction
    the hex that many steps that way, then clockwise round the ring to the next direction's hex. Decision
    R-SOLO-12: hexes a short sequence never reaches come last in island order, and with the Leader not yet
    on the island (advanced setup) the search is the island order.
    """
    solo = st.solo or {}
    start_flock = solo.get("bot") if solo.get("marker_start") == "own_leader" else solo.get("player")
    start = st.flocks[start_flock].leader_hex if start_flock in st.flocks else None
    if start is None or start not in st.hexes:
        return list(st.hexes)
    b = board_of(st)
    q0, r0 = b.coords[start]
    seq = list(solo.get("marker_sequence") or [])
    # decision R-SOLO-12: the start hex is always tried first (every side of the marker starts "here")
    out: list[str] = [start]
    seen = set(out)
    dirs = [d for d in seq if d != "here"]
    reach = max(b.distance(start, h) for h in b.coords)
    for k in range(1, reach + 1):
        for d in dirs:
            dq, dr = DIRECTIONS[d]
            sq, sr = DIRECTIONS[CLOCKWISE[(CLOCKWISE.index(d) + 2) % 6]]   # clockwise to the next corner
            for i in range(k):
                hid = b.at.get((q0 + dq * k + sq * i, r0 + dr * k + sr * i))
                if hid is not None and hid not in seen:
                    seen.add(hid)
                    out.append(hid)
    out += [h for h in st.hexes if h not in seen]
    return out


def _rank(st: State) -> dict[str, int]:
    """Hex -> position in the marker search."""
    return {h: i for i, h in enumerate(marker_order(st))}


def _steps(rt: Runtime, pattern: str) -> list[str]:
    return list(rt.rules.solo["patterns"].get(pattern, []))


# --- Kiwibot's turn (R-SOLO-7) -------------------------------------------------------------------------------
def bot_turn(rt: Runtime, bot: str) -> Generator:
    """Reveal Kiwibot's next Action card into the next slot and resolve its Solo card segment (R-SOLO-7)."""
    st = rt.state
    fl = st.flocks[bot]
    if not fl.deck:
        _reshuffle(rt, bot)
    if not fl.deck:
        rt.log("kiwibot", f"Kiwibot ({bot}) has no Action card to reveal", bot)
        return
    card_id = fl.deck.pop()
    fl.played.append(card_id)
    slot = len(fl.played)
    row = str(rt.rules.cards[card_id].get("type"))
    # decision R-SOLO-7: a slot beyond the card's three columns (more cards per season) uses column 3
    column = min(slot, 3)
    top = st.solo["pile"][0] if st.solo["pile"] else None
    if top is None:
        rt.log("kiwibot", f"Kiwibot ({bot}) reveals {card_id}: no Solo card left", bot)
        return
    segment = rt.rules.solo_cards[top]["sections"][row][column - 1]
    rt.log("kiwibot", f"Kiwibot ({bot}) reveals {labels.card_name(card_id, rt.rules.cards[card_id])} into slot "
           f"{slot}: {top}, {row} row, column {column}: {effects.describe(segment)}", bot,
           data={"card": card_id, "slot": slot, "row": row, "column": column, "solo_card": top})
    yield from run_segment(rt, segment, Ctx(bot, turn=Turn(), source=f"{top} {row} {column}"))


def _reshuffle(rt: Runtime, bot: str) -> None:
    """R-SOLO-7: an empty deck: shuffle all of Kiwibot's cards, set one aside, the rest is the new deck.

    Decision R-SOLO-7: "all" means every card not on the flock board this season (discards and the card set
    aside); the cards in this season's slots stay there until Season Change (R-SC-2).
    """
    st = rt.state
    fl = st.flocks[bot]
    cards = fl.discard + st.solo["set_aside"]
    fl.discard = []
    st.shuffle(cards)
    n = min(int(rt.rules.solo["setup"]["set_aside"]), max(len(cards) - 1, 0))
    st.solo["set_aside"] = [cards.pop() for _ in range(n)]
    fl.deck = cards
    rt.log("shuffle", f"Kiwibot ({bot}) shuffles its cards into a new deck and sets {n} aside", bot)


@dataclass
class Segment:
    """One Solo card segment being resolved: what its moves must do and what they did (R-SOLO-10)."""

    pushes: dict[int, list[tuple[str, int]]]   # span start of a move call -> its (whose, n) pushes
    gather: bool = False
    scatter: bool = False
    dests: list[str] = field(default_factory=list)
    last: tuple[str, Kiwi] | None = None     # the hex and Kiwi of the latest move
    pushed: int = 0                          # pushes made after the latest move


_MOVES = frozenset({"bot-move", "bot-move-terrain", "bot-move-player-most", "bot-move-bot-most"})
_PUSHES = {"bot-push-own": "own", "bot-push-player": "player"}


def plan(node: Any) -> Segment:
    """Read a segment ahead: which pushes follow each move, and whether its moves gather or scatter."""
    seg = Segment({})
    current: int | None = None
    for n in ast.walk(node) if node is not None else ():
        if not isinstance(n, ast.Call):
            continue
        if n.primitive in _MOVES:
            current = n.span.start
            seg.pushes[current] = []
        elif n.primitive in _PUSHES and current is not None:
            seg.pushes[current].append((_PUSHES[n.primitive], int(n.arg("n", 1))))
        elif n.primitive == "bot-gather":
            seg.gather = True
        elif n.primitive == "bot-scatter":
            seg.scatter = True
    return seg


def run_segment(rt: Runtime, node: Any, ctx: Ctx) -> Generator:
    """Resolve a Solo card segment for Kiwibot (R-SOLO-10)."""
    if node is None:
        return
    yield from effects.run(rt, node, ctx.sub(segment=plan(node), depth=ctx.depth + 1))


def _top_card(rt: Runtime) -> dict | None:
    pile = rt.state.solo["pile"]
    return rt.rules.solo_cards[pile[0]] if pile else None


def bonus(rt: Runtime, ctx: Ctx, action: str) -> Generator:
    """A bonus action resolves that row's bonus segment of the top Solo card (R-SOLO-8)."""
    card = _top_card(rt)
    if card is None:
        return
    segment = card["sections"][action][3]
    rt.log("kiwibot", f"Kiwibot gains a bonus {action} action: {effects.describe(segment)}", ctx.flock)
    yield from run_segment(rt, segment, ctx)


# --- pieces, strengths, pushes ----------------------------------------------------------------------------
def _count(st: State, flock: str, hex_id: str) -> int:
    """Kiwi of a flock in a hex (pieces, any size; the Leader is not a Kiwi token here)."""
    return sum(1 for k in st.hexes[hex_id].kiwi if k.flock == flock)


def _push_limit(rt: Runtime, flock: str, size: int) -> int:
    return size if param(rt, flock, "push_same_size") else size - 1   # R-PUSH-1, R-ASYM-5


Piece = tuple[str, Any]   # ("kiwi", Kiwi) or ("leader", flock)


def _pieces(rt: Runtime, hex_id: str, owner: str, limit: int, exclude: int | None) -> list[Piece]:
    """Pushable pieces of `owner` in a hex: smaller Kiwi, and its Leader when a size-3 may be pushed (R-LEAD-1)."""
    st = rt.state
    out: list[Piece] = [("kiwi", k) for k in st.hexes[hex_id].kiwi
                        if k.flock == owner and k.size <= limit and k.id != exclude]
    if limit >= rt.rules.max_size and st.flocks[owner].leader_hex == hex_id and not is_bot(st, owner):
        out.append(("leader", owner))   # Kiwibot never pushes its own Leader: the Solo cards push Kiwi
    return out


def _piece_size(rt: Runtime, piece: Piece) -> int:
    return piece[1].size if piece[0] == "kiwi" else rt.rules.max_size


def _dest_step(rt: Runtime, dest: str, whose: str) -> int:
    """The first pattern step a push destination meets (R-SOLO-11), len(steps) if none."""
    st = rt.state
    solo = st.solo
    if whose == "player":
        steps = _steps(rt, "pushing-player")
        for i, step in enumerate(steps):
            if step == "off-island" and dest == OFF:
                return i
            if dest == OFF:
                continue
            h = st.hexes[dest]
            if step == "to-domain-marker-hex" and h.domain is not None:
                return i
            if step == "to-player-nest-hex" and h.nest is not None and h.nest[0] == solo["player"]:
                return i
            if step == "to-player-pair-hex" and _count(st, solo["player"], dest) >= 2:
                return i
        return len(steps)
    return _own_step(rt, dest)


def _own_step(rt: Runtime, hex_id: str) -> int:
    """Pushing / placing Kiwibot Kiwi: the first step a hex meets (pairs, then triads; R-SOLO-11)."""
    st = rt.state
    steps = _steps(rt, "pushing-placing-own")
    if hex_id == OFF:
        return len(steps) + 1   # never the Kiwi's own choice: off the island only when nothing else is left
    h = st.hexes[hex_id]
    n = _count(st, st.solo["bot"], hex_id)
    free = h.nest is None and h.domain is None
    for i, step in enumerate(steps):
        if (step == "pair-in-free-hex" and n == 1 and free) or (step == "pair-in-any-hex" and n == 1) \
                or (step == "triad-in-free-hex" and n == 2 and free):
            return i
    return len(steps)


def _push_key(rt: Runtime, piece: Piece, dest: str, whose: str, rank: dict[str, int]) -> tuple:
    """Order of (piece, destination) pairs: pattern step; then the player's biggest piece (it loses the most
    strength) or Kiwibot's smallest (its big Kiwi keep the hex it pushed into); then the marker order."""
    size = _piece_size(rt, piece)
    return (_dest_step(rt, dest, whose), -size if whose == "player" else size,
            rank.get(dest, len(rank)) if dest != OFF else -1)


def _push_piece(rt: Runtime, bot: str, origin: str, piece: Piece, dest: str) -> Generator:
    """Push one piece (R-PUSH-2/3); a Leader pushed off the island goes to an edge hex (R-LEAD-4)."""
    if piece[0] == "leader":
        yield from push.do_push(rt, bot, f"push:leader-{piece[1]}@{origin}->{dest}", leave_origin=False)
        return
    kiwi: Kiwi = piece[1]
    placing.remove_from_hex(rt, origin, kiwi)
    st = rt.state
    if dest == OFF:
        st.flocks[kiwi.flock].reserve_kiwi += kiwi.size   # R-PUSH-3
        rt.log("push", f"{bot} pushes a {kiwi.flock} size-{kiwi.size} Kiwi off the island from {origin}", bot)
    else:
        st.hexes[dest].kiwi.append(kiwi)
        rt.log("push", f"{bot} pushes a {kiwi.flock} size-{kiwi.size} Kiwi from {origin} to {dest}", bot)


def _destinations(rt: Runtime, hex_id: str) -> list[str]:
    b = board_of(rt.state)
    return b.adjacent(hex_id) + ([OFF] if b.is_edge(hex_id) else [])


def best_push(rt: Runtime, origin: str, whose: str, limit: int, exclude: int | None) -> tuple[Piece, str] | None:
    """The push Kiwibot makes from `origin`: pattern step, then piece, then marker order (R-SOLO-11/12)."""
    st = rt.state
    owner = st.solo["player"] if whose == "player" else st.solo["bot"]
    pieces = _pieces(rt, origin, owner, limit, exclude)
    if not pieces:
        return None
    rank = _rank(st)
    pairs = [(p, d) for p in pieces for d in _destinations(rt, origin)]
    return min(pairs, key=lambda pd: _push_key(rt, pd[0], pd[1], whose, rank))


# --- moving (R-SOLO-10 Move, R-SOLO-11 Moving Kiwi) --------------------------------------------------------------
def _strength(st: State, flock: str, hex_id: str) -> int:
    return dominance.strengths(st, hex_id).get(flock, 0)


def _targets(rt: Runtime, call: ast.Call, origin: str) -> list[str]:
    """The adjacent hexes the move call indicates: any, a terrain, or the player's / Kiwibot's stronghold."""
    st = rt.state
    adj = board_of(st).adjacent(origin)
    prim = call.primitive
    if prim == "bot-move-terrain":
        return [h for h in adj if st.hexes[h].terrain == call.arg("t")]
    if prim in ("bot-move-player-most", "bot-move-bot-most"):
        # "the hex where the player (Kiwibot) has the most Kiwi tokens", counted as for dominance (R-DOM-2)
        who = st.solo["player"] if prim == "bot-move-player-most" else st.solo["bot"]
        counts = {h: _strength(st, who, h) for h in adj}
        best = max(counts.values(), default=0)
        return [h for h in adj if best > 0 and counts[h] == best]
    return adj


def choose_move(rt: Runtime, ctx: Ctx, call: ast.Call) -> tuple[str, Kiwi, str] | None:
    """Kiwibot's move for a move call: the Moving Kiwi pattern, Kiwi and hexes by the marker (R-SOLO-11/12).

    Decisions R-SOLO-11: the indicated hex (terrain, stronghold) binds every step, step 3 drops the push
    requirement; "can push as indicated" means every indicated push has a piece to push there, step 2 at least
    one; gather / scatter are preferences: kept when some move meets them, dropped otherwise. No step applying
    means no move.
    """
    st = rt.state
    bot = ctx.flock
    seg: Segment | None = ctx.segment
    size = int(call.arg("s", 1))
    pushes = seg.pushes.get(call.span.start, []) if seg else []
    order = marker_order(st)
    rank = {h: i for i, h in enumerate(order)}
    unmoved = [(h, k) for h in order for k in st.hexes[h].kiwi if k.flock == bot and k.id not in ctx.turn.moved]

    def can_push(kiwi: Kiwi, dest: str, need_all: bool) -> bool:
        if not pushes:
            return True
        limit = _push_limit(rt, bot, kiwi.size)
        have = [len(_pieces(rt, dest, st.solo["player"] if w == "player" else bot, limit, kiwi.id)) >= (n if need_all else 1)
                for w, n in pushes]
        return all(have) if need_all else any(have)

    constraints: list[Callable[[str], bool] | None] = [None]
    if seg and seg.dests and seg.gather:
        constraints.insert(0, lambda d: d == seg.dests[0])
    elif seg and seg.dests and seg.scatter:
        constraints.insert(0, lambda d: d not in seg.dests)
    for constraint in constraints:
        for step in _steps(rt, "moving"):
            for origin, kiwi in unmoved:
                if step == "indicated-size-can-push" and kiwi.size != size:
                    continue
                for dest in sorted(_targets(rt, call, origin), key=lambda h: rank[h]):
                    if constraint is not None and not constraint(dest):
                        continue
                    if step == "indicated-size-can-push" and not can_push(kiwi, dest, True):
                        continue
                    if step == "any-size-can-push-one" and not (pushes and can_push(kiwi, dest, False)):
                        continue
                    return origin, kiwi, dest
    return None


def bot_move(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """Kiwibot moves one Kiwi to an adjacent hex (R-SOLO-10: the segment resolves once)."""
    found = choose_move(rt, ctx, call)
    seg: Segment | None = ctx.segment
    if seg is not None:
        seg.last, seg.pushed = None, 0
    if found is None:
        rt.log("move", f"Kiwibot ({ctx.flock}) has no Kiwi that can make this move", ctx.flock)
        return
    origin, kiwi, dest = found
    placing.remove_from_hex(rt, origin, kiwi)
    rt.state.hexes[dest].kiwi.append(kiwi)
    ctx.turn.moved.add(kiwi.id)   # R-MOVE-4: a Kiwi moves once per turn
    rt.log("move", f"{ctx.flock} moves a size-{kiwi.size} Kiwi from {origin} to {dest}", ctx.flock)
    if seg is not None:
        seg.last = (dest, kiwi)
        seg.dests.append(dest)
    yield from ()


def bot_push(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """The Kiwi just moved pushes up to n of the player's / Kiwibot's smaller pieces (R-SOLO-10/11).

    Decision R-SOLO-10: the pushes after one move never exceed `limits.push` (R-PUSH-1) in total.
    """
    seg: Segment | None = ctx.segment
    whose = _PUSHES[call.primitive or ""]
    if seg is None or seg.last is None:
        return
    hex_id, mover = seg.last
    limit = _push_limit(rt, ctx.flock, mover.size)
    for _ in range(int(call.arg("n", 1))):
        if seg.pushed >= rt.rules.push_count:
            return
        found = best_push(rt, hex_id, whose, limit, mover.id)
        if found is None:
            return
        seg.pushed += 1
        yield from _push_piece(rt, ctx.flock, hex_id, found[0], found[1])


def _nothing(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """gather / scatter: read ahead by `plan`; nothing to do when reached."""
    yield from ()


# --- feeding (R-SOLO-10 Feed, R-SOLO-11 Feeding) --------------------------------------------------------------
def feed_target(rt: Runtime, owner: str, size: int | None) -> tuple[str, Kiwi] | None:
    """The Kiwi Kiwibot feeds or grows: the Feeding pattern, hexes by the marker (R-SOLO-11/12).

    size None (a plain "grow 1 kiwi"): decision R-SOLO-11: no size is indicated, so the last step ("any size-1
    Kiwi") comes first, then the next sizes up.
    """
    st = rt.state
    order = marker_order(st)
    if size is None:
        wanted = list(range(1, rt.rules.max_size + 1))
    else:
        wanted = []
        for step in _steps(rt, "feeding-growing"):
            s = {"indicated-size": size, "next-lower-size": size - 1, "any-size-1": 1}[step]
            if s >= 1 and s not in wanted:
                wanted.append(s)
    for s in wanted:
        for h in order:
            for k in st.hexes[h].kiwi:
                if k.flock == owner and k.size == s:
                    return h, k
    return None


def bot_feed(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """Kiwibot feeds for free, still gaining the feed's domain markers (R-SOLO-8/10; R-FEED-3..5)."""
    st = rt.state
    bot = ctx.flock
    owner = bot if call.primitive == "bot-feed-own" else st.solo["player"]
    found = feed_target(rt, owner, int(call.arg("s", 1)))
    if found is None:
        rt.log("feed", f"Kiwibot ({bot}) finds no Kiwi to feed", bot)   # decision: no feed, no markers
        return
    hex_id, kiwi = found
    if kiwi.size >= rt.rules.max_size:
        placing.remove_from_hex(rt, hex_id, kiwi)
        st.flocks[owner].reserve_kiwi += kiwi.size
        rt.log("explode", f"{bot} feeds the {owner} size-{kiwi.size} Kiwi on {hex_id}: it explodes", bot)
        yield from push.push_all(rt, bot, hex_id, None, leave_origin=True)   # R-FEED-5, pushes answered below
    else:
        rt.log("feed", f"{bot} feeds the {owner} size-{kiwi.size} Kiwi on {hex_id}", bot)
        yield from placing.grow_one(rt, owner, hex_id, kiwi,
                                    Ctx(owner, depth=ctx.depth + 1, suppressed=ctx.suppressed) if owner != bot else ctx,
                                    why="the fed Kiwi")
    n = rt.rules.feed_domain_own if owner == bot else rt.rules.feed_domain_opponent   # R-FEED-4
    yield from effects.gain_domain(rt, ctx, n)
    yield from effects.emit(rt, ctx, "t-feed")


# --- building and placing (R-SOLO-10 Build / Wildcard) -----------------------------------------------------------
def _columns(rt: Runtime) -> list[str]:
    """Nest types in flock-board column order (first appearance in game.yaml flock.nests)."""
    out: list[str] = []
    for n in rt.rules.flock_nests:
        t = str(rt.rules.nests[n].get("type"))
        if t not in out:
            out.append(t)
    return out


def next_nest(rt: Runtime, bot: str, column: int) -> str | None:
    """Kiwibot's next available Nest of a column: the lowest unbuilt row, first row first (R-SOLO-10, R-BUILD-2)."""
    cols = _columns(rt)
    if not 1 <= column <= len(cols):
        return None
    built = rt.state.flocks[bot].nests_built
    cands = [n for n in rt.rules.flock_nests if rt.rules.nests[n].get("type") == cols[column - 1] and n not in built]
    cands.sort(key=lambda n: int(rt.rules.nests[n].get("row", 1)))
    for n in cands:
        if all(m in built for m in build_mod._lower_rows(rt, n)):
            return n
    return None


def build_hex(rt: Runtime, bot: str) -> str | None:
    """The Building pattern: a hex without Nest where Kiwibot dominates with enough tokens, by the marker.

    Decision R-SOLO-11: "established dominance with two or more Kiwi" is the Build rule itself (R-BUILD-1:
    `build.min_tokens` tokens and dominance), so Kiwibot builds only where a player could.
    """
    ok = set(build_mod.hexes(rt, bot))
    for step in _steps(rt, "building"):
        if step == "dominance-two-kiwi-no-nest":
            for h in marker_order(rt.state):
                if h in ok:
                    return h
    return None


def bot_build(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """Kiwibot builds its next Nest of the column for free; no hex or Nest: 1 Kiwi and a bonus Move (R-SOLO-10)."""
    bot = ctx.flock
    nest_id = next_nest(rt, bot, int(call.arg("n", 1)))
    hex_id = build_hex(rt, bot) if nest_id else None
    if nest_id is None or hex_id is None:
        rt.log("build", f"Kiwibot ({bot}) cannot build: it places a Kiwi and gains a bonus Move", bot)
        yield from placing.place_one(rt, bot, ctx)
        yield from bonus(rt, ctx, "move")
        return
    st = rt.state
    st.hexes[hex_id].nest = (bot, nest_id)
    st.flocks[bot].nests_built.append(nest_id)
    rt.log("build", f"{bot} builds {nest_id} on {hex_id}", bot)
    yield from build_mod.nest_benefit(rt, ctx, rt.rules.nests[nest_id].get("on_place"), f"{nest_id} placement")
    yield from effects.emit(rt, ctx, "t-build")


def bot_place(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """Kiwibot places n size-1 Kiwi; each hex by the Pushing / placing pattern (answered in `answer`)."""
    for _ in range(int(call.arg("n", 1))):
        yield from placing.place_one(rt, ctx.flock, ctx)


def bot_bonus(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    """A bonus action of the Solo card (R-SOLO-8)."""
    yield from bonus(rt, ctx, str(call.arg("a")))


# --- Kiwibot's own way of some core verbs (R-SOLO-8) ---------------------------------------------------------
def _no_fruit(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    rt.log("gain", f"Kiwibot ({ctx.flock}) gains no fruit", ctx.flock)   # R-SOLO-3/8
    yield from ()


def _bonus_moves(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    # decision R-SOLO-8: each Move action Kiwibot gains (a Control Nest, a track slot) is a bonus Move
    for _ in range(int(call.arg("n", 1))):
        yield from bonus(rt, ctx, "move")
    yield from effects.emit(rt, ctx, "t-gain-move")


def _skip(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    # Kiwibot never pays for extra Moves and never uses its Leader's ability (R-SOLO-8)
    yield from ()


def _mark(rt: Runtime, call: ast.Call, ctx: Ctx) -> Generator:
    yield from mark_one(rt, ctx)


SOLO_VERBS: dict[str, Callable[[Runtime, ast.Call, Ctx], Generator]] = {
    "bot-move": bot_move, "bot-move-terrain": bot_move, "bot-move-player-most": bot_move,
    "bot-move-bot-most": bot_move, "bot-gather": _nothing, "bot-scatter": _nothing,
    "bot-push-own": bot_push, "bot-push-player": bot_push, "bot-feed-own": bot_feed, "bot-feed-player": bot_feed,
    "bot-build": bot_build, "bot-place": bot_place, "bot-bonus": bot_bonus,
}
BOT_OVERRIDES: dict[str, Callable[[Runtime, ast.Call, Ctx], Generator]] = {
    "move": _bonus_moves, "build": lambda rt, c, ctx: bonus(rt, ctx, "build"),
    "feed": lambda rt, c, ctx: bonus(rt, ctx, "feed"), "extra-moves": _skip, "mark-domain": _mark,
    "leader-straight": _skip, "leader-walk": _skip, "leader-jump": _skip,
    "push-passed": _skip, "push-landing": _skip, "push-some-landing": _skip,
}


def verb_for(rt: Runtime, call: ast.Call, ctx: Ctx, fn: Callable | None) -> Callable | None:
    """The procedure of a DSL verb in a solo game: the Kiwibot verbs, and Kiwibot's way of core verbs."""
    prim = call.primitive or ""
    if prim in SOLO_VERBS:
        if not is_bot(rt.state, ctx.flock):
            raise EngineError(f"the Kiwibot verb `{effects.describe(call)}` ran for {ctx.flock}, not Kiwibot")
        return SOLO_VERBS[prim]
    if is_bot(rt.state, ctx.flock):
        if prim == "gain-fruit" and not rt.state.solo.get("kiwibot_fruit"):
            return _no_fruit
        return BOT_OVERRIDES.get(prim, fn)
    return fn


# --- tokens (R-SOLO-11: taking Kiwi tokens) ----------------------------------------------------------------
def _island_token(rt: Runtime, bot: str, exclude: int | None) -> tuple[str, Kiwi] | None:
    """The island token Kiwibot takes: the first hex by the marker holding its Kiwi, from the smallest Kiwi
    there (decision R-SOLO-11: its larger Kiwi keep their pushing size)."""
    st = rt.state
    for h in marker_order(st):
        mine = [k for k in st.hexes[h].kiwi if k.flock == bot and k.id != exclude]
        if mine:
            return h, min(mine, key=lambda k: k.size)
    return None


def _take_island(rt: Runtime, bot: str, exclude: int | None) -> bool:
    found = _island_token(rt, bot, exclude)
    if found is None:
        return False
    hex_id, kiwi = found
    kiwi.size -= 1
    if kiwi.size == 0:
        placing.remove_from_hex(rt, hex_id, kiwi)
    rt.log("token", f"Kiwibot ({bot}) takes a token from a Kiwi on {hex_id}", bot)
    return True


def take_token(rt: Runtime, bot: str, exclude: int | None) -> tuple | None:
    """Kiwibot takes a token for the island in the order of the `tokens-for-island` pattern (R-SOLO-11).

    Returns the source like `placing.take_token` (("track", slot), ("reserve", 0), ("island", 0)) or None.
    """
    fl = rt.state.flocks[bot]
    for step in _steps(rt, "tokens-for-island"):
        if step == "from-track" and fl.track > 0:
            fl.track -= 1
            fl.supply += 1
            return ("track", rt.rules.track_tokens - fl.track)
        if step == "from-reserve" and fl.reserve_kiwi > 0:
            fl.reserve_kiwi -= 1
            fl.supply += 1
            return ("reserve", 0)
        if step == "from-island-by-marker" and _take_island(rt, bot, exclude):
            fl.supply += 1
            return ("island", 0)
    return None


def _cover(rt: Runtime, bot: str, hex_id: str) -> bool:
    """Cover a marker with a token in the `tokens-for-domain` order (R-SOLO-11, R-DM-3); False if none."""
    fl = rt.state.flocks[bot]
    for step in _steps(rt, "tokens-for-domain"):
        if step == "from-reserve" and fl.reserve_kiwi > 0:
            fl.reserve_kiwi -= 1
            return True
        if step == "from-track" and fl.track > 0:
            fl.track -= 1   # R-DM-3: no track benefit
            return True
        if step == "from-island-by-marker" and _take_island(rt, bot, None):
            return True
    return False


# --- Domain Marking (R-SOLO-11 Marking Domain) -------------------------------------------------------------
def _markable(rt: Runtime, bot: str) -> list[str]:
    """Unmarked hexes Kiwibot dominates, in marker order, while it has a token to cover a marker (R-DM-2/3)."""
    if not placing.token_available(rt, bot):
        return []
    st = rt.state
    return [h for h in marker_order(st) if st.hexes[h].domain is None and dominance.dominant(st, h, "marking") == bot]


def mark_one(rt: Runtime, ctx: Ctx) -> Generator:
    """One Kiwibot marker: reveal markers until one fits a hex it dominates (R-SOLO-11). Returns
    (placed, had_a_hex)."""
    st = rt.state
    bot = ctx.flock
    fl = st.flocks[bot]
    hexes = _markable(rt, bot)
    if not hexes:
        return False, False
    terrains = {st.hexes[h].terrain for h in hexes}
    # the face-down reserve is revealed one marker at a time in a random order: a shuffled copy
    revealed = list(fl.domain)
    st.shuffle(revealed)
    fit = next((t for t in revealed if t in terrains), None)
    if fit is None:
        rt.log("mark", f"Kiwibot ({bot}) reveals no marker that fits", bot)
        return False, True
    hex_id = next(h for h in hexes if st.hexes[h].terrain == fit)
    if not _cover(rt, bot, hex_id):
        return False, True
    fl.domain.remove(fit)
    fl.covers += 1
    st.hexes[hex_id].domain = (bot, fit)
    rt.log("mark", f"{bot} marks {hex_id} ({fit})", bot)
    yield from ()
    return True, True


def marking_turn(rt: Runtime, bot: str) -> Generator:
    """Kiwibot's Domain Marking (R-SOLO-11; R-DM-1 counts): as many as the season allows; if it dominated a
    hex but no marker fitted, it gains one marker instead.

    Decision R-SOLO-11: revealed markers that do not fit go back face down in seasons 1-3 (the state never
    shows them); in the last season every reserve is revealed anyway (R-END-1), so nothing differs there.
    "Doesn't have a marker of the proper type" needs a hex it dominates: with none, no marker is gained.
    """
    per = rt.rules.marking_per_season
    count = per[min(rt.state.season, len(per)) - 1] if per else 1
    ctx = Ctx(bot, source="domain marking")
    placed, had_hex = 0, False
    while count is None or placed < count:
        done, hexes = yield from mark_one(rt, ctx)
        had_hex = had_hex or hexes
        if not done:
            break
        placed += 1
    if not placed and had_hex and "gain-if-none-fits" in _steps(rt, "marking-domain"):
        rt.log("mark", f"Kiwibot ({bot}) has no fitting marker and gains one instead", bot)
        yield from effects.gain_domain(rt, ctx, 1)
    if placed:
        yield from effects.emit(rt, ctx, "t-domain-marking")


def discard_solo_card(rt: Runtime) -> Generator:
    """R-SOLO-9: after each Domain Marking the top Solo card is discarded."""
    solo = rt.state.solo
    if solo["pile"]:
        card = solo["pile"].pop(0)
        solo["discarded"].append(card)
        top = solo["pile"][0] if solo["pile"] else None
        rt.log("solo-card", f"Solo card {card} is discarded" + (f"; {top} is on top" if top else ""),
               data={"discarded": card, "top": top})
    yield from ()


# --- Season cards (R-SOLO-4/5) ------------------------------------------------------------------------------
def season_cards_of(st: State, season: int) -> list[str]:
    """The Season cards of one season in a solo game."""
    per = int(st.solo["per_season"])
    return st.season_cards[(season - 1) * per: season * per]


def flip_season_cards(rt: Runtime) -> None:
    """R-SOLO-4: at the beginning of each Season Change the season's face-down cards are flipped."""
    st = rt.state
    st.solo["flipped"] = max(int(st.solo["flipped"]), st.season)
    cards = season_cards_of(st, st.season)
    rt.log("season-flip", f"Season {st.season} cards: {', '.join(cards)}", data={"season": st.season, "cards": cards})


def season_card_step(rt: Runtime) -> Generator:
    """R-SOLO-5: the player against Kiwibot on each of the season's cards (Kiwibot wins ties); left benefits only."""
    st = rt.state
    solo = st.solo
    player, bot = solo["player"], solo["bot"]
    cards = season_cards_of(st, st.season)
    if not cards:
        return
    won, lost = [], []
    for card_id in cards:
        card = rt.rules.season_cards[card_id]
        best, values = queries.winners(st, card["objective"], [player, bot])
        if len(best) == 1:
            victor = best[0]
        else:
            # R-SOLO-5: Kiwibot wins ties; decision: content saying otherwise leaves a tie to nobody
            victor = bot if solo["wins_ties"] else None
        (won if victor == player else lost if victor == bot else []).append(card_id)
        rt.log("season-card", f"{card_id}: {player} {values[player]}, {bot} {values[bot]}; "
               + (f"{victor} wins it" if victor else "a tie"),
               data={"card": card_id, "season": st.season, "values": {f: values[f] for f in st.turn_order()},
                     "victor": victor, "tied": []})
    player_card: str | None = None
    bot_cards: list[str] = []
    kept: list[str] = []
    if won and len(won) == len(cards):
        # the player wins every card: they take one card's left benefit, Kiwibot the others' and discards them
        choice = yield from ask(player, "solo-season-card", "You won every Season card: whose left benefit do you take?",
                                [Option(f"season-card:{c}", f"{labels.season_card_name(c, rt.rules.season_cards[c])}: "
                                        f"{effects.describe(rt.rules.season_cards[c].get('victor'))}") for c in cards])
        player_card = choice.split(":", 1)[1]
        bot_cards = [c for c in cards if c != player_card]
        player_cards = [player_card]
    else:
        player_cards = list(won)
        bot_cards = list(lost)
        kept = list(lost)   # Kiwibot keeps the cards it won next to its flock board (R-SOLO-5/6)
    # decision R-SOLO-5: the player's benefit first (their choice decides what Kiwibot takes), then Kiwibot's
    for card_id in player_cards:
        yield from _left_benefit(rt, player, card_id, keep_if_vp=True)
    for card_id in bot_cards:
        yield from _left_benefit(rt, bot, card_id, keep_if_vp=False)
    st.flocks[bot].kept_season_cards.extend(kept)
    rt.log("solo-season", f"Season {st.season}: {player} wins {len(won)} of {len(cards)} Season cards"
           + (f"; Kiwibot keeps {', '.join(kept)}" if kept else ""), data={
               "season": st.season, "won": won, "lost": lost, "player_cards": player_cards,
               "kiwibot_cards": bot_cards, "kept": kept})


def _left_benefit(rt: Runtime, flock: str, card_id: str, keep_if_vp: bool) -> Generator:
    """A Season card's left benefit; the player keeps a VP card as a reminder (R-SCARD-3)."""
    st = rt.state
    before = st.flocks[flock].season_vp
    yield from effects.run(rt, rt.rules.season_cards[card_id].get("victor"), Ctx(flock, source=card_id))
    if keep_if_vp and st.flocks[flock].season_vp > before:
        st.flocks[flock].kept_season_cards.append(card_id)


# --- scoring (R-SOLO-6) -----------------------------------------------------------------------------------------
def endgame_vp(st: State, flock: str) -> tuple[int, int]:
    """Kiwibot's endgame VP: (kept Season cards, every `domain_per_vp` unplaced markers); (0, 0) for the player."""
    if not is_bot(st, flock):
        return 0, 0
    fl = st.flocks[flock]
    return (int(st.solo["vp_per_kept_card"]) * len(fl.kept_season_cards),
            len(fl.domain) // int(st.solo["domain_per_vp"]))


# --- Kiwibot's answers (R-SOLO-7: it never has a pending decision) -----------------------------------------------
def _hex_of(option_id: str) -> str | None:
    """The hex an option id ends at (`place:<hex>`, `grow:<flock>/<size>@<hex>`, `push:<ref>-><hex>`, `edge:<flock>-><hex>`)."""
    tail = option_id.rsplit("->", 1)[-1] if "->" in option_id else option_id.split(":", 1)[-1]
    return tail.rsplit("@", 1)[-1]


def _parse_push(rt: Runtime, option_id: str) -> tuple[Piece, str, str] | None:
    """(piece, origin, destination) of a `push:<ref>-><dest>` option."""
    try:
        ref, dest = option_id.split(":", 1)[1].rsplit("->", 1)
        if ref.startswith("leader-"):
            flock, origin = ref[len("leader-"):].rsplit("@", 1)
            return ("leader", flock), origin, dest
        origin, kiwi = placing.find_kiwi(rt, ref)
        return ("kiwi", kiwi), origin, dest
    except (KeyError, ValueError, IndexError):
        return None


def answer(rt: Runtime, decision: Decision) -> str:
    """Kiwibot's answer to a question an ordinary procedure asks it, by the patterns and the marker."""
    st = rt.state
    options = list(decision.options)
    ids = [o.id for o in options]
    rank = _rank(st)
    last = len(rank) + 1

    def by_hex(opts: Iterable[str]) -> str:
        return min(opts, key=lambda o: (rank.get(_hex_of(o) or "", last), ids.index(o)))

    kind = decision.kind
    if kind == "may":
        return "may:yes" if "may:yes" in ids else ids[0]   # a benefit is always taken (benefits Kiwibot most)
    if kind == "place-kiwi":
        # Pushing / placing Kiwibot Kiwi: pairs in a free hex, pairs anywhere, triads (R-SOLO-11)
        return min(ids, key=lambda o: (_own_step(rt, _hex_of(o) or ""), rank.get(_hex_of(o) or "", last)))
    if kind == "grow-kiwi":
        found = feed_target(rt, st.solo["bot"], None)
        want = f"grow:{placing.kref(found[1].flock, found[1].size, found[0])}" if found else None
        if want in ids:
            return want
        return by_hex(ids)
    if kind == "push":
        pushes = []
        for o in ids:
            parsed = _parse_push(rt, o)
            if parsed is None:
                continue
            piece, _, dest = parsed
            owner = piece[1].flock if piece[0] == "kiwi" else piece[1]
            whose = "own" if is_bot(st, owner) else "player"
            # the player's pieces first: an explosion's pushes are Kiwibot's weapon (R-FEED-5)
            pushes.append(((whose == "own",) + _push_key(rt, piece, dest, whose, rank), o))
        if pushes:
            return min(pushes)[1]
        return ids[0]
    if kind in ("place-leader", "take-token", "cover", "mark", "build-hex"):
        real = [o for o in ids if not o.endswith(":none") and o != "pass"]
        return by_hex(real or ids)
    if kind == "nest-order":
        return ids[0]   # decision: Kiwibot takes its Nest benefits in the order it built them
    # decision R-SOLO-11 "benefits Kiwibot most" for the rest (choose, return a marker, payments, advanced
    # setup): the first option offered, or the first hex by the marker when the options name hexes
    hexed = [o for o in ids if (_hex_of(o) or "") in rank]
    return by_hex(hexed) if hexed else ids[0]
