"""The renderer's generic phrases: selectors, quantities, conditions and registry templates in English words.

Read by the rules-text renderer (render.py) and by the text hooks of registry entries (render_solo.py), so a hook
can word a call from the same parts without importing the renderer or the registry.
"""
from __future__ import annotations

from kcd.dsl import parts
from kcd.dsl.ast import BinOp, Expr, Filter, Not, Num, QCall, Selector
from kcd.dsl.primitive import TYPES, Slot

__all__ = ["NO_BENEFIT", "selector_text", "quantity_text", "condition_text", "expand", "capitalise", "join"]

# The Season Card Guide's words for an empty benefit (R-SCARD-5, "Other players - No benefit").
NO_BENEFIT = "No benefit"
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

def _capitalise(text: str) -> str:
    """The text with its first letter in upper case (the start of a sentence)."""
    return text[:1].upper() + text[1:]


def _join(items: list[str], last: str = "and") -> str:
    """Items joined "a, b and c" (`last` the final word)."""
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


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


def _filter_text(f: Filter) -> str:
    """A filter in words: its part's text hook ("in the same hex as your Leader"), else its `text` template."""
    spec = parts.FILTER_BY_OP[f.op]
    if spec.filter_text is not None:
        found = spec.filter_text(f, _WORDS)
        if found is not None:
            return found
    arg = selector_text(f.arg) if f.arg is not None else ""
    return _expand(spec.text, {"x": arg, "n": f.n}, {})


def _number_word(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _located(sel: Selector) -> bool:
    return sel.kind == "hex" or sel.kind == "player" or any(
        f.op in ("in", "adjacent", "within") for f in sel.filters)


def _objective_quantity(q: Expr) -> str:
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


def _quantity(q: Expr | int) -> str:
    """A quantity in words: "the number of your Nests", "the larger of ... and ..."."""
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
        spec = parts.FUNCTIONS.get(name)
        if spec is not None and spec.render is not None:   # the function's own words (dsl/parts.py)
            return spec.render(q, args)
        return parts.holding_text(name)(q, args)
    return "?"


def _cond(c: Expr) -> str:
    """A condition in words: "the number of your Kiwi is at least 2"."""
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


# What the filters' text hooks (dsl/parts.py) may ask of this module.
_WORDS = parts.FilterWords(selector_text, _cond, _number_word, lambda sel: sel.head.noun.text in _PLURAL)

# Public names of the helpers, for hooks and other modules.
quantity_text = _quantity
condition_text = _cond
expand = _expand
capitalise = _capitalise
join = _join
