"""The registry of the compositional layer's parts: nouns, determiners, references, filters, quantity functions,
statements and comparisons. Read by the checker (what is allowed where, and the hints), the interpreter (what a
part means), the renderer (its rules text) and `kcd reference` / the editor (doc and example).

Verbs, triggers and modifiers that take selectors are ordinary primitives in `registry.py` with slots of the
selector types below; this module declares the words that build those selectors and quantities.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from kcd.dsl.ast import BinOp, Filter, Node, Num, QCall, Selector
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import kind_phrase
from kcd.dsl.solo_check import starting_issues

if TYPE_CHECKING:
    from kcd.core.state import State

__all__ = ["Part", "PARTS", "NOUNS", "DETERMINERS", "REFERENCES", "FILTERS", "FUNCTIONS", "STATEMENTS",
           "COMPARISONS", "GRAMMAR", "PIECE_KINDS", "SELECTOR_TYPES", "kind_phrase", "of_kind", "QuantityBounds",
           "FILTER_OF_OP", "FILTER_BY_OP"]

# The kinds a selector can name, and the slot types of registry patterns that take a selector.
PIECE_KINDS = frozenset({"kiwi", "leader", "nest", "marker", "piece"})
SELECTOR_TYPES: dict[str, frozenset[str]] = {
    "pieces": PIECE_KINDS, "hexes": frozenset({"hex"}), "players": frozenset({"player"}),
}


@dataclass(frozen=True)
class QuantityBounds:
    """What a quantity function's bound hook may ask of the work bound (interpreter/dsl/compose_check.py)."""

    value: Callable[[Any], int]          # the largest value a quantity can take
    named: Callable[[Selector], int]     # the most elements a selector can name
    most: Callable[[str], int]           # the most elements of a kind a game holds

    def n(self, call: QCall) -> int:
        """The most elements the call's first argument names (64 when it is no selector)."""
        sel = call.args[0] if call.args else None
        return self.named(sel) if isinstance(sel, Selector) else 64

    def players(self, call: QCall) -> int:
        """How many players the call's first argument can name (1 when it names no players)."""
        sel = call.args[0] if call.args else None
        return self.named(sel) if isinstance(sel, Selector) and sel.kind == "player" else 1


@dataclass(frozen=True)
class FilterWords:
    """What a filter's text hook may ask of the renderer (interpreter/dsl/phrases.py)."""

    selector: Callable[[Selector], str]     # a selector in words
    condition: Callable[[Any], str]         # a condition in words
    number: Callable[[int], str]            # a number in words ("one")
    plural: Callable[[Selector], bool]      # whether a selector's noun is a plural one (`nests`, `leaders`)


# Hooks of a part (each optional): `check` finds the misuses of the part in a whole bound field (the field kind
# given); `bound` is a quantity function's largest value before play; `run` a filter's evaluation on a game state,
# (state, filter, elements, scope) -> the elements kept, for a filter the engine (interpreter/engine/selectors.py)
# does not evaluate itself.
PartCheck = Callable[[Node, str], list[Issue]]
QuantityBound = Callable[[QCall, QuantityBounds], int]
# `render`: a quantity function's rules text, given the call and its arguments' words
QuantityText = Callable[[QCall, list[str]], str]
# `filter_text`: a filter's rules text, None for its `text` template
FilterText = Callable[[Filter, FilterWords], "str | None"]
# the elements are the engine's `(kind, ...)` tuples; the scope is the engine's (a layer this one does not see)
FilterRun = Callable[["State", Filter, list[tuple[Any, ...]], Any], list[tuple[Any, ...]]]


def _hook() -> Any:
    """A hook field: not compared, hashed or shown."""
    return field(default=None, compare=False, hash=False, repr=False)


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
    owner: str = ""                         # nouns, determiners: whose elements it names (me, opponent, any, subject)
    op: str = ""                            # filters: the parsed filter's op (`ast.Filter.op`)
    contexts: frozenset[str] = frozenset()  # references: the field kinds that may name it anywhere
    check: PartCheck | None = _hook()
    bound: QuantityBound | None = _hook()
    render: QuantityText | None = _hook()
    filter_text: FilterText | None = _hook()
    run: FilterRun | None = _hook()


# Bound hooks of the quantity functions: the largest value each can take before play. A player's holdings reach at
# most every Fruit of a 4-player bag (designed bound: the base bag holds 60), every domain marker, and Victory
# Points far above what a game scores; summed over the players the selector names.
def _count_bound(call: QCall, b: QuantityBounds) -> int:
    return b.n(call)


def _tokens_bound(call: QCall, b: QuantityBounds) -> int:
    return 3 * b.n(call)      # a Leader counts 3, a Kiwi at most its size (R-SCARD-4)


def _fruit_bound(call: QCall, b: QuantityBounds) -> int:
    return 120 * b.players(call)


def _domain_bound(call: QCall, b: QuantityBounds) -> int:
    return b.most("marker") * b.players(call)


def _vp_bound(call: QCall, b: QuantityBounds) -> int:
    return 1000 * b.players(call)


