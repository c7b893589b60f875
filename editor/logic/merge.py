"""Reload from disk without losing anything: a three-way merge, field by field, of the designer's edits (made on
the text as loaded) with the file as it is on disk now. The designer's value wins only on fields the designer
changed; fields only the other side changed take the disk's value; a field both changed to different values is
a Clash to be chosen by the designer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kcd.apps.editor.logic import yamlrt

_MISSING = object()


@dataclass(frozen=True)
class Clash:
    """A field both the designer and someone else changed: the value as loaded, the designer's, the disk's."""

    path: tuple
    base: Any
    mine: Any
    theirs: Any

    @property
    def label(self) -> str:
        """The field's dotted path."""
        return yamlrt.format_path(self.path)


@dataclass(frozen=True)
class Merged:
    """The result of a reload: edits to keep (re-keyed to the disk's layout), fields left to choose, and the
    edits dropped because the disk already holds the designer's value or the field is gone."""

    edits: dict[tuple, Any]
    clashes: list[Clash]
    same: list[tuple]
    gone: list[tuple]


def _value(data: Any, path: tuple) -> Any:
    """Plain value at path, or _MISSING."""
    try:
        return yamlrt.plain(yamlrt.get_in(data, path))
    except yamlrt.EditError:
        return _MISSING


def remap(path: tuple, old: Any, new: Any) -> tuple | None:
    """The same field's path in `new`: a list index whose item has an `id` (or `slot`) follows that id when
    items were inserted, removed or moved; None when the item is gone."""
    out: list = []
    node_old, node_new = old, new
    for key in path:
        if isinstance(key, int) and isinstance(node_old, list) and isinstance(node_new, list):
            if not 0 <= key < len(node_old):
                return None
            item = node_old[key]
            ident = next(((k, item[k]) for k in ("id", "slot", "seat") if isinstance(item, dict) and k in item), None)
            if ident is not None:
                matches = [i for i, x in enumerate(node_new) if isinstance(x, dict) and x.get(ident[0]) == ident[1]]
                if not matches:
                    return None
                key = matches[0]
            elif key >= len(node_new):
                return None
        try:
            node_old = node_old[path[len(out)]] if node_old is not None else None
        except (KeyError, IndexError, TypeError):
            node_old = None
        try:
            node_new = node_new[key]
        except (KeyError, IndexError, TypeError):
            return None
        out.append(key)
    return tuple(out)


def merge(base_text: str, edits: dict[tuple, Any], disk_text: str) -> Merged:
    """Re-base the designer's `edits` (made on `base_text`) onto `disk_text`, field by field."""
    base = yamlrt.plain(yamlrt.load(base_text))
    disk = yamlrt.plain(yamlrt.load(disk_text))
    kept: dict[tuple, Any] = {}
    clashes: list[Clash] = []
    same: list[tuple] = []
    gone: list[tuple] = []
    for path, mine in edits.items():
        target = remap(path, base, disk)
        if target is None or (target and _value(disk, target[:-1]) is _MISSING):
            gone.append(path)
            continue
        was, now = _value(base, path), _value(disk, target)
        if now == mine and type(now) is type(mine):
            same.append(path)             # the disk already says what the designer typed
        elif now == was or (now is _MISSING and was is _MISSING):
            kept[target] = mine           # only the designer changed it: the designer's value wins
        else:
            clashes.append(Clash(target, None if was is _MISSING else was, mine, None if now is _MISSING else now))
    return Merged(kept, clashes, same, gone)
