"""Start the Streamlit editor on localhost (owned by the editor)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent / "app.py"
ENV_CONTENT = "KCD_CONTENT"


def streamlit_command(content: Path, port: int) -> list[str]:
    """The `streamlit run` command line: bound to 127.0.0.1, headless, no usage statistics."""
    return [sys.executable, "-m", "streamlit", "run", str(APP),
            "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            "--", "--content", str(content)]


def resolve_content(content: str | None) -> Path:
    """The content folder to edit: the given one, else the shipped content."""
    if content:
        return Path(content).expanduser().resolve()
    from interpreter.paths import content_dir
    return content_dir().resolve()


def launch(content: str | None, port: int) -> int:
    """Run the editor app; returns the process exit code."""
    root = resolve_content(content)
    if not (root / "base").is_dir():
        print(f"kcd editor: {root} is not a content folder (it has no base/)", file=sys.stderr)
        return 2
    if not 1 <= port <= 65535:
        print(f"kcd editor: --port must be 1..65535, got {port}", file=sys.stderr)
        return 2
    env = dict(os.environ, **{ENV_CONTENT: str(root)})
    print(f"Kiwi Chow Down editor: http://127.0.0.1:{port}  (content: {root})", flush=True)
    try:
        return subprocess.call(streamlit_command(root, port), env=env)
    except KeyboardInterrupt:
        return 0
