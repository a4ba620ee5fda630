"""The journal under faults (issue 19): a full disk, a corrupt or unwritable journal, a long
backlog, an old schema. Real SQLite files on real file systems (a small tmpfs mounted by the
test for a disk that fills up or turns read-only), a real mosquitto, the real service and CLI."""

from __future__ import annotations

import errno
import json
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from controller import config as config_module
from controller.journal import Journal, JournalUnavailable
from controller.journal.schema import SCHEMA_VERSION
from tests.support.mqtt import Subscriber, on_topic
from tests.support.paths import REPO
from tests.support.process import finish, kill_if_running, start_service, stop_cleanly
from tests.support.running import Running, online
from tests.support.table_configs import SMALL_TABLE, write_config

PAGE = 4096  # SQLite's default page size


@contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``path`` for the test, unmounted after it, even on
    failure (lazily, should a file still be open)."""
    path.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                   check=True)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> Path:
    """Fill the file system of ``disk`` to the last byte; returns the filler to delete."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def table_on(tmp_path: Path, port: int, journal: Path, extra: str = "") -> Path:
    """SMALL_TABLE's config file with its journal at ``journal``."""
    body = SMALL_TABLE.format(port=port).replace('path = "t1.db"',
                                                 f'path = "{journal}"\n    {extra}')
    return write_config(tmp_path, body)


def journal_rows(path: Path) -> list[tuple[int, int]]:
    """(seq, acked) of every event in a journal file, read with a plain SQLite connection."""
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT seq, acked FROM events ORDER BY seq").fetchall()
    finally:
        db.close()


# 1. a full disk


