"""The one layout table of a content folder (SPEC.md "Content files"): where the packs are, which files a pack
holds, each file's shape and schema, and which item kinds sit where in it. The loader, the validator and the
editor all read it."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcd.content.yamlsafe import Path as YamlPath


@dataclass(frozen=True)
class FileSpec:
    """One logical content file.

    shape: `mapping` (a deep-merged mapping, game.yaml), `list` (a list of items), `groups` (a mapping whose
    listed keys are item lists and whose other keys deep-merge) or `per-file` (one item per file, flocks/).
    """

    name: str                      # "nests.yaml" or "flocks/" for the per-file kind
    shape: str
    schema_names: tuple[str, ...]  # candidate schema files, first existing wins
    kind: str | None = None        # list / per-file: the item kind; mapping: the whole file as one item (pack.yaml)
    groups: tuple[tuple[str, str], ...] = field(default=())  # groups: (key, item kind)
    sections: str | None = None    # mapping / groups: the kind its deep-merged top-level sections are listed as


def _schemas(*stems: str) -> tuple[str, ...]:
    return tuple(f"{s}.schema.json" for s in stems)


FILES: tuple[FileSpec, ...] = (
    FileSpec("game.yaml", "mapping", _schemas("game"), sections="game"),
    FileSpec("island.yaml", "groups", _schemas("island"),
             groups=(("sections", "sections"), ("layouts", "layouts"), ("setups", "setups")), sections="island"),
    FileSpec("action_cards.yaml", "list", _schemas("action_cards", "action_card"), kind="action_cards"),
    FileSpec("nests.yaml", "list", _schemas("nests", "nest"), kind="nests"),
    FileSpec("flocks/", "per-file", _schemas("flock", "flocks"), kind="flocks"),
    FileSpec("leaders.yaml", "list", _schemas("leaders", "leader"), kind="leaders"),
    FileSpec("season_cards.yaml", "list", _schemas("season_cards", "season_card"), kind="season_cards"),
    FileSpec("turn_order.yaml", "groups", _schemas("turn_order"),
             groups=(("nests", "turn_order_nests"), ("tracker", "tracker_slots")), sections="turn_order"),
    # Only the Solo cards are items (by id); the setup, the marker and the patterns deep-merge like game.yaml.
    FileSpec("solo.yaml", "groups", _schemas("solo"), groups=(("cards", "solo_cards"),), sections="solo"),
)

BY_NAME: dict[str, FileSpec] = {f.name: f for f in FILES}
PACK_FILE = "pack.yaml"
PACK_SCHEMAS = _schemas("pack")
# pack.yaml describes its pack (never merged): the whole file is one item
PACK_SPEC = FileSpec(PACK_FILE, "mapping", PACK_SCHEMAS, kind="pack")
FLOCKS_FOLDER = "flocks"

# Where the packs of a content root are: base/, then editions/<id>/ and mods/<id>/.
BASE_FOLDER = "base"
PACK_DIRS: tuple[tuple[str, str], ...] = (("editions", "edition"), ("mods", "mod"))
PACK_ID = re.compile(r"[a-z0-9][a-z0-9_-]*")

# Items are identified by `id`; tracker slots written without one are identified by their number.
ID_KEYS: dict[str, str] = {"tracker_slots": "slot"}


def id_key(kind: str, item: object = None) -> str:
    """The field holding an item's id: `id`, or the kind's fallback when the item has no `id`."""
    if isinstance(item, dict) and "id" in item:
        return "id"
    return ID_KEYS.get(kind, "id")


def spec_for(relative: str) -> FileSpec | None:
    """The FileSpec of a file path relative to its pack folder (`nests.yaml`, `flocks/red.yaml`)."""
    relative = relative.replace("\\", "/")
    if relative.startswith(FLOCKS_FOLDER + "/") and relative.endswith((".yaml", ".yml")) and relative.count("/") == 1:
        return BY_NAME["flocks/"]
    return BY_NAME.get(relative)


def pack_folders(root: Path) -> list[tuple[Path, str]]:
    """Every edition and mod folder under a content root with its kind, editions first, each sorted by name
    (hidden folders are not packs)."""
    found: list[tuple[Path, str]] = []
    for folder_name, kind in PACK_DIRS:
        folder = root / folder_name
        if folder.is_dir():
            found += [(sub, kind) for sub in sorted(folder.iterdir())
                      if sub.is_dir() and not sub.name.startswith(".")]
    return found


def pack_files(folder: Path) -> list[str]:
    """The YAML files of one pack folder, relative to it, in load order: the folder's own, then flocks/'s."""
    found = sorted(folder.glob("*.y*ml")) + sorted((folder / FLOCKS_FOLDER).glob("*.y*ml"))
    return [path.relative_to(folder).as_posix() for path in found]


def split(rel: str) -> tuple[str, str, str]:
    """(pack id, pack kind, path inside the pack) of a path relative to the content root: `base/nests.yaml` is
    (`base`, `base`, `nests.yaml`), `mods/reeds/flocks/x.yaml` is (`reeds`, `mod`, `flocks/x.yaml`); a path in
    no pack folder is (its first part, `other`, the rest)."""
    parts = rel.replace("\\", "/").split("/")
    if parts[0] == BASE_FOLDER:
        return BASE_FOLDER, "base", "/".join(parts[1:])
    kinds = dict(PACK_DIRS)
    if parts[0] in kinds and len(parts) > 2:
        return parts[1], kinds[parts[0]], "/".join(parts[2:])
    return parts[0], "other", "/".join(parts[1:])


def spec_of(inner: str) -> FileSpec | None:
    """The FileSpec of a path inside a pack, pack.yaml's included (None for a file that is not content)."""
    return PACK_SPEC if inner == PACK_FILE else spec_for(inner)


@dataclass(frozen=True)
class Entry:
    """One item of a content file's document, or one deep-merged top-level section of a mapping-shaped file."""

    kind: str
    path: YamlPath          # where it sits in the file's document
    node: Any
    section: bool = False  # a deep-merged section (game.yaml's `feed`, solo.yaml's `marker`): patched, not by id


def entries(spec: FileSpec, data: Any) -> list[Entry]:
    """Where the items (and deep-merged sections) of one file's document are, by the file's shape: list items,
    each group's items in the order of `spec.groups`, then the other top-level sections in written order."""
    if spec.shape == "per-file":
        return [Entry(spec.kind or "", (), data)]
    if spec.shape == "list":
        return [Entry(spec.kind or "", (index,), node) for index, node in enumerate(data)] \
            if isinstance(data, list) else []
    if not isinstance(data, dict):
        return []
    if spec.shape == "mapping" and spec.kind:
        return [Entry(spec.kind, (), data)]
    groups = dict(spec.groups)
    found = [Entry(kind, (key, index), node) for key, kind in spec.groups
             if isinstance(data.get(key), list) for index, node in enumerate(data[key])]
    if spec.sections:
        found += [Entry(spec.sections, (key,), node, section=True) for key, node in data.items() if key not in groups]
    return found
