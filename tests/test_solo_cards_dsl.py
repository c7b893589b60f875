"""Solo cards in the effect language: the Kiwibot verbs take selectors and
quantities, core verbs run in a segment as Kiwibot's, misuse is located with a hint, and a mod's new Solo card
(content/mods/kiwibot-cards, card `solo-7`) does what its segments say, in hand-built positions and whole games.

Positions use the 2-player island: A6 is an interior hex whose ring is A7 (e), A10 (se), A9 (sw), A5 (w),
A1 (nw), A2 (ne); on the bot side the Solo-mode marker search starts at Kiwibot's Leader (A6), then e, se, sw ...
"""
from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from test_engine_support import ruleset as base_ruleset

from kcd.content import load_ruleset
from kcd.dsl import CheckContext, compile_field
from kcd.dsl.render import render
from kcd.engine import Game
from kcd.modes.solo import procedures as solo
from kcd.engine.context import Ctx, Runtime, Turn
from kcd.content.rules import compile_rules
from kcd.engine.setup import new_state
from kcd.testing import steps

PLAYER, BOT = "green", "red"
MOD = "mods/kiwibot-cards"


@functools.lru_cache(maxsize=None)
def mod_ruleset():
    """The base game with the kiwibot-cards mod (its Solo card 7)."""
    return load_ruleset([MOD])


@functools.lru_cache(maxsize=None)
def mod_rules():
    return compile_rules(mod_ruleset())


def ctx_of(r) -> CheckContext:
    return CheckContext(tuple(r.fruits), tuple(r.terrains), r.max_size)


def issues(text: str, kind: str = "solo") -> list[tuple[str, str, str, str | None]]:
    """(code, message, the text under the caret, hint) of each issue of a field."""
    _, found = compile_field(text, kind, ctx_of(mod_rules()))
    return [(i.code, i.message, text[i.span.start:i.span.end], i.hint) for i in found]


def blank(bot_leader: str = "A6", player_leader: str | None = "B7") -> Runtime:
    """A solo runtime of the mod's rules on an empty island (bot-side marker), Leaders as given."""
    r = mod_rules()
    st = new_state(r, [PLAYER, BOT], 5, {PLAYER: "chopan", BOT: "kahu"}, None, None, "first-game",
                   game_mode="solo", solo_side="bot-side")
    for hex_id in st.hexes:
        st.set_kiwi(hex_id, ())
    for f in st.seats:
        st.flocks[f].supply = 0
        st.flocks[f].fruit = {c: 0 for c in r.fruits}
    st.flocks[BOT].leader_hex = bot_leader
    st.flocks[PLAYER].leader_hex = player_leader
    st.phase, st.season, st.step = "actions", 1, 0
    return Runtime(r, st)


def put(rt: Runtime, hex_id: str, flock: str, *sizes: int) -> None:
    for s in sizes:
        rt.state.add_kiwi(hex_id, rt.state.new_kiwi(flock, s))


def kiwi_at(rt: Runtime, hex_id: str, flock: str) -> list[int]:
    return sorted(k.size for k in rt.state.hexes[hex_id].kiwi if k.flock == flock)


def segment(row: str, column: int):
    """A segment of the mod's Solo card 7 as the engine compiled it."""
    return mod_rules().solo_cards["solo-7"].sections[row][column - 1]


def resolve(rt: Runtime, node) -> None:
    """Resolve a segment for Kiwibot; every question it is asked answered by its patterns (R-SOLO-11)."""
    gen = steps(rt, solo.segment_frame(rt, node, Ctx(BOT, turn=Turn(), source="test")))
    try:
        d = next(gen)
        while True:
            assert solo.is_bot(rt.state, d.player), f"the player was asked {d.kind} in Kiwibot's segment"
            d = gen.send(solo.answer(rt, d))
    except StopIteration:
        pass


# --- the checker: misuse located, with a hint --------------------------------------------------------------------
def test_a_kiwibot_verb_outside_a_solo_card_is_refused_with_a_hint() -> None:
    for text in ("bot moves my kiwi of size 1", "bot places 2 kiwi"):
        [(code, message, under, hint)] = issues(text, "effect")
        assert code == "dsl-context" and message.endswith("is only allowed in a solo card") and under == text
        assert hint is not None and "Solo card segment of solo.yaml" in hint
    [(code, message, under, _)] = issues("gain 1 fruit; bot feeds my kiwi of size 1", "effect")
    assert (code, message, under) == ("dsl-context", "`bot feeds` is only allowed in a solo card",
                                      "bot feeds my kiwi of size 1")


