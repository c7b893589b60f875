"""Rules text from a bound DSL tree, read off the registry's templates, and the primitive reference table."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from kcd.dsl import registry
from kcd.dsl import parts
from kcd.dsl.ast import (BinOp, Call, Choose, ChoosePlayer, During, ForEach, If, May, Node, Not, Num, Objective,
                                 Phrase, QCall, Repeat, Selector, Seq)
from kcd.dsl.checker import CheckContext
from kcd.dsl.primitive import TYPES, Primitive, Slot

__all__ = ["render", "reference", "LANGS", "NO_BENEFIT", "sample_call"]

LANGS = ("en",)
# The Season Card Guide's words for an empty benefit (R-SCARD-5, "Other players - No benefit").
NO_BENEFIT = "No benefit"
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Order in which a primitive's contexts are tried for its reference example.
# Verbs of one context whose text is told from another side (Kiwibot's: dsl/render_solo.py registers itself here
# when the package loads), so this module imports none of them: {contexts: text of a call, None to use the template}
SIDE_TEXTS: dict[frozenset[str], Callable[[Call | Phrase], str | None]] = {}
_EXAMPLE_FIELDS = ("effect", "ability", "solo", "cost", "objective", "trigger", "modifier")


def render(node: Node | None, lang: str = "en", *, sentence: bool = True) -> str:
    """Rules text of a bound node ("Gain 2 Fruits and place 1 size-1 Kiwi"); `sentence=False` keeps lower case."""
    if lang not in LANGS:
        raise ValueError(f"unknown language `{lang}`; available: {', '.join(LANGS)}")
    if node is None:
        return NO_BENEFIT
    text = _seq(node, top=True) if isinstance(node, Seq) else _node(node)
    if not text:
        return NO_BENEFIT
    return _capitalise(text) if sentence else text


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def _join(items: list[str], last: str = "and") -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def _node(node: Node) -> str:
    if isinstance(node, Seq):
        return _seq(node)
    if isinstance(node, Call):
        return _call(node)
    if isinstance(node, Objective):
        if isinstance(node.query, QCall):
            return f"{node.direction} {_objective_quantity(node.query)}"
        if isinstance(node.query, (Call, Phrase)):
            return f"{node.direction} {_call(node.query)}"
        return f"{node.direction} {_objective_quantity(node.query)}"
    if isinstance(node, Phrase):
        return _call(node)
    if isinstance(node, If):
        text = f"if {_cond(node.cond)}: {_seq(node.then)}"
        return text + (f"; otherwise {_seq(node.orelse)}" if node.orelse is not None else "")
    if isinstance(node, ForEach) and node.subject:
        # the subject does the verb, so the verb's "you" / "your" are that player's
        who = "that player" if node.sel.ref == "it" else selector_text(node.sel)
        body = re.sub(r"\byour\b", "their", re.sub(r"\byou\b", "they", _seq(node.body)))
        return f"{who} must {body}"
    if isinstance(node, ChoosePlayer):
        return f"choose {selector_text(node.sel, singular=True)}: {_seq(node.body)}"
    if isinstance(node, During):
        text = f"for this action, {_call(node.modifier)}"
        return text + (f": {_seq(node.body)}" if node.body is not None else "")
    if isinstance(node, ForEach):
        cap = f", at most {_quantity(node.cap)}" if node.cap is not None else ""
        each = _each(node.sel)
        if node.suffix:
            return f"{_seq(node.body)} for {each}{cap}"
        return f"for {each}{cap}: {_seq(node.body)}"
    if isinstance(node, May):
        return f"you may {_seq(node.body)}"
    if isinstance(node, Repeat):
        times = {1: "once", 2: "twice"}.get(node.count, f"{node.count} times")
        return f"{times}: {_seq(node.body)}"
    if isinstance(node, Choose):
        return "choose one: " + "; or ".join(_seq(option) for option in node.options)
    return ""


def _seq(seq: Seq, top: bool = False) -> str:
    """Statements joined "a, b and c"; a verb repeated by the next call is said once ("gain 1 Fruit and 1 VP"). A
    statement with a body (`if`, `for each`, `choose` ...) followed by others ends where its body ends: at the top a
    sentence ends there ("... . Then gain 1 Domain marker"), inside another body it is put in parentheses."""
    groups: list[list[str]] = [[]]
    prev: Primitive | None = None
    last = len(seq.stmts) - 1
    for i, stmt in enumerate(seq.stmts):
        text = _node(stmt)
        prim = _primitive(stmt)
        if prim is not None and prev is not None and prim.head == prev.head and prim.head:
            lead = prim.head + " "
            if text.startswith(lead) and prev.template.startswith(lead):
                text = text[len(lead):]
        before = seq.stmts[i - 1] if i > 0 else None
        if isinstance(before, ForEach) and before.subject:
            text = "you " + text   # after "that player must ...": who does the next one
        prev = prim
        if i < last and _has_body(stmt):
            if top:
                groups[-1].append(text)
                groups.append([])
                prev = None
                continue
            text = f"({text})"
        groups[-1].append(text)
    return ". Then ".join(_join(g) for g in groups if g)


def _has_body(node: Node) -> bool:
    """A statement whose words run on over a body of statements (so what follows it must be told apart)."""
    if isinstance(node, ForEach):
        return not node.suffix and not node.subject
    return isinstance(node, (If, Choose, ChoosePlayer, May, Repeat, During))


def _primitive(node: Node) -> Primitive | None:
    if isinstance(node, (Call, Phrase)) and node.primitive is not None:
        return registry.BY_ID.get(node.primitive)
    return None


def _call(call: Call | Phrase) -> str:
    prim = _primitive(call)
    if prim is None:  # unbound (not checked): show the words as written
        return " ".join(w.text for w in call.words)
    side = SIDE_TEXTS.get(prim.contexts)
    if side is not None:   # e.g. a Kiwibot verb: its selectors read from Kiwibot's side (render_solo.py)
        found = side(call)
        if found is not None:
            return found
    values = {}
    for name, value in call.args:
        if isinstance(value, Selector):   # "each to an adjacent hex ..." reads without its `a`
            value = _Named(selector_text(value, bare=f"adjacent {{{name}}}" in prim.template), _names_one(value))
        elif isinstance(value, (QCall, BinOp, Num)):
            value = _quantity(value)
        values[name] = value
    return _expand(prim.template, values, prim.slots)


class _Named(str):
    """A selector's words in a template, with its grammatical number: `{who|counts|each count}` picks by it."""

    amount: int

    def __new__(cls, text: str, one: bool) -> "_Named":
        out = super().__new__(cls, text)
        out.amount = 1 if one else 2
        return out


