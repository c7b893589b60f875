"""Start the Streamlit editor on localhost (owned by the editor)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

# The main script's file name is the first sidebar entry's label in a Streamlit multipage app: "Home".
APP = Path(__file__).resolve().parent / "Home.py"
ENV_CONTENT = "KCD_CONTENT"
# seconds the server has to stop after Ctrl+C before it is killed (Streamlit takes about 0.2-0.9 s; a kill loses
# nothing: edits are autosaved as typed and a save interrupted midway is undone when the editor next starts)
STOP_GRACE = 1.0


def streamlit_command(content: Path, port: int) -> list[str]:
    """The `streamlit run` command line: bound to 127.0.0.1, headless, no usage statistics, minimal toolbar."""
    return [sys.executable, "-m", "streamlit", "run", str(APP),
            "--server.address", "127.0.0.1", "--server.port", str(port), "--server.headless", "true",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
            # a designers' tool on localhost: no "Deploy" button or developer menu items
            "--client.toolbarMode", "minimal",
            "--", "--content", str(content)]


def resolve_content(content: str | None) -> Path:
    """The content folder to edit: the given one, else the shipped content."""
    if content:
        return Path(content).expanduser().resolve()
    from kcd.core.paths import content_dir
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
    if not port_free(port):
        print(f"kcd editor: port {port} on 127.0.0.1 is in use (another editor?); choose one with --port",
              file=sys.stderr)
        return 2
    from kcd.apps.editor.logic.store import clean_tmp

    try:
        clean_tmp(root)   # what a killed save left in .kcd-tmp/ (the app does it too, for `streamlit run`)
    except OSError as exc:
        print(f"kcd editor: could not clean {root}/.kcd-tmp ({exc}); continuing", file=sys.stderr)
    env = dict(os.environ, **{ENV_CONTENT: str(root)})
    print(f"Kiwi Chow Down editor: http://127.0.0.1:{port}  (content: {root}; Ctrl+C here stops it)", flush=True)
    proc = subprocess.Popen(streamlit_command(root, port), env=env)

    def forward(signum: int, _frame: Any) -> None:
        """Stopping `kcd editor` (kill, a closed terminal) stops the server too, never leaving it orphaned."""
        if proc.poll() is None:
            proc.send_signal(signum)

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), forward)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        # A terminal's Ctrl+C reaches the whole group, `kill -INT <pid>` only this launcher: tell the server to stop
        # either way. SIGTERM, not a second SIGINT, which makes a stopping Streamlit print a KeyboardInterrupt
        # traceback; then end it hard if it lingers.
        forward(signal.SIGTERM, None)
        try:
            return proc.wait(timeout=STOP_GRACE)
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            proc.kill()
            proc.wait()
            return 0


def port_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:`port` (Streamlit would otherwise exit after our banner)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # as the server does: a just-stopped editor's lingering connections must not count as "in use"
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
