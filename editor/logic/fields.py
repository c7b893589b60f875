"""An item's editable fields (every scalar leaf), with schema help, and conversion of typed input."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kcd.apps.editor.logic import yamlrt
from kcd.apps.editor.logic.catalog import ItemRef
from kcd.apps.editor.logic.schema_help import FieldSchema, field_schema


@dataclass(frozen=True)
class Field:
    """One editable value of an item."""

    path: tuple          # inside the item
    doc_path: tuple      # inside the file's document
    value: Any           # as written (plain Python)
    schema: FieldSchema
    line: int | None     # 1-based line of the key in the file

    @property
    def label(self) -> str:
        """Dotted name shown in the form (`side_a.track[3].benefit`)."""
        return yamlrt.format_path(self.path)

    @property
    def widget(self) -> str:
        """Which input suits the field: dsl, enum, bool, int, text."""
        if self.schema.dsl:
            return "dsl"
        if isinstance(self.value, bool) or "boolean" in self.schema.types:
            return "bool"
        if self.schema.enum and all(isinstance(v, (str, int)) for v in self.schema.enum):
            return "enum"
        if isinstance(self.value, int) or "integer" in self.schema.types:
            return "int"
        return "text"

    @property
    def nullable(self) -> bool:
        """True when the schema allows null (e.g. a Season card's `others: null` = no benefit)."""
        return "null" in self.schema.types or self.value is None


def item_fields(text: str, item: ItemRef) -> list[Field]:
    """Every scalar leaf of `item` in the file text, in written order, with what the schema says about it."""
    data = yamlrt.load(text)
    node = yamlrt.get_in(data, item.path)
    out: list[Field] = []

    def walk(value: Any, rel: tuple) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                walk(sub, rel + (str(key),))
        elif isinstance(value, list):
            for index, sub in enumerate(value):
                walk(sub, rel + (index,))
        else:
            doc_path = item.path + rel
            # the schema is addressed from the file's root, so it sees list items and nested sections alike
            out.append(Field(rel, doc_path, yamlrt.plain(value), field_schema(item.schema, doc_path),
                             yamlrt.line_of(data, doc_path)))

    walk(node, ())
    return out


def to_value(field: Field, raw: Any) -> Any:
    """Turn widget input into the value to write: empty DSL/text on a nullable field becomes null,
    numbers typed into a text field of an integer become ints."""
    if raw is None:
        return None
    if field.widget in ("dsl", "text"):
        text = str(raw)
        if not text.strip() and field.nullable:
            return None
        if field.widget == "text" and "integer" in field.schema.types and text.strip().lstrip("-").isdigit():
            return int(text.strip())
        return text
    if field.widget == "int":
        return int(raw)
    if field.widget == "bool":
        return bool(raw)
    return raw


def display(value: Any) -> str:
    """The text a text box starts with for a value (null shows as empty)."""
    return "" if value is None else str(value)


# --- human labels, sections and list sub-forms ----------------------------------------------------------------

# names designers read instead of the YAML keys (anything else: underscores to spaces, first letter capital)
WORDS = {
    "vp": "VP", "id": "Id", "on_place": "On place", "on_season_change": "At each season change",
    "extra_move": "Extra Move cost", "side_a": "Side A", "side_b": "Side B", "do": "Do", "when": "When",
    "play_as": "Plays as", "colour": "Colour", "requisites": "Printed power text",
}
# one element of a list, by the list's key
SINGULAR = {"track": "Track slot", "power": "Power", "cards": "Card", "patterns": "Pattern", "steps": "Step",
            "sections": "Section", "layouts": "Layout", "setups": "Setup", "nests": "Nest", "tracker": "Tracker slot",
            "hexes": "Hex", "rows": "Row"}
_HEX = "0123456789abcdefABCDEF"


def word(key: Any) -> str:
    """A designer's name for one key."""
    text = str(key)
    return WORDS.get(text, text.replace("_", " ").replace("-", " ").capitalize())


def element_name(list_key: Any, index: int, node: Any = None) -> str:
    """`Track slot 3`, `Card 2 (chopan-2)`: one list element for people (1-based, or the item's slot/id)."""
    name = SINGULAR.get(str(list_key), word(list_key) + " item")
    if isinstance(node, dict) and isinstance(node.get("slot"), int):
        return f"{name} {node['slot']}"
    label = f"{name} {index + 1}"
    if isinstance(node, dict) and node.get("id") is not None:
        label += f" ({node['id']})"
    return label


def human_path(path: tuple, item_node: Any = None) -> str:
    """`Side B › Track slot 4 › Benefit` for `side_b.track[3].benefit`."""
    parts: list[str] = []
    node = item_node
    for position, key in enumerate(path):
        child = None
        try:
            child = node[key] if node is not None else None
        except (KeyError, IndexError, TypeError):
            child = None
        if isinstance(key, int):
            list_key = path[position - 1] if position else "item"
            if parts and position:
                parts.pop()   # "Track › Track slot 4" reads as "Track slot 4"
            parts.append(element_name(list_key, key, child))
        else:
            parts.append(word(key))
        node = child
    return " › ".join(parts) or "(value)"


def is_colour(field: Field) -> bool:
    """A `#rrggbb` colour value (the colour picker edits it)."""
    value = field.value
    return (isinstance(value, str) and len(value) == 7 and value.startswith("#") and all(c in _HEX for c in value[1:])
            and str(field.path[-1]).lower() in ("colour", "color"))


def section_of(path: tuple, item_node: Any) -> str:
    """The tab a field goes in: its top-level container (`Side A`, `Cards`), else `General`."""
    if len(path) > 1 and isinstance(item_node, dict) and isinstance(item_node.get(path[0]), (dict, list)):
        return word(path[0])
    return "General"


def group_of(path: tuple) -> tuple:
    """The list element a field belongs to (its path up to the last list index), () for none."""
    last = max((i for i, key in enumerate(path) if isinstance(key, int)), default=-1)
    return path[: last + 1]


def list_paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Paths (inside an item) of the lists of mappings designers can grow, shrink and reorder (track slots,
    powers, cards), outermost first; an empty list counts when its name says it holds mappings."""
    out: list[tuple] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, list) and (value and all(isinstance(x, dict) for x in value)
                                            or not value and str(key) in SINGULAR):
                out.append(prefix + (str(key),))
            if isinstance(value, (dict, list)):
                out += list_paths(value, prefix + (str(key),))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += list_paths(value, prefix + (index,))
    return out


def blank_like(template: Any, source_note: str) -> Any:
    """A new list element shaped like `template`: the same keys, DSL and text emptied to null, numbers kept,
    a running `slot`/`id` continued by the caller; `source` says it was added in the editor."""
    if not isinstance(template, dict):
        return None
    out: dict[str, Any] = {}
    for key, value in template.items():
        if key == "source":
            out[key] = source_note
        elif isinstance(value, bool) or isinstance(value, (int, float)):
            out[key] = value
        elif isinstance(value, list):
            out[key] = []
        elif isinstance(value, dict):
            out[key] = blank_like(value, source_note)
        else:
            out[key] = None
    return out


def list_op(items: list, op: str, index: int, template: Any = None,
            source_note: str = "designed: added in the editor") -> list:
    """A new list after `add` (after `index`, -1 for the end), `remove`, `up` or `down` of element `index`;
    `slot` numbers are renumbered 1.. so a track stays a track."""
    out = [dict(x) if isinstance(x, dict) else x for x in items]
    if op == "add":
        shape = template if template is not None else (out[index] if 0 <= index < len(out) else (out[-1] if out else None))
        new = blank_like(shape, source_note)
        if isinstance(new, dict) and "id" in new:
            new["id"] = f"new-{len(out) + 1}"
        out.insert(len(out) if index < 0 else index + 1, new)
    elif op == "remove" and 0 <= index < len(out):
        del out[index]
    elif op == "up" and 0 < index < len(out):
        out[index - 1], out[index] = out[index], out[index - 1]
    elif op == "down" and 0 <= index < len(out) - 1:
        out[index + 1], out[index] = out[index], out[index + 1]
    if out and all(isinstance(x, dict) and isinstance(x.get("slot"), int) for x in out if isinstance(x, dict)) \
            and any(isinstance(x, dict) and "slot" in x for x in out):
        for number, element in enumerate(out, start=1):
            if isinstance(element, dict):
                element["slot"] = number
    return out
