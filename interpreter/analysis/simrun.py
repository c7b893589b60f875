"""Where a simulation's games run: in this process, on a local process pool, or on a Dask distributed cluster.

Every runner plays game i of a plan with `plan.play(i)` (seed + i, the plan's seating), so the same plan gives
the same records on one process, on local processes and on a cluster; records come back in game order.

- Local processes (`jobs > 1`): a `fork` pool that inherits the plan (a Ruleset holds read-only mapping
  proxies, which do not pickle); where fork is unavailable the workers rebuild the ruleset from its files
  (`PortableContent`). Workers ignore SIGINT, so Ctrl-C reaches only the parent, which terminates and joins
  every worker before the KeyboardInterrupt goes on: no process is left behind.
- A Dask cluster (`scheduler="tcp://host:port"`): the content's files travel with the tasks (a worker on
  another machine need not have the same content folder, only this package installed); each worker loads them
  once per content hash and checks the hash. Games go out in chunks; results are put back in game order.
- `cancel`: a callable returning True, or an object with `is_set()` (threading.Event). Checked between games
  (and at least every 0.2 s while waiting on workers); a cancelled run ends every worker and returns the
  finished games in order, up to the first game not finished.
"""
from __future__ import annotations

import gc
import multiprocessing
import shutil
import signal
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

if TYPE_CHECKING:   # type names only: no import at run time (no import circle)
    from kcd.content.model import Ruleset

# Cyclic garbage collection thresholds while games run: a game allocates millions of short-lived objects (states,
# options, events) and almost no cycles, so the default (700, 10, 10) collects thousands of times a game for
# nothing; measured on greedy games, fewer collections save 10-15% of the CPU time. Memory stays bounded: the
# young generation is collected every 20,000 net allocations.
GAME_GC_THRESHOLD = (20_000, 20, 20)
# how long to try reaching a Dask scheduler before giving up with a clear error
CONNECT_TIMEOUT = "10s"
# how long the parent waits on a worker before looking at `cancel` again
_POLL_SECONDS = 0.2


class SchedulerError(RuntimeError):
    """The Dask scheduler cannot be reached (`kcd.analysis.sim.simulate` reports it as a SimError)."""



def cancelled(cancel: Any) -> bool:
    """True when a cancel token says stop: a callable returning True, or a set Event."""
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    return bool(is_set() if callable(is_set) else cancel())


