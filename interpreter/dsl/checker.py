"""Bind each call of a parsed DSL field to its registry primitive and report located issues (never raises)."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, cast

from kcd.dsl.align import align as _align
from kcd.dsl import parts, registry
from kcd.dsl.ast import (COMPOSED, BinOp, Call, Choose, May, Node, Num, Objective, Phrase, QCall, Repeat, Seq,
                                 Span, Word)
from kcd.dsl.errors import DslError, Issue
from kcd.dsl.parser import parse
from kcd.dsl.primitive import TYPES, Primitive, Slot, doc_example, fits

if TYPE_CHECKING:   # imported when first used: the types module's checks name this module's checker
    from kcd.dsl.types import Env, Types

__all__ = ["CheckContext", "check", "compile_field", "FIELD_KINDS", "START_OF", "MAX_INT", "MAX_REPEAT"]

# The DSL field kinds of SPEC.md and the primitive kind each of them calls.
FIELD_KINDS: dict[str, str] = {
    "effect": "verb", "cost": "verb", "ability": "verb", "solo": "verb",
    "objective": "query", "trigger": "trigger", "modifier": "modifier",
}
# The Lark start symbol that parses each field kind.
START_OF: dict[str, str] = {"objective": "objective", "trigger": "call", "modifier": "call"}
# Bounds on literals keep the interpreter's work small: no rule of the game needs more (R-LIMIT-1 caps
# fruit at 10, a flock has 20 Kiwi); `repeat` is bounded as ARCHITECTURE.md asks.
MAX_INT = 99
MAX_REPEAT = 10


# Number words authors write instead of digits, for the hint.
_NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"))}


@dataclass(frozen=True)
class CheckContext:
    """What the checker needs from the ruleset: declared fruit and terrain ids and the Kiwi size limit."""

    fruits: tuple[str, ...]
    terrains: tuple[str, ...]
    max_size: int = 3


def compile_field(text: str, field_kind: str, ctx: CheckContext) -> tuple[Node | None, list[Issue]]:
    """Parse and check one DSL field; a syntax error becomes one `dsl-syntax` issue and no node."""
    try:
        node = parse(text, START_OF.get(field_kind, "effect"))
    except DslError as exc:
        return None, [exc.to_issue()]
    return check(node, field_kind, ctx)


def check(node: Node, field_kind: str, ctx: CheckContext) -> tuple[Node, list[Issue]]:
    """Bind every call of `node` for a field of `field_kind`; return the bound tree and the issues found."""
    issues: list[Issue] = []
    span = getattr(node, "span", Span(0, 0))
    if field_kind not in FIELD_KINDS:
        issues.append(Issue("dsl-context", f"unknown field kind `{field_kind}`", span,
                            "field kinds are " + ", ".join(FIELD_KINDS)))
        return node, issues
    from kcd.dsl import compose_check   # the compositional layer: types, ability rules, work bound
    bound = _Checker(field_kind, ctx, issues).field(node)
    return bound, issues + compose_check.after(bound, field_kind, [i for i in issues if i.severity == "error"])


# --- registry tables ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Tables:
    allowed: tuple[Primitive, ...]      # may be called in this field kind
    same_kind: tuple[Primitive, ...]    # right kind, other contexts (leader verbs in an effect, gain in a cost)
    other_kind: tuple[Primitive, ...]   # queries in an effect, verbs in a trigger ...
    heads: tuple[str, ...]              # first words of the allowed patterns, for "did you mean"
    by_head: dict[str, tuple[Primitive, ...]]  # allowed primitives by first word ("" for a leading slot)

    def candidates(self, head: str) -> tuple[Primitive, ...]:
        """The allowed primitives a call starting with `head` can match."""
        return self.by_head.get(head, ()) + self.by_head.get("", ())


def _tables(field_kind: str) -> _Tables:
    return _tables_for(field_kind, id(registry.PRIMITIVES))


@lru_cache(maxsize=32)
def _tables_for(field_kind: str, _registry_id: int) -> _Tables:
    kind = FIELD_KINDS[field_kind]
    allowed = tuple(p for p in registry.PRIMITIVES if field_kind in p.contexts and p.kind == kind)
    same = tuple(p for p in registry.PRIMITIVES if p.kind == kind and p not in allowed)
    other = tuple(p for p in registry.PRIMITIVES if p.kind != kind)
    heads = tuple(dict.fromkeys(w for p in allowed if p.head for w in head_words(p)))
    by_head: dict[str, tuple[Primitive, ...]] = {}
    for p in allowed:
        for w in head_words(p) if p.head else ("",):
            by_head[w] = by_head.get(w, ()) + (p,)
    return _Tables(allowed, same, other, heads, by_head)


# --- helpers --------------------------------------------------------------------------------------------

def head_words(prim: Primitive) -> tuple[str, ...]:
    """The words a call of the primitive may start with (`return|lose`: both)."""
    first = prim.parts[0] if prim.parts else ""
    return tuple(getattr(first, "words", (first,))) if isinstance(first, str) else ()


def _join(items: list[str], last: str = "or") -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def _did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def _fits_length(prim: Primitive, n_words: int) -> bool:
    parts = prim.parts
    many = any(isinstance(p, Slot) and p.many for p in parts)
    return n_words >= len(parts) if many else n_words == len(parts)


def _arg_amount(prims: list[Primitive]) -> str:
    """How many words follow the head: "no arguments", "1 argument", "2 or 3 arguments", "3 or more arguments"."""
    fixed = {len(p.parts) - 1 for p in prims if not any(isinstance(x, Slot) and x.many for x in p.parts)}
    many = [len(p.parts) - 1 for p in prims if any(isinstance(x, Slot) and x.many for x in p.parts)]
    if many:
        low = min(many)
        while low - 1 in fixed:  # 3 exactly or 4 or more reads as "3 or more"
            low -= 1
        fixed = {n for n in fixed if n < low}
        counts = [str(n) for n in sorted(fixed)] + [f"{low} or more"]
    else:
        counts = [str(n) for n in sorted(fixed)]
    if counts == ["0"]:
        return "no arguments"
    return _join(counts) + (" argument" if counts == ["1"] else " arguments")


def _words(call: object) -> str:
    """A call's words as written."""
    return " ".join(w.text for w in getattr(call, "words", ())) or "..."