def test_a_full_disk_holds_events_in_memory_says_so_at_once_and_writes_them_in_order_later(
        tmp_path, broker):
    """Item 1: presses through the simulated table while the journal's tmpfs is full are still
    published, held in memory (at most hold_limit; beyond it refused and counted), reported in
    ``health`` with the first one, and written without gap or duplicate when space returns."""
    hold_limit = 5
    with tmpfs(tmp_path / "disk", "2m") as disk:
        config = config_module.load(table_on(tmp_path, broker.port, disk / "t1.db",
                                             f"hold_limit = {hold_limit}"))
        watcher = Subscriber(broker.port, ["mafia/t1/#"])
        run = Running(config)
        actions = 0

        def act() -> None:
            """Press or release the next seat through the simulated table; wait until it
            shows: as an event, or as one more refused event in ``health``."""
            nonlocal actions
            verb = "press" if actions % 2 == 0 else "release"
            seen = len(watcher.matching(is_outcome))
            watcher.publish(f"mafia/t1/sim/{verb}", json.dumps({"seat": 1 + (actions // 2) % 3}))
            watcher.wait_for(is_outcome, count=seen + 1)
            actions += 1

        def is_outcome(m) -> bool:
            if m.topic.startswith("mafia/t1/event/seat/"):
                return True
            return m.topic == "mafia/t1/health" and m.json()["journal"]["dropped"] > 0 and \
                m.json()["journal"]["dropped"] > previous_dropped(m)

        def previous_dropped(m) -> int:
            healths = watcher.matching(on_topic("mafia/t1/health"))
            before = healths[:healths.index(m)]
            return before[-1].json()["journal"]["dropped"] if before else 0

        try:
            online(watcher)
            for _ in range(4):
                act()
            filler = fill(disk)
            act()  # the first event the journal cannot take: health says so with it
            trouble = watcher.wait_for(lambda m: m.topic == "mafia/t1/health"
                                       and m.json()["journal"]["held"] >= 1)[0].json()["journal"]
            assert not trouble["ok"]
            assert "full" in trouble["problems"][0] and str(disk) in trouble["problems"][0]
            assert trouble["hold_limit"] == hold_limit
            for _ in range(hold_limit + 2):  # past the bound
                act()
            refused = watcher.matching(on_topic("mafia/t1/health"))[-1].json()["journal"]
            assert refused["dropped"] >= 2 and refused["held"] == hold_limit
            def written(m) -> bool:
                return m.topic == "mafia/t1/health" and m.json()["journal"]["held"] == 0 \
                    and not m.json()["journal"]["problems"]

            before = len(watcher.matching(written))
            filler.unlink()  # space returns: the retry writes everything held
            watcher.wait_for(written, count=before + 1, timeout=15)
            for _ in range(2):
                act()
        finally:
            run.close()
            watcher.close()
        dropped = watcher.matching(on_topic("mafia/t1/health"))[-1].json()["journal"]["dropped"]
        events = [m.json() for m in watcher.matching(
            lambda m: m.topic.startswith("mafia/t1/event/seat/"))]
        rows = journal_rows(disk / "t1.db")
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, len(events) + 1))  # once each, in order, no gap
    assert len({e["id"] for e in events}) == len(events)
    assert len(events) + dropped == actions and dropped == refused["dropped"]
    assert rows == [(seq, 1) for seq in seqs]  # on disk, every one, acknowledged


# 2. a journal that cannot be opened


def _real_journal(path: Path, events: int = 300) -> None:
    """A journal with ``events`` acknowledged events, checkpointed into its main file."""
    store = Journal(path, keep=10_000)
    for _ in range(events):
        store.append("event/seat/press", lambda seq: json.dumps({"seq": seq, "pad": "x" * 80})
                     .encode())
    store.acked(*range(1, events + 1))
    store.close()


def _garbage(path: Path) -> None:
    path.write_bytes(bytes(range(256)) * 64)


def _zeroed_header(path: Path) -> None:
    _real_journal(path)
    with open(path, "r+b") as out:
        out.write(b"\0" * 100)


def _corrupted_pages(path: Path) -> None:
    _real_journal(path)
    with open(path, "r+b") as out:  # pages 7 and 8: leaves of the events table
        out.seek(6 * PAGE)
        out.write(b"\xa5" * 2 * PAGE)


@pytest.mark.parametrize("spoil", [_garbage, _zeroed_header, _corrupted_pages],
                         ids=["garbage", "zeroed-header", "corrupted-pages"])
def test_a_corrupt_journal_is_moved_aside_and_a_new_one_started(tmp_path, broker, spoil):
    """Item 2, through the real CLI: the bad file is kept, byte for byte, under a name the
    log and ``health`` give; the table starts on a new journal."""
    journal = tmp_path / "state" / "t1.db"
    journal.parent.mkdir()
    spoil(journal)
    spoiled = journal.read_bytes()
    watcher = Subscriber(broker.port, ["mafia/t1/#"])
    process = start_service("--config", str(table_on(tmp_path, broker.port, journal)))
    try:
        online(watcher)
        health = watcher.wait_for(on_topic("mafia/t1/health"))[0].json()["journal"]
        watcher.publish("mafia/t1/sim/press", '{"seat": 1}')
        [press] = watcher.wait_for(on_topic("mafia/t1/event/seat/press"))
        out = stop_cleanly(process)
    finally:
        kill_if_running(process)
        watcher.close()
    [aside] = health["moved_aside"]
    assert not health["ok"]
    assert Path(aside).parent == journal.parent and Path(aside).name.startswith("t1.db.corrupt-")
    assert Path(aside).read_bytes() == spoiled
    assert f"moved aside to {aside}" in out
    assert press.json()["seq"] == 1


@pytest.mark.parametrize("existing", [False, True], ids=["empty-folder", "existing-journal"])
def test_a_read_only_journal_folder_is_exit_2_naming_the_path_and_what_to_do(
        tmp_path, existing):
    """Item 2: not a traceback, not exit 1 (which systemd would restart forever)."""
    with tmpfs(tmp_path / "disk", "1m") as disk:
        journal = disk / "t1.db"
        if existing:
            _real_journal(journal, events=10)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        process = start_service("--config", str(table_on(tmp_path, 1, journal)))
        code, out = finish(process)
    assert code == 2, out
    assert f"cannot write the journal {journal}" in out
    assert f"make {disk} writable" in out and "[store] path" in out
    assert "Traceback" not in out


def test_a_replay_over_corrupted_pages_answers_with_an_error(tmp_path, broker):
    """Item 2: pages that go bad while the table runs: cmd/replay gets an error reply (after
    the events it could read), and ``health`` names the journal."""
    journal = tmp_path / "t1.db"
    _real_journal(journal)
    watcher = Subscriber(broker.port, ["mafia/t1/#"])
    run = Running(config_module.load(table_on(tmp_path, broker.port, journal)))
    try:
        online(watcher)
        with open(journal, "r+b") as out:  # the disk spoils leaves of the events table...
            out.seek(6 * PAGE)
            out.write(b"\xa5" * 2 * PAGE)
        other = sqlite3.connect(journal, isolation_level=None)  # ...and another write makes
        other.execute("INSERT OR REPLACE INTO meta VALUES ('poke', '1')")  # the service's
        other.close()  # connection drop its cached pages, so it reads them from the disk
        watcher.publish("mafia/t1/cmd/replay", '{"id": "r1", "after_seq": 0}')
        [reply] = watcher.wait_for(on_topic("mafia/t1/reply/replay"))
        health = watcher.wait_for(lambda m: m.topic == "mafia/t1/health"
                                  and not m.json()["journal"]["ok"])[0].json()["journal"]
    finally:
        run.close()
        watcher.close()
    answer = reply.json()
    assert (answer["id"], answer["ok"]) == ("r1", False)
    assert "malformed" in answer["error"] and str(journal) in answer["error"]
    assert any("cannot read the journal" in p for p in health["problems"])


def test_a_journal_from_a_newer_version_is_refused_not_guessed_at(tmp_path):
    journal = tmp_path / "t1.db"
    _real_journal(journal, events=3)
    db = sqlite3.connect(journal)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(JournalUnavailable, match="written by a newer version"):
        Journal(journal, keep=100)
    assert len(journal_rows(journal)) == 3  # untouched


# 4. schema versions, cost per event


#: The journal's schema at commit 326262f (before versioning), verbatim.
SCHEMA_326262F = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS events_unacked ON events (seq) WHERE acked = 0;
"""


def test_a_journal_made_before_schema_versions_is_migrated_and_keeps_every_event(tmp_path):
    journal = tmp_path / "t1.db"
    db = sqlite3.connect(journal, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.executescript(SCHEMA_326262F)
    events = [(seq, "event/seat/press", f'{{"seq": {seq}}}'.encode(), int(seq <= 30))
              for seq in range(1, 51)]
    db.executemany("INSERT INTO events VALUES (?, ?, ?, ?)", events)
    db.executemany("INSERT INTO meta VALUES (?, ?)",
                   [("store_id", "0ld5t0re1d00"), ("state", '{"phase": "idle"}')])
    db.close()
    store = Journal(journal, keep=20_000)
    try:
        assert store.store_id == "0ld5t0re1d00"
        assert (store.last_seq, store.depth) == (50, 20)
        assert [(e.seq, e.topic, e.payload) for e in store.since(0, 100)] == \
            [e[:3] for e in events]
        assert [e.seq for e in store.unacked_after(0, 100)] == list(range(31, 51))
        assert store.load("state") == b'{"phase": "idle"}'
        assert store.append("event/seat/press", lambda seq: b"{}").seq == 51
    finally:
        store.close()
    db = sqlite3.connect(journal)
    try:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        db.close()


#: A journal the controller at commit a0255d3 wrote (the last one before controller/store.py
#: became the controller.journal package), schema version 2, kept byte for byte: the real
#: service (SMALL_TABLE with ``keep = 5``, the broker on loopback) took ``cmd/light`` seat 2
#: dim, then 8 edges of seats 1 and 3, all acknowledged (seqs 1-6 pruned below the window,
#: 7-8 kept), then, with the broker stopped, 3 more (seqs 9-11, unacknowledged); the service
#: closed, then ``controller.store.Store(path, keep=5)`` wrote two consoles' positions with
#: ``append_console_input([], position)``.
JOURNAL_A0255D3 = REPO / "tests" / "data" / "journal-a0255d3.db"
STORE_ID_A0255D3 = "02e31a922a99"


def _rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read with a plain SQLite connection."""
    db = sqlite3.connect(path)
    try:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("events", "meta", "console_positions")}
    finally:
        db.close()


def test_a_journal_written_by_the_code_at_a0255d3_opens_unchanged_with_everything_it_held(
        tmp_path):
    """Journals on the tables' Pis were written by the code before the journal's split: the
    same schema version, opened without a migration or a rewrite, and read back whole."""
    journal = tmp_path / "t1.db"
    journal.write_bytes(JOURNAL_A0255D3.read_bytes())
    before = _rows(journal)
    store = Journal(journal, keep=5)
    try:
        assert store.store_id == STORE_ID_A0255D3
        assert (store.last_seq, store.depth, store.oldest_kept()) == (11, 3, 7)
        kept = store.since(0, 100)
        assert [(e.seq, e.topic, e.payload) for e in kept] == \
            [row[:3] for row in before["events"]]
        assert [e.seq for e in kept] == [7, 8, 9, 10, 11]
        assert all(json.loads(e.payload)["id"] == f"{STORE_ID_A0255D3}-{e.seq}" for e in kept)
        assert [e.seq for e in store.unacked_after(0, 100)] == [9, 10, 11]
        assert sorted(store.console_positions()) == [(b"\x01" * 8, 7, 12, 12),
                                                     (b"\x02" * 8, 3, 4, 4)]
        state = json.loads(store.load("state") or b"null")
        assert state["seats"][1]["manual"] == {"mode": "dim", "color": None}
        assert store.load("boot_id") == b"boot1"
    finally:
        store.close()
    assert _rows(journal) == before  # opening and reading wrote nothing
    store = Journal(journal, keep=5)
    try:
        assert store.append("event/seat/press", lambda seq: b"{}").seq == 12
    finally:
        store.close()
    db = sqlite3.connect(journal)
    try:
        assert db.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,) == (2,)
    finally:
        db.close()