@dataclass(frozen=True)
class PortableContent:
    """A ruleset as the files it was loaded from (picklable), to rebuild it in another process or machine."""

    hash: str
    overlays: tuple[str, ...]
    files: tuple[tuple[str, bytes], ...]   # (path relative to the content root, bytes)

    @classmethod
    def of(cls, ruleset: Ruleset) -> "PortableContent":
        """The files of a ruleset: its base folder and the overlay packs it applied (hidden entries left out)."""
        root = Path(ruleset.root)
        folders = [root / "base"] + [Path(p.path) for p in ruleset.packs]
        files: list[tuple[str, bytes]] = []
        for folder in folders:
            for path in sorted(folder.rglob("*")):
                rel = path.relative_to(root)
                if path.is_file() and not any(part.startswith(".") for part in rel.parts):
                    files.append((rel.as_posix(), path.read_bytes()))
        return cls(ruleset.hash, tuple(ruleset.pack_ids), tuple(files))

    def load(self) -> Any:
        """The ruleset again (cached per content hash in this process); RuntimeError if the hash differs."""
        cached = _RULESETS.get(self.hash)
        if cached is not None:
            return cached
        from kcd.content import load_ruleset

        tmp = Path(tempfile.mkdtemp(prefix="kcd-content-"))
        try:
            for rel, data in self.files:
                target = tmp / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            ruleset = load_ruleset(overlays=self.overlays, root=tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if ruleset.hash != self.hash:
            raise RuntimeError(f"content rebuilt in a worker has hash {ruleset.hash[:12]}, expected {self.hash[:12]}")
        _RULESETS[self.hash] = ruleset
        return ruleset


_RULESETS: dict[str, Any] = {}
# A local worker's plan: set by the pool initializer (inherited by fork, or rebuilt from PortableContent).
_WORKER_PLAN: list[Any] = []


@contextmanager
def lean_gc() -> Iterator[None]:
    """Run games with GAME_GC_THRESHOLD, then restore the process's own thresholds."""
    before = gc.get_threshold()
    gc.set_threshold(*GAME_GC_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _init_worker(plan: Any, content: PortableContent | None) -> None:
    # Ctrl-C goes to the whole process group; only the parent handles it (and terminates the workers)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.set_threshold(*GAME_GC_THRESHOLD)   # a worker only plays games
    _WORKER_PLAN[:] = [plan if content is None else replace(plan, ruleset=content.load())]


def _play_in_worker(i: int) -> Any:
    return _WORKER_PLAN[0].play(i)


def _play_chunk(plan: Any, content: PortableContent, indices: list[int]) -> list[tuple[int, dict[str, Any]]]:
    """A Dask task: games `indices` of the plan, as (index, record dict)."""
    full = replace(plan, ruleset=content.load())
    with lean_gc():
        return [(i, full.play(i).to_dict()) for i in indices]


def run(plan: Any, games: int, *, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
        cancel: Any = None, scheduler: str | None = None) -> tuple[list[Any], bool]:
    """(records in game order, whether the run was cancelled) of games 0..games-1 of `plan`."""
    if scheduler:
        return _run_dask(plan, games, scheduler, progress, cancel)
    jobs = max(1, min(jobs, games or 1))
    if jobs > 1:
        return _run_pool(plan, games, jobs, progress, cancel)
    records: list[Any] = []
    with lean_gc():
        for i in range(games):
            if cancelled(cancel):
                return records, True
            records.append(plan.play(i))
            if progress is not None:
                progress(i + 1, games)
    return records, False


def _run_pool(plan: Any, games: int, jobs: int, progress: Callable[[int, int], None] | None,
              cancel: Any) -> tuple[list[Any], bool]:
    """Games on a local process pool, in order; terminated (every worker joined) on cancel or Ctrl-C."""
    forking = "fork" in multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if forking else "spawn")
    content = None if forking else PortableContent.of(plan.ruleset)
    initargs = (plan, None) if forking else (replace(plan, ruleset=None), content)
    pool = ctx.Pool(jobs, initializer=_init_worker, initargs=initargs)
    records: list[Any] = []
    try:
        results = pool.imap(_play_in_worker, range(games), chunksize=1)
        while len(records) < games:
            if cancelled(cancel):
                return records, True
            try:
                records.append(results.next(timeout=_POLL_SECONDS))
            except multiprocessing.TimeoutError:
                continue
            if progress is not None:
                progress(len(records), games)
        pool.close()
        return records, False
    finally:
        # normal end: workers exit after close(); cancel, Ctrl-C or an error: terminate them; join either way
        if len(records) < games:
            pool.terminate()
        pool.join()


def _probe(address: str) -> None:
    """SchedulerError unless a Dask scheduler answers at `address`. Asked before a Client is made: a Client that
    fails to start (a refused or silent port, or a service that is no Dask scheduler and answers garbage) leaves
    an object whose clean-up at exit waits 20 s and prints a traceback."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from distributed.core import rpc

    async def identity() -> dict:
        remote = rpc(address, timeout=int(CONNECT_TIMEOUT.rstrip("s")))
        try:
            return await asyncio.wait_for(remote.identity(), int(CONNECT_TIMEOUT.rstrip("s")) * 2)
        finally:
            await remote.close_rpc()

    try:   # a thread of its own, so a caller already running an event loop (a web page) can ask too
        with ThreadPoolExecutor(1) as pool:
            info = pool.submit(asyncio.run, identity()).result()
    except (OSError, asyncio.TimeoutError) as err:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {err or type(err).__name__}") from None
    except Exception as err:   # anything else answered: not Dask's protocol
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: something answers there, but not "
                             f"Dask's protocol ({type(err).__name__})") from None
    kind = info.get("type") if isinstance(info, dict) else None
    if kind != "Scheduler":
        raise SchedulerError(f"{address} is a Dask {kind or 'service'}, not its scheduler: give the scheduler's "
                             f"address (`dask scheduler` prints it)")


def _run_dask(plan: Any, games: int, address: str, progress: Callable[[int, int], None] | None,
              cancel: Any) -> tuple[list[Any], bool]:
    """Games on a Dask distributed cluster at `address`, in chunks; results back in game order."""
    from distributed import Client, as_completed

    content = PortableContent.of(plan.ruleset)
    bare = replace(plan, ruleset=None)
    _probe(address)
    try:
        client = Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as err:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    with client:
        workers = max(1, sum(client.nthreads().values()))
        # a few chunks per worker thread: small enough to balance the load, large enough to amortise a task
        size = max(1, min(25, games // (workers * 4) or 1))
        chunks = [list(range(start, min(games, start + size))) for start in range(0, games, size)]
        [content_future] = client.scatter([content], broadcast=True)
        futures = [client.submit(_play_chunk, bare, content_future, chunk, pure=False) for chunk in chunks]
        done: dict[int, Any] = {}
        stopped = False
        try:
            pending = as_completed(futures, loop=client.loop)
            while not pending.is_empty():
                if cancelled(cancel):
                    stopped = True
                    break
                batch = pending.next_batch(block=False)
                if not batch:
                    import time

                    time.sleep(_POLL_SECONDS / 4)
                    continue
                for future in batch:
                    for i, data in future.result():
                        done[i] = plan.record_from_dict(data)
                if progress is not None:
                    progress(len(done), games)
        finally:
            if stopped or len(done) < games:
                client.cancel(futures)
    records = []
    for i in range(games):   # the finished games in order, up to the first one missing
        if i not in done:
            break
        records.append(done[i])
    return records, stopped
