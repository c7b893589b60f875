"""Compile every `x-dsl` field of merged content with the DSL checker and locate its issues in the files."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from kcd.content.merge import Merged
from kcd.content.schema import Schemas
from kcd.core.diagnostics import Diagnostic
from kcd.dsl.ast import Call, Node, Phrase, walk
from kcd.dsl import compose_check
from kcd.dsl.checker import CheckContext, compile_field
from kcd.content.yamlsafe import Path as YamlPath

# (text, field kind, context) -> (bound node or None, issues): most fields repeat across flocks and
# validations, and the editor re-validates on every keystroke.
_CACHE: dict[tuple[str, str, CheckContext], tuple[Node | None, list[Any]]] = {}
_CACHE_LIMIT = 20_000


@dataclass
class CompiledFields:
    """Bound AST nodes by logical file and merged path, and the primitives the content uses."""

    nodes: dict[str, dict[YamlPath, Node]] = field(default_factory=dict)
    kinds: dict[str, dict[YamlPath, str]] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def compile_one(text: str, kind: str, ctx: CheckContext) -> tuple[Node | None, list[Any]]:
    """compile_field with a process-wide cache."""
    key = (text, kind, ctx)
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.clear()
        node, issues = compile_field(text, kind, ctx)
        if not any(i.severity == "error" for i in issues):   # a whole field (a leader card's ability ...)
            issues = issues + compose_check.field_rules(node, kind)
        found = (node, issues)
        _CACHE[key] = found
    return found


def compile_merged(merged: Merged, schema_name: str | None, schemas: Schemas, ctx: CheckContext,
                   out: CompiledFields, extra: Sequence[tuple[YamlPath, str]] = ()) -> None:
    """Compile the DSL fields of one merged logical file into `out` (nodes, used primitives, diagnostics)."""
    fields = schemas.dsl_fields(schema_name, merged.data) if schema_name else []
    fields = list(fields) + list(extra)
    nodes = out.nodes.setdefault(merged.spec.name, {})
    kinds = out.kinds.setdefault(merged.spec.name, {})
    for path, kind in fields:
        if path in nodes:
            continue
        text = _value_at(merged.data, path)
        if not isinstance(text, str):
            continue
        node, issues = compile_one(text, kind, ctx)
        excepted = _exceptions(merged, path)
        for issue in issues:
            if issue.rule is not None and issue.rule in excepted:
                excepted[issue.rule] = True   # waived by the item's `exceptions:` entry (its reason is located)
                continue
            located = merged.where(path)
            if located is None:
                continue
            doc, doc_path = located
            loc = doc.span_location(doc_path, issue.span.start, issue.span.end)
            out.diagnostics.append(Diagnostic(issue.code, issue.message, loc, doc.source_line(loc.line),
                                              issue.hint, severity=issue.severity))
        for rule, used in excepted.items():
            if not used:
                diag = merged.diagnostic("exception-unused", f"the exception to {rule} waives nothing in `{path[-1]}`",
                                         path[:-1] + ("exceptions",), hint="remove the `exceptions:` entry: the "
                                         "field follows the rule")
                if diag is not None:
                    out.diagnostics.append(diag)
        if node is not None:
            nodes[path] = node
            kinds[path] = kind
            for sub in walk(node):
                if isinstance(sub, (Call, Phrase)) and sub.primitive:
                    out.used.add(sub.primitive)


def _exceptions(merged: Merged, path: YamlPath) -> dict[str, bool]:
    """{rule id: False} of the `exceptions:` the item holding the field at `path` declares for that field: a content
    item may set a rulebook default aside, each entry `{rule: R-..., field: <its field>, reason: ...}` (the schema
    asks for the reason); the checker's issue of that rule on that field is then waived."""
    item = _value_at(merged.data, path[:-1]) if path else None
    entries = item.get("exceptions") if isinstance(item, dict) else None
    if not isinstance(entries, list):
        return {}
    return {str(e["rule"]): False for e in entries
            if isinstance(e, dict) and isinstance(e.get("rule"), str) and e.get("field", path[-1]) == path[-1]}


def _value_at(data: Any, path: YamlPath) -> Any:
    for part in path:
        if isinstance(data, dict):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def substitute(data: Any, nodes: dict[YamlPath, Node], prefix: YamlPath = ()) -> Any:
    """A fresh copy of `data` (at merged path `prefix`) with compiled DSL nodes in place of their text."""
    if prefix in nodes:
        return nodes[prefix]
    if isinstance(data, dict):
        return {k: substitute(v, nodes, prefix + (k,)) for k, v in data.items()}
    if isinstance(data, list):
        return [substitute(v, nodes, prefix + (i,)) for i, v in enumerate(data)]
    return data


def clear_cache() -> None:
    """Forget compiled fields."""
    _CACHE.clear()
