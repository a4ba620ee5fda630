"""The consoles' positions: how each console input is taken exactly once (docs/protocol.md,
"Exactly once").

A console numbers what it sends and sends it again until the controller acknowledges it. The
controller acknowledges an input only once the journal holds both the events the input caused
and the console's position after it (``ConsolePosition``), written in *one* transaction
(``append_input``): after a crash either both are on disk or neither is, so the console's resend
of that input is taken exactly once. At start the links read the positions back
(``stored``) and drop what a console sends again that the journal already has.
"""

from __future__ import annotations

import sqlite3
from functools import partial

from controller.journal.events import Events, NewEvent
from controller.journal.holding import Hold
from controller.journal.schema import StoredEvent

#: Where a console's event stream stands: (unique id, boot id, last accepted seq, how many
#: events of that boot were accepted). See ``firmware_bridge.sequence.Position``.
ConsolePosition = tuple[bytes, int, int, int]


class ConsolePositions:
    """The positions kept in one journal file, one per console (its latest boot)."""

    def __init__(self, db: sqlite3.Connection, events: Events, hold: Hold):
        self._db = db
        self._events = events
        self._hold = hold

    def append_input(self, caused: list[NewEvent], position: ConsolePosition
                     ) -> list[StoredEvent]:
        """Append the events one console input ``caused`` with the console's ``position``
        after it, in the same transaction (held or refused together, as ``Events.append_all``
        does). An input that caused no event writes its position alone (not at all while
        writes are held: the console then sends it again after a restart, and it causes
        nothing again)."""
        write = partial(_write_position, position)
        if caused:
            return self._events.append_all(caused, also=write)
        self._hold.write(lambda: write(self._db))
        self._hold.report()  # a write that just failed: ``health`` says so now, and retries start
        return []

    def stored(self) -> list[ConsolePosition]:
        """The positions ``append_input`` stored."""
        return [tuple(row) for row in self._db.execute(
            "SELECT unique_id, boot_id, seq, count FROM console_positions")]


def _write_position(position: ConsolePosition, db: sqlite3.Connection) -> None:
    """Inside a transaction: the console's position; its earlier boots' rows go (a console never
    goes back to an earlier boot)."""
    unique_id, boot_id, seq, count = position
    db.execute("DELETE FROM console_positions WHERE unique_id = ? AND boot_id != ?",
               (unique_id, boot_id))
    db.execute("INSERT OR REPLACE INTO console_positions VALUES (?, ?, ?, ?)",
               (unique_id, boot_id, seq, count))
