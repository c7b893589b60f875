"""Fixtures shared by several test modules."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kcd.core import paths


@pytest.fixture
def no_disk_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Validation without the on-disk schema-result cache, and with cold in-process caches."""
    from kcd.content import clear_caches

    monkeypatch.setenv("KCD_NO_CACHE", "1")
    clear_caches()


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the shipped content and schemas; the working directory is its parent."""
    shutil.copytree(paths.content_dir(), tmp_path / "content")
    shutil.copytree(paths.schemas_dir(), tmp_path / "schemas")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "content"


@pytest.fixture
def editor_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of content/ that the editor app edits (passed like `kcd editor --content`)."""
    folder = tmp_path / "content"
    shutil.copytree(paths.content_dir(), folder)
    monkeypatch.setenv("KCD_CONTENT", str(folder))
    return folder
