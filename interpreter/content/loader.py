"""Loading a content set (base + ordered overlay packs): parse, merge, schema, DSL, cross-file checks, Ruleset."""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from kcd.core import paths
from kcd.content.bounds import bound_diagnostics
from kcd.content.checks import Checker
from kcd.content.dslfields import CompiledFields, compile_merged, substitute
from kcd.content.layout import (BASE_FOLDER, FILES, PACK_DIRS, PACK_FILE, PACK_ID, PACK_SCHEMAS, PACK_SPEC,
                                entries, id_key, pack_files, pack_folders, spec_for)
from kcd.content.merge import ItemState, Merged, Merger, SourceFile
from kcd.content.model import Item, Origin, Pack, Ruleset
from kcd.content.schema import Schemas, did_you_mean, schemas_for, validated_cache
from kcd.content.yamlsafe import MAX_BYTES, YamlDoc, parse_yaml
from kcd.core.diagnostics import ContentError, Diagnostic, Location
from kcd.dsl.checker import CheckContext
from kcd.content.yamlsafe import Path as YamlPath

# abs path -> ((mtime_ns, size), doc, diagnostics): files are re-read only when they change on disk. At most
# DOC_CACHE_FILES paths, the least recently read dropped first: a process that reads many packs (a mod fuzzer writes
# a new one per mod) would otherwise keep every file it ever read.
_DOC_CACHE: dict[str, tuple[tuple[int, int], YamlDoc | None, list[Diagnostic]]] = {}
DOC_CACHE_FILES = 1024
# (abs path, text) -> (doc, diagnostics) for edited texts (validate_text), a few kept.
_TEXT_CACHE: dict[tuple[str, str], tuple[YamlDoc | None, list[Diagnostic]]] = {}


@dataclass
class PackFiles:
    """The parsed files of one pack folder."""

    pack: Pack
    folder: Path
    sources: list[SourceFile] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


@dataclass
class Build:
    """Everything one validation produced: merged files, compiled DSL, diagnostics, the parsed packs."""

    root: Path
    packs: list[PackFiles]
    merged: dict[str, Merged]
    item_states: dict[tuple[str, str], ItemState]
    compiled: CompiledFields
    diagnostics: list[Diagnostic]

    @property
    def files(self) -> list[str]:
        """Every content file read, in load order."""
        return [f for p in self.packs for f in p.files]


# --- reading files ----------------------------------------------------------------------------------

def read_doc(path: Path, overrides: dict[str, str] | None = None) -> tuple[YamlDoc | None, list[Diagnostic]]:
    """Parse one file (cached by modification time), or its edited text from `overrides`."""
    key = str(path)
    if overrides and key in overrides:
        text = overrides[key]
        cached = _TEXT_CACHE.get((key, text))
        if cached is None:
            if len(_TEXT_CACHE) > 64:
                _TEXT_CACHE.clear()
            cached = parse_yaml(key, text)
            _TEXT_CACHE[(key, text)] = cached
        return cached
    try:
        stat = path.stat()
    except OSError as err:
        return None, [Diagnostic("yaml-syntax", f"cannot read file: {err.strerror}", Location(key, 1, 1))]
    stamp = (stat.st_mtime_ns, stat.st_size)
    cached_doc = _DOC_CACHE.pop(key, None)   # (put back last: the most recently read)
    if cached_doc is not None and cached_doc[0] == stamp:
        _DOC_CACHE[key] = cached_doc
        return cached_doc[1], cached_doc[2]
    if stat.st_size > MAX_BYTES:
        result: tuple[YamlDoc | None, list[Diagnostic]] = (None, [Diagnostic(
            "yaml-unsafe", f"file is larger than {MAX_BYTES // 1_000_000} MB", Location(key, 1, 1), None,
            "split the content into smaller files")])
    else:
        raw = path.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            line = raw[:err.start].count(b"\n") + 1
            col = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
            result = (None, [Diagnostic("yaml-syntax", "file is not valid UTF-8 text", Location(key, line, col))])
        else:
            result = parse_yaml(key, text.lstrip("\ufeff"))
    while len(_DOC_CACHE) >= DOC_CACHE_FILES:
        del _DOC_CACHE[next(iter(_DOC_CACHE))]
    _DOC_CACHE[key] = (stamp, result[0], result[1])
    return result


