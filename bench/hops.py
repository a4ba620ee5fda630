"""Where a press's time goes: each hop of its path timed, and what else ran meanwhile.

    .venv/bin/python -m bench.hops [--path gpio|console ...] [--presses 500] [--flood 5000]
    .venv/bin/python -m bench.hops --quick    # seconds: that it runs (bench/quick.py)

The paths of ``bench.gpio`` (a mock pin's edge) and ``bench.consoles`` (a console's frame on a
pty), one press at a time, with the service's parts wrapped where a press passes them (in this
process, measurement only: nothing of the service is changed but its attributes here), each
stamp ``time.monotonic()``, one clock with the console's process and the subscriber's:

    gpio:    pin edge -> the edge's callback hands it to the loop (``EventLoop.submit``)
    console: the console writes the frame -> the link's thread has read it
             (``HostSession.receive_data``) -> handed to the loop (``EventLoop.submit``)
    both:    -> the loop has taken it (``EventLoop._next_batch`` returns) -> the core's
             ``step`` starts -> it returns -> the journal has committed the event
             (``Journal.append`` or ``append_console_input``) -> ``publish`` is called
             (``Delivery``'s) -> it returns -> paho's thread has written it to the broker's
             socket (``Client._sock_send``) -> the subscriber in another process has it

For each hop: p50 / p99 / max; then the slowest 1 % of the presses, with the hop that was the
largest in each (what the tail is made of). Beside them, over the same run: the garbage
collector's pauses (``gc.callbacks``: how many of each generation, how long, how many presses
one fell in), the checkpointer's passes (each ``wal_checkpoint``, and the presses whose commit
overlapped one), on the console path the port thread's writes to the console (the
acknowledgements and pings, and the presses one was written on the way of: each wakes that
thread and the console while the press is still going), and the CPU time of each thread of
this process (/proc/self/task); at the end, how long a full collection takes.

``--flood RATE``: the GPIO path's presses while ``bench/flooder.py`` (``bench.flood``'s flood)
publishes ``RATE`` QoS 1 ``cmd/light`` a second, which is where the collector runs most.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import itertools
import os
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from bench import quick
from bench.consoles import EmulatedHub, hub_table, wait_up
from bench.figures import Figures, load_average, quantile
from bench.flood import Flooder
from bench.gpio import EventClock, example_service, private_broker, run_on_thread, seat_pins
from contract.inputs import ButtonEdge
from controller import loop as loop_module
from controller.journal import checkpoint
from controller.service import Service
from kit.local_broker import LocalBroker

#: the stamps of one press, by path, in the order it passes them
STAMPS = {
    "gpio": ("edge", "submitted", "taken", "stepping", "stepped", "journaled", "publishing",
             "published", "written", "received"),
    "console": ("edge", "read", "submitted", "taken", "stepping", "stepped", "journaled",
                "publishing", "published", "written", "received"),
}
GAP = 0.03  # between presses, as bench.gpio (the debounce is 20 ms)


class Stamps:
    """The stamps of the press under way (one at a time), and of every press done."""

    def __init__(self) -> None:
        self.now: dict[str, float] = {}
        self.done: list[dict[str, float]] = []

    def mark(self, name: str) -> None:
        self.now.setdefault(name, time.monotonic())

    def finish(self, edge: float, received: float) -> None:
        self.now.update(edge=edge, received=received)
        self.done.append(self.now)
        self.now = {}


class Pauses:
    """Intervals (start, end, what) of something that stops or slows the others."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float, str]] = []

    def during(self, start: float, end: float) -> list[tuple[float, float, str]]:
        return [s for s in self.spans if s[1] >= start and s[0] <= end]


@contextlib.contextmanager
def collector_pauses() -> Iterator[Pauses]:
    """The garbage collector's pauses while inside (``gc.callbacks``)."""
    pauses = Pauses()
    began = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[0] = time.monotonic()
        else:
            pauses.spans.append((began[0], time.monotonic(), f"gen{info['generation']}"))

    gc.callbacks.append(callback)
    try:
        yield pauses
    finally:
        gc.callbacks.remove(callback)


