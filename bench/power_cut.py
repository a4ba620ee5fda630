"""Power cuts: what the journal keeps of the events it acknowledged, and what durability costs.

Run by hand, as root (it loop-mounts file system images):

    .venv/bin/python -m bench.power_cut --trials 12        # both modes, ~2 min
    .venv/bin/python -m bench.power_cut --quick            # seconds: that it runs (bench/quick.py)

The stand-in for a power cut: the journal lives on an ext4 file system in an image file,
loop-mounted. The kernel writes to the image only what the file system sends to its "disk" (at
fsync, at ext4's journal commit every 5 s, at dirty-page writeback), so a copy of the image is
what a card would hold if the power went at that instant. A writer process appends seat presses
(stamped as the service stamps them, ``bench.journal_events``) with ``controller.journal.Journal``
at a table's busiest pace and prints each ``seq`` once ``append``
has returned (the event is then acknowledged to the table's logic, which goes on). At a random
instant the writer is frozen (SIGSTOP: nothing new reaches the file system), the image copied,
the writer killed. The copy is mounted (ext4 replays its own journal, as at boot) and opened:
every acknowledged event must be there, or we count how many of the newest are missing.

Limits, said plainly: the copy takes a few ms during which the kernel may still be writing (a
real card also has writes in flight at a cut; but a copy can tear in orders a card's flush
barriers forbid); the loop device's backing file sits in the host's page cache, so this says
nothing about an SD card that lies about flushes (many cheap ones do). The kill -9 rows kill
the same writer and read its files as they are (the page cache survives a killed process).

Cost per event: ``append`` p50/p99 in each mode on the same loop-mounted ext4, at the writer's
pace (the journal's own checkpointer running beside it), ``--cost-events`` of them, against a
floor (the same insert on ``:memory:``), measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from bench import quick
from bench.journal_events import PRESS_TOPIC, press_payloads
from controller.journal import Journal

SEAT = 3  # every event is a press of this seat, stamped as the service stamps it


def writer(path: Path, synchronous: str, pace: float) -> None:
    """The child: append forever, print each acknowledged seq."""
    store = Journal(path, keep=20_000, synchronous=synchronous)
    payload = press_payloads(store.store_id, SEAT)
    out = os.fdopen(sys.stdout.fileno(), "w", buffering=1)
    while True:
        event = store.append(PRESS_TOPIC, lambda seq: payload(seq, time.monotonic()))
        assert event is not None, "the journal refused an event: the disk is full?"
        out.write(f"{event.seq}\n")
        if pace:
            time.sleep(pace)


@contextmanager
def mounted(image: Path, at: Path):
    at.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-o", "loop", str(image), str(at)], check=True)
    try:
        yield at
    finally:
        subprocess.run(["umount", str(at)], check=True)


def one_cut(work: Path, synchronous: str, *, after: float, pace: float, kill_only: bool) -> dict:
    image, snap = work / "card.img", work / "snap.img"
    subprocess.run(["truncate", "-s", "32M", str(image)], check=True)
    subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
    with mounted(image, work / "card"):
        journal = work / "card" / "t.db"
        child = subprocess.Popen([sys.executable, "-m", "bench.power_cut", "--writer",
                                  str(journal), "--sync", synchronous, "--pace", str(pace)],
                                 stdout=subprocess.PIPE)
        started = time.monotonic()  # the cut comes ``after`` the writer has its journal
        while not journal.exists() and time.monotonic() - started < 60:
            time.sleep(0.001)
        time.sleep(after)
        if kill_only:
            child.kill()
        else:
            child.send_signal(signal.SIGSTOP)
        acked = [int(line) for line in _drain(child)]
        if not kill_only:
            shutil.copyfile(image, snap)
            child.kill()
        child.wait()
        if kill_only:
            shutil.copyfile(journal, work / "killed.db")
            for suffix in ("-wal", "-shm"):
                if Path(f"{journal}{suffix}").exists():
                    shutil.copyfile(f"{journal}{suffix}", work / f"killed.db{suffix}")
    if kill_only:
        return _check(work / "killed.db", acked)
    with mounted(snap, work / "after") as after_cut:
        return _check(after_cut / "t.db", acked)


def _drain(child: subprocess.Popen[bytes]) -> list[str]:
    """What the writer printed before it was stopped (its pipe holds it all)."""
    assert child.stdout is not None
    fd = child.stdout.fileno()
    os.set_blocking(fd, False)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    lines = b"".join(chunks).decode().splitlines()
    return [line for line in lines if line.strip()][:-1]  # the last may be torn


def _check(path: Path, acked: list[int]) -> dict:
    last = acked[-1] if acked else 0
    if not path.exists():
        return {"acked": last, "kept": 0, "lost": last, "ok": False, "integrity": "no file"}
    db = sqlite3.connect(path)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        seqs = [row[0] for row in db.execute("SELECT seq FROM events ORDER BY seq")]
    except sqlite3.DatabaseError as exc:  # the schema itself never reached the card
        integrity, seqs = f"ok, but {exc}", []
    finally:
        db.close()
    contiguous = seqs == list(range(1, len(seqs) + 1))
    integrity = "ok" if integrity.startswith("ok") else integrity
    kept = seqs[-1] if seqs else 0
    return {"acked": last, "kept": kept, "lost": max(0, last - kept),
            "ok": integrity == "ok" and contiguous, "integrity": integrity}


def cost(directory: Path, synchronous: str, n: int = 400, pace: float = 0.0) -> list[float]:
    """Seconds per ``append`` on ``directory`` (a fresh journal), ``pace`` seconds apart."""
    store = Journal(directory / f"cost-{synchronous}.db", keep=20_000, synchronous=synchronous)
    payload = press_payloads(store.store_id, SEAT)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        store.append(PRESS_TOPIC, lambda seq: payload(seq, time.monotonic()))
        times.append(time.perf_counter() - t0)
        time.sleep(pace)
    store.close()
    return times


def floor(n: int = 400) -> list[float]:
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, topic TEXT, payload BLOB)")
    payload = press_payloads("floor", SEAT)
    times = []
    for seq in range(1, n + 1):
        t0 = time.perf_counter()
        db.execute("INSERT INTO events VALUES (?, ?, ?)",
                   (seq, PRESS_TOPIC, payload(seq, time.monotonic())))
        times.append(time.perf_counter() - t0)
    return times


def pct(times: list[float], q: float) -> float:
    return statistics.quantiles(times, n=100)[int(q) - 1] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=12)
    parser.add_argument("--pace", type=float, default=0.02, help="seconds between events")
    parser.add_argument("--writer", help=argparse.SUPPRESS)
    parser.add_argument("--sync", default="normal", choices=["normal", "full"])
    parser.add_argument("--cut-between", type=float, nargs=2, default=(0.3, 12.0),
                        metavar=("MIN", "MAX"), help="seconds after the start to cut at")
    parser.add_argument("--cost-events", type=int, default=400,
                        help="appends timed in each mode (and on the floor)")
    args = quick.arguments(parser, {"trials": 1, "cut_between": (0.3, 0.5), "cost_events": 20})
    if args.writer:
        writer(Path(args.writer), args.sync, args.pace)
        return
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="power-cut-") as tmp:
        work = Path(tmp)
        base = floor(args.cost_events)
        print(f"floor (insert on :memory:): p50 {pct(base, 50):.3f} ms, p99 {pct(base, 99):.3f} ms")
        for mode in ("normal", "full"):
            image = work / f"cost-{mode}.img"
            subprocess.run(["truncate", "-s", "32M", str(image)], check=True)
            subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], check=True)
            with mounted(image, work / f"cost-{mode}") as at:
                times = cost(at, mode, args.cost_events, args.pace)  # a table's pace, as cut
            print(f"append, synchronous={mode} on loop ext4: p50 {pct(times, 50):.3f} ms, "
                  f"p99 {pct(times, 99):.3f} ms")
        for mode in ("normal", "full"):
            for kind, kill_only in (("kill -9", True), ("power cut", False)):
                results = [one_cut(work, mode, after=rng.uniform(*args.cut_between),
                                   pace=args.pace, kill_only=kill_only)
                           for _ in range(args.trials)]
                lost = [r["lost"] for r in results]
                bad = [r for r in results if not r["ok"]]
                print(f"{kind:9} synchronous={mode}: {len(results)} trials, acknowledged "
                      f"{sum(r['acked'] for r in results)} events, lost {sum(lost)} "
                      f"(per cut: max {max(lost)}, median {statistics.median(lost)}), "
                      f"trials with every acknowledged event kept: "
                      f"{sum(1 for x in lost if x == 0)}/{len(results)}, unreadable or "
                      f"with gaps: {len(bad)} {[r['integrity'] for r in bad] if bad else ''}")


if __name__ == "__main__":
    main()
