"""The content's effects as an `EffectGraph` for the checker's work bound, and its issues as `effect-bound`
diagnostics located in the files (interpreter/dsl/bounds.py computes the bound)."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from kcd.content.checks import item_rows
from kcd.content.dslfields import CompiledFields
from kcd.content.merge import Merged
from kcd.content.schema import validated_cache
from kcd.core.diagnostics import Diagnostic
from kcd.dsl import registry
from kcd.dsl.ast import Call, Node
from kcd.dsl.bounds import (BoundIssue, Effect, EffectGraph, Entry, FlockSide, effect_bounds, fingerprint,
                                    local_work)
from kcd.content.yamlsafe import Path as YamlPath

Ref = tuple[str, YamlPath]   # (logical file, merged path) of a DSL field


class _Reader:
    """Compiled DSL nodes of the merged files, with labels."""

    def __init__(self, files: dict[str, Merged], compiled: CompiledFields) -> None:
        self.files = files
        self.compiled = compiled

    def node(self, name: str, path: YamlPath) -> Node | None:
        return self.compiled.nodes.get(name, {}).get(path)

    def effect(self, name: str, path: YamlPath, label: str) -> Effect | None:
        node = self.node(name, path)
        return Effect(node, label, (name, path)) if node is not None else None

    def items(self, name: str, group: str | None = None) -> list[tuple[YamlPath, dict[str, Any]]]:
        return item_rows(self.files, name, group)


def effect_graph(files: dict[str, Merged], compiled: CompiledFields) -> EffectGraph:
    """Every effect of the content, where the game runs it and what it can set off."""
    r = _Reader(files, compiled)
    game = files.get("game.yaml")
    g = game.data if game is not None and isinstance(game.data, dict) else {}
    flock: dict[str, Any] = found if isinstance(found := g.get("flock"), dict) else {}
    track: dict[str, Any] = given if isinstance(given := g.get("track"), dict) else {}
    entries: list[Entry] = []

    def add(effect: Effect | None, **kw: Any) -> None:
        if effect is not None:
            entries.append(Entry(effect, **kw))

    for path, card in r.items("action_cards.yaml"):
        for key in ("effect", "benefit"):
            add(r.effect("action_cards.yaml", path + (key,), f"action card `{card.get('id')}` {key}"), runner="player")
    add(r.effect("game.yaml", ("facedown", "effect"), "a card played face down"), runner="player")
    listed = [str(n) for n in flock.get("nests", [])] if isinstance(flock.get("nests"), list) else None
    nests: list[Effect] = []
    for path, nest in r.items("nests.yaml"):
        if listed is not None and str(nest.get("id")) not in listed:
            continue      # only the Nests on a flock board can be built
        placed = r.effect("nests.yaml", path + ("on_place",), f"nest `{nest.get('id')}` on_place")
        if placed is not None:
            nests.append(placed)
        add(r.effect("nests.yaml", path + ("on_season_change",), f"nest `{nest.get('id')}` on_season_change"),
            season_change=True, depth=1, nest=True)   # run as a Nest benefit, one level in (R-SC-3)
    for path, card in r.items("season_cards.yaml"):
        for key in ("victor", "others"):
            add(r.effect("season_cards.yaml", path + (key,), f"Season card `{card.get('id')}` {key}"))
    for path, nest in r.items("turn_order.yaml", "nests"):
        add(r.effect("turn_order.yaml", path + ("setup",), f"Turn Order nest `{nest.get('id')}` setup"))
    for path, slot in r.items("turn_order.yaml", "tracker"):
        add(r.effect("turn_order.yaml", path + ("effect",), f"tracker slot {slot.get('slot')}"), runner="player")
    abilities = []
    for path, leader in r.items("leaders.yaml"):
        for i, card in enumerate(leader.get("cards") or []):
            if isinstance(card, dict):
                found = r.effect("leaders.yaml", path + ("cards", i, "ability"), f"leader card `{card.get('id')}`")
                if found is not None:
                    abilities.append(found)
    sides = _sides(r, entries)
    bonus, solo = _solo(r, entries)
    tokens = flock.get("kiwi_tokens", 20)
    start = track.get("benefits_from_slot", 3)
    return EffectGraph(sides, nests, abilities, bonus, entries,
                       track_from=start if isinstance(start, int) and not isinstance(start, bool) else 3,
                       kiwi_tokens=tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else 20,
                       bot_runs=solo)


def _sides(r: _Reader, entries: list[Entry]) -> list[FlockSide]:
    """Each flock side's track benefits, powers and modifiers; powers fired by an engine event are entries."""
    sides: list[FlockSide] = []
    for path, data in r.items("flocks/"):
        for side_key, side_name in (("side_a", "A"), ("side_b", "B")):
            side = data.get(side_key)
            if not isinstance(side, dict):
                continue
            label = f"{data.get('id')} side {side_name}"
            out = FlockSide(label, str(data.get("id")))
            for i, slot in enumerate(side.get("track") or []):
                if isinstance(slot, dict) and isinstance(slot.get("slot"), int):
                    found = r.effect("flocks/", path + (side_key, "track", i, "benefit"),
                                     f"{label} track slot {slot['slot']}")
                    if found is not None:
                        out.track[slot["slot"]] = found
            modifiers = set()
            for i, power in enumerate(side.get("power") or []):
                if not isinstance(power, dict):
                    continue
                base = path + (side_key, "power", i)
                when = r.node("flocks/", base + ("when",))
                modifier = r.node("flocks/", base + ("modifier",))
                if isinstance(modifier, Call) and modifier.primitive:
                    modifiers.add(modifier.primitive)
                if not isinstance(when, Call) or not when.primitive:
                    continue
                text = " ".join(w.text for w in when.words)
                found = r.effect("flocks/", base + ("do",), f"{label} power `{text}`")
                if found is None:
                    continue
                out.powers.setdefault(when.primitive, []).append(found)
                prim = registry.BY_ID.get(when.primitive)
                if prim is not None and any(e.startswith("@") for e in prim.emitted_by):
                    entries.append(Entry(found, depth=1))   # fired by a phase (Domain Marking), one level in
            out.modifiers = frozenset(modifiers)
            sides.append(out)
    return sides


