"""The host side of one console port: pyserial, a thread, and the protocol's conversation.

The thread opens the port (exclusively), asks for HELLO, then reads, decodes and answers;
it turns console events into core inputs (stamped with host monotonic time mapped from the
console clock) and hands them to ``submit``: it never touches the table state. Lights are sent
by ``show`` from the loop thread. Any serial error is an unplug: close, report offline, reopen
with backoff 0.2 s doubling to 5 s. See docs/protocol.md for the conversation itself.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import serial

from controller.core.buttons import SeatButton
from controller.core.inputs import ButtonEdge, KeyPressed
from controller.core.lights import Light
from firmware_bridge import protocol as p
from firmware_bridge.clockmap import ClockMap
from firmware_bridge.sequence import Sequencer

log = logging.getLogger(__name__)

PING_EVERY = 1.0
WRITE_TIMEOUT = 0.5  # a console that stops reading is taken as unplugged, not waited for
MISSED_PONGS = 3
BACKOFF_MIN, BACKOFF_MAX = 0.2, 5.0


@dataclass
class ConsoleHealth:
    """What ``health`` shows of one console port."""

    port: str
    seats: list[int]
    online: bool = False
    refused: str | None = None
    firmware: str | None = None
    unique_id: str | None = None
    boot_id: int | None = None
    rtt_ms: float | None = None
    clock_offset_ms: float | None = None
    counts: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"port": self.port, "seats": self.seats, "online": self.online,
                "refused": self.refused, "firmware": self.firmware, "unique_id": self.unique_id,
                "boot_id": self.boot_id, "rtt_ms": self.rtt_ms,
                "clock_offset_ms": self.clock_offset_ms, "counts": dict(self.counts)}


class ConsoleLink:
    """One configured console port serving ``seats``."""

    def __init__(self, port: str, seats: frozenset[int], *, keys_only: bool,
                 now: Callable[[], float], submit: Callable[[object], None],
                 on_health: Callable[[], None], baudrate: int = 115200):
        self.port = port
        self.seats = seats
        self.keys_only = keys_only
        self._now = now
        self._submit = submit
        self._on_health = on_health
        self._baudrate = baudrate
        self.health = ConsoleHealth(port, sorted(seats))
        self._lights: dict[int, Light] = {}
        self._lights_lock = threading.Lock()  # a light sent is never overtaken by an older one
        self._serial: serial.SerialBase | None = None
        self._write_lock = threading.Lock()
        self._broken: Exception | None = None
        self._minor = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"console {port}", daemon=True)
        self._sequencer = Sequencer()
        self._clock = ClockMap()
        self._pings: dict[int, float] = {}
        self._token = 0
        self._welcomed = False

    def _count(self, key: str, n: int = 1) -> None:
        self.health.counts[key] = self.health.counts.get(key, 0) + n

    # ------------------------------------------------------------ called from the loop thread

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def show(self, seat: int, light: Light) -> None:
        """Set a seat's public light (kept, and pushed again after every reconnect)."""
        if seat not in self.seats:
            return
        with self._lights_lock:
            self._lights[seat] = light
            if self._welcomed:
                self._send(p.T_LIGHT, self._light_payload(seat, light))

    def indicate(self, seat: int, pattern: int) -> None:
        """Set a seat's private indicator (not kept: it says something only for a moment)."""
        if seat in self.seats and self._welcomed:
            self._send(p.T_INDICATOR, p.pack_indicator(seat, pattern))

    # ------------------------------------------------------------ the port's thread

    def _run(self) -> None:
        backoff = BACKOFF_MIN
        while not self._stop.is_set():
            try:
                port = serial.serial_for_url(self.port, baudrate=self._baudrate, timeout=0.1,
                                             write_timeout=WRITE_TIMEOUT, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                if backoff == BACKOFF_MIN:
                    log.warning("console %s: cannot open (%s); retrying", self.port, exc)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            backoff = BACKOFF_MIN
            try:
                self._session(port)
            except (serial.SerialException, OSError) as exc:
                log.warning("console %s: unplugged (%s)", self.port, exc)
            finally:
                with self._write_lock:
                    self._serial = None
                port.close()
                self._set_offline()

    def _session(self, port: serial.SerialBase) -> None:
        with self._write_lock:
            self._serial = port
        decoder = p.Decoder()
        self._welcomed = False
        self._broken = None
        last_ping = self._now()
        self._unanswered = 0
        self._send(p.T_HELLO_REQUEST, b"")
        while not self._stop.is_set():
            if self._broken is not None:
                raise serial.SerialException(f"write failed: {self._broken}")
            data = port.read(port.in_waiting or 1)
            if data and port.in_waiting:  # woken by a frame's first byte: the rest is here too
                data += port.read(port.in_waiting)
            received_at = self._now()
            if data:
                before = dict(decoder.counts)
                for frame in decoder.feed(data):
                    self._handle(frame, received_at)
                for key, value in decoder.counts.items():
                    if key != "frames" and value != before[key]:
                        self._count(key, value - before[key])
            now = self._now()
            if now - last_ping >= PING_EVERY:
                last_ping = now
                if not self._welcomed and self.health.refused is None:
                    self._send(p.T_HELLO_REQUEST, b"")
                elif self._welcomed:
                    self._ping()
                    if self._unanswered > MISSED_PONGS and self.health.online:
                        log.warning("console %s: %d pings unanswered", self.port, MISSED_PONGS)
                        self._set_offline()

    def _ping(self) -> None:
        self._token = (self._token + 1) & 0xFFFFFFFF
        self._pings = {self._token: self._now()}  # an older PING's PONG is not a sample
        self._unanswered += 1
        self._send(p.T_PING, p.pack_ping(self._token))

    def _handle(self, frame: p.Frame, at: float) -> None:
        if frame.type == p.T_HELLO:
            self._hello(frame)
        elif not self._welcomed:
            return
        elif frame.type == p.T_PONG:
            self._pong(frame, at)
        elif frame.type == p.T_EVENT:
            self._event(frame)
        else:
            self._count("unknown_type")

    def _pong(self, frame: p.Frame, at: float) -> None:
        try:
            token, t_ms = p.unpack_pong(frame.payload)
        except ValueError:
            self._count("bad_pong")
            return
        sent = self._pings.pop(token, None)
        if sent is None:
            return
        self._unanswered = 0
        self._clock.add(sent, at, t_ms)
        self.health.rtt_ms = round((self._clock.best_rtt or 0) * 1000, 3)
        self.health.clock_offset_ms = self._clock.offset_ms
        if not self.health.online:
            self.health.online = True
            log.info("console %s online (round trip %.2f ms)", self.port, self.health.rtt_ms)
            self._on_health()

    def _hello(self, frame: p.Frame) -> None:
        try:
            hello = p.unpack_hello(frame.payload)
        except ValueError as exc:
            self._count("bad_hello")
            log.warning("console %s: bad HELLO (%s)", self.port, exc)
            return
        version = f"{hello['major']}.{hello['minor']}"
        if hello["major"] != p.PROTO_MAJOR:
            refused = (f"protocol {version}; this controller speaks "
                       f"{p.PROTO_MAJOR}.x: update the console firmware")
            self._welcomed = False
            if refused != self.health.refused:  # it says HELLO every second: tell once
                self.health.refused = refused
                log.error("console %s refused: %s", self.port, refused)
                self._on_health()
            return
        self.health.refused = None
        self._minor = hello["minor"]
        known = self.health.boot_id == hello["boot_id"] and self._welcomed
        if self.health.boot_id != hello["boot_id"]:
            self._clock = ClockMap()  # another boot: another clock
        self._sequencer.hello(hello["unique_id"], hello["boot_id"], hello["first_seq"])
        claimed = set(hello["seats"])
        if claimed != set(self.seats) and not known:
            log.warning("console %s says it serves seats %s; the config gives it %s",
                        self.port, sorted(claimed), sorted(self.seats))
        # PING before WELCOME: the console answers it before it resends its buffered events
        # (the line is first-in first-out), so they find a clock sample to be mapped with
        self._ping()
        with self._lights_lock:
            self._welcomed = True
            self._send(p.T_WELCOME, p.pack_welcome(hello["boot_id"]))
            for seat, light in sorted(self._lights.items()):
                self._send(p.T_LIGHT, self._light_payload(seat, light))
        self.health.firmware = ".".join(map(str, hello["firmware"]))
        self.health.unique_id = hello["unique_id"].hex()
        self.health.boot_id = hello["boot_id"]
        (log.debug if known else log.info)(
            "console %s: firmware %s, protocol %s, id %s, boot %08x", self.port,
            self.health.firmware, version, self.health.unique_id, hello["boot_id"])

    def _event(self, frame: p.Frame) -> None:
        try:
            event = p.unpack_event(frame.payload)
        except ValueError:
            # a damaged frame that passed the CRC (a flipped delimiter adds a byte the CRC
            # cannot see, docs/protocol.md): not accepted, not acknowledged, so it comes again
            self._count("bad_event")
            return
        verdict = self._sequencer.offer(frame.seq)
        if verdict == "gap":
            self._count("out_of_order")
            return
        if verdict == "duplicate":
            self._count("duplicates")
            self._send(p.T_ACK, b"")
            return
        self._deliver(event)
        self._send(p.T_ACK, b"")  # after the input is handed over: the press goes first

    def _deliver(self, event: tuple[int, int, int, int]) -> None:
        seat, kind, value, t_ms = event
        if seat not in self.seats:
            self._count("foreign_seat")
            log.warning("console %s: event for seat %d, which is not its own; dropped",
                        self.port, seat)
            return
        t = self._clock.to_host(t_ms)
        if t is None:
            t = self._now()
        if kind == p.EV_KEY and value in p.KEYS:
            self._submit(KeyPressed(seat, chr(value), t))
        elif kind in (p.EV_BUTTON_DOWN, p.EV_BUTTON_UP) and not self.keys_only:
            self._submit(ButtonEdge(SeatButton(seat), kind == p.EV_BUTTON_DOWN, t, "console"))
        else:
            self._count("ignored_event")

    def _send(self, type: int, payload: bytes) -> None:
        with self._write_lock:
            if self._serial is None:
                return
            try:
                self._serial.write(p.encode_frame(type, 0, self._sequencer.last, payload))
            except (serial.SerialException, OSError) as exc:
                self._broken = exc  # the port's thread closes it and reopens

    def _set_offline(self) -> None:
        self._welcomed = False
        if self.health.online:
            self.health.online = False
            log.warning("console %s offline", self.port)
            self._on_health()


    def _light_payload(self, seat: int, light: Light) -> bytes:
        rgb = tuple(round(c * 255) for c in light.rgb())
        mode = p.LIGHT_MODES.index(light.mode.value)
        if mode == 4 and self._minor < 1:
            mode = 3  # a 1.0 console has no fast blink: plain blink
        return p.pack_light(seat, mode, rgb)

