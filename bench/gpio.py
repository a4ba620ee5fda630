"""GPIO seat benchmark: pin edge to MQTT subscriber, every seat at once, idle cost, start-up.

    .venv/bin/python -m bench.gpio [--presses 1000] [--bursts 20] [--idle 30] [--starts 5]
    .venv/bin/python -m bench.gpio --quick    # seconds: that it runs (bench/quick.py)

Everything runs on this machine against a private mosquitto on loopback:

* latency: the service runs in this process with gpiozero's MockFactory; a mock pin edge is
  timed from the pin's own change time (``MockPin._last_change``, host monotonic) to the moment
  a subscriber in another process (``bench/receiver.py``) receives the event. Presses are one
  at a time, 30 ms apart (longer than the 20 ms debounce), press and release both counted.
* burst: all ten seats of the example table pressed within a millisecond, repeated; counts
  events lost and the time from the first edge to the last event received.
* idle: the service as its own process (``mafia-table run --sim``), CPU time and resident memory
  read from /proc over the idle period.
* start-up: from spawning ``mafia-table run`` to a subscriber receiving ``status`` online.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from bench import quick
from contract.topics import topic_prefix
from controller import config
from controller.service import Service
from kit.local_broker import LocalBroker
from tests.support.mqtt import Subscriber, with_json

BENCH = topic_prefix("bench")  # the table the bench runs

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "config" / "table.example.toml"
GAP = 0.03


def quantile(samples_ms: list[float], q: float) -> float:
    """The sample at quantile ``q`` (0..1), by rank."""
    ordered = sorted(samples_ms)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def percentiles(samples_ms: list[float]) -> str:
    return (f"n={len(samples_ms)} p50={quantile(samples_ms, 0.50):.3f} ms "
            f"p99={quantile(samples_ms, 0.99):.3f} ms max={max(samples_ms):.3f} ms")


class EventClock:
    """Receipt times of seat events, from ``bench/receiver.py`` running as its own process."""

    def __init__(self, port: int):
        self.arrivals: list[tuple[str, int, float]] = []
        self.cond = threading.Condition()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.receiver", str(port), f"{BENCH}event/seat/#"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("bench receiver did not start")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            _, action, seat, at = line.split()
            with self.cond:
                self.arrivals.append((action, int(seat), float(at)))
                self.cond.notify_all()

    def wait_count(self, n: int, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.arrivals) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.arrivals)} of {n} events arrived")
                self.cond.wait(left)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(10)


def start_service(port: int) -> tuple[Service, threading.Thread]:
    """The example table, simulated, as table ``bench`` on the broker at ``port``: its loop on a
    thread (stop it with ``service.stop()`` and join the thread)."""
    cfg = config.load(EXAMPLE, config.Overrides(table="bench", broker=f"127.0.0.1:{port}",
                                                simulated=True))
    service = Service(cfg)
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    return service, loop


def bench_latency(port: int, presses: int, bursts: int) -> None:
    service, loop = start_service(port)
    cfg = service.config
    clock = EventClock(port)
    try:
        if not service.mqtt.connected.wait(5):
            raise TimeoutError("service did not connect")
        pins = [service.factory.pin(s.button) for s in cfg.gpio.seat]
        pin = pins[0]
        samples: list[float] = []
        for _ in range(presses):
            for drive in (pin.drive_low, pin.drive_high):  # press, release (pull-up wiring)
                drive()
                edge = pin._last_change
                clock.wait_count(len(clock.arrivals) + 1)
                samples.append((clock.arrivals[-1][2] - edge) * 1000)
                time.sleep(GAP)
        worst = max(range(len(samples)), key=samples.__getitem__)
        print(f"edge -> subscriber, one seat at a time: {percentiles(samples)} "
              f"(worst is sample #{worst})")

        lost, spans = 0, []
        for _ in range(bursts):
            before = len(clock.arrivals)
            first_edge = time.monotonic()
            for p in pins:
                p.drive_low()
            with contextlib.suppress(TimeoutError):  # a lost event is counted below
                clock.wait_count(before + len(pins), timeout=2)
            got = clock.arrivals[before:]
            lost += len(pins) - len(got)
            spans.append((max(a[2] for a in got) - first_edge) * 1000)
            time.sleep(GAP)
            for p in pins:
                p.drive_high()
            clock.wait_count(before + 2 * len(pins) - (len(pins) - len(got)), timeout=2)
            time.sleep(GAP)
        print(f"burst of {len(pins)} seats x {bursts}: lost {lost}; first edge -> last event "
              f"p50={statistics.median(spans):.3f} ms max={max(spans):.3f} ms")
    finally:
        service.stop()
        loop.join(10)
        clock.close()


def spawn(port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "mafia_table.cli", "run", "--config", str(EXAMPLE), "--sim",
         "--broker", f"127.0.0.1:{port}", "--table", "bench"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def bench_startup(port: int, starts: int) -> None:
    sub = Subscriber(port, [f"{BENCH}status"])
    times = []
    try:
        for i in range(starts):
            began = time.monotonic()
            process = spawn(port)
            sub.wait_for(with_json(f"{BENCH}status", state="online"), count=i + 1)
            times.append(time.monotonic() - began)
            process.terminate()
            process.wait(10)
            sub.wait_for(with_json(f"{BENCH}status", state="offline"), count=i + 1)
    finally:
        sub.close()
    print(f"start -> status online, {starts} starts: median {statistics.median(times):.3f} s "
          f"max {max(times):.3f} s")


def bench_idle(port: int, seconds: float) -> None:
    sub = Subscriber(port, [f"{BENCH}status"])
    process = spawn(port)
    try:
        sub.wait_for(with_json(f"{BENCH}status", state="online"))
        time.sleep(1)  # let start-up work finish before measuring
        ticks = os.sysconf("SC_CLK_TCK")
        cpu0, t0 = _cpu_seconds(process.pid, ticks), time.monotonic()
        time.sleep(seconds)
        cpu1, t1 = _cpu_seconds(process.pid, ticks), time.monotonic()
        rss = rss_mib(process.pid)
        print(f"idle {seconds:.0f} s: CPU {100 * (cpu1 - cpu0) / (t1 - t0):.3f} % of a core, "
              f"resident memory {rss:.1f} MiB")
    finally:
        process.terminate()
        process.wait(10)
        sub.close()


def _cpu_seconds(pid: int, ticks: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def rss_mib(pid: int | str) -> float:
    """VmRSS of process ``pid`` (or ``"self"``) in MiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextlib.contextmanager
def private_broker() -> Iterator[LocalBroker]:
    """A private mosquitto on loopback, and a fresh journal folder for this process and the
    services it spawns."""
    with tempfile.TemporaryDirectory() as state, LocalBroker() as broker:
        os.environ["XDG_STATE_HOME"] = state
        yield broker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=1000)
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--starts", type=int, default=5)
    args = quick.arguments(parser, {"presses": 20, "bursts": 2, "idle": 1.0, "starts": 1})
    with private_broker() as broker:
        bench_latency(broker.port, args.presses, args.bursts)
        bench_startup(broker.port, args.starts)
        bench_idle(broker.port, args.idle)


if __name__ == "__main__":
    main()
