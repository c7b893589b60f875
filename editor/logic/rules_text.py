"""Rules text for a DSL field as the designer types it (the DSL's own compile + render)."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from kcd.content.layout import BASE_FOLDER, PACK_DIRS
from kcd.apps.editor.logic import catalog as cat
from kcd.apps.editor.logic.confine import inside

# What a Season card / track slot with `null` means on the printed card (SPEC.md: null = "no benefit").
NO_BENEFIT = "No benefit"


@dataclass(frozen=True)
class Rendered:
    """The rules text of a field, or the reasons there is none."""

    text: str | None
    issues: tuple[str, ...] = ()


def game_settings(root: Path, rel: str) -> dict:
    """game.yaml of base merged with the game.yaml of the pack `rel` belongs to (safe loader)."""
    paths = [f"{BASE_FOLDER}/game.yaml"]
    pack, kind = cat.pack_of(rel)
    folder = next((name for name, of in PACK_DIRS if of == kind), None)
    if folder is not None:
        paths.append(f"{folder}/{pack}/game.yaml")
    texts = []
    for sub in paths:
        path = inside(root, sub)
        texts.append(path.read_text(encoding="utf-8") if path.is_file() else "")
    return copy.deepcopy(_merged_settings(tuple(texts)))


@lru_cache(maxsize=16)
def _merged_settings(texts: tuple[str, ...]) -> dict:
    """The deep merge of some game.yaml texts (remembered: the page asks on every keystroke)."""
    from kcd.content.merge import deep_merge

    merged: dict = {}
    for text in texts:
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError:
            continue
        if isinstance(data, dict):
            merged = deep_merge(merged, data)   # a pack's game.yaml is a deep-merge patch
    return merged


def check_context(root: Path, rel: str) -> Any:
    """The DSL CheckContext (fruits, terrains, largest Kiwi size) of the set a file belongs to, read as the
    loader reads it (a malformed game.yaml gives empty lists, never an exception)."""
    from kcd.content import dsl_context

    return dsl_context(game_settings(root, rel))


def render_field(text: str | None, field_kind: str, ctx: Any) -> Rendered:
    """Compile a DSL field like the loader does and render its rules text; issues as readable lines."""
    try:
        return _render_cached(text, field_kind, ctx)
    except TypeError:   # an unhashable context: compile without the memo
        return _render(text, field_kind, ctx)


@lru_cache(maxsize=2048)
def _render_cached(text: str | None, field_kind: str, ctx: Any) -> Rendered:
    """render_field, remembered per text, kind and context (the page renders every DSL field on each rerun)."""
    return _render(text, field_kind, ctx)


def _render(text: str | None, field_kind: str, ctx: Any) -> Rendered:
    """Compile and render one DSL field."""
    from kcd.dsl import compile_field, render

    if text is None or not str(text).strip():
        return Rendered(NO_BENEFIT)
    node, issues = compile_field(str(text), field_kind, ctx)
    lines = tuple(f"{i.code}: {i.message}" + (f" (hint: {i.hint})" if i.hint else "") for i in issues)
    if node is None or issues:
        return Rendered(None, lines)
    return Rendered(render(node), lines)