def _min_bound(call: QCall, b: QuantityBounds) -> int:
    return min(b.value(call.args[0]), b.value(call.args[1]))


def _max_bound(call: QCall, b: QuantityBounds) -> int:
    return max(b.value(call.args[0]), b.value(call.args[1]))


def _each_bound(call: QCall, b: QuantityBounds) -> int:
    return b.value(call.args[1])      # the quantity's value for one element


# Text hooks of the filters whose words depend on what they name.
def _where_text(f: Filter, w: FilterWords) -> str | None:
    only = _only_text(f.cond, w)
    return only if only is not None else f"where {w.condition(f.cond)}"


def _only_text(cond: Any, w: FilterWords) -> str | None:
    """`where count(<pieces> in it) = n` on hexes reads "with only one of your Kiwi of any size" (R-SCARD-5)."""
    if not (isinstance(cond, BinOp) and cond.op == "=" and isinstance(cond.right, Num)
            and isinstance(cond.left, QCall) and cond.left.name.text == "count"
            and isinstance(cond.left.args[0], Selector)):
        return None
    sel = cond.left.args[0]
    rest = tuple(f for f in sel.filters
                 if not (f.op == "in" and f.arg is not None and f.arg.ref == "it"))
    if len(rest) == len(sel.filters):
        return None
    any_size = sel.kind == "kiwi" and not any(f.op == "size" for f in rest)
    return (f"with only {w.number(cond.right.value)} of {w.selector(replace(sel, filters=rest))}"
            + (" of any size" if any_size else ""))


def _in_text(f: Filter, w: FilterWords) -> str | None:
    """Pieces in the hex of a piece: "in the same hex as your Leader", "in the hexes of your Nests"."""
    if f.arg is None or f.arg.kind == "hex":
        return None
    arg = w.selector(f.arg)
    plural = w.plural(f.arg) and f.arg.head.det not in ("a", "an")
    return f"in the hexes of {arg}" if plural else f"in the same hex as {arg}"


def _dominated_text(f: Filter, w: FilterWords) -> str | None:
    """The part's text is the rulebook's "with established dominance" (your own); others' reads "where ... has"."""
    if f.arg is not None and f.arg.head.noun.text == "me":
        return None
    arg = w.selector(f.arg) if f.arg is not None else ""
    return f"where {arg} {'has' if f.arg is not None and not w.plural(f.arg) else 'have'} dominance"


# Text hooks of the quantity functions ("the number of your Nests", "the larger of ... and ...").
def _count_text(call: QCall, args: list[str]) -> str:
    return f"the number of {args[0]}"


def _tokens_text(call: QCall, args: list[str]) -> str:
    return "its Kiwi tokens" if args[0] == "it" else f"the Kiwi tokens of {args[0]}"


def _min_text(call: QCall, args: list[str]) -> str:
    return f"the smaller of {args[0]} and {args[1]}"


def _max_text(call: QCall, args: list[str]) -> str:
    return f"the larger of {args[0]} and {args[1]}"


def _each_text(call: QCall, args: list[str]) -> str:
    return f"the {call.name.text} {args[1]} among {args[0]}"