def _names_one(sel: Selector) -> bool:
    """Whether a selector reads as one thing ("your Leader", "every Kiwi", "a hex") rather than many ("your Kiwi")."""
    noun, det = sel.head.noun.text, sel.head.det
    if noun in _PLURAL:
        return False
    if noun == "kiwi":
        return det in ("a", "an", "every", "this")
    return True


# --- the compositional layer ------------------------------------------------------------------------

_NOUN_TEXT = {"kiwi": ("Kiwi", "Kiwi"), "leader": ("Leader", "Leaders"), "leaders": ("Leader", "Leaders"),
              "nest": ("Nest", "Nests"), "nests": ("Nest", "Nests"), "marker": ("Domain marker", "Domain markers"),
              "markers": ("Domain marker", "Domain markers"), "pieces": ("piece", "pieces"),
              "hex": ("hex", "hexes"), "hexes": ("hex", "hexes"),
              "player": ("player", "players"), "players": ("player", "players"),
              "opponent": ("opponent", "opponents"), "opponents": ("opponent", "opponents"),
              "me": ("you", "you"), "anyone": ("anyone", "anyone"), "it": ("it", "it"), "them": ("them", "them")}
_DET_TEXT = {"every": "every", "the": "the", "my": "your", "your": "your", "their": "their", "this": "this",
             "a": "a", "an": "an"}
_PLURAL = {"leaders", "nests", "markers", "pieces", "hexes", "players", "opponents"}


_FILTER_ORDER = {"owner": 0, "with": 1, "without": 1, "in": 2, "adjacent": 2, "within": 2, "dominated": 3, "where": 4}


def selector_text(sel: Selector, *, singular: bool = False, owner_implied: bool = False, bare: bool = False) -> str:
    """A selector in words: "every size-1 Kiwi of an opponent in the landing hex", "a hex without a Nest"."""
    h = sel.head
    noun = h.noun.text
    one, many = _NOUN_TEXT.get(noun, (noun, noun))
    plural = not singular and noun in _PLURAL and h.det not in ("a", "an", "this")
    det = _DET_TEXT.get(h.det or "", "")
    if (owner_implied and h.det in ("my", "your")) or (bare and h.det in ("a", "an")):
        det = ""
    words = [det] if det else []
    words += [a.text for a in h.adjs if a.text not in parts.REFERENCES or True]
    size = next((f.n for f in sel.filters if f.op == "size"), None)
    if size is not None:
        words.append(f"size-{size}")
    words.append(many if plural else one)
    for f in sorted(sel.filters, key=lambda f: _FILTER_ORDER.get(f.op, 5)):   # who, what it holds, where, then conditions
        if f.op == "size":
            continue
        words.append(_filter_text(f))
    text = " ".join(w for w in words if w)
    if det == "a" and text.startswith("a ") and text[2:3] in "aeiou":
        text = "an " + text[2:]
    return text


