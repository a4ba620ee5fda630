"""The saved documents: what the table must find again after a restart, by key.

``controller.shell.restore`` saves the table ``state`` (lights, standings, phase), the running
vote ``session`` (with every press it has recorded) and the ``night_step`` on every change, and
the service saves the ``boot_id`` it runs with; each is one JSON document in ``meta``, replaced
whole (the keys are ``controller.stored_state``'s). A document the disk refuses is held, the
newest per key, and read back from memory meanwhile (``controller.journal.holding``).
"""

from __future__ import annotations

import sqlite3

from controller.journal.holding import Hold
from controller.journal.schema import read_meta, write_meta


class Documents:
    """The documents of one journal file."""

    def __init__(self, db: sqlite3.Connection, hold: Hold):
        self._db = db
        self._hold = hold

    def save(self, key: str, document: bytes) -> None:
        """Keep a JSON document (the table ``state``, the running vote ``session``)."""
        text = document.decode()
        if not self._hold.write(lambda: write_meta(self._db, key, text)):
            self._hold.documents[key] = text
        else:
            self._hold.documents.pop(key, None)
        self._hold.report()

    def load(self, key: str) -> bytes | None:
        """The document saved under ``key`` (held or on disk), or None."""
        value = self._hold.documents.get(key) or read_meta(self._db, key)
        return None if value is None else value.encode()

    def forget(self, key: str) -> None:
        """Drop a saved document (``mafia-table state reset``); the events stay."""
        self._hold.documents.pop(key, None)
        self._db.execute("DELETE FROM meta WHERE key = ?", (key,))

    def write_back(self, documents: dict[str, str]) -> None:
        """Inside a transaction: held documents."""
        for key, text in documents.items():
            write_meta(self._db, key, text)
