"""Start the Streamlit editor on localhost (owned by the editor)."""
from __future__ import annotations


def launch(content: str | None, port: int) -> int:
    """Run the editor app; returns the process exit code."""
    raise SystemExit("the editor is being built")
