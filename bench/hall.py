"""Hall benchmark: many simulated tables bridged to one hall broker, and what one mosquitto holds.

    .venv/bin/python -m bench.hall [--tables 5 10 20] [--seconds 20] [--rate 10]
                                   [--capacity-seconds 10] [--connections 5000]
    .venv/bin/python -m bench.hall --quick    # seconds: that it runs (bench/quick.py)

* hall: for each size, a :class:`hall.sim.SimulatedHall` (a ``--sim`` controller and a bridged
  mosquitto per table, on the shipped configs). Every table's seat is pressed ``--rate`` times a
  second (``sim/press`` then ``sim/release`` 40 ms later, on the table's own broker, tables
  spread over the period). Each press is timed from just before the bench publishes it to the
  ``event/seat/press`` received (1) by a subscriber on the table's own broker: the table-local
  floor, and (2) by a subscriber on the hall broker, through the bridge. Both subscribers live
  in this process and read one clock. CPU (utime+stime from /proc) and resident memory of the
  hall mosquitto, of each table's mosquitto and of each controller over the pressing period.
* capacity: one mosquitto (loopback, no auth) relaying 100-byte QoS 1 messages from
  ``--publishers`` ``mosquitto_pub -l`` (C clients, so the broker is what is measured) to one
  ``mosquitto_sub``: messages/s and the broker's CPU; then ``--connections`` idle MQTT
  connections (raw CONNECT packets) and the broker's memory per connection.
"""

from __future__ import annotations

import argparse
import io
import os
import socket
import statistics
import struct
import subprocess
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from bench import quick
from bench.gpio import _cpu_seconds, percentiles, rss_mib
from contract.topics import ROOT, topic_prefix
from hall.sim import SimulatedHall, password
from kit.local_broker import LocalBroker
from tests.support.mqtt import Subscriber, with_json

TICKS = os.sysconf("SC_CLK_TCK")
HOLD = 0.04  # seconds between a simulated press and its release


SEATS = 10  # config/table.example.toml's seats, all wired


def drive(hall: SimulatedHall, rate: float, seconds: float) -> dict[tuple[str, int], list[float]]:
    """Press every table ``rate`` times a second for ``seconds``, each press on the next seat
    (so one seat is pressed again only after ``SEATS / rate`` seconds, far beyond any latency
    and the debounce). Returns when each (table, seat) press was sent (``time.time()``)."""
    sent: dict[tuple[str, int], list[float]] = defaultdict(list)
    publishers = {name: Subscriber(t.broker.port, []) for name, t in hall.tables.items()}
    names = list(publishers)
    period = 1.0 / rate
    actions = []  # (offset in the period, table, verb)
    for i, name in enumerate(names):
        offset = period * i / len(names)
        actions += [(offset, name, "press"), (offset + HOLD, name, "release")]
    actions.sort()
    start = time.monotonic()
    try:
        cycle = 0
        while time.monotonic() - start < seconds:
            base, seat = start + cycle * period, cycle % SEATS + 1
            for offset, name, verb in actions:
                delay = base + offset - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                if verb == "press":
                    sent[(name, seat)].append(time.time())
                publishers[name].client.publish(f"{topic_prefix(name)}sim/{verb}",
                                                f'{{"seat": {seat}}}', qos=1)
            cycle += 1
    finally:
        for publisher in publishers.values():
            publisher.close()
    return sent


def latencies(sent: dict[tuple[str, int], list[float]], subs: list[Subscriber]) -> list[float]:
    """Each press event received against the last press of its table and seat sent before it,
    in ms (a press the table never reported is simply not counted here)."""
    out = []
    for sub in subs:
        for m in sub.matching(lambda m: m.topic.endswith("/event/seat/press")):
            before = [s for s in sent.get((m.topic.split("/")[1], m.json()["seat"]), [])
                      if s <= m.at]
            if before:
                out.append((m.at - before[-1]) * 1000)
    return out


def press_count(sub: Subscriber) -> int:
    return len(sub.matching(lambda m: m.topic.endswith("/event/seat/press")))


def usage(pids: dict[str, int]) -> dict[str, float]:
    return {key: _cpu_seconds(pid, TICKS) for key, pid in pids.items()}


