"""Playtests in a child process of their own, so the editor never forks itself.

Streamlit's server is a multi-threaded process with its own signal handling; worker processes forked from it
hung after the last game and outlived a closed page. So the Playtest page never simulates in its own process:
`start(job)` runs `python -m kcd.apps.editor.logic.runner JOB.json` as a new session (its own process group), in a
private temporary folder (mode 0700). The child loads the content, plays the games with
`kcd.analysis.sim.simulate` (which may fork its `jobs` workers there: a plain single-threaded Python process)
and appends JSON lines to `events.jsonl` in that folder:

    {"event": "start", "sides": ["A", "B"], "total": 400}
    {"event": "progress", "side": "A", "done": 17, "total": 400}     # games done over all sides
    {"event": "records", "side": "A", "records": [GameRecord.to_dict(), ...]}
    {"event": "error", "message": "...", "diagnostics": ["file:line:col: error[...]: ...", ...]}
    {"event": "done"}

`Run.poll()` reads the lines written so far (never blocking); `Run.cancel()` stops the whole process group
(SIGTERM, so the child's pool terminates and reaps its workers; SIGKILL for whatever is left after a grace
period) and reaps the child, so a cancelled playtest leaves no process behind. The child also stops by itself
when the editor that started it is gone (its parent process changes).

A job with several sides (an A/B test) plays the same seeds on each side's content: a side is the content
folder with some files' texts replaced (`overrides`: {relative path: text}, any number of files: a whole
change), copied into the private folder, and its own overlays (a pack against the set without it). An A/B job
with a `width` plays in batches until the 95% interval on its main effect is that narrow
(kcd.analysis.abtest.until_narrow; `games` is then the cap), reporting after each batch:

    {"event": "records", "side": "A", "records": [...], "append": true}     # this batch's games
    {"event": "interval", "main": "flock:red", "label": "...", "low": -0.04, "high": 0.05, "pairs": 60,
     "reached": false, "needed": 310, "width": 0.1}
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

EVENTS = "events.jsonl"
JOB = "job.json"
STDERR = "stderr.txt"
# How long a cancelled child may take to terminate its workers before the group is killed outright.
GRACE_SECONDS = 5.0


@dataclass(frozen=True)
class PlaytestSetup:
    """Everything the Playtest page asks for."""

    players: int = 2
    games: int = 20
    seed: int = 0
    bots: tuple[str, ...] = ("greedy",)
    flocks: tuple[str, ...] | None = None
    leaders: Mapping[str, str] | None = None
    sides: Mapping[str, str] | None = None
    setup: str = "first-game"  # first-game starting positions or the advanced setup (R-SETUP-5/6)
    variant: str | None = None  # rules variant: None (standard) or an id of `variants(ruleset)`, e.g. "vto"
    overlays: tuple[str, ...] = ()
    jobs: int = 1  # worker processes of the simulation (the results do not depend on it)
    # "standard" or "solo": one bot (the first of `bots`) against Kiwibot, flocks = (player, kiwibot) (R-SOLO-1..12)
    mode: str = "standard"
    solo_side: str | None = None  # Solo-mode marker side id (R-SOLO-12); None: dealt from each game's seed

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data (tuples as lists, mappings as dicts)."""
        data = asdict(self)
        return {k: (list(v) if isinstance(v, tuple) else dict(v) if isinstance(v, Mapping) else v)
                for k, v in data.items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PlaytestSetup":
        """The setup written by `to_dict` (unknown keys are refused by the dataclass)."""
        values = dict(data)
        for key in ("bots", "flocks", "overlays"):
            if values.get(key) is not None:
                values[key] = tuple(values[key])
        return cls(**values)


def load(root: Path, overlays: Sequence[str]) -> Any:
    """The ruleset of a content root with overlays (ContentError if it does not validate)."""
    from kcd.content import load_ruleset

    return load_ruleset(overlays=list(overlays), root=Path(root).resolve())


def simulate_setup(ruleset: Any, setup: PlaytestSetup, progress: Callable[[int, int], None] | None = None) -> Any:
    """Play the setup's games with kcd.analysis.sim.simulate in this process; returns its SimReport."""
    from kcd.analysis.sim import simulate

    from kcd.engine import mode_registry as modes
    from kcd.content.rules import compile_rules

    mode = modes.select(setup.mode, None)
    players = mode.player_count or setup.players
    deciding = sum(role.decides for role in mode.seat_roles(players))
    own = {option.name for option in mode.setup_options(compile_rules(ruleset))}
    # only the deciding seats take bots (solo: the player's; the engine plays Kiwibot)
    return simulate(ruleset, setup.games, players=players, seed=setup.seed,
                    bots=tuple(setup.bots) if deciding == players else tuple(setup.bots)[:deciding],
                    jobs=max(1, int(setup.jobs)), progress=progress, flocks=list(setup.flocks) if setup.flocks else None,
                    leaders=dict(setup.leaders) if setup.leaders else None,
                    sides=dict(setup.sides) if setup.sides else None, setup=setup.setup,
                    variant=setup.variant if mode.takes_variants else None, mode=setup.mode,
                    solo_side=setup.solo_side if "solo_side" in own else None)


@dataclass(frozen=True)
class Side:
    """One content version a job plays: the content folder with `overrides` ({relative path: text})."""

    label: str
    overrides: Mapping[str, str] = field(default_factory=dict)
    overlays: tuple[str, ...] | None = None   # this side's editions and mods (None: the setup's)


@dataclass(frozen=True)
class Job:
    """A playtest to run in a child process: the same setup (and seeds) on each side."""

    root: str
    setup: PlaytestSetup
    sides: tuple[Side, ...] = (Side("A"),)
    width: float | None = None    # A/B: play until the main effect's 95% interval is this narrow (games: the cap)
    main: str | None = None       # A/B: the main effect's row ("group:key"; None: abtest.main_row's choice)
    batch: int = 20               # A/B with a width: games per look

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data."""
        return {"root": str(self.root), "setup": self.setup.to_dict(), "width": self.width, "main": self.main,
                "batch": self.batch,
                "sides": [{"label": s.label, "overrides": dict(s.overrides),
                           "overlays": None if s.overlays is None else list(s.overlays)} for s in self.sides]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Job":
        """The job written by `to_dict`."""
        sides = tuple(Side(str(s["label"]), dict(s.get("overrides") or {}),
                           None if s.get("overlays") is None else tuple(s["overlays"])) for s in data["sides"])
        width = data.get("width")
        return cls(str(data["root"]), PlaytestSetup.from_dict(data["setup"]), sides,
                   None if width is None else float(width), data.get("main"), int(data.get("batch") or 20))


@dataclass
class Status:
    """What a run has reported so far."""

    done: int = 0
    total: int = 0
    side: str | None = None   # the side being played
    sides: list[str] = field(default_factory=list)
    records: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    error: str | None = None
    diagnostics: list[str] = field(default_factory=list)
    finished: bool = False     # the child has exited (after "done", an error, a crash or a cancel)
    succeeded: bool = False    # it wrote "done": every side's records are here
    cancelled: bool = False
    focus: list[str] = field(default_factory=list)      # A/B: the entities the two versions differ in
    names: dict[str, str] = field(default_factory=dict)  # A/B: readable entity names of both versions
    interval: dict[str, Any] | None = None   # sequential A/B: the main effect's interval at the last look

    @property
    def running(self) -> bool:
        """Still playing."""
        return not self.finished

    def text(self) -> str:
        """A one-line progress text for people: "237/400 games (playing B)", "cancelled after 37/200 games"."""
        games = f"{self.done}/{self.total} games"
        if self.cancelled:
            return f"cancelled after {games}"
        if self.error:
            return f"failed after {games}"
        if self.succeeded:
            return f"{games}, done"
        if self.done == 0:
            return f"starting: {games}"
        return games + (f" (playing {self.side})" if self.side and len(self.sides) > 1 else "")


def content_with(root: Path, overrides: Mapping[str, str], dest: Path) -> Path:
    """A copy of the content folder at `dest` with some files' texts replaced (unsaved edits, a draft, an
    earlier save): one side of an A/B playtest. The real content folder is never written."""
    from kcd.apps.editor.logic import store
    from kcd.apps.editor.logic.confine import inside

    store.copy_content(root, dest)
    for rel, text in overrides.items():
        inside(root, rel)  # the same confinement as a real save
        store.atomic_write(inside(dest, rel), text)
    return dest


class Run:
    """A started playtest: its child process, its private folder and what it reported so far."""

    def __init__(self, proc: subprocess.Popen, folder: Path, job: Job) -> None:
        self.proc = proc
        self.folder = folder
        self.job = job
        self.status = Status(total=job.setup.games * len(job.sides), sides=[s.label for s in job.sides])
        self._offset = 0
        self._pending = b""

    @property
    def pid(self) -> int:
        """The child's pid, which is also its process group id (it leads a new session)."""
        return self.proc.pid

    def _read(self) -> None:
        """Take in the complete lines the child has appended since the last read."""
        path = self.folder / EVENTS
        try:
            with open(path, "rb") as handle:
                handle.seek(self._offset)
                chunk = handle.read()
        except FileNotFoundError:
            return
        self._offset += len(chunk)
        data = self._pending + chunk
        lines = data.split(b"\n")
        self._pending = lines.pop()   # an incomplete last line waits for the rest
        for line in lines:
            if line.strip():
                self._take(json.loads(line.decode("utf-8")))

    def _take(self, message: Mapping[str, Any]) -> None:
        kind = message.get("event")
        status = self.status
        if kind == "start":
            status.total = int(message.get("total", status.total))
        elif kind == "progress":
            status.done, status.total = int(message["done"]), int(message["total"])
            status.side = message.get("side")
        elif kind == "records":
            side = str(message["side"])
            if message.get("append"):
                status.records.setdefault(side, []).extend(message["records"])
            else:
                status.records[side] = list(message["records"])
        elif kind == "interval":
            status.interval = dict(message)
        elif kind == "error":
            status.error = str(message.get("message") or "the playtest failed")
            status.diagnostics = [str(d) for d in message.get("diagnostics") or []]
        elif kind == "entities":
            status.focus = [str(f) for f in message.get("focus") or []]
            status.names = {str(k): str(v) for k, v in (message.get("names") or {}).items()}
        elif kind == "done":
            status.succeeded = True

    def poll(self) -> Status:
        """The status now (reads new lines; never blocks). Cleans up the folder once the child has exited."""
        if self.status.finished:
            return self.status
        code = self.proc.poll()
        self._read()
        if code is not None:
            self._read()
            self._finish(code)
        return self.status

    def _finish(self, code: int) -> None:
        status = self.status
        status.finished = True
        if not status.succeeded and not status.cancelled and status.error is None:
            status.error = f"the playtest process stopped unexpectedly (exit code {code})" + self._stderr_tail()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _stderr_tail(self) -> str:
        """The child's last stderr line, for a crash the child could not report itself."""
        try:
            lines = (self.folder / STDERR).read_text(encoding="utf-8", errors="replace").strip().splitlines()
        except OSError:
            return ""
        return f": {lines[-1]}" if lines else ""

    def wait(self, timeout: float | None = None, interval: float = 0.1) -> Status:
        """Poll until the child has exited or `timeout` seconds passed; the status then."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.poll().finished:
            if deadline is not None and time.monotonic() >= deadline:
                break
            time.sleep(interval)
        return self.status

    def cancel(self) -> Status:
        """Stop the run and every process it started; returns the final status (cancelled unless it had
        finished already)."""
        if self.poll().finished:
            return self.status
        self.status.cancelled = True
        _signal_group(self.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        # whatever is left of the group (a worker that ignored SIGTERM, a child that hung) goes now
        _signal_group(self.pid, signal.SIGKILL)
        self.proc.wait()
        # the workers are the child's children: once it is gone they are reparented and reaped by init, a
        # moment later; wait for that, so "no process is left running" is true when the status says it
        deadline = time.monotonic() + GRACE_SECONDS
        while group_members(self.pid) and time.monotonic() < deadline:
            _signal_group(self.pid, signal.SIGKILL)
            time.sleep(0.02)
        self._read()
        self._finish(self.proc.returncode)
        return self.status

    def __del__(self) -> None:
        # a run nobody holds any more (its browser session expired): stop it rather than let it play on unseen
        try:
            if not self.status.finished:
                self.cancel()
        except Exception:   # noqa: BLE001 - never raise from a finaliser, at interpreter exit least of all
            pass


def _signal_group(pgid: int, sig: int) -> None:
    """Send a signal to a process group; a group that is already gone is fine."""
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def group_members(pgid: int) -> list[int]:
    """The pids of every process (zombies included) in process group `pgid`, from /proc (Linux)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # fields after the parenthesised command: state, ppid, pgrp, ...
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def start(job: Job) -> Run:
    """Start the job in a child process of its own (a new session); returns at once."""
    job = replace(job, root=str(Path(job.root).resolve()))   # the child runs in its own folder
    folder = Path(tempfile.mkdtemp(prefix="kcd-playtest-"))   # mode 0700: private to this user
    (folder / JOB).write_text(json.dumps(job.to_dict()), encoding="utf-8")
    (folder / EVENTS).touch()
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "KCD_PLAYTEST_PARENT": str(os.getpid())}
    # the child imports `editor` as the editor does (an installed package or the source tree)
    env["PYTHONPATH"] = os.pathsep.join([str(repo)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    with open(folder / STDERR, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "kcd.apps.editor.logic.runner", str(folder / JOB)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True, cwd=str(folder), env=env, close_fds=True)
    return Run(proc, folder, job)


# --- the child's side ------------------------------------------------------------------------------------

class _ParentGone(SystemExit):
    """The editor that started this playtest is gone: stop."""


def _writer(folder: Path) -> Callable[[dict[str, Any]], None]:
    handle = open(folder / EVENTS, "a", encoding="utf-8")

    def write(message: dict[str, Any]) -> None:
        handle.write(json.dumps(message) + "\n")
        handle.flush()
    return write


def _side_root(job: Job, side: Side, folder: Path) -> Path:
    """The content folder of one side: the job's root, or a private copy with the side's overrides."""
    if not side.overrides:
        return Path(job.root)
    return content_with(Path(job.root), side.overrides, folder / f"side-{side.label}")


# Content kinds whose items are A/B report entities (kcd.analysis.abtest groups).
_ENTITY_GROUPS = {"flocks": "flock", "leaders": "leader", "season_cards": "season_card", "nests": "nest"}


def changed_items(ruleset_a: Any, ruleset_b: Any) -> list[str]:
    """The `group:key` A/B entities (flocks, Leaders, Season cards, Nests) whose content differs between two
    rulesets: the edited items, whose rows the report shows first."""
    out = []
    for kind, group in _ENTITY_GROUPS.items():
        a = {i.id: i.raw for i in ruleset_a.items(kind)}
        b = {i.id: i.raw for i in ruleset_b.items(kind)}
        out += [f"{group}:{key}" for key in list(a) + [k for k in b if k not in a] if a.get(key) != b.get(key)]
    return out


def _as_in_content(diag: Any, side_root: Path) -> Any:
    """A diagnostic located in a side's private copy, re-located at the same file of the content folder
    (`base/season_cards.yaml:24:11`, as the Content page names it)."""
    from dataclasses import replace

    try:
        rel = Path(diag.location.file).resolve().relative_to(side_root.resolve()).as_posix()
    except ValueError:
        return diag
    return replace(diag, location=replace(diag.location, file=rel))


def _on_sigterm(signum: int, frame: Any) -> None:
    # SystemExit unwinds simulate's worker pool (Pool.__exit__ terminates and joins its workers)
    raise SystemExit(128 + signum)


def child_main(job_path: Path) -> int:
    """Run a job file (the child process's entry point); writes JSON lines beside it. Exit 0 on success."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # a Ctrl+C in the editor's terminal is the editor's
    folder = job_path.parent
    write = _writer(folder)
    parent = int(os.environ.get("KCD_PLAYTEST_PARENT") or os.getppid())
    job = Job.from_dict(json.loads(job_path.read_text(encoding="utf-8")))
    games = job.setup.games
    total = games * len(job.sides)
    write({"event": "start", "sides": [s.label for s in job.sides], "total": total})
    from kcd.core.diagnostics import ContentError

    rulesets = []
    for side in job.sides:   # every side's content loads before any game is played
        side_root = _side_root(job, side, folder)
        try:
            rulesets.append(load(side_root, job.setup.overlays if side.overlays is None else side.overlays))
        except ContentError as exc:
            which = f"{side.label}: " if len(job.sides) > 1 else ""
            write({"event": "error", "message": f"{which}the content does not load",
                   "diagnostics": [_as_in_content(d, side_root).format() for d in exc.diagnostics[:50]]})
            return 1
    if len(rulesets) == 2:
        from kcd.analysis.abtest import entity_names

        names = {**entity_names(rulesets[0]), **entity_names(rulesets[1])}
        focus = changed_items(*rulesets)
        write({"event": "entities", "focus": focus, "names": names})
        if job.width is not None:
            return _sequential(job, rulesets, write, parent, focus, names)
    for index, (side, ruleset) in enumerate(zip(job.sides, rulesets)):
        def progress(done: int, _n: int, offset: int = index * games, label: str = side.label) -> None:
            if os.getppid() != parent:
                raise _ParentGone(3)
            write({"event": "progress", "side": label, "done": offset + done, "total": total})
        try:
            report = simulate_setup(ruleset, job.setup, progress)
        except (ValueError, RuntimeError) as exc:   # SetupError, SimError, a bad bot name: said, not thrown
            write({"event": "error", "message": f"{side.label}: {exc}" if len(job.sides) > 1 else str(exc)})
            return 1
        write({"event": "records", "side": side.label, "records": [r.to_dict() for r in report.records]})
    write({"event": "done"})
    return 0


def _sequential(job: Job, rulesets: list[Any], write: Callable[[dict[str, Any]], None], parent: int,
                focus: list[str], names: dict[str, str]) -> int:
    """An A/B job with a width: batches of the same games on both sides until the main effect's interval is
    narrow enough (kcd.analysis.abtest.until_narrow), each batch's records and the interval written as it ends."""
    from kcd.analysis.abtest import until_narrow, width_of

    cap = job.setup.games
    total = 2 * cap
    (label_a, ruleset_a), (label_b, ruleset_b) = zip([s.label for s in job.sides], rulesets)

    def play(first: int, games: int) -> tuple[list[Any], list[Any]]:
        setup = replace(job.setup, games=games, seed=job.setup.seed + first)
        out = []
        for index, (label, ruleset) in enumerate(((label_a, ruleset_a), (label_b, ruleset_b))):
            def progress(done: int, _n: int, offset: int = 2 * first + index * games, side: str = label) -> None:
                if os.getppid() != parent:
                    raise _ParentGone(3)
                write({"event": "progress", "side": side, "done": offset + done, "total": total})
            records = simulate_setup(ruleset, setup, progress).records
            write({"event": "records", "side": label, "records": [r.to_dict() for r in records], "append": True})
            out.append(records)
        return out[0], out[1]

    def look(outcome: Any) -> None:
        row = outcome.report.row(*outcome.main.split(":", 1)) if outcome.main else None
        write({"event": "interval", "main": outcome.main, "label": row.label if row else None,
               "low": row.low if row else None, "high": row.high if row else None,
               "span": width_of(row) if row else None, "kind": row.kind if row else None,
               "pairs": outcome.report.pairs, "reached": outcome.reached, "needed": outcome.needed,
               "width": job.width})

    try:
        until_narrow(play, float(job.width or 0), main=job.main, batch=max(1, job.batch), max_games=cap,
                     focus=focus, names=names, on_batch=look)
    except (ValueError, RuntimeError) as exc:   # SetupError, SimError, a bad width: said, not thrown
        write({"event": "error", "message": str(exc)})
        return 1
    write({"event": "done"})
    return 0


if __name__ == "__main__":
    raise SystemExit(child_main(Path(sys.argv[1])))
