"""Every content item of a content folder (base and every edition and mod), found by reading the files.

Which packs there are, which files a pack holds and where each kind's items sit in a file are the loader's
(`kcd.content.layout`, `kcd.content.loader.content_packs`): the editor lists what the loader loads.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcd.content import layout
from kcd.content.layout import FileSpec
from kcd.content.loader import content_packs
from kcd.content.schema import schemas_for
from kcd.apps.editor.logic import yamlrt
from kcd.apps.editor.logic.confine import inside

# What the Content page lists, in the order designers think of them (every content kind, and the kinds the
# deep-merged sections of game.yaml, island.yaml, turn_order.yaml and solo.yaml are listed as).
KIND_LABELS: dict[str, str] = {
    "action_cards": "Action cards", "nests": "Nests", "leaders": "Leaders", "season_cards": "Season cards",
    "flocks": "Flocks", "turn_order_nests": "Turn order nests", "tracker_slots": "Turn tracker slots",
    "sections": "Island sections", "layouts": "Island layouts", "setups": "First-game setups",
    "solo_cards": "Solo cards", "solo": "Solo rules (solo.yaml)",
    "game": "Game rules (game.yaml)", "island": "Island rules (island.yaml)",
    "turn_order": "Turn order rules (turn_order.yaml)", "pack": "Pack", "file": "File with a YAML error",
}


@dataclass(frozen=True)
class ItemRef:
    """One content item as written in one file."""

    rel: str                 # file, relative to the content root
    schema: str              # schema name of the file (nests, flock, ...)
    kind: str                # item kind (nests, flocks, turn_order_nests, ...)
    id: str
    path: tuple              # where the item sits in the file's document
    pack: str
    pack_kind: str
    line: int                # first line of the item (1-based)
    end_line: int            # last line of the item
    op: str | None = None    # overlay op as written (None = add / base item)
    label: str = ""
    overrides: tuple[str, ...] = field(default=())    # base item: packs that replace/patch it
    overridden_target: str | None = None             # overlay item: "base" when it replaces/patches an item
    section: bool = False    # a deep-merged section (game.yaml's `feed`, solo.yaml's `marker`): an overlay patches it

    @property
    def key(self) -> str:
        """A stable key for session state: `file#kind/id`."""
        return f"{self.rel}#{self.kind}/{self.id}"

    @property
    def link(self) -> str:
        """The deep-link form (`?item=season_cards/most-nests`; `@pack` for an edition's or mod's item)."""
        return f"{self.kind}/{self.id}" + ("" if self.pack_kind == "base" else f"@{self.pack}")


def pack_of(rel: str) -> tuple[str, str]:
    """(pack id, pack kind) of a content-relative file path."""
    pack, kind, _ = layout.split(rel)
    return pack, kind


def overlays_for(rel: str) -> tuple[str, ...]:
    """The overlays to load so a file is seen in its context: () for base, (pack,) for an edition/mod file."""
    pack, kind = pack_of(rel)
    return () if kind == "base" else (pack,)


def spec_of(rel: str) -> FileSpec | None:
    """The loader's layout entry of a content-relative file (None for a file that is not content)."""
    return layout.spec_of(layout.split(rel)[2])


def holds(rel: str, kind: str) -> bool:
    """True when content file `rel` holds items of `kind` (`flocks`: a file of flocks/)."""
    spec = spec_of(rel)
    return spec is not None and kind in ((spec.kind,) + tuple(k for _, k in spec.groups))


def schema_of(rel: str) -> str | None:
    """The schema name for a content file (`nests`, `flock`): its layout entry's first schema that is shipped."""
    spec = spec_of(rel)
    schemas = schemas_for()
    name = next((n for n in spec.schema_names if schemas.has(n)), None) if spec is not None else None
    return name.removesuffix(".schema.json") if name else None


def content_files(root: Path) -> list[str]:
    """Every content file of every pack the loader finds, content-relative, in pack order and each pack's load
    order."""
    base = Path(root).resolve()
    out: list[str] = []
    for pack in content_packs(base):
        folder = pack.path.relative_to(base).as_posix()
        out += [f"{folder}/{rel}" for rel in layout.pack_files(pack.path)]
    return out


def _item_id(kind: str, node: Any, fallback: str) -> str:
    """The id of an item as the loader reads it (its `id`; a tracker slot's `slot` without one), else the
    fallback (an item still being written)."""
    if isinstance(node, dict):
        found = node.get(layout.id_key(kind, node))
        if found is not None and not isinstance(found, (dict, list)):
            return str(found)
    return fallback


def _label(node: Any) -> str:
    """A short description for the table (name, type, objective ...)."""
    if not isinstance(node, dict):
        return ""
    if "name" not in node and isinstance(node.get("type"), str):
        # items told apart by more than their type: three Wildcards, two Nests of each type
        if isinstance(node.get("benefit"), str):
            return f"{node['type']}: {node['benefit']}"
        if isinstance(node.get("row"), int):
            return f"{node['type']}, row {node['row']}"
    for key in ("name", "objective", "type", "effect", "setup"):
        if key in node and isinstance(node[key], (str, int)):
            return str(node[key])
    return ""


def _line(data: Any, path: tuple) -> int:
    """1-based line of the item at `path` (the document start for ())."""
    return yamlrt.line_of(data, path) or 1


