"""Every content item of a content folder (base and every edition and mod), found by reading the files."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from kcd.editor.logic import yamlrt
from kcd.editor.logic.confine import inside

# file name -> (schema name, [(kind, path of the items inside the file)]). A path to a list holds one item per
# list element; a path to a mapping is one item; `None` means "each top-level section is an item" (game.yaml).
FILE_KINDS: dict[str, tuple[str, list[tuple[str, tuple | None]]]] = {
    "game.yaml": ("game", [("game", None)]),
    "island.yaml": ("island", [("sections", ("sections",)), ("layouts", ("layouts",)), ("setups", ("setups",))]),
    "action_cards.yaml": ("action_cards", [("action_cards", ())]),
    "nests.yaml": ("nests", [("nests", ())]),
    "leaders.yaml": ("leaders", [("leaders", ())]),
    "season_cards.yaml": ("season_cards", [("season_cards", ())]),
    "turn_order.yaml": ("turn_order", [("turn_order_nests", ("nests",)), ("tracker_slots", ("tracker",))]),
    "solo.yaml": ("solo", [("solo_cards", ("cards",)), ("solo_marker", ("marker",)), ("solo_patterns", ("patterns",))]),
    "pack.yaml": ("pack", [("pack", ())]),
}
FLOCK_SCHEMA = "flock"

# What the Content page lists, in the order designers think of them (every content kind).
KIND_LABELS: dict[str, str] = {
    "action_cards": "Action cards", "nests": "Nests", "leaders": "Leaders", "season_cards": "Season cards",
    "flocks": "Flocks", "turn_order_nests": "Turn order nests", "tracker_slots": "Turn tracker slots",
    "sections": "Island sections", "layouts": "Island layouts", "setups": "First-game setups",
    "solo_cards": "Solo cards", "solo_marker": "Solo marker", "solo_patterns": "Solo patterns",
    "game": "Game rules (game.yaml)", "pack": "Pack", "file": "File with a YAML error",
}


@dataclass(frozen=True)
class Pack:
    """A folder of content: `base`, an edition or a mod."""

    id: str
    kind: str  # base | edition | mod
    folder: str  # relative to the content root


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

    @property
    def key(self) -> str:
        """A stable key for session state: `file#kind/id`."""
        return f"{self.rel}#{self.kind}/{self.id}"

    @property
    def link(self) -> str:
        """The deep-link form (`?item=season_cards/most-nests`; `@pack` for an edition's or mod's item)."""
        return f"{self.kind}/{self.id}" + ("" if self.pack_kind == "base" else f"@{self.pack}")


def packs(root: Path) -> list[Pack]:
    """base, then editions, then mods (each sorted by id), as folders found on disk."""
    out = [Pack("base", "base", "base")] if (Path(root) / "base").is_dir() else []
    for folder, kind in (("editions", "edition"), ("mods", "mod")):
        parent = Path(root) / folder
        if parent.is_dir():
            for sub in sorted(p for p in parent.iterdir() if p.is_dir() and not p.name.startswith(".")):
                out.append(Pack(sub.name, kind, f"{folder}/{sub.name}"))
    return out


def pack_of(rel: str) -> tuple[str, str]:
    """(pack id, pack kind) of a content-relative file path."""
    parts = rel.split("/")
    if parts[0] == "base":
        return "base", "base"
    if parts[0] in ("editions", "mods") and len(parts) > 2:
        return parts[1], "edition" if parts[0] == "editions" else "mod"
    return parts[0], "other"


def overlays_for(rel: str) -> tuple[str, ...]:
    """The overlays to load so a file is seen in its context: () for base, (pack,) for an edition/mod file."""
    pack, kind = pack_of(rel)
    return () if kind == "base" else (pack,)


def schema_of(rel: str) -> str | None:
    """The schema name for a content file, from its name (None for files the editor does not know)."""
    name = rel.rsplit("/", 1)[-1]
    if "/flocks/" in f"/{rel}" and name.endswith(".yaml"):
        return FLOCK_SCHEMA
    entry = FILE_KINDS.get(name)
    return entry[0] if entry else None


def content_files(root: Path) -> list[str]:
    """Every content YAML file of every pack, content-relative, in pack order."""
    out: list[str] = []
    for pack in packs(root):
        folder = Path(root) / pack.folder
        names = sorted(p.name for p in folder.glob("*.yaml"))
        out += [f"{pack.folder}/{n}" for n in names]
        out += [f"{pack.folder}/flocks/{p.name}" for p in sorted((folder / "flocks").glob("*.yaml"))]
    return out


def _item_id(node: Any, fallback: str) -> str:
    """The id of an item: its `id`, else `slot`/`seat`/`section`, else the fallback."""
    if isinstance(node, dict):
        for key in ("id", "slot", "seat", "section"):
            if key in node and node[key] is not None:
                return str(node[key])
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
    """The items written in one file's text (no cross-file information)."""
    schema = schema_of(rel)
    if schema is None:
        return []
    data = yamlrt.load(text)
    pack, pack_kind = pack_of(rel)
    found: list[tuple[str, str, tuple, Any]] = []
    if schema == FLOCK_SCHEMA:
        found.append(("flocks", _item_id(data, rel.rsplit("/", 1)[-1][:-5]), (), data))
    else:
        for kind, where in FILE_KINDS[rel.rsplit("/", 1)[-1]][1]:
            if where is None:
                if isinstance(data, CommentedMap):
                    found += [(kind, str(k), (k,), v) for k, v in data.items()]
                continue
            node = yamlrt.get_in_or_none(data, where)
            if isinstance(node, CommentedSeq) and all(isinstance(x, dict) for x in node):
                found += [(kind, _item_id(x, str(i)), where + (i,), x) for i, x in enumerate(node)]
            elif node is not None:
                found.append((kind, _item_id(node, kind if where else pack), where, node))
    total = max(1, text.count("\n") + (0 if text.endswith("\n") else 1))
    starts = [(_line(data, path) if path else 1) for _, _, path, _ in found]
    out = []
    for index, (kind, item_id, path, node) in enumerate(found):
        later = sorted(s for s in starts if s > starts[index])
        end = later[0] - 1 if later else total
        op = node.get("op") if isinstance(node, dict) else None
        out.append(ItemRef(rel, schema, kind, item_id, path, pack, pack_kind, starts[index], end,
                           str(op) if op else None, _label(node)))
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
        # game.yaml in an overlay is always a deep-merge patch (SPEC.md "Overlay packs").
        op = item.op or ("patch" if item.kind == "game" else None)
        if op in ("replace", "patch") and (item.kind, item.id) in base_keys:
            changed_by.setdefault((item.kind, item.id), []).append(f"{item.pack} ({op})")
    out = []
    for item in items:
        if item.pack_kind == "base":
            out.append(_replace(item, overrides=tuple(changed_by.get((item.kind, item.id), ()))))
        elif item.kind != "pack" and (item.op in ("replace", "patch") or item.kind == "game") \
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
        "op": i.op or ("patch" if i.overridden_target and i.kind == "game" else ("add" if i.pack_kind != "base" else "")),
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
