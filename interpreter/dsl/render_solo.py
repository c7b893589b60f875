"""Rules text of the Kiwibot verbs (registry_solo.py): a Solo card segment read from Kiwibot's side, as the player
reads the card: `my` pieces are Kiwibot's ("its Kiwi"), an opponent's are the player's ("your Kiwi").

"Kiwibot moves a size-2 Kiwi to the adjacent hex where you have the most Kiwi tokens and it pushes 2 of your
Kiwi". The selectors of a verb are composed by the renderer (render.selector_text), then told from Kiwibot's side;
the hex where someone has the most Kiwi tokens (`where tokens(S in it) = largest(hexes adjacent to the starting
hex, tokens(S in it))`) reads as such.
"""
from __future__ import annotations

import re
from dataclasses import replace

# The renderer's own parts (a selector, a quantity, a condition, a loop, a template), reused so a segment reads as
# every other effect does, only told from Kiwibot's side. The verbs' entries (registry_solo.py) carry the text
# hooks below, so the renderer has no case for any of them.
from kcd.dsl.ast import BinOp, Call, Choose, ForEach, If, May, Node, Num, Phrase, QCall, Repeat, Selector, Seq
from kcd.dsl.phrases import NO_BENEFIT, _capitalise, _cond, _each, _expand, _join, selector_text
from kcd.dsl.phrases import _quantity as quantity_text

__all__ = ["move_text", "push_text", "feed_text", "build_on_text", "segment_text"]


def build_on_text(call: Call | Phrase) -> str | None:
    """`bot builds nest <n> on <hexes>` from Kiwibot's side."""
    where = call.arg("where")
    if not isinstance(where, Selector):
        return None
    n = call.arg("n", 1)
    return f"Kiwibot builds its next Nest of column {_side(quantity_text(n))} on {_side(selector_text(where))}"


def move_text(call: Call | Phrase) -> str | None:
    """`bot moves <pieces> [to <hexes>]`: "Kiwibot moves a size-2 Kiwi to the adjacent hex where ..."."""
    what = call.arg("what")
    if not isinstance(what, Selector):
        return None
    dest = call.arg("dest")
    where = "an adjacent hex" if not isinstance(dest, Selector) else _dest(dest)
    return f"Kiwibot moves {_mover(what)} to {where}"


def push_text(call: Call | Phrase) -> str | None:
    """`bot pushes up to <n> of <pieces>`: "it pushes 2 of your Kiwi"."""
    what = call.arg("what")
    if not isinstance(what, Selector):
        return None
    n = call.arg("n", 1)
    return f"it pushes {_side(quantity_text(n))} of {_owned(what)}"


def feed_text(call: Call | Phrase) -> str | None:
    """`bot feeds <pieces>`, with the Domain markers the feed gains for whose Kiwi it is."""
    what = call.arg("what")
    if not isinstance(what, Selector):
        return None
    whose, bare = _whose(what)
    if whose == "bot":
        return f"Kiwibot increases the size of one of its {_bare_text(bare)} and gains 1 Domain marker"
    if whose == "player":
        return f"Kiwibot feeds one of your {_bare_text(bare)} and gains 2 Domain markers"
    return f"Kiwibot feeds one of {_side(selector_text(what))} and gains the Feed's Domain markers"


def _whose(sel: Selector) -> tuple[str | None, Selector]:
    """Whose pieces a selector names, "bot" (`my kiwi`, `kiwi of me`) or "player" (`kiwi of an opponent`), and the
    selector without the words that say so; None (and the selector as it is) for anyone else's."""
    if sel.owner == "me" and sel.head.det in ("my", "your"):
        return "bot", replace(sel, head=replace(sel.head, det=None))
    for f in sel.filters:
        arg = f.arg
        if f.op == "owner" and arg is not None and not arg.filters and arg.ref is None:
            who = {"me": "bot", "opponent": "player"}.get(arg.owner or "")
            if who is not None:
                rest = tuple(g for g in sel.filters if g is not f)
                return who, replace(sel, head=replace(sel.head, det=None), filters=rest)
    return None, sel


def _bare_text(sel: Selector) -> str:
    """A selector's words without a determiner ("size-2 Kiwi in flower hexes"), told from Kiwibot's side."""
    return _side(selector_text(sel))


def _mover(sel: Selector) -> str:
    """The piece a Kiwibot move moves: "a size-1 Kiwi", "its Leader"."""
    whose, bare = _whose(sel)
    if whose != "bot":
        return "one of " + _side(selector_text(sel))
    words = selector_text(bare, singular=True)
    if sel.kind == "kiwi":
        return ("an " if words[:1].lower() in "aeiou" else "a ") + words
    return "its " + words


def _owned(sel: Selector) -> str:
    """Pieces with their owner first: "your Kiwi", "Kiwibot's size-1 Kiwi"."""
    whose, bare = _whose(sel)
    if whose is None:
        return _side(selector_text(sel))
    return ("your " if whose == "player" else "Kiwibot's ") + _bare_text(bare)


def _dest(dest: Selector) -> str:
    """A move's destination: "an adjacent flower hex", "the adjacent hex where you have the most Kiwi tokens"."""
    most = _most(dest)
    if most is not None:
        return most
    return "an adjacent " + _side(selector_text(dest, bare=True))


