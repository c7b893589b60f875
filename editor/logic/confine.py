"""Keep every editor write inside the content folder: no `..`, no absolute paths, no symlinks out."""
from __future__ import annotations

from pathlib import Path, PurePosixPath


class OutsideContentError(ValueError):
    """A path that would leave the content folder."""


def inside(root: Path, rel: str | Path) -> Path:
    """The absolute path of `rel` below `root`; raises OutsideContentError if it would leave `root`."""
    root_real = Path(root).resolve()
    rel_text = str(rel).replace("\\", "/")
    parts = PurePosixPath(rel_text).parts
    if not rel_text or PurePosixPath(rel_text).is_absolute() or Path(rel_text).is_absolute():
        raise OutsideContentError(f"`{rel_text}`: only paths relative to the content folder are allowed")
    if any(part == ".." for part in parts):
        raise OutsideContentError(f"`{rel_text}`: `..` is not allowed in a content path")
    target = root_real.joinpath(*parts)
    # resolve() follows symlinks at every level, so a link anywhere on the way that points out is caught.
    real = target.resolve()
    if real != root_real and root_real not in real.parents:
        raise OutsideContentError(f"`{rel_text}` leads outside the content folder {root_real} (symlink?)")
    return target


def relative(root: Path, path: Path) -> str:
    """`path` relative to `root`, POSIX style (raises OutsideContentError when it is not below root)."""
    root_real = Path(root).resolve()
    real = Path(path).resolve()
    try:
        return real.relative_to(root_real).as_posix()
    except ValueError as exc:
        raise OutsideContentError(f"{path} is not inside the content folder {root_real}") from exc
