"""The one registry of DSL primitives: read by the checker, interpreter, rules-text renderer and editor.

A new primitive is one entry here plus, for verbs, its implementation in the engine
(`interpreter/engine/effects.py` maps registry ids to procedures; a test checks every verb has one).
Solo-mode (Kiwibot) primitives live in `registry_solo.py` and are joined in below.

Templates are English rules text (`interpreter/dsl/render.py`): `{slot}` is the value (a fixed-value type
such as `fruit_rule` shows its phrase from `primitive.TYPES`; a `+` list is joined "a, b and c"),
`{slot:word}` a number in words ("three"), `{slot:or}` a list joined "a, b or c", and
`{slot|singular|plural}` picks by the slot's number (both sides may hold placeholders). Templates start in
lower case; the renderer capitalises the start of a sentence. Wording follows the rulebook's Nest Benefits,
Wildcards and Season Card Guide (R-BUILD-4, R-WILD-1, R-SCARD-5); tests/test_dsl_rules_text.py holds it there.
"""
from __future__ import annotations

from interpreter.dsl.primitive import TYPES, ArgType, Primitive, Slot
from interpreter.dsl.registry_solo import SOLO_PRIMITIVES

__all__ = ["PRIMITIVES", "BY_ID", "TYPES", "ArgType", "Primitive", "Slot", "of_kind", "get", "CONTROL_WORDS"]

CONTROL_WORDS = ("choose", "or", "may", "repeat", "most", "least")

P = Primitive
_ABILITY = frozenset({"ability"})
_COST = frozenset({"effect", "ability", "solo", "cost"})