def _most(dest: Selector) -> str | None:
    """`a hex where tokens(S in it) = largest(hexes adjacent to the starting hex, tokens(S in it))` (and `with S`):
    "the adjacent hex where you have (it has) the most Kiwi tokens"."""
    where = [f for f in dest.filters if f.op == "where"]
    if dest.kind != "hex" or len(where) != 1 or dest.terrains:
        return None
    cond = where[0].cond
    if not (isinstance(cond, BinOp) and cond.op == "=" and isinstance(cond.left, QCall)
            and isinstance(cond.right, QCall) and cond.right.name.text == "largest"
            and cond.left.name.text == "tokens" and len(cond.right.args) == 2):
        return None
    over, value = cond.right.args
    if not (isinstance(over, Selector) and over.kind == "hex" and len(over.filters) == 1
            and over.filters[0].op == "adjacent" and over.filters[0].arg is not None
            and over.filters[0].arg.ref == "starting" and isinstance(value, QCall) and _same(value, cond.left)):
        return None
    counted = cond.left.args[0]
    if not isinstance(counted, Selector):
        return None
    whose, _ = _whose(counted)
    others = [f for f in dest.filters if f.op != "where" and not (f.op == "with" and f.arg is not None
                                                                  and _whose(f.arg)[0] == whose)]
    if whose is None or others:
        return None
    return "the adjacent hex where " + ("you have" if whose == "player" else "it has") + " the most Kiwi tokens"


def _same(a: object, b: object) -> bool:
    """Two quantities written alike (spans apart)."""
    return _shape(a) == _shape(b)


def _shape(node: object) -> object:
    if isinstance(node, QCall):
        return ("q", node.name.text, tuple(_shape(x) for x in node.args))
    if isinstance(node, Selector):
        return ("s", node.kind, node.owner, node.ref, node.terrains,
                tuple((f.op, f.n, _shape(f.arg) if f.arg is not None else None) for f in node.filters))
    return repr(node)


# The renderer speaks to the player whose effect it is; a Solo card is Kiwibot's, read by the player.
_SIDE = re.compile(r"\b(of an opponent|of every opponent|of opponents|an opponent has|an opponent|every opponent"
                   r"|opponents|your|of you|you have|you)\b")
_SIDE_WORDS = {"of an opponent": "of yours", "of every opponent": "of yours", "of opponents": "of yours",
               "an opponent has": "you have", "an opponent": "you", "every opponent": "you", "opponents": "you",
               "your": "Kiwibot's", "of you": "of Kiwibot", "you have": "Kiwibot has", "you": "Kiwibot"}


def _side(words: str) -> str:
    """Words of the renderer told from Kiwibot's side: Kiwibot's pieces "Kiwibot's", the player's "yours"."""
    return _SIDE.sub(lambda m: _SIDE_WORDS[m.group(1)], words)


# --- a whole segment ---------------------------------------------------------------------------------------
_SOLO = frozenset({"solo"})


def segment_text(node: Node | None) -> str:
    """A Solo card segment's rules text, all of it what Kiwibot does: its own verbs as their templates say, core
    verbs with Kiwibot as the subject ("Kiwibot gains 1 Domain marker"), conditions and loops from its side."""
    if node is None:
        return NO_BENEFIT
    return _capitalise(_stmt(node)) or NO_BENEFIT


def _stmt(node: Node) -> str:
    if isinstance(node, Seq):
        return _join([_stmt(s) for s in node.stmts])
    from kcd.dsl.registry import BY_ID
    if isinstance(node, (Call, Phrase)) and node.primitive in BY_ID and BY_ID[node.primitive].contexts == _SOLO:
        prim = BY_ID[node.primitive]
        found = prim.render(node) if prim.render is not None else None
        if found is not None:
            return found
        values = {name: (_side(quantity_text(v)) if isinstance(v, (QCall, BinOp, Num)) else v) for name, v in node.args}
        return _expand(prim.template, values, prim.slots)
    if isinstance(node, If):
        out = f"if {_side(_cond(node.cond))}: {_stmt(node.then)}"
        return out + (f"; otherwise {_stmt(node.orelse)}" if node.orelse is not None else "")
    if isinstance(node, ForEach):
        cap = f", at most {_side(quantity_text(node.cap))}" if node.cap is not None else ""
        each = _side(_each(node.sel))
        return f"{_stmt(node.body)} for {each}{cap}" if node.suffix else f"for {each}{cap}: {_stmt(node.body)}"
    if isinstance(node, May):
        return f"if it can, {_stmt(node.body)}"   # Kiwibot always takes a benefit it may take (modes/solo/answers.py)
    if isinstance(node, Repeat):
        return f"{ {1: 'once', 2: 'twice'}.get(node.count, f'{node.count} times') }: {_stmt(node.body)}"
    if isinstance(node, Choose):
        return "one of: " + "; or ".join(_stmt(o) for o in node.options)
    from kcd.dsl.render import render as render_node
    return _does(render_node(node, sentence=False))


_ES = ("s", "sh", "ch", "x", "z")


def _does(words: str) -> str:
    """A core verb's imperative rules text with Kiwibot as the subject: "gain 1 Fruit" -> "Kiwibot gains 1 Fruit"."""
    if words.startswith("you "):
        return "Kiwibot " + _side(words[len("you "):])
    verb, _, rest = words.partition(" ")
    verb += "es" if verb.endswith(_ES) else "s"
    return f"Kiwibot {verb} {_side(rest)}".rstrip()