def _each(sel: Selector) -> str:
    """`for each ...` in words: "each hex ...", "each of your Nests ..."."""
    if sel.head.det in ("my", "your", "their", "the"):
        return "each of " + selector_text(sel)
    return "each " + selector_text(sel, singular=True, bare=True).removeprefix("every ")


def _filter_text(f) -> str:
    if f.op == "where":
        only = _only(f.cond)
        return only if only is not None else f"where {_cond(f.cond)}"
    if f.op == "in" and f.arg is not None and f.arg.kind != "hex":
        # pieces in the hex of a piece: "in the same hex as your Leader", "in the hexes of your Nests"
        arg = selector_text(f.arg)
        plural = f.arg.head.noun.text in _PLURAL and f.arg.head.det not in ("a", "an")
        return f"in the hexes of {arg}" if plural else f"in the same hex as {arg}"
    arg = selector_text(f.arg) if f.arg is not None else ""
    if f.op == "dominated" and not (f.arg is not None and f.arg.head.noun.text == "me"):
        # the registry's phrase is the rulebook's "with established dominance" (your own); others' reads so
        return f"where {arg} {'has' if f.arg is not None and f.arg.head.noun.text not in _PLURAL else 'have'} dominance"
    spec = parts.FILTERS[parts.FILTER_OF_OP[f.op]]
    return _expand(spec.text, {"x": arg, "n": f.n}, {})


def _only(cond) -> str | None:
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
    n = cond.right.value
    word = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)
    any_size = sel.kind == "kiwi" and not any(f.op == "size" for f in rest)
    return f"with only {word} of {selector_text(replace(sel, filters=rest))}" + (" of any size" if any_size else "")


def _located(sel: Selector) -> bool:
    return sel.kind == "hex" or sel.kind == "player" or any(
        f.op in ("in", "adjacent", "within") for f in sel.filters)


def _objective_quantity(q) -> str:
    """An objective's quantity as the Season Card Guide words it: "Nests on the island board" (R-SCARD-5)."""
    if isinstance(q, BinOp) and q.op in ("+", "-"):
        return f"{_objective_quantity(q.left)} {'plus' if q.op == '+' else 'minus'} {_objective_quantity(q.right)}"
    if (isinstance(q, QCall) and q.name.text == "largest" and isinstance(q.args[0], Selector)
            and q.args[0].kind == "hex" and not q.args[0].filters):
        # the largest over hexes of a count `in it`: "Kiwi tokens in a single hex"
        inner = _objective_quantity(q.args[1])
        if inner.endswith(" in it"):
            return inner[:-len(" in it")] + " in a single hex"
    if isinstance(q, QCall) and q.name.text in ("count", "tokens") and isinstance(q.args[0], Selector):
        sel = q.args[0]
        text = selector_text(sel, owner_implied=True)
        if q.name.text == "tokens" and sel.kind == "piece" and sel.head.det in (None, "my", "your"):
            text = "Kiwi tokens" + text[len("pieces"):]   # "Kiwi tokens in flower hexes" (R-SCARD-5)
            if text.startswith("Kiwi tokens of anyone"):  # "Kiwi tokens (any player) in ..."
                text = "Kiwi tokens (any player)" + text[len("Kiwi tokens of anyone"):]
        elif q.name.text == "tokens":
            text = "Kiwi tokens of " + text
        return text if _located(sel) else text + " on the island board"
    return _quantity(q)


