"""New leader / new flock: a guided template that writes a mod pack under `mods/NAME/` (never base files)."""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kcd.content.layout import PACK_DIRS
from kcd.apps.editor.logic import store, yamlrt
from kcd.apps.editor.logic.confine import inside
from kcd.apps.editor.logic.validation import Problem, to_problem

ID_RE = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


class PackError(ValueError):
    """The form cannot become a pack (bad id, pack exists); the message says what to change."""


@dataclass(frozen=True)
class PackInfo:
    """pack.yaml of the new mod."""

    id: str
    name: str
    description: str
    reason: str  # the designer's one-line rationale, written as `source: "designed: ..."`


@dataclass(frozen=True)
class LeaderCard:
    """One of a leader's two cards."""

    id: str
    name: str
    ability: str


@dataclass(frozen=True)
class NewLeader:
    """The New leader form."""

    id: str
    name: str
    cards: tuple[LeaderCard, LeaderCard]


@dataclass(frozen=True)
class NewFlock:
    """The New flock form: a copy of a template flock with a new id, name, colour and, optionally,
    a new extra Move cost for both sides and a new side-B power."""

    id: str
    name: str
    colour: str
    template: str                       # content-relative path of the flock file to start from
    extra_move: str | None = None
    power_when: str | None = None       # trigger of a new side-B power (with power_do)
    power_do: str | None = None
    power_modifier: str | None = None   # or a modifier power
    printed: str | None = None          # side B's power in words, as printed (generated when empty)


