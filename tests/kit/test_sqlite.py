"""Our SQLite connections keep a small page cache (``kit.sqlite``, issue 40): reading a file
many times that size leaves SQLite's memory within the cache, where a connection of SQLite's
defaults takes 2 MB; and every long-lived connection of the services is opened there."""

from __future__ import annotations

import _sqlite3
import ctypes
import re
import sqlite3

import kit.sqlite
from tests.support.paths import REPO

#: the services' packages, whose connections live as long as their processes
SERVICES = ("contract", "kit", "results", "hardware", "firmware_bridge", "controller", "judge",
            "hall", "mafia_table")
#: connections that do not: a read-only look at a table's saved state (``mafia-table state``)
SHORT_LIVED = {"controller/stored_state.py"}


def sqlite_memory() -> int:
    """Bytes SQLite has allocated in this process now (``sqlite3_memory_used``, of the library
    Python's sqlite3 module runs on)."""
    used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
    used.restype = ctypes.c_int64
    return int(used())


def big_file(tmp_path):
    """A file of about 4.5 MB: 10,000 rows of 400 characters."""
    path = tmp_path / "big.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT)")
        db.executemany("INSERT INTO rows (body) VALUES (?)", [("x" * 400,)] * 10_000)
    db.close()
    return path


def grown_by_reading(path, connect) -> int:
    """SQLite's memory grown by reading every page of ``path`` through ``connect``."""
    before = sqlite_memory()
    db = connect(path)
    try:
        for _ in range(2):
            db.execute("SELECT sum(length(body)) FROM rows").fetchone()
        return sqlite_memory() - before
    finally:
        db.close()


def test_a_connection_of_ours_reads_a_big_file_within_its_small_cache(tmp_path):
    path = big_file(tmp_path)
    ours = grown_by_reading(path, kit.sqlite.connect)
    defaults = grown_by_reading(path, sqlite3.connect)
    assert ours < (kit.sqlite.CACHE_KIB + 128) * 1024, ours
    assert defaults > 1024 * 1024, defaults  # SQLite's own 2 MB: what the bound is for


def test_every_long_lived_connection_of_the_services_opens_through_kit_sqlite():
    """Through ``kit.sqlite.connect``, or opened by hand and given ``kit.sqlite.limit_cache``
    (the table's journal: a corrupt file is found in its checks)."""
    by_hand = []
    for package in SERVICES:
        for path in sorted((REPO / package).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            if path.relative_to(REPO).as_posix() not in {"kit/sqlite.py", *SHORT_LIVED} \
                    and re.search(r"\bsqlite3\.connect\(", source) \
                    and "kit.sqlite.limit_cache(" not in source:
                by_hand.append(path.relative_to(REPO).as_posix())
    assert by_hand == []
