"""GPIO seat benchmark: pin edge to MQTT subscriber, every seat at once, idle cost, start-up.

    .venv/bin/python -m bench.gpio [--presses 1000] [--runs 3] [--bursts 20] [--idle 30]
                                   [--starts 5]
    .venv/bin/python -m bench.gpio --quick    # seconds: that it runs (bench/quick.py)

``--bursts 0``, ``--starts 0`` or ``--idle 0`` leaves that part out.

Everything runs on this machine against a private mosquitto on loopback:

* latency: the service runs in this process with gpiozero's MockFactory; a mock pin edge is
  timed from the pin's own change time (``MockPin._last_change``, host monotonic) to the moment
  a subscriber in another process (``bench/receiver.py``) receives the event. Presses are one
  at a time, 30 ms apart (longer than the 20 ms debounce), press and release both counted.
* its floor, between those edges (so that both meet the machine in the same state): a mock pin
  of a factory of its own, its edge to a bare callback (what gpiozero costs), and a bare paho
  publish from this process to the same subscriber through the same broker (what MQTT and the
  machine's wake-ups cost); the floor is their sum. The goal (bench/figures.py): the path's p99
  within 1.5 x the floor's + 1 ms. ``--runs`` repeats this part (three by default, each with its
  own broker and table) and the median run decides.
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

import msgspec
import paho.mqtt.client as mqtt
from gpiozero.pins.mock import MockFactory, MockPin
from paho.mqtt.enums import CallbackAPIVersion

from bench import quick
from bench.figures import RELATIVE, Figures, Verdict, load_average, percentiles, print_runs
from contract.topics import topic_prefix
from controller import config
from controller.service import Service
from kit.local_broker import LocalBroker
from kit.mqtt import no_delay
from tests.support.mqtt import Subscriber, with_json

BENCH = topic_prefix("bench")  # the table the bench runs

#: the path's name in its verdict line (bench/figures.py, read by bench.headline)
PATH = "GPIO edge -> subscriber"

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "config" / "table.example.toml"
GAP = 0.03


class EventClock:
    """Receipt times of seat events, from ``bench/receiver.py`` running as its own process.
    Each event counts once: a copy of one already received (QoS 1 delivers at least once) is
    dropped and counted in ``copies``, or every wait after it would take the next event for its
    own and the last would wait for nothing. A wait counts the arrivals before its cause (the
    edge, the publish), never after."""

    def __init__(self, port: int):
        self.arrivals: list[tuple[str, int, float]] = []
        self.copies = 0
        self._received: set[tuple[str, str]] = set()
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
            seq, action, seat, at = line.split()
            with self.cond:
                if (action, seq) in self._received:
                    self.copies += 1
                    continue
                self._received.add((action, seq))
                self.arrivals.append((action, int(seat), float(at)))
                self.cond.notify_all()

    def wait_count(self, n: int, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.arrivals) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.arrivals)} of {n} events arrived; the last: "
                                       f"{self.arrivals[-6:]}")
                self.cond.wait(left)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(10)


def example_service(port: int) -> Service:
    """The example table, simulated, as table ``bench`` on the broker at ``port`` (not started),
    its start-up frozen as ``mafia-table run`` freezes it."""
    return Service(config.load(EXAMPLE, config.Overrides(table="bench", broker=f"127.0.0.1:{port}",
                                                         simulated=True)), freeze_startup=True)


def run_on_thread(service: Service) -> threading.Thread:
    """``service`` run on a thread of its own (stop it with ``service.stop()``, join the thread)."""
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    return loop


def start_service(port: int) -> tuple[Service, threading.Thread]:
    """The example table, simulated, as table ``bench`` on the broker at ``port``: its loop on a
    thread (stop it with ``service.stop()`` and join the thread)."""
    service = example_service(port)
    return service, run_on_thread(service)


class BareEdge:
    """The floor of the edge's first hop: a mock pin of a factory of its own whose edge calls
    a bare callback (what gpiozero's mock pin costs before the service sees anything)."""

    def __init__(self) -> None:
        self.pin = MockFactory().pin(2)
        self.pin.pull = "up"
        self._called = 0.0
        self.pin.when_changed = self._changed  # gpiozero keeps a weak reference: we hold it

    def _changed(self, ticks: float, state: int) -> None:
        self._called = time.monotonic()

    def time_one(self) -> float:
        """Drive the pin once (down or up, whichever changes it): edge -> callback, ms."""
        (self.pin.drive_high if self.pin.state == 0 else self.pin.drive_low)()
        return (self._called - self.pin._last_change) * 1000


class BarePublisher:
    """The floor of the MQTT hops: a bare paho client in this process publishing a look-alike
    event (QoS 1, as the table's) to the bench's subscriber through the same broker."""

    def __init__(self, port: int):
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.on_socket_open = no_delay  # as the table's own link
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        self._seq = 0

    def time_one(self, clock: EventClock) -> float:
        """Publish once: publish -> the subscriber has it, ms."""
        before = len(clock.arrivals)
        self._seq += 1
        start = time.monotonic()
        self.client.publish(f"{BENCH}event/seat/floor",
                            msgspec.json.encode({"seq": self._seq, "seat": 0}), qos=1)
        clock.wait_count(before + 1)
        return (clock.arrivals[-1][2] - start) * 1000

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def seat_pins(service: Service) -> list[MockPin]:
    """The mock pins of the table's seat buttons, in seat order."""
    return [service.factory.pin(s.button) for s in service.config.gpio.seat]


def bench_latency(port: int, presses: int) -> Verdict:
    """One seat pressed and released ``presses`` times, each edge timed to the subscriber, the
    floor's two hops timed between them; prints the figures and returns the run's verdict."""
    service, loop = start_service(port)
    clock = EventClock(port)
    bare_edge, bare_publish = BareEdge(), BarePublisher(port)
    try:
        if not service.mqtt.connected.wait(5):
            raise TimeoutError("service did not connect")
        pin = seat_pins(service)[0]
        samples: list[float] = []
        edge_floor: list[float] = []
        paho_floor: list[float] = []
        for _ in range(presses):
            for drive in (pin.drive_low, pin.drive_high):  # press, release (pull-up wiring)
                # counted before the edge: its event may arrive before this thread runs again
                # (then a count taken after it waited for one more, which never came)
                arrived = len(clock.arrivals)
                drive()
                edge = pin._last_change
                clock.wait_count(arrived + 1)
                samples.append((clock.arrivals[-1][2] - edge) * 1000)
                time.sleep(GAP / 2)
                edge_floor.append(bare_edge.time_one())
                paho_floor.append(bare_publish.time_one(clock))
                time.sleep(GAP / 2)
    finally:
        bare_publish.close()
        service.stop()
        loop.join(10)
        clock.close()
    worst = max(range(len(samples)), key=samples.__getitem__)
    print(f"edge -> subscriber, one seat at a time: {percentiles(samples)} "
          f"(worst is sample #{worst})")
    print(f"floor, mock pin edge -> bare callback: {percentiles(edge_floor)}")
    print(f"floor, bare paho publish -> subscriber: {percentiles(paho_floor)}")
    verdict = Verdict(PATH, Figures.of(samples), Figures.of(edge_floor) + Figures.of(paho_floor),
                      RELATIVE)
    print(verdict.line(), flush=True)
    return verdict


def bench_bursts(port: int, bursts: int) -> None:
    """All seats pressed within a millisecond, ``bursts`` times: events lost, and the first edge
    to the last event."""
    service, loop = start_service(port)
    clock = EventClock(port)
    try:
        if not service.mqtt.connected.wait(5):
            raise TimeoutError("service did not connect")
        pins = seat_pins(service)
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
    parser.add_argument("--runs", type=int, default=3, help="repeat the latency part; the "
                        "median run decides")
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--idle", type=float, default=30.0)
    parser.add_argument("--starts", type=int, default=5)
    args = quick.arguments(parser, {"presses": 20, "runs": 1, "bursts": 2, "idle": 1.0,
                                    "starts": 1})
    if min(args.presses, args.runs) < 1:
        parser.error("--presses and --runs must be at least 1")
    runs = []
    for run in range(1, args.runs + 1):
        print(f"--- run {run} of {args.runs} (load average {load_average()})", flush=True)
        with private_broker() as broker:
            runs.append(bench_latency(broker.port, args.presses))
    print_runs(runs)
    with private_broker() as broker:
        if args.bursts:
            bench_bursts(broker.port, args.bursts)
        if args.starts:
            bench_startup(broker.port, args.starts)
        if args.idle:
            bench_idle(broker.port, args.idle)


if __name__ == "__main__":
    main()
