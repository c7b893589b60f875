"""Which content files exist, their shape, their schema, and which item kinds they hold (SPEC.md "Content files")."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FileSpec:
    """One logical content file.

    shape: `mapping` (a deep-merged mapping, game.yaml), `list` (a list of items), `groups` (a mapping whose
    listed keys are item lists and whose other keys deep-merge) or `per-file` (one item per file, flocks/).
    """

    name: str                      # "nests.yaml" or "flocks/" for the per-file kind
    shape: str
    schema_names: tuple[str, ...]  # candidate schema files, first existing wins
    kind: str | None = None        # list / per-file: the item kind
    groups: tuple[tuple[str, str], ...] = field(default=())  # groups: (key, item kind)


def _schemas(*stems: str) -> tuple[str, ...]:
    return tuple(f"{s}.schema.json" for s in stems)


FILES: tuple[FileSpec, ...] = (
    FileSpec("game.yaml", "mapping", _schemas("game")),
    FileSpec("island.yaml", "groups", _schemas("island"),
             groups=(("sections", "sections"), ("layouts", "layouts"), ("setups", "setups"))),
    FileSpec("action_cards.yaml", "list", _schemas("action_cards", "action_card"), kind="action_cards"),
    FileSpec("nests.yaml", "list", _schemas("nests", "nest"), kind="nests"),
    FileSpec("flocks/", "per-file", _schemas("flock", "flocks"), kind="flocks"),
    FileSpec("leaders.yaml", "list", _schemas("leaders", "leader"), kind="leaders"),
    FileSpec("season_cards.yaml", "list", _schemas("season_cards", "season_card"), kind="season_cards"),
    FileSpec("turn_order.yaml", "groups", _schemas("turn_order"),
             groups=(("nests", "turn_order_nests"), ("tracker", "tracker_slots"))),
    FileSpec("solo.yaml", "groups", _schemas("solo"), groups=(("cards", "solo_cards"),)),
)

BY_NAME: dict[str, FileSpec] = {f.name: f for f in FILES}
PACK_FILE = "pack.yaml"
PACK_SCHEMAS = _schemas("pack")

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
    if relative.startswith("flocks/") and relative.endswith((".yaml", ".yml")) and relative.count("/") == 1:
        return BY_NAME["flocks/"]
    return BY_NAME.get(relative)
