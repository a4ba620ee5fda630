"""Console benchmark: a byte on the pty to the event at an MQTT subscriber, a 24-seat burst.

    .venv/bin/python -m bench.consoles [--presses 2000] [--bursts 20] [--runs 3]
    .venv/bin/python -m bench.consoles --quick    # seconds: that it runs (bench/quick.py)

A 24-seat table whose seats are all on one console hub: the real firmware logic, emulated in
its own process (``python -m firmware_bridge.emulator``) as a real console is its own MCU, on a
real pty, to the real host link; a private mosquitto; and the receiver in its own process:

* latency: from the moment the emulated console writes an EVENT frame to the pty to the moment
  the receiver has the MQTT event (both CLOCK_MONOTONIC), press and release, one at a time,
  each as soon as the one before has arrived;
* the floor, measured in the same run: a bare pty write -> pyserial read on a second pty pair,
  plus a bare paho publish -> the same receiver on the same broker; the link should cost little
  above their sum;
* burst: all 24 seats pressed within 10 ms, 20 times: events lost, and first press to last event;
* the goal, each run: the link's p99 within 1.5 x the floor's p99 (bare pty + bare paho, same
  run) + 1 ms (bench/figures.py); the whole measurement is repeated ``--runs`` times (three by
  default) and the median run decides.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tty
from pathlib import Path

import serial

from bench import quick
from bench.figures import RELATIVE, Figures, Verdict, load_average, percentiles, print_runs
from bench.gpio import BarePublisher, EventClock, run_on_thread
from contract.topics import topic_prefix
from controller import config
from controller.service import Service
from firmware_bridge import protocol as p
from kit.local_broker import LocalBroker

BENCH = topic_prefix("bench")  # the table the bench runs

SEATS = 24
#: the path's name in its verdict line (bench/figures.py, read by bench.headline)
PATH = "console byte -> subscriber"
#: A real console is its own MCU and takes no CPU from the Pi. Its emulation here scans 288 keys
#: every millisecond while an input settles (10 ms after each press), on the same cores as the
#: host it stands for; at a lower priority it stops taking the CPU from the host at the very
#: moment measured. Its frames are timed at the write, so their times are unaffected.
CONSOLE_NICENESS = 10
TABLE = f"""
table = "bench"
seats = {SEATS}
[broker]
host = "127.0.0.1"
port = {{port}}
[backends]
gpio = "mock"
audio = "off"
[[console]]
port = "{{console}}"
seats = {list(range(1, SEATS + 1))}
"""


class EmulatedHub:
    """The console hub in its own process: press and release its seats, learn when it wrote
    each EVENT frame to the pty (CLOCK_MONOTONIC, shared by all processes)."""

    def __init__(self, path: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.emulator", str(path),
             *map(str, range(1, SEATS + 1))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            preexec_fn=lambda: os.nice(CONSOLE_NICENESS))
        assert self.process.stdout is not None and self.process.stdin is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the emulated hub did not start")

    def act(self, verb: str, seat: int) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{verb} {seat}\n")
        self.process.stdin.flush()

    def dump(self) -> list[float]:
        """When each EVENT frame written since the last dump went onto the pty, in order."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.act("dump", 0)
        frames: list[tuple[int, float]] = []
        for line in self.process.stdout:
            if line.strip() == "end":
                return [at for _, at in frames]
            _, seq, at = line.split()
            frames.append((int(seq), float(at)))
        raise RuntimeError("the emulated hub stopped")

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(10)


def floor_pty(samples: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), timeout=1)
    frame = p.encode_frame(p.T_EVENT, 1, 0, p.pack_event(1, p.EV_BUTTON_DOWN, 0, 0))
    out = []
    for _ in range(samples):
        start = time.monotonic()
        os.write(master, frame)
        port.read(len(frame))
        out.append((time.monotonic() - start) * 1000)
    port.close()
    os.close(master)
    os.close(slave)
    return out


#: the other end of ``floor_pty_across``: writes a frame to the pty (fd argv[2]) at each byte
#: on stdin, noting the time just before; at the end prints the times, one a line
PTY_WRITER = """
import os, sys, time
frame, fd, times = bytes.fromhex(sys.argv[1]), int(sys.argv[2]), []
while sys.stdin.buffer.read(1):
    times.append(time.monotonic())
    os.write(fd, frame)
print("\\n".join(map(str, times)))
"""