def test_a_hex_selector_where_kiwibot_moves_pieces_is_located() -> None:
    assert issues("bot moves a flower hex") == [
        ("dsl-arg-type", "<what> of `bot moves` needs kiwi, leaders, markers, nests or pieces, got a selector of "
         "hexes", "a flower hex", "write e.g. `bot moves my kiwi of size 2`")]


def test_kiwibot_moves_its_own_pieces_and_feeds_kiwi() -> None:
    assert issues("bot moves every kiwi of an opponent") == [
        ("dsl-arg-type", "Kiwibot moves its own Kiwi or Leader: <what> of `bot moves` names kiwi that are not all "
         "its own (write `my ...`)", "every kiwi of an opponent", "write e.g. `bot moves my kiwi of size 2`")]
    assert issues("bot feeds my leader") == [
        ("dsl-arg-type", "Kiwibot feeds Kiwi: <what> of `bot feeds` names leaders", "my leader",
         "write e.g. `bot feeds a kiwi of size 2 of an opponent`")]


def test_a_push_before_any_move_and_the_starting_hex_outside_a_move_are_refused() -> None:
    """R-SOLO-10: the piece Kiwibot just moved pushes; `the starting hex` is where that move starts."""
    from kcd.dsl.compose_check import field_rules
    node, found = compile_field("bot pushes up to 1 of my kiwi; bot moves my kiwi of size 1", "solo",
                                ctx_of(mod_rules()))
    assert found == []   # a fragment may push: the whole segment may not
    [issue] = field_rules(node, "solo")
    assert issue.code == "dsl-context" and issue.message.startswith("a Kiwibot push before any Kiwibot move")
    assert (issue.span.start, issue.span.end) == (0, len("bot pushes up to 1 of my kiwi"))
    text = "gain count(hexes adjacent to the starting hex) domain"
    [(code, message, under, hint)] = issues(text)
    assert code == "dsl-context" and under == "the starting hex" and "destination of `bot moves" in message
    assert hint is not None and "largest(hexes adjacent to the starting hex" in hint
    assert issues("gain count(hexes adjacent to the starting hex) domain", "effect")[0][2] == "starting"


def test_the_old_phrases_say_how_the_verbs_are_written_now() -> None:
    assert issues("bot pushes 1 player") == [
        ("dsl-arg-count", "`bot pushes` is written `bot pushes up to <n> of <what>`", "bot pushes 1 player",
         "write e.g. `bot pushes up to 2 of the kiwi of an opponent`")]
    assert issues("bot moves 1") == [("dsl-arg-type", "`bot moves` expects a selector of pieces for <what>, got the word `1`",
                                      "1", "write e.g. `bot moves my kiwi of size 2`")]
    assert issues("bot moves my kiwi of size 1 to flower") == [
        ("dsl-arg-type", "`bot moves` expects a selector of hexes for <dest>, got `flower`", "flower",
         "write e.g. `bot moves my kiwi of size 1 to a flower hex`")]


# --- rules text --------------------------------------------------------------------------------------------------
def test_the_base_segments_read_as_before() -> None:
    """The Solo cards' rules text is what it was as a phrase book: the compositions read as what Kiwibot does."""
    r = compile_rules(base_ruleset())
    texts = {render(s) for card in r.solo_cards.values() for segs in card.sections.values() for s in segs}
    assert {"Kiwibot moves a size-1 Kiwi to the adjacent hex where you have the most Kiwi tokens and it pushes 1 "
            "of your Kiwi",
            "Kiwibot moves a size-2 Kiwi to the adjacent hex where it has the most Kiwi tokens and it pushes 1 of "
            "Kiwibot's Kiwi",
            "Kiwibot moves a size-3 Kiwi to an adjacent flower hex and it pushes 1 of your Kiwi",
            "Kiwibot increases the size of one of its size-2 Kiwi and gains 1 Domain marker",
            "Kiwibot feeds one of your size-3 Kiwi and gains 2 Domain markers"} <= texts


def test_a_new_segment_reads_as_what_kiwibot_does() -> None:
    """Core verbs, conditions and quantities of a segment are told with Kiwibot as the subject (R-SOLO-7)."""
    from kcd.modes.solo.verbs import describe_segment
    assert describe_segment(segment("move", 1)) == ("Kiwibot moves its Leader to an adjacent hex with Kiwi of yours "
                                                    "and it pushes 2 of your Kiwi")
    assert describe_segment(segment("feed", 2)) == (
        "If the number of Kiwibot's Nests is at least 2: Kiwibot increases the size of one of its size-2 Kiwi and "
        "gains 1 Domain marker; otherwise Kiwibot increases the size of one of its size-1 Kiwi and gains 1 Domain "
        "marker and Kiwibot gains 1 Domain marker")
    assert describe_segment(segment("wild", 3)) == ("Kiwibot places the smaller of the number of hexes where you "
                                                    "have dominance and 3 size-1 Kiwi")


