"""The one registry of DSL primitives: read by the checker, interpreter, rules-text renderer and editor.

A new primitive is one entry here plus, for verbs, its implementation in the engine
(`interpreter/engine/effects.py` maps registry ids to procedures; a test checks every verb has one).
Solo-mode (Kiwibot) primitives live in `registry_solo.py` and are joined in below.

An entry carries its hooks (`primitive.Primitive`): `check` (misuses its slot types cannot say; the functions live
beside the entries, `registry_hooks.py` and `solo_check.py`), `render` (its own rules text, `render_solo.py`),
`work_of` (its work for the bound, else its `work` / `reach` data), `run` (the continuation doing it) and `lower` (its
instructions for the program compiler). The checker, renderer and bound call the hooks and name no entry.

Templates are English rules text (`interpreter/dsl/render.py`): `{slot}` is the value (a fixed-value type
such as `fruit_rule` shows its phrase from `primitive.TYPES`; a `+` list is joined "a, b and c"),
`{slot:word}` a number in words ("three"), `{slot:or}` a list joined "a, b or c", `{slot:words}` a list as one
phrase ("Leader abilities"), and
`{slot|singular|plural}` picks by the slot's number (both sides may hold placeholders). Templates start in
lower case; the renderer capitalises the start of a sentence. Wording follows the rulebook's Nest Benefits,
Wildcards and Season Card Guide (R-BUILD-4, R-WILD-1, R-SCARD-5); tests/test_dsl_rules_text.py holds it there.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from kcd.dsl.primitive import TYPES, ArgType, Primitive, Slot
from kcd.dsl.registry_hooks import dominance_weight_issues, feed_discount_issues
from kcd.dsl.registry_solo import SOLO_PRIMITIVES

__all__ = ["PRIMITIVES", "BY_ID", "TYPES", "ArgType", "Primitive", "Slot", "of_kind", "get", "CONTROL_WORDS",
           "extended"]

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
    P("return-domain", "verb", "return|lose {n:int} domain",
      "Return up to n domain markers of your choice from the reserve to the bag (as many as you have); `lose` is "
      "the same verb (`them loses 1 domain`).",
      "return {n} Domain {n|marker|markers} from your Player Reserve to the bag", work="n"),
    P("place-kiwi", "verb", "place {n:int} kiwi",
      "Place n size-1 Kiwi, each on a hex where you have Kiwi; tokens come from the track, then the reserve, then the island (R-RES-2, R-RES-3).",
      "place {n} size-1 Kiwi", work="n", reach=("track*n",)),
    P("grow-kiwi", "verb", "grow {n:int} kiwi",
      "Increase by one the size of n different Kiwi of yours (not a size-3 Kiwi, not the Leader).",
      "increase 1 size {n|any Kiwi|any {n:word} Kiwi} of yours", work="n", reach=("track*n",)),
    P("remove-kiwi", "verb", "remove {n:int} kiwi",
      "Remove n of your Kiwi (any size, never the Leader) from the island to your reserve.",
      "remove {n} of your Kiwi (any size) from the island board", work="n",
      note="kept (reviewed): its decision is the typed Remove action front-ends read (`remove-kiwi`, "
           "`remove:<flock>/<size>@<hex>`, docs/ACTIONS.md) and its text the rulebook's \"Remove 1 of your Kiwi (any "
           "size)\" (R-SCARD-5, most-sand); the composition `remove a kiwi of me` removes the same Kiwi through a "
           "generic pick, so rewriting it would change the protocol and the rules text, not the rules. `remove "
           "<pieces>` is the part for any other pieces"),
    # "Gain 1 Move action" is the Control Nest's wording (R-BUILD-4); a Move card gives two (R-MOVE-1).
    P("move", "verb", "move {n:int}",
      "Take n Move actions: move an unmoved Kiwi of yours to an adjacent hex, or use the Leader's ability (R-MOVE-2).",
      "gain {n} Move {n|action|actions}", work="n", reach=("ability",), bot_reach=("bonus:move*n",)),
    P("extra-moves", "verb", "extra moves",
      "Then take further Move actions, paying the flock board's extra Move cost for each, as often as you wish (R-MOVE-3).",
      "you may pay for additional Move actions, as often as you can", work="kiwi", reach=("ability",), bot_reach=(),
      note="kept (reviewed): R-MOVE-3's Move actions repeat as often as the player wishes, each paying the flock "
           "board's own `extra_move` cost; no effect can name that cost, and the language's loops are bounded "
           "(`repeat N`, `for each`), so \"as often as you wish\" stays the Move card's procedure"),
    P("build", "verb", "build",
      "Take one Build action, paying its fruit (R-BUILD-1..3).",
      "take 1 Build action immediately (paying Fruit)", reach=("nest",), bot_reach=("bonus:build",)),
    P("feed", "verb", "feed",
      "Take one Feed action, paying its fruit (R-FEED-1..6).",
      "take 1 Feed action immediately (paying Fruit)", reach=("track-any",), bot_reach=("bonus:feed",),
      note="kept (reviewed): the Feed action is a rule procedure the engine owns (ARCHITECTURE.md: feeding): the "
           "chosen Kiwi's size sets the cost (R-FEED-2, less `feeding <pieces> costs N fruit less`), a size-3 Kiwi "
           "explodes and pushes everything out (R-FEED-5/6), the feeder gains 1 or 2 markers (R-FEED-4), and the "
           "filtered `feed <pieces>` triggers fire; the Feed card, Nests and benefits call it"),
    P("mark-domain", "verb", "mark domain",
      "Place one domain marker as in Domain Marking: unmarked hex, dominance, matching terrain, covered by a token (R-DM-2..4).",
      "place 1 Domain marker",
      note="kept (reviewed): the Domain Marking placement rules (R-DM-2..4: an unmarked hex you dominate, a marker "
           "of its terrain from your reserve, covered by a Kiwi token from track, Reserve or island) are one "
           "procedure the engine owns, shared with the Domain Marking phase; Red's power calls it, and any benefit may"),
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
    # --- verbs of the compositional layer: their slots take selectors (interpreter/dsl/parts.py) ---------
    P("push-to", "verb", "push {what:pieces} to {dest:hexes}",
      "Push the pieces named (Kiwi or Leaders), one at a time, each to an adjacent hex the destination names (R-PUSH-2); a piece with no such hex stays.",
      "push {what}, each to an adjacent {dest}", work="kiwi"),
    # The Leader abilities' pushes (R-LEAD-5/6): `push the pieces out of the passed hexes` (Chopan),
    # `push the pieces out of the landing hex`, `push up to 2 of the pieces out of the landing hex`.
    P("push-out", "verb", "push {what:pieces} out of {where:hexes}",
      "Push the pieces named (Kiwi and Leaders; never the Leader whose ability this is) out of the hexes named, hex by "
      "hex in the order named: one at a time, each to an adjacent hex or off the island as the player picks "
      "(R-PUSH-2/3, R-LEAD-4), until none is left there; a piece pushed into a later hex named is pushed again.",
      "push {what} out of {where}", work="kiwi"),
    P("push-out-upto", "verb", "push up to {n:int} of {what:pieces} out of {where:hexes}",
      "As `push <pieces> out of <hexes>`, at most n pushes in all, and the player may stop after any of them.",
      "push up to {n} of {what} out of {where}", work="n"),
    P("place-on", "verb", "place {n:int} kiwi on {where:hexes}",
      "Place n size-1 Kiwi, each on a hex the selector names (tokens as in R-RES-2).",
      "place {n} size-1 Kiwi on {where}", work="n", reach=("track*n",)),
    P("grow-sel", "verb", "grow {what:pieces}",
      "Increase by one the size of each Kiwi named (`a kiwi ...`: one you choose); a size-3 Kiwi does not grow; the owner stacks a token (R-FEED-3).",
      "increase by one the size of {what}", work="kiwi", reach=("track-any",)),
    P("shrink-sel", "verb", "shrink {what:pieces}",
      "Decrease by one the size of each Kiwi named; a size-1 Kiwi goes to its owner's Reserve.",
      "decrease by one the size of {what}", work="kiwi"),
    P("remove-sel", "verb", "remove {what:pieces}",
      "Remove each Kiwi named from the island to its owner's Reserve.",
      "remove {what} from the island board", work="kiwi"),
    P("move-to", "verb", "move {what:pieces} to {dest:hexes}",
      "Move each piece named (Kiwi or Leader) to a hex the destination names (no push).",
      "move {what} to {dest}", work="kiwi"),
    P("swap", "verb", "swap {a:pieces} for {b:pieces}",
      "Exchange the hexes of two pieces (Kiwi or Leaders): the first named and the second named.",
      "swap the hexes of {a} and {b}"),
    P("return-fruit", "verb", "return|lose {n:int} fruit",
      "Return n fruit of your choice to the bag (as many as you have); `lose` is the same verb (`them loses 1 fruit`).",
      "return {n} {n|Fruit|Fruits} of your choice to the bag", work="n"),
    P("leader-jump-to", "verb", "leader jumps to {dest:hexes}",
      "The Leader lands on a hex the selector names, other than its start, ignoring what lies between.",
      "jump your Leader to {dest}", contexts=_ABILITY),
    # Season card objectives are `most` / `least` and a quantity of the compositional layer (parts.py):
    # `most count(my kiwi of size 1)`, `most tokens(my pieces in flower hexes)`; the registry has no queries.
    # --- triggers (flock powers) ----------------------------------------------------------------
    P("t-gain-domain", "trigger", "gain domain",
      "Whenever you gain any amount of domain markers.", "whenever you gain Domain markers",
      frozenset({"trigger"}), emitted_by=("gain-domain", "feed", "bot-feed"),
      note="kept (reviewed): a trigger names an engine event, not a phrase: domain markers gained (by `gain N domain` "
           "or a Feed), the trigger of Green's power; any power may use it"),
    P("t-gain-move", "trigger", "gain move",
      "Whenever you play or gain any amount of Move actions.", "whenever you play or gain Move actions",
      frozenset({"trigger"}), emitted_by=("move",),
      note="kept (reviewed): a trigger names an engine event, not a phrase: Move actions played or gained "
           "(R-ASYM-5), the trigger of Yellow's power; any power may use it"),
    P("t-domain-marking", "trigger", "domain marking",
      "In the Domain Marking phase, after your own marking, when you placed at least one marker (a flock that "
      "places none does not fire it, R-ASYM-2).", "during Domain Marking",
      frozenset({"trigger"}), emitted_by=("@domain-marking",),
      binds=(("here", "the hex of the last domain marker the flock placed"),),
      note="kept (reviewed): a trigger names an engine event, not a phrase: the flock's own marking in the Domain "
           "Marking phase, the trigger of Red's power; any power may use it"),
    P("t-build", "trigger", "build",
      "Whenever you build a Nest.", "whenever you build a Nest",
      frozenset({"trigger"}), emitted_by=("build", "bot-build", "bot-build-on"), binds=(("here", "the hex of the Nest built"),)),
    P("t-feed", "trigger", "feed",
      "Whenever you feed a Kiwi.", "whenever you feed a Kiwi",
      frozenset({"trigger"}), emitted_by=("feed", "bot-feed"), binds=(("here", "the hex of the Kiwi fed"),)),
    P("t-feed-of", "trigger", "feed {what:pieces}",
      "Whenever you feed a Kiwi the selector names.", "whenever you feed {what}",
      frozenset({"trigger"}), emitted_by=("feed", "bot-feed"), binds=(("here", "the hex of the Kiwi fed"),)),
    P("t-feed-by", "trigger", "feed {what:pieces} by {who:players}",
      "Whenever one of the players named feeds a Kiwi the selector names.", "whenever {who} feeds {what}",
      frozenset({"trigger"}), emitted_by=("feed", "bot-feed"), binds=(("here", "the hex of the Kiwi fed"),)),
    P("t-build-on", "trigger", "build on {where:hexes}",
      "Whenever you build a Nest on a hex the selector names.", "whenever you build a Nest on {where}",
      frozenset({"trigger"}), emitted_by=("build", "bot-build", "bot-build-on"), binds=(("here", "the hex of the Nest built"),)),
    P("t-build-by", "trigger", "build on {where:hexes} by {who:players}",
      "Whenever one of the players named builds a Nest on a hex the selector names.",
      "whenever {who} builds a Nest on {where}", frozenset({"trigger"}), emitted_by=("build", "bot-build", "bot-build-on"),
      binds=(("here", "the hex of the Nest built"),)),
    # R-SC-1..3: Season Change. Decision: the power fires at every Season Change from the second on (the first
    # "only flips the Turn Order nests", R-SC-1), for each flock in turn order right after its own Nest benefits
    # (R-SC-3), so "if you dominate 3 hexes" reads the board those benefits left.
    P("t-season-change", "trigger", "at season change",
      "At every Season Change from the second on, right after your own Nest benefits (R-SC-3), in turn order; the "
      "effect usually asks about the flock's state: `if count(hexes dominated by me) >= 3 { gain 1 vp }`.",
      "at each Season Change", frozenset({"trigger"}), emitted_by=("@season-change",)),
    # --- modifiers (flock powers) ---------------------------------------------------------------
    # Dominance weights scoped by a selector (R-DOM-2): the pieces named count N in their hex instead of their
    # usual weight. dominance.py reads them off the state (params), so their selector cannot read dominance
    # itself (`dominated by`): the checker refuses that (compose_check.py), which keeps the count well defined.
    P("m-dominance-weight", "modifier", "{who:pieces} counts|count {n:int} for dominance",
      "Each piece named (Kiwi, Leaders, Nests; `me` is the power's owner) counts n for dominance in its hex instead "
      "of its usual weight (a Kiwi its size, a Leader the game's Leader weight, a Nest its dominance value, R-DOM-2), "
      "in every dominance count: Builds, markings, Season cards. `my leader counts 4 for dominance`, `my kiwi in "
      "flower hexes count 2 for dominance`, `every leader of an opponent counts 1 for dominance`; when several powers name "
      "a piece, the last in seat order, then power order, counts. The selector cannot ask who dominates.",
      "{who} {who|counts|each count} {n} for dominance", frozenset({"modifier"}), example_pieces="my leader",
      check=dominance_weight_issues),
    P("m-immune", "modifier", "{who:pieces} cannot be pushed",
      "The pieces named (your Kiwi in hexes with your Nest ...) cannot be pushed by anyone: moves, abilities, explosions.",
      "{who} cannot be pushed", frozenset({"modifier"})),
    P("m-immune-by", "modifier", "{who:pieces} cannot be pushed by {by:push_cause+}",
      "The pieces named cannot be pushed by one cause of pushes only: `leader abilities` (a Leader ability's pushes, "
      "R-LEAD-5), `moves` (the pushes after a Move, R-PUSH-1), `explosions` (R-FEED-5) or `effects` (the push verbs "
      "of cards, Nests and powers). E.g. `my kiwi of size 3 cannot be pushed by leader abilities`",
      "{who} cannot be pushed by {by:words}", frozenset({"modifier"})),
    P("m-feed-discount", "modifier", "feeding {what:pieces} costs {n:int} fruit less",
      "Your Feed actions on a Kiwi the selector names cost n fruit less, at least 1 (R-FEED-2): `feeding a kiwi costs 1 "
      "fruit less` (every Feed), `feeding my kiwi in grass hexes costs 1 fruit less`; several powers that name the "
      "Kiwi add up.",
      "feeding {what} costs you {n} {n|Fruit|Fruits} less (at least 1)", frozenset({"modifier"}),
      example_pieces="my kiwi in grass hexes", check=feed_discount_issues),
    P("m-push-limit", "modifier", "{who:pieces} can push up to {n:int} kiwi",
      "A piece named (your Kiwi or Leader) that ends a move may push up to n smaller Kiwi instead of the game's push "
      "limit (R-PUSH-1): `my kiwi in flower hexes can push up to 3 kiwi`.",
      "{who} can push up to {n} smaller Kiwi", frozenset({"modifier"}), during=True, example_pieces="my kiwi"),
    P("m-push-same", "modifier", "{who:pieces} can push kiwi of equal size",
      "A piece named (your Kiwi or Leader) that ends a move may push Kiwi of its own size too (R-ASYM-5): "
      "`my pieces can push kiwi of equal size`.",
      "{who} can push Kiwi of the same size", frozenset({"modifier"}), during=True, example_pieces="my kiwi"),
    P("m-push-any", "modifier", "{who:pieces} can push kiwi of any size",
      "A piece named (your Kiwi or Leader) that ends a move may push Kiwi of any size, Leaders included (as a size-3 "
      "Kiwi, R-LEAD-1), instead of only smaller ones (R-PUSH-1). E.g. `my kiwi in flower hexes can push kiwi of any size`; for one "
      "action only, in its effect: `this action: my kiwi can push kiwi of any size; move 2`",
      "{who} can push Kiwi of any size", frozenset({"modifier"}), during=True),
    P("m-nest-twice", "modifier", "{what:pieces} give benefits twice",
      "The placement and season-change benefits of the Nests named are gained twice, Victory Points excluded "
      "(R-ASYM-4): `my nests give benefits twice`.",
      "{what} give their benefits twice (Victory Points excluded)", frozenset({"modifier"}), nest_benefits=2,
      example_pieces="my nests"),
)

PRIMITIVES: tuple[Primitive, ...] = CORE_PRIMITIVES + SOLO_PRIMITIVES

BY_ID: dict[str, Primitive] = {p.id: p for p in PRIMITIVES}


def of_kind(kind: str) -> list[Primitive]:
    """All primitives of one kind, in registry order."""
    return [p for p in PRIMITIVES if p.kind == kind]


def get(primitive_id: str) -> Primitive:
    """The primitive with this id (KeyError if none)."""
    return BY_ID[primitive_id]


_EXTENDED: list[tuple[Primitive, ...]] = []


@contextmanager
def extended(*entries: Primitive) -> Iterator[tuple[Primitive, ...]]:
    """The registry with more entries while the block runs (a test's or a tool's own verbs), then as it was: the
    checker, renderer and bound read the registry when they run, so an entry with its hooks is all they need."""
    global PRIMITIVES
    saved, saved_by_id = PRIMITIVES, dict(BY_ID)
    PRIMITIVES = PRIMITIVES + tuple(entries)
    _EXTENDED.append(PRIMITIVES)   # kept alive: the checker's tables are cached by the registry tuple's id
    BY_ID.update({p.id: p for p in entries})
    try:
        yield PRIMITIVES
    finally:
        PRIMITIVES = saved
        BY_ID.clear()
        BY_ID.update(saved_by_id)
