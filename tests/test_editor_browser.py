"""End to end in real headless Chromium: `kcd editor` serves the app; edit a Season card's benefit, save,
check the file on disk, undo. Marker `browser`. The helpers here (start the editor, open Chromium
with the project's flags, find inputs of the current run) serve test_editor_browser_content.py too."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
SEASON = "base/season_cards.yaml"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LIVE = '.stElementContainer[data-stale="false"]'   # elements of the current run, not stale copies

pytestmark = pytest.mark.browser


def free_port() -> int:
    """A port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    """Wait until Streamlit answers its health check."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"kcd editor exited with {proc.returncode}: {proc.stdout.read()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError("the editor did not come up")


def need_chromium() -> None:
    """Skip without Chromium, except in CI where its absence is a failure."""
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: the browser tests must run in CI")
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium)")


@contextmanager
def editor(content: Path) -> Iterator[tuple[str, str]]:
    """`kcd editor` on a free port; yields (address, the first line it printed) and stops the process group."""
    with editor_process(content) as (address, first, _pgid):
        yield address, first


@contextmanager
def editor_process(content: Path) -> Iterator[tuple[str, str, int]]:
    """As `editor`, also yielding the editor's process group id (for tests that look for its children)."""
    port = free_port()
    kcd = Path(sys.executable).with_name("kcd")
    command = [str(kcd)] if kcd.exists() else [sys.executable, "-m", "kcd.apps.cli.main"]
    proc = subprocess.Popen(command + ["editor", "--content", str(content), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        first = proc.stdout.readline()
        wait_healthy(port, proc)
        yield f"http://127.0.0.1:{port}", first, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the editor and its streamlit child: the group we started
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextmanager
def browser_page(height: int = 1000, timeout_ms: int = 60_000) -> Iterator:
    """A Chromium page with the project's flags (a cold Streamlit start on 2 busy cores can take a while)."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=timeout_ms)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": height})
            page.set_default_timeout(timeout_ms)
            yield page
        finally:
            browser.close()


def field(page, label: str):
    """The keystroke input (kcd.apps.editor.textfield) whose label starts with `label`, of the current run (Streamlit
    keeps a stale copy on screen while a rerun replaces a widget by one with a new key)."""
    return page.locator(f"{LIVE} .kcdtext").filter(
        has=page.locator("label", has_text=re.compile("^" + re.escape(label)))).locator(".kcdtext__input")


def button(page, name):
    """A button of the current run (not a stale copy)."""
    return page.locator(LIVE).get_by_role("button", name=name, exact=isinstance(name, str))


def test_R_SCARD_5_browser_edit_season_card_benefit_and_save(tmp_path: Path) -> None:
    need_chromium()
    from playwright.sync_api import expect

    content = tmp_path / "content"
    shutil.copytree(REPO / "content", content)
    original = (content / SEASON).read_text()
    with editor(content) as (url, first), browser_page() as page:
        assert url in first and str(content) in first and "Ctrl+C" in first
        page.goto(f"{url}/Content?item=season_cards/least-flower")
        victor = field(page, "Victor")
        expect(victor).to_have_value("gain 2 fruit")
        expect(page.get_by_text("Rules text: Gain 2 Fruits").first).to_be_visible()
        victor.fill("gain 3 fruit")   # validated as typed: no Ctrl+Enter, no leaving the field
        expect(page.get_by_text("Rules text: Gain 3 Fruits").first).to_be_visible()
        save = button(page, "Save")
        expect(save).to_be_enabled()
        save.click()
        expect(page.get_by_text("Saved base/season_cards.yaml")).to_be_visible()
        saved = (content / SEASON).read_text()
        changed = [(a, b) for a, b in zip(original.splitlines(), saved.splitlines()) if a != b]
        assert changed == [("  victor: gain 2 fruit", "  victor: gain 3 fruit")]
        assert len(saved.splitlines()) == len(original.splitlines())
        # Undo: the file and what the browser shows in the field both go back
        button(page, "Undo last save").click()
        expect(page.get_by_text("Undone: base/season_cards.yaml")).to_be_visible()
        expect(button(page, "Undo last save")).to_be_disabled()
        expect(victor).to_have_value("gain 2 fruit")
        assert (content / SEASON).read_text() == original
