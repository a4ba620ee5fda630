"""Journal fault benchmark: a full disk, and what checking a journal at start costs.

    .venv/bin/python -m bench.journal_faults [--held 10000] [--sizes 20000 --sizes 1000000]
    .venv/bin/python -m bench.journal_faults --quick    # seconds: that it runs (bench/quick.py)

Run as root (it mounts a small tmpfs, and unmounts it after):

* full disk: a journal on a 4 MiB tmpfs, the disk filled to the last byte, then ``--held``
  events appended (seat presses stamped as the service stamps them, ~160 bytes): the cost of
  each append while the disk is full, the memory they hold (this process's resident set before
  and after), then the space freed and the time ``retry`` takes to write them all back (in seq
  order, checked);
* start: opening a journal of each size (``Journal()``: ``quick_check``, migration, the count of
  unacknowledged events), the figure a restart pays before the table is up.

The floor is an append with the disk not full, measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench import quick
from bench.backlog import build_journal
from bench.journal_events import PRESS_TOPIC, press_payloads
from controller.journal import Journal


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def append_times(store: Journal, count: int) -> list[float]:
    """Microseconds per append."""
    payload = press_payloads(store.store_id, 3)
    times = []
    for _ in range(count):
        started = time.perf_counter()
        store.append(PRESS_TOPIC, lambda seq: payload(seq, time.monotonic()))
        times.append((time.perf_counter() - started) * 1e6)
    return times


def bench_full_disk(folder: Path, held: int) -> None:
    disk = folder / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], check=True)
    try:
        store = Journal(disk / "t1.db", keep=20_000, hold_limit=held)
        floor = append_times(store, 200)
        with open(disk / "filler", "wb", buffering=0) as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
            except OSError:
                pass
        before = rss_mib()
        full = append_times(store, held)
        grown = rss_mib() - before
        assert store.held == held and store.problem is not None
        (disk / "filler").unlink()
        started = time.perf_counter()
        assert store.retry()
        written = time.perf_counter() - started
        assert [e.seq for e in store.unacked_after(0, held + 300)] == list(range(1, held + 201))
        store.close()
        print(f"append, disk not full: median {statistics.median(floor):.0f} us")
        print(f"append, disk full ({held:,} held): median {statistics.median(full):.0f} us, "
              f"max {max(full):.0f} us; memory +{grown:.1f} MiB "
              f"({grown * 2**20 / held:.0f} bytes an event)")
        print(f"space back: {held:,} held events written in {written * 1000:.0f} ms, in order")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def bench_open(folder: Path, sizes: list[int]) -> None:
    for size in sizes:
        path = folder / f"open-{size}.db"
        build_journal(path, size)
        started = time.perf_counter()
        Journal(path, keep=20_000).close()
        print(f"open a journal of {size:,} events ({path.stat().st_size / 2**20:.0f} MiB): "
              f"{time.perf_counter() - started:.2f} s")
        path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held", type=int, default=10_000)
    parser.add_argument("--sizes", type=int, action="append")
    args = quick.arguments(parser, {"held": 200, "sizes": [2000]})
    with tempfile.TemporaryDirectory(prefix="bench-journal-") as folder:
        bench_full_disk(Path(folder), args.held)
        bench_open(Path(folder), args.sizes or [20_000, 1_000_000])


if __name__ == "__main__":
    main()
