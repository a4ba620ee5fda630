"""The journal file's tables, and the steps that bring a file of any older version up to them.

A journal is one SQLite file with three tables:

* ``events``: one row per event (``seq``, ``topic``, ``payload``, ``acked``), with an index of
  the unacknowledged ones, which is how a page of the backlog is found without a scan
  (``controller.journal.events``);
* ``meta``: text by key. The journal's own figures (``store_id``, made once with the file;
  ``last_seq``, for when pruning removed the newest event; ``keep``, the window the file was
  last pruned for) and the saved documents (``controller.journal.documents``);
* ``console_positions``: where each console's event stream stands
  (``controller.journal.consoles``).

The schema is versioned with ``PRAGMA user_version``: ``MIGRATIONS`` are the ordered steps from
an empty file (version 0) to today's (``SCHEMA_VERSION``), run at open, each in its own
transaction, so a journal written by any earlier controller on a table opens with everything it
held. A file from a newer version is refused (``NewerSchema``) rather than guessed at.
"""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

#: ``MIGRATIONS[i]`` takes a journal from schema version ``i`` to ``i + 1``. Append new steps;
#: never edit one that has shipped. Step 1 is the schema of every journal made before
#: versioning (``user_version`` 0 with these tables already there), hence ``IF NOT EXISTS``.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS events (
        seq INTEGER PRIMARY KEY,
        topic TEXT NOT NULL,
        payload BLOB NOT NULL,
        acked INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX IF NOT EXISTS events_unacked ON events (seq) WHERE acked = 0;
    """,
    """
    CREATE TABLE IF NOT EXISTS console_positions (
        unique_id BLOB NOT NULL,
        boot_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (unique_id, boot_id)
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True)
class StoredEvent:
    """One row of ``events``: the event as it is published, and published again."""

    seq: int
    topic: str
    payload: bytes


class NewerSchema(Exception):
    """The file's schema ``version`` is newer than ``SCHEMA_VERSION``."""

    def __init__(self, version: int):
        super().__init__(version)
        self.version = version


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the file up to ``SCHEMA_VERSION``, one step a transaction; ``NewerSchema`` if it
    is past it. A migrated file forgets its ``keep``: older code pruned differently, so the
    events are pruned again once, in one pass."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION:
        raise NewerSchema(version)
    for number in range(version, SCHEMA_VERSION):
        with db:
            db.execute("BEGIN")
            for statement in MIGRATIONS[number].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {number + 1}")
        if version > 0 or number > 0:
            log.info("journal %s: schema migrated to version %d", path, number + 1)
    if version < SCHEMA_VERSION:
        db.execute("DELETE FROM meta WHERE key = 'keep'")


def read_meta(db: sqlite3.Connection, key: str) -> str | None:
    """The ``meta`` value under ``key``, or None."""
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def write_meta(db: sqlite3.Connection, key: str, value: str) -> None:
    """Set the ``meta`` value under ``key`` (inside the caller's transaction, if any)."""
    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))