# --- the mod's Solo card, in positions ---------------------------------------------------------------------------
def test_kiwibot_s_leader_charges_into_the_player_s_kiwi_and_pushes_two() -> None:
    """`bot moves my leader to a hex with kiwi of an opponent; bot pushes up to 2 of the kiwi of an opponent`:
    the Leader (a size-3 Kiwi for movement, R-LEAD-1) goes where the player's Kiwi are, not to the first hex of
    the marker search, and pushes two of them (limits.push, R-PUSH-1)."""
    rt = blank()
    put(rt, "A6", BOT, 1)               # a size-1 token in the Leader's hex: the Leader is named, the token is not
    put(rt, "A9", PLAYER, 1, 1, 2)
    resolve(rt, segment("move", 1))
    st = rt.state
    assert st.flocks[BOT].leader_hex == "A9"
    assert kiwi_at(rt, "A6", BOT) == [1]
    assert len(kiwi_at(rt, "A9", PLAYER)) == 1   # two of the three pushed out


def test_kiwibot_gathers_by_its_leader_then_gains_a_domain_marker_with_the_core_verb() -> None:
    """`bot moves my kiwi of size 2 to a hex adjacent to my leader; gain 1 domain`."""
    rt = blank()
    put(rt, "A11", BOT, 2)              # A11 touches A7 and A10, both next to the Leader on A6
    before = len(rt.state.flocks[BOT].domain)
    resolve(rt, segment("move", 2))
    assert kiwi_at(rt, "A11", BOT) == [] and kiwi_at(rt, "A7", BOT) == [2]   # A7 first by the marker (e)
    assert len(rt.state.flocks[BOT].domain) == before + 1


def test_kiwibot_feeds_the_player_s_kiwi_next_to_its_leader() -> None:
    """`bot feeds a kiwi of size 2 of an opponent in a hex adjacent to my leader`: the player's size-2 Kiwi in the
    Leader's own hex is first by the marker, but not adjacent: the one on A9 is fed; Kiwibot gains the feed's two
    domain markers (R-FEED-4, R-SOLO-8)."""
    rt = blank()
    put(rt, "A6", PLAYER, 2)
    put(rt, "A9", PLAYER, 2)
    before = len(rt.state.flocks[BOT].domain)
    resolve(rt, segment("feed", 1))
    assert kiwi_at(rt, "A6", PLAYER) == [2] and kiwi_at(rt, "A9", PLAYER) == [3]
    assert len(rt.state.flocks[BOT].domain) == before + 2


def test_a_condition_picks_the_size_kiwibot_feeds() -> None:
    """`if count(my nests) >= 2 { bot feeds my kiwi of size 2 } else { bot feeds my kiwi of size 1; gain 1 domain }`."""
    rt = blank()
    put(rt, "A7", BOT, 1)
    put(rt, "A9", BOT, 2)
    resolve(rt, segment("feed", 2))
    assert kiwi_at(rt, "A7", BOT) == [2] and kiwi_at(rt, "A9", BOT) == [2]
    rt = blank()
    put(rt, "A7", BOT, 1)
    put(rt, "A9", BOT, 2)
    rt.state.set_nest("A1", (BOT, "tree-1"))
    rt.state.set_nest("A2", (BOT, "cave-1"))
    resolve(rt, segment("feed", 2))
    assert kiwi_at(rt, "A7", BOT) == [1] and kiwi_at(rt, "A9", BOT) == [3]


def test_a_core_place_verb_with_a_selector_is_answered_by_the_placing_pattern() -> None:
    """`place 1 kiwi on a hex adjacent to my leader; bot places 1 kiwi`: the core verb asks Kiwibot where, and the
    Pushing / placing pattern answers (a pair in a free hex first, R-SOLO-11), among the hexes the selector names."""
    rt = blank()
    put(rt, "A11", BOT, 1)              # a single Kiwi, not next to the Leader: the core verb may not place there
    put(rt, "A10", BOT, 1)              # a single Kiwi next to the Leader: a pair in a free hex
    rt.state.flocks[BOT].track = 8      # no track benefit uncovered by the placements
    rt.state.flocks[BOT].reserve_kiwi = 2
    resolve(rt, segment("build", 3))
    assert kiwi_at(rt, "A10", BOT) == [1, 1]        # the core verb, next to the Leader
    assert kiwi_at(rt, "A11", BOT) == [1, 1]        # Kiwibot's own verb: any hex with its Kiwi, by the pattern


