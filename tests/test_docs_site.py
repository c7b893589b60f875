"""The documentation site builds with `mkdocs build --strict` (every page in the nav, no broken link or anchor), its
effect-language reference is the registry's own text (`kcd reference`), the API reference is generated from the
docstrings, and `kcd docs` serves it on 127.0.0.1."""
from __future__ import annotations

import html
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from processes import free_port, interruptible

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("mkdocs") is None:   # a developer without the docs extra; CI always has it
    if os.environ.get("CI"):
        raise ImportError("mkdocs is missing: the site must build in CI (pip install -e '.[docs]')")
    pytest.skip("the docs extra is not installed (pip install -e '.[docs]')", allow_module_level=True)


def _nav_pages(nav: list) -> list[str]:
    """Every page file named in mkdocs.yml's nav, in order."""
    pages: list[str] = []
    for entry in nav:
        for value in (entry.values() if isinstance(entry, dict) else [entry]):
            pages += _nav_pages(value) if isinstance(value, list) else [value]
    return pages


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once, strictly, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def _text(page: Path) -> str:
    """A built page's text without tags, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def test_every_markdown_page_is_in_the_nav_and_builds_strictly(site: Path) -> None:
    """No page is left out of the nav (a new page must be added to mkdocs.yml) and each one was built."""
    # mkdocs.yml holds no custom tags, so the safe loader reads it
    nav = _nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"])
    pages = sorted(str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md"))
    assert sorted(nav) == pages
    for page in nav:
        built = site / ("index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html")
        assert built.is_file(), page


def test_the_reference_page_is_the_registry_text_of_kcd_reference(site: Path) -> None:
    """The effect-language reference is generated when the site is built, so it never goes stale."""
    from kcd.apps.cli.main import reference_text

    text = reference_text()
    assert text.count("\n") > 100
    built = _text(site / "reference" / "index.html")
    for line in text.splitlines():
        assert line.strip() in built, line


def test_the_api_reference_is_built_from_the_docstrings(site: Path) -> None:
    """mkdocstrings renders the public Game API, the decision types, the typed actions and the views."""
    from kcd.engine import Game
    from kcd.core.decisions import Option

    built = _text(site / "api-reference" / "index.html")
    for name, doc in (("apply", Game.apply.__doc__), ("undo", Game.undo.__doc__), ("Option", Option.__doc__)):
        assert doc and " ".join(doc.split()[:6]) in " ".join(built.split()), name
    for name in ("Game", "Decision", "Refused", "action_from_dict", "view"):
        assert name in built


def _listening(port: int) -> list[str]:
    """The local addresses listening on TCP `port` (Linux /proc/net/tcp and tcp6; IPv4 as dotted quads)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:   # 0A: LISTEN
                found.append(socket.inet_ntoa(bytes.fromhex(address)[::-1]) if len(address) == 8 else address)
    return found


def test_kcd_docs_serves_the_site_on_localhost_and_stops_on_ctrl_c() -> None:
    """`kcd docs --port N` binds 127.0.0.1 only, serves the home page, and a Ctrl-C stops it."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "kcd.apps.cli.main", "docs", "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, NO_MKDOCS_2_WARNING="1"), **interruptible())
    try:
        page = ""
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not page:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    page = answer.read().decode("utf-8")
            except OSError:
                assert proc.poll() is None, proc.communicate()[0]
                time.sleep(0.5)
        assert "Kiwi Chow Down" in page
        assert _listening(port) == ["127.0.0.1"]
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
        assert f"serving http://127.0.0.1:{port}/" in out and "Traceback" not in out
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
