"""Edit buffers: what the designer typed, kept per file + item field until saved or discarded."""
from __future__ import annotations

import json
from typing import Any, MutableMapping

from kcd.apps.editor.logic import yamlrt


def key(rel: str, doc_path: tuple) -> str:
    """The buffer key of one field of one file (stable across reruns and pages)."""
    return json.dumps([rel, list(doc_path)])


def put(buffers: MutableMapping[str, Any], rel: str, doc_path: tuple, value: Any, written: Any) -> None:
    """Record a typed value; typing the value back to what the file holds drops the buffer."""
    k = key(rel, doc_path)
    if value == written and type(value) is type(written):
        buffers.pop(k, None)
    else:
        buffers[k] = value


def get(buffers: MutableMapping[str, Any], rel: str, doc_path: tuple, default: Any) -> Any:
    """The typed value of a field, or `default` (what the file holds) when nothing was typed."""
    return buffers.get(key(rel, doc_path), default)


def edits_for(buffers: MutableMapping[str, Any], rel: str) -> dict[tuple, Any]:
    """All pending edits of one file as `doc path -> value`."""
    out = {}
    for k, value in buffers.items():
        try:
            file, path = json.loads(k)
        except (ValueError, TypeError):
            continue
        if file == rel:
            out[tuple(path)] = value
    return out


def files_with_edits(buffers: MutableMapping[str, Any]) -> list[str]:
    """Files that have unsaved edits."""
    out = []
    for k in buffers:
        try:
            file = json.loads(k)[0]
        except (ValueError, TypeError, IndexError):
            continue
        if file not in out:
            out.append(file)
    return out


def clear(buffers: MutableMapping[str, Any], rel: str) -> None:
    """Drop every pending edit of one file (after a save, or on discard)."""
    for k in [k for k in buffers if k.startswith(json.dumps([rel])[:-1] + ",")]:
        buffers.pop(k, None)


def ordered(edits: dict[tuple, Any]) -> dict[tuple, Any]:
    """Edits in the order they must be applied: a whole list (added, removed or moved elements) before the
    fields inside it."""
    return dict(sorted(edits.items(), key=lambda kv: len(kv[0])))


def edited_text(buffers: MutableMapping[str, Any], rel: str, text: str) -> str:
    """The file text with its pending edits applied (round-trip, comments kept)."""
    return yamlrt.apply_edits(text, ordered(edits_for(buffers, rel)))


def set_all(buffers: MutableMapping[str, Any], rel: str, edits: dict[tuple, Any]) -> None:
    """Replace every pending edit of one file (after a reload merge or reopening a draft)."""
    clear(buffers, rel)
    for path, value in edits.items():
        buffers[key(rel, path)] = value


def drop_under(buffers: MutableMapping[str, Any], rel: str, prefix: tuple) -> None:
    """Forget the edits of fields inside `prefix` (folded into a whole-list edit)."""
    for path in [p for p in edits_for(buffers, rel) if len(p) > len(prefix) and p[: len(prefix)] == prefix]:
        buffers.pop(key(rel, path), None)
