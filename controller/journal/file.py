"""One journal file, its parts put together behind the few calls the service makes.

``Journal`` opens the file (``opening``), then hands the one connection to each part: the event
outbox (``events``), the saved documents (``documents``) and the consoles' positions
(``consoles``), all writing through the one ``holding.Hold``, which keeps in memory what the
disk refuses and writes it back in order (``retry``); the ``checkpoint`` thread copies the WAL
into the file meanwhile. ``close`` writes what it can of what is held, then closes.

A table has two journals: the public one and the private one (night events, counted apart).
A journal is used from the event loop thread only.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from controller.journal.checkpoint import Checkpointer
from controller.journal.consoles import ConsolePosition, ConsolePositions
from controller.journal.documents import Documents
from controller.journal.events import Events, NewEvent
from controller.journal.holding import HeldEvent, Hold, WrittenWith
from controller.journal.opening import open_file, unavailable
from controller.journal.schema import StoredEvent

log = logging.getLogger(__name__)


class Journal:
    """One table's journal file at ``path``.

    ``keep``: how many of the newest seqs stay available for replay once acknowledged.
    ``hold_limit``: how many events to hold in memory while the journal cannot take them.
    ``on_trouble``: called (on the caller's thread) whenever ``problem``, ``unreadable``,
    ``held`` (as it grows) or ``dropped`` change.
    ``synchronous``: ``[store] synchronous``, "normal" or "full".

    Raises ``JournalUnavailable`` if the file cannot be opened for writing.
    """

    def __init__(self, path: Path, *, keep: int, hold_limit: int = 10_000,
                 on_trouble: Callable[[], None] = lambda: None, synchronous: str = "normal"):
        self.path = path
        opened = open_file(path, synchronous)
        self._db = opened.db
        #: where a corrupt file found at ``path`` was moved (and a new journal started)
        self.moved_aside = opened.moved_aside
        self._hold = Hold(self._db, path, limit=hold_limit, on_trouble=on_trouble)
        try:
            self._events = Events(self._db, self._hold, path=path, keep=keep,
                                  on_trouble=on_trouble)
        except sqlite3.DatabaseError as exc:  # e.g. a disk already full at start
            self._db.close()
            raise unavailable(path, exc) from exc
        self._documents = Documents(self._db, self._hold)
        self._consoles = ConsolePositions(self._db, self._events, self._hold)
        self._checkpointer = Checkpointer(path)

    # what the journal holds

    @property
    def store_id(self) -> str:
        """Made once with the file: the first part of every event id."""
        return self._events.store_id

    @property
    def last_seq(self) -> int:
        """The newest event's ``seq`` (0 before the first)."""
        return self._events.last_seq

    @property
    def depth(self) -> int:
        """Events not yet acknowledged by the broker, held ones included."""
        return self._events.depth

    # events (``controller.journal.events``)

    def append(self, topic: str, payload_for: Callable[[int], bytes]) -> StoredEvent | None:
        """Give the next ``seq`` to ``payload_for(seq)`` and store the event: one row, one
        transaction (it is on every press's way to the broker, so nothing else is written).

        If the journal cannot take it, the event is held in memory; None when even that is
        full: the event is refused and counted in ``dropped``."""
        stored = self._events.append_all([(topic, payload_for)])
        return stored[0] if stored else None

    def append_all(self, events: list[NewEvent], also: WrittenWith | None = None
                   ) -> list[StoredEvent]:
        """Several events in one transaction, with ``also`` (see ``Events.append_all``)."""
        return self._events.append_all(events, also)

    def acked(self, *seqs: int) -> None:
        """The broker has these events (see ``Events.acked``)."""
        self._events.acked(*seqs)

    def unacked_after(self, after_seq: int, limit: int) -> list[StoredEvent]:
        """A page of the backlog (see ``Events.unacked_after``)."""
        return self._events.unacked_after(after_seq, limit)

    def since(self, after_seq: int, limit: int) -> list[StoredEvent]:
        """A page of a replay; ``JournalUnreadable`` over corrupted pages (``Events.since``)."""
        return self._events.since(after_seq, limit)

    def oldest_kept(self) -> int:
        """The smallest ``seq`` still stored (``last_seq + 1`` when there is none)."""
        return self._events.oldest_kept()

    # console inputs (``controller.journal.consoles``)

    def append_console_input(self, events: list[NewEvent], position: ConsolePosition
                             ) -> list[StoredEvent]:
        """The events of one console input, with the console's position after it, in one
        transaction (see ``ConsolePositions.append_input``)."""
        return self._consoles.append_input(events, position)

    def console_positions(self) -> list[ConsolePosition]:
        """Where each console's stream stands: one per console, its latest boot."""
        return self._consoles.stored()

    # saved documents (``controller.journal.documents``)

    def save(self, key: str, document: bytes) -> None:
        """Keep a JSON document under ``key``, replacing the one before."""
        self._documents.save(key, document)

    def load(self, key: str) -> bytes | None:
        """The document saved under ``key``, or None."""
        return self._documents.load(key)

    def forget(self, key: str) -> None:
        """Drop a saved document; the events stay."""
        self._documents.forget(key)

    # trouble (``controller.journal.holding``)

    @property
    def problem(self) -> str | None:
        """Why the last write failed, until everything held is written."""
        return self._hold.problem

    @property
    def unreadable(self) -> str | None:
        """Why kept events could not be read back, until the next start."""
        return self._events.unreadable

    @property
    def held(self) -> int:
        """Events held in memory, waiting for the journal to take them."""
        return len(self._hold.events)

    @property
    def dropped(self) -> int:
        """Events refused since the start, because the hold was full."""
        return self._hold.dropped

    def retry(self) -> bool:
        """Write what is held, oldest first; True once nothing is held any more."""
        return self._hold.retry(self._write_back)

    def _write_back(self, acks: list[int], documents: dict[str, str],
                    events: list[HeldEvent]) -> None:
        """Held acknowledgements, documents and events (oldest first), in one transaction."""
        self._events.mark_acked(acks)
        self._documents.write_back(documents)
        self._events.write_back(events)

    def close(self) -> None:
        """Stop the checkpointer, write what is held if the disk takes it, and close."""
        self._checkpointer.stop()
        if self._hold.holding:
            self.retry()
        if self.held:
            log.error("journal %s: %d events could not be written before closing (seq %d..%d)",
                      self.path, self.held, self._hold.events[0].event.seq,
                      self._hold.events[-1].event.seq)
        self._db.close()