class _TimedConnection:
    """A connection whose every ``execute`` is noted (the checkpointer's: it only checkpoints)."""

    def __init__(self, db: sqlite3.Connection, pauses: Pauses):
        self._db, self._pauses = db, pauses

    def execute(self, sql: str, *parameters: Any) -> sqlite3.Cursor:
        start = time.monotonic()
        try:
            return self._db.execute(sql, *parameters)
        finally:
            self._pauses.spans.append((start, time.monotonic(), "checkpoint"))

    def close(self) -> None:
        self._db.close()


@contextlib.contextmanager
def checkpoint_passes() -> Iterator[Pauses]:
    """Each pass of the journals' checkpointers started while inside (their module's
    ``sqlite3.connect`` made to hand out noted connections)."""
    pauses = Pauses()

    class Noted:
        DatabaseError = sqlite3.DatabaseError

        @staticmethod
        def connect(*args: Any, **kwargs: Any) -> _TimedConnection:
            return _TimedConnection(sqlite3.connect(*args, **kwargs), pauses)

    with mock.patch.object(checkpoint, "sqlite3", Noted):
        yield pauses


def wrap(owner: Any, name: str, before: Callable[..., object] | None = None,
         after: Callable[..., object] | None = None) -> Callable[[], None]:
    """Replace ``owner.name`` (an attribute of an instance or a module) by a call that runs
    ``before(*args)`` before it and ``after(result, *args)`` after it; returns what puts the
    original back."""
    real = getattr(owner, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if before is not None:
            before(*args)
        result = real(*args, **kwargs)
        if after is not None:
            after(result, *args)
        return result

    setattr(owner, name, wrapped)
    return lambda: setattr(owner, name, real)


def _edge(inp: object) -> bool:
    return isinstance(inp, ButtonEdge)


@contextlib.contextmanager
def instrumented(service: Service, stamps: Stamps) -> Iterator[None]:
    """Stamp a press at each part of the service it passes (enter before ``start``: the GPIO
    board takes the loop's ``submit`` as it opens)."""
    mark = stamps.mark
    seat_event = "event/seat/"
    wrap(service.loop, "submit", lambda inp: _edge(inp) and mark("submitted"))
    wrap(service.loop, "_next_batch",
         after=lambda batch, *_: any(map(_edge, batch)) and mark("taken"))
    for journal in (service.store, service.private_store):
        for name in ("append", "append_console_input"):
            wrap(journal, name, after=lambda *_: mark("journaled"))
    wrap(service.delivery, "_publish",
         lambda topic, payload: topic.startswith(seat_event) and mark("publishing"),
         lambda _, topic, payload: topic.startswith(seat_event) and mark("published"))
    wrap(service.event_link._client, "_sock_send",  # events leave on a connection of their own
         after=lambda _, data: seat_event.encode() in bytes(data[:64]) and mark("written"))
    for link in service.consoles:
        wrap(link.session, "receive_data", after=lambda got, *_: got and mark("read"))
    restore = wrap(loop_module, "step", lambda state, inp: _edge(inp) and mark("stepping"),
                   lambda _, state, inp: _edge(inp) and mark("stepped"))
    try:
        yield
    finally:
        restore()


#: what a path's presses give: their stamps, the collector's pauses, the checkpoints, the
#: console port's writes (none on the GPIO path), the CPU time of each thread
Pressed = tuple[Stamps, Pauses, Pauses, Pauses, dict[str, float]]


@contextlib.contextmanager
def port_writes(service: Service) -> Iterator[Pauses]:
    """Each write of the console links' threads to their open ports while inside."""
    pauses = Pauses()
    def note(*_: object) -> None:
        now = time.monotonic()
        pauses.spans.append((now, now, "write"))

    restore = [wrap(link._serial, "write", note) for link in service.consoles
               if link._serial is not None]
    try:
        yield pauses
    finally:
        for undo in restore:
            undo()


def press_gpio(presses: int, flood: int) -> Pressed:
    """``bench.gpio``'s presses, stamped; during a flood of ``flood`` commands a second (none
    for 0)."""
    stamps = Stamps()
    with private_broker() as broker, checkpoint_passes() as checkpoints, \
            contextlib.ExitStack() as context:
        service = example_service(broker.port)
        context.enter_context(instrumented(service, stamps))
        loop = run_on_thread(service)
        clock = EventClock(broker.port)
        try:
            if not service.mqtt.connected.wait(5):
                raise TimeoutError("service did not connect")
            pin = seat_pins(service)[0]
            if flood:  # for about as long as the presses take without it
                flooder = Flooder(broker.port, "bench", flood, presses * 2 * GAP)
                flooder.start()
            cpu = thread_cpu()
            with collector_pauses() as collections:
                for _ in range(presses):
                    for drive in (pin.drive_low, pin.drive_high):
                        stamps.now = {}
                        arrived = len(clock.arrivals)  # before the edge: its event may win
                        drive()
                        clock.wait_count(arrived + 1)
                        time.sleep(GAP / 2)  # paho's write may be stamped after the arrival
                        stamps.finish(pin._last_change, clock.arrivals[-1][2])
                        time.sleep(GAP / 2)
            cpu = {name: thread_cpu().get(name, 0.0) - spent for name, spent in cpu.items()}
            if flood:
                print(f"flood of {flood}/s: {flooder.result()}")
        finally:
            service.stop()
            loop.join(10)
            clock.close()
    return stamps, collections, checkpoints, Pauses(), cpu


def press_console(presses: int, flood: int) -> Pressed:
    """``bench.consoles``' presses (one at a time, seat after seat), stamped."""
    stamps = Stamps()
    with tempfile.TemporaryDirectory() as state, LocalBroker() as broker, \
            checkpoint_passes() as checkpoints, contextlib.ExitStack() as context:
        os.environ["XDG_STATE_HOME"] = state
        hub = EmulatedHub(Path(state) / "hub")
        service = hub_table(Path(state), broker.port)
        context.enter_context(instrumented(service, stamps))
        loop = run_on_thread(service)
        clock = EventClock(broker.port)
        try:
            wait_up(service)
            hub.dump()
            arrived = []
            cpu = thread_cpu()
            with collector_pauses() as collections, port_writes(service) as writes:
                for i in range(presses):
                    for verb in ("press", "release"):
                        stamps.now = {}
                        before = len(clock.arrivals)  # before the press: its event may win
                        hub.act(verb, 1 + i % 24)
                        clock.wait_count(before + 1)
                        time.sleep(GAP / 2)
                        arrived.append(clock.arrivals[-1][2])
                        stamps.finish(0.0, arrived[-1])
                        time.sleep(GAP / 2)
            cpu = {name: thread_cpu().get(name, 0.0) - spent for name, spent in cpu.items()}
            for done, written in zip(stamps.done, hub.dump(), strict=True):
                done["edge"] = written
        finally:
            service.stop()
            loop.join(10)
            clock.close()
            hub.close()
    return stamps, collections, checkpoints, writes, cpu


def thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of each live thread of this process, by its name."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    ticks = os.sysconf("SC_CLK_TCK")
    cpu: dict[str, float] = {}
    for task in Path("/proc/self/task").iterdir():
        with contextlib.suppress(OSError):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            name = names.get(int(task.name), f"thread {task.name}")
            cpu[name] = cpu.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
    return cpu


def report(path: str, stamps: Stamps, collections: Pauses, checkpoints: Pauses,
           writes: Pauses, cpu: dict[str, float]) -> None:
    names = STAMPS[path]
    whole = [d for d in stamps.done if all(n in d for n in names)]
    chain = [n for n in names if n != "published"]  # paho's thread may write before it returns
    hops = {f"{a} -> {b}": [(d[b] - d[a]) * 1000 for d in whole]
            for a, b in itertools.pairwise(chain)}
    call = [(d["published"] - d["publishing"]) * 1000 for d in whole]
    totals = [(d["received"] - d["edge"]) * 1000 for d in whole]
    print(f"{path}: {len(whole)} of {len(stamps.done)} presses stamped at every hop "
          f"(load average {load_average()})")
    print(f"  whole path                      p50 / p99 / max {Figures.of(totals)}")
    for hop, samples in hops.items():
        print(f"  {hop:31s} p50 / p99 / max {Figures.of(samples)}")
    print(f"  (paho's publish call returns     p50 / p99 / max {Figures.of(call)} after it began)")
    slowest = sorted(range(len(whole)), key=totals.__getitem__)[-max(1, len(whole) // 100):]
    largest = Counter(max(hops, key=lambda hop: hops[hop][i]) for i in slowest)
    print(f"  the slowest {len(slowest)} (from {min(totals[i] for i in slowest):.3f} ms): "
          "largest hop " + ", ".join(f"{hop} {n}" for hop, n in largest.most_common()))
    for hop, samples in hops.items():
        tail = sorted(samples[i] for i in slowest)
        print(f"    {hop:29s} in them: median {tail[len(tail) // 2]:.3f} ms, "
              f"most {tail[-1]:.3f} ms (p50 of all {quantile(samples, 0.5):.3f})")
    pauses: dict[str, list[float]] = {}
    for start, end, kind in collections.spans:
        pauses.setdefault(kind, []).append((end - start) * 1000)
    hit = sum(bool(collections.during(d["edge"], d["received"])) for d in whole)
    print(f"  garbage collector: {len(collections.spans)} collections"
          + "".join(f"; {kind} {len(ms)}, pause p50 / max {quantile(ms, 0.5):.3f} / "
                    f"{max(ms):.3f} ms" for kind, ms in sorted(pauses.items()))
          + f"; {hit} presses had one on their way")
    passes = [(end - start) * 1000 for start, end, _ in checkpoints.spans]
    overlapped = [i for i, d in enumerate(whole)
                  if checkpoints.during(d["stepped"], d["journaled"])]
    commit = hops["stepped -> journaled"]
    others = [c for i, c in enumerate(commit) if i not in set(overlapped)]
    print(f"  checkpoints: {len(passes)} passes"
          + (f", p50 / max {quantile(passes, 0.5):.3f} / {max(passes):.3f} ms" if passes else "")
          + f"; {len(overlapped)} commits overlapped one"
          + (f" (their median {quantile([commit[i] for i in overlapped], 0.5):.3f} ms, the "
             f"others' {quantile(others, 0.5):.3f} ms)" if overlapped and others else ""))
    if path == "console":
        on_way = [i for i, d in enumerate(whole) if writes.during(d["edge"], d["received"])]
        print(f"  console port writes: {len(writes.spans)}; {len(on_way)} presses had one on "
              f"their way, {sum(i in set(on_way) for i in slowest)} of the slowest "
              f"{len(slowest)}")
    busy = sorted(cpu.items(), key=lambda item: -item[1])
    print("  CPU by thread over the presses: "
          + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in busy if seconds > 0))
    started = time.perf_counter()
    gc.collect()
    print(f"  a full collection now: {(time.perf_counter() - started) * 1000:.2f} ms "
          f"({gc.get_freeze_count():,} objects frozen, {len(gc.get_objects()):,} tracked)")


PATHS = {"gpio": press_gpio, "console": press_console}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", choices=list(PATHS), action="append",
                        help="which path (repeat; default both)")
    parser.add_argument("--presses", type=int, default=500)
    parser.add_argument("--flood", type=int, default=0, metavar="RATE",
                        help="the GPIO path's presses during a flood of RATE commands a second")
    args = quick.arguments(parser, {"presses": 10})
    paths = args.path or (["gpio"] if args.flood else list(PATHS))
    if args.presses < 1 or args.flood < 0 or (args.flood and paths != ["gpio"]):
        parser.error("--presses must be at least 1; --flood goes with the GPIO path alone")
    for path in paths:
        report(path, *PATHS[path](args.presses, args.flood))


if __name__ == "__main__":
    main()
