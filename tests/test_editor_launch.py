"""`kcd editor` stops on SIGINT sent to its own pid (a `kill -INT`, a process manager) within 2 s, and takes its
Streamlit server with it; Ctrl-C to the whole group (a terminal) too."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from processes import free_port, interruptible

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    """The pids whose parent is `pid` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _started_editor(content: Path) -> tuple[subprocess.Popen[str], int, int]:
    """A `kcd editor` whose server answers on its port: (launcher, its Streamlit child's pid, port)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "kcd.apps.cli.main", "editor", "--content", str(content),
                             "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, **interruptible())
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:   # healthy, not only listening: Streamlit binds its port before it is up
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                if answer.read() == b"ok":
                    break
        except OSError:
            assert proc.poll() is None, proc.communicate()[0]
            time.sleep(0.3)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the editor never became healthy")
    children = _children(proc.pid)
    assert len(children) == 1, children
    return proc, children[0], port


@pytest.mark.parametrize("to_group", [False, True], ids=["kill -INT pid", "Ctrl-C to the group"])
def test_sigint_stops_kcd_editor_and_its_server_within_2_s(editor_content: Path, to_group: bool) -> None:
    proc, server, _port = _started_editor(editor_content)
    start = time.monotonic()
    if to_group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        os.kill(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    took = time.monotonic() - start
    assert took <= 2.0, f"kcd editor took {took:.1f} s to stop"
    deadline = time.monotonic() + 2
    while _alive(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(server), "the Streamlit server outlived kcd editor"
    assert "Traceback" not in (proc.stdout.read() if proc.stdout else "")
