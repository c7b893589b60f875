"""Command-line game choices shared by `kcd play`, `kcd simulate` and `kcd balance`: sides, Leaders, scheduler.

- `--sides b` puts every flock on side B (`a`: side A); `--sides red=b,green=a` chooses per flock (the others
  play side A, or both sides by design in `kcd balance`). Sides are the flock board's A and B (R-ASYM-1).
- `--leaders red=kahu,green=tui-2`: per flock, a Leader id (its first card) or a Leader card id (that card's
  Leader with that card, R-SETUP-3); flocks not named are dealt a Leader from the game seed.
- `--scheduler tcp://HOST:PORT`: a Dask distributed scheduler to run the games on.
- `--engine native|python`: the engine the games run on (kcd.core.native; the same decisions either way).
- `--seed N`: a whole number from 0 to 2^64-1 (the engine's RNG state is 64 bits, so a larger or negative seed
  would wrap onto another seed's game); with `games` the last game's seed + i must fit too. The same check for
  the benchmark scripts' argparse (`seed_arg`).

The parsers raise OptionError naming the bad value and the known ones; `or_exit` turns that into the CLI's
usage error (exit 2).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence, TypeVar
from urllib.parse import urlsplit

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset

# The two sides of a flock board (R-ASYM-1): the engine's side ids.
SIDES: tuple[str, ...] = ("A", "B")
SCHEDULER_SCHEMES: tuple[str, ...] = ("tcp", "tls", "ws", "wss")
SIDES_HELP = ("Flock board sides: `b` (every flock on side B), `a`, or per flock `red=b,green=a` "
              "(flocks not named play side A).")
LEADERS_HELP = ("Leaders per flock: `red=kahu,green=tui-2`, each a Leader id (its first card) or a Leader card id; "
                "flocks not named are dealt one from the seed.")
SCHEDULER_HELP = "Run the games on a Dask distributed cluster: the scheduler's address, e.g. tcp://10.0.0.5:8786."
ENGINE_HELP = ("Engine: native (the Python machine with compiled kernels, where built) or python (the reference); "
               "the same games either way.")
SEED_MAX = (1 << 64) - 1   # the engine keeps seed & (2^64 - 1): every seed above wraps onto one below

T = TypeVar("T")


class OptionError(ValueError):
    """A command-line choice that names something unknown or is malformed."""


def _pairs(text: str, option: str) -> list[tuple[str, str]]:
    """`a=b,c=d` -> [(a, b), (c, d)]; OptionError on an entry without `=`."""
    out = []
    for entry in (e.strip() for e in text.split(",")):
        if not entry:
            continue
        flock, eq, value = entry.partition("=")
        if not eq or not flock.strip() or not value.strip():
            raise OptionError(f"{option}: `{entry}` is not FLOCK=VALUE (e.g. red=b)")
        out.append((flock.strip(), value.strip()))
    if not out:
        raise OptionError(f"{option}: nothing given")
    return out


def _check_flock(flock: str, option: str, playing: Sequence[str], known: Sequence[str]) -> None:
    if flock not in known:
        raise OptionError(f"{option}: unknown flock `{flock}`; known flocks: {', '.join(known)}")
    if flock not in playing:
        raise OptionError(f"{option}: flock `{flock}` is not playing; playing: {', '.join(playing)}")


def _side(value: str, option: str, flock: str | None = None) -> str:
    side = value.strip().upper()
    if side not in SIDES:
        where = f" for {flock}" if flock else ""
        raise OptionError(f"{option}: unknown side `{value}`{where}; known sides: "
                          f"{', '.join(s.lower() for s in SIDES)}")
    return side


def parse_sides(text: str | None, playing: Sequence[str], known: Sequence[str]) -> dict[str, str] | None:
    """{flock: "A"|"B"} from `--sides` (None: not given); `playing` are the seated flocks, `known` all of them."""
    if text is None:
        return None
    if "=" not in text:
        side = _side(text, "--sides")
        return {f: side for f in playing}
    out: dict[str, str] = {}
    for flock, value in _pairs(text, "--sides"):
        _check_flock(flock, "--sides", playing, known)
        if flock in out:
            raise OptionError(f"--sides: flock `{flock}` is named twice")
        out[flock] = _side(value, "--sides", flock)
    return out


def leader_catalogue(ruleset: Ruleset) -> tuple[list[str], dict[str, str]]:
    """(Leader ids, {Leader card id: its Leader id}) of the content."""
    leaders = [item.id for item in ruleset.items("leaders")]
    cards = {item.id: item.parent for item in ruleset.items("leader_cards") if item.parent}
    return leaders, cards


def parse_leaders(text: str | None, ruleset: Ruleset, playing: Sequence[str],
                  known: Sequence[str]) -> tuple[dict[str, str] | None, dict[str, str] | None]:
    """(leaders, leader_cards) per flock from `--leaders` ((None, None): not given)."""
    if text is None:
        return None, None
    leader_ids, cards = leader_catalogue(ruleset)
    leaders: dict[str, str] = {}
    chosen: dict[str, str] = {}
    for flock, value in _pairs(text, "--leaders"):
        _check_flock(flock, "--leaders", playing, known)
        if flock in leaders:
            raise OptionError(f"--leaders: flock `{flock}` is named twice")
        if value in cards:
            leaders[flock], chosen[flock] = cards[value], value
        elif value in leader_ids:
            leaders[flock] = value
        else:
            raise OptionError(f"--leaders: unknown Leader or Leader card `{value}` for {flock}; Leaders: "
                              f"{', '.join(leader_ids)}; Leader cards: {', '.join(cards)}")
    taken = list(leaders.values())
    twice = next((leader for leader in taken if taken.count(leader) > 1), None)
    if twice:
        who = [f for f, leader in leaders.items() if leader == twice]
        raise OptionError(f"--leaders: Leader `{twice}` is given to {' and '.join(who)}; a Leader leads one flock")
    return leaders, chosen or None


def parse_scheduler(text: str | None) -> str | None:
    """A Dask scheduler address `tcp://HOST:PORT` (None: not given, run on local processes)."""
    if text is None:
        return None
    parts = urlsplit(text.strip())
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme not in SCHEDULER_SCHEMES or not parts.hostname or port is None or parts.path not in ("", "/"):
        raise OptionError(f"--scheduler: `{text}` is not a Dask scheduler address; give "
                          f"{'|'.join(SCHEDULER_SCHEMES)}://HOST:PORT, e.g. tcp://127.0.0.1:8786")
    return text.strip().rstrip("/")


def parse_seed(value: int, games: int = 1, maximum: int = SEED_MAX, note: str = "") -> int:
    """`value` when it and the seeds of the games after it (seed + i, i < games) lie in 0..maximum; OptionError
    naming the range otherwise (never a wrapped seed: two printed seeds would play the same game)."""
    if value < 0 or value > maximum:
        raise OptionError(f"--seed {value}: a seed is a whole number from 0 to {maximum}{note}")
    if value + games - 1 > maximum:
        raise OptionError(f"--seed {value}: game i uses seed + i, and the last of {games} games would pass "
                          f"{maximum}; give a seed of at most {maximum - games + 1}")
    return value


def seed_arg(text: str) -> int:
    """argparse `type=` for a script's `--seed`: the same range as `parse_seed`."""
    import argparse

    try:
        return parse_seed(int(text))
    except ValueError as err:   # OptionError is a ValueError too
        message = str(err) if isinstance(err, OptionError) else f"`{text}` is not a whole number"
        raise argparse.ArgumentTypeError(message) from None


