"""The host side of one console port: pyserial and the thread that owns it.

The conversation itself is ``firmware_bridge.session.HostSession`` (sans I/O); this module only
moves bytes. One thread opens the port (exclusively), does every read and every write, feeds
what it reads to the session and writes what the session has to say. Other threads (the event
loop) only change the session under a lock (a light, an indicator, an event journaled) and
wake the port's thread, which sends it: a serial write never runs on the event loop's thread.

Inputs from the console go to ``submit(input, position)``; hand ``position`` back to
``journaled`` once the input's events are on disk, and the console gets its acknowledgement.
Any serial error is an unplug: close, report offline, reopen with backoff 0.2 s doubling to
5 s. So is a write that does not go through within 0.5 s.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Annotated

import msgspec
import serial

from contract.api import ConsoleHealth
from contract.inputs import ButtonEdge, KeyPressed
from contract.lights import Light
from firmware_bridge.sequence import Position, Sequencer
from firmware_bridge.session import HostSession
from kit.config import Section

log = logging.getLogger(__name__)

WRITE_TIMEOUT = 0.5  # a console that stops reading is taken as unplugged, not waited for
READ_TIMEOUT = 0.1  # the longest the thread sleeps when nothing comes (the timer's resolution)
BACKOFF_MIN, BACKOFF_MAX = 0.2, 5.0


class ConsoleConfig(Section):
    """One console port: a single seat's console, or a hub scanning several keypads."""

    port: str
    seats: Annotated[list[int], msgspec.Meta(min_length=1, max_length=24)]
    keys_only: bool = False
    baudrate: Annotated[int, msgspec.Meta(ge=1200, le=3_000_000)] = 115200


class ConsoleLink:
    """One configured console port serving ``seats``. ``journaled``: the positions of the
    consoles' event streams that the journal holds from a previous run."""

    def __init__(self, port: str, seats: frozenset[int], *, keys_only: bool,
                 now: Callable[[], float],
                 submit: Callable[[ButtonEdge | KeyPressed, Position], None],
                 on_health: Callable[[], None], baudrate: int = 115200,
                 journaled: Iterable[Position] = ()):
        self.port = port
        self.seats = seats
        self._now = now
        self._submit = submit
        self._on_health = on_health
        self._baudrate = baudrate
        self.session = HostSession(port, seats, keys_only=keys_only,
                                   sequencer=Sequencer(journaled))
        self._lock = threading.Lock()  # the session, and the open port's wake-up
        self._serial: serial.SerialBase | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"console {port}", daemon=True)

    @property
    def health(self) -> ConsoleHealth:
        return self.session.health

    # ------------------------------------------------------------ called from other threads

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread.is_alive():
            self._thread.join(5)

    def show(self, seat: int, light: Light) -> None:
        """Set a seat's public light (kept, and pushed again after every reconnect)."""
        with self._lock:
            self.session.show(seat, light)
        self._wake()

    def indicate(self, seat: int, pattern: int) -> None:
        """Set a seat's private indicator (kept, and pushed again after every reconnect)."""
        with self._lock:
            self.session.indicate(seat, pattern)
        self._wake()

    def journaled(self, position: Position) -> None:
        """The input that reached ``position`` is on disk: the console may forget it."""
        with self._lock:
            self.session.journaled(position)
        self._wake()

    def _wake(self) -> None:
        """Cut the port thread's read short, so that it writes what the session has now."""
        with self._lock:
            if self._serial is not None and hasattr(self._serial, "cancel_read"):
                with contextlib.suppress(OSError):
                    self._serial.cancel_read()

    # ------------------------------------------------------------ the port's thread

    def _run(self) -> None:
        backoff = BACKOFF_MIN
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.port, baudrate=self._baudrate,
                                             timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT,
                                             exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                if backoff == BACKOFF_MIN:
                    log.warning("console %s: cannot open (%s); retrying", self.port, exc)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            backoff = BACKOFF_MIN
            try:
                self._converse(port)
            except (serial.SerialException, OSError) as exc:
                log.warning("console %s: unplugged (%s)", self.port, exc)
            finally:
                with self._lock:
                    self._serial = None
                    self.session.close()
                port.close()
                self._tell_health()

    def _converse(self, port: serial.SerialBase) -> None:
        with self._lock:
            self._serial = port
            self.session.open(self._now())
        while not self._stop.is_set():
            with self._lock:
                out = self.session.data_to_send()
            if out:
                port.write(out)
            data = port.read(port.in_waiting or 1)
            if data and port.in_waiting:  # woken by a frame's first byte: the rest is here too
                data += port.read(port.in_waiting)
            now = self._now()
            with self._lock:
                delivered = self.session.receive_data(data, now) if data else []
                self.session.timer(now)
            for got in delivered:
                self._submit(got.input, got.position)
            self._tell_health()

    def _tell_health(self) -> None:
        with self._lock:
            changed, self.session.health_changed = self.session.health_changed, False
        if changed:
            self._on_health()
