"""The hall's own SQLite: the tournament, every game the tables sent, each game's history.

Each message on a table's ``record/<game>`` topic (``results.feed``) is decoded with the
record's own schema and kept by ``receive``: the first revision of a game, and each higher one
after it (a correction or extra points made at the table later), replace what the hall holds
of that game, and every revision received stays in the game's ``history`` with what changed (the
record's own edits since the revision before, or its withdrawal). A copy (the same revision
again: QoS 1 redelivers, the retained message comes back at every connect) or an older one
changes nothing. A message that is no record message, or a record of another game than its
topic's, is refused: logged, counted, kept as it came in ``refused``, and nothing held changes.

The schema is versioned (``PRAGMA user_version``): ``MIGRATIONS[n]`` takes a store from version
``n`` to ``n + 1``, run in order at open; a store written by a newer program is refused rather
than read wrongly.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path

import kit.sqlite
from kit.i18n import Words, joined
from results import feed
from results.record import JUDGE, Record

log = logging.getLogger("hall.store")

#: each step's SQL, from version n to n + 1 (append; never change one already shipped)
MIGRATIONS = (
    """
    CREATE TABLE tournament (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        document TEXT NOT NULL          -- hall.tournament.Tournament as JSON
    );
    CREATE TABLE games (
        game TEXT PRIMARY KEY,          -- the record's id
        tab TEXT NOT NULL,              -- the table that sent it
        revision INTEGER NOT NULL,      -- the highest received
        received REAL NOT NULL,
        message BLOB NOT NULL           -- results.feed.RecordMessage as it came
    );
    CREATE TABLE history (
        n INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        revision INTEGER NOT NULL,
        received REAL NOT NULL,
        what TEXT NOT NULL              -- received, replaced, withdrawn (version 2: as Words)
    );
    CREATE TABLE refused (
        n INTEGER PRIMARY KEY,
        topic TEXT NOT NULL,
        received REAL NOT NULL,
        reason TEXT NOT NULL,
        payload BLOB NOT NULL           -- kept as it came
    );
    """,
    # the history's words became Words (a catalog key and its parameters, docs/i18n.md), read
    # in the organiser's language; an English line of an older store is kept as a text
    """
    UPDATE history SET what = json_object('key', 'tournament.history.text',
                                          'params', json_object('text', what));
    """,
    # a tournament replaced by a new one before any of its rounds went to the tables is kept,
    # the organiser may bring it back (a wrong click loses no seating)
    """
    CREATE TABLE replaced (
        n INTEGER PRIMARY KEY,
        replaced REAL NOT NULL,         -- when the new one replaced it
        document TEXT NOT NULL          -- hall.tournament.Tournament as JSON
    );
    """,
)
VERSION = len(MIGRATIONS)

#: a game's status and its winner, for a reader (a book's teams; another winner as given)
STATUS = {"finished": "tournament.status.finished", "abandoned": "tournament.status.abandoned",
          "in_progress": "tournament.status.in_progress"}
WINNERS = {"red": "tournament.winner.red", "black": "tournament.winner.black",
           "draw": "tournament.winner.draw"}
EDITS = {"correction": "tournament.edit.correction", "extra_points": "tournament.edit.extra_points",
         "abandon": "tournament.edit.abandon"}


class StoreError(RuntimeError):
    """The store cannot be used (written by a newer program)."""


@dataclass(frozen=True)
class Held:
    """A game as the hall holds it: its latest revision's message, and the record in it
    (``None``: withdrawn at the table)."""

    message: feed.RecordMessage
    record: Record | None
    received: float


@dataclass(frozen=True)
class Received:
    """What one message did: ``kind`` is ``received`` (a new game), ``replaced``,
    ``withdrawn``, ``copy`` (the same revision again), ``older`` or ``refused``."""

    kind: str
    game: str | None = None
    why: str = ""

    @property
    def changed(self) -> bool:
        return self.kind in ("received", "replaced", "withdrawn")


@dataclass(frozen=True)
class Entry:
    """One revision of a game in its history."""

    revision: int
    received: float
    what: Words  # received, replaced, withdrawn: and by what


class HallStore:
    def __init__(self, path: str | Path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = kit.sqlite.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._migrate()
        self.refusals = self._db.execute("SELECT count(*) FROM refused").fetchone()[0]

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:
            raise StoreError(f"the hall's store is of version {version}; this program knows "
                             f"up to {VERSION}: run the newer program, or start another store")
        for step in range(version, VERSION):  # each step and its number in one transaction
            self._db.executescript(f"BEGIN; {MIGRATIONS[step]}; "
                                   f"PRAGMA user_version = {step + 1}; COMMIT;")

    # ------------------------------------------------------------------ the tournament

    def tournament(self) -> bytes | None:
        """The tournament's document (``hall.tournament`` decodes it), if one was made."""
        row = self._db.execute("SELECT document FROM tournament WHERE id = 1").fetchone()
        return None if row is None else row[0].encode()

    def save_tournament(self, document: bytes) -> None:
        self._db.execute("INSERT OR REPLACE INTO tournament VALUES (1, ?)", (document.decode(),))

    def replace_tournament(self, document: bytes, now: float) -> None:
        """``document`` becomes the tournament; the one it replaces is kept (``replaced``), in
        one transaction: the store never holds neither."""
        self._db.execute("BEGIN")
        self._db.execute("INSERT INTO replaced (replaced, document) "
                         "SELECT ?, document FROM tournament WHERE id = 1", (now,))
        self._db.execute("INSERT OR REPLACE INTO tournament VALUES (1, ?)", (document.decode(),))
        self._db.execute("COMMIT")

    def replaced(self) -> list[tuple[int, float, bytes]]:
        """The tournaments replaced by a newer one, the latest first: number, when, document."""
        return [(n, when, document.encode()) for n, when, document in self._db.execute(
            "SELECT n, replaced, document FROM replaced ORDER BY n DESC")]

    def bring_back(self, n: int, now: float) -> bytes | None:
        """Replaced tournament ``n`` is the tournament again, and the one it replaces is kept
        in its stead (a swap: nothing is lost either way); ``None`` if there is no ``n``."""
        row = self._db.execute("SELECT document FROM replaced WHERE n = ?", (n,)).fetchone()
        if row is None:
            return None
        self._db.execute("BEGIN")
        self._db.execute("DELETE FROM replaced WHERE n = ?", (n,))
        self._db.execute("INSERT INTO replaced (replaced, document) "
                         "SELECT ?, document FROM tournament WHERE id = 1", (now,))
        self._db.execute("INSERT OR REPLACE INTO tournament VALUES (1, ?)", (row[0],))
        self._db.execute("COMMIT")
        return row[0].encode()

    # ------------------------------------------------------------------ the games

    def receive(self, topic: str, payload: bytes, now: float) -> Received:
        """One message of a table's ``record/`` topic (see the module's text)."""
        try:
            message, record = feed.decode(topic, payload)
        except feed.FeedError as exc:
            return self._refuse(topic, payload, now, str(exc))
        row = self._db.execute("SELECT revision, message FROM games WHERE game = ?",
                               (message.game,)).fetchone()
        if row is not None and message.revision <= row[0]:
            kind = "copy" if message.revision == row[0] else "older"
            log.debug("game %s: revision %d again (%s)", message.game, message.revision, kind)
            return Received(kind, message.game)
        before = None if row is None else feed.decode(topic, row[1])[1]
        what = _what_changed(before, record, row is None, message)
        said = json.dumps(what.to_json(), ensure_ascii=False)
        self._db.execute("BEGIN")
        self._db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                         (message.game, message.table, message.revision, now, payload))
        self._db.execute("INSERT INTO history (game, revision, received, what) "
                         "VALUES (?, ?, ?, ?)", (message.game, message.revision, now, said))
        self._db.execute("COMMIT")
        kind = "withdrawn" if record is None else "received" if row is None else "replaced"
        log.info("game %s of %s: revision %d, %s", message.game, message.table,
                 message.revision, what)
        return Received(kind, message.game, str(what))

    def _refuse(self, topic: str, payload: bytes, now: float, why: str) -> Received:
        self._db.execute("INSERT INTO refused (topic, received, reason, payload) "
                         "VALUES (?, ?, ?, ?)", (topic, now, why, payload))
        self.refusals += 1
        log.warning("refused (%d so far): %s", self.refusals, why)
        return Received("refused", why=why)

    def games(self) -> list[Held]:
        """Every game held, in the order they first came."""
        return [Held(*feed.decode(feed.topic(table, game), message), received)
                for game, table, message, received in self._db.execute(
                    "SELECT games.game, tab, message, min(history.received) FROM games "
                    "JOIN history USING (game) GROUP BY games.game ORDER BY min(history.n)")]

    def history(self, game: str) -> list[Entry]:
        return [Entry(revision, received, Words.from_json(json.loads(what)))
                for revision, received, what in self._db.execute(
                    "SELECT revision, received, what FROM history WHERE game = ? ORDER BY n",
                    (game,))]

    def refused(self) -> list[tuple[str, float, str]]:
        """The refused messages: topic, when, why (the payloads stay in the store)."""
        return list(self._db.execute("SELECT topic, received, reason FROM refused ORDER BY n"))

    def close(self) -> None:
        self._db.close()