def test_the_service_publishes_and_replays_a_journal_written_by_the_code_at_a0255d3(
        tmp_path, broker):
    """Through the real service: the old backlog goes out as it was stored, ``cmd/replay``
    sends the kept events again, the saved table comes back, and ``seq`` goes on."""
    journal = tmp_path / "t1.db"
    journal.write_bytes(JOURNAL_A0255D3.read_bytes())
    stored = {row[0]: row[2] for row in _rows(journal)["events"]}
    watcher = Subscriber(broker.port, ["mafia/t1/#"])
    run = Running(config_module.load(table_on(tmp_path, broker.port, journal, "keep = 5")))

    def published(messages) -> list[int]:
        return [m.json()["seq"] for m in messages if m.topic.startswith("mafia/t1/event/")]

    try:
        online(watcher)
        watcher.wait_until(lambda ms: {9, 10, 11} <= set(published(ms)), what="the backlog")
        state = watcher.wait_for(on_topic("mafia/t1/state"))[-1].json()
        watcher.publish("mafia/t1/cmd/replay", '{"id": "r1", "after_seq": 6}')
        [reply] = watcher.wait_for(on_topic("mafia/t1/reply/replay"))
        watcher.wait_until(lambda ms: all(published(ms).count(seq) >= 2 for seq in (9, 10, 11))
                           and {7, 8} <= set(published(ms)), what="the replay")
        run.pin(4).drive_low()  # seat 1 pressed
        [press] = watcher.wait_for(lambda m: m.topic == "mafia/t1/event/seat/press"
                                   and m.json()["seq"] == 12)
    finally:
        run.close()
        watcher.close()
    assert (reply.json()["id"], reply.json()["ok"]) == ("r1", True)
    old = watcher.matching(lambda m: m.topic.startswith("mafia/t1/event/")
                           and m.json()["seq"] <= 11)
    assert all(m.payload == stored[m.json()["seq"]] for m in old)  # as stored, byte for byte
    assert state["seats"][1]["manual"] == {"mode": "dim", "color": None}
    assert press.json()["id"] == f"{STORE_ID_A0255D3}-12"


