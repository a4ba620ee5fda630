"""Backlog benchmark: a long outage's unacknowledged events, replayed while the table plays on.

    .venv/bin/python -m bench.backlog [--backlog 20000 --backlog 1000000] [--presses 20]
                                      [--stop-after 2] [--runs 1] [--presses-only]
    .venv/bin/python -m bench.backlog --quick    # seconds: that it runs (bench/quick.py)

For each backlog size, against a private mosquitto on loopback:

* a journal is built holding that many unacknowledged events (realistic ``event/seat/press``
  payloads, as an outage would leave them), written straight with SQLite for speed;
* the service is started as its own process (``mafia-table run``, simulated pins) and begins
  the catch-up; a subscriber in another process (``bench/receiver.py``) receives every event;
* once the first backlog event has arrived, ``--presses`` presses are made through the
  simulated table (``sim/press`` and ``sim/release``, 100 ms apart): each is timed from the
  bench publishing it to the subscriber receiving the event (one clock, CLOCK_MONOTONIC);
* drain: from the service's start to the subscriber holding every backlog event, and whether
  any was lost (mosquitto drops QoS 1 messages past a slow subscriber's queue);
* memory: the service's peak resident set (VmHWM) over the run;
* stop: a second run on a fresh copy of the backlog gets SIGTERM ``--stop-after`` seconds into
  its catch-up: the time to exit, and its exit code.

The floor is the same press procedure on an empty journal, measured in the same run; the goal
(issue 27's table) is the presses' max under 50 ms whatever the backlog (bench/figures.py).
``--runs`` repeats the floor and every backlog size (each backlog built once, copied for each
run), and the median run decides; ``--presses-only`` leaves out the drain and the stop (what
``bench.headline`` runs: a million events take over 15 minutes to drain at 1,000 a second).
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import quick
from bench.figures import Figures, Verdict, below, load_average, percentiles, print_runs
from bench.gpio import EventClock
from bench.journal_events import PRESS_TOPIC, press_payloads
from contract.topics import topic_prefix
from contract.verbs import COMMANDS
from controller.journal import Journal
from kit.local_broker import LocalBroker
from tests.support.mqtt import Subscriber, with_json

BENCH = topic_prefix("bench")  # the table the bench runs

TABLE = """
table = "bench"
seats = 10

[broker]
host = "127.0.0.1"
port = {port}

[backends]
gpio = "mock"
audio = "off"

[store]
path = "{journal}"
keep = 20000

