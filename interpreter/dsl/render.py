"""Rules text from a bound DSL tree, read off the registry's templates, and the primitive reference table."""
from __future__ import annotations

from pathlib import Path

from interpreter.dsl import registry
from interpreter.dsl.ast import Call, Choose, May, Node, Objective, Repeat, Seq
from interpreter.dsl.checker import CheckContext
from interpreter.dsl.primitive import TYPES, Primitive, Slot

__all__ = ["render", "reference", "LANGS", "NO_BENEFIT", "sample_call"]

LANGS = ("en",)
# The Season Card Guide's words for an empty benefit (R-SCARD-5, "Other players - No benefit").
NO_BENEFIT = "No benefit"
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
# Order in which a primitive's contexts are tried for its reference example.
_EXAMPLE_FIELDS = ("effect", "ability", "solo", "cost", "objective", "trigger", "modifier")


def render(node: Node | None, lang: str = "en", *, sentence: bool = True) -> str:
    """Rules text of a bound node ("Gain 2 Fruits and place 1 size-1 Kiwi"); `sentence=False` keeps lower case."""
    if lang not in LANGS:
        raise ValueError(f"unknown language `{lang}`; available: {', '.join(LANGS)}")
    if node is None:
        return NO_BENEFIT
    text = _node(node)
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
        return f"{node.direction} {_call(node.query)}"
    if isinstance(node, May):
        return f"you may {_seq(node.body)}"
    if isinstance(node, Repeat):
        times = {1: "once", 2: "twice"}.get(node.count, f"{node.count} times")
        return f"{times}: {_seq(node.body)}"
    if isinstance(node, Choose):
        return "choose one: " + "; or ".join(_seq(option) for option in node.options)
    return ""


def _seq(seq: Seq) -> str:
    """Statements joined "a, b and c"; a verb repeated by the next call is said once ("gain 1 Fruit and 1 VP")."""
    texts: list[str] = []
    prev: Primitive | None = None
    for stmt in seq.stmts:
        text = _node(stmt)
        prim = _primitive(stmt)
        if prim is not None and prev is not None and prim.head == prev.head and prim.head:
            lead = prim.head + " "
            if text.startswith(lead) and prev.template.startswith(lead):
                text = text[len(lead):]
        texts.append(text)
        prev = prim
    return _join(texts)


def _primitive(node: Node) -> Primitive | None:
    if isinstance(node, Call) and node.primitive is not None:
        return registry.BY_ID.get(node.primitive)
    return None


def _call(call: Call) -> str:
    prim = _primitive(call)
    if prim is None:  # unbound (not checked): show the words as written
        return " ".join(w.text for w in call.words)
    return _expand(prim.template, dict(call.args), prim.slots)


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
    parts, depth, cur = [], 0, []
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
        amount = len(value) if isinstance(value, tuple) else value
        chosen = parts[1] if amount == 1 or len(parts) < 3 else parts[2]
        return _expand(chosen, values, slots)
    if value is None:
        return f"<{name}>"
    if isinstance(value, tuple):
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

    from interpreter.paths import content_dir

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
    else:
        arg_type = TYPES.get(slot.type)
        pool = arg_type.values if arg_type is not None and arg_type.values else ()
    if not pool:
        return [f"<{slot.name}>"]
    return list(pool[:2]) if slot.many else [pool[0]]


def sample_call(prim: Primitive, ctx: CheckContext) -> str:
    """DSL text using `prim` with example arguments (objectives get their `most`)."""
    words: list[str] = []
    for part in prim.parts:
        words.extend([part] if isinstance(part, str) else _sample(part, ctx))
    text = " ".join(words)
    return f"most {text}" if prim.kind == "query" else text


def reference(ctx: CheckContext | None = None) -> list[dict]:
    """One row per primitive (id, kind, pattern, display, doc, contexts, example, text) for the editor and `kcd rules`."""
    from interpreter.dsl.checker import compile_field

    ctx = ctx if ctx is not None else _default_context()
    rows: list[dict] = []
    for prim in registry.PRIMITIVES:
        example = sample_call(prim, ctx)
        field = next((f for f in _EXAMPLE_FIELDS if f in prim.contexts), "effect")
        node, issues = compile_field(example, field, ctx)
        if node is not None and not issues:
            text = render(node)
        else:  # no fruit or terrain known: fill the template with the example words as written
            values = {p.name: _sample(p, ctx)[0] for p in prim.parts if isinstance(p, Slot)}
            text = _capitalise(_expand(prim.template, values, {}))
        rows.append({
            "id": prim.id, "kind": prim.kind, "pattern": prim.pattern, "display": prim.display,
            "doc": prim.doc, "contexts": sorted(prim.contexts), "example": example, "text": text,
        })
    return rows
