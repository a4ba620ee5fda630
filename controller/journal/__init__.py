"""The table's journal: one SQLite file (WAL mode) that holds what must survive a crash, a
power cut or a full disk. One module a job, from the file up:

- ``schema``: the tables, their versions (``PRAGMA user_version``) and the migrations from any
  older file, the ``meta`` values, and ``StoredEvent`` (one row of ``events``);
- ``opening``: opening a file: checked, migrated, moved aside when corrupt, or refused with what
  to do (``JournalUnavailable``);
- ``checkpoint``: the thread that copies the WAL into the file, and what each ``[store]
  synchronous`` survives;
- ``holding``: the one way writes reach the file, and what waits in memory while it cannot take
  them (a full disk), written back in order later;
- ``events``: the event outbox: ``seq``, events kept until the broker's PUBACK and for replay
  within a window, pruned one row at a time, read a page at a time (``JournalUnreadable``);
- ``documents``: the saved table (``state``, the vote ``session``, the ``night_step``, the
  ``boot_id``);
- ``consoles``: each console's position, written with the events of its input, so a resent
  input is taken exactly once;
- ``file``: ``Journal``, the parts put together behind the calls the service makes.

Callers import from ``controller.journal``; the names below are its public surface.
"""

from controller.journal.consoles import ConsolePosition
from controller.journal.events import JournalUnreadable
from controller.journal.file import Journal
from controller.journal.opening import JournalUnavailable
from controller.journal.schema import StoredEvent

__all__ = ["ConsolePosition", "Journal", "JournalUnavailable", "JournalUnreadable",
           "StoredEvent"]