RESERVED_PACKS = ("base",)   # the base game's folder: a mod can never be called that
# colours a new flock may start with, far from the shipped flocks' (red, green, purple, yellow, the example's orange)
PALETTE = ("#1f77b4", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#2f4858", "#ff6f91")


def _check_id(value: str, what: str) -> str:
    """Refuse ids the content could not use (and any path tricks in pack folder names)."""
    if not value:
        raise PackError(f"{what} is empty: give it an id such as `my-mod`")
    if not ID_RE.match(value):
        raise PackError(f"{what} `{value}` must be lower-case letters, digits and `-`, starting with a letter")
    return value


def check_pack_id(root: Path, pack_id: str) -> str:
    """A new pack's id: a valid id that is not `base` and not an existing edition's or mod's."""
    _check_id(pack_id, "pack id")
    if pack_id in RESERVED_PACKS:
        raise PackError(f"pack id `{pack_id}` is the base game's own folder; a mod needs another id, "
                        f"such as `{pack_id}-plus` or `my-{pack_id}`")
    for folder, kind in PACK_DIRS:
        if (Path(root) / folder / pack_id).exists():
            article = "an" if kind[0] in "aeiou" else "a"
            raise PackError(f"pack id `{pack_id}` is already {article} {kind} (`{folder}/{pack_id}/`); "
                            "pick another pack id")
    return pack_id


def card_ids(leader_id: str) -> tuple[str, str]:
    """The ids a leader's two cards get from the leader's id (`tane` -> `tane-1`, `tane-2`)."""
    return (f"{leader_id}-1", f"{leader_id}-2") if leader_id else ("", "")


def _hex(colour: str) -> tuple[int, int, int]:
    """RGB of `#rrggbb` (black when unreadable)."""
    try:
        return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
    except (ValueError, IndexError, TypeError):
        return 0, 0, 0


def default_colour(taken: list[str]) -> str:
    """The palette colour farthest from every flock colour already in the content."""
    used = [_hex(c) for c in taken]

    def distance(colour: str) -> int:
        rgb = _hex(colour)
        return min((sum((a - b) ** 2 for a, b in zip(rgb, other)) for other in used), default=1 << 30)

    return max(PALETTE, key=distance)


def flock_colours(root: Path) -> list[str]:
    """The colours of every flock file in the content folder (base, editions, mods)."""
    from kcd.apps.editor.logic import catalog as cat

    out = []
    for rel in cat.content_files(root):
        if cat.holds(rel, "flocks"):
            try:
                data = yamlrt.plain(yamlrt.load(inside(root, rel).read_text(encoding="utf-8")))
            except (yamlrt.EditError, OSError):
                continue
            if isinstance(data, dict) and isinstance(data.get("colour"), str):
                out.append(data["colour"])
    return out


def _q(text: str) -> str:
    """A YAML double-quoted scalar."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def pack_yaml(info: PackInfo) -> str:
    """The text of pack.yaml."""
    return (f"# Mod pack written by the editor's New pack page.\n"
            f"id: {info.id}\nname: {_q(info.name)}\nkind: mod\ndescription: {_q(info.description)}\n"
            f"source: {_q('designed: ' + info.reason)}\n")


def leader_files(info: PackInfo, leader: NewLeader) -> dict[str, str]:
    """pack.yaml and leaders.yaml of a pack adding one leader with its two cards."""
    _check_id(info.id, "pack id")
    _check_id(leader.id, "leader id")
    for number, card in enumerate(leader.cards, start=1):
        _check_id(card.id, f"card {number} id")
    if leader.cards[0].id == leader.cards[1].id:
        raise PackError(f"card 1 and card 2 both have the id `{leader.cards[0].id}`; give card 2 another id")
    source = _q("designed: " + info.reason)
    lines = ["# New leader (R-LEAD-2: once per season, as a Move action, use the ability; flip the card).",
             f"- id: {leader.id}", f"  name: {_q(leader.name)}", "  cards:"]
    for card in leader.cards:
        lines += [f"    - id: {card.id}", f"      name: {_q(card.name)}", f"      ability: {_q(card.ability)}",
                  f"      source: {source}"]
    lines.append(f"  source: {source}")
    return {f"mods/{info.id}/pack.yaml": pack_yaml(info), f"mods/{info.id}/leaders.yaml": "\n".join(lines) + "\n"}


def flock_files(root: Path, info: PackInfo, flock: NewFlock) -> dict[str, str]:
    """pack.yaml and flocks/<id>.yaml of a pack adding one flock made from a template flock file."""
    _check_id(info.id, "pack id")
    _check_id(flock.id, "flock id")
    text = inside(root, flock.template).read_text(encoding="utf-8")
    yaml, data = yamlrt._yaml_for(text)
    if not isinstance(data, dict):
        raise PackError(f"{flock.template} is not a flock file")
    data.pop("op", None)
    data["id"] = flock.id
    data["name"] = flock.name
    data["colour"] = flock.colour
    data["source"] = "designed: " + info.reason
    for side in ("side_a", "side_b"):
        if flock.extra_move and isinstance(data.get(side), dict):
            data[side]["extra_move"] = flock.extra_move
    if isinstance(data.get("side_b"), dict) and (flock.power_modifier or (flock.power_when and flock.power_do)):
        power: dict[str, Any] = ({"modifier": flock.power_modifier} if flock.power_modifier
                                 else {"when": flock.power_when, "do": flock.power_do})
        power["source"] = "designed: " + info.reason
        data["side_b"]["power"] = [power]
        # the template's printed text describes the template's power, never the new one
        data["side_b"]["requisites"] = flock.printed or printed_power(root, flock)
    elif flock.printed and isinstance(data.get("side_b"), dict):
        data["side_b"]["requisites"] = flock.printed
    body = f"# New flock `{flock.id}`, made from {flock.template} (R-ASYM-1: side B power and track).\n"
    return {f"mods/{info.id}/pack.yaml": pack_yaml(info),
            f"mods/{info.id}/flocks/{flock.id}.yaml": body + yamlrt.dump(yaml, data)}


def printed_power(root: Path, flock: NewFlock) -> str:
    """Side B's new power in words, from the DSL renderer: `Whenever you gain Domain markers: ...`."""
    from kcd.apps.editor.logic import rules_text

    ctx = rules_text.check_context(root, "base/game.yaml")
    if flock.power_modifier:
        rendered = rules_text.render_field(flock.power_modifier, "modifier", ctx)
        return rendered.text or flock.power_modifier
    when = rules_text.render_field(flock.power_when, "trigger", ctx).text or flock.power_when or ""
    do = rules_text.render_field(flock.power_do, "effect", ctx).text or flock.power_do or ""
    return f"{when}: {do}"


def check_pack(root: Path, pack_id: str, files: dict[str, str]) -> list[Problem]:
    """Validate the pack as an overlay on a throw-away copy of the content folder (nothing written)."""
    from kcd.content import load_ruleset
    from kcd.core.diagnostics import ContentError

    with tempfile.TemporaryDirectory(prefix="kcd-newpack-") as tmp:
        staged = store.copy_content(root, Path(tmp) / "content")
        for rel, text in files.items():
            store.write_file(staged, rel, text)
        try:
            load_ruleset(overlays=[pack_id], root=staged)
        except ContentError as exc:
            # report the paths the pack will have, not the throw-away copy's
            return [replace(p, text=p.text.replace(str(staged), str(Path(root)))) for p in
                    (to_problem(staged, d) for d in exc.diagnostics)]
    return []


def create_pack(root: Path, pack_id: str, files: dict[str, str]) -> list[Problem]:
    """Write the pack's files into `mods/<id>/` if it validates; returns the problems otherwise."""
    check_pack_id(root, pack_id)
    for rel in files:
        if not rel.startswith(f"mods/{pack_id}/"):
            raise PackError(f"{rel} is outside the new pack mods/{pack_id}/")
        inside(root, rel)
    problems = check_pack(root, pack_id, files)
    if problems:
        return problems
    for rel, text in files.items():
        store.write_file(root, rel, text)
    return []
