"""The content loader: safe line-mapped YAML, schema and DSL checks, overlays and the immutable Ruleset.

```python
from kcd.content import load_ruleset, validate_paths, validate_text, available_packs, Ruleset, Item
rs = load_ruleset(overlays=["prototype"])     # raises ContentError(diagnostics) when invalid
```
"""
from __future__ import annotations

from kcd.content.loader import available_packs, clear_caches, content_packs, dsl_context, load_ruleset, validate_text
from kcd.content.model import KINDS, Item, Origin, Pack, Ruleset
from kcd.content.validate import ValidationReport, validate_paths, validate_report
from kcd.core.diagnostics import ContentError, Diagnostic, Location

__all__ = [
    "load_ruleset", "dsl_context", "validate_paths", "validate_report", "validate_text", "available_packs",
    "content_packs", "clear_caches",
    "Ruleset", "Item", "Origin", "Pack", "KINDS", "ValidationReport",
    "ContentError", "Diagnostic", "Location",
]
