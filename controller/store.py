"""The on-disk journal: the event outbox and the table state, in one SQLite file (WAL mode).

Every event is written here *before* it is handed to MQTT, and stays marked unacknowledged until
the broker's PUBACK comes back; after a crash or a power cut the controller starts by publishing
again whatever was not acknowledged. ``seq`` continues across restarts, and event ids are
``<store id>-<seq>`` where the store id is made once with the file, so ids never repeat even if
the file is replaced.

Acknowledged events are kept (the newest ``keep`` of them) so a consumer that missed some, for
example because the broker restarted without persistence, can ask for them again
(``cmd/replay``).

Durability (``[store] synchronous``, measured in docs/performance.md, "Power cuts"): WAL with
``synchronous=NORMAL`` (the default) survives a killed process completely; on its own it leaves
a power cut free to take every event since the system last wrote the log out (up to ~30 s), so
the service flushes the log beside the event loop every ``[store] flush_every`` seconds
(``controller/wal_flush.py``), which bounds the loss to that. ``FULL`` flushes at every commit:
a cut loses nothing acknowledged, at one flush per event on its way to the broker. Either way
the journal opens after a cut, without gaps. The table state (lights, phase) and the running
vote session (with every press it has recorded) are saved on every change.

The store is used from the event loop thread only.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS events_unacked ON events (seq) WHERE acked = 0;
"""


#: ``[store] synchronous``: "normal" syncs the WAL at checkpoints, "full" at every commit
SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    topic: str
    payload: bytes


class Store:
    """One table's journal file. ``keep``: how many acknowledged events to keep for replay."""

    def __init__(self, path: Path, *, keep: int, synchronous: str = "normal"):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.keep = keep
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={SYNCHRONOUS[synchronous]}")
        self._db.executescript(SCHEMA)
        self.store_id = self._meta("store_id")
        if self.store_id is None:
            self.store_id = uuid.uuid4().hex[:12]
            self._set_meta("store_id", self.store_id)
        # the newest event's seq; ``meta`` keeps it only for when pruning removed that event
        (newest,) = self._db.execute("SELECT max(seq) FROM events").fetchone()
        self.last_seq = max(int(self._meta("last_seq") or 0), newest or 0)
        (self.depth,) = self._db.execute("SELECT count(*) FROM events WHERE acked = 0").fetchone()

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def append(self, topic: str, payload_for: Callable[[int], bytes]) -> StoredEvent:
        """Give the next ``seq`` to ``payload_for(seq)`` and store the event: one row, one
        transaction (it is on every press's way to the broker, so nothing else is written)."""
        seq = self.last_seq + 1
        payload = payload_for(seq)
        self._db.execute("INSERT INTO events (seq, topic, payload) VALUES (?, ?, ?)",
                         (seq, topic, payload))
        self.last_seq = seq
        self.depth += 1
        return StoredEvent(seq, topic, payload)

    def acked(self, seq: int) -> None:
        """The broker has the event: keep it only for replay, prune the oldest beyond ``keep``."""
        with self._db:
            self._db.execute("BEGIN")
            changed = self._db.execute("UPDATE events SET acked = 1 WHERE seq = ? AND acked = 0",
                                       (seq,)).rowcount
            if self._db.execute("DELETE FROM events WHERE acked = 1 AND seq <= ?",
                                (self.last_seq - self.keep,)).rowcount:
                self._set_meta("last_seq", str(self.last_seq))  # it may have been the newest
        self.depth -= changed

    def unacked(self) -> list[StoredEvent]:
        """Events the broker has not acknowledged, oldest first."""
        rows = self._db.execute(
            "SELECT seq, topic, payload FROM events WHERE acked = 0 ORDER BY seq").fetchall()
        return [StoredEvent(*row) for row in rows]

    def since(self, after_seq: int) -> list[StoredEvent]:
        """Kept events with ``seq > after_seq``, oldest first."""
        rows = self._db.execute("SELECT seq, topic, payload FROM events WHERE seq > ? ORDER BY seq",
                                (after_seq,)).fetchall()
        return [StoredEvent(*row) for row in rows]

    def oldest_kept(self) -> int:
        """The smallest ``seq`` still stored (``last_seq + 1`` when there is none)."""
        (oldest,) = self._db.execute("SELECT min(seq) FROM events").fetchone()
        return self.last_seq + 1 if oldest is None else oldest

    def save(self, key: str, document: bytes) -> None:
        """Keep a JSON document (the table ``state``, the running vote ``session``)."""
        with self._db:
            self._db.execute("BEGIN")
            self._set_meta(key, document.decode())

    def load(self, key: str) -> bytes | None:
        value = self._meta(key)
        return None if value is None else value.encode()

    def forget(self, key: str) -> None:
        """Drop a saved document (``mafia-table state reset``); the events stay."""
        self._db.execute("DELETE FROM meta WHERE key = ?", (key,))

    def close(self) -> None:
        self._db.close()