def holding_text(what: str) -> QuantityText:
    """The text hook of a player's holding (`fruit(me)`: "your Fruits", `fruit(them)`: "their Fruits")."""
    def text(call: QCall, args: list[str]) -> str:
        if args and args[0] == "you":
            return f"your {what}"
        if args and args[0] in ("it", "them"):
            return f"their {what}"
        return f"the {what} of {args[0] if args else ''}"
    return text


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
    Part("opponent", "noun", "Every player but you.", "kiwi of an opponent", "player", owner="opponent"),
    Part("opponents", "noun", "Every player but you.", "for each opponent { gain 1 fruit }", "player",
         owner="opponent"),
    Part("me", "noun", "You, the player the effect belongs to.", "hexes dominated by me", "player", owner="me"),
    Part("anyone", "noun", "Any player.", "kiwi of anyone", "player", owner="any"),
    Part("it", "noun", "The element a `where` condition or a `for each` body is about.", "hexes where count(my kiwi in it) >= 2", "it"),
    Part("them", "noun", "The player a `where` condition or a `for each` body is about.", "opponents where fruit(them) > fruit(me)", "it"),
    # --- determiners ---------------------------------------------------------------------------------
    Part("every", "determiner", "All the elements the selector names.", "push every kiwi of an opponent in the landing hex to a hex without a nest"),
    Part("the", "determiner", "All the elements (with a reference: exactly the referenced hex).", "the landing hex"),
    Part("my", "determiner", "All your pieces of that kind.", "my leader", owner="me"),
    Part("your", "determiner", "All your pieces of that kind (as `my`).", "your kiwi", owner="me"),
    Part("their", "determiner", "The pieces of the player a `for each` or `where` is about.", "opponents where count(their nests) > 1",
         owner="subject"),
    Part("this", "determiner", "`this hex`: the hex of the Nest whose benefit runs, or of the event that fired.", "this hex"),
    Part("a", "determiner", "In a verb: the player chooses one; elsewhere: any one.", "a hex without a nest"),
    Part("an", "determiner", "As `a`.", "an opponent"),
    # --- references (words before `hex`) --------------------------------------------------------------
    Part("landing", "reference", "The hex where the Leader's ability landed (ability only).", "the landing hex", "hex",
         contexts=frozenset({"ability"})),
    Part("starting", "reference", "The hex where the Leader's ability started (ability only).", "the starting hex", "hex",
         # a Solo card names it too, in a Kiwibot move's destination only (its check hook says where)
         contexts=frozenset({"ability", "solo"}), check=starting_issues),
    Part("passed", "reference", "The hexes strictly between the ability's start and landing (ability only).", "the passed hexes", "hex",
         contexts=frozenset({"ability"})),
    Part("chosen", "reference", "In a verb: the player you choose when it runs (`of a chosen opponent`).",
         "remove every kiwi of a chosen opponent in this hex", "player"),
    # --- filters -------------------------------------------------------------------------------------
    Part("of size", "filter", "Kiwi of that size.", "my kiwi of size 2", applies=frozenset({"kiwi"}),
         text="size-{n}", op="size"),
    Part("of", "filter", "Pieces or hexes owned by the players named (a hex belongs to the players with a piece in it).",
         "kiwi of an opponent", applies=PIECE_KINDS, args=("players",), text="of {x}", op="owner"),
    Part("in", "filter", "Pieces in the hexes named (or in the hexes of the pieces named); hexes among those named.",
         "my kiwi in flower hexes", applies=_LOCATED, args=("located",), text="in {x}", op="in",
         filter_text=_in_text),
    Part("adjacent to", "filter", "Pieces or hexes adjacent to a hex named.", "hexes adjacent to my leader",
         applies=_LOCATED, args=("located",), text="adjacent to {x}", op="adjacent"),
    Part("within", "filter", "Pieces or hexes at most N hexes from a hex named (`within 3 of my leader`).",
         "a hex within 3 of my leader", applies=_LOCATED, args=("located",), text="within {n} {n|hex|hexes} of {x}", op="within"),
    Part("with", "filter", "Hexes holding a piece named.", "hexes with a nest", applies=frozenset({"hex"}),
         args=("pieces",), text="with {x}", op="with"),
    Part("without", "filter", "Hexes holding no piece named.", "a hex without kiwi", applies=frozenset({"hex"}),
         args=("pieces",), text="without {x}", op="without"),
    Part("dominated by", "filter", "Hexes where one of the players named has dominance (R-DOM-1).",
         "hexes dominated by an opponent", applies=frozenset({"hex"}), args=("players",),
         text="with established dominance", op="dominated", filter_text=_dominated_text),
    Part("where", "filter", "Elements for which a condition holds; `it` / `them` is the element.",
         "opponents where fruit(them) > fruit(me)", applies=_ALL, text="where {x}", op="where",
         filter_text=_where_text),
    # --- quantity functions --------------------------------------------------------------------------
    Part("count", "function", "How many elements a selector names.", "count(my nests)", args=("any",),
         text="{x}", bound=_count_bound, render=_count_text),
    Part("tokens", "function", "Kiwi tokens of the pieces named: a Kiwi its size, a Leader 3, a Nest its dominance value (R-SCARD-4).",
         "tokens(my kiwi in flower hexes)", args=("pieces",), text="Kiwi tokens of {x}", bound=_tokens_bound,
         render=_tokens_text),
    Part("fruit", "function", "The fruit a player holds.", "fruit(me)", args=("players",), text="the Fruits of {x}",
         bound=_fruit_bound, render=holding_text("Fruits")),
    Part("domain", "function", "The domain markers in a player's reserve.", "domain(me)", args=("players",),
         text="the Domain markers of {x}", bound=_domain_bound, render=holding_text("Domain markers")),
    Part("vp", "function", "The Victory Points a player gained this game so far (Season cards and benefits).",
         "vp(me)", args=("players",), text="the Victory Points of {x}", bound=_vp_bound,
         render=holding_text("Victory Points")),
    Part("min", "function", "The smaller of two quantities.", "min(count(my nests), 2)", args=("number", "number"),
         text="the smaller of {x}", bound=_min_bound, render=_min_text),
    Part("max", "function", "The larger of two quantities.", "max(fruit(me), 1)", args=("number", "number"),
         text="the larger of {x}", bound=_max_bound, render=_max_text),
    Part("largest", "function", "The largest value of a quantity over the elements a selector names, `it` being "
         "each one (0 when it names none).", "largest(hexes, tokens(my pieces in it))", args=("any", "each"),
         text="the largest {x}", bound=_each_bound, render=_each_text),
    Part("smallest", "function", "The smallest value of a quantity over the elements a selector names, `it` being "
         "each one (0 when it names none).", "smallest(opponents, fruit(it))", args=("any", "each"),
         text="the smallest {x}", bound=_each_bound, render=_each_text),
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

# The filter part of each parsed filter op, read off the filters' `op`.
FILTER_OF_OP = {p.op: p.name for p in FILTERS.values()}
FILTER_BY_OP = {p.op: p for p in FILTERS.values()}