def result_words(record: Record | None) -> Words:
    """How a game ended, for a reader: "finished, red won" (withdrawn: no record)."""
    if record is None:
        return Words("tournament.status.withdrawn")
    status = Words(STATUS[record.status])
    if record.winner is None:
        return status
    return Words("tournament.result", status=status,
                 winner=Words(WINNERS[record.winner]) if record.winner in WINNERS
                 else record.winner)


def _what_changed(before: Record | None, after: Record | None, first: bool,
                  message: feed.RecordMessage) -> Words:
    """The history's words for a revision: what is new since the one held."""
    if after is None:
        return Words("tournament.history.withdrawn", reason=message.withdrawn or "")
    if first or before is None:
        return Words("tournament.history.received", result=result_words(after))
    edits = after.history[len(before.history):] if after.history[:len(before.history)] \
        == before.history else after.history
    # who, as a person reads it (the panel's own "judge" is the judge's word); the edit's field
    # stays in the record (its path is the record's JSON pointer, no word for an organiser)
    # (a store's older lines name it: both keys read the same, the path left out)
    said = [Words("tournament.history.edit" if e.path else "tournament.history.edit.whole",
                  kind=Words(EDITS[e.kind]), by=Words("sheet.by_judge") if e.by == JUDGE
                  else e.by, reason=e.reason)
            for e in edits]
    return Words("tournament.history.replaced", result=result_words(after),
                 edits=joined(said) if said else Words("tournament.history.again"))


__all__ = ["VERSION", "Entry", "HallStore", "Held", "Received", "StoreError"]
