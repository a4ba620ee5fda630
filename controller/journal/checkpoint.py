"""The checkpointer: the journal's WAL copied into its file, on a thread of its own.

In WAL mode a commit appends to the ``-wal`` file; a *checkpoint* copies what the WAL holds into
the journal file itself, with an fsync that a busy SD card can stretch to hundreds of ms. Doing
that on the loop thread would stall a press on its way to the broker, so automatic checkpoints
are off (``controller.journal.opening``) and this thread runs a passive one every
``CHECKPOINT_SECONDS``, on its own connection: it never blocks the writer, nor waits for it.

What that means for durability (``[store] synchronous``; measured in docs/performance.md,
"Power cuts"):

* ``normal`` (the default) syncs the WAL only at checkpoints. A killed process loses nothing
  (what was committed is in the WAL, which the next open reads); a power cut takes what was
  committed since the last checkpoint, at most about ``CHECKPOINT_SECONDS`` of events (the
  kernel writes dirty pages out on its own only after ~30 s).
* ``full`` flushes at every commit: a cut loses nothing acknowledged, at one flush per event on
  its way to the broker.

The table state (lights, phase) and the running vote session (with every press it has
recorded) are saved on every change, so they are as durable as the events.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

import kit.sqlite

log = logging.getLogger(__name__)

#: How often the checkpointer copies the WAL into the journal file.
CHECKPOINT_SECONDS = 1.0


class Checkpointer:
    """Copies the WAL into the journal file every ``CHECKPOINT_SECONDS`` until ``stop``."""

    def __init__(self, path: Path):
        self._path = path
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-checkpoint",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = kit.sqlite.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stopping.wait(CHECKPOINT_SECONDS):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.DatabaseError as exc:  # a full disk: the WAL waits, nothing lost
                    log.debug("journal %s: checkpoint failed: %s", self._path, exc)
        finally:
            db.close()

    def stop(self) -> None:
        """Stop the thread (before the journal's own connection closes)."""
        self._stopping.set()
        self._thread.join(10)