def floor_pty_across(samples: int) -> list[float]:
    """A bare pty write in another process -> pyserial read here: the pty hop with the
    wake-up a real console's frame costs (the writer is the console's process, at the same
    lower priority)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    port = serial.Serial(os.ttyname(slave), timeout=1)
    frame = p.encode_frame(p.T_EVENT, 1, 0, p.pack_event(1, p.EV_BUTTON_DOWN, 0, 0))
    writer = subprocess.Popen([sys.executable, "-c", PTY_WRITER, frame.hex(), str(master)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=(master,),
                              preexec_fn=lambda: os.nice(CONSOLE_NICENESS))
    assert writer.stdin is not None
    read_at = []
    for _ in range(samples):
        writer.stdin.write(b"!")
        writer.stdin.flush()
        port.read(len(frame))
        read_at.append(time.monotonic())
    written, _ = writer.communicate()
    port.close()
    os.close(master)
    os.close(slave)
    return [(r - float(w)) * 1000 for r, w in zip(read_at, written.split(), strict=True)]


def hub_table(folder: Path, port: int) -> Service:
    """The 24-seat table on the hub emulated at ``folder``/hub, on the broker at ``port`` (not
    started), its start-up frozen as ``mafia-table run`` freezes it."""
    table = folder / "bench.toml"
    table.write_text(TABLE.format(port=port, console=folder / "hub"))
    return Service(config.load(table), freeze_startup=True)


def wait_up(service: Service) -> None:
    """Until the table is connected to the broker and its console hub online."""
    deadline = time.monotonic() + 10
    while not (service.mqtt.connected.is_set() and service.consoles[0].health.online):
        if time.monotonic() > deadline:
            raise TimeoutError("the table did not come up")
        time.sleep(0.01)


def measure(args: argparse.Namespace) -> Verdict:
    """One whole run (its own broker, table and hub); prints its figures and returns its
    verdict."""
    with tempfile.TemporaryDirectory() as state, LocalBroker() as broker:
        os.environ["XDG_STATE_HOME"] = state
        hub = EmulatedHub(Path(state) / "hub")
        service = hub_table(Path(state), broker.port)
        loop = run_on_thread(service)
        clock = EventClock(broker.port)
        try:
            wait_up(service)
            hub.dump()  # from here on
            arrived = []
            for i in range(args.presses):
                seat = 1 + i % SEATS
                for verb in ("press", "release"):  # one at a time: the n-th frame, n-th event
                    before = len(clock.arrivals)
                    hub.act(verb, seat)
                    clock.wait_count(before + 1)
                    arrived.append(clock.arrivals[-1][2])
            written = hub.dump()
            if len(written) != len(arrived):
                raise RuntimeError(f"{len(written)} frames written, {len(arrived)} events")
            samples = [(a - w) * 1000 for a, w in zip(arrived, written, strict=True)]
            print(f"pty byte -> subscriber: {percentiles(samples)}")

            lost, spans = 0, []
            for _ in range(args.bursts):
                before = len(clock.arrivals)
                first = time.monotonic()
                for seat in range(1, SEATS + 1):
                    hub.act("press", seat)
                    time.sleep(0.010 / SEATS)
                with contextlib.suppress(TimeoutError):  # a lost event is counted below
                    clock.wait_count(before + SEATS, timeout=3)
                got = clock.arrivals[before:]
                lost += SEATS - len(got)
                spans.append((max(a[2] for a in got) - first) * 1000)
                for seat in range(1, SEATS + 1):
                    hub.act("release", seat)
                clock.wait_count(before + 2 * SEATS - (SEATS - len(got)), timeout=3)
            if args.bursts:
                print(f"burst of {SEATS} seats within 10 ms x {args.bursts}: lost {lost}; "
                      f"first press -> last event p50={statistics.median(spans):.2f} ms "
                      f"max={max(spans):.2f} ms")

            pty = floor_pty(min(args.presses, 2000))
            across = floor_pty_across(min(args.presses, 2000))
            publisher = BarePublisher(broker.port)
            try:
                paho = [publisher.time_one(clock) for _ in range(min(args.presses, 2000))]
            finally:
                publisher.close()
            print(f"floor, bare pty write -> pyserial read: {percentiles(pty)}")
            print(f"floor, pty write in another process -> pyserial read: "
                  f"{percentiles(across)}")
            print(f"floor, bare paho publish -> receiver: {percentiles(paho)}")
            floor = Figures.of(pty) + Figures.of(paho)
            print(f"floor (bare pty + bare paho): p50={floor.p50:.3f} ms p99={floor.p99:.3f} ms")
            verdict = Verdict(PATH, Figures.of(samples), floor, RELATIVE)
            print(verdict.line(), flush=True)
            return verdict
        finally:
            service.stop()
            loop.join(10)
            clock.close()
            hub.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=2000)
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3, help="repeat; the median run decides")
    args = quick.arguments(parser, {"presses": 20, "bursts": 2, "runs": 1})
    if min(args.presses, args.runs) < 1 or args.bursts < 0:
        parser.error("--presses and --runs must be at least 1, --bursts at least 0")
    runs = []
    for run in range(1, args.runs + 1):
        print(f"--- run {run} of {args.runs} (load average {load_average()})", flush=True)
        runs.append(measure(args))
    print_runs(runs)


if __name__ == "__main__":
    main()
