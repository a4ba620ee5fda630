"""Opening a journal file: ready to write, or moved aside and started anew, or refused clearly.

Every open runs the same checks, in order: SQLite opens the file in WAL mode with the chosen
``synchronous`` (see ``controller.journal.checkpoint`` for what each costs and survives), with
automatic checkpoints off (the checkpointer's job, off the loop thread); ``quick_check`` reads
every page; ``controller.journal.schema.migrate`` brings the tables up to date.

* A file that is not a journal (garbage, a zeroed header, pages that fail ``quick_check``) is
  moved aside as ``<name>.corrupt-<UTC time>``, with its WAL and shared memory, kept for the
  technician (``OpenedFile.moved_aside``, logged, and shown in ``health``), and a new journal is
  started in its place, with a new store id.
* A folder or file that cannot be written (read-only, full at start, not ours) raises
  ``JournalUnavailable``, whose message names the path and what to do; so does a file written
  by a newer version. ``mafia-table`` turns it into exit status 2, which systemd does not
  restart forever.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import kit.sqlite
from controller.journal.schema import SCHEMA_VERSION, NewerSchema, migrate

log = logging.getLogger(__name__)

#: ``[store] synchronous``: "normal" syncs the WAL at checkpoints, "full" at every commit
SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}

#: SQLite errors that mean the file is not a (sound) database: it is moved aside.
_CORRUPT = ("SQLITE_NOTADB", "SQLITE_CORRUPT")


class JournalUnavailable(Exception):
    """The journal cannot be opened for writing; the message names the path and what to do."""


class _Corrupt(Exception):
    """The file is not a sound journal: it is moved aside."""


@dataclass(frozen=True)
class OpenedFile:
    """A journal ready to write: its connection, and where a bad file found there went."""

    db: sqlite3.Connection
    moved_aside: Path | None


def open_file(path: Path, synchronous: str) -> OpenedFile:
    """Open (making its folder), check and migrate the journal at ``path``, moving a corrupt
    file aside first; ``JournalUnavailable`` if it cannot be written."""
    pragma = SYNCHRONOUS[synchronous]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unavailable(path, exc) from exc
    try:
        return OpenedFile(_connect(path, pragma), None)
    except _Corrupt as exc:
        aside = _move_aside(path, str(exc))
    except sqlite3.DatabaseError as exc:
        raise unavailable(path, exc) from exc
    try:
        return OpenedFile(_connect(path, pragma), aside)
    except sqlite3.DatabaseError as exc:
        raise unavailable(path, exc) from exc


def unavailable(path: Path, exc: BaseException) -> JournalUnavailable:
    """The error for a journal that cannot be written, saying what to do about it."""
    return JournalUnavailable(
        f"cannot write the journal {path}: {exc}. The controller needs a folder it can "
        f"write: make {path.parent} writable (and not full) for the service's user, "
        f"or set [store] path to such a place, then start it again.")


def _connect(path: Path, synchronous: str) -> sqlite3.Connection:
    """Open, check and migrate the file (``synchronous``: SQLite's word for it); ``_Corrupt``
    if it is not a sound journal."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        kit.sqlite.limit_cache(db)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={synchronous}")
        db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job, off this thread
        (check,) = db.execute("PRAGMA quick_check(1)").fetchone()
        if check != "ok":
            raise _Corrupt(f"quick_check: {check}")
        migrate(db, path)
    except sqlite3.DatabaseError as exc:
        db.close()
        if (exc.sqlite_errorname or "").startswith(_CORRUPT):
            raise _Corrupt(str(exc)) from exc
        raise
    except NewerSchema as exc:
        db.close()
        raise JournalUnavailable(
            f"journal {path} has schema version {exc.version}, newer than this "
            f"mafia-table knows ({SCHEMA_VERSION}): it was written by a newer version. "
            f"Run that version, or move the file away to start a new journal.") from exc
    except BaseException:
        db.close()
        raise
    return db


def _move_aside(path: Path, problem: str) -> Path:
    """Rename the bad file (and its WAL) out of the way, keeping it for the technician."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    try:
        for suffix in ("", "-wal", "-shm"):
            source = path.with_name(path.name + suffix)
            if source.exists():
                source.rename(aside.with_name(aside.name + suffix))
    except OSError as exc:
        raise unavailable(path, exc) from exc
    log.error("journal %s cannot be used (%s): moved aside to %s and kept for the "
              "technician; a new journal is started (new store id, seq from 1)",
              path, problem, aside)
    return aside