def or_exit(parse: Callable[..., T], *args: Any) -> T:
    """`parse(*args)`, or the usage error (`kcd <command>: error: ...` on stderr, exit 2) that the OptionError
    describes."""
    from kcd.apps.cli.errors import fail

    try:
        return parse(*args)
    except OptionError as err:
        fail(str(err))


def use_engine(engine: str) -> str:
    """Run this process's games (and its worker processes') on `engine`, via $KCD_ENGINE; "native" where the
    kernels are not built runs "python" and says so once on stderr. Returns the engine that runs."""
    import os

    from kcd.core import native

    try:
        name = native.resolve(engine)
    except ValueError as err:
        raise OptionError(f"--engine: {err}") from None
    if name != native.default():   # (the default needs no setting: the environment stays as it was)
        os.environ[native.ENV] = name
    return name


def known_flocks(ruleset: Ruleset) -> list[str]:
    """Every flock id of the content, in content order."""
    return [item.id for item in ruleset.items("flocks")]


@contextmanager
def exit_on_interrupt(what: str = "the run") -> Iterator[None]:
    """Ctrl-C: a one-line message and exit 130 (the runner has already ended every worker), no traceback."""
    import typer

    try:
        yield
    except KeyboardInterrupt:
        typer.echo(f"interrupted: {what} was stopped (Ctrl-C); every worker has ended", err=True)
        raise typer.Exit(130) from None
