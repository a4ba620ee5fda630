"""The on-disk journal: the event outbox and the table state, in one SQLite file (WAL mode).

Every event is written here *before* it is handed to MQTT, and stays marked unacknowledged until
the broker's PUBACK comes back; after a crash or a power cut the controller starts by publishing
again whatever was not acknowledged. ``seq`` continues across restarts, and event ids are
``<store id>-<seq>`` where the store id is made once with the file, so ids never repeat even if
the file is replaced.

Acknowledged events are kept (the newest ``keep`` of them) so a consumer that missed some, for
example because the broker restarted without persistence, can ask for them again
(``cmd/replay``).

Durability: WAL with ``synchronous=NORMAL`` survives a killed process completely; a power cut
can lose the last transactions not yet checkpointed (at most the last few hundred ms). The
table state (lights, phase) and the running vote session (with every press it has recorded)
are saved on every change.

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
CREATE TABLE IF NOT EXISTS console_positions (
    unique_id BLOB NOT NULL,
    boot_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (unique_id, boot_id)
);
"""

#: Where a console's event stream stands: (unique id, boot id, last accepted seq, how many
#: events of that boot were accepted). See ``firmware_bridge.sequence.Position``.
ConsolePosition = tuple[bytes, int, int, int]


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    topic: str
    payload: bytes


class Store:
    """One table's journal file. ``keep``: how many acknowledged events to keep for replay."""

    def __init__(self, path: Path, *, keep: int):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.keep = keep
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
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

    def append_console_input(self, events: list[tuple[str, Callable[[int], bytes]]],
                             position: ConsolePosition) -> list[StoredEvent]:
        """Store the events one console input caused and the console's position after it, in
        one transaction: after a crash either both are on disk or neither is, so the console's
        resend of that input is taken exactly once. Rows of the console's earlier boots go."""
        stored = [StoredEvent(self.last_seq + i + 1, topic, payload_for(self.last_seq + i + 1))
                  for i, (topic, payload_for) in enumerate(events)]
        unique_id, boot_id, seq, count = position
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT INTO events (seq, topic, payload) VALUES (?, ?, ?)",
                                 [(e.seq, e.topic, e.payload) for e in stored])
            self._db.execute("DELETE FROM console_positions WHERE unique_id = ? AND boot_id != ?",
                             (unique_id, boot_id))
            self._db.execute("INSERT OR REPLACE INTO console_positions VALUES (?, ?, ?, ?)",
                             (unique_id, boot_id, seq, count))
        self.last_seq += len(stored)
        self.depth += len(stored)
        return stored

    def console_positions(self) -> list[ConsolePosition]:
        """The positions ``append_console_input`` stored, one per console boot."""
        return [tuple(row) for row in self._db.execute(  # type: ignore[misc]
            "SELECT unique_id, boot_id, seq, count FROM console_positions")]

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

    def close(self) -> None:
        self._db.close()
