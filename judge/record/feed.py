"""The panel's games on their way to the hall: each one over, kept until the broker has it.

When a game is over (finished, or abandoned) and after each later edit of it, ``offer`` makes
the next revision of its message (``results.feed``: retained, QoS 1, on
``mafia/<table>/record/<game>``) and keeps it in the panel's SQLite beside the journal; the
panel publishes it and marks it ``acked`` when the broker acknowledges it. A revision not
acknowledged (the table's broker away, the panel stopped) is sent again each time the panel
connects (``unacked``), so a game ended while the table was offline reaches the hall when it is
back, across the panel's restarts too. The table's broker then holds it in its bridge's queue
while the hall is away (docs/hall.md). A copy is harmless: the hall keeps the highest revision.

Nothing of a game in progress is ever offered (its record holds the roles and the night): a
game published as over that goes back into play (the judge's Undo of the last foul) is
withdrawn, by a message with no record, until it is over again.

The hall's seating names the players: ``seated`` notes which tournament and round's seating
named a game's players, and each message says it (the hall counts the game in that round).
The same object serves the scripted judge of ``examples/fiim_game.py``, which publishes its
record the panel's way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import msgspec

import kit.sqlite
from results import feed
from results.record import Record

log = logging.getLogger("judge.feed")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feed (
    game TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    status TEXT NOT NULL,       -- the record's status in this revision, or 'withdrawn'
    message BLOB NOT NULL,      -- results.feed.RecordMessage as JSON: the bytes sent
    acked INTEGER NOT NULL      -- 1 once the broker acknowledged this revision
);
CREATE TABLE IF NOT EXISTS seated (
    game TEXT PRIMARY KEY,
    tournament TEXT,            -- the hall's tournament (null: a seating without one)
    round INTEGER NOT NULL      -- the round whose seating named the game's players
);
"""

#: why a game published as over is withdrawn
REOPENED = "the game went back into play at the table (Undo): not over any more"


@dataclass(frozen=True)
class Outgoing:
    """One revision to publish (retained, QoS 1): the same bytes every time it is sent."""

    game: str
    revision: int
    topic: str
    payload: bytes


class RecordFeed:
    """The messages of table ``table``'s games, in the SQLite at ``path`` (the journal's)."""

    def __init__(self, path: str | Path, table: str):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self.table = table
        self._db = kit.sqlite.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def seated(self, game: str, tournament: str | None, round: int) -> None:
        """``game``'s players came from ``round``'s seating (of ``tournament``)."""
        self._db.execute("INSERT OR REPLACE INTO seated VALUES (?, ?, ?)",
                         (game, tournament, round))

    def seating_of(self, game: str) -> tuple[str | None, int] | None:
        row = self._db.execute("SELECT tournament, round FROM seated WHERE game = ?",
                               (game,)).fetchone()
        return None if row is None else (row[0], row[1])

    def played(self, tournament: str | None, round: int) -> bool:
        """A game of this seating has finished here (its seating is not for the next game)."""
        return self._db.execute(
            "SELECT 1 FROM seated JOIN feed USING (game) WHERE tournament IS ? AND round = ? "
            "AND status = 'finished'", (tournament, round)).fetchone() is not None

    def offer(self, record: Record | None, now: float) -> Outgoing | None:
        """The game ``record`` may have changed: its next revision when it is over and not as
        last published, a withdrawal when it was published as over and is in play again;
        ``None`` when there is nothing to send. The revision is kept before it is returned."""
        if record is None:
            return None
        last = self._db.execute("SELECT revision, status, message FROM feed WHERE game = ?",
                                (record.id,)).fetchone()
        revision = 1 if last is None else last[0] + 1
        tournament, round = self.seating_of(record.id) or (None, None)
        if record.status == "in_progress":
            if last is None or last[1] == "withdrawn":
                return None  # never published: nothing of a game in play leaves the panel
            made = feed.message(self.table, record.id, revision, now, None, tournament, round,
                                withdrawn=REOPENED)
            status = "withdrawn"
        else:
            made = feed.message(self.table, record.id, revision, now, record, tournament, round)
            if last is not None and last[1] != "withdrawn" and _same(last[2], made):
                return None
            status = record.status
        payload = feed.encode(made)
        self._db.execute("INSERT OR REPLACE INTO feed VALUES (?, ?, ?, ?, 0)",
                         (record.id, revision, status, payload))
        log.info("game %s: revision %d (%s) for the hall", record.id, revision, status)
        return self._outgoing(record.id, revision, payload)

    def unacked(self) -> list[Outgoing]:
        """Every latest revision the broker has not acknowledged yet, oldest game first."""
        return [self._outgoing(game, revision, payload) for game, revision, payload in
                self._db.execute("SELECT game, revision, message FROM feed WHERE acked = 0 "
                                 "ORDER BY rowid")]

    def acked(self, game: str, revision: int) -> None:
        """The broker has ``revision`` of ``game`` (an older revision's acknowledgement leaves
        a newer one waiting)."""
        self._db.execute("UPDATE feed SET acked = 1 WHERE game = ? AND revision = ?",
                         (game, revision))

    def close(self) -> None:
        self._db.close()

    def _outgoing(self, game: str, revision: int, payload: bytes) -> Outgoing:
        return Outgoing(game, revision, feed.topic(self.table, game), bytes(payload))


def _same(stored: bytes, made: feed.RecordMessage) -> bool:
    """The stored message holds the same record (and seating) as ``made``."""
    before = msgspec.json.decode(stored, type=feed.RecordMessage)
    return (bytes(before.record) == bytes(made.record) != b"null"
            and (before.tournament, before.round) == (made.tournament, made.round))
