"""The event outbox: every event numbered and written before it is published, kept until the
broker has it, and for a while after, for replay.

An event is written here *before* it is handed to MQTT, and stays marked unacknowledged until
the broker's PUBACK comes back (``acked``); after a crash or a power cut the controller starts
by publishing again whatever was not acknowledged, a page at a time (``unacked_after``).
``seq`` continues across restarts, and event ids are ``<store id>-<seq>``, where the store id is
made once with the file, so ids never repeat even if the file is replaced.

Acknowledged events are kept (those within the newest ``keep`` seqs) so a consumer that missed
some, for example because the broker restarted without persistence, can ask for them again
(``cmd/replay``, read with ``since``). Acknowledging and pruning touch one row each, by its
primary key, whatever the journal holds: an event acknowledged below the kept window is deleted
at once, and each append deletes the one acknowledged event its new seq pushes out of the
window. So no acknowledged event ever lies below the window (checked again, once, when ``keep``
changes or the file was made by an older version), and a backlog of a million events costs the
same per event as ten.

When the file cannot take a write, events and acknowledgements wait in ``controller.journal.
holding``; every read here sees the held events too, in seq order, so a page of the backlog or a
replay is the same whether its events reached the disk yet or not.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from controller.journal.holding import HeldEvent, Hold, WrittenWith
from controller.journal.schema import StoredEvent, read_meta, write_meta

log = logging.getLogger(__name__)

#: An event to append: its topic, and its payload once its ``seq`` is known.
NewEvent = tuple[str, Callable[[int], bytes]]


class JournalUnreadable(Exception):
    """Kept events could not be read back (corrupted pages)."""


class Events:
    """The events of one journal file (the loop thread's only).

    ``keep``: how many of the newest seqs stay available for replay once acknowledged;
    ``on_trouble`` is told when the events become ``unreadable``."""

    def __init__(self, db: sqlite3.Connection, hold: Hold, *, path: Path, keep: int,
                 on_trouble: Callable[[], None]):
        self._db = db
        self._hold = hold
        self._path = path
        self._keep = keep
        self._on_trouble = on_trouble
        self.unreadable: str | None = None
        store_id = read_meta(db, "store_id")
        if store_id is None:
            store_id = uuid.uuid4().hex[:12]
            write_meta(db, "store_id", store_id)
        self.store_id = store_id
        # the newest event's seq; ``meta`` keeps it for when pruning removed that event
        (newest,) = db.execute("SELECT max(seq) FROM events").fetchone()
        self.last_seq: int = max(int(read_meta(db, "last_seq") or 0), newest or 0)
        self._prune_if_keep_changed()
        self.depth: int = db.execute("SELECT count(*) FROM events WHERE acked = 0").fetchone()[0]

    def _prune_if_keep_changed(self) -> None:
        """Acknowledged events below the window are deleted as the window moves; only a
        smaller ``keep`` than last time (or a new or migrated file) leaves some to delete
        here, in one pass."""
        kept_for = read_meta(self._db, "keep")
        if kept_for == str(self._keep):
            return
        with self._db:
            self._db.execute("BEGIN")
            if kept_for is None or int(kept_for) > self._keep:
                self._db.execute("DELETE FROM events WHERE acked = 1 AND seq <= ?",
                                 (self.last_seq - self._keep,))
                write_meta(self._db, "last_seq", str(self.last_seq))
            write_meta(self._db, "keep", str(self._keep))

    # appending

    def append_all(self, events: list[NewEvent], also: WrittenWith | None = None
                   ) -> list[StoredEvent]:
        """Give each event the next ``seq`` and store them in one transaction, with
        ``also(connection)`` writing more rows in it: all of it is on disk, or none. Held
        together when the journal cannot take them (``also`` runs when they are written back),
        refused together (an empty list) when they do not fit in the hold."""
        if not self._hold.fits(len(events)):
            self._hold.refuse([topic for topic, _ in events])
            return []
        stored = [StoredEvent(self.last_seq + i, topic, payload_for(self.last_seq + i))
                  for i, (topic, payload_for) in enumerate(events, start=1)]
        held = [HeldEvent(event, last=False) for event in stored]
        if held:
            held[-1].last, held[-1].also = True, also
        if self._hold.events or not self._hold.write(partial(self._write_events, held)):
            self._hold.add_events(held)
        self.last_seq += len(stored)
        self.depth += len(stored)
        self._hold.report()
        return stored

    def _write_events(self, events: list[HeldEvent]) -> None:
        for held in events:
            self._insert(held.event, acked=held.acked)
            if held.also is not None:
                held.also(self._db)

    def _insert(self, event: StoredEvent, *, acked: bool) -> None:
        """Write one event (inside a transaction) and move the kept window past it: the event
        the window leaves is deleted if it was acknowledged (else ``acked`` deletes it)."""
        if not (acked and event.seq <= max(event.seq, self.last_seq) - self._keep):
            self._db.execute("INSERT INTO events (seq, topic, payload, acked) VALUES (?, ?, ?, ?)",
                             (event.seq, event.topic, event.payload, int(acked)))
        self._db.execute("DELETE FROM events WHERE seq = ? AND acked = 1",
                         (event.seq - self._keep,))

    def write_back(self, events: list[HeldEvent]) -> None:
        """Inside a transaction: held events (oldest first), and the newest seq."""
        self._write_events(events)
        write_meta(self._db, "last_seq", str(self.last_seq))

    # acknowledging

    def acked(self, *seqs: int) -> None:
        """The broker has these events: keep each only while it is inside the kept window."""
        on_disk = []
        for seq in seqs:
            held = self._hold.event(seq)
            if held is None:
                on_disk.append(seq)
            elif not held.acked:
                held.acked = True
                self.depth -= 1
        if not on_disk:
            return
        changed = 0

        def write() -> None:
            nonlocal changed
            changed = self.mark_acked(on_disk)

        if self._hold.write(write):
            self.depth -= changed
        else:  # written later; meanwhile never handed out again as unacknowledged
            self.depth -= self._hold.add_acks(on_disk)
            self._hold.report()

    def mark_acked(self, seqs: list[int]) -> int:
        """Inside a transaction: mark or delete (below the window) each event, by primary key;
        how many changed."""
        changed = 0
        boundary = self.last_seq - self._keep
        for seq in seqs:
            if seq <= boundary:
                changed += self._db.execute("DELETE FROM events WHERE seq = ? AND acked = 0",
                                            (seq,)).rowcount
                if seq == self.last_seq:  # the newest is gone: meta remembers its seq
                    write_meta(self._db, "last_seq", str(seq))
            else:
                changed += self._db.execute(
                    "UPDATE events SET acked = 1 WHERE seq = ? AND acked = 0", (seq,)).rowcount
        return changed

    # reading

    def unacked_after(self, after_seq: int, limit: int) -> list[StoredEvent]:
        """At most ``limit`` unacknowledged events with ``seq > after_seq``, oldest first: a
        page of the backlog, read through the index of unacknowledged events. A row whose
        acknowledgement the disk refused (held in memory) is acknowledged all the same, so the
        read takes that many rows more: a page is short only at the backlog's end, which is
        where its reader stops."""
        wanted = limit + len(self._hold.acks)  # the held acks are bounded by the hold's limit
        rows = self._read("SELECT seq, topic, payload FROM events WHERE acked = 0 AND seq > ? "
                          "ORDER BY seq LIMIT ?", (after_seq, wanted))
        events = [StoredEvent(*row) for row in rows if row[0] not in self._hold.acks]
        if len(rows) < wanted:
            events += [h.event for h in self._hold.after(after_seq, limit) if not h.acked]
        return events[:limit]

    def since(self, after_seq: int, limit: int) -> list[StoredEvent]:
        """At most ``limit`` kept events with ``seq > after_seq``, oldest first.

        Raises ``JournalUnreadable`` if the pages that hold them are corrupted."""
        rows = self._read("SELECT seq, topic, payload FROM events WHERE seq > ? ORDER BY seq "
                          "LIMIT ?", (after_seq, limit))
        events = [StoredEvent(*row) for row in rows]
        if len(rows) < limit:
            events += [h.event for h in itertools.islice(self._hold.after(after_seq, limit),
                                                         limit)]
        return events[:limit]

    def oldest_kept(self) -> int:
        """The smallest ``seq`` still stored (``last_seq + 1`` when there is none)."""
        [(oldest,)] = self._read("SELECT min(seq) FROM events", ())
        if oldest is None and self._hold.events:
            return self._hold.events[0].event.seq
        return self.last_seq + 1 if oldest is None else int(oldest)

    def _read(self, sql: str, parameters: tuple[int, ...]) -> list[Any]:
        """Rows of a query over the events; ``JournalUnreadable`` (and ``unreadable`` set,
        for ``health``, until the next start) if SQLite cannot read their pages."""
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.DatabaseError as exc:
            error = f"cannot read the journal {self._path}: {exc}"
            if self.unreadable is None:
                log.error("%s; restart the controller to move it aside and start a new one",
                          error)
                self.unreadable = error
                self._on_trouble()
            raise JournalUnreadable(error) from exc