def clear_caches() -> None:
    """Forget parsed files, compiled DSL and schemas (tests)."""
    from kcd.content import dslfields, schema

    _DOC_CACHE.clear()
    _TEXT_CACHE.clear()
    dslfields.clear_cache()
    schema.clear_cache()
    schema.reset_validated_cache()


# --- packs ------------------------------------------------------------------------------------------

def content_root(root: str | Path | None) -> Path:
    """The content root to use (default: the shipped content)."""
    return Path(root).resolve() if root is not None else paths.content_dir().resolve()


def schemas_folder(root: Path) -> Path:
    """Schemas next to a content root (a repo checkout or a copy of one), else the shipped ones."""
    beside = root.parent / "schemas"
    if beside.is_dir() and any(beside.glob("*.schema.json")):
        return beside
    return paths.schemas_dir()


def available_packs(root: str | Path | None = None) -> list[Pack]:
    """Every edition and mod under a content root, editions first, by id."""
    return [_pack_info(folder, kind) for folder, kind in pack_folders(content_root(root))]


def base_pack(root: str | Path | None = None) -> Pack:
    """The base game's pack of a content root."""
    return Pack("base", "Base game", "base", content_root(root) / BASE_FOLDER)


def content_packs(root: str | Path | None = None) -> list[Pack]:
    """The base game (when the root has a base folder), then every edition and mod: each pack a content root
    holds, as the loader finds them."""
    base = base_pack(root)
    return ([base] if base.path.is_dir() else []) + available_packs(root)


def _pack_info(folder: Path, kind: str, overrides: dict[str, str] | None = None) -> Pack:
    """A Pack from its folder's pack.yaml (falls back to the folder name when the file is missing or bad)."""
    readable = (folder / PACK_FILE).is_file() and _path_problem(folder / PACK_FILE, folder.parent.parent) is None
    doc, _ = read_doc(folder / PACK_FILE, overrides) if readable or (
        overrides and str(folder / PACK_FILE) in overrides) else (None, [])
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    return Pack(id=folder.name, name=str(data.get("name", folder.name)), kind=str(data.get("kind", kind)),
                path=folder, description=str(data.get("description", "")), source=str(data.get("source", "")))


def find_pack(root: Path, name: str) -> Path | None:
    """The folder of overlay `name` (`prototype`, `editions/prototype`) under `root`, if any."""
    # Only pack ids, optionally with their folder (`mods/example`): never a path out of the content root.
    folder, _, pack_id = name.rpartition("/")
    if folder not in ("",) + tuple(f for f, _ in PACK_DIRS) or not PACK_ID.fullmatch(pack_id):
        return None
    name = pack_id
    if folder:
        candidate = root / folder / name
        return candidate if candidate.is_dir() else None
    for folder_name, _ in PACK_DIRS:
        candidate = root / folder_name / name
        if candidate.is_dir():
            return candidate
    return None


def _stray_folders(folder: Path) -> list[Diagnostic]:
    """YAML files in a sub-folder other than flocks/ would be silently ignored: say so (e.g. `flock/`)."""
    found: list[Diagnostic] = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir() and p.name != "flocks"
                      and not p.name.startswith((".", "_"))):
        files = sorted(sub.rglob("*.y*ml"))
        if not files:
            continue
        guess = did_you_mean(sub.name, ["flocks"])
        found.append(Diagnostic(
            "schema", f"content files in folder `{sub.name}/` are not read", Location(str(files[0]), 1, 1), None,
            "did you mean `flocks/`?" if guess else
            "content files go in the pack folder itself, flock files in `flocks/<id>.yaml`"))
    return found


def _path_problem(path: Path, root: Path) -> Diagnostic | None:
    """Why a content file is not read: a folder, or a symbolic link leading out of the content folder.

    The target of such a link is never read, so nothing of it (not even its first line) reaches a message.
    """
    if path.is_symlink() or any(p.is_symlink() for p in path.parents if p.is_relative_to(root)):
        try:
            inside = path.resolve().is_relative_to(root.resolve())
        except (OSError, RuntimeError):   # a symlink loop
            inside = False
        if not inside:
            return _path_diag(path, "is a symbolic link that leads out of the content folder; it is not read",
                              "copy the file into the content folder instead of linking to it")
    if path.is_dir():
        return _path_diag(path, "is a folder, not a content file", "content files are YAML files; rename or move "
                                                                   "the folder")
    return None


