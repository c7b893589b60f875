"""Persistence of service games: the `Store` interface and its SQLite implementation (stdlib sqlite3, WAL).

A game is stored as what rebuilds it exactly with the engine: the content spec, the setup arguments, the seats,
the seed and the list of decisions (option ids) in order, plus the redo stack. The engine is deterministic (all
randomness comes from the seeded RNG in the state), so replaying the decisions restores the game after a restart.
Every write is one transaction committed before the caller acknowledges the decision it records.
Seat tokens are stored only as SHA-256 hashes: the database never holds a usable token.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class GameRecord:
    """Everything that rebuilds one game: content, setup, seats, seed (secret), decisions and redo stack."""

    id: str
    content: dict                      # {"editions": [...], "mods": [...]}
    setup: dict                        # Game.new keyword arguments other than the seed
    seats: list[dict]                  # [{"flock", "kind": human|open|bot|kiwibot, "bot"?, "name"?}] in seat order
    seed: int                          # never sent to any client
    decisions: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)
    over: bool = False
    created: float = 0.0
    lobby: bool = False                # listed in the lobby (anyone may see its seats and watch it)


@dataclass(frozen=True)
class Listing:
    """What the lobby shows of a listed game: public facts only (never a token, the seed or a decision)."""

    id: str
    content: dict
    seats: list[dict]
    decisions: int
    created: float


class Store(ABC):
    """Where games live. Each method is one committed transaction; a database server could stand behind it."""

    @abstractmethod
    def secret(self, name: str, make: Any) -> bytes:
        """A server secret by name, created once by `make()` and kept (the save-sealing key)."""

    @abstractmethod
    def create(self, record: GameRecord, tokens: dict[str, str | None]) -> None:
        """Store a new game and its tokens ({token hash: seat flock, or None for a spectator})."""

    @abstractmethod
    def add_token(self, game_id: str, token_hash: str, seat: str | None, seats: list[dict]) -> None:
        """Add a token (a claimed open seat) and the updated seats, in one transaction."""

    @abstractmethod
    def set_seats(self, game_id: str, seats: list[dict]) -> None:
        """Store the seats again (a player named their seat)."""

    @abstractmethod
    def listed(self, limit: int) -> list[Listing]:
        """The unfinished games listed in the lobby, newest first, at most `limit`."""

    @abstractmethod
    def append(self, game_id: str, n: int, option: str, redo: list[str], over: bool) -> None:
        """Record decision number n (0-based) and the redo stack after it."""

    @abstractmethod
    def rewind(self, game_id: str, keep: int, redo: list[str]) -> None:
        """Drop the decisions from number `keep` on (an undo) and store the redo stack."""

    @abstractmethod
    def token(self, token_hash: str) -> tuple[str, str | None] | None:
        """(game id, seat or None for a spectator) of a token hash, or None."""

    @abstractmethod
    def load(self, game_id: str) -> GameRecord | None:
        """The stored game, decisions included, or None."""

    @abstractmethod
    def unfinished(self) -> list[str]:
        """Ids of the games not over, oldest first (a restarted server resumes their bots)."""

    @abstractmethod
    def close(self) -> None:
        """Release the database."""


class SQLiteStore(Store):
    """The default store: one SQLite file in WAL mode (":memory:" for a throw-away server).

    A commit is in the write-ahead log before `append` returns, so an acknowledged decision survives the server
    being killed (SIGKILL) at any moment. `synchronous="NORMAL"` (the default, SQLite's advice for WAL) leaves
    the operating system to write the log to disk, so a power cut may lose the last decisions; "FULL" fsyncs
    at every commit and survives that too, at the cost of a disk flush per decision.
    """

    SCHEMA = """
    CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);
    CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY, content TEXT NOT NULL, setup TEXT NOT NULL, seats TEXT NOT NULL,
        seed TEXT NOT NULL, redo TEXT NOT NULL DEFAULT '[]', over INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL,
        lobby INTEGER NOT NULL DEFAULT 0);
    CREATE TABLE IF NOT EXISTS decisions (
        game TEXT NOT NULL REFERENCES games(id), n INTEGER NOT NULL, option TEXT NOT NULL, PRIMARY KEY (game, n));
    CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, game TEXT NOT NULL REFERENCES games(id), seat TEXT);
    """

    def __init__(self, path: str | Path = ":memory:", synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be NORMAL or FULL, not {synchronous!r}")
        if str(path) != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # one connection, used from the server's event loop thread (and the stdio loop); the lock guards the
        # rare use from another thread (tests, tools)
        self._db = sqlite3.connect(str(Path(path).expanduser()) if str(path) != ":memory:" else ":memory:",
                                   isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(self.SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "lobby" not in columns:   # a database from before the lobby: its games stay unlisted
            self._db.execute("ALTER TABLE games ADD COLUMN lobby INTEGER NOT NULL DEFAULT 0")

    def _tx(self, statements: list[tuple[str, tuple]]) -> None:
        """Run statements in one committed transaction (all or nothing)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def secret(self, name: str, make: Any) -> bytes:
        """A server secret by name, created once and kept."""
        with self._lock:
            row = self._db.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()
        if row:
            return bytes(row[0])
        value = make()
        self._tx([("INSERT OR IGNORE INTO secrets (name, value) VALUES (?, ?)", (name, value))])
        with self._lock:
            return bytes(self._db.execute("SELECT value FROM secrets WHERE name = ?", (name,)).fetchone()[0])

    def create(self, record: GameRecord, tokens: dict[str, str | None]) -> None:
        """Store a new game and its token hashes."""
        stmts = [("INSERT INTO games (id, content, setup, seats, seed, redo, over, created, lobby) "
                  "VALUES (?,?,?,?,?,?,?,?,?)",
                  (record.id, json.dumps(record.content), json.dumps(record.setup), json.dumps(record.seats),
                   str(record.seed), json.dumps(record.redo), int(record.over), record.created or time.time(),
                   int(record.lobby)))]
        stmts += [("INSERT INTO decisions (game, n, option) VALUES (?, ?, ?)", (record.id, n, opt))
                  for n, opt in enumerate(record.decisions)]
        stmts += [("INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)", (h, record.id, seat))
                  for h, seat in tokens.items()]
        self._tx(stmts)

    def add_token(self, game_id: str, token_hash: str, seat: str | None, seats: list[dict]) -> None:
        """A claimed seat: its token and the seats' new kinds."""
        self._tx([("INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)", (token_hash, game_id, seat)),
                  ("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(seats), game_id))])

    def set_seats(self, game_id: str, seats: list[dict]) -> None:
        """The seats after a player named theirs."""
        self._tx([("UPDATE games SET seats = ? WHERE id = ?", (json.dumps(seats), game_id))])

    def listed(self, limit: int) -> list[Listing]:
        """Listed games not over, newest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.content, g.seats, g.created, (SELECT COUNT(*) FROM decisions d WHERE d.game = g.id) "
                "FROM games g WHERE g.lobby = 1 AND g.over = 0 ORDER BY g.created DESC LIMIT ?", (limit,)).fetchall()
        return [Listing(id=r[0], content=json.loads(r[1]), seats=json.loads(r[2]), created=r[3], decisions=r[4])
                for r in rows]

    def append(self, game_id: str, n: int, option: str, redo: list[str], over: bool) -> None:
        """Record one decision."""
        self._tx([("INSERT INTO decisions (game, n, option) VALUES (?, ?, ?)", (game_id, n, option)),
                  ("UPDATE games SET redo = ?, over = ? WHERE id = ?", (json.dumps(redo), int(over), game_id))])

    def rewind(self, game_id: str, keep: int, redo: list[str]) -> None:
        """Drop decisions from `keep` on."""
        self._tx([("DELETE FROM decisions WHERE game = ? AND n >= ?", (game_id, keep)),
                  ("UPDATE games SET redo = ?, over = 0 WHERE id = ?", (json.dumps(redo), game_id))])

    def token(self, token_hash: str) -> tuple[str, str | None] | None:
        """Look a token hash up."""
        with self._lock:
            row = self._db.execute("SELECT game, seat FROM tokens WHERE hash = ?", (token_hash,)).fetchone()
        return (row[0], row[1]) if row else None

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game."""
        with self._lock:
            row = self._db.execute("SELECT id, content, setup, seats, seed, redo, over, created, lobby FROM games "
                                   "WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                return None
            decisions = [r[0] for r in self._db.execute(
                "SELECT option FROM decisions WHERE game = ? ORDER BY n", (game_id,))]
        return GameRecord(id=row[0], content=json.loads(row[1]), setup=json.loads(row[2]), seats=json.loads(row[3]),
                          seed=int(row[4]), decisions=decisions, redo=json.loads(row[5]), over=bool(row[6]),
                          created=row[7], lobby=bool(row[8]))

    def unfinished(self) -> list[str]:
        """Games not over."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT id FROM games WHERE over = 0 ORDER BY created")]

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()
