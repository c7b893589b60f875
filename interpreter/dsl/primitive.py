"""Value types of the DSL registry: primitives, pattern slots, argument types and the hooks an entry carries."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Union

from kcd.dsl.ast import Call, Phrase
from kcd.dsl.errors import Issue

# Where a primitive may be used: the DSL field kinds of SPEC.md.
EFFECT_CONTEXTS = frozenset({"effect", "ability", "solo"})


@dataclass(frozen=True)
class CheckSite:
    """Where a bound call is checked: its field kind, its entry, whether the tree is a whole content field (the
    loader's field rules) rather than a fragment, and the bound calls before it in text order."""

    field_kind: str
    entry: "Primitive"
    whole: bool = False
    before: tuple[Union[Call, Phrase], ...] = ()


# The hooks of an entry: what the checker, the rules-text renderer, the work bound and the interpreter do for it
# beyond what its pattern, template and data say. Each is optional; the generic code calls it when it is given.
# check: the misuses of a bound call the slot types cannot say (`bot feeds` names Kiwi); on a fragment
# (`site.whole` False) and again on a whole field, where rules over the field's order apply (a push after a move).
CheckHook = Callable[[Union[Call, Phrase], CheckSite], list[Issue]]
# render: the rules text of a bound call, None to fill the entry's template.
RenderHook = Callable[[Union[Call, Phrase]], Union[str, None]]
# work: the verb steps one call takes by itself, given its `n` (the largest value a quantity can take) and a flock's
# Kiwi tokens; without it the entry's `work` data says.
WorkHook = Callable[[Union[Call, Phrase], int, int], int]
# run: the engine procedure of a verb, (runtime, bound call, ctx) -> the continuation of the rules machine's program
# that does it (`PROGRAM.start(...)`), or None when there is nothing to do, for a verb the engine's verb table
# (interpreter/engine/verb_table.py) does not register itself.
RunHook = Callable[[Any, Any, Any], Any]
# lower: (bound phrase, its chosen players filled in; a compose.Lowering: the phrase as written, the chosen players,
# the context) -> the continuation of the rules machine's program that runs it (`site.start(PROGRAM)`), or None:
# how a phrase of a verb on selectors is run (interpreter/engine/compose.py). The checker and renderer never read it.
LowerHook = Callable[[Any, Any], Any]


def _hook() -> Any:
    """A hook field: not compared, hashed or shown (entries stay equal by their data)."""
    return field(default=None, compare=False, hash=False, repr=False)


@dataclass(frozen=True)
class Slot:
    """A typed hole in a pattern: `{name:type}`; `many` for `type+`."""

    name: str
    type: str
    many: bool = False


@dataclass(frozen=True)
class Primitive:
    """One DSL primitive: verb, query, trigger or modifier."""

    id: str
    kind: str  # verb | query | trigger | modifier
    pattern: str
    doc: str
    template: str
    contexts: frozenset[str] = EFFECT_CONTEXTS
    emitted_by: tuple[str, ...] = ()  # triggers: the verbs (or engine events) that emit them
    # Verbs, for the checker's bound on the work of an effect (interpreter/dsl/bounds.py):
    # `work`: steps one call takes by itself: a number, "n" (its `n` argument) or "kiwi" (up to one per own Kiwi
    # token, e.g. every extra Move action); `reach`: what else one call can run: "track" (the next own Kiwi
    # track slot's benefit), "track-any" (the next track slot of the owner of any Kiwi, e.g. a fed one), "nest"
    # (a built Nest's placement benefit), "ability" (the Leader's ability), "bonus:<action>" / "bonus:{slot}"
    # (Kiwibot's bonus segment); a "*n" suffix: once per unit of the `n` argument. `bot_reach`: what it runs
    # instead when Kiwibot runs it (R-SOLO-8), None when the same. The triggers a verb fires are the triggers'
    # `emitted_by`.
    work: int | str = 1
    reach: tuple[str, ...] = ()
    bot_reach: tuple[str, ...] | None = None
    # Why a part one content item alone uses is kept as a part of its own (the rulebook's phrases became
    # compositions; what stays is an engine procedure or event, not a phrase). Shown by `kcd reference`.
    note: str = ""
    # Triggers: the references the event binds in the power's effect, by name (`this hex`: "here", with what it is);
    # a power whose effect names a reference its trigger does not bind is refused (content/checks.py).
    binds: tuple[tuple[str, str], ...] = ()
    # Modifiers: whether it may stand in an effect as `this action: <modifier>` (it holds while the rest runs).
    during: bool = False
    # Modifiers: how many times the Nest benefits of a flock with it are gained (R-ASYM-4), for the work bound.
    nest_benefits: int = 1
    # The selector of pieces its reference example names, when the generic one (`every kiwi of an opponent`)
    # reads badly for it (a Leader's weight, Nests' benefits).
    example_pieces: str = ""
    check: CheckHook | None = _hook()
    render: RenderHook | None = _hook()
    work_of: WorkHook | None = _hook()
    run: RunHook | None = _hook()
    lower: LowerHook | None = _hook()

    @cached_property
    def parts(self) -> tuple[str | Slot, ...]:
        """The pattern as literal words and slots (computed once: the checker reads it on every keystroke)."""
        return _parse_pattern(self.pattern)

    @cached_property
    def slots(self) -> dict[str, Slot]:
        """The slots of the pattern by name."""
        return {p.name: p for p in self.parts if isinstance(p, Slot)}

    @property
    def name(self) -> str:
        """The leading literal words of the pattern (`leader moves`, `kiwi of size`), as messages name it."""
        words: list[str] = []
        for part in self.parts:
            if not isinstance(part, str):
                break
            words.append(part)
        return " ".join(words)

    @property
    def display(self) -> str:
        """The pattern for people: slots as `<n>`, repeatable slots as `<types>...`."""
        return " ".join(("|".join(p.words) if isinstance(p, Literal) else p) if isinstance(p, str)
                        else f"<{p.name}>" + ("..." if p.many else "") for p in self.parts)

    @property
    def head_part(self) -> str:
        """The first literal part of the pattern (a `Literal` when written with alternatives: `return|lose`)."""
        first = self.parts[0]
        return first if isinstance(first, str) else ""

    @property
    def head(self) -> str:
        """The first literal word of the pattern."""
        first = self.parts[0]
        return first if isinstance(first, str) else ""


def doc_example(prim: Primitive) -> str:
    """The example a primitive's doc gives (`E.g. `...``), or ""."""
    found = re.search(r"E\.g\. `([^`]*)`", prim.doc)
    return found.group(1) if found else ""


def kind_phrase(kind: str) -> str:
    """A selector kind for messages: `kiwi`, `hexes`, `players` ..."""
    return {"kiwi": "kiwi", "leader": "leaders", "nest": "nests", "marker": "markers", "piece": "pieces",
            "hex": "hexes", "player": "players"}.get(kind, kind)


_SLOT = re.compile(r"^\{(\w+):(\w+)(\+?)\}$")


class Literal(str):
    """A pattern word written with alternatives, `counts|count` (number agreement: `my leader counts`, `my nests
    count`): the string is the first, which messages and examples show; `words` are all it matches."""

    words: tuple[str, ...]

    def __new__(cls, token: str) -> "Literal":
        words = tuple(token.split("|"))
        out = super().__new__(cls, words[0])
        out.words = words
        return out


def fits(part: str, text: str | None) -> bool:
    """Whether a call's word is the pattern's literal word `part` (or one of its alternatives)."""
    return text == part or (isinstance(part, Literal) and text in part.words)


def _parse_pattern(pattern: str) -> tuple[str | Slot, ...]:
    parts: list[str | Slot] = []
    for token in pattern.split():
        m = _SLOT.match(token)
        parts.append(Slot(m.group(1), m.group(2), bool(m.group(3))) if m else Literal(token) if "|" in token else token)
    return tuple(parts)


# Argument types. An `int` slot also takes a quantity (`count(...)`, `min(...)`) in a phrase. `values` is None for types whose values come from the ruleset (fruit, terrain)
# or are numeric.
@dataclass(frozen=True)
class ArgType:
    """A slot type: its name, a one-line doc and its fixed values if any."""

    name: str
    doc: str
    values: tuple[str, ...] | None = None
    # Rules-text phrase of each fixed value (English), used by the renderer for `{slot}` of this type.
    phrases: tuple[tuple[str, str], ...] = ()
    # The word sequences a `+` slot of this type may hold, when only some are phrases (`leader abilities`); empty: any
    sequences: tuple[tuple[str, ...], ...] = ()

    def phrase(self, value: str) -> str:
        """The rules-text phrase of a value (the value itself when it has none)."""
        return dict(self.phrases).get(value, value)


TYPES: dict[str, ArgType] = {t.name: t for t in [
    ArgType("int", "a whole number, 1 or more"),
    ArgType("size", "a Kiwi size, 1 up to the size limit of game.yaml"),
    ArgType("fruit", "a fruit colour declared in game.yaml `fruits`"),
    ArgType("terrain", "a terrain declared in game.yaml `terrains`"),
    ArgType("fruit_rule", "how paid fruit must match", ("same", "different", "any"),
            (("same", "of the same color"), ("different", "of different colors"), ("any", "of any color"))),
    ArgType("action", "an action card type", ("move", "build", "feed")),
    ArgType("push_cause", "what pushes: `leader abilities`, `moves`, `explosions` or `effects`",
            ("leader", "abilities", "moves", "explosions", "effects"), (("leader", "Leader"),),
            (("leader", "abilities"), ("moves",), ("explosions",), ("effects",))),
    # selector types of the compositional layer (interpreter/dsl/parts.py): the slot takes a selector
    ArgType("pieces", "a selector of pieces: `every kiwi of an opponent in the landing hex`, `my leader`"),
    ArgType("hexes", "a selector of hexes: `a hex without a nest`, `the landing hex`"),
    ArgType("players", "a selector of players: `an opponent`, `every player`"),
]}