def _path_diag(path: Path, what: str, hint: str) -> Diagnostic:
    """A `content-path` diagnostic pointing at the file's name (its contents are never shown)."""
    return Diagnostic("content-path", f"`{path.name}` {what}", Location(str(path), 1, 1, len(path.name) + 1),
                      path.name, hint)


def _scan(folder: Path, pack: Pack, overrides: dict[str, str] | None) -> PackFiles:
    """Parse every content file of a pack folder."""
    result = PackFiles(pack, folder)
    if not folder.is_dir():
        result.diagnostics.append(Diagnostic("schema", f"missing content folder `{folder.name}`",
                                             Location(str(folder), 1, 1)))
        return result
    rels = pack_files(folder)
    for key in overrides or {}:  # an edited file that does not exist on disk yet
        p = Path(key)
        if p.parent == folder or p.parent == folder / "flocks":
            rel = p.relative_to(folder).as_posix()
            if rel not in rels and rel.endswith((".yaml", ".yml")):
                rels.append(rel)
    root = folder.parent if pack.id == "base" else folder.parent.parent
    for rel in rels:
        path = folder / rel
        result.files.append(str(path))
        refused = _path_problem(path, root)
        if refused is not None:
            result.diagnostics.append(refused)
            continue
        doc, diags = read_doc(path, overrides)
        result.diagnostics.extend(diags)
        if rel == PACK_FILE:
            if pack.id == "base":
                result.diagnostics.append(Diagnostic("schema", "the base folder has no pack.yaml",
                                                     Location(str(path), 1, 1), None,
                                                     "pack.yaml belongs in editions/<id>/ or mods/<id>/"))
            elif doc is not None:
                result.sources.append(SourceFile(pack.id, rel, doc))
            continue
        if spec_for(rel) is None:
            known = [f.name for f in FILES if f.shape != "per-file"] + ["flocks/<id>.yaml"]
            guess = did_you_mean(rel, known)
            result.diagnostics.append(Diagnostic(
                "schema", f"unknown content file `{rel}`" + (f": did you mean `{guess}`?" if guess else ""),
                Location(str(path), 1, 1), None, None if guess else "content files are " + ", ".join(known)))
            continue
        if doc is not None:
            result.sources.append(SourceFile(pack.id, rel, doc))
    result.diagnostics.extend(_stray_folders(folder))
    if pack.id != "base" and not (folder / PACK_FILE).exists() and not (overrides and str(folder / PACK_FILE)
                                                                         in overrides):
        result.diagnostics.append(Diagnostic("schema", "missing `pack.yaml` (id, name, kind, description, source)",
                                             Location(str(folder / PACK_FILE), 1, 1)))
    return result


# --- validation ---------------------------------------------------------------------------------------

def _schema_name(schemas: Schemas, candidates: Iterable[str]) -> str | None:
    for name in candidates:
        if schemas.has(name):
            return name
    return None


def dsl_context(game: Any) -> CheckContext:
    """The DSL check context from the merged game.yaml (empty lists when it is broken)."""
    game = game if isinstance(game, dict) else {}
    fruits = game.get("fruits")
    terrains = game.get("terrains")
    limits = game.get("limits") if isinstance(game.get("limits"), dict) else {}
    size = limits.get("kiwi_size", 3)
    return CheckContext(
        tuple(str(f) for f in fruits) if isinstance(fruits, list) else (),
        tuple(str(t) for t in terrains) if isinstance(terrains, list) else (),
        size if isinstance(size, int) and not isinstance(size, bool) and size >= 1 else 3)


