"""Readable rules text of a DSL node for labels and events (the DSL renderer; the words as written as a fallback)."""
from __future__ import annotations

import functools

from kcd.dsl import ast, render


@functools.lru_cache(maxsize=4096)
def _rendered(node: ast.Node) -> str:
    try:
        return render(node)
    except Exception:  # a label must never stop the game; fall back to the words as written
        return _words(node)


def describe(node: ast.Node | None) -> str:
    """Readable rules text of a node (the DSL renderer; the words as written as a fallback)."""
    if node is None:
        return "nothing"
    try:
        return _rendered(node)
    except TypeError:   # unhashable node
        return _words(node)


def _words(node: ast.Node | None) -> str:
    """The node's words as written."""
    if node is None:
        return "nothing"
    if isinstance(node, ast.Call):
        return " ".join(w.text for w in node.words) or (node.primitive or "?")
    if isinstance(node, ast.Seq):
        return "; ".join(_words(s) for s in node.stmts)
    if isinstance(node, ast.May):
        return f"may {{ {_words(node.body)} }}"
    if isinstance(node, ast.Repeat):
        return f"repeat {node.count} {{ {_words(node.body)} }}"
    if isinstance(node, ast.Choose):
        return " or ".join(f"{{ {_words(o)} }}" for o in node.options)
    return type(node).__name__