def _quantity(q) -> str:
    if isinstance(q, Num):
        return str(q.value)
    if isinstance(q, int):
        return str(q)
    if isinstance(q, Selector):
        return selector_text(q)
    if isinstance(q, BinOp):
        return f"{_quantity(q.left)} {'plus' if q.op == '+' else 'minus'} {_quantity(q.right)}"
    if isinstance(q, QCall):
        name = q.name.text
        args = [(_quantity(a) if not isinstance(a, Selector) else selector_text(a)) for a in q.args]
        if name == "count":
            return f"the number of {args[0]}"
        if name == "tokens":
            return "its Kiwi tokens" if args[0] == "it" else f"the Kiwi tokens of {args[0]}"
        if name in ("min", "max"):
            return f"the {'smaller' if name == 'min' else 'larger'} of {args[0]} and {args[1]}"
        if name in ("largest", "smallest"):
            return f"the {name} {args[1]} among {args[0]}"
        what = {"fruit": "Fruits", "domain": "Domain markers", "vp": "Victory Points"}.get(name, name)
        if args and args[0] == "you":
            return f"your {what}"
        if args and args[0] in ("it", "them"):
            return f"their {what}"
        return f"the {what} of {args[0] if args else ''}"
    return "?"


def _cond(c) -> str:
    if isinstance(c, Not):
        return f"not {_cond(c.cond)}"
    if isinstance(c, BinOp):
        if c.op in ("and", "or"):
            return f"{_cond(c.left)} {c.op} {_cond(c.right)}"
        spec = parts.COMPARISONS.get(c.op)
        if spec is not None:
            return spec.text.replace("{a}", _quantity(c.left)).replace("{b}", _quantity(c.right))
    return _quantity(c)


# --- templates ----------------------------------------------------------------------------------------