def build(root: Path, overlays: Iterable[str] = (), overrides: dict[str, str] | None = None) -> Build:
    """Validate base + overlays under `root` and return every intermediate result and diagnostic."""
    diagnostics: list[Diagnostic] = []
    schemas = schemas_for(schemas_folder(root))
    base = _scan(root / BASE_FOLDER, base_pack(root), overrides)
    packs = [base]
    overlays, required = with_requirements(root, tuple(overlays), overrides)
    diagnostics.extend(required)
    for name in overlays:
        folder = find_pack(root, name)
        if folder is None:
            known = [p.id for p in available_packs(root)]
            guess = did_you_mean(name, known)
            diagnostics.append(Diagnostic("id-unknown", f"unknown pack `{name}`", Location(str(root), 1, 1), None,
                                          f"did you mean `{guess}`?" if guess else
                                          ("packs: " + ", ".join(known) if known else "no packs installed")))
            continue
        kind = dict(PACK_DIRS)[folder.parent.name]
        packs.append(_scan(folder, _pack_info(folder, kind, overrides), overrides))
    for pack in packs:
        diagnostics.extend(pack.diagnostics)

    present = {s.rel for s in base.sources} | {
        Path(f).relative_to(base.folder).as_posix() for f in base.files if Path(f).is_relative_to(base.folder)}
    for spec in FILES:
        if spec.shape == "per-file":
            if not any(r.startswith("flocks/") for r in present):
                diagnostics.append(Diagnostic("schema", "missing content folder `flocks/` with one file per flock",
                                              Location(str(base.folder / "flocks"), 1, 1)))
        elif spec.name not in present:
            diagnostics.append(Diagnostic("schema", f"missing content file `{spec.name}`",
                                          Location(str(base.folder / spec.name), 1, 1)))

    merger = Merger()
    merger.add_base(base.sources)
    pack_schema = _schema_name(schemas, PACK_SCHEMAS)
    for pack in packs[1:]:
        for source in pack.sources:
            if source.rel == PACK_FILE:
                if pack_schema:
                    diagnostics.extend(_schema_diags(schemas, pack_schema, source.doc.data,
                                                     Merged(PACK_SPEC, source.doc.data, {(): (source.doc, ())})))
                if isinstance(source.doc.data, dict) and "id" in source.doc.data \
                        and str(source.doc.data["id"]) != pack.pack.id:
                    diagnostics.append(source.doc.diagnostic(
                        "schema", f"pack id `{source.doc.data['id']}` does not match its folder `{pack.pack.id}`",
                        ("id",)))
        merger.add_pack([s for s in pack.sources if s.rel != PACK_FILE])
    merged = merger.result()
    diagnostics.extend(merged.diagnostics)

    # Files that did not parse: checks that need them are skipped rather than cascading into noise.
    broken = {_logical(Path(d.location.file), p.folder) for p in packs for d in p.diagnostics
              if d.code.startswith("yaml-")}
    compiled = CompiledFields()
    game = merged.files.get("game.yaml")
    ctx = dsl_context(game.data if game else None)
    for spec in FILES:
        m = merged.files.get(spec.name)
        if m is None or "game.yaml" in broken:  # without game.yaml every fruit and terrain looks unknown
            continue
        schema_name = _schema_name(schemas, spec.schema_names)
        if schema_name is None:
            continue
        if spec.shape == "per-file":
            for index, flock in enumerate(m.data):
                diagnostics.extend(_schema_diags(schemas, schema_name, flock, m, (index,)))
                sub = m.sub((index,))
                local = CompiledFields()
                compile_merged(sub, schema_name, schemas, ctx, local)
                diagnostics.extend(local.diagnostics)
                compiled.used |= local.used
                for path, node in local.nodes.get(m.spec.name, {}).items():
                    compiled.nodes.setdefault(m.spec.name, {})[(index,) + path] = node
                    compiled.kinds.setdefault(m.spec.name, {})[(index,) + path] = \
                        local.kinds[m.spec.name][path]
            continue
        diagnostics.extend(_schema_diags(schemas, schema_name, m.data, m))
        compile_merged(m, schema_name, schemas, ctx, compiled)
    diagnostics.extend(compiled.diagnostics)
    compiled.diagnostics = []
    diagnostics.extend(Checker(merged.files, compiled, base_only=len(packs) == 1, broken=broken).run())
    if not any(d.severity == "error" for d in diagnostics):
        # the work bound needs the whole, valid set: every effect and what it can set off (dsl/bounds.py)
        diagnostics.extend(bound_diagnostics(merged.files, compiled))
    validated_cache().flush()
    result = Build(root, packs, merged.files, merged.items, compiled, _dedupe(diagnostics))
    if not any(d.severity == "error" for d in result.diagnostics):
        result.diagnostics = _dedupe(result.diagnostics + _engine_diagnostics(result))
    return result


