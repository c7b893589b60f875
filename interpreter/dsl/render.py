"""Rules text from a bound DSL tree, read off the registry's templates, and the primitive reference table."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from kcd.dsl import registry
from kcd.dsl import parts
from kcd.dsl.ast import (BinOp, Call, Choose, ChoosePlayer, During, ForEach, If, May, Node, Num, Objective,
                                 Phrase, QCall, Repeat, Selector, Seq)
from kcd.dsl.checker import CheckContext
from kcd.dsl.phrases import (NO_BENEFIT, _Named, _capitalise, _cond, _each, _expand, _join, _names_one,  # noqa: F401
                             _objective_quantity, _quantity, selector_text)
from kcd.dsl.primitive import TYPES, Primitive, Slot

__all__ = ["render", "reference", "LANGS", "NO_BENEFIT", "sample_call", "selector_text"]

LANGS = ("en",)
# Order in which a primitive's contexts are tried for its reference example.
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
    if prim.render is not None:   # the entry's own wording (a Kiwibot verb reads from Kiwibot's side)
        found = prim.render(call)
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


# --- reference --------------------------------------------------------------------------------------

def _default_context() -> CheckContext:
    """Fruit, terrains and size limit of the shipped base game.yaml (empty when it cannot be read)."""
    import yaml  # only the reference page needs it

    from kcd.core.paths import content_dir

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


def sample_call(prim: Primitive, ctx: CheckContext) -> str:
    """DSL text using `prim` with example arguments (objectives get their `most`); the doc's own example when it
    gives one (`E.g. ...`: a Kiwibot verb's selectors name Kiwibot's pieces)."""
    from kcd.dsl.primitive import doc_example
    if doc_example(prim):
        return doc_example(prim)
    words: list[str] = []
    for part in prim.parts:
        words.extend([part] if isinstance(part, str) else _sample(part, ctx))
    text = " ".join(words)
    if prim.example_pieces:   # an entry whose example reads better with pieces of its own
        text = text.replace(_SELECTOR_SAMPLES["pieces"], prim.example_pieces)
    return f"most {text}" if prim.kind == "query" else text


# a reference row is display data (the editor, `kcd rules`, the service's JSON): a record of mixed values
def reference(ctx: CheckContext | None = None) -> list[dict[str, Any]]:
    """One row per primitive (id, kind, pattern, display, doc, contexts, example, text) for the editor and `kcd rules`."""
    from kcd.dsl.checker import compile_field

    ctx = ctx if ctx is not None else _default_context()
    rows: list[dict[str, Any]] = []
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


def reference_parts(ctx: CheckContext | None = None) -> list[dict[str, Any]]:
    """One row per part of the compositional layer (name, kind, doc, example, field, text, applies)."""
    from kcd.dsl.checker import compile_field

    ctx = ctx if ctx is not None else _default_context()
    rows: list[dict[str, Any]] = []
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
