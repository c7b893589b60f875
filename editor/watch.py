"""Stop the playtests of browser tabs that are gone: a playtest runs in a child process (kcd.apps.editor.logic.runner)
held by one Streamlit session; when that session's tab closes (or reloads, which starts a new session that
cannot see the old run) nobody will read its result, so it is cancelled, with every process it started and its
private folder, once the session has been gone for GRACE_SECONDS (a short network drop reconnects sooner)."""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

GRACE_SECONDS = 5.0
SWEEP_SECONDS = 1.0


class Watcher:
    """Runs with the session that started each; `sweep` cancels those whose session is gone past the grace."""

    def __init__(self, alive: Callable[[str], bool], grace: float = GRACE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._alive = alive
        self._grace = grace
        self._clock = clock
        self._lock = threading.Lock()
        self._runs: dict[int, tuple[Any, str, float | None]] = {}

    def add(self, run: Any, session_id: str) -> None:
        """Watch a run started by a session."""
        with self._lock:
            self._runs[id(run)] = (run, session_id, None)

    def watched(self) -> list[Any]:
        """The runs still watched."""
        with self._lock:
            return [run for run, _, _ in self._runs.values()]

    def sweep(self) -> list[Any]:
        """Forget finished runs; cancel the runs whose session has been gone for the grace period. Returns the
        runs cancelled now."""
        now = self._clock()
        stopped = []
        with self._lock:
            entries = list(self._runs.items())
        for key, (run, session_id, gone_since) in entries:
            if run.poll().finished:
                self._forget(key)
            elif self._alive(session_id):
                self._set(key, (run, session_id, None))
            elif gone_since is None:
                self._set(key, (run, session_id, now))
            elif now - gone_since >= self._grace:
                run.cancel()
                self._forget(key)
                stopped.append(run)
        return stopped

    def _set(self, key: int, entry: tuple[Any, str, float | None]) -> None:
        with self._lock:
            if key in self._runs:
                self._runs[key] = entry

    def _forget(self, key: int) -> None:
        with self._lock:
            self._runs.pop(key, None)


_watcher: Watcher | None = None
_started = threading.Lock()


def _session_alive(session_id: str) -> bool:
    """Whether a Streamlit session still has its browser tab connected."""
    from streamlit.runtime import Runtime

    return Runtime.exists() and Runtime.instance().is_active_session(session_id)


def _loop(watcher: Watcher) -> None:
    """The sweeping thread of the editor process (a daemon: it ends with the server)."""
    while True:
        time.sleep(SWEEP_SECONDS)
        try:
            watcher.sweep()
        except Exception:   # noqa: BLE001 - one bad poll must not end the watching of every other run
            pass


def watch(run: Any) -> None:
    """Watch a run started in the current Streamlit session: it is cancelled when the session's tab is gone.
    Outside a Streamlit server (AppTest, a script) there is no tab to lose: nothing to do."""
    global _watcher
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not Runtime.exists() or not Runtime.instance().is_active_session(ctx.session_id):
        return
    with _started:
        if _watcher is None:
            _watcher = Watcher(_session_alive)
            threading.Thread(target=_loop, args=(_watcher,), name="kcd-playtest-watch", daemon=True).start()
    _watcher.add(run, ctx.session_id)
