"""Every example in README.md and docs/**/*.md runs, and shows what it prints (Sybil), so the docs cannot drift.

The convention (docs/testing.md, "The documentation"):
- ```python blocks run as written from the repository root, the blocks of one file in one namespace, top to
  bottom; `>>>` lines are doctests whose output is compared (`...` is a wildcard);
- ```console blocks hold `$ ` command lines, each followed by its exact expected output (stdout and stderr
  together, `...` matching any text); each line runs in bash from the repository root with this interpreter's
  bin folder (the venv's) first on PATH;
- every other fence (```text, ```yaml, ```bash ...) is only shown.
One test per file: a file's examples share state, so they run in order and the first that fails names its line.
"""
from __future__ import annotations

import doctest
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("sybil") is None:   # a developer without the docs extra; CI always has it
    if os.environ.get("CI"):
        raise ImportError("sybil is missing: the docs' examples must run in CI (pip install -e '.[docs]')")
    pytest.skip("the docs extra is not installed (pip install -e '.[docs]')", allow_module_level=True)

from sybil import Example, Sybil  # noqa: E402 - after the check above
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# the venv's bin as the test runs it: not resolved, since .venv/bin/python is a link to the system interpreter
BIN = Path(sys.executable).parent
CONSOLE_TIMEOUT = 600


def documents() -> list[Path]:
    """README.md and every Markdown page under docs/ (a page added there is picked up as it is)."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def console_steps(source: str) -> list[tuple[str, str]]:
    """The (command, expected output) pairs of a console block: a `$ ` line, then the lines up to the next one."""
    steps: list[tuple[str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise ValueError(f"a console block starts with a `$ ` command line, not {line!r}")
    return [(command, "\n".join(lines)) for command, lines in steps]


def output_matches(expected: str, actual: str) -> bool:
    """Whether `actual` is `expected` line for line (trailing blanks ignored), `...` matching any text."""
    def tidy(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())
    pattern = ".*?".join(re.escape(part) for part in tidy(expected).split("..."))
    return re.fullmatch(pattern, tidy(actual), re.DOTALL) is not None


def console_env() -> dict[str, str]:
    """The shell's environment: the venv's bin first on PATH, a fixed terminal width, no colour."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="100", NO_COLOR="1",
               TERM="dumb")
    env.pop("FORCE_COLOR", None)
    return env


def evaluate_console(example: Example) -> str | None:
    """Run each `$ ` line of a console block; the first whose output differs is the failure's message."""
    for command, expected in console_steps(example.parsed):
        done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=console_env(), stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=CONSOLE_TIMEOUT)
        if not output_matches(expected, done.stdout):
            return (f"$ {command}\n(exit {done.returncode})\n--- expected ---\n{expected}\n"
                    f"--- got ---\n{done.stdout}")
    return None


SYBIL = Sybil(parsers=[
    PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS),
    CodeBlockParser(language="console", evaluator=evaluate_console),
])


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_example_of_the_page_runs_and_prints_what_it_shows(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each python and console example of one page, in order, in one namespace."""
    from kcd.engine import mode_registry as modes

    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    # a page may register a mode of its own (docs/api.md does): the rest of the suite sees the registry as it was
    monkeypatch.setattr(modes, "_MODES", dict(modes._MODES))
    monkeypatch.setattr(modes, "_VARIANTS", dict(modes._VARIANTS))
    for example in SYBIL.parse(path):
        example.evaluate()


def test_console_blocks_compare_output_with_a_wildcard() -> None:
    """The runner itself: `...` matches any text, other text must match exactly, and a mismatch is reported."""
    assert console_steps("$ echo a\na\n$ true\n") == [("echo a", "a"), ("true", "")]
    assert output_matches("kcd: ...\nok", "kcd: three\nlines\nok\n")
    assert not output_matches("ok", "ok\nmore")
    assert not output_matches("a ... c", "a b d")
    with pytest.raises(ValueError, match="starts with a `\\$ `"):
        console_steps("echo a\n")


def test_a_wrong_console_example_fails_with_what_it_printed(tmp_path: Path) -> None:
    """A page whose example shows other output than the command prints fails, naming the command and the output."""
    page = tmp_path / "page.md"
    page.write_text("Text.\n\n```console\n$ echo right\nwrong\n```\n\n```text\n$ not run\n```\n", encoding="utf-8")
    examples = list(SYBIL.parse(page))
    assert len(examples) == 1
    with pytest.raises(AssertionError, match=r"(?s)\$ echo right.*expected.*wrong.*got.*right"):
        examples[0].evaluate()


def test_python_blocks_of_a_page_share_a_namespace_and_doctests_compare_output(tmp_path: Path) -> None:
    """Two python blocks of one page: the second sees the first's names; a wrong `>>>` output fails."""
    page = tmp_path / "page.md"
    page.write_text("```python\nx = 2\n```\n\n```python\n>>> x + 1\n3\n>>> x\n5\n```\n", encoding="utf-8")
    *passing, wrong = SYBIL.parse(page)     # the code block, then one example per `>>>` line
    for example in passing:
        example.evaluate()
    with pytest.raises(AssertionError, match="Expected:\\s+5\\s+Got:\\s+2"):
        wrong.evaluate()
