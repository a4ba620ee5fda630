"""Bound what a power cut can take from the journal, without slowing any event down.

With ``synchronous=NORMAL`` SQLite commits an event to its write-ahead log (``<journal>-wal``)
without flushing it to the card; the log is flushed only at checkpoints (every 1000 pages), and
the kernel writes dirty pages out on its own only after ``vm.dirty_expire_centisecs`` (30 s by
default). So a power cut could take the last half minute of events (measured:
docs/performance.md, "Power cuts"). ``synchronous=FULL`` flushes at every commit, on the event's
way to the broker: a few ms per press on an SD card.

This thread flushes the log every ``every`` seconds instead (``[store] flush_every``), beside the
event loop, never in its way: a cut then takes at most the last ``every`` seconds. That is safe at
any instant: SQLite checksums each log frame and, after a crash, replays the log only up to its
last complete commit, so a flush caught mid-commit leaves that commit out, never half in.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable
from pathlib import Path

log = logging.getLogger(__name__)


class WalFlusher:
    """Flushes the ``-wal`` file of each journal in ``journals`` every ``every`` seconds."""

    def __init__(self, journals: Iterable[Path], every: float):
        self._logs = [path.with_name(path.name + "-wal") for path in journals]
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wal flush", daemon=True)
        self.flushes = 0  # how many times every log was flushed (for tests)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        warned: set[Path] = set()
        while not self._stop.wait(self._every):
            for wal in self._logs:
                try:
                    flush(wal)
                except OSError as exc:
                    if wal not in warned:  # once: a card that refuses a flush will keep on
                        warned.add(wal)
                        log.warning("cannot flush %s: %s", wal, exc)
            self.flushes += 1


def flush(wal: Path) -> None:
    """``fdatasync`` the file if it is there (no log yet, or one just checkpointed away: there
    is nothing to lose). A read-only descriptor is enough: the flush is of the file, not of it."""
    try:
        fd = os.open(wal, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fdatasync(fd)
    finally:
        os.close(fd)