def _literal_count(prim: Primitive) -> int:
    return sum(1 for p in prim.parts if isinstance(p, str))


class _Checker:
    """One check run: the field kind, the ruleset context and the issues collected."""

    def __init__(self, field_kind: str, ctx: CheckContext, issues: list[Issue]) -> None:
        self.field_kind = field_kind
        self.kind = FIELD_KINDS[field_kind]
        self.ctx = ctx
        self.issues = issues
        self.tables = _tables(field_kind)
        self.scope_it: str | None = None    # the kind `it` names in the body being checked (set by the layer)

    def issue(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        """Record one issue."""
        self.issues.append(Issue(code, message, span, hint))

    # --- tree ---------------------------------------------------------------------------------------

    def field(self, node: Node) -> Node:
        """Check the root node against the shape its field kind needs."""
        span = getattr(node, "span", Span(0, 0))
        if self.kind == "query":
            if isinstance(node, Objective) and isinstance(node.query, (QCall, BinOp, Num)):
                return replace(node, query=self.layer().expr(node.query, self.env(), "number"))
            if isinstance(node, Objective) and isinstance(node.query, (Call, Phrase)):
                self.objective_words(node.query, node.direction)
                return node
            self.issue("dsl-context", "expected an objective: `most <quantity>` or `least <quantity>`", span,
                       "write e.g. `most count(my nests)`")
            return node
        if self.kind in ("trigger", "modifier"):
            if isinstance(node, Seq) and len(node.stmts) == 1 and isinstance(node.stmts[0], (Call, Phrase)):
                node = node.stmts[0]
            if isinstance(node, Call):
                return self.call(node)
            if isinstance(node, Phrase):
                return self.layer().phrase(node, self.tables.allowed, self.env())
            self.issue("dsl-context", f"a {self.kind} is one call, without `;`, `choose`, `may` or `repeat`", span,
                       "write e.g. `" + (self.tables.allowed[0].display if self.tables.allowed else "...") + "`")
            return node
        if isinstance(node, (Seq, Choose, May, Repeat, Call) + COMPOSED):
            return self.stmt(node)
        self.issue("dsl-context", f"expected an effect, got {type(node).__name__.lower()}", span,
                   "an objective (`most ...`) belongs in a Season card's objective field")
        return node

    def seq(self, node: Seq) -> Seq:
        """Check a block (a sequence stays a sequence)."""
        return replace(node, stmts=tuple(self.stmt(s) for s in node.stmts))

    def objective_words(self, call: Call | Phrase, direction: str = "most") -> None:
        """An objective written as words (`most nests`): say what it counts instead, from the registries."""
        text, first = _words(call), (call.words[0].text if call.words else "")
        verbs = {p.head for p in registry.of_kind("verb")}
        if first in verbs:
            self.issue("dsl-context", f"`{first}` is a verb, not a quantity", call.span,
                       "a verb belongs in an effect; an objective counts: `most count(my nests)`")
        elif first in parts.FUNCTIONS:
            self.issue("dsl-syntax", f"`{first}` takes its argument in parentheses", call.span,
                       f"write e.g. `{direction} {parts.FUNCTIONS[first].example}`")
        elif first in parts.NOUNS:
            mine = "" if parts.NOUNS[first].names in ("hex", "player") else "my "
            self.issue("dsl-arg-type", f"an objective counts a quantity, not the words `{text}`", call.span,
                       f"count it: `{direction} count({mine}{text})`")
        else:
            self.issue("dsl-unknown", f"unknown quantity `{first}`", call.words[0].span if call.words else call.span,
                       "an objective counts: " + ", ".join(f"`{f}(...)`" for f in parts.FUNCTIONS)
                       + ", e.g. `most count(my nests)`")

    def stmt(self, node: Node) -> Node:
        """Check one statement (or sequence) of an effect."""
        if isinstance(node, Seq):
            return replace(node, stmts=tuple(self.stmt(s) for s in node.stmts))
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Choose):
            return replace(node, options=tuple(self.seq(o) for o in node.options))
        if isinstance(node, May):
            if self.field_kind == "cost":
                # A cost is what a build or extra move demands; an optional part would make it free.
                self.issue("dsl-context", "a cost cannot be optional: `may` is not allowed in a cost", node.span,
                           "use `choose { ... } or { ... }` for alternative payments")
            return replace(node, body=self.seq(node.body))
        if isinstance(node, Repeat):
            if not 1 <= node.count <= MAX_REPEAT:
                self.issue("dsl-context", f"`repeat` count must be 1 to {MAX_REPEAT}", node.span,
                           f"got {node.count}")
            return replace(node, body=self.seq(node.body))
        if isinstance(node, COMPOSED):
            return self.layer().statement(node, self.tables.allowed, self.env())
        span = getattr(node, "span", Span(0, 0))
        self.issue("dsl-context", f"unexpected {type(node).__name__.lower()} in an effect", span)
        return node

    def layer(self) -> Types:
        """The compositional layer's checker (interpreter/dsl/types.py), sharing this run's issues."""
        from kcd.dsl.types import Types
        return Types(self.ctx, self.issues, self.field_kind, self)

    def env(self) -> Env:
        """What names are in scope at the field's top level."""
        from kcd.dsl.types import Env
        return Env(self.field_kind, it=self.scope_it)

    # --- calls --------------------------------------------------------------------------------------

    def call(self, call: Call) -> Call:
        """Bind one call to the primitive its words match, or record why none does."""
        # Diagnosis order, most specific first: a typed match among the allowed primitives (a clean match
        # with more literal words wins: `build on <hexes> by <players>` over `build on <hexes>`; ties go to registry order)
        # > the right kind in the wrong context (a leader verb in an effect, `gain` in a cost) > the right
        # first word with a wrong count or word > another kind's pattern (a query in an effect) > unknown.
        words = call.words
        if not words:
            self.issue("dsl-arg-count", f"empty call: expected a {self.kind}", call.span)
            return call
        t = self.tables
        best: tuple[tuple[int, int], Primitive, tuple[tuple[str, object], ...], list[Issue]] | None = None
        for prim in t.candidates(words[0].text):
            aligned = _align(prim.parts, words)
            if aligned is None:
                continue
            args, errors = self.typed(prim, aligned)
            key = (0 if errors else 1, _literal_count(prim))
            if best is None or key > best[0]:
                best = (key, prim, args, errors)
        if best is not None:
            _, prim, args, errors = best
            if not errors:
                return replace(call, primitive=prim.id, args=args)
            self.issues.extend(errors)
            return call
        for prim in t.same_kind:
            if _align(prim.parts, words) is not None:
                self.context(prim, call)
                return call
        head = words[0].text
        same_head = [p for p in t.allowed if head in head_words(p)]
        if same_head:
            self.wrong_shape(call, same_head)
            return call
        for prim in t.other_kind:
            if _align(prim.parts, words) is not None:
                self.context(prim, call)
                return call
        for prim in sorted((p for p in t.same_kind if p.head == head),   # the verb whose words agree most
                           key=lambda p: -sum(1 for a, w in zip(p.parts, words) if a == w.text)):
            self.context(prim, call)
            return call
        from kcd.dsl.types import bare_noun_issue
        if bare_noun_issue(words[0], t.allowed, self.issues):
            return call
        noun = self.kind
        hint = _did_you_mean(head, t.heads)
        if hint is None and len(t.allowed) <= 10 and t.allowed:
            hint = f"{noun}s: " + ", ".join(p.display for p in t.allowed)
        self.issue("dsl-unknown", f"unknown {noun} `{head}`", words[0].span, hint)
        return call

    def context(self, prim: Primitive, call: Call) -> None:
        """A primitive used where its contexts do not allow it."""
        name = prim.name or prim.pattern
        if self.field_kind == "cost" and prim.kind == "verb":
            pays = ", ".join(p.display for p in self.tables.allowed)
            self.issue("dsl-context", "a cost may only use pay verbs", call.span, f"pay verbs: {pays}")
        elif prim.kind != self.kind:
            where = {"query": "a Season card objective, after `most` or `least`",
                     "trigger": "a flock power's `when`", "modifier": "a flock power's `modifier`"}
            self.issue("dsl-context", f"`{name}` is a {prim.kind}, not a {self.kind}", call.span,
                       f"a {prim.kind} belongs in {where.get(prim.kind, 'an effect')}")
        elif prim.contexts == frozenset({"ability"}):
            self.issue("dsl-context", f"`{name}` is only allowed in a leader ability", call.span)
        elif prim.contexts == frozenset({"solo"}):
            self.issue("dsl-context", f"`{name}` is only allowed in a solo card", call.span,
                       "Kiwibot's verbs (`bot ...`) belong in a Solo card segment of solo.yaml; a player's effect "
                       "says the same with `move 1`, `push ... to ...`, `feed`, `place 1 kiwi`")
        else:
            self.issue("dsl-context", f"`{name}` is not allowed in {self.field_kind} fields", call.span,
                       "allowed in: " + ", ".join(sorted(prim.contexts)))

    def joined_hint(self, call: Call) -> str | None:
        """`gain 1 fruit and place 1 kiwi`: statements joined by a word instead of `;`, say how to write it."""
        words = [w.text for w in call.words]
        for at, word in enumerate(words[1:], start=1):
            if word in ("and", "then") and at + 1 < len(words) and words[at + 1] in self.tables.heads:
                fixed = " ".join(words[:at]) + "; " + " ".join(words[at + 1:])
                return f"separate statements with `;`: `{fixed}`"
        return None

    def wrong_shape(self, call: Call, same_head: list[Primitive]) -> None:
        """The head is right but the words fit no pattern: a wrong word count or a wrong literal word."""
        words, head = call.words, call.words[0].text

        def consistent(p: Primitive) -> bool:
            return all(fits(part, w.text) for part, w in zip(p.parts, words) if isinstance(part, str))

        fitting = [p for p in same_head if _fits_length(p, len(words))]
        second = [p for p in same_head if len(words) > 1 and len(p.parts) > 1 and p.parts[1] == words[1].text]
        if second and not any(p in fitting for p in second):
            # the first two words name the verb (`bot pushes ...` among the `bot` verbs): show its forms
            example = doc_example(second[0])
            self.issue("dsl-arg-count", f"`{head} {words[1].text}` is written "
                       + _join([f"`{p.display}`" for p in second]), call.span,
                       self.joined_hint(call) or (f"write e.g. `{example}`" if example else None))
            return
        shown = [p for p in same_head if consistent(p)]
        if shown or not fitting:
            if not shown:
                def agreement(p: Primitive) -> int:
                    return sum(1 for part, w in zip(p.parts, words) if isinstance(part, str) and fits(part, w.text))
                top = max(agreement(p) for p in same_head)
                shown = [p for p in same_head if agreement(p) == top]
            if any(isinstance(x, Slot) and x.type in parts.SELECTOR_TYPES for p in shown for x in p.parts):
                # a selector is many words: counting them would mislead, so show the forms
                self.issue("dsl-arg-count", f"`{head}` is written " + _join([f"`{p.display}`" for p in shown]),
                           call.span, self.joined_hint(call))
            else:
                self.issue("dsl-arg-count", f"`{head}` takes {_arg_amount(shown)}: "
                           + _join([p.display for p in shown]), call.span, self.joined_hint(call))
            return
        # Same length but a literal word differs: report the word where the best pattern stops matching.
        def first_mismatch(p: Primitive) -> int:
            for i, (part, w) in enumerate(zip(p.parts, words)):
                if isinstance(part, str) and not fits(part, w.text):
                    return i
            return len(words) - 1
        at = max(first_mismatch(p) for p in fitting)
        expected = list(dict.fromkeys(part for p in fitting
                                      if first_mismatch(p) == at and isinstance(part := p.parts[at], str)))
        bad = words[at]
        self.issue("dsl-unknown", f"unknown word `{bad.text}` in `{head}`: expected "
                   + _join([f"`{e}`" for e in expected]), bad.span, _did_you_mean(bad.text, expected))

    # --- argument types -------------------------------------------------------------------------------

    def typed(self, prim: Primitive, aligned: list[tuple[str | Slot, tuple[Word, ...]]]
              ) -> tuple[tuple[tuple[str, object], ...], list[Issue]]:
        """The slot values of an aligned call, and the type errors among them."""
        args: list[tuple[str, object]] = []
        errors: list[Issue] = []
        for part, words in aligned:
            if isinstance(part, str):
                continue
            values = []
            for word in words:
                value, error = self.value(prim, part, word)
                if error is not None:
                    errors.append(error)
                values.append(value)
            if part.many:
                seen: set[object] = set()
                for word, value in zip(words, values):
                    if value in seen:
                        errors.append(Issue("dsl-arg-type", f"`{prim.name}` lists {part.type} `{word.text}` twice",
                                            word.span, "list each value once"))
                    seen.add(value)
                args.append((part.name, tuple(values)))
            else:
                args.append((part.name, values[0]))
        return tuple(args), errors

    def value(self, prim: Primitive, slot: Slot, word: Word) -> tuple[object, Issue | None]:
        """One word as a value of the slot's type, or the issue saying why it is not one."""
        text, span, name = word.text, word.span, prim.name or prim.pattern
        if slot.type in ("int", "size"):
            top = MAX_INT if slot.type == "int" else self.ctx.max_size
            what = "a number" if slot.type == "int" else "a Kiwi size"
            if not word.is_int:
                digits = _NUMBER_WORDS.get(text)
                return text, Issue("dsl-arg-type", f"`{name}` expects {what} for <{slot.name}>, got `{text}`", span,
                                   f"write `{digits}`" if digits else None)
            number = int(text)
            if not 1 <= number <= top:
                return number, Issue("dsl-arg-type",
                                     f"`{name}` expects {what} from 1 to {top} for <{slot.name}>, got `{text}`", span)
            return number, None
        if slot.type == "fruit":
            return text, self.member(text, span, "fruit", self.ctx.fruits)
        if slot.type == "terrain":
            return text, self.member(text, span, "terrain", self.ctx.terrains)
        arg_type = TYPES.get(slot.type)
        if slot.type in parts.SELECTOR_TYPES and arg_type is not None:
            # a selector slot filled by a bare word (`bot moves 1`): a selector in a call starts with a determiner;
            # the verb's own example when its doc gives one
            example = doc_example(prim)
            return text, Issue("dsl-arg-type", f"`{prim.name or prim.display}` expects {arg_type.doc.split(':')[0]} for "
                               f"<{slot.name}>, got the word `{text}`", span,
                               f"write e.g. `{example}`" if example else
                               f"a selector starts with a determiner: `every {text} ...`, `my {text} ...`")
        if arg_type is None or arg_type.values is None:
            return text, Issue("dsl-arg-type", f"`{name}` has slot <{slot.name}> of unknown type `{slot.type}`", span,
                               "types are " + ", ".join(TYPES))
        return text, self.member(text, span, slot.type.replace("_", " "), arg_type.values)

    def member(self, text: str, span: Span, label: str, values: tuple[str, ...]) -> Issue | None:
        """None when `text` is one of `values`, else the issue naming the known values."""
        if text in values:
            return None
        known = ", ".join(values) if values else "none are declared"
        return Issue("dsl-arg-type", f"unknown {label} `{text}`; {label}s are {known}", span,
                     _did_you_mean(text, values))
