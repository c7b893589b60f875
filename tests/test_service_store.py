"""The service's store: SQLite in WAL mode, one committed transaction per decision, tokens kept only
as hashes, and the `Store` interface a database server could implement."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kcd.apps.service.store import GameRecord, SQLiteStore, Store
from test_service_protocol import SEED, InProcess


def test_wal_mode_and_the_synchronous_setting(tmp_path: Path) -> None:
    for sync, code in (("NORMAL", 1), ("FULL", 2)):
        store = SQLiteStore(tmp_path / f"{sync}.sqlite3", sync)
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == code
        store.close()
    with pytest.raises(ValueError):
        SQLiteStore(tmp_path / "x.sqlite3", "OFF")


def test_records_round_trip_and_each_write_is_visible_to_another_connection_at_once(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store: Store = SQLiteStore(db)
    record = GameRecord(id="ab" * 12, content={"editions": [], "mods": []}, setup={"players": ["red", "green"]},
                        seats=[{"flock": "red", "kind": "human"}], seed=SEED, created=1.0)
    store.create(record, {"h" * 64: "red", "s" * 64: None})
    store.append(record.id, 0, "card:move", [], False)
    store.append(record.id, 1, "play", ["x"], False)
    other = sqlite3.connect(db)   # a second reader sees every acknowledged decision: it was committed
    assert [r[0] for r in other.execute("SELECT option FROM decisions ORDER BY n")] == ["card:move", "play"]
    store.rewind(record.id, 1, ["play"])
    assert [r[0] for r in other.execute("SELECT option FROM decisions ORDER BY n")] == ["card:move"]
    loaded = store.load(record.id)
    assert loaded.decisions == ["card:move"] and loaded.redo == ["play"] and loaded.seed == SEED
    assert store.token("h" * 64) == (record.id, "red") and store.token("s" * 64) == (record.id, None)
    assert store.token("z" * 64) is None and store.load("cd" * 12) is None
    assert store.unfinished() == [record.id]
    with pytest.raises(sqlite3.IntegrityError):   # a decision number is written once: no silent overwrite
        store.append(record.id, 0, "other", [], False)
    assert store.load(record.id).decisions == ["card:move"]
    store.close()


def test_the_database_never_holds_a_usable_token(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    client = InProcess(SQLiteStore(db))
    made = client.request("create", seats=[{"kind": "human"}, {"kind": "open"}], seed=SEED)
    claimed = client.request("join", game=made["game"], seat="green")
    client.hub.store.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for token in (made["tokens"]["red"], made["spectator"], claimed["token"]):
        assert token.encode() not in raw
