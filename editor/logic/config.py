"""Which content folder the running app edits (from `-- --content DIR` or the KCD_CONTENT variable)."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Sequence

ENV_CONTENT = "KCD_CONTENT"


def content_root(argv: Sequence[str] | None = None, environ: dict | None = None) -> Path:
    """The content root: `--content DIR` in the script's argv, else $KCD_CONTENT, else the shipped content."""
    args = list(sys.argv[1:] if argv is None else argv)
    env = os.environ if environ is None else environ
    for index, arg in enumerate(args):
        if arg == "--content" and index + 1 < len(args):
            return Path(args[index + 1]).expanduser().resolve()
        if arg.startswith("--content="):
            return Path(arg.split("=", 1)[1]).expanduser().resolve()
    if env.get(ENV_CONTENT):
        return Path(env[ENV_CONTENT]).expanduser().resolve()
    from kcd.core.paths import content_dir
    return content_dir().resolve()
