"""An item's editable fields (every scalar leaf), with schema help, and conversion of typed input."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from editor.logic import yamlrt
from editor.logic.catalog import ItemRef
from editor.logic.schema_help import FieldSchema, field_schema


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