def bench_hall(tables: int, rate: float, seconds: float) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as root:
        hall = SimulatedHall(Path(root), tables)
        started = time.monotonic()
        hall.start()
        every = topic_prefix("+")  # every table's
        watch = Subscriber(hall.port, [f"{every}status", f"{every}event/seat/press"],
                           auth=("observer", password("observer")))
        local = {name: Subscriber(t.broker.port, [f"{topic_prefix(name)}event/seat/press"])
                 for name, t in hall.tables.items()}
        try:
            for name, table in hall.tables.items():
                try:
                    watch.wait_for(with_json(f"{topic_prefix(name)}status", state="online"),
                                   timeout=120)
                except TimeoutError:
                    print(f"{name} never came online; its log:\n"
                          + table.log_path.read_text(errors="replace")[-3000:])
                    raise
            ready = time.monotonic() - started
            pids = {"hall": hall.hall.pid}
            for name, t in hall.tables.items():
                assert t.controller is not None
                pids[f"{name}/broker"] = t.broker.pid
                pids[f"{name}/controller"] = t.controller.pid
            before, t0 = usage(pids), time.monotonic()
            sent = drive(hall, rate, seconds)
            presses = sum(len(s) for s in sent.values())
            reported = sum(press_count(s) for s in local.values())  # by the tables
            watch.wait_for(lambda m: m.topic.endswith("/event/seat/press"), count=reported,
                           timeout=60)
            after, elapsed = usage(pids), time.monotonic() - t0
            cpu = {k: 100 * (after[k] - before[k]) / elapsed for k in pids}
            rss = {k: rss_mib(pid) for k, pid in pids.items()}
            local_ms = latencies(sent, list(local.values()))
            hall_ms = latencies(sent, [watch])
            print(f"\n{tables} tables, {rate:g} presses/s each ({presses} presses sent, "
                  f"{reported} reported by the tables, {press_count(watch)} at the hall; all "
                  f"up in {ready:.1f} s)")
            print(f"  press -> table-local subscriber: {percentiles(local_ms)}")
            print(f"  press -> hall subscriber:        {percentiles(hall_ms)}")
            print(f"  hall p99 - local p99: {p99(hall_ms) - p99(local_ms):+.3f} ms")
            print(f"  hall mosquitto: CPU {cpu['hall']:.1f} %  RSS {rss['hall']:.1f} MiB")
            for part in ("broker", "controller"):
                keys = [k for k in pids if k.endswith("/" + part)]
                print(f"  table {part}s: CPU mean {statistics.mean(cpu[k] for k in keys):.1f} % "
                      f"max {max(cpu[k] for k in keys):.1f} %;  RSS mean "
                      f"{statistics.mean(rss[k] for k in keys):.1f} MiB "
                      f"max {max(rss[k] for k in keys):.1f} MiB")
        finally:
            watch.close()
            for sub in local.values():
                sub.close()
            hall.close()


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def bench_capacity(seconds: float, publishers: int, connections: int) -> None:
    """Messages/s one mosquitto relays (QoS 1, 100 B, ``publishers`` mosquitto_pub -l fed
    without pause to one mosquitto_sub: C clients, so the broker is what is measured), then
    its memory per idle connection."""
    with LocalBroker() as broker:
        pid = broker.pid
        port = str(broker.port)
        sink = subprocess.Popen(["mosquitto_sub", "-p", port, "-q", "1", "-t", f"{ROOT}/#"],
                                stdout=subprocess.PIPE)
        received = [0]
        counter = threading.Thread(target=_count_lines, args=(sink, received), daemon=True)
        counter.start()
        time.sleep(1.0)  # mosquitto_sub says nothing once subscribed: give it a moment
        stop = threading.Event()
        pubs = [subprocess.Popen(["mosquitto_pub", "-p", port, "-q", "1", "-l",
                                  "-t", f"{topic_prefix(f't{i}')}event/seat/press"],
                                 stdin=subprocess.PIPE)
                for i in range(publishers)]
        feeders = [threading.Thread(target=_feed, args=(p, stop), daemon=True) for p in pubs]
        for feeder in feeders:
            feeder.start()
        time.sleep(1.0)  # warm up
        got0, cpu0, t0 = received[0], _cpu_seconds(pid, TICKS), time.monotonic()
        time.sleep(seconds)
        got, cpu1, elapsed = received[0] - got0, _cpu_seconds(pid, TICKS), time.monotonic() - t0
        stop.set()
        for pub in pubs:
            pub.terminate()
            pub.wait(timeout=10)
        sink.terminate()
        sink.wait(timeout=10)
        print(f"\none mosquitto, {publishers} publishers flat out to one subscriber, QoS 1, "
              f"100 B, {elapsed:.1f} s: {got / elapsed:.0f} msg/s in and out; broker CPU "
              f"{100 * (cpu1 - cpu0) / elapsed:.0f} % (of one core)")

        rss0 = rss_mib(pid)
        socks = []
        t0 = time.monotonic()
        for i in range(connections):
            client_id = f"idle-{i}".encode()
            body = (b"\x00\x04MQTT\x04\x02\x00\x00" + struct.pack("!H", len(client_id))
                    + client_id)
            s = socket.create_connection(("127.0.0.1", broker.port))
            s.sendall(bytes([0x10, len(body)]) + body)
            if s.recv(4) != b"\x20\x02\x00\x00":
                raise RuntimeError(f"connection {i} refused")
            socks.append(s)
        rss = rss_mib(pid)
        print(f"{connections} idle connections opened in {time.monotonic() - t0:.1f} s: broker "
              f"RSS {rss0:.1f} -> {rss:.1f} MiB ({(rss - rss0) * 1024 / connections:.1f} KiB "
              "each)")
        for s in socks:
            s.close()


def _feed(process: subprocess.Popen[bytes], stop: threading.Event) -> None:
    assert process.stdin is not None
    block = (b"x" * 99 + b"\n") * 1000
    try:
        while not stop.is_set():
            process.stdin.write(block)
            process.stdin.flush()
    except (BrokenPipeError, ValueError):
        pass  # the publisher was stopped


def _count_lines(process: subprocess.Popen[bytes], received: list[int]) -> None:
    stream = process.stdout
    assert isinstance(stream, io.BufferedReader)  # a pipe, buffered: read1 takes what is there
    for chunk in iter(lambda: stream.read1(65536), b""):
        received[0] += chunk.count(b"\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=[5, 10, 20])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=10.0, help="presses per second per table")
    parser.add_argument("--capacity-seconds", type=float, default=10.0)
    parser.add_argument("--publishers", type=int, default=4)
    parser.add_argument("--connections", type=int, default=5000)
    args = quick.arguments(parser, {"tables": [1], "seconds": 1.0, "rate": 5.0,
                                    "capacity_seconds": 0.5, "publishers": 1,
                                    "connections": 100})
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    for tables in args.tables:
        bench_hall(tables, args.rate, args.seconds)
    if args.capacity_seconds > 0:
        bench_capacity(args.capacity_seconds, args.publishers, args.connections)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
