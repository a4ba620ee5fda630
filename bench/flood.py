"""Command flood benchmark: do the table's buttons still get through while a rules core floods?

    .venv/bin/python -m bench.flood [--rate 5000] [--seconds 10] [--floor 200] [--stop-after 3]
    .venv/bin/python -m bench.flood --quick    # seconds: that it runs (bench/quick.py)

Everything on this machine, against a private mosquitto on loopback:

* no flood: the service in this process (gpiozero's MockFactory), a mock pin edge timed to a
  subscriber in another process (``bench/receiver.py``), as in ``bench.gpio``; between the
  presses, the floor: a look-alike event published straight to the broker by an idle client,
  timed to the same subscriber (what the broker and a busy machine cost on their own);
* flood: the same, while ``bench/flooder.py`` (its own process) publishes ``--rate`` QoS 1
  ``cmd/light`` a second for ``--seconds``; a press and a release every 50 ms are timed, and
  this process's resident memory is read before, at its peak, and after the flood; the flooder
  counts its replies (ok, busy, other);
* stop: ``mafia-table run --sim`` as its own process, flooded the same way; SIGTERM is sent
  ``--stop-after`` seconds in (three) and the time until the process has exited is measured.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import threading
import time

from bench import quick
from bench.gpio import EventClock, percentiles, private_broker, rss_mib, spawn, start_service
from contract.topics import topic_prefix
from controller.service import Service
from tests.support.mqtt import Subscriber, with_json

BENCH = topic_prefix("bench")  # the table the bench runs

GAP = 0.05


class Flooder:
    """``bench/flooder.py`` in its own process: ``start`` releases the flood, ``result`` waits
    for its counts."""

    def __init__(self, port: int, table: str, rate: int, seconds: float):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bench.flooder", str(port), table, str(rate), str(seconds)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("flooder did not start")

    def start(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def result(self, timeout: float = 120) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        self.process.wait(timeout)
        return line


def arrival(clock: EventClock, after: int, action: str, timeout: float) -> float | None:
    """Receipt time of the first ``action`` event past index ``after``, or None by ``timeout``."""
    deadline = time.monotonic() + timeout
    with clock.cond:
        while True:
            for kind, _, at in clock.arrivals[after:]:
                if kind == action:
                    return at
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            clock.cond.wait(left)


def time_presses(service: Service, clock: EventClock, until: threading.Event | int,
                 timeout: float, direct: Subscriber) -> tuple[list[float], list[float]]:
    """Press and release seat 1's mock pin every ``GAP`` s, until ``until`` is set (or that
    many edges); each edge timed to its event at the subscriber. Between them, the floor: a
    look-alike event published straight to the broker by ``direct`` (an idle client in this
    process), timed from its publish to the subscriber: what the broker and the machine cost.
    An edge that never arrives is an error; a lost floor message is reported, not timed."""
    pin = service.factory.pin(service.config.gpio.seat[0].button)
    samples: list[float] = []
    floor: list[float] = []
    lost_floor = 0
    # press, release (pull-up wiring)
    drives = ((pin.drive_low, "press"), (pin.drive_high, "release"))
    while (len(samples) < until) if isinstance(until, int) else not until.is_set():
        drive, action = drives[len(samples) % 2]
        before = len(clock.arrivals)
        drive()
        edge = pin._last_change
        at = arrival(clock, before, action, timeout)
        if at is None:
            raise TimeoutError(f"edge #{len(samples)} ({action}) not seen in {timeout} s: "
                               f"{service.store.depth} events unacknowledged")
        samples.append((at - edge) * 1000)
        time.sleep(GAP / 2)
        before, sent = len(clock.arrivals), time.monotonic()
        direct.client.publish(f"{BENCH}event/seat/floor", b'{"seq": 0, "seat": 0}', qos=1)
        at = arrival(clock, before, "floor", timeout)
        if at is None:
            lost_floor += 1
        else:
            floor.append((at - sent) * 1000)
        time.sleep(GAP / 2)
    if lost_floor:
        print(f"  {lost_floor} floor messages lost (published straight to the broker)")
    return samples, floor


def bench_flood(port: int, rate: int, seconds: float, floor: int) -> None:
    service, loop = start_service(port)
    clock = EventClock(port)
    direct = Subscriber(port, [])
    try:
        if not service.mqtt.connected.wait(5):
            raise TimeoutError("service did not connect")
        samples, direct_ms = time_presses(service, clock, floor, 5, direct)
        print(f"no flood: edge -> subscriber {percentiles(samples)}")
        print(f"  floor, publish -> subscriber {percentiles(direct_ms)}")
        flooder = Flooder(port, "bench", rate, seconds)
        before = peak = rss_mib("self")
        done = threading.Event()
        result: list[str] = []
        def wait_for_the_flood() -> None:
            result.append(flooder.result())
            done.set()

        threading.Thread(target=wait_for_the_flood, daemon=True).start()
        flooder.start()
        began = time.monotonic()
        samples, direct_ms = time_presses(service, clock, done, 30, direct)
        flood_time = time.monotonic() - began
        peak = max(peak, rss_mib("self"))
        after = rss_mib("self")
        print(f"flood of {rate}/s for {seconds:g} s ({result[0]}; over after {flood_time:.1f} s):"
              f" edge -> subscriber {percentiles(samples)}")
        print(f"  floor, publish -> subscriber {percentiles(direct_ms)}")
        print(f"memory: {before:.1f} MB before, {after:.1f} MB after "
              f"(growth {after - before:+.1f} MB)")
    finally:
        service.stop()
        loop.join(10)
        clock.close()
        direct.close()


def bench_stop(port: int, rate: int, after: float) -> None:
    sub = Subscriber(port, [f"{BENCH}status"])
    process = spawn(port)
    try:
        sub.wait_for(with_json(f"{BENCH}status", state="online"), timeout=30)
        flooder = Flooder(port, "bench", rate, 2 * after)  # still flooding at the signal
        flooder.start()
        time.sleep(after)
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(120)
        print(f"SIGTERM during the flood: exited {process.returncode} after "
              f"{time.monotonic() - sent:.2f} s; flooder: {flooder.result()}")
    finally:
        if process.poll() is None:
            process.kill()
        sub.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--floor", type=int, default=200)
    parser.add_argument("--stop-after", type=float, default=3.0,
                        help="seconds into the second flood to send SIGTERM at")
    args = quick.arguments(parser, {"rate": 500, "seconds": 1.0, "floor": 20,
                                    "stop_after": 0.5})
    with private_broker() as broker:
        bench_flood(broker.port, args.rate, args.seconds, args.floor)
        bench_stop(broker.port, args.rate, args.stop_after)


if __name__ == "__main__":
    main()
