"""Types of the compositional layer: bind phrases to primitives, resolve selectors, type quantities and conditions.

Every expression has a type: a number, a condition, or a selector of one kind (kiwi, leader, nest, marker,
hex, player). A misuse is an Issue located on the offending text with a hint naming what is allowed there,
read from the registries (`registry.py` for verbs/triggers/modifiers, `parts.py` for the rest). Never raises.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Iterable, Iterator, cast

from kcd.dsl import parts, registry
from kcd.dsl.ast import (BinOp, Call, ChoosePlayer, During, Expr, Filter, ForEach, If, Node, Not, Num, Phrase,
                                 QCall, Selector, Seq, Span, Word, exprs, walk)
from kcd.dsl.align import align as _align
from kcd.dsl.errors import Issue
from kcd.dsl.primitive import Primitive, Slot, doc_example, fits

if TYPE_CHECKING:   # the checker imports this module when it runs
    from kcd.dsl.checker import CheckContext, _Checker



__all__ = ["Env", "Types", "ability_issues", "LEADER_MOVES", "PUSHES", "MAX_N"]

MAX_N = 99   # number literals in the layer, as `int` slots (checker.MAX_INT)
# Leader movements and pushes, read off the registry: the verbs whose first word is `leader` / `push`.
LEADER_MOVES = frozenset(p.id for p in registry.of_kind("verb") if p.head == "leader")
PUSHES = frozenset(p.id for p in registry.of_kind("verb") if p.head == "push")
_ABILITY_REFS = frozenset({"landing", "starting", "passed"})
# the words of `this action: <modifier>`, as the parts registry names the statement
DURING_WORDS = next(n for n in parts.STATEMENTS if n.endswith(":")).rstrip(":").split()
_CMP = frozenset({">=", "<=", ">", "<", "=", "!="})


@dataclass(frozen=True)
class Env:
    """What a position in the text may refer to: the field kind, the kind `it` names, whether in an objective."""

    field_kind: str
    it: str | None = None          # kind of `it` / `them` (inside `where` and `for each`)


def _did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"


def _join(items: list[str], last: str = "or") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


class Types:
    """One check run over the layer's nodes of a field (the checker's ctx and issue list are shared)."""

    def __init__(self, ctx: CheckContext, issues: list[Issue], field_kind: str,
                 checker: _Checker | None = None) -> None:
        self.ctx = ctx
        self.issues = issues
        self.field_kind = field_kind
        self.checker = checker    # the checker of the first language: statements of `if` / `for each` bodies
        self.in_verb = False      # inside a verb's selector argument (`a chosen opponent` may stand there)

    def stmt(self, node: Seq, it: str | None = None) -> Seq:
        """Check a body with the checker, `it` naming the loop element's kind."""
        checker = self.checker
        assert checker is not None, "a body is checked by the first language's checker"
        prev = checker.scope_it
        checker.scope_it = it if it is not None else prev
        try:
            return checker.seq(node)
        finally:
            checker.scope_it = prev

    def issue(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        """Record one issue."""
        self.issues.append(Issue(code, message, span, hint))

    # --- selectors ---------------------------------------------------------------------------------

    def selector(self, sel: Selector, env: Env, want: frozenset[str] | None = None, what: str = "",
                 example: str = "") -> Selector:
        """Resolve a selector: its head, then each filter attached to the nearest head it applies to."""
        root = self.head(sel, env)
        chain: list[tuple[Selector, list[Filter]]] = [(root, [])]   # (selector, filters attached so far), outer first

        def close(level: int) -> None:
            """Fold the chain's entries below `level` into their parents' last filter."""
            while len(chain) > level + 1:
                node, fs = chain.pop()
                child = replace(node, filters=tuple(fs))
                parent_fs = chain[-1][1]
                parent_fs[-1] = replace(parent_fs[-1], arg=child)

        for f in sel.filters:
            spec = parts.FILTER_BY_OP[f.op]
            at = next((i for i in range(len(chain) - 1, -1, -1) if chain[i][0].kind in spec.applies), None)
            if at is None:
                inner_kind = chain[-1][0].kind or ""     # always set: self.head binds every kind
                kinds = sorted({parts.kind_phrase(k) for k in spec.applies})
                allowed = [n for n, p in parts.FILTERS.items() if inner_kind in p.applies]
                self.issue("dsl-arg-type", f"`{spec.name}` does not apply to {parts.kind_phrase(inner_kind)}; it narrows "
                           + _join(kinds, "and"), f.span,
                           f"filters of {parts.kind_phrase(inner_kind)}: " + ", ".join(f"`{a}`" for a in allowed))
                continue
            close(at)
            if f.op == "where" and at > 0:
                self.where_binding(f, chain[at][0], [c[0] for c in chain[:at]])
            chain[at][1].append(self.filter(f, chain[at][0], env))
            if f.arg is not None and f.op != "where":
                chain.append((cast(Selector, chain[at][1][-1].arg), []))   # resolved by self.filter
        close(0)
        built = replace(chain[0][0], filters=tuple(chain[0][1]))
        if want is not None and built.kind is not None and built.kind not in want:
            self.issue("dsl-arg-type", f"{what or 'this place'} needs {_join(sorted({parts.kind_phrase(k) for k in want}))}, "
                       f"got a selector of {parts.kind_phrase(built.kind)}", sel.span,
                       "write e.g. `" + (example or _example_for(want)) + "`")
        return replace(built, span=sel.span)

    def where_binding(self, f: Filter, on: Selector, before: list[Selector]) -> None:
        """`a hex within 3 of my leader where count(flower hexes in it) = 1`: the `where` narrows the nearest selector
        before it (`my leader`), so its `it` is that piece, not the hexes; say so when hexes stand before it."""
        if on.kind == "hex" or not any(b.kind == "hex" for b in before):
            return
        if f.cond is None or not any(isinstance(e, Selector) and e.head.noun.text in ("it", "them")
                                     for e in exprs(f.cond)):
            return
        piece = _text_of(on)
        self.issues.append(Issue(
            "dsl-filter-binding", f"this `where` narrows `{piece}` (the selector nearest before it), so its `it` is "
            f"{parts.kind_phrase(on.kind or '')}, not the hexes", f.span,
            "to narrow the hexes, write the `where` right after them: `a hex where count(flower hexes in it) = 1 "
            "within 3 of my leader`", severity="warning"))

    def head(self, sel: Selector, env: Env) -> Selector:
        """The kind, owner, reference and terrains of a selector's head."""
        h = sel.head
        noun = h.noun.text
        spec = parts.NOUNS[noun]
        kind = spec.names
        det = parts.DETERMINERS.get(h.det or "")
        owner = spec.owner or (det.owner if det is not None else "") or None   # the noun's own, else its determiner's
        ref = None
        if h.det == "their" and env.it is None:
            self.issue("dsl-context", "`their` names the player a `where` or `for each` is about, and there is none "
                       "here", h.span, "write `my ...`, or use `their` inside `where ...` or a `for each` body")
        if kind == "it":
            if env.it is None:
                self.issue("dsl-context", f"`{noun}` names the element of a `where` or `for each`, and there is none here",
                           h.noun.span, "use `it` inside `where ...` or a `for each` body")
                kind = "hex"
            else:
                kind, ref = env.it, "it"
        terrains: list[str] = []
        for adj in h.adjs:
            word = adj.text
            if word == "chosen":
                if kind != "player":
                    self.issue("dsl-arg-type", f"`chosen` names a player: write `a chosen opponent`", adj.span)
                elif not self.in_verb:
                    self.issue("dsl-context", "a chosen player exists only in a verb, which asks for the choice",
                               adj.span, "count or compare over `every opponent` / `an opponent` instead")
                ref = "chosen"
            elif word in parts.REFERENCES:
                if kind != "hex":
                    self.issue("dsl-arg-type", f"`{word}` names a hex: write `the {word} hex`", adj.span)
                elif self.field_kind not in parts.REFERENCES[word].contexts:
                    # (where in a field it may stand, when not anywhere, its part's check hook says: a Kiwibot
                    # move's destination names `the starting hex`, dsl/solo_check.py)
                    self.issue("dsl-context", f"`the {word} hex` exists only in a leader ability", adj.span,
                               "a Nest's or power's effect can name `this hex`")
                ref = word
            elif word in self.ctx.terrains:
                if kind != "hex":
                    self.issue("dsl-arg-type", f"a terrain narrows hexes, not {parts.kind_phrase(kind)}", adj.span,
                               f"write `{parts.kind_phrase(kind) if kind != 'kiwi' else 'kiwi'} in {word} hexes`")
                terrains.append(word)
            else:
                known = list(self.ctx.terrains) + sorted(parts.REFERENCES)
                self.issue("dsl-unknown", f"unknown word `{word}` before `{noun}`: expected a terrain "
                           f"({', '.join(self.ctx.terrains) or 'none declared'}) or a reference (landing, starting, passed)",
                           adj.span, _did_you_mean(word, known))
        if h.det == "this":
            if kind != "hex":
                self.issue("dsl-arg-type", f"`this` names a hex: write `this hex`", h.span)
            ref = "here"
        quant = "one" if h.det in ("a", "an") else "all"
        return replace(sel, kind=kind, owner=owner, ref=ref, terrains=tuple(terrains), quant=quant, filters=())

    def filter(self, f: Filter, on: Selector, env: Env) -> Filter:
        """Check one filter attached to `on`; its argument selector is resolved (filters come later)."""
        if f.op == "size":
            if f.n is None or not 1 <= f.n <= self.ctx.max_size:
                self.issue("dsl-arg-type", f"a Kiwi size is 1 to {self.ctx.max_size}, got `{f.n}`", f.span)
            return f
        if f.op == "where":
            assert f.cond is not None   # `where` always has its condition (the parser)
            cond = self.expr(f.cond, Env(env.field_kind, it=on.kind), "condition")
            return replace(f, cond=cond)
        if f.op == "within" and (f.n is None or not 1 <= f.n <= MAX_N):
            self.issue("dsl-arg-type", f"`within` takes a distance from 1 to {MAX_N}", f.span)
        assert f.arg is not None, f.op   # every other filter narrows by a selector (the parser)
        arg = self.head(f.arg, env)
        spec = parts.FILTER_BY_OP[f.op]
        need = spec.args[0] if spec.args else "any"
        allowed = {"players": frozenset({"player"}), "pieces": parts.PIECE_KINDS,
                   "located": parts.PIECE_KINDS | {"hex"}}.get(need)
        if allowed is not None and arg.kind not in allowed:
            self.issue("dsl-arg-type", f"`{spec.name}` needs {_join(sorted({parts.kind_phrase(k) for k in allowed}))}, "
                       f"got {parts.kind_phrase(arg.kind or '')}", f.arg.span, "write e.g. `" + spec.example + "`")
        return replace(f, arg=arg)

    # --- quantities and conditions -----------------------------------------------------------------

    def expr(self, node: Expr, env: Env, want: str) -> Expr:
        """Type a quantity (`want` number) or condition (`want` condition); misuse is located."""
        got, node = self._expr(node, env)
        if want == "condition" and got != "condition":
            self.issue("dsl-arg-type", f"expected a condition, got {_describe(got)}", node.span,
                       "compare quantities: `count(my kiwi in this hex) >= 2`")
        elif want == "number" and got != "number":
            hint = (f"count it: `count({_text_of(node)})`" if isinstance(node, Selector)
                    else "a number, `count(...)`, `min(a, b)` ...")
            self.issue("dsl-arg-type", f"expected a number, got {_describe(got)}", node.span, hint)
        return node

    def _expr(self, node: Expr, env: Env) -> tuple[str, Expr]:
        if isinstance(node, Num):
            if not 0 <= node.value <= MAX_N:
                self.issue("dsl-arg-type", f"numbers are 0 to {MAX_N}, got `{node.value}`", node.span)
            return "number", node
        if isinstance(node, Selector):
            sel = self.selector(node, env)
            return f"sel:{sel.kind}", sel
        if isinstance(node, Not):
            return "condition", replace(node, cond=self.expr(node.cond, env, "condition"))
        if isinstance(node, BinOp):
            if node.op in ("and", "or"):
                return "condition", replace(node, left=self.expr(node.left, env, "condition"),
                                            right=self.expr(node.right, env, "condition"))
            left = self.expr(node.left, env, "number")
            right = self.expr(node.right, env, "number")
            return ("condition" if node.op in _CMP else "number"), replace(node, left=left, right=right)
        if isinstance(node, QCall):
            return "number", self.qcall(node, env)
        return "unknown", node

    def qcall(self, node: QCall, env: Env) -> QCall:
        """A quantity function: its name from the registry, its arguments typed."""
        name = node.name.text
        spec = parts.FUNCTIONS.get(name)
        if spec is None:
            self.issue("dsl-unknown", f"unknown quantity `{name}`", node.name.span,
                       _did_you_mean(name, parts.FUNCTIONS) or "quantities: " + ", ".join(f"`{f}(...)`" for f in parts.FUNCTIONS))
            return node
        if len(node.args) != len(spec.args):
            self.issue("dsl-arg-count", f"`{name}` takes {len(spec.args)} argument{'s' if len(spec.args) != 1 else ''}: "
                       f"`{spec.example}`", node.span)
            return node
        if "each" in spec.args and isinstance(node.args[0], Selector):
            # over a selector: the largest / smallest value of the quantity, `it` being each element
            sel = self.selector(node.args[0], env)
            value = self.expr(node.args[1], Env(env.field_kind, it=sel.kind), "number")
            return replace(node, args=(sel, value))
        args = []
        for arg, need in zip(node.args, spec.args):
            if need == "number":
                args.append(self.expr(arg, env, "number"))
                continue
            if not isinstance(arg, Selector):
                self.issue("dsl-arg-type", f"`{name}` needs a selector, got {_describe(self._expr(arg, env)[0])}",
                           arg.span, f"write e.g. `{spec.example}`")
                args.append(arg)
                continue
            want = parts.SELECTOR_TYPES.get(need)
            args.append(self.selector(arg, env, want, f"`{name}`"))
        return replace(node, args=tuple(args))

    # --- statements --------------------------------------------------------------------------------

    def if_stmt(self, node: If, env: Env) -> If:
        """`if`: a condition and two bodies."""
        cond = self.expr(node.cond, env, "condition")
        then = self.stmt(node.then)
        orelse = self.stmt(node.orelse) if node.orelse is not None else None
        return replace(node, cond=cond, then=then, orelse=orelse)

    def for_each(self, node: ForEach, env: Env) -> ForEach:
        """`for each`: a selector, an optional cap, the body."""
        sel = self.selector(node.sel, env)
        cap = self.expr(node.cap, env, "number") if node.cap is not None else None
        body = self.stmt(node.body, it=sel.kind)
        return replace(node, sel=sel, cap=cap, body=body)

    def statement(self, node: If | ForEach | ChoosePlayer | During | Phrase, allowed: tuple[Primitive, ...],
                  env: Env) -> Node:
        """A statement of the layer: a phrase, `if`, `for each`, `choose <players>`, `this action:` or a verb with a
        subject."""
        if isinstance(node, If):
            return self.if_stmt(node, env)
        if isinstance(node, ForEach):
            return self.for_each(node, env)
        if isinstance(node, ChoosePlayer):
            return self.choose_player(node, env)
        if isinstance(node, During):
            return self.during(node, env)
        if (isinstance(node, Phrase) and isinstance(node.items[0], Selector) and allowed
                and allowed[0].kind == "verb"):
            found = self.subject(node, allowed, env)
            if found is not None:
                return found
        return self.phrase(node, allowed, env)

    def choose_player(self, node: ChoosePlayer, env: Env) -> ChoosePlayer:
        """`choose <players> { ... }`: a selector of players; in the body `them` is the one picked."""
        sel = self.selector(node.sel, env, frozenset({"player"}), "`choose`", "an opponent")
        return replace(node, sel=sel, body=self.stmt(node.body, it="player"))

    def during(self, node: During, env: Env) -> During:
        """`this action: <modifier>`: a modifier allowed for a duration, holding for the statements after it."""
        if [w.text for w in node.words] != DURING_WORDS:
            self.issue("dsl-syntax", f"unknown duration `{' '.join(w.text for w in node.words)}`", 
                       Span(node.words[0].span.start, node.words[-1].span.end),
                       "a modifier for the rest of an effect is written `this action: <modifier>`")
            return node
        if self.field_kind not in ("effect", "ability"):
            self.issue("dsl-context", f"`this action:` holds for the rest of a card's or benefit's effect or of a "
                       f"Leader ability, not in {self.field_kind} fields", node.span,
                       "a flock power's `modifier:` changes the rule for the whole game")
            return node
        from kcd.dsl.checker import _Checker
        inner = _Checker("modifier", self.ctx, self.issues)
        before = len(self.issues)
        modifier = inner.field(node.modifier)
        assert isinstance(modifier, (Call, Phrase))   # a modifier field binds a call to a call
        prim = registry.BY_ID.get(getattr(modifier, "primitive", None) or "")
        if len(self.issues) == before and prim is not None and not prim.during:
            shown = ", ".join(f"`{p.display}`" for p in registry.of_kind("modifier") if p.during)
            self.issue("dsl-context", f"`{prim.display}` holds for the whole game only: it cannot be given for one "
                       "action", node.modifier.span, f"modifiers for one action: {shown}")
        if node.body is None:
            self.issue("dsl-context", "`this action:` holds for the statements after it, and none follows", node.span,
                       "put it first: `this action: my kiwi can push kiwi of any size; move 2`")
            return replace(node, modifier=modifier)
        return replace(node, modifier=modifier, body=self.stmt(node.body))

    def subject(self, node: Phrase, allowed: tuple[Primitive, ...], env: Env) -> ForEach | None:
        """`them returns 1 fruit`, `every opponent loses 1 domain`: a verb with a subject (players), done by each
        player named, as the body of a `for each` over them. None: not a verb with a subject (a modifier, say)."""
        first, rest = node.items[0], node.items[1:]
        if not rest or not isinstance(rest[0], Word):
            return None
        verb = _base_form(rest[0].text, {w for p in allowed if p.head for w in getattr(p.parts[0], "words", (p.head,))})
        if verb is None:
            return None
        assert isinstance(first, Selector)
        sel = self.selector(first, env, frozenset({"player"}), "the subject of a verb", "them")
        items = (Word(verb, rest[0].span),) + rest[1:]
        span = Span(rest[0].span.start, node.span.end)
        call = Call(items, span) if all(isinstance(i, Word) for i in items) else Phrase(items, span)   # type: ignore[arg-type]
        body = self.stmt(Seq((call,), span), it="player")
        return ForEach(sel, body, None, node.span, subject=True)

    def phrase(self, node: Phrase, allowed: tuple[Primitive, ...], env: Env) -> Phrase:
        """Bind a phrase (a call with selectors or quantities) to the allowed primitive it fits best."""
        items = node.items
        first = items[0]
        cands = [p for p in allowed if (isinstance(first, Word) and p.head and fits(p.head_part, first.text))
                 or (not isinstance(first, Word) and p.head == "")]
        best = None
        for prim in cands:
            aligned = _align(prim.parts, items)   # the checker's aligner: a slot takes one item, Word or not
            if aligned is None:
                continue
            before = len(self.issues)
            args = self.bind(prim, aligned, env)
            errors = self.issues[before:]
            del self.issues[before:]
            bad = any(i.severity == "error" for i in errors)
            key = (0 if bad else 1, sum(1 for p in prim.parts if isinstance(p, str)))
            if best is None or key > best[0]:
                best = (key, prim, args, errors)
        if best is not None:
            _, prim, args, errors = best
            self.issues.extend(errors)
            return node if best[0][0] == 0 else replace(node, primitive=prim.id, args=args)
        head = first.text if isinstance(first, Word) else _text_of(first)
        if not cands and self.checker is not None:
            # a verb of another field kind (a Kiwibot verb in an effect, a Leader movement in a Nest ...)
            words = Call(node.words, node.span)
            for prim in self.checker.tables.same_kind:
                if prim.head == head and _align(prim.parts, items) is not None:
                    self.checker.context(prim, words)
                    return node
        shown = cands or [p for p in allowed if any(isinstance(x, Slot) and x.type in parts.SELECTOR_TYPES
                                                    for x in p.parts)]
        if not cands and self.checker is not None and self.checker.kind == "verb" and _modifier_issue(node, self.issues):
            return node
        if cands:
            self.issue("dsl-arg-count", f"`{head}` does not fit this phrase; it is written "
                       + _join([f"`{p.display}`" for p in cands]), node.span)
        elif isinstance(first, Word) and bare_noun_issue(first, allowed, self.issues):
            pass
        else:
            heads = sorted({p.head for p in allowed if p.head})
            self.issue("dsl-unknown", f"unknown {registry_kind(allowed)} `{head}`",
                       first.span if isinstance(first, Word) else node.span,
                       _did_you_mean(head, heads) or (("phrases with selectors: " + ", ".join(
                           f"`{p.display}`" for p in shown[:8])) if shown else None))
        return node

    def bind(self, prim: Primitive, aligned: list[tuple[str | Slot, tuple[Word | Expr, ...]]], env: Env) -> tuple[tuple[str, object], ...]:
        """The slot values of an aligned phrase; type errors go to the issue list."""
        args: list[tuple[str, object]] = []
        for part, items in aligned:
            if isinstance(part, str):
                continue
            if part.type in parts.SELECTOR_TYPES:
                item = items[0]
                if not isinstance(item, Selector):
                    self.issue("dsl-arg-type", f"`{prim.name or prim.pattern}` expects "
                               f"{registry.TYPES[part.type].doc.split(':')[0]} for <{part.name}>, got `{_text_of(item)}`",
                               item.span,
                               f"write e.g. `{doc_example(prim) or _example_for(parts.SELECTOR_TYPES[part.type])}`")
                    args.append((part.name, item))
                    continue
                self.in_verb = prim.kind == "verb"
                try:
                    args.append((part.name, self.selector(item, env, parts.SELECTOR_TYPES[part.type],
                                                          f"<{part.name}> of `{prim.name or prim.pattern}`",
                                                          doc_example(prim))))
                finally:
                    self.in_verb = False
                continue
            if part.type in ("int", "size") and not part.many and not (isinstance(items[0], Word)):
                item = items[0]
                if part.type == "size":
                    self.issue("dsl-arg-type", f"`{prim.name}` expects a Kiwi size for <{part.name}>, got a quantity",
                               item.span, f"write 1 to {self.ctx.max_size}")
                # a modifier's number may depend on the piece its selector names: `it` is that piece
                # (`my kiwi count tokens(it) + 1 for dominance`)
                named = next((v for _, v in args if isinstance(v, Selector)), None) if prim.kind == "modifier" else None
                number_env = Env(env.field_kind, it=named.kind) if named is not None and named.kind else env
                args.append((part.name, self.expr(item, number_env, "number")))
                continue
            values: list[object] = []
            for item in items:
                if not isinstance(item, Word):
                    self.issue("dsl-arg-type", f"`{prim.name or prim.pattern}` expects {registry.TYPES[part.type].doc} "
                               f"for <{part.name}>, got `{_text_of(item)}`", item.span)
                    values.append(None)
                    continue
                values.append(self.word_value(prim, part, item))
            phrases = registry.TYPES[part.type].sequences if part.many else ()
            if phrases and tuple(values) not in phrases:   # `leader abilities`, not `abilities leader`
                self.issue("dsl-arg-type", f"`{prim.name or prim.display}` takes "
                           + _join([f"`{' '.join(p)}`" for p in phrases]) + f" for <{part.name}>, got `"
                           + " ".join(str(v) for v in values) + "`", Span(items[0].span.start, items[-1].span.end))
            args.append((part.name, tuple(values) if part.many else values[0]))
        return tuple(args)

    def word_value(self, prim: Primitive, slot: Slot, word: Word) -> object:
        """One word as a slot value (numbers, sizes, fruit, terrains, fixed values)."""
        text, name = word.text, prim.name or prim.pattern
        if slot.type in ("int", "size"):
            top = MAX_N if slot.type == "int" else self.ctx.max_size
            if not word.is_int or not 1 <= int(text) <= top:
                self.issue("dsl-arg-type", f"`{name}` expects a number from 1 to {top} for <{slot.name}>, got `{text}`",
                           word.span)
                return text
            return int(text)
        values = {"fruit": self.ctx.fruits, "terrain": self.ctx.terrains}.get(slot.type)
        if values is None:
            values = registry.TYPES[slot.type].values or ()
        if text not in values:
            self.issue("dsl-arg-type", f"unknown {slot.type.replace('_', ' ')} `{text}`; expected "
                       + (", ".join(values) or "none declared"), word.span, _did_you_mean(text, values))
        return text


def _base_form(word: str, heads: set[str]) -> str | None:
    """The verb a subject's verb names: `returns` -> `return`, `pushes` -> `push`, `loses` -> `lose` (None: no verb)."""
    for base in (word, word[:-1] if word.endswith("s") else "", word[:-2] if word.endswith("es") else ""):
        if base and base in heads:
            return base
    return None


def _modifier_issue(node: Phrase, issues: list[Issue]) -> bool:
    """A modifier written as a statement of an effect (`my kiwi can push kiwi of equal size`): say that modifiers
    belong in flock powers, and how one holds for a single action when it can (True when reported)."""
    for prim in registry.of_kind("modifier"):
        if _align(prim.parts, node.items) is None:
            continue
        text = " ".join(_text_of(i) if not isinstance(i, Word) else i.text for i in node.items)
        hint = f"write it in a flock power: `power: [{{modifier: {text}, source: ...}}]`"
        if prim.during:
            hint += f"; for the rest of this effect only: `this action: {text}; ...`"
        issues.append(Issue("dsl-context", f"`{prim.display}` is a modifier, not a verb: modifiers belong in flock "
                            "powers (`modifier:`)", node.span, hint))
        return True
    return False


def bare_noun_issue(word: Word, allowed: tuple[Primitive, ...], issues: list[Issue]) -> bool:
    """A call that starts with a bare noun where a pattern starts with a selector (`leaders of an opponent count 1
    for dominance`): a selector in a call starts with a determiner, say so (True when reported)."""
    spec = parts.NOUNS.get(word.text)
    if spec is None or spec.names == "it" or not any(p.head == "" for p in allowed):
        return False
    one = next(n for n, p in parts.NOUNS.items() if p.names == spec.names)
    issues.append(Issue("dsl-syntax", f"a selector in a {registry_kind(allowed)} starts with a determiner (`every`, "
                        f"`my`, `a` ...), got the bare noun `{word.text}`", word.span,
                        f"write `every {one} ...` or `my {word.text} ...`"))
    return True


def registry_kind(allowed: tuple[Primitive, ...]) -> str:
    """The primitive kind of a field's allowed primitives, for messages."""
    return allowed[0].kind if allowed else "word"


def _describe(got: str) -> str:
    if got.startswith("sel:"):
        return f"a selector of {parts.kind_phrase(got[4:])}"
    return {"number": "a number", "condition": "a condition"}.get(got, "something else")


def _example_for(kinds: frozenset[str]) -> str:
    if kinds == frozenset({"hex"}):
        return "a hex without a nest"
    if kinds == frozenset({"player"}):
        return "an opponent"
    return "every kiwi of an opponent in the landing hex"


def _text_of(node: object) -> str:
    """A node's text for messages (selectors and quantities written back)."""
    if isinstance(node, Word):
        return node.text
    if isinstance(node, Selector):
        h = node.head
        words = ([h.det] if h.det else []) + [a.text for a in h.adjs] + [h.noun.text]
        return " ".join(words) + ("" if not node.filters else " ...")
    if isinstance(node, QCall):
        return f"{node.name.text}(...)"
    if isinstance(node, Num):
        return str(node.value)
    return "..."


# --- leader abilities ---------------------------------------------------------------------------------

def ability_issues(node: Node) -> list[Issue]:
    """R-LEAD-5/6: an ability moves the Leader exactly once, first; pushes come after that movement."""
    calls = list(_calls_in_order(node))
    # read off the registry as it is now (an entry added for a test or a tool counts as a shipped one does)
    leader_moves = frozenset(p.id for p in registry.of_kind("verb") if p.head == "leader")
    pushes = frozenset(p.id for p in registry.of_kind("verb") if p.head == "push")
    moves = [c for c in calls if c.primitive in leader_moves]
    out: list[Issue] = []
    span = getattr(node, "span", Span(0, 0))
    if not moves:
        names = ", ".join(f"`{registry.BY_ID[m].display}`" for m in sorted(leader_moves))
        return [Issue("dsl-context", "a leader ability must move the Leader (R-LEAD-5)", span,
                      f"start with a Leader movement: {names}", rule="R-LEAD-5")]
    for extra in moves[1:]:
        out.append(Issue("dsl-context", "a leader ability moves the Leader once: this is a second Leader movement",
                         extra.span, f"keep one of them: `{registry.BY_ID[moves[0].primitive or ''].display}` or "
                         f"`{registry.BY_ID[extra.primitive or ''].display}`"))
    first = calls.index(moves[0])
    for c in calls[:first]:
        if c.primitive in pushes:
            out.append(Issue("dsl-context", "a push before the Leader has moved: the ability pushes from where the "
                             "Leader goes", c.span, f"put the Leader movement "
                             f"`{registry.BY_ID[moves[0].primitive or ''].display}` first"))
    return out


def _calls_in_order(node: Node) -> Iterator[Call | Phrase]:
    """Bound calls and phrases of an effect, in text order."""
    return (n for n in walk(node) if isinstance(n, (Call, Phrase)) and n.primitive)
