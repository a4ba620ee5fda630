"""The panel's games: one record document per game, kept in the panel's SQLite beside the
journal.

The record store the games' pages read and edit (``judge.record.routes``, ``mafia-table judge
export``). The game being played is in the journal (the panel's, ``judge.panel.journal``, handed
in as ``Inputs``): its record is built from the journal's inputs whenever it is asked for, with the
judge's edits made so far (kept here, in ``edits``) laid over it. When the judge starts a new game
or abandons this one, its record is archived as one document (``games``), edits and history
included, and the journal is cleared; an archived document is edited in place, each edit appended to
its ``history``. A game that never left setup (no night fell) is not a game and is not archived.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Protocol

import msgspec

import kit.sqlite
from judge.game import Action, Rules, TableEvent
from judge.record import document as rec

log = logging.getLogger("judge.store")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    document TEXT NOT NULL      -- the record (judge.record.document.Record) as JSON
);
CREATE TABLE IF NOT EXISTS edits (
    n INTEGER PRIMARY KEY,
    game TEXT NOT NULL,         -- the game being played (archived games hold their own)
    body TEXT NOT NULL          -- judge.record.document.Edit as JSON
);
"""


class Inputs(Protocol):
    """The game being played, as its inputs in order: the panel's journal."""

    def inputs(self) -> Iterable[tuple[Action | TableEvent, float]]: ...


class GameStore:
    """The records of table ``table``'s games: the one being played, from ``journal``, and the
    archived ones, in the SQLite at ``path`` (the journal's). ``changed`` is told each record
    an edit or the archive changed (the panel sends the game on to the hall)."""

    def __init__(self, journal: Inputs, path: str | Path, table: str,
                 rules: Rules | None = None, seats: int | None = None):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.journal, self.table, self.rules, self.seats = journal, table, rules, seats
        self.changed: Callable[[rec.Record], None] = lambda record: None
        self._db = kit.sqlite.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    # ------------------------------------------------------------------ reading

    def current(self) -> rec.Record | None:
        """The game being played, from the journal's inputs, with its edits so far (None
        before the journal holds a game)."""
        built = rec.build(self.journal.inputs(), self.table, self.rules, self.seats)
        if built is None:
            return None
        for edit in self._edits(built.id):
            try:
                built = rec.apply_edits(built, [edit])
            except rec.RecordError as exc:  # an undo after the game took its field away
                log.warning("edit of %s no longer applies, left out: %s", built.id, exc)
        return built

    def find(self, id: str) -> rec.Record | None:
        """Game ``id``: the one being played or an archived one."""
        current = self.current()
        if current is not None and current.id == id:
            return current
        return self.archived(id)

    def listing(self) -> list[rec.Record]:
        """The game being played first, then the archived ones, newest first (a panel stopped
        between archiving a game and clearing its journal holds it twice: it is listed once)."""
        current = self.current()
        if current is None:
            return self.archived_games()
        return [current] + [r for r in self.archived_games() if r.id != current.id]

    def archived(self, id: str) -> rec.Record | None:
        row = self._db.execute("SELECT document FROM games WHERE id = ?", (id,)).fetchone()
        return None if row is None else rec.decode(row[0])

    def latest(self) -> rec.Record | None:
        """The game archived last (the one before the game being played at this table)."""
        row = self._db.execute(
            "SELECT document FROM games ORDER BY created DESC LIMIT 1").fetchone()
        return None if row is None else rec.decode(row[0])

    def archived_games(self) -> list[rec.Record]:
        """The archived games, newest first."""
        return [rec.decode(doc) for (doc,) in self._db.execute(
            "SELECT document FROM games ORDER BY created DESC")]

    def _edits(self, id: str) -> list[rec.Edit]:
        return [msgspec.json.decode(body, type=rec.Edit) for (body,) in self._db.execute(
            "SELECT body FROM edits WHERE game = ? ORDER BY n", (id,))]

    # ------------------------------------------------------------------ writing

    def edit(self, id: str, edit: rec.Edit) -> rec.Record:
        """One edit of game ``id`` (the current one or an archived one), checked by applying
        it first: a ``RecordError`` changes nothing. Returns the edited record."""
        current = self.current()
        if current is not None and current.id == id:
            edited = rec.apply_edits(current, [edit])
            self._db.execute("INSERT INTO edits (game, body) VALUES (?, ?)",
                             (id, msgspec.json.encode(edit).decode()))
            self.changed(edited)
            return edited
        stored = self.archived(id)
        if stored is None:
            raise KeyError(id)
        edited = rec.apply_edits(stored, [edit])
        self._db.execute("UPDATE games SET document = ? WHERE id = ?",
                         (rec.encode(edited).decode(), id))
        self.changed(edited)
        return edited

    def archive(self, abandon: rec.Edit | None) -> str | None:
        """Keep the current game's record (``abandon``: the edit recorded when it is not
        finished), before the journal is cleared for the next game. Returns its id, or
        ``None`` when there was no game to keep."""
        current = self.current()
        if current is None or current.started is None:
            return None
        if current.status == "in_progress" and abandon is not None:
            current = rec.apply_edits(current, [abandon])
        self._db.execute("BEGIN")
        self._db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?)",
                         (current.id, current.created, rec.encode(current).decode()))
        self._db.execute("DELETE FROM edits WHERE game = ?", (current.id,))
        self._db.execute("COMMIT")
        self.changed(current)
        return current.id

    def close(self) -> None:
        self._db.close()