[[gpio.seat]]
seat = 1
button = 4
light = 18
"""
BACKLOG_SEAT = 7  # backlog events are for this seat; the presses are seat 1's
#: a press during a catch-up, whatever its size (issue 27's table: "max < 50 ms: keep it")
GOAL = below(50.0, "max")


def build_journal(path: Path, events: int) -> None:
    """A journal (today's schema, through ``Journal``) with ``events`` unacknowledged events:
    presses of ``BACKLOG_SEAT`` a millisecond apart, stamped as the service stamps them."""
    store = Journal(path, keep=20_000)
    payload = press_payloads(store.store_id, BACKLOG_SEAT)
    store.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    start = time.monotonic() - events / 1000
    db.executemany("INSERT INTO events (seq, topic, payload) VALUES (?, ?, ?)", (
        (seq, PRESS_TOPIC, payload(seq, start + seq / 1000)) for seq in range(1, events + 1)))
    db.execute("COMMIT")
    db.close()


class SeatClock(EventClock):
    """``EventClock`` that also counts arrivals per seat as they come (the bench must read the
    receiver's lines faster than events arrive, or the receiver itself would fall behind)."""

    def __init__(self, port: int):
        self.per_seat: dict[int, list[float]] = {1: [], BACKLOG_SEAT: []}
        self.backlog = 0
        super().__init__(port)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            _, _, seat, at = line.split()
            with self.cond:
                if int(seat) == BACKLOG_SEAT:
                    self.backlog += 1
                    self.last = float(at)
                else:
                    self.per_seat[1].append(float(at))
                self.cond.notify_all()


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Presser:
    """Presses seat 1 through the simulated table and times each event's arrival."""

    def __init__(self, port: int, clock: SeatClock):
        self.clock = clock
        self.client = Subscriber(port, [f"{BENCH}status"])

    def online(self) -> None:
        self.client.wait_for(with_json(f"{BENCH}status", state="online"), timeout=120)

    def press_times(self, presses: int) -> list[float]:
        samples = []
        for i in range(presses):
            action = "press" if i % 2 == 0 else "release"
            before = self._live_count()
            sent = time.monotonic()
            self.client.client.publish(BENCH + COMMANDS[f"sim/{action}"].topic, '{"seat": 1}',
                                       qos=1)
            arrived = self._wait_live(before + 1)
            samples.append((arrived - sent) * 1000)
            time.sleep(0.1)
        return samples

    def _live_count(self) -> int:
        with self.clock.cond:
            return len(self.clock.per_seat[1])

    def _wait_live(self, n: int, timeout: float = 60.0) -> float:
        live = self.clock.per_seat[1]
        with self.clock.cond:
            if not self.clock.cond.wait_for(lambda: len(live) >= n, timeout):
                raise TimeoutError("a press did not arrive")
            return live[n - 1]

    def close(self) -> None:
        self.client.close()


def start_service(folder: Path, port: int, journal: Path) -> subprocess.Popen[bytes]:
    config = folder / "bench.toml"
    config.write_text(TABLE.format(port=port, journal=journal))
    return subprocess.Popen([sys.executable, "-m", "mafia_table.cli", "run", "--config",
                             str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_backlog(clock: SeatClock, count: int, stall: float) -> float:
    """Wait until ``count`` backlog events arrived; the arrival time of the last. TimeoutError
    (with how many arrived) if none arrives for ``stall`` seconds."""
    with clock.cond:
        while clock.backlog < count:
            before = clock.backlog
            clock.cond.wait(stall)
            if clock.backlog == before:
                raise TimeoutError(f"{clock.backlog:,} of {count:,} backlog events arrived")
        return clock.last


def path(backlog: int) -> str:
    """The name of a backlog size's verdict line (read by bench.headline)."""
    return f"press during a {backlog:,}-event catch-up"


def built(folder: Path, backlog: int) -> Path:
    """A journal holding ``backlog`` unacknowledged events, to copy for each run."""
    spare = folder / f"spare-{backlog}.db"
    started = time.monotonic()
    build_journal(spare, backlog)
    print(f"backlog {backlog:,}: journal built in {time.monotonic() - started:.1f} s "
          f"({spare.stat().st_size / 2**20:.0f} MiB)", flush=True)
    return spare


def run_once(folder: Path, port: int, spare: Path, backlog: int, presses: int,
             stop_after: float | None) -> list[float]:
    """The service on a copy of ``spare``: the presses timed during its catch-up (returned),
    then, unless ``stop_after`` is None, the drain and a SIGTERM into a second catch-up."""
    journal = folder / f"backlog-{backlog}.db"
    shutil.copy(spare, journal)
    clock = SeatClock(port)
    presser = Presser(port, clock)
    start = time.monotonic()
    service = start_service(folder, port, journal)
    try:
        presser.online()
        if backlog:
            wait_backlog(clock, 1, stall=120)
            first = time.monotonic() - start
        samples = presser.press_times(presses)
        print(f"  press -> subscriber during catch-up: {percentiles(samples)}; first press "
              f"{samples[0]:.1f} ms", flush=True)
        if backlog:
            caught = clock.backlog
            print(f"  first backlog event after {first:.2f} s; {caught:,} backlog events "
                  f"had arrived when the presses were done", flush=True)
        if backlog and stop_after is not None:
            try:
                last = wait_backlog(clock, backlog, stall=30)
                print(f"  drained: all {backlog:,} backlog events in {last - start:.1f} s "
                      f"({backlog / (last - start):,.0f} events/s), none lost", flush=True)
            except TimeoutError as exc:
                print(f"  NOT drained, nothing for 30 s: {exc}", flush=True)
        print(f"  service peak resident memory (VmHWM): {peak_rss_mib(service.pid):.1f} MiB",
              flush=True)
    finally:
        service.send_signal(signal.SIGTERM)
        service.wait(30)
        presser.close()
        clock.close()
    if backlog and stop_after is not None:
        measure_stop(folder, port, spare, journal, stop_after)
    for file in journal.parent.glob(f"{journal.name}*"):  # with its WAL and shared memory
        file.unlink()
    return samples


def measure_stop(folder: Path, port: int, spare: Path, journal: Path, after: float) -> None:
    """SIGTERM ``after`` seconds into a catch-up: how long until the service has exited."""
    shutil.copy(spare, journal)
    Path(f"{journal}-wal").unlink(missing_ok=True)
    clock = SeatClock(port)
    service = start_service(folder, port, journal)
    try:
        wait_backlog(clock, 1, stall=120)
        time.sleep(after)
        sent = time.monotonic()
        service.send_signal(signal.SIGTERM)
        code = service.wait(60)
        print(f"  SIGTERM {after:g} s into the catch-up: exited {code} after "
              f"{time.monotonic() - sent:.2f} s", flush=True)
    finally:
        if service.poll() is None:
            service.kill()
        clock.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backlog", type=int, action="append",
                        help="backlog size (repeat; default 20000 and 1000000)")
    parser.add_argument("--presses", type=int, default=20)
    parser.add_argument("--stop-after", type=float, default=2.0,
                        help="seconds into the catch-up to send SIGTERM at")
    parser.add_argument("--runs", type=int, default=1, help="repeat; the median run decides")
    parser.add_argument("--presses-only", action="store_true",
                        help="only the presses during each catch-up: no drain, no stop")
    args = quick.arguments(parser, {"backlog": [2000], "presses": 4, "stop_after": 0.2})
    if min(args.presses, args.runs) < 1:
        parser.error("--presses and --runs must be at least 1")
    stop_after = None if args.presses_only else args.stop_after
    with tempfile.TemporaryDirectory(prefix="bench-backlog-") as folder, \
            LocalBroker(workdir=Path(folder)) as broker:
        here = Path(folder)
        spares = {backlog: built(here, backlog)
                  for backlog in [0, *(args.backlog or [20_000, 1_000_000])]}
        runs: dict[int, list[Verdict]] = {backlog: [] for backlog in spares if backlog}
        for run in range(1, args.runs + 1):
            print(f"--- run {run} of {args.runs} (load average {load_average()})", flush=True)
            floor: list[float] = []
            for backlog, spare in spares.items():
                print(f"backlog {backlog:,}:", flush=True)
                samples = run_once(here, broker.port, spare, backlog, args.presses, stop_after)
                if not backlog:
                    floor = samples
                    continue
                verdict = Verdict(path(backlog), Figures.of(samples), Figures.of(floor), GOAL)
                print(verdict.line(), flush=True)
                runs[backlog].append(verdict)
        for verdicts in runs.values():
            print_runs(verdicts)

if __name__ == "__main__":
    main()