def with_requirements(root: Path, overlays: tuple[str, ...], overrides: dict[str, str] | None = None
                      ) -> tuple[tuple[str, ...], list[Diagnostic]]:
    """The overlays with the packs each `requires` (pack.yaml) before it, in the order listed, each once; a required
    pack that is not installed, or packs that require each other, are errors located at the `requires` entry."""
    out: list[str] = []
    placed: set[Path] = set()
    diags: list[Diagnostic] = []

    def visit(name: str, chain: tuple[Path, ...]) -> None:
        folder = find_pack(root, name)
        if folder is None:   # build reports the unknown overlay itself
            out.append(name)
            return
        if folder in placed:
            return
        doc = read_doc(folder / PACK_FILE, overrides)[0] if (folder / PACK_FILE).is_file() or (
            overrides and str(folder / PACK_FILE) in overrides) else None
        data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
        requires = data.get("requires")
        for i, req in enumerate(requires if isinstance(requires, list) else []):
            if not isinstance(req, str):
                continue   # the schema says what a `requires` entry is
            found = find_pack(root, req)
            assert doc is not None   # a `requires` list was read from it
            if found is None:
                known = [p.id for p in available_packs(root) if p.path != folder]
                guess = did_you_mean(req, known)
                diags.append(doc.diagnostic("id-unknown", f"pack `{folder.name}` requires `{req}`, which is not "
                                            "installed", ("requires", i), hint=f"did you mean `{guess}`?" if guess
                                            else "packs: " + (", ".join(known) or "none")))
            elif found == folder or found in chain:
                loop = chain[chain.index(found):] + (folder, found) if found in chain else (folder, found)
                diags.append(doc.diagnostic("pack-cycle", "packs require each other: "
                                            + " -> ".join(p.name for p in loop), ("requires", i),
                                            hint=f"remove `{req}` from the `requires` of one of them"))
            else:
                visit(req, chain + (folder,))
        if folder not in placed:
            placed.add(folder)
            out.append(name)

    for name in overlays:
        visit(name, ())
    return tuple(out), diags


def _engine_diagnostics(result: Build) -> list[Diagnostic]:
    """Values the engine could not play, found when it compiles the content into typed values (engine/rules.py),
    located at their file and key: a content error surfaces at load, never when a game reaches it."""
    from kcd.content.rules import RulesError, compile_rules
    try:
        compile_rules(ruleset_from(result), cache=False)
    except RulesError as exc:
        merged = result.merged.get(exc.file or "")
        diag = merged.diagnostic("content-value", str(exc), exc.path, hint=exc.hint) if merged else None
        return [diag or Diagnostic("content-value", str(exc), Location(str(result.root / "base"), 1, 1), None, exc.hint)]
    return []


def _logical(path: Path, folder: Path) -> str:
    """The logical file name (`nests.yaml`, `flocks/`) of a file of a pack folder."""
    try:
        rel = path.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return ""
    return "flocks/" if rel.startswith("flocks/") else rel


def _schema_diags(schemas: Schemas, name: str, data: Any, merged: Merged, prefix: YamlPath = ()) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for problem in schemas.check(name, data):
        diag = merged.diagnostic("schema", problem.message, prefix + problem.path, key=problem.at_key,
                                 hint=problem.hint)
        if diag is not None:
            out.append(diag)
    return out


def _dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[YamlPath] = set()
    out: list[Diagnostic] = []
    for d in diagnostics:
        key = (d.code, d.message, d.location, d.severity)
        if key not in seen:
            seen.add(key)
            out.append(d)
    out.sort(key=lambda d: (d.location.file, d.location.line, d.location.col, d.code))
    return out