def test_a_quantity_where_the_base_cards_write_a_number() -> None:
    """`bot builds nest min(count(my nests) + 1, 3)`: with one Nest built, the column-2 (Control) Nest."""
    rt = blank()
    st = rt.state
    put(rt, "A7", BOT, 2, 1)            # dominance with two Kiwi in a hex without a Nest (R-SOLO-11 Building)
    st.set_nest("A1", (BOT, "tree-1"))
    st.flocks[BOT].nests_built = ["tree-1"]
    resolve(rt, segment("build", 2))
    built = st.flocks[BOT].nests_built[1]
    assert built == solo.next_nest(blank(), BOT, 2)   # the first Nest of flock-board column 2
    assert sum(1 for h in st.hexes.values() if h.nest == (BOT, built)) == 1


def test_kiwibot_builds_only_on_the_hexes_named() -> None:
    """`bot builds nest 1 on a hex adjacent to my leader; gain 1 domain for each hex dominated by me, at most 2`:
    the Building pattern's first hex by the marker is the Leader's own (it dominates there), but the Nest goes
    next to the Leader; then one domain marker per hex Kiwibot dominates, at most two."""
    rt = blank()
    st = rt.state
    put(rt, "A6", BOT, 1, 1)
    put(rt, "A9", BOT, 2, 1)
    st.flocks[BOT].track = 8
    before = len(st.flocks[BOT].domain)
    resolve(rt, segment("build", 1))
    assert st.hexes["A6"].nest is None and st.hexes["A9"].nest is not None
    assert len(st.flocks[BOT].domain) == before + 2
    rt = blank()
    put(rt, "A6", BOT, 1, 1)           # nowhere next to the Leader to build: 1 Kiwi and a bonus Move (R-SOLO-10)
    rt.state.flocks[BOT].track = 8
    rt.state.flocks[BOT].reserve_kiwi = 1
    resolve(rt, segment("build", 1))
    assert all(h.nest is None for h in rt.state.hexes.values())
    assert any(e.form == "kiwibot-cannot-build" for e in rt.events)


def _bot_segment(text: str):
    node, found = compile_field(text, "solo", ctx_of(mod_rules()))
    assert found == [], found
    return node


@pytest.mark.parametrize("text", ["gain 2 fruit", "gain max(count(my nests), 2) fruit"])
def test_R_SOLO_3_R_SOLO_8_kiwibot_never_gains_fruit_from_a_core_verb(text: str) -> None:
    """R-SOLO-3/8: a segment's `gain N fruit` gives Kiwibot nothing, a number or a quantity alike."""
    rt = blank()
    resolve(rt, _bot_segment(text))
    assert sum(rt.state.flocks[BOT].fruit.values()) == 0
    assert [e.form for e in rt.events] == ["kiwibot-no-fruit"]


@pytest.mark.parametrize("text", ["move 1", "move max(count(my nests), 1)"])
def test_R_SOLO_8_a_move_kiwibot_gains_in_a_segment_is_a_bonus_move(text: str) -> None:
    """R-SOLO-8: a Move action Kiwibot gains (a number or a quantity) resolves the top Solo card's bonus Move."""
    rt = blank()
    rt.state.mode_state.pile = ["solo-7"]
    put(rt, "A9", PLAYER, 1, 1)
    resolve(rt, _bot_segment(text))
    assert [e.fields.get("action") for e in rt.events if e.form == "kiwibot-bonus"] == ["move"]
    # card 7's bonus Move (its column 3: two size-1 Kiwi to hexes without Kiwi): Kiwibot has no Kiwi token, so the
    # Moving pattern's last step moves its Leader there, to the first such hex by the marker (R-SOLO-11/12)
    assert rt.state.flocks[BOT].leader_hex == "A7"


# --- whole games -------------------------------------------------------------------------------------------------
def _game_with_card_7(seed: int, side: str | None) -> Game:
    """A solo game of the mod whose Solo card pile holds card 7 (seeds tried in order from `seed`)."""
    for s in range(seed, seed + 200):
        game = Game.new(mod_ruleset(), players=[PLAYER, BOT], seed=s, mode="solo", solo_side=side)
        if "solo-7" in game.view(None)["solo"]["solo_cards_discarded"] + [
                c for c in game.rt.state.mode_state.pile]:
            return game
    raise AssertionError("no seed deals Solo card 7")


