"""Holding in memory what the journal file cannot take, and writing it back in order later.

Every write to the journal goes through ``Hold.write``: one transaction, or False when SQLite
refuses it (a full disk, an I/O error, a file that went bad). Then nothing is dropped in
silence:

* an event is still numbered, handed back to be published, and *held* (``events``), in seq
  order; the events one ``append_all`` stored together are held together, with the rows that go
  with them (``HeldEvent.also``);
* an acknowledgement of an event already on disk is held (``acks``), so that event is never
  handed out again as unacknowledged;
* a saved document is held, the newest per key (``documents``).

``problem`` says why (logged once per distinct problem), and ``retry`` writes everything held,
oldest first, in transactions of about ``RETRY_CHUNK`` events, once the disk takes it again.
While anything is held, nothing else is attempted: the file never gets a later write before an
earlier one. At most ``limit`` events are held; beyond the bound, new events are refused
(``refuse``: counted in ``dropped`` and never numbered, so ``seq`` stays without a gap), and
acknowledgements beyond it are forgotten (the event is only published once more).

``on_trouble`` is told (on the caller's thread) whenever ``problem`` or ``dropped`` changes or
the held events grow, once the change is complete (``report``), so ``health`` says so at once.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from controller.journal.schema import StoredEvent

log = logging.getLogger(__name__)

#: How many held events one transaction writes back.
RETRY_CHUNK = 500

#: More rows written in the same transaction as the events they go with (given the connection).
WrittenWith = Callable[[sqlite3.Connection], None]


@dataclass
class HeldEvent:
    """An event the journal could not take yet. ``last``: the last of those one ``append_all``
    stored together; ``also``: what it must write after them (see ``Events.append_all``)."""

    event: StoredEvent
    acked: bool = False
    last: bool = True
    also: WrittenWith | None = None


#: Writes back, inside one transaction: held acknowledgements, documents, then events.
WriteBack = Callable[[list[int], dict[str, str], list[HeldEvent]], None]


class Hold:
    """The one way writes reach the journal file, and what waits in memory when they cannot.

    ``limit``: how many events to hold at most; ``on_trouble``: see the module's docstring."""

    def __init__(self, db: sqlite3.Connection, path: Path, *, limit: int,
                 on_trouble: Callable[[], None]):
        self._db = db
        self._path = path
        self._limit = limit
        self._on_trouble = on_trouble
        self.events: deque[HeldEvent] = deque()
        self.acks: set[int] = set()  # acknowledgements of on-disk events not yet written
        self.documents: dict[str, str] = {}
        self.problem: str | None = None
        self.dropped = 0
        self._changed = False  # tell ``on_trouble`` once the change is complete

    @property
    def holding(self) -> bool:
        """Anything (events, acknowledgements, documents) waiting to be written."""
        return bool(self.acks or self.documents or self.events)

    def write(self, work: Callable[[], None], *, retrying: bool = False) -> bool:
        """Run ``work`` in one transaction; False (and ``problem`` set) if the journal could
        not take it. Nothing is attempted while earlier writes are held, unless retrying, so
        the file never gets a later write before an earlier one."""
        if not retrying and self.holding:
            return False
        try:
            with self._db:
                self._db.execute("BEGIN")
                work()
        except sqlite3.DatabaseError as exc:
            problem = f"cannot write the journal {self._path}: {exc}"
            if problem != self.problem:
                log.error("%s; events are held in memory (at most %d) until it can", problem,
                          self._limit)
                self.problem = problem
                self._changed = True
            return False
        return True

    def report(self) -> None:
        """Tell ``on_trouble`` of a change since the last report, if there was one."""
        if self._changed:
            self._changed = False
            self._on_trouble()

    # events

    def fits(self, count: int) -> bool:
        """Whether ``count`` more events can be held beside those held now."""
        return len(self.events) + count <= self._limit

    def refuse(self, topics: list[str]) -> None:
        """Events (of these topics) that do not fit: counted, logged and told at once."""
        self.dropped += len(topics)
        log.error("journal %s: %d events held in memory, the most it holds is %d; %d events "
                  "(%s) are refused (%d refused so far)", self._path, len(self.events),
                  self._limit, len(topics), ", ".join(topics), self.dropped)
        self._on_trouble()

    def add_events(self, held: list[HeldEvent]) -> None:
        """Hold these events, after those held already (their seqs follow on)."""
        self.events.extend(held)
        self._changed = True

    def event(self, seq: int) -> HeldEvent | None:
        """The held event with this ``seq`` (held seqs are consecutive: found by offset)."""
        if not self.events or not 0 <= seq - self.events[0].event.seq < len(self.events):
            return None
        return self.events[seq - self.events[0].event.seq]

    def after(self, after_seq: int, limit: int) -> Iterator[HeldEvent]:
        """Held events with ``seq > after_seq``, oldest first, found by offset (held seqs are
        consecutive) and stopped after ``limit`` not yet acknowledged: a page costs its own
        size, not the whole hold."""
        if not self.events:
            return
        start = max(0, after_seq + 1 - self.events[0].event.seq)
        for held in itertools.islice(self.events, start, None):
            yield held
            limit -= not held.acked
            if limit <= 0:
                return

    # acknowledgements

    def add_acks(self, seqs: list[int]) -> int:
        """Hold acknowledgements of events on disk; how many more are held now (past the
        bound an acknowledgement is forgotten: the event is only published once more)."""
        fresh = [seq for seq in seqs if seq not in self.acks]
        kept = fresh[:max(0, self._limit - len(self.acks))]
        self.acks.update(kept)
        return len(kept)

    # writing back

    def retry(self, write_back: WriteBack) -> bool:
        """Write what is held with ``write_back``, oldest first; True once nothing is held."""
        while self.holding:
            chunk = self._next_chunk()
            acks = sorted(self.acks)
            documents = dict(self.documents)
            if not self.write(partial(write_back, acks, documents, chunk), retrying=True):
                self.report()
                return False
            self.acks.difference_update(acks)
            for key, text in documents.items():
                if self.documents.get(key) == text:
                    del self.documents[key]
            for _ in chunk:
                self.events.popleft()
        if self.problem is not None:
            log.warning("journal %s: writable again; everything held is written", self._path)
            self.problem = None
            self._on_trouble()
        return True

    def _next_chunk(self) -> list[HeldEvent]:
        """The oldest held events, about ``RETRY_CHUNK`` of them, never splitting what one
        ``append_all`` stored together."""
        size = min(RETRY_CHUNK, len(self.events))
        while size and not self.events[size - 1].last:
            size += 1
        return [self.events[i] for i in range(size)]