def _vm_steps(store: Journal, work) -> int:
    """SQLite virtual-machine instructions ``work`` runs: a count of the work done, which,
    unlike a time, a busy machine does not change."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    store._db.set_progress_handler(count, 1)
    try:
        work()
    finally:
        store._db.set_progress_handler(None, 1)
    return steps


def _backlogged(path: Path, backlog: int) -> Journal:
    """A journal (keep 100) with ``backlog`` unacknowledged events, then 200 acknowledged."""
    store = Journal(path, keep=100)
    store._db.execute("PRAGMA synchronous=OFF")  # only to make it faster
    for _ in range(backlog + 200):
        store.append("event/seat/press", lambda seq: b'{"pad": "' + b"x" * 100 + b'"}')
    store.acked(*range(backlog + 1, backlog + 201))
    return store


def _costs(path: Path, backlog: int) -> tuple[int, ...]:
    """The work of each per-event operation on a journal with ``backlog`` waiting."""
    store = _backlogged(path, backlog)
    try:
        return (
            _vm_steps(store, lambda: store.acked(1)),  # far below the window: deleted
            _vm_steps(store, lambda: store.acked(store.last_seq - 50)),  # inside it: marked
            _vm_steps(store, lambda: store.append("event/seat/press", lambda seq: b"{}")),
            _vm_steps(store, lambda: store.unacked_after(backlog // 2, 8)),  # a backlog page
        )
    finally:
        store.close()


def test_acknowledging_and_pruning_cost_the_same_whatever_the_backlog(tmp_path):
    """Item 4: an acknowledgement (marking, or deleting below the window), an append (which
    moves the window) and reading a page of the backlog do not scan the journal."""
    small = _costs(tmp_path / "small.db", 500)
    large = _costs(tmp_path / "large.db", 50_000)
    assert all(b <= a * 1.2 + 20 for a, b in zip(small, large, strict=True)), (small, large)


def test_a_press_during_a_long_catch_up_overtakes_the_backlog_and_nothing_is_lost(
        tmp_path, broker):
    """Item 4: a backlog left by an outage goes out paced (catch_up_rate), behind live
    events: a press made once the catch-up has begun arrives long before its end; every
    event arrives once, and all are acknowledged in the journal."""
    backlog, rate = 3000, 1000
    journal = tmp_path / "t1.db"
    store = Journal(journal, keep=20_000)
    for _ in range(backlog):
        store.append("event/seat/press", lambda seq: json.dumps({"seq": seq}).encode())
    store.close()
    watcher = Subscriber(broker.port, ["mafia/t1/event/#"])
    config = config_module.load(table_on(tmp_path, broker.port, journal,
                                         f"catch_up_rate = {rate}"))
    run = Running(config)
    try:
        watcher.wait_for(on_topic("mafia/t1/event/seat/press"), count=100)  # under way
        run.pin(4).drive_low()  # seat 1 pressed
        [press] = watcher.wait_for(lambda m: m.json().get("seat") == 1)
        events = watcher.wait_for(lambda m: True, count=backlog + 1, timeout=60)
    finally:
        run.close()
        watcher.close()
    seqs = [m.json()["seq"] for m in events]
    assert sorted(seqs) == list(range(1, backlog + 2))  # each once
    assert press.json()["seq"] == backlog + 1
    assert len(seqs) - seqs.index(backlog + 1) > backlog // 3  # overtook most of the backlog
    assert journal_rows(journal) == [(seq, 1) for seq in range(1, backlog + 2)]


@pytest.fixture(scope="module")
def small_disk(tmp_path_factory) -> Iterator[Path]:
    with tmpfs(tmp_path_factory.mktemp("store") / "disk", "2m") as disk:
        yield disk


@example(operations=[*["append"] * 8, "fill", 5], keep=0, hold_limit=1)  # a page short
@settings(max_examples=40)
@given(st.lists(st.one_of(st.just("append"), st.just("fill"), st.just("free"),
                          st.just("retry"), st.integers(min_value=1, max_value=40),
                          st.tuples(st.just("together"), st.integers(1, 3))),
                max_size=60),
       st.integers(min_value=0, max_value=6), st.integers(min_value=1, max_value=8))
def test_whatever_the_disk_does_the_journal_ends_whole_and_in_order(
        small_disk, operations, keep, hold_limit):
    """Item 1, as a property: appends and acknowledgements (an int acknowledges that seq, if
    it waits) while the disk fills up and frees in any order; once it has space again, the
    journal holds exactly the unacknowledged events and the kept window, with no gap in seq,
    and refused events took no seq. Events stored together (``append_all``) are written with
    the row that goes with them, or refused together."""
    path = small_disk / "j.db"
    store = Journal(path, keep=keep, hold_limit=hold_limit)
    filler: Path | None = None
    last, unacked, refused, together = 0, set(), 0, []
    try:
        for op in operations:
            if op == "append":
                event = store.append("event/seat/press", lambda seq: b"x" * 200)
                if event is None:
                    refused += 1
                else:
                    last += 1
                    assert event.seq == last
                    unacked.add(last)
            elif isinstance(op, tuple):
                stored = store.append_all(
                    [("event/seat/key", lambda seq: b"y" * 200)] * op[1],
                    also=lambda db, n=last + op[1]: db.execute(
                        "INSERT INTO meta VALUES (?, 'x')", (f"after-{n}",)))
                if stored:
                    assert [e.seq for e in stored] == list(range(last + 1, last + op[1] + 1))
                    last += op[1]
                    unacked.update(e.seq for e in stored)
                    together.append(f"after-{last}")
                else:
                    refused += op[1]
            elif op == "fill" and filler is None:
                filler = fill(small_disk)
            elif op == "free" and filler is not None:
                filler.unlink()
                filler = None
            elif op == "retry":
                store.retry()
            elif isinstance(op, int) and op in unacked:
                store.acked(op)
                unacked.discard(op)
            assert [e.seq for e in store.unacked_after(0, 100)] == sorted(unacked)
            waiting = sorted(unacked)
            middle = waiting[len(waiting) // 2] if waiting else 0
            assert [e.seq for e in store.unacked_after(middle, 3)] == \
                [s for s in waiting if s > middle][:3]  # a page from the middle, held or not
        if filler is not None:
            filler.unlink()
            filler = None
        assert store.retry()
        assert store.dropped == refused
        store.close()
        store = Journal(path, keep=keep)
        assert (store.last_seq, store.depth) == (last, len(unacked))
        expected = [(s, int(s not in unacked)) for s in range(1, last + 1)
                    if s > last - keep or s in unacked]
        assert journal_rows(path) == expected
        assert all(store.load(key) == b"x" for key in together)
    finally:
        store.close()
        if filler is not None:
            filler.unlink()
        for leftover in small_disk.iterdir():
            leftover.unlink()


def test_a_console_position_the_full_disk_refuses_is_told_at_once(small_disk):
    """An input that caused no event writes the console's position alone: when the disk
    refuses that write, ``health`` hears of it at once (it used to wait for the next event)."""
    told = []
    store = Journal(small_disk / "position.db", keep=10, on_trouble=lambda: told.append(1))
    filler = None
    try:
        for n in range(1, 2000):  # until the WAL's frames are used up too
            if filler is None:
                filler = fill(small_disk)
            store.append_console_input([], (b"\x01" * 8, 7, n % 255 or 1, n))
            if store.problem is not None:
                break
        assert store.problem is not None and told
    finally:
        if filler is not None:
            filler.unlink()
        store.close()
        for leftover in small_disk.iterdir():
            leftover.unlink()