CORE_PRIMITIVES: tuple[Primitive, ...] = (
    # --- verbs -------------------------------------------------------------------------------
    P("gain-fruit", "verb", "gain {n:int} fruit",
      "Draw n fruit from the fruit bag at random (fewer if it runs out).",
      "gain {n} {n|Fruit|Fruits}", work="n"),
    P("gain-domain", "verb", "gain {n:int} domain",
      "Draw n domain markers from the domain bag into the private reserve; an empty bag gives nothing (R-DM-5).",
      "gain {n} Domain {n|marker|markers}", work="n"),
    P("gain-vp", "verb", "gain {n:int} vp",
      "Gain n Victory Points; a Season card that gives VP is kept for the endgame (R-SCARD-3).",
      "gain {n} Victory {n|Point|Points}"),
    P("pay-fruit", "verb", "pay {n:int} fruit {rule:fruit_rule}",
      "Pay n fruit (all the same colour / all different colours / any); domain markers may stand in for fruit (R-PAY-1).",
      "pay {n} {n|Fruit|Fruits} {rule}", contexts=_COST, work="n"),
    P("pay-fruit-of", "verb", "pay {n:int} fruit of {types:fruit+}",
      "Pay n fruit, each of one of the listed colours, in any combination; domain markers may stand in (R-PAY-1).",
      "pay {n} {n|Fruit|Fruits} of {types:or} in any combination", contexts=_COST, work="n"),
    P("pay-domain", "verb", "pay {n:int} domain",
      "Pay n domain markers from the reserve to the bag; not possible with fewer.",
      "pay {n} Domain {n|marker|markers}", contexts=_COST, work="n"),
    P("return-domain", "verb", "return {n:int} domain",
      "Return up to n domain markers of your choice from the reserve to the bag (as many as you have).",
      "return {n} Domain {n|marker|markers} from your Player Reserve to the bag", work="n"),
    P("place-kiwi", "verb", "place {n:int} kiwi",
      "Place n size-1 Kiwi, each on a hex where you have Kiwi; tokens come from the track, then the reserve, then the island (R-RES-2, R-RES-3).",
      "place {n} size-1 Kiwi", work="n", reach=("track*n",)),
    P("grow-kiwi", "verb", "grow {n:int} kiwi",
      "Increase by one the size of n different Kiwi of yours (not a size-3 Kiwi, not the Leader).",
      "increase 1 size {n|any Kiwi|any {n:word} Kiwi} of yours", work="n", reach=("track*n",)),
    P("remove-kiwi", "verb", "remove {n:int} kiwi",
      "Remove n of your Kiwi (any size, never the Leader) from the island to your reserve.",
      "remove {n} of your Kiwi (any size) from the island board", work="n"),
    # "Gain 1 Move action" is the Control Nest's wording (R-BUILD-4); a Move card gives two (R-MOVE-1).
    P("move", "verb", "move {n:int}",
      "Take n Move actions: move an unmoved Kiwi of yours to an adjacent hex, or use the Leader's ability (R-MOVE-2).",
      "gain {n} Move {n|action|actions}", work="n", reach=("ability",), bot_reach=("bonus:move*n",)),
    P("extra-moves", "verb", "extra moves",
      "Then take further Move actions, paying the flock board's extra Move cost for each, as often as you wish (R-MOVE-3).",
      "you may pay for additional Move actions, as often as you can", work="kiwi", reach=("ability",), bot_reach=()),
    P("build", "verb", "build",
      "Take one Build action, paying its fruit (R-BUILD-1..3).",
      "take 1 Build action immediately (paying Fruit)", reach=("nest",), bot_reach=("bonus:build",)),
    P("feed", "verb", "feed",
      "Take one Feed action, paying its fruit (R-FEED-1..6).",
      "take 1 Feed action immediately (paying Fruit)", reach=("track-any",), bot_reach=("bonus:feed",)),
    P("mark-domain", "verb", "mark domain",
      "Place one domain marker as in Domain Marking: unmarked hex, dominance, matching terrain, covered by a token (R-DM-2..4).",
      "place 1 Domain marker"),
    # Ability verbs are imperative like every other verb, so "move your Leader ...; push ...; gain 1 Fruit" reads
    # as one instruction (R-LEAD-6: "moves 3 hexes ... push all the Kiwi between the starting hex and the landing hex").
    P("leader-straight", "verb", "leader moves {n:int} straight",
      "The Leader moves exactly n hexes in one straight line; every hex on the way must be on the island.",
      "move your Leader {n} {n|hex|hexes} in a straight line", contexts=_ABILITY),
    P("leader-walk", "verb", "leader moves {n:int}",
      "The Leader moves up to n steps, each to an adjacent hex, and ends in a hex other than its start.",
      "move your Leader up to {n} {n|hex|hexes}", contexts=_ABILITY),
    P("leader-jump", "verb", "leader jumps {n:int}",
      "The Leader lands on any hex at distance exactly n, ignoring what lies between.",
      "jump your Leader to a hex exactly {n} {n|hex|hexes} away", contexts=_ABILITY),
    P("push-passed", "verb", "push all passed",
      "Push every Kiwi (any size, Leaders included) in the hexes strictly between the Leader's start and landing hexes.",
      "push all Kiwi between its starting and landing hexes", contexts=_ABILITY, work="kiwi"),
    P("push-landing", "verb", "push all landing",
      "Push every other Kiwi (any size, Leaders included) out of the Leader's landing hex.",
      "push all other Kiwi out of its landing hex", contexts=_ABILITY, work="kiwi"),
    P("push-some-landing", "verb", "push {n:int} landing",
      "Push up to n Kiwi of any size (Leaders included) out of the Leader's landing hex.",
      "push up to {n} Kiwi of any size out of its landing hex", contexts=_ABILITY, work="n"),
    # --- queries (Season card objectives; R-SCARD-4 counting) ---------------------------------
    P("q-nests", "query", "nests",
      "Your Nests on the island.", "Nests on the island board", frozenset({"objective"})),
    P("q-kiwi-size", "query", "kiwi of size {s:size}",
      "Your size-s Kiwi on the island; the Leader is a size-3 Kiwi, a Control Nest two size-1 Kiwi.",
      "size-{s} Kiwi on the island board", frozenset({"objective"})),
    P("q-tokens-terrain", "query", "tokens in {t:terrain}",
      "Your Kiwi tokens in hexes of terrain t (Kiwi by size, Leader 3, Control Nest 2).",
      "Kiwi tokens in {t} hexes", frozenset({"objective"})),
    P("q-tokens-leader", "query", "tokens with leader",
      "All players' Kiwi tokens in the hex of your Leader.",
      "Kiwi tokens (any player) in the same hex as your Leader", frozenset({"objective"})),
    P("q-tokens-single", "query", "tokens in one hex",
      "Your most Kiwi tokens in any single hex.",
      "Kiwi tokens in a single hex", frozenset({"objective"})),
    P("q-dominated", "query", "dominated hexes",
      "Hexes where you have dominance (R-DOM-1).",
      "hexes with established dominance", frozenset({"objective"})),
    P("q-lone", "query", "lone kiwi hexes",
      "Hexes holding exactly one of your Kiwi, of any size.",
      "hexes with only one of your Kiwi of any size", frozenset({"objective"})),
    # --- triggers (flock powers) ----------------------------------------------------------------
    P("t-gain-domain", "trigger", "gain domain",
      "Whenever you gain any amount of domain markers.", "whenever you gain Domain markers",
      frozenset({"trigger"}), emitted_by=("gain-domain", "feed", "bot-feed-own", "bot-feed-player")),
    P("t-gain-move", "trigger", "gain move",
      "Whenever you play or gain any amount of Move actions.", "whenever you play or gain Move actions",
      frozenset({"trigger"}), emitted_by=("move",)),
    P("t-domain-marking", "trigger", "domain marking",
      "In the Domain Marking phase, after your own marking.", "during Domain Marking",
      frozenset({"trigger"}), emitted_by=("@domain-marking",)),
    P("t-build", "trigger", "build",
      "Whenever you build a Nest.", "whenever you build a Nest",
      frozenset({"trigger"}), emitted_by=("build", "bot-build")),
    P("t-feed", "trigger", "feed",
      "Whenever you feed a Kiwi.", "whenever you feed a Kiwi",
      frozenset({"trigger"}), emitted_by=("feed", "bot-feed-own", "bot-feed-player")),
    # --- modifiers (flock powers) ---------------------------------------------------------------
    P("m-push-same", "modifier", "push same size",
      "Your Kiwi can push Kiwi of the same size.", "your Kiwi can push Kiwi of the same size",
      frozenset({"modifier"})),
    P("m-nest-twice", "modifier", "nest benefits twice",
      "Nest placement and season-change benefits are gained twice, Victory Points excluded.",
      "you gain your Nest benefits twice (Victory Points excluded)", frozenset({"modifier"})),
)

PRIMITIVES: tuple[Primitive, ...] = CORE_PRIMITIVES + SOLO_PRIMITIVES

BY_ID: dict[str, Primitive] = {p.id: p for p in PRIMITIVES}


def of_kind(kind: str) -> list[Primitive]:
    """All primitives of one kind, in registry order."""
    return [p for p in PRIMITIVES if p.kind == kind]


def get(primitive_id: str) -> Primitive:
    """The primitive with this id (KeyError if none)."""
    return BY_ID[primitive_id]