def _solo(r: _Reader, entries: list[Entry]) -> tuple[dict[str, list[Effect]], bool]:
    """Kiwibot's bonus segments by action, its segments and setup as entries; whether there is a solo mode."""
    bonus: dict[str, list[Effect]] = {}
    cards = r.items("solo.yaml", "cards")
    for path, card in cards:
        sections = card.get("sections")
        if not isinstance(sections, dict):
            continue
        for action, segments in sections.items():
            if not isinstance(segments, list):
                continue
            for k in range(len(segments)):
                label = f"Solo card {card.get('number', card.get('id'))} {action} segment {k + 1}"
                found = r.effect("solo.yaml", path + ("sections", action, k), label)
                if found is None:
                    continue
                entries.append(Entry(found, runner="bot", depth=1))   # a revealed card's segment (R-SOLO-7)
                if k == len(segments) - 1:
                    bonus.setdefault(str(action), []).append(found)   # the bonus column (R-SOLO-8)
    add = r.effect("solo.yaml", ("setup", "kiwibot_setup"), "Kiwibot's setup")
    if add is not None:
        entries.append(Entry(add, runner="bot"))
    return bonus, bool(cards)


def bound_diagnostics(files: dict[str, Merged], compiled: CompiledFields) -> list[Diagnostic]:
    """`effect-bound` errors: effects whose work, nesting or self-feeding chain the checker refuses."""
    graph = effect_graph(files, compiled)
    # Clean results are remembered on disk with the schema results (interpreter/content/schema.py: digests only,
    # KCD_NO_CACHE=1 turns it off), so a cold `load_ruleset` of unchanged content does not redo the search.
    key = "effect-bounds:" + hashlib.sha256(repr(fingerprint(graph)).encode("utf-8")).hexdigest()
    cache = validated_cache()
    if key in cache.keys:
        return []
    issues = effect_bounds(graph)
    if not issues:
        cache.add(key)
    found: dict[YamlPath, tuple[tuple[int, bool], Diagnostic]] = {}
    for issue in issues:
        diag = _locate(files, issue)
        if diag is None:
            continue
        # one message per effect to change: the shortest chain that shows it (many entries reach the same one)
        where = (diag.location.file, diag.location.line, diag.location.col)
        rank = (len(issue.chain), any(e.label.startswith("Kiwibot") for e in issue.chain))
        if where not in found or rank < found[where][0]:
            found[where] = (rank, diag)
    return [diag for _, diag in found.values()]


def _locate(files: dict[str, Merged], issue: BoundIssue) -> Diagnostic | None:
    """The issue at the chain's effect most likely to be the one to change: the first (a nesting chain) or the
    costliest by itself (too much work) among those an overlay pack wrote, else among all."""
    chain = [e for e in issue.chain if e.ref is not None]
    if not chain:
        game = files.get("game.yaml")
        return game.diagnostic("effect-bound", issue.message, (), hint=issue.hint) if game else None

    def doc_of(effect: Effect) -> Any:
        found = files[effect.ref[0]].where(effect.ref[1]) if effect.ref[0] in files else None
        return found

    written = [(e, doc_of(e)) for e in chain]
    written = [(e, w) for e, w in written if w is not None]
    if not written:
        return None
    overlay = [(e, w) for e, w in written if "base" not in Path(w[0].file).parts[-3:-1]]
    pool = overlay or written
    if issue.kind == "work":
        effect, (doc, doc_path) = max(pool, key=lambda ew: local_work(ew[0].node))
    else:
        effect, (doc, doc_path) = pool[0]
    text = doc.value_at(doc_path)
    end = len(text) if isinstance(text, str) else 1
    loc = doc.span_location(doc_path, 0, end)
    return Diagnostic("effect-bound", issue.message, loc, doc.source_line(loc.line), issue.hint)
