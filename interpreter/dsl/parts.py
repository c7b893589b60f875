"""The registry of the compositional layer's parts: nouns, determiners, references, filters, quantity functions,
statements and comparisons. Read by the checker (what is allowed where, and the hints), the interpreter (what a
part means), the renderer (its rules text) and `kcd reference` / the editor (doc and example).

Verbs, triggers and modifiers that take selectors are ordinary primitives in `registry.py` with slots of the
selector types below; this module declares the words that build those selectors and quantities.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Part", "PARTS", "NOUNS", "DETERMINERS", "REFERENCES", "FILTERS", "FUNCTIONS", "STATEMENTS",
           "COMPARISONS", "GRAMMAR", "PIECE_KINDS", "SELECTOR_TYPES", "kind_phrase", "of_kind"]

# The kinds a selector can name, and the slot types of registry patterns that take a selector.
PIECE_KINDS = frozenset({"kiwi", "leader", "nest", "marker", "piece"})
SELECTOR_TYPES: dict[str, frozenset[str]] = {
    "pieces": PIECE_KINDS, "hexes": frozenset({"hex"}), "players": frozenset({"player"}),
}


@dataclass(frozen=True)
class Part:
    """One word (or construct) of the compositional layer."""

    name: str
    kind: str                               # noun determiner reference filter function statement comparison
    doc: str
    example: str
    names: str = ""                         # nouns: the selector kind; references: the kind they name
    applies: frozenset[str] = frozenset()   # filters: the selector kinds they narrow
    args: tuple[str, ...] = ()              # functions: argument types (pieces hexes players any number)
    text: str = ""                          # rules text (English); `{x}` is the argument's text
    syntax: str = ""                        # grammar rules and statements: how it is written
    fields: frozenset[str] = frozenset()    # grammar rules: the DSL field kinds it belongs to


_ALL = frozenset({"kiwi", "leader", "nest", "marker", "piece", "hex", "player"})
_EFFECTS = frozenset({"effect", "ability", "solo"})
_SELECTING = frozenset({"effect", "ability", "solo", "objective", "trigger", "modifier"})
_LOCATED = PIECE_KINDS | {"hex"}

PARTS: tuple[Part, ...] = (
    # --- grammar: the shape of each field kind (interpreter/dsl/grammar.lark, LALR(1)) ----------------
    Part("effect", "grammar", "Statements run in order; a `pay` that cannot be paid skips the rest of its sequence.",
         "pay 1 fruit any; gain 1 vp", syntax="statement ; statement ...", fields=_EFFECTS),
    Part("cost", "grammar", "What something costs: `pay` verbs only, in order, or alternatives with `choose`.",
         "choose { pay 2 fruit same } or { pay 1 domain }",
         syntax="pay-call ; pay-call ... | choose { cost } or { cost } ...", fields=frozenset({"cost"})),
    Part("statement", "grammar", "A verb call, or one of the statements below (`if`, `for each`, `choose`, `may`, "
         "`repeat`).", "if count(my nests) >= 2 { gain 1 vp }",
         syntax="call | <players> call | if ... | for each ... | choose ... | choose <players> { ... } | may { ... } | "
                "repeat N { ... } | this action: <modifier>; ...", fields=_EFFECTS),
    Part("call", "grammar", "A verb's words matched against its registry pattern; its slots take numbers, words "
         "(fruit, terrains), selectors and quantities.", "push every kiwi of an opponent in the landing hex to a "
         "hex without a nest", syntax="verb word|number|selector|quantity ...", fields=_EFFECTS),
    Part("selector", "grammar", "Names pieces, hexes or players: a determiner (required in a verb), words before the "
         "noun (a terrain, a reference), the noun, then filters, read left to right as \"and\".",
         "every kiwi of size 1 of an opponent in the landing hex",
         syntax="[determiner] [terrain|reference] noun [filter ...]", fields=_SELECTING),
    Part("quantity", "grammar", "A number: a literal, a function of selectors or quantities, a sum or difference "
         "(never below 0).", "min(count(my nests) + 1, 3)",
         syntax="N | function(selector or quantity, ...) | quantity + quantity | quantity - quantity | ( quantity )",
         fields=frozenset({"effect", "ability", "solo", "objective", "modifier"})),
    Part("condition", "grammar", "Comparisons of quantities combined with `not`, `and`, `or` (binding in that "
         "order); used by `if` and by the `where` filter.", "fruit(me) >= 3 and not count(my nests) > 2",
         syntax="quantity (>= <= > < = !=) quantity | not condition | condition and condition | condition or condition",
         fields=frozenset({"effect", "ability", "solo", "objective"})),
    Part("objective", "grammar", "A Season card's objective: the quantity counted for each player in turn (`my`, "
         "`me` are that player); in an objective `kiwi` counts a Leader as a size-3 Kiwi and a Nest as its dominance "
         "value of size-1 Kiwi (R-SCARD-4).", "most count(my kiwi of size 2 in hexes with a nest)",
         syntax="most quantity | least quantity", fields=frozenset({"objective"})),
    Part("trigger", "grammar", "A flock power's `when`: one trigger call, with filters on who acted, on what and "
         "where.", "feed a kiwi of an opponent", syntax="trigger-call", fields=frozenset({"trigger"})),
    Part("modifier", "grammar", "A flock power's `modifier`: one modifier call; most take a selector saying which "
         "pieces the rule change applies to.", "my pieces can push kiwi of equal size", syntax="modifier-call",
         fields=frozenset({"modifier"})),
    # --- nouns ---------------------------------------------------------------------------------------
    Part("kiwi", "noun", "Kiwi stacks on the island (never the Leader); in a Season card objective also each Leader "
         "as a size-3 Kiwi and each Nest as its dominance value of size-1 Kiwi, a Control Nest two (R-SCARD-4).",
         "count(my kiwi)", "kiwi"),
    Part("leader", "noun", "Leaders on the island (a Leader moves and pushes as a size-3 Kiwi).", "my leader", "leader"),
    Part("leaders", "noun", "Leaders on the island.", "count(leaders in this hex)", "leader"),
    Part("nest", "noun", "Nests on the island.", "a hex without a nest", "nest"),
    Part("nests", "noun", "Nests on the island.", "count(my nests)", "nest"),
    Part("marker", "noun", "Placed domain markers on the island.", "hexes with a marker", "marker"),
    Part("markers", "noun", "Placed domain markers on the island.", "count(my markers)", "marker"),
    Part("pieces", "noun", "Kiwi, Leaders and Nests together: what carries Kiwi tokens (R-SCARD-4).",
         "tokens(my pieces in flower hexes)", "piece"),
    Part("hex", "noun", "Hexes of the island.", "a hex without a nest", "hex"),
    Part("hexes", "noun", "Hexes of the island.", "count(hexes dominated by me)", "hex"),
    Part("player", "noun", "Players (flocks) in the game.", "count(players)", "player"),
    Part("players", "noun", "Players (flocks) in the game.", "count(players)", "player"),
    Part("opponent", "noun", "Every player but you.", "kiwi of an opponent", "player"),
    Part("opponents", "noun", "Every player but you.", "for each opponent { gain 1 fruit }", "player"),
    Part("me", "noun", "You, the player the effect belongs to.", "hexes dominated by me", "player"),
    Part("anyone", "noun", "Any player.", "kiwi of anyone", "player"),
    Part("it", "noun", "The element a `where` condition or a `for each` body is about.", "hexes where count(my kiwi in it) >= 2", "it"),
    Part("them", "noun", "The player a `where` condition or a `for each` body is about.", "opponents where fruit(them) > fruit(me)", "it"),
    # --- determiners ---------------------------------------------------------------------------------
    Part("every", "determiner", "All the elements the selector names.", "push every kiwi of an opponent in the landing hex to a hex without a nest"),
    Part("the", "determiner", "All the elements (with a reference: exactly the referenced hex).", "the landing hex"),
    Part("my", "determiner", "All your pieces of that kind.", "my leader"),
    Part("your", "determiner", "All your pieces of that kind (as `my`).", "your kiwi"),
    Part("their", "determiner", "The pieces of the player a `for each` or `where` is about.", "opponents where count(their nests) > 1"),
    Part("this", "determiner", "`this hex`: the hex of the Nest whose benefit runs, or of the event that fired.", "this hex"),
    Part("a", "determiner", "In a verb: the player chooses one; elsewhere: any one.", "a hex without a nest"),
    Part("an", "determiner", "As `a`.", "an opponent"),
    # --- references (words before `hex`) --------------------------------------------------------------
    Part("landing", "reference", "The hex where the Leader's ability landed (ability only).", "the landing hex", "hex"),
    Part("starting", "reference", "The hex where the Leader's ability started (ability only).", "the starting hex", "hex"),
    Part("passed", "reference", "The hexes strictly between the ability's start and landing (ability only).", "the passed hexes", "hex"),
    Part("chosen", "reference", "In a verb: the player you choose when it runs (`of a chosen opponent`).",
         "remove every kiwi of a chosen opponent in this hex", "player"),
    # --- filters -------------------------------------------------------------------------------------
    Part("of size", "filter", "Kiwi of that size.", "my kiwi of size 2", applies=frozenset({"kiwi"}),
         text="size-{n}"),
    Part("of", "filter", "Pieces or hexes owned by the players named (a hex belongs to the players with a piece in it).",
         "kiwi of an opponent", applies=PIECE_KINDS, args=("players",), text="of {x}"),
    Part("in", "filter", "Pieces in the hexes named (or in the hexes of the pieces named); hexes among those named.",
         "my kiwi in flower hexes", applies=_LOCATED, args=("located",), text="in {x}"),
    Part("adjacent to", "filter", "Pieces or hexes adjacent to a hex named.", "hexes adjacent to my leader",
         applies=_LOCATED, args=("located",), text="adjacent to {x}"),
    Part("within", "filter", "Pieces or hexes at most N hexes from a hex named (`within 3 of my leader`).",
         "a hex within 3 of my leader", applies=_LOCATED, args=("located",), text="within {n} {n|hex|hexes} of {x}"),
    Part("with", "filter", "Hexes holding a piece named.", "hexes with a nest", applies=frozenset({"hex"}),
         args=("pieces",), text="with {x}"),
    Part("without", "filter", "Hexes holding no piece named.", "a hex without kiwi", applies=frozenset({"hex"}),
         args=("pieces",), text="without {x}"),
    Part("dominated by", "filter", "Hexes where one of the players named has dominance (R-DOM-1).",
         "hexes dominated by an opponent", applies=frozenset({"hex"}), args=("players",),
         text="with established dominance"),
    Part("where", "filter", "Elements for which a condition holds; `it` / `them` is the element.",
         "opponents where fruit(them) > fruit(me)", applies=_ALL, text="where {x}"),
    # --- quantity functions --------------------------------------------------------------------------
    Part("count", "function", "How many elements a selector names.", "count(my nests)", args=("any",),
         text="{x}"),
    Part("tokens", "function", "Kiwi tokens of the pieces named: a Kiwi its size, a Leader 3, a Nest its dominance value (R-SCARD-4).",
         "tokens(my kiwi in flower hexes)", args=("pieces",), text="Kiwi tokens of {x}"),
    Part("fruit", "function", "The fruit a player holds.", "fruit(me)", args=("players",), text="the Fruits of {x}"),
    Part("domain", "function", "The domain markers in a player's reserve.", "domain(me)", args=("players",),
         text="the Domain markers of {x}"),
    Part("vp", "function", "The Victory Points a player gained this game so far (Season cards and benefits).",
         "vp(me)", args=("players",), text="the Victory Points of {x}"),
    Part("min", "function", "The smaller of two quantities.", "min(count(my nests), 2)", args=("number", "number"),
         text="the smaller of {x}"),
    Part("max", "function", "The larger of two quantities.", "max(fruit(me), 1)", args=("number", "number"),
         text="the larger of {x}"),
    Part("largest", "function", "The largest value of a quantity over the elements a selector names, `it` being "
         "each one (0 when it names none).", "largest(hexes, tokens(my pieces in it))", args=("any", "each"),
         text="the largest {x}"),
    Part("smallest", "function", "The smallest value of a quantity over the elements a selector names, `it` being "
         "each one (0 when it names none).", "smallest(opponents, fruit(it))", args=("any", "each"),
         text="the smallest {x}"),
    # --- statements ----------------------------------------------------------------------------------
    Part("choose", "statement", "`choose { A } or { B }`: the player picks one of the effects they can do.",
         "choose { gain 2 fruit } or { place 1 kiwi }", syntax="choose { effect } or { effect } ..."),
    Part("may", "statement", "`may { A }`: the player may do it or not (not in a cost).", "may { grow 1 kiwi }",
         syntax="may { effect }"),
    Part("repeat", "statement", "`repeat N { A }`: do it N times (1 to 10).", "repeat 2 { grow 1 kiwi }",
         syntax="repeat N { effect }"),
    Part("if", "statement", "`if <condition> { ... } else { ... }`: the first block when the condition holds, else the second.",
         "if count(my kiwi in this hex) >= 2 { gain 1 domain }"),
    Part("choose <players>", "statement", "`choose <players> { ... }`: you pick one of the players named (a decision "
         "of yours); in the block `them` (and `their ...`) is that player, and you still do what it says, unless a verb "
         "has `them` as its subject. Nobody named: nothing happens.",
         "choose an opponent where fruit(them) > 0 { them loses 1 fruit; gain 1 fruit }",
         syntax="choose <players> { effect }"),
    Part("<players> <verb>s", "statement", "A verb with a subject: `them returns 1 fruit`, `every opponent loses 1 "
         "domain` (the verb's own words, with -s or -es): each player named does it, in seat order, deciding what it "
         "leaves to a choice; in the verb `my` / `me` is that player.", "choose an opponent { them returns 1 fruit }",
         syntax="<players> verb-s ..."),
    Part("this action:", "statement", "`this action: <modifier>; ...`: the modifier holds for you while the rest of "
         "the effect runs (a card's action, a benefit, a Leader ability), then no longer; only the modifiers that say "
         "so in `kcd reference` (a moved piece's pushes).", "this action: my kiwi can push kiwi of any size; move 2",
         syntax="this action: <modifier>; effect"),
    Part("for each", "statement", "`for each <selector> { ... }`: the block once per element; over players the element player does it.",
         "for each opponent where fruit(them) > fruit(me) { return 1 fruit }"),
    Part("for each (after a call)", "statement", "`<call> for each <selector>, at most N`: the call once per element, at most N times.",
         "gain 1 domain for each hex dominated by me, at most 2"),
    Part("and / or / not", "statement", "Combine conditions; `not` binds tightest, then `and`, then `or`.",
         "if fruit(me) >= 3 and not count(my nests) > 2 { build }"),
    Part("+ / -", "statement", "Add or subtract quantities (a result below 0 counts as 0).", "min(count(my nests) + 1, 3)"),
    # --- comparisons ---------------------------------------------------------------------------------
    Part(">=", "comparison", "at least", "count(my kiwi) >= 2", text="{a} is at least {b}"),
    Part("<=", "comparison", "at most", "fruit(me) <= 3", text="{a} is at most {b}"),
    Part(">", "comparison", "more than", "fruit(them) > fruit(me)", text="{a} is more than {b}"),
    Part("<", "comparison", "less than", "fruit(me) < 2", text="{a} is less than {b}"),
    Part("=", "comparison", "equal to", "count(my nests) = 0", text="{a} is {b}"),
    Part("!=", "comparison", "not equal to", "count(my nests) != 0", text="{a} is not {b}"),
)


def of_kind(kind: str) -> dict[str, Part]:
    """The parts of one kind by name."""
    return {p.name: p for p in PARTS if p.kind == kind}


NOUNS = of_kind("noun")
DETERMINERS = of_kind("determiner")
REFERENCES = of_kind("reference")
FILTERS = of_kind("filter")
FUNCTIONS = of_kind("function")
STATEMENTS = of_kind("statement")
GRAMMAR = of_kind("grammar")
COMPARISONS = of_kind("comparison")

# The filter part of each parsed filter op.
FILTER_OF_OP = {"size": "of size", "owner": "of", "in": "in", "adjacent": "adjacent to", "within": "within",
                "with": "with", "without": "without", "dominated": "dominated by", "where": "where"}


def kind_phrase(kind: str) -> str:
    """A selector kind for messages: `kiwi`, `hexes`, `players` ..."""
    return {"kiwi": "kiwi", "leader": "leaders", "nest": "nests", "marker": "markers", "piece": "pieces",
            "hex": "hexes", "player": "players"}.get(kind, kind)