def items_in_text(rel: str, text: str) -> list[ItemRef]:
    """The items written in one file's text (no cross-file information), where the layout table puts them."""
    spec, schema = spec_of(rel), schema_of(rel)
    if spec is None or schema is None:
        return []
    data = yamlrt.load(text)
    pack, pack_kind = pack_of(rel)
    found: list[tuple[str, str, tuple, Any, bool]] = []
    for entry in layout.entries(spec, data):
        if entry.section:
            item_id = str(entry.path[-1])
        elif not entry.path:
            # a file that is one item: a flock by its file name, pack.yaml by its pack
            item_id = _item_id(entry.kind, entry.node, rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
                               if spec.shape == "per-file" else pack)
        else:
            item_id = _item_id(entry.kind, entry.node, str(entry.path[-1]))
        found.append((entry.kind, item_id, entry.path, entry.node, entry.section))
    total = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
    starts = [(_line(data, path) if path else 1) for _, _, path, _, _ in found]
    out = []
    for index, (kind, item_id, path, node, section) in enumerate(found):
        later = sorted(s for s in starts if s > starts[index])
        end = later[0] - 1 if later else total
        op = node.get("op") if isinstance(node, dict) else None
        out.append(ItemRef(rel, schema, kind, item_id, path, pack, pack_kind, starts[index], end,
                           str(op) if op else None, _label(node), section=section))
    return out


def broken_item(rel: str) -> ItemRef:
    """A stand-in row for a file that cannot be parsed, so its items are not silently missing: opening it
    opens the file's raw text to fix."""
    pack, pack_kind = pack_of(rel)
    return ItemRef(rel, schema_of(rel) or "", "file", rel.rsplit("/", 1)[-1], (), pack, pack_kind, 1, 1,
                   label="YAML syntax error: its items cannot be read until it is fixed")


def catalog(root: Path) -> tuple[list[ItemRef], list[str]]:
    """All items of all packs with overlay links filled in (a file that cannot be parsed is one `file` row),
    and the content-relative paths of the files that could not be read."""
    items: list[ItemRef] = []
    unreadable: list[str] = []
    for rel in content_files(root):
        try:
            items += items_in_text(rel, inside(root, rel).read_text(encoding="utf-8"))
        except (yamlrt.EditError, OSError, UnicodeDecodeError):
            unreadable.append(rel)
            items.append(broken_item(rel))
    return _link_overlays(items), unreadable


def _link_overlays(items: list[ItemRef]) -> list[ItemRef]:
    """Mark which overlay items replace/patch a base item and, on base items, which packs change them."""
    base_keys = {(i.kind, i.id) for i in items if i.pack_kind == "base"}
    changed_by: dict[tuple[str, str], list[str]] = {}
    for item in items:
        if item.pack_kind == "base" or item.kind == "pack":
            continue
        # a deep-merged section (game.yaml's) in an overlay is always a patch (SPEC.md "Overlay packs").
        op = item.op or ("patch" if item.section else None)
        if op in ("replace", "patch") and (item.kind, item.id) in base_keys:
            changed_by.setdefault((item.kind, item.id), []).append(f"{item.pack} ({op})")
    out = []
    for item in items:
        if item.pack_kind == "base":
            out.append(_replace(item, overrides=tuple(changed_by.get((item.kind, item.id), ()))))
        elif item.kind != "pack" and (item.op in ("replace", "patch") or item.section) \
                and (item.kind, item.id) in base_keys:
            out.append(_replace(item, overridden_target="base"))
        else:
            out.append(item)
    return out


def _replace(item: ItemRef, **changes: Any) -> ItemRef:
    """A copy of item with fields changed."""
    from dataclasses import replace
    return replace(item, **changes)


def find(items: list[ItemRef], key: str) -> ItemRef | None:
    """The item with that `key` or deep `link` (see ItemRef.key, ItemRef.link); a link without `@pack` means
    the base item, else the first one of that kind and id."""
    if not key:
        return None
    found = next((i for i in items if i.key == key or i.link == key), None)
    if found is None and "@" not in key and "#" not in key:
        found = next((i for i in items if f"{i.kind}/{i.id}" == key), None)
    return found


def item_at(items: list[ItemRef], rel: str, line: int) -> ItemRef | None:
    """The innermost item of file `rel` whose lines contain `line` (for linking a problem to its item)."""
    hits = [i for i in items if i.rel == rel and i.line <= line <= i.end_line]
    return min(hits, key=lambda i: i.end_line - i.line) if hits else None


def search(items: list[ItemRef], kinds: list[str] | None = None, text: str = "") -> list[ItemRef]:
    """Items of the given kinds whose id, label, pack or file contain `text` (case-insensitive)."""
    needle = text.strip().lower()
    out = []
    for item in items:
        if kinds and item.kind not in kinds:
            continue
        hay = " ".join((item.id, item.label, item.pack, item.rel, item.kind)).lower()
        if needle and needle not in hay:
            continue
        out.append(item)
    return out


def rows(items: list[ItemRef]) -> list[dict[str, Any]]:
    """Table rows for the Content page."""
    return [{
        "kind": KIND_LABELS.get(i.kind, i.kind), "id": i.id, "label": i.label, "pack": i.pack,
        "op": i.op or ("patch" if i.overridden_target and i.section else ("add" if i.pack_kind != "base" else "")),
        "overridden by": ", ".join(i.overrides), "file": f"{i.rel}:{i.line}",
    } for i in items]


def clicked_row(selection: Any) -> int | None:
    """The table row a click chose: a selected row, else the row of a selected cell (a click anywhere on a row
    selects its cell), else None."""
    rows = list(getattr(selection, "rows", None) or (selection.get("rows") if isinstance(selection, dict) else []) or [])
    if rows:
        return int(rows[0])
    cells = list(getattr(selection, "cells", None) or (selection.get("cells") if isinstance(selection, dict) else [])
                 or [])
    return int(cells[0][0]) if cells else None
