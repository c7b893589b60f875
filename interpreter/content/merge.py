"""Merging base content with overlay packs (add / replace / patch) while remembering where each value came from.

Every merged logical file keeps "mounts": merged path prefix -> (document, path in that document), so a
schema, DSL or cross-file problem found in the merged data is reported in the file that wrote the value.
Merges never mutate the parsed documents (they are cached between validations).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kcd.content.layout import FILES, FileSpec, entries, id_key, spec_for
from kcd.content.model import Origin
from kcd.content.schema import did_you_mean
from kcd.content.yamlsafe import Path as YamlPath, YamlDoc
from kcd.core.diagnostics import Diagnostic

OPS = ("add", "replace", "patch")
_ID_RE = re.compile(r"[a-z0-9][a-z0-9-]*")


@dataclass
class SourceFile:
    """A parsed content file of one pack."""

    pack: str       # "base" or the pack id
    rel: str        # path relative to the pack folder, e.g. "nests.yaml", "flocks/red.yaml"
    doc: YamlDoc


@dataclass
class Merged:
    """The merged data of one logical file, with provenance mounts."""

    spec: FileSpec
    data: Any
    mounts: dict[YamlPath, tuple[YamlDoc, YamlPath]] = field(default_factory=dict)
    # Overlay bookkeeping (an index, so each overlay item costs O(1), not a scan of the list or the mounts):
    # item list path -> {item id: index in the merged list}, and item path -> mount keys at or under it.
    positions: dict[YamlPath, dict[str, int]] = field(default_factory=dict)
    item_mounts: dict[YamlPath, set[YamlPath]] = field(default_factory=dict)

    def mount_item(self, item: YamlPath, path: YamlPath, value: tuple[YamlDoc, YamlPath]) -> None:
        """Record that `value` wrote the merged value at `path`, which lies at or under the list item `item`."""
        self.mounts[path] = value
        self.item_mounts.setdefault(item, set()).add(path)

    def unmount_item(self, item: YamlPath) -> None:
        """Forget every mount at or under the list item `item` (it is being replaced whole)."""
        for path in self.item_mounts.pop(item, ()):
            self.mounts.pop(path, None)

    def position(self, prefix: YamlPath, items: list[Any], kind: str) -> dict[str, int]:
        """Item id -> index of the item list at `prefix` (built once, then kept up to date by the merger)."""
        index = self.positions.get(prefix)
        if index is None:
            index = {}
            for i, it in enumerate(items):
                if isinstance(it, dict):
                    index.setdefault(str(it.get(id_key(kind, it))), i)
            self.positions[prefix] = index
        return index

    def where(self, path: YamlPath) -> tuple[YamlDoc, YamlPath] | None:
        """The document and document path that wrote the merged value at `path` (longest mount prefix)."""
        path = tuple(path)
        for cut in range(len(path), -1, -1):
            found = self.mounts.get(path[:cut])
            if found is not None:
                doc, prefix = found
                return doc, prefix + path[cut:]
        return None

    def sub(self, prefix: YamlPath) -> "Merged":
        """The value at `prefix` as a Merged of its own (mounts re-rooted)."""
        data = self.data
        for part in prefix:
            data = data[part]
        mounts = {m[len(prefix):]: v for m, v in self.mounts.items() if m[:len(prefix)] == prefix}
        if () not in mounts:
            found = self.where(prefix)
            if found is not None:
                mounts[()] = found
        return Merged(self.spec, data, mounts)

    def diagnostic(self, code: str, message: str, path: YamlPath, *, key: bool = False,
                   hint: str | None = None, severity: str = "error") -> Diagnostic | None:
        """A diagnostic located where the merged value at `path` was written."""
        found = self.where(path)
        if found is None:
            return None
        doc, doc_path = found
        return doc.diagnostic(code, message, doc_path, key=key, hint=hint, severity=severity)


@dataclass
class ItemState:
    """Bookkeeping of one item while packs are applied."""

    kind: str
    id: str
    origin: Origin
    overrides: list[str] = field(default_factory=list)
    replaced_by: tuple[str, YamlDoc, YamlPath] | None = None
    touched: dict[YamlPath, tuple[str, YamlDoc, YamlPath]] = field(default_factory=dict)


@dataclass
class MergeResult:
    """All logical files merged, item bookkeeping and the problems found while merging."""

    files: dict[str, Merged]
    items: dict[tuple[str, str], ItemState]
    diagnostics: list[Diagnostic]


def _loc_line(doc: YamlDoc, path: YamlPath) -> int:
    pos = doc.pos(path)
    return pos.line if pos else 1


def _where_text(doc: YamlDoc, path: YamlPath) -> str:
    from kcd.core.diagnostics import display_path

    pos = doc.pos(path)
    return f"{display_path(doc.file)}:{pos.line}:{pos.col}" if pos else display_path(doc.file)


def _leaf_paths(patch: Any, base: Any, prefix: YamlPath = ()) -> list[YamlPath]:
    """Paths a deep-merge patch sets: recurse where both sides are mappings, else the path itself."""
    if isinstance(patch, dict) and isinstance(base, dict):
        out: list[YamlPath] = []
        for key, value in patch.items():
            out.extend(_leaf_paths(value, base.get(key), prefix + (key,)))
        return out or [prefix]
    return [prefix]


def deep_merge(base: Any, patch: Any) -> Any:
    """`patch` merged into `base`: mappings merge key by key, lists and scalars replace (new objects only)."""
    if isinstance(base, dict) and isinstance(patch, dict):
        merged = dict(base)
        for key, value in patch.items():
            merged[key] = deep_merge(base.get(key), value) if key in base else value
        return merged
    return patch


def _overlaps(a: YamlPath, b: YamlPath) -> bool:
    n = min(len(a), len(b))
    return a[:n] == b[:n]


class Merger:
    """Applies base then each pack's files, in order, to produce merged logical files."""

    def __init__(self) -> None:
        self.files: dict[str, Merged] = {}
        self.items: dict[tuple[str, str], ItemState] = {}
        self.diagnostics: list[Diagnostic] = []
        # per logical mapping file: leaf path -> (pack, doc, path) of the pack that patched it
        self._mapping_touched: dict[str, dict[YamlPath, tuple[str, YamlDoc, YamlPath]]] = {}

    def result(self) -> MergeResult:
        """The merge outcome."""
        return MergeResult(self.files, self.items, self.diagnostics)

    def _add(self, diag: Diagnostic | None) -> None:
        if diag is not None:
            self.diagnostics.append(diag)

    # --- base -------------------------------------------------------------------------------------
    def add_base(self, sources: list[SourceFile]) -> None:
        """Start from the base pack's files."""
        by_rel = {s.rel: s for s in sources}
        for spec in FILES:
            if spec.shape == "per-file":
                flocks = sorted((s for s in sources if s.rel.startswith("flocks/")), key=lambda s: s.rel)
                merged = Merged(spec, [])
                for source in flocks:
                    self._per_file_add(merged, source, source.doc.data, is_base=True)
                self.files[spec.name] = merged
                continue
            found = by_rel.get(spec.name)
            if found is None:
                continue
            data = found.doc.data
            merged = Merged(spec, data, {(): (found.doc, ())})
            self.files[spec.name] = merged
            seen: dict[str, dict[str, YamlPath]] = {}   # item kind -> id -> where first written
            for entry in entries(spec, data):
                if not entry.section:
                    self._register_base_item(found, entry.kind, entry.node, entry.path,
                                             seen.setdefault(entry.kind, {}))

    def _register_base_item(self, source: SourceFile, kind: str, item: Any, path: YamlPath,
                            seen: dict[str, YamlPath]) -> None:
        if not isinstance(item, dict):
            return
        key = id_key(kind, item)
        if key not in item or isinstance(item[key], (dict, list)):
            return
        item_id = str(item[key])
        if item_id in seen:
            first = seen[item_id]
            self._add(source.doc.diagnostic(
                "id-duplicate", f"duplicate {kind} id `{item_id}`", path + (key,),
                hint=f"first defined at {_where_text(source.doc, first)}"))
            return
        seen[item_id] = path + (key,)
        self.items[(kind, item_id)] = ItemState(kind, item_id, Origin(source.pack, source.doc.file,
                                                                      _loc_line(source.doc, path)))

    # --- overlays ---------------------------------------------------------------------------------
    def add_pack(self, sources: list[SourceFile]) -> None:
        """Apply one overlay pack's files (each source names its pack)."""
        for source in sources:
            spec = spec_for(source.rel)
            if spec is None:
                continue
            data = source.doc.data
            if spec.shape == "per-file":
                merged = self.files.setdefault("flocks/", Merged(spec, []))
                self._per_file_overlay(merged, source, data)
            elif spec.shape == "mapping":
                self._mapping_patch(spec, source, (), data)
            elif spec.shape == "list":
                self._list_overlay(spec, source, (), data, spec.kind or "")
            else:
                if not isinstance(data, dict):
                    self._add(source.doc.diagnostic("schema", f"`{source.rel}` must be a mapping", ()))
                    continue
                group_keys = dict(spec.groups)
                for key, value in data.items():
                    if key in group_keys:
                        self._list_overlay(spec, source, (key,), value, group_keys[key])
                    else:
                        self._mapping_patch(spec, source, (key,), value)

    def _merged(self, spec: FileSpec, source: SourceFile) -> Merged:
        if spec.name not in self.files:
            empty: Any = {} if spec.shape in ("mapping", "groups") else []
            self.files[spec.name] = Merged(spec, empty, {(): (source.doc, ())})
        return self.files[spec.name]

    def _mapping_patch(self, spec: FileSpec, source: SourceFile, prefix: YamlPath, patch: Any) -> None:
        """Deep-merge a patch at `prefix` of a mapping-shaped file (game.yaml, solo.yaml marker...)."""
        merged = self._merged(spec, source)
        base = merged.data
        for part in prefix:
            base = base.get(part) if isinstance(base, dict) else None
        touched = self._mapping_touched.setdefault(spec.name, {})
        for leaf in _leaf_paths(patch, base):
            full = prefix + leaf
            for other, (other_pack, other_doc, other_path) in touched.items():
                if other_pack != source.pack and _overlaps(other, full):
                    self._add(source.doc.diagnostic(
                        "overlay-conflict",
                        f"`{'.'.join(str(p) for p in full) or spec.name}` is also patched by pack `{other_pack}`",
                        full, key=bool(full),
                        hint=f"`{other_pack}` sets it at {_where_text(other_doc, other_path)}; "
                             "apply only one of the packs or make them agree"))
                    break
            touched[full] = (source.pack, source.doc, full)
            merged.mounts[full] = (source.doc, full)
        merged.data = _set_in(merged.data, prefix, deep_merge(_get_in(merged.data, prefix), patch))

    def _list_overlay(self, spec: FileSpec, source: SourceFile, prefix: YamlPath, items: Any, kind: str) -> None:
        """Apply an overlay's list of items (each with optional `op`) to an item list."""
        if not isinstance(items, list):
            self._add(source.doc.diagnostic("schema", f"`{prefix[-1] if prefix else source.rel}` must be a list",
                                            prefix))
            return
        merged = self._merged(spec, source)
        found = _get_in(merged.data, prefix) if prefix else merged.data
        current = list(found) if isinstance(found, list) else []
        ids = merged.position(prefix, current, kind)
        seen: dict[str, YamlPath] = {}
        for index, item in enumerate(items):
            path = prefix + (index,)
            if not isinstance(item, dict):
                self._add(source.doc.diagnostic("schema", f"each `{kind}` entry must be a mapping", path))
                continue
            key = id_key(kind, item)
            op = item.get("op", "add")
            if op not in OPS:
                guess = did_you_mean(str(op), OPS)
                self._add(source.doc.diagnostic(
                    "schema", f"`op` must be add, replace or patch, got `{op}`", path + ("op",),
                    hint=f"did you mean `{guess}`?" if guess else None))
                continue
            if key not in item:
                self._add(source.doc.diagnostic("schema", f"missing field `{key}` in overlay item", path, key=True))
                continue
            item_id = str(item[key])
            if item_id in seen:
                self._add(source.doc.diagnostic("id-duplicate", f"duplicate {kind} id `{item_id}`", path + (key,),
                                                hint=f"first defined at {_where_text(source.doc, seen[item_id])}"))
                continue
            seen[item_id] = path + (key,)
            body = {k: v for k, v in item.items() if k != "op"}
            existing = ids.get(item_id)
            target = prefix + (len(current) if existing is None else existing,)
            if op == "add":
                if existing is not None:
                    state = self.items.get((kind, item_id))
                    where = f" (defined in `{state.origin.pack}`)" if state else ""
                    self._add(source.doc.diagnostic(
                        "overlay-target", f"{kind} `{item_id}` already exists{where}", path + (key,),
                        hint="use op: replace or op: patch"))
                    continue
                ids[item_id] = len(current)
                current.append(body)
                merged.mount_item(target, target, (source.doc, path))
                self.items[(kind, item_id)] = ItemState(kind, item_id, Origin(source.pack, source.doc.file,
                                                                              _loc_line(source.doc, path)))
                continue
            if existing is None:
                known = [str(it.get(id_key(kind, it))) for it in current if isinstance(it, dict)]
                guess = did_you_mean(item_id, known)
                self._add(source.doc.diagnostic(
                    "overlay-target", f"no {kind} `{item_id}` to {op}", path + (key,),
                    hint=f"did you mean `{guess}`?" if guess else "leave out `op` to add a new item"))
                continue
            state = self.items.setdefault((kind, item_id), ItemState(
                kind, item_id, Origin(source.pack, source.doc.file, _loc_line(source.doc, path))))
            if op == "replace":
                self._conflict_replace(state, source, path, kind, item_id)
                current[existing] = body
                merged.unmount_item(target)
                merged.mount_item(target, target, (source.doc, path))
            else:
                patch = {k: v for k, v in body.items() if k != key}
                self._conflict_patch(state, source, path, kind, item_id, patch, current[existing])
                for leaf in _leaf_paths(patch, current[existing]):
                    merged.mount_item(target, target + leaf, (source.doc, path + leaf))
                current[existing] = deep_merge(current[existing], patch)
            if source.pack not in state.overrides:
                state.overrides.append(source.pack)
        merged.data = _set_in(merged.data, prefix, current)

    def _conflict_replace(self, state: ItemState, source: SourceFile, path: YamlPath, kind: str, item_id: str) -> None:
        earlier = state.replaced_by or next(iter(state.touched.values()), None)
        if earlier is not None and earlier[0] != source.pack:
            other_pack, other_doc, other_path = earlier
            verb = "replaced" if state.replaced_by else "patched"
            self._add(source.doc.diagnostic(
                "overlay-conflict", f"{kind} `{item_id}` is also {verb} by pack `{other_pack}`", path + ("op",),
                key=True, hint=f"`{other_pack}` changes it at {_where_text(other_doc, other_path)}; "
                               "apply only one of the packs or make them agree"))
        state.replaced_by = (source.pack, source.doc, path)

    def _conflict_patch(self, state: ItemState, source: SourceFile, path: YamlPath, kind: str, item_id: str,
                        patch: dict[str, Any], base: Any) -> None:
        if state.replaced_by is not None and state.replaced_by[0] != source.pack:
            other_pack, other_doc, other_path = state.replaced_by
            self._add(source.doc.diagnostic(
                "overlay-conflict", f"{kind} `{item_id}` is also replaced by pack `{other_pack}`", path + ("op",),
                key=True, hint=f"`{other_pack}` changes it at {_where_text(other_doc, other_path)}; "
                               "apply only one of the packs or make them agree"))
        else:
            for leaf in _leaf_paths(patch, base):
                for other, (other_pack, other_doc, other_path) in state.touched.items():
                    if other_pack != source.pack and _overlaps(other, leaf):
                        field_name = ".".join(str(p) for p in leaf)
                        self._add(source.doc.diagnostic(
                            "overlay-conflict",
                            f"field `{field_name}` of {kind} `{item_id}` is also patched by pack `{other_pack}`",
                            path + leaf, key=True,
                            hint=f"`{other_pack}` sets it at {_where_text(other_doc, other_path)}; "
                                 "apply only one of the packs or make them agree"))
                        break
        for leaf in _leaf_paths(patch, base):
            state.touched[leaf] = (source.pack, source.doc, path + leaf)

    # --- flocks (one item per file) ---------------------------------------------------------------
    def _per_file_add(self, merged: Merged, source: SourceFile, data: Any, *, is_base: bool) -> None:
        if not isinstance(data, dict):
            self._add(source.doc.diagnostic("schema", "a flock file must be a mapping", ()))
            return
        body = {k: v for k, v in data.items() if k != "op"}
        at = len(merged.data)
        merged.mount_item((at,), (at,), (source.doc, ()))
        merged.data.append(body)   # the flock list is the merger's own (never a parsed document)
        stem = source.rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        item_id = str(data.get("id", stem))
        # An id that is not even a valid id is the schema's complaint; renaming the file to it would not help.
        if "id" in data and item_id != stem and _ID_RE.fullmatch(item_id):
            self._add(source.doc.diagnostic("schema", f"flock id `{item_id}` does not match its file name "
                                                      f"`{stem}.yaml`", ("id",),
                                            hint=f"rename the file to `{item_id}.yaml` or the id to `{stem}`"))
        previous = self.items.get(("flocks", item_id))
        if previous is not None and is_base:
            self._add(source.doc.diagnostic("id-duplicate", f"duplicate flocks id `{item_id}`", ("id",),
                                            hint=f"first defined in {previous.origin.file}"))
            return
        merged.position((), merged.data, "flocks").setdefault(item_id, at)
        self.items[("flocks", item_id)] = ItemState("flocks", item_id, Origin(source.pack, source.doc.file, 1))

    def _per_file_overlay(self, merged: Merged, source: SourceFile, data: Any) -> None:
        if not isinstance(data, dict):
            self._add(source.doc.diagnostic("schema", "a flock file must be a mapping", ()))
            return
        op = data.get("op", "add")
        stem = source.rel.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        item_id = str(data.get("id", stem))
        if op not in OPS:
            guess = did_you_mean(str(op), OPS)
            self._add(source.doc.diagnostic("schema", f"`op` must be add, replace or patch, got `{op}`", ("op",),
                                            hint=f"did you mean `{guess}`?" if guess else None))
            return
        existing = merged.position((), merged.data, "flocks").get(item_id)
        if op == "add":
            if existing is not None:
                self._add(source.doc.diagnostic("overlay-target", f"flocks `{item_id}` already exists", ("id",),
                                                hint="use op: replace or op: patch"))
                return
            self._per_file_add(merged, source, data, is_base=False)
            return
        if existing is None:
            known = [str(it.get("id")) for it in merged.data if isinstance(it, dict)]
            guess = did_you_mean(item_id, known)
            self._add(source.doc.diagnostic("overlay-target", f"no flocks `{item_id}` to {op}", ("id",),
                                            hint=f"did you mean `{guess}`?" if guess
                                            else "leave out `op` to add a new flock"))
            return
        state = self.items.setdefault(("flocks", item_id),
                                      ItemState("flocks", item_id, Origin(source.pack, source.doc.file, 1)))
        body = {k: v for k, v in data.items() if k != "op"}
        items = merged.data   # the merger's own list: changed in place
        if op == "replace":
            self._conflict_replace(state, source, (), "flocks", item_id)
            items[existing] = body
            merged.unmount_item((existing,))
            merged.mount_item((existing,), (existing,), (source.doc, ()))
        else:
            patch = {k: v for k, v in body.items() if k != "id"}
            self._conflict_patch(state, source, (), "flocks", item_id, patch, items[existing])
            for leaf in _leaf_paths(patch, items[existing]):
                merged.mount_item((existing,), (existing,) + leaf, (source.doc, leaf))
            items[existing] = deep_merge(items[existing], patch)
        if source.pack not in state.overrides:
            state.overrides.append(source.pack)


def _get_in(data: Any, path: YamlPath) -> Any:
    for part in path:
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _set_in(data: Any, path: YamlPath, value: Any) -> Any:
    """A copy of `data` with `value` at `path` (copies only along the path)."""
    if not path:
        return value
    copy = dict(data) if isinstance(data, dict) else {}
    copy[path[0]] = _set_in(copy.get(path[0]), path[1:], value)
    return copy
