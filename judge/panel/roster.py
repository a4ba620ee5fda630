"""The club's roster: every player's name as the club writes it, kept in the panel's SQLite
beside the journal, so a player's name is typed once and is the same in every game (the
standings and the ratings count a name as a player).

It holds the names played at this panel (each game's players as it starts, and the archived
games' when the roster is new) and the names of the roster file the club keeps
(``judge.panel.roster_csv``: loaded whole or refused whole; a name already held takes the
file's spelling; nothing is removed). The judge's page offers them as a name is typed, and a
name typed that the roster has (``kit.player_names.key``: ``иван `` is ``Иван``) is written in
the roster's spelling (``spelling``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import kit.sqlite
from judge.panel import roster_csv
from kit import player_names

_SCHEMA = """
CREATE TABLE IF NOT EXISTS roster (
    key TEXT PRIMARY KEY,       -- kit.player_names.key of the name: one row a player
    name TEXT NOT NULL,         -- the club's spelling
    games INTEGER NOT NULL DEFAULT 0,   -- games begun at this panel
    last REAL,                  -- when the last of them began (Unix time)
    listed INTEGER NOT NULL DEFAULT 0   -- in a roster file the club loaded
);
"""


@dataclass(frozen=True)
class Loaded:
    """What a roster file changed: names added, names whose spelling it changed, and the
    roster's size after it."""

    added: int
    respelled: int
    total: int


class Roster:
    """The roster in the SQLite at ``path`` (the journal's)."""

    def __init__(self, path: str | Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = kit.sqlite.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def names(self) -> list[tuple[str, int]]:
        """Each player's name and the games begun here, the most played first."""
        return list(self._db.execute("SELECT name, games FROM roster ORDER BY games DESC, "
                                     "name COLLATE NOCASE"))

    def __len__(self) -> int:
        count: int = self._db.execute("SELECT count(*) FROM roster").fetchone()[0]
        return count

    def spelling(self, name: str) -> str:
        """``name`` as the roster writes that player, else tidy as typed."""
        tidy = player_names.tidy(name)
        row = self._db.execute("SELECT name FROM roster WHERE key = ?",
                               (player_names.key(tidy),)).fetchone()
        return tidy if row is None else str(row[0])

    def played(self, names: Iterable[str], at: float) -> None:
        """A game begun at ``at`` with ``names``: each one more game (a new name is added as
        it was written)."""
        with self._db:
            for name in filter(None, (player_names.tidy(n) for n in names)):
                self._db.execute(
                    "INSERT INTO roster (key, name, games, last) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT(key) DO UPDATE SET games = games + 1, last = excluded.last",
                    (player_names.key(name), name, at))

    def load(self, data: bytes) -> Loaded:
        """A roster file's names into the roster, whole or not at all
        (``roster_csv.RosterFileError`` says why; nothing changes then)."""
        rows = roster_csv.read(data)
        added = respelled = 0
        with self._db:
            for row in rows:
                key = player_names.key(row.name)
                held = self._db.execute("SELECT name FROM roster WHERE key = ?",
                                        (key,)).fetchone()
                if held is None:
                    added += 1
                    self._db.execute("INSERT INTO roster (key, name, listed) VALUES (?, ?, 1)",
                                     (key, row.name))
                else:
                    respelled += held[0] != row.name
                    self._db.execute("UPDATE roster SET name = ?, listed = 1 WHERE key = ?",
                                     (row.name, key))
        return Loaded(added=added, respelled=respelled, total=len(self))

    def csv(self, language: str) -> bytes:
        """The roster as the club's spreadsheet opens it (``roster_csv.write``), by name."""
        rows = self._db.execute("SELECT name, games, last FROM roster ORDER BY name COLLATE "
                                "NOCASE")
        return roster_csv.write(((name, games, "" if last is None else time.strftime(
            "%Y-%m-%d", time.localtime(last))) for name, games, last in rows), language)

    def close(self) -> None:
        self._db.close()