def _closing(template: str, start: int) -> int:
    """Index of the `}` matching the `{` at `start`, or -1."""
    depth = 0
    for i in range(start, len(template)):
        if template[i] == "{":
            depth += 1
        elif template[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _split_top(body: str) -> list[str]:
    """`body` split at the `|` that are not inside nested braces."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in body:
        if ch == "|" and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur.append(ch)
    parts.append("".join(cur))
    return parts


def _expand(template: str, values: dict[str, object], slots: dict[str, Slot]) -> str:
    """Fill `{slot}`, `{slot:word}`, `{slot:or}` and `{slot|singular|plural}` (see registry.py)."""
    out: list[str] = []
    i = 0
    while i < len(template):
        ch = template[i]
        end = _closing(template, i) if ch == "{" else -1
        if end < 0:
            out.append(ch)
            i += 1
            continue
        out.append(_placeholder(template[i + 1:end], values, slots))
        i = end + 1
    return "".join(out)


def _placeholder(body: str, values: dict[str, object], slots: dict[str, Slot]) -> str:
    parts = _split_top(body)
    name, _, fmt = parts[0].partition(":")
    value = values.get(name)
    if len(parts) > 1:
        amount = value.amount if isinstance(value, _Named) else len(value) if isinstance(value, tuple) else value
        chosen = parts[1] if amount == 1 or len(parts) < 3 else parts[2]
        return _expand(chosen, values, slots)
    if value is None:
        return f"<{name}>"
    if isinstance(value, tuple):
        if fmt == "words":   # a phrase of several words (`leader abilities`)
            return " ".join(_value(v, slots.get(name)) for v in value)
        return _join([_value(v, slots.get(name)) for v in value], "or" if fmt == "or" else "and")
    if fmt == "word" and isinstance(value, int) and 0 <= value < len(_NUMBER_WORDS):
        return _NUMBER_WORDS[value]
    return _value(value, slots.get(name))


def _value(value: object, slot: Slot | None) -> str:
    arg_type = TYPES.get(slot.type) if slot is not None else None
    if arg_type is not None and isinstance(value, str):
        return arg_type.phrase(value)
    return str(value)


# --- reference --------------------------------------------------------------------------------------

def _default_context() -> CheckContext:
    """Fruit, terrains and size limit of the shipped base game.yaml (empty when it cannot be read)."""
    import yaml  # only the reference page needs it

    from kcd.paths import content_dir

    try:
        data = yaml.safe_load(Path(content_dir(), "base", "game.yaml").read_text(encoding="utf-8"))
        fruits = tuple(str(f) for f in data.get("fruits", ()))
        terrains = tuple(str(t) for t in data.get("terrains", ()))
        max_size = int(data.get("limits", {}).get("kiwi_size", 3))
        return CheckContext(fruits, terrains, max_size)
    except (OSError, yaml.YAMLError, AttributeError, TypeError, ValueError):
        return CheckContext((), (), 3)


def _sample(slot: Slot, ctx: CheckContext) -> list[str]:
    """Example words for a slot: the first declared values of its type, `<name>` when none are known."""
    if slot.type == "int":
        pool: tuple[str, ...] = ("2",)
    elif slot.type == "size":
        pool = ("1",)
    elif slot.type == "fruit":
        pool = ctx.fruits
    elif slot.type == "terrain":
        pool = ctx.terrains
    elif slot.type in _SELECTOR_SAMPLES:
        return [_SELECTOR_SAMPLES[slot.type]]
    else:
        arg_type = TYPES.get(slot.type)
        pool = arg_type.values if arg_type is not None and arg_type.values else ()
    if not pool:
        return [f"<{slot.name}>"]
    return list(pool[:2]) if slot.many else [pool[0]]


_SELECTOR_SAMPLES = {"pieces": "every kiwi of an opponent", "hexes": "a hex without a nest",
                     "players": "an opponent"}
# modifiers whose example reads better with pieces of their own (a Leader's weight, Nests' benefits)
_PIECES_SAMPLES = {"m-dominance-weight": "my leader", "m-feed-discount": "my kiwi in grass hexes",
                   "m-nest-twice": "my nests", "m-push-limit": "my kiwi", "m-push-same": "my kiwi"}


def sample_call(prim: Primitive, ctx: CheckContext) -> str:
    """DSL text using `prim` with example arguments (objectives get their `most`); the doc's own example when it
    gives one (`E.g. ...`: a Kiwibot verb's selectors name Kiwibot's pieces)."""
    from kcd.dsl.types import doc_example
    if doc_example(prim):
        return doc_example(prim)
    words: list[str] = []
    for part in prim.parts:
        words.extend([part] if isinstance(part, str) else _sample(part, ctx))
    text = " ".join(words)
    if prim.id in _PIECES_SAMPLES:
        text = text.replace(_SELECTOR_SAMPLES["pieces"], _PIECES_SAMPLES[prim.id])
    return f"most {text}" if prim.kind == "query" else text


def reference(ctx: CheckContext | None = None) -> list[dict]:
    """One row per primitive (id, kind, pattern, display, doc, contexts, example, text) for the editor and `kcd rules`."""
    from kcd.dsl.checker import compile_field

    ctx = ctx if ctx is not None else _default_context()
    rows: list[dict] = []
    for prim in registry.PRIMITIVES:
        example = sample_call(prim, ctx)
        field = next((f for f in _EXAMPLE_FIELDS if f in prim.contexts), "effect")
        node, issues = compile_field(example, field, ctx)
        if node is not None and not issues:
            text = render(node)
        else:  # no fruit or terrain known: fill the template with the example words as written
            values: dict[str, object] = {p.name: _sample(p, ctx)[0] for p in prim.parts if isinstance(p, Slot)}
            text = _capitalise(_expand(prim.template, values, {}))
        rows.append({
            "id": prim.id, "kind": prim.kind, "pattern": prim.pattern, "display": prim.display,
            "doc": prim.doc, "contexts": sorted(prim.contexts), "example": example, "text": text,
            "note": prim.note, "binds": [f"`this hex`: {what}" for ref, what in prim.binds if ref == "here"],
            "during": prim.during,
        })
    return rows


# Wrappers that turn a part's example into a whole field, tried in order, for `reference_parts`.
_PART_WRAPPERS = (("{x}", "effect"), ("{x}", "objective"), ("{x}", "modifier"), ("most {x}", "objective"), ("gain 1 fruit for each {x}", "effect"),
                  ("{x}", "ability"), ("leader moves 1; place 1 kiwi on {x}", "ability"),
                  ("gain count({x}) fruit", "effect"), ("if {x} { gain 1 fruit }", "effect"),
                  ("most count({x})", "objective"), ("gain 1 fruit for each hex where {x}", "effect"),
                  ("for each opponent where {x} { gain 1 fruit }", "effect"), ("{x}", "trigger"),
                  ("leader moves 1; push {x} out of the landing hex", "ability"))


def reference_parts(ctx: CheckContext | None = None) -> list[dict]:
    """One row per part of the compositional layer (name, kind, doc, example, field, text, applies)."""
    from kcd.dsl.checker import compile_field

    ctx = ctx if ctx is not None else _default_context()
    rows = []
    for part in parts.PARTS:
        field, text = "", ""
        for wrapper, kind in _PART_WRAPPERS:
            dsl = wrapper.replace("{x}", part.example)
            node, issues = compile_field(dsl, kind, ctx)
            if node is not None and not issues:
                field, text = dsl, render(node)
                break
        rows.append({"name": part.name, "kind": part.kind, "doc": part.doc, "example": part.example,
                     "field": field, "text": text, "syntax": part.syntax, "fields": sorted(part.fields),
                     "applies": sorted(parts.kind_phrase(k) for k in part.applies)})
    return rows