@pytest.mark.parametrize("seed,side", [(1, "bot-side"), (40, "player-side"), (80, None)])
def test_R_SOLO_7_whole_games_with_the_new_solo_card_play_to_the_end(seed: int, side: str | None) -> None:
    """Games with card 7 in the pile reach the end; Kiwibot never has a pending decision (R-SOLO-7) and resolves
    card 7's segments; a save in the middle loads and goes on identically."""
    game = _game_with_card_7(seed, side)
    rng = random.Random(seed)
    n = 0
    while not game.is_over:
        assert game.pending.player == PLAYER
        if n == 30:
            game = Game.from_json(mod_ruleset(), game.to_json())
        assert game.apply(rng.choice(game.pending.options).id).ok
        n += 1
        assert n < 3000
    revealed = [e for e in game.events if e.form == "kiwibot-reveals" and e.fields.get("solo_card") == "solo-7"]
    assert revealed


# --- any segment that validates plays ------------------------------------------------------------------------------

_MOVERS = ("my kiwi of size 1", "my kiwi of size 2", "my kiwi of size 3", "my leader", "my pieces",
           "my kiwi in a flower hex", "my kiwi adjacent to my leader")
_DESTS = ("a sand hex", "a hex without kiwi", "a hex adjacent to my leader", "a hex with a nest",
          "a hex where tokens(pieces of an opponent in it) = largest(hexes adjacent to the starting hex, "
          "tokens(pieces of an opponent in it)) with pieces of an opponent", "a hex within 2 of the starting hex")
_PUSHED = ("the kiwi of an opponent", "my kiwi", "the pieces of an opponent", "every kiwi of size 1 of anyone")
_FED = ("my kiwi of size 1", "a kiwi of size 3 of an opponent", "a kiwi of an opponent in a hex with my kiwi",
        "my kiwi in a hex adjacent to my leader")
_CORE = ("gain 1 domain", "gain 1 vp", "gain 2 fruit", "place 1 kiwi on a hex adjacent to my leader", "move 1",
         "feed", "build", "grow 1 kiwi", "gain 1 domain for each hex dominated by me, at most 2",
         "bot builds nest 2 on a hex with my kiwi", "bot places max(count(my nests), 1) kiwi", "bot bonus build")


def _statement() -> hs.SearchStrategy[str]:
    move = hs.builds(lambda w, d: f"bot moves {w}" + (f" to {d}" if d else ""), hs.sampled_from(_MOVERS),
                     hs.sampled_from(_DESTS + ("",)))
    pushes = hs.builds(lambda n, w: f"bot pushes up to {n} of {w}", hs.integers(1, 3), hs.sampled_from(_PUSHED))
    moves = hs.builds(lambda m, ps: "; ".join([m] + ps), move, hs.lists(pushes, max_size=2))
    feed = hs.builds(lambda w: f"bot feeds {w}", hs.sampled_from(_FED))
    return hs.one_of(moves, feed, hs.sampled_from(_CORE), hs.sampled_from(("bot gathers", "bot scatters")))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.lists(_statement(), min_size=1, max_size=3), hs.integers(0, 10_000), hs.integers(0, 60))
def test_any_validated_segment_plays_in_any_position(parts: list[str], seed: int, depth: int) -> None:
    """A Kiwibot segment composed at random (moves with destinations and pushes, feeds, core verbs) that the checker
    accepts resolves in a position reached by a random solo game, asking the player nothing it cannot answer."""
    text = "; ".join(parts)
    node, found = compile_field(text, "solo", ctx_of(mod_rules()))
    if node is None or found:
        return
    from kcd.dsl.compose_check import field_rules
    if field_rules(node, "solo"):
        return
    game = Game.new(mod_ruleset(), players=[PLAYER, BOT], seed=seed, mode="solo")
    rng = random.Random(seed)
    for _ in range(depth):
        if game.is_over:
            break
        game.apply(rng.choice(game.pending.options).id)
    rt = Runtime(game.rt.rules, game.rt.state.copy())
    gen = steps(rt, solo.segment_frame(rt, node, Ctx(BOT, turn=Turn(), source="fuzz")))
    asked = 0
    try:
        d = next(gen)
        while True:
            asked += 1
            assert asked < 500
            d = gen.send(solo.answer(rt, d) if solo.is_bot(rt.state, d.player) else d.options[0].id)
    except StopIteration:
        pass
