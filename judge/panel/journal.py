"""The game's journal: every input that changed the game, in order, in SQLite.

The game core is pure and deterministic, so the journal holds inputs, not states: a restarted
panel replays them through ``judge.game.step`` and stands exactly where it stood, record lines
included. Each input is committed before its commands go to the table, so no command leaves
for a decision the journal could forget. The table's last event ``seq`` (public and private) is
kept too, for ``cmd/replay`` after a reconnect.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kit.sqlite
from judge.game import Action, TableEvent
from judge.panel import table_events

log = logging.getLogger("judge")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inputs (
    n INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'event')),
    name TEXT NOT NULL,     -- the action's kind, or the event's topic
    body TEXT NOT NULL      -- JSON: the action's args, or the event (judge.panel.table_events)
);
CREATE TABLE IF NOT EXISTS seen (journal TEXT PRIMARY KEY, seq INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (token TEXT PRIMARY KEY, at REAL NOT NULL);
"""


class Journal:
    def __init__(self, path: str | Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = kit.sqlite.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def append(self, given: Action | TableEvent, at: float) -> None:
        if isinstance(given, Action):
            row = ("action", given.kind, json.dumps(dict(given.args)))
        else:
            row = ("event", given.topic, json.dumps(table_events.to_data(given)))
        self._db.execute("INSERT INTO inputs (at, kind, name, body) VALUES (?, ?, ?, ?)",
                         (at, *row))

    def inputs(self) -> Iterator[tuple[Action | TableEvent, float]]:
        """The inputs in order. An event is read by ``judge.panel.table_events.from_data``, which
        also reads the dict form journals kept before the events were typed; one it cannot read is
        logged and skipped (its row stays)."""
        for n, at, kind, name, body in self._db.execute(
                "SELECT n, at, kind, name, body FROM inputs ORDER BY n"):
            data: Any = json.loads(body)
            if kind == "action":
                yield Action(name, data), at
                continue
            try:
                event = table_events.from_data(name, data)
            except table_events.BadEvent as exc:
                event = None
                log.error("journal input %d unreadable, skipped: %s", n, exc)
            if event is not None:
                yield event, at

    def seen(self, journal: str, seq: int) -> None:
        """The table's ``seq`` reached in ``event`` or ``private`` (only ever goes up)."""
        self._db.execute("INSERT INTO seen VALUES (?, ?) ON CONFLICT(journal) DO UPDATE "
                         "SET seq = max(seq, excluded.seq)", (journal, seq))

    def last_seq(self, journal: str) -> int | None:
        row = self._db.execute("SELECT seq FROM seen WHERE journal = ?", (journal,)).fetchone()
        return None if row is None else row[0]

    def add_session(self, token: str, at: float) -> None:
        """A logged-in judge's cookie: it outlives a restart of the panel."""
        self._db.execute("INSERT INTO sessions VALUES (?, ?)", (token, at))

    def session(self, token: str) -> bool:
        return self._db.execute("SELECT 1 FROM sessions WHERE token = ?",
                                (token,)).fetchone() is not None

    def clear(self) -> None:
        """A new game: the inputs go (the table's seq stays)."""
        self._db.execute("DELETE FROM inputs")

    def close(self) -> None:
        self._db.close()