# --- the Ruleset --------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, scalars)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _canonical(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    return value


def ruleset_from(result: Build) -> Ruleset:
    """The immutable Ruleset of a build without errors."""
    items: dict[str, list[Item]] = {}
    states = result.item_states
    nodes = result.compiled.nodes
    raw_all: dict[str, Any] = {}
    for spec in FILES:
        merged = result.merged.get(spec.name)
        if merged is None:
            continue
        raw_all[spec.name] = merged.data
        # merged, the per-file flocks are one list, like a list file's items
        placed = entries(spec if spec.shape != "per-file" else replace(spec, shape="list"), merged.data)
        file_nodes = nodes.get(spec.name, {})
        for entry in placed:
            if entry.section:
                continue
            path, raw, kind = entry.path, entry.node, entry.kind
            item_id = str(raw.get(id_key(kind, raw)))
            state = states.get((kind, item_id))
            origin = state.origin if state else Origin("base", "", 0)
            overrides = tuple(state.overrides) if state else ()
            data = substitute(raw, file_nodes, path)
            items.setdefault(kind, []).append(Item(kind, item_id, data, _plain(raw), origin, overrides))
            if kind == "leaders":
                for card_index, card in enumerate(raw.get("cards") or []):
                    where = merged.where(path + ("cards", card_index))
                    pos = where[0].pos(where[1]) if where else None
                    line = pos.line if pos is not None else origin.line
                    card_origin = Origin(origin.pack, where[0].file if where else origin.file, line)
                    items.setdefault("leader_cards", []).append(Item(
                        "leader_cards", str(card.get("id")), data["cards"][card_index], _plain(card),
                        card_origin, overrides, parent=item_id))
    game_merged = result.merged.get("game.yaml")
    game_raw = game_merged.data if game_merged else {}
    game = substitute(game_raw, nodes.get("game.yaml", {}))
    solo_merged = result.merged.get("solo.yaml")
    solo = {entry.path[0]: _plain(entry.node) for entry in entries(solo_merged.spec, solo_merged.data)
            if entry.section} if solo_merged else {}
    digest = hashlib.sha256(json.dumps(_canonical(raw_all), sort_keys=True, separators=(",", ":"),
                                       ensure_ascii=False, default=str).encode("utf-8")).hexdigest()
    return Ruleset(game=game, hash=digest, packs=tuple(p.pack for p in result.packs[1:]), root=result.root,
                   _items={k: tuple(v) for k, v in items.items()}, raw_game=_plain(game_raw), solo=solo,
                   files=tuple(result.files))


def load_ruleset(overlays: Iterable[str] = (), root: str | Path | None = None) -> Ruleset:
    """Load and validate base + overlay packs (in order); raise ContentError listing every problem."""
    result = build(content_root(root), tuple(overlays))
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if errors:
        raise ContentError(result.diagnostics)
    return ruleset_from(result)


def pack_of(path: Path) -> tuple[Path, str | None] | None:
    """(content root, pack id or None for base) of a content file or pack folder, if it is inside one."""
    path = path.resolve()
    for parent in [path] + list(path.parents):
        if parent.name == BASE_FOLDER and parent.parent.joinpath(BASE_FOLDER).is_dir():
            return parent.parent, None
        if parent.parent.name in dict(PACK_DIRS) and parent.parent.parent.joinpath(BASE_FOLDER).is_dir():
            return parent.parent.parent, parent.name
    return None


def validate_text(file_path: str | Path, text: str, root: str | Path | None = None,
                  overlays: Iterable[str] = ()) -> list[Diagnostic]:
    """Diagnostics of the whole set with one file's text replaced by `text` (the editor's live check)."""
    path = Path(file_path)
    if not path.is_absolute():
        base_root = content_root(root)
        candidate = (base_root / path) if (base_root / path).parent.exists() else Path(os.getcwd()) / path
        path = candidate
    path = path.resolve()
    found = pack_of(path)
    set_root = content_root(root) if root is not None else (found[0] if found else content_root(None))
    packs = list(overlays)
    if found and found[1] is not None and found[1] not in packs:
        packs.append(found[1])
    result = build(set_root, tuple(packs), {str(path): text})
    return result.diagnostics
