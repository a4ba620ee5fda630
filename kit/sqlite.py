"""Our SQLite connections, each with a page cache of a small fixed size (``CACHE_KIB``).

SQLite keeps the pages a connection has read in a cache of its own, up to 2 MB by default
(``PRAGMA cache_size = -2000``), and fills it as its file grows: a journal that grows all
evening grows its process with it until each of its connections holds 2 MB. Issue 40 saw it in
the table controller: SQLite's memory rose 753 -> 1,019 kB over three games (88 kB a game, the
most of that process's growth), on its way to 2 MB for the journal's connection and 2 MB for
its checkpointer's. What our services read again is little (the newest rows, an index's right
edge, one document); the operating system's file cache keeps the rest of the file at a system
call's distance. So every long-lived connection of ours opens here, with ``CACHE_KIB`` of
cache, and its memory stays flat however long the evening.

    db = kit.sqlite.connect(path, isolation_level=None)
    kit.sqlite.limit_cache(db)    # one opened by hand (the pragma reads the file: it is where
                                  # a file that is no database is found)
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

#: each connection's page cache, in KiB (64 pages of 4 KiB)
CACHE_KIB = 256


def connect(path: str | Path, **options: Any) -> sqlite3.Connection:
    """``sqlite3.connect(path, **options)``, its page cache ``CACHE_KIB`` (closed again if the
    file is no database: ``sqlite3.DatabaseError``)."""
    db = sqlite3.connect(path, **options)
    try:
        limit_cache(db)
    except BaseException:
        db.close()
        raise
    return db


def limit_cache(db: sqlite3.Connection) -> None:
    """``db``'s page cache at most ``CACHE_KIB``."""
    db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
