"""The on-disk journal: the event outbox and the table state, in one SQLite file (WAL mode).

Every event is written here *before* it is handed to MQTT, and stays marked unacknowledged until
the broker's PUBACK comes back; after a crash or a power cut the controller starts by publishing
again whatever was not acknowledged. ``seq`` continues across restarts, and event ids are
``<store id>-<seq>`` where the store id is made once with the file, so ids never repeat even if
the file is replaced.

Acknowledged events are kept (those within the newest ``keep`` seqs) so a consumer that missed
some, for example because the broker restarted without persistence, can ask for them again
(``cmd/replay``). Acknowledging and pruning touch one row each, by its primary key, whatever the
journal holds: an event acknowledged below the kept window is deleted at once, and each append
deletes the one acknowledged event its new seq pushes out of the window. So no acknowledged
event ever lies below the window (checked again, once, when ``keep`` changes or the file was
made by an older version), and a backlog of a million events costs the same per event as ten.

When the journal cannot take a write (a full disk, an I/O error, a file that went bad), nothing
is dropped in silence: the event is still numbered, handed back to be published, and *held* in
memory in seq order, at most ``hold_limit`` of them; ``problem`` says why, and ``retry`` writes
what is held, oldest first, once the disk takes it again. Beyond the bound, new events are
refused (``append`` returns None), counted in ``dropped`` and never numbered, so ``seq`` stays
without a gap. Saved documents are held the same way (the newest per key).

Opening: a file that is not a journal (garbage, a zeroed header, pages that fail SQLite's
``quick_check``) is moved aside as ``<name>.corrupt-<UTC time>`` (kept for the technician,
named in ``moved_aside``) and a new journal is started, with a new store id. A folder or file
that cannot be written raises ``JournalUnavailable``, which says what to do.

Durability (``[store] synchronous``; measured in docs/performance.md, "Power cuts"): WAL with
``synchronous=NORMAL`` (the default) survives a killed process completely. A power cut takes
what was committed since the last checkpoint: SQLite flushes the WAL only then, and the kernel
writes dirty pages out on its own only after ~30 s. The checkpoints (copying the WAL into the
file, with an fsync that a busy SD card can stretch to hundreds of ms) run on a thread of their
own, every ``CHECKPOINT_SECONDS``, so the loop thread that writes the events never waits for one,
and a cut loses at most about that much. ``FULL`` flushes at every commit: a cut loses nothing
acknowledged, at one flush per event on its way to the broker. The table state (lights, phase)
and the running vote session (with every press it has recorded) are saved on every change.

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS`` are the ordered steps from
an empty file (version 0) to today's, run at open, each in its own transaction. A file from a
newer version is refused rather than guessed at.

The store is used from the event loop thread only.
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
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

#: Where a console's event stream stands: (unique id, boot id, last accepted seq, how many
#: events of that boot were accepted). See ``firmware_bridge.sequence.Position``.
ConsolePosition = tuple[bytes, int, int, int]

#: SQLite errors that mean the file is not a (sound) database: it is moved aside.
_CORRUPT = ("SQLITE_NOTADB", "SQLITE_CORRUPT")
#: How many held events one transaction writes back.
_RETRY_CHUNK = 500
#: How often the checkpointer copies the WAL into the journal file.
CHECKPOINT_SECONDS = 1.0


#: ``[store] synchronous``: "normal" syncs the WAL at checkpoints, "full" at every commit
SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}


class JournalUnavailable(Exception):
    """The journal cannot be opened for writing; the message names the path and what to do."""


class JournalUnreadable(Exception):
    """Kept events could not be read back (corrupted pages)."""


class _Corrupt(Exception):
    """The file is not a sound journal: it is moved aside."""


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    topic: str
    payload: bytes


@dataclass
class _Held:
    """An event the journal could not take yet. ``last``: the last of those one ``append_all``
    stored together; ``also``: what it must write after them (see ``Store.append_all``)."""

    event: StoredEvent
    acked: bool = False
    last: bool = True
    also: Callable[[sqlite3.Connection], None] | None = None


class Store:
    """One table's journal file.

    ``keep``: how many of the newest seqs stay available for replay once acknowledged.
    ``hold_limit``: how many events to hold in memory while the journal cannot take them.
    ``on_trouble``: called (on the caller's thread) whenever ``problem``, ``unreadable``,
    ``held`` (as it grows) or ``dropped`` change.
    """

    def __init__(self, path: Path, *, keep: int, hold_limit: int = 10_000,
                 on_trouble: Callable[[], None] = lambda: None, synchronous: str = "normal"):
        self.path = path
        self._synchronous = SYNCHRONOUS[synchronous]
        self.keep = keep
        self.hold_limit = hold_limit
        self._on_trouble = on_trouble
        self.moved_aside: Path | None = None
        self.problem: str | None = None
        self._trouble_changed = False  # tell ``on_trouble`` once the change is complete
        self.unreadable: str | None = None
        self.dropped = 0
        self._held: deque[_Held] = deque()
        self._held_acks: set[int] = set()  # acknowledgements of on-disk events not yet written
        self._held_documents: dict[str, str] = {}
        self._db = self._open()
        try:
            store_id = self._meta("store_id")
            if store_id is None:
                store_id = uuid.uuid4().hex[:12]
                self._set_meta("store_id", store_id)
            self.store_id: str = store_id
            # the newest event's seq; ``meta`` keeps it for when pruning removed that event
            (newest,) = self._db.execute("SELECT max(seq) FROM events").fetchone()
            self.last_seq = max(int(self._meta("last_seq") or 0), newest or 0)
            self._prune_if_keep_changed()
            (self.depth,) = self._db.execute(
                "SELECT count(*) FROM events WHERE acked = 0").fetchone()
        except sqlite3.DatabaseError as exc:  # e.g. a disk already full at start
            self._db.close()
            raise self._unavailable(exc) from exc
        self._checkpointer = _Checkpointer(self.path)

    # opening

    def _open(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._unavailable(exc) from exc
        try:
            return self._connect()
        except _Corrupt as exc:
            self._move_aside(str(exc))
        except sqlite3.DatabaseError as exc:
            raise self._unavailable(exc) from exc
        try:
            return self._connect()
        except sqlite3.DatabaseError as exc:
            raise self._unavailable(exc) from exc

    def _connect(self) -> sqlite3.Connection:
        """Open, check and migrate the file; ``_Corrupt`` if it is not a sound journal."""
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={self._synchronous}")
            db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job, off this thread
            (check,) = db.execute("PRAGMA quick_check(1)").fetchone()
            if check != "ok":
                raise _Corrupt(f"quick_check: {check}")
            self._migrate(db)
        except sqlite3.DatabaseError as exc:
            db.close()
            if (exc.sqlite_errorname or "").startswith(_CORRUPT):
                raise _Corrupt(str(exc)) from exc
            raise
        except BaseException:
            db.close()
            raise
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise JournalUnavailable(
                f"journal {self.path} has schema version {version}, newer than this "
                f"mafia-table knows ({SCHEMA_VERSION}): it was written by a newer version. "
                f"Run that version, or move the file away to start a new journal.")
        for number in range(version, SCHEMA_VERSION):
            with db:
                db.execute("BEGIN")
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")
            if version > 0 or number > 0:
                log.info("journal %s: schema migrated to version %d", self.path, number + 1)
        if version < SCHEMA_VERSION:
            db.execute("DELETE FROM meta WHERE key = 'keep'")  # older code pruned differently

    def _move_aside(self, problem: str) -> None:
        """Rename the bad file (and its WAL) out of the way, keeping it for the technician."""
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        try:
            for suffix in ("", "-wal", "-shm"):
                source = self.path.with_name(self.path.name + suffix)
                if source.exists():
                    source.rename(aside.with_name(aside.name + suffix))
        except OSError as exc:
            raise self._unavailable(exc) from exc
        self.moved_aside = aside
        log.error("journal %s cannot be used (%s): moved aside to %s and kept for the "
                  "technician; a new journal is started (new store id, seq from 1)",
                  self.path, problem, aside)

    def _unavailable(self, exc: BaseException) -> JournalUnavailable:
        return JournalUnavailable(
            f"cannot write the journal {self.path}: {exc}. The controller needs a folder it can "
            f"write: make {self.path.parent} writable (and not full) for the service's user, "
            f"or set [store] path to such a place, then start it again.")

    def _prune_if_keep_changed(self) -> None:
        """Acknowledged events below the window are deleted as the window moves; only a
        smaller ``keep`` than last time (or a new or migrated file) leaves some to delete
        here, in one pass."""
        kept_for = self._meta("keep")
        if kept_for == str(self.keep):
            return
        with self._db:
            self._db.execute("BEGIN")
            if kept_for is None or int(kept_for) > self.keep:
                self._db.execute("DELETE FROM events WHERE acked = 1 AND seq <= ?",
                                 (self.last_seq - self.keep,))
                self._set_meta("last_seq", str(self.last_seq))
            self._set_meta("keep", str(self.keep))

    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def _set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # events

    def append(self, topic: str, payload_for: Callable[[int], bytes]) -> StoredEvent | None:
        """Give the next ``seq`` to ``payload_for(seq)`` and store the event: one row, one
        transaction (it is on every press's way to the broker, so nothing else is written).

        If the journal cannot take it, the event is held in memory (see the module's
        docstring); None when even that is full: the event is refused and counted."""
        stored = self.append_all([(topic, payload_for)])
        return stored[0] if stored else None

    def append_all(self, events: list[tuple[str, Callable[[int], bytes]]],
                   also: Callable[[sqlite3.Connection], None] | None = None
                   ) -> list[StoredEvent]:
        """``append`` for several events (topic, payload for a seq) in one transaction, with
        ``also(connection)`` writing more rows in it (say, where a console's stream stands after
        the input that caused the events): all of it is on disk, or none. Held together when
        the journal cannot take them (``also`` runs when they are written back), refused
        together (an empty list) when they do not fit in ``hold_limit``."""
        if len(self._held) + len(events) > self.hold_limit:
            self.dropped += len(events)
            log.error("journal %s: %d events held in memory, the most it holds is %d; %d events "
                      "(%s) are refused (%d refused so far)", self.path, len(self._held),
                      self.hold_limit, len(events), ", ".join(t for t, _ in events),
                      self.dropped)
            self._on_trouble()
            return []
        stored = [StoredEvent(self.last_seq + i, topic, payload_for(self.last_seq + i))
                  for i, (topic, payload_for) in enumerate(events, start=1)]
        held = [_Held(event, last=False) for event in stored]
        if held:
            held[-1].last, held[-1].also = True, also
        if self._held or not self._write(partial(self._write_events, held)):
            self._held.extend(held)
            self._trouble_changed = True  # ``held`` grew
        self.last_seq += len(stored)
        self.depth += len(stored)
        self._report()
        return stored

    def append_console_input(self, events: list[tuple[str, Callable[[int], bytes]]],
                             position: ConsolePosition) -> list[StoredEvent]:
        """``append_all`` for the events one console input caused, with the console's position
        after it in the same transaction: after a crash either both are on disk or neither is,
        so the console's resend of that input is taken exactly once. An input that caused no
        event writes its position alone (not at all while writes are held: the console then
        sends it again after a restart, and it causes nothing again)."""
        write = partial(_write_console_position, position)
        if events:
            return self.append_all(events, also=write)
        self._write(lambda: write(self._db))
        self._report()  # a write that just failed: ``health`` says so now, and retries start
        return []

    def console_positions(self) -> list[ConsolePosition]:
        """The positions ``append_console_input`` stored: one per console, its latest boot."""
        return [tuple(row) for row in self._db.execute(
            "SELECT unique_id, boot_id, seq, count FROM console_positions")]

    def _write_events(self, events: list[_Held]) -> None:
        for held in events:
            self._insert(held.event, acked=held.acked)
            if held.also is not None:
                held.also(self._db)

    def _insert(self, event: StoredEvent, *, acked: bool) -> None:
        """Write one event (inside a transaction) and move the kept window past it: the event
        the window leaves is deleted if it was acknowledged (else ``acked`` deletes it)."""
        if not (acked and event.seq <= max(event.seq, self.last_seq) - self.keep):
            self._db.execute("INSERT INTO events (seq, topic, payload, acked) VALUES (?, ?, ?, ?)",
                             (event.seq, event.topic, event.payload, int(acked)))
        self._db.execute("DELETE FROM events WHERE seq = ? AND acked = 1",
                         (event.seq - self.keep,))

    def acked(self, *seqs: int) -> None:
        """The broker has these events: keep each only while it is inside the kept window."""
        on_disk = []
        for seq in seqs:
            held = self._held_event(seq)
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
            changed = self._mark_acked(on_disk)

        if self._write(write):
            self.depth -= changed
        else:  # written later; meanwhile never handed out again as unacknowledged (past the
            # bound an acknowledgement is forgotten: the event is only published once more)
            fresh = [seq for seq in on_disk if seq not in self._held_acks]
            kept = fresh[:max(0, self.hold_limit - len(self._held_acks))]
            self._held_acks.update(kept)
            self.depth -= len(kept)
            self._report()

    def _mark_acked(self, seqs: Iterable[int]) -> int:
        """Mark or delete (below the window) each event, by primary key; how many changed."""
        changed = 0
        boundary = self.last_seq - self.keep
        for seq in seqs:
            if seq <= boundary:
                changed += self._db.execute("DELETE FROM events WHERE seq = ? AND acked = 0",
                                            (seq,)).rowcount
                if seq == self.last_seq:  # the newest is gone: meta remembers its seq
                    self._set_meta("last_seq", str(seq))
            else:
                changed += self._db.execute(
                    "UPDATE events SET acked = 1 WHERE seq = ? AND acked = 0", (seq,)).rowcount
        return changed

    def _held_event(self, seq: int) -> _Held | None:
        """The held event with this ``seq`` (held seqs are consecutive: found by offset)."""
        if not self._held or not 0 <= seq - self._held[0].event.seq < len(self._held):
            return None
        return self._held[seq - self._held[0].event.seq]

    def unacked_after(self, after_seq: int, limit: int) -> list[StoredEvent]:
        """At most ``limit`` unacknowledged events with ``seq > after_seq``, oldest first: a
        page of the backlog, read through the index of unacknowledged events."""
        rows = self._read("SELECT seq, topic, payload FROM events WHERE acked = 0 AND seq > ? "
                          "ORDER BY seq LIMIT ?", (after_seq, limit))
        events = [StoredEvent(*row) for row in rows if row[0] not in self._held_acks]
        if len(rows) < limit:
            events += [h.event for h in self._held_after(after_seq, limit) if not h.acked]
        return events[:limit]

    def since(self, after_seq: int, limit: int) -> list[StoredEvent]:
        """At most ``limit`` kept events with ``seq > after_seq``, oldest first.

        Raises ``JournalUnreadable`` if the pages that hold them are corrupted."""
        rows = self._read("SELECT seq, topic, payload FROM events WHERE seq > ? ORDER BY seq "
                          "LIMIT ?", (after_seq, limit))
        events = [StoredEvent(*row) for row in rows]
        if len(rows) < limit:
            events += [h.event for h in itertools.islice(self._held_after(after_seq, limit),
                                                         limit)]
        return events[:limit]

    def _held_after(self, after_seq: int, limit: int) -> Iterable[_Held]:
        """Held events with ``seq > after_seq``, oldest first, found by offset (held seqs are
        consecutive) and stopped after ``limit`` not yet acknowledged: a page costs its own
        size, not the whole hold."""
        if not self._held:
            return
        start = max(0, after_seq + 1 - self._held[0].event.seq)
        for held in itertools.islice(self._held, start, None):
            yield held
            limit -= not held.acked
            if limit <= 0:
                return

    def oldest_kept(self) -> int:
        """The smallest ``seq`` still stored (``last_seq + 1`` when there is none)."""
        [(oldest,)] = self._read("SELECT min(seq) FROM events", ())
        if oldest is None and self._held:
            return self._held[0].event.seq
        return self.last_seq + 1 if oldest is None else oldest

    def _read(self, sql: str, parameters: tuple[int, ...]) -> list[tuple]:
        """Rows of a query over the events; ``JournalUnreadable`` (and ``unreadable`` set,
        for ``health``, until the next start) if SQLite cannot read their pages."""
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.DatabaseError as exc:
            error = f"cannot read the journal {self.path}: {exc}"
            if self.unreadable is None:
                log.error("%s; restart the controller to move it aside and start a new one",
                          error)
                self.unreadable = error
                self._on_trouble()
            raise JournalUnreadable(error) from exc

    # documents

    def save(self, key: str, document: bytes) -> None:
        """Keep a JSON document (the table ``state``, the running vote ``session``)."""
        text = document.decode()
        if not self._write(lambda: self._set_meta(key, text)):
            self._held_documents[key] = text
        else:
            self._held_documents.pop(key, None)
        self._report()

    def load(self, key: str) -> bytes | None:
        value = self._held_documents.get(key) or self._meta(key)
        return None if value is None else value.encode()

    def forget(self, key: str) -> None:
        """Drop a saved document (``mafia-table state reset``); the events stay."""
        self._held_documents.pop(key, None)
        self._db.execute("DELETE FROM meta WHERE key = ?", (key,))

    # trouble

    @property
    def held(self) -> int:
        """Events held in memory, waiting for the journal to take them."""
        return len(self._held)

    def retry(self) -> bool:
        """Write what is held, oldest first; True once nothing is held any more."""
        while self._held_acks or self._held_documents or self._held:
            chunk = self._next_chunk()
            acks = sorted(self._held_acks)
            documents = dict(self._held_documents)
            if not self._write(partial(self._write_back, acks, documents, chunk), retrying=True):
                self._report()
                return False
            self._held_acks.difference_update(acks)
            for key, text in documents.items():
                if self._held_documents.get(key) == text:
                    del self._held_documents[key]
            for _ in chunk:
                self._held.popleft()
        if self.problem is not None:
            log.warning("journal %s: writable again; everything held is written", self.path)
            self.problem = None
            self._on_trouble()
        return True

    def _next_chunk(self) -> list[_Held]:
        """The oldest held events, about ``_RETRY_CHUNK`` of them, never splitting what one
        ``append_all`` stored together."""
        size = min(_RETRY_CHUNK, len(self._held))
        while size and not self._held[size - 1].last:
            size += 1
        return [self._held[i] for i in range(size)]

    def _report(self) -> None:
        if self._trouble_changed:
            self._trouble_changed = False
            self._on_trouble()

    def _write_back(self, acks: list[int], documents: dict[str, str], chunk: list[_Held]) -> None:
        """Held acknowledgements, documents and events (oldest first), in one transaction."""
        self._mark_acked(acks)
        for key, text in documents.items():
            self._set_meta(key, text)
        self._write_events(chunk)
        self._set_meta("last_seq", str(self.last_seq))

    def _write(self, work: Callable[[], None], *, retrying: bool = False) -> bool:
        """Run ``work`` in one transaction; False (and ``problem`` set) if the journal could
        not take it. Nothing is attempted while earlier writes are held, unless retrying, so
        the file never gets a later write before an earlier one."""
        if not retrying and (self._held or self._held_acks or self._held_documents):
            return False
        try:
            with self._db:
                self._db.execute("BEGIN")
                work()
        except sqlite3.DatabaseError as exc:
            problem = f"cannot write the journal {self.path}: {exc}"
            if problem != self.problem:
                log.error("%s; events are held in memory (at most %d) until it can", problem,
                          self.hold_limit)
                self.problem = problem
                self._trouble_changed = True
            return False
        return True

    def close(self) -> None:
        self._checkpointer.stop()
        if self.held or self._held_acks or self._held_documents:
            self.retry()
        if self.held:
            log.error("journal %s: %d events could not be written before closing (seq %d..%d)",
                      self.path, self.held, self._held[0].event.seq, self._held[-1].event.seq)
        self._db.close()


def _write_console_position(position: ConsolePosition, db: sqlite3.Connection) -> None:
    """Inside a transaction: the console's position; its earlier boots' rows go (a console never
    goes back to an earlier boot)."""
    unique_id, boot_id, seq, count = position
    db.execute("DELETE FROM console_positions WHERE unique_id = ? AND boot_id != ?",
               (unique_id, boot_id))
    db.execute("INSERT OR REPLACE INTO console_positions VALUES (?, ?, ?, ?)",
               (unique_id, boot_id, seq, count))


class _Checkpointer:
    """Copies the WAL into the journal file every ``CHECKPOINT_SECONDS``, on its own thread and
    connection (a passive checkpoint: it never blocks the writer, nor waits for it)."""

    def __init__(self, path: Path):
        self._path = path
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-checkpoint",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        try:
            while not self._stopping.wait(CHECKPOINT_SECONDS):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.DatabaseError as exc:  # a full disk: the WAL waits, nothing lost
                    log.debug("journal %s: checkpoint failed: %s", self._path, exc)
        finally:
            db.close()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(10)
