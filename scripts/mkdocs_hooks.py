"""mkdocs hooks: pages generated from the code, so they cannot go stale (mkdocs.yml `hooks`)."""
from __future__ import annotations

from typing import Any

REFERENCE_MARKER = "<!-- generated: kcd reference -->"


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Put the text of `kcd reference` (the effect language's registry) where a page holds the marker."""
    if REFERENCE_MARKER not in markdown:
        return markdown
    from kcd.apps.cli.main import reference_text

    return markdown.replace(REFERENCE_MARKER, "```text\n" + reference_text() + "```")
