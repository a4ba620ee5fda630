"""What a table keeps between runs, shown and reset: ``mafia-table state show|reset``.

The journal (``controller.journal``) holds two kinds of things:

* the **events** and their ``seq``: the outbox still owed to the broker, and the acknowledged
  ones kept for ``cmd/replay``. A reset keeps them: dropping them would lose events the rules
  core has not had, and restart ``seq`` under the consumers' feet;
* the **saved table**: ``state`` (day, standings, today's nominations, manual lights, phase),
  the running vote ``session`` and the ``night_step``. A restart resumes from them. A reset drops
  them, so the next start is a new table.

A ``--sim`` run without ``--resume`` starts from nothing: ``discard_journal`` removes its own
journal files (never a real table's, see ``config.sim_store_path``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec

from contract import api
from controller.config import Config
from controller.journal import Journal

#: the keys of the saved table (``controller.shell.restore`` saves and reads them back)
STATE, SESSION, NIGHT_STEP = "state", "session", "night_step"
#: the saved documents a reset drops
SAVED = (STATE, SESSION, NIGHT_STEP)
#: the boot id of the controller that last opened the journal (``Service`` saves it)
LAST_BOOT = "boot_id"


def journal_files(config: Config) -> list[Path]:
    """The table's journal files: public and private, each with SQLite's WAL and shared memory."""
    files = []
    for path in (config.store_path(), config.private_store_path()):
        files += [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    return files


def last_boot_id(config: Config) -> str | None:
    """The boot id the journal last ran with, or None (no journal yet, or none readable).

    Read-only, without ``Journal``: opening a ``Journal`` migrates, or moves a corrupt file aside,
    which is for the service's own start to do (and to report in ``health``)."""
    path = config.store_path()
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (LAST_BOOT,)).fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return None
    return None if row is None else row[0]


def discard_journal(config: Config) -> bool:
    """Remove the journal files (for a fresh ``--sim``). True if there was one."""
    found = False
    for path in journal_files(config):
        if path.exists():
            path.unlink()
            found = True
    return found


def reset(config: Config) -> None:
    """Drop the saved table from both journals; the events stay (see the module docstring)."""
    for path in (config.store_path(), config.private_store_path()):
        if path.is_file():
            store = Journal(path, keep=config.store.keep)
            try:
                for key in SAVED:
                    store.forget(key)
            finally:
                store.close()


def describe(config: Config) -> str:
    """A few lines saying what the table's journal holds (for ``state show``)."""
    path = config.store_path()
    if not path.is_file():
        return f"table {config.table}: no journal at {path} (the next start is a new table)\n"
    lines = [f"table {config.table}"]
    for name, journal_path in (("journal", path), ("private", config.private_store_path())):
        if not journal_path.is_file():
            continue
        store = Journal(journal_path, keep=config.store.keep)
        try:
            lines.append(f"  {name:8} {journal_path}: store {store.store_id}, last seq "
                         f"{store.last_seq}, {store.depth} events wait for the broker")
            if name == "journal":
                saved = {key: store.load(key) for key in (*SAVED, LAST_BOOT)}
        finally:
            store.close()
    if (last_boot := saved[LAST_BOOT]) is not None:
        lines.append(f"  last run  boot {last_boot.decode()}")
    lines += _describe_table(saved[STATE])
    session = _decoded(saved[SESSION])
    step = _decoded(saved[NIGHT_STEP])
    lines.append(f"  vote      {'running: ' + str(session.get('id')) if session else 'none'}")
    lines.append(f"  night     {'step open: ' + str(step.get('kind')) if step else 'no step open'}")
    return "\n".join(lines) + "\n"


def _decoded(document: bytes | None) -> dict | None:
    if document is None:
        return None
    try:
        value = msgspec.json.decode(document)
    except msgspec.DecodeError:
        return {"id": "(unreadable)", "kind": "(unreadable)"}
    return value if isinstance(value, dict) else None


def _describe_table(document: bytes | None) -> list[str]:
    if document is None:
        return ["  saved     nothing (the next start is a new table)"]
    try:
        state = msgspec.json.decode(document, type=api.State)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return [f"  saved     unreadable ({exc}); the next start ignores it"]
    out = [s.seat for s in state.seats if not s.standing.in_game]
    fouls = [f"{s.seat}:{s.standing.fouls}" for s in state.seats if s.standing.fouls]
    manual = [s.seat for s in state.seats if s.manual is not None]
    nominations = ", ".join(f"{n.seat} (by {n.by})" for n in state.nominations) or "none"
    return [
        f"  saved     day {state.day}, phase {state.phase}"
        + (f", speech timer of seat {state.timer.seat}" if state.timer else ""),
        f"  seats     out: {_seats(out)}; fouls: {' '.join(fouls) or 'none'}; "
        f"lights set by cmd/light: {_seats(manual)}",
        f"  nominated {nominations}",
    ]


def _seats(seats: list[int]) -> str:
    return ", ".join(map(str, seats)) or "none"
