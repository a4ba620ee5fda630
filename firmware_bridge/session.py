"""The host side of one console's conversation, sans I/O: the mirror of the firmware's Console.

Bytes come in through ``receive_data(data, now)``, which returns the inputs the console gave
(with the position each one reaches in its event stream); whatever the host has to say waits in
``data_to_send()``. ``timer(now)`` keeps the conversation going (HELLO_REQUEST while nobody
answered, PING every second, offline after three missed PONGs). Nothing here reads a clock or a
port: ``firmware_bridge.link`` owns the port and its thread, and the tests drive a session and a
firmware ``Console`` against each other in memory, on a fake clock. See docs/protocol.md.

States: ``connecting`` (the port is open, no HELLO yet), ``refused`` (a protocol major this
host does not speak: nothing more is said until the port is reopened), ``welcomed`` (HELLO
answered with WELCOME and the full state; no PONG yet, or three missed: offline, though the
console's events are still taken at once) and ``online`` (PONGs come back).

A delivered event is acknowledged only once the table has journaled it (``journaled``): the
ack the console sees is always on disk, so a controller that dies in between gets the press
again from the console's ring buffer, exactly once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal, cast

from contract.api import ConsoleHealth
from contract.buttons import SeatButton
from contract.events import Key
from contract.inputs import ButtonEdge, KeyPressed
from contract.lights import Light
from firmware_bridge import protocol as p
from firmware_bridge.clockmap import ClockMap
from firmware_bridge.sequence import Position, Sequencer

log = logging.getLogger(__name__)

PING_EVERY = 1.0
MISSED_PONGS = 3

State = Literal["connecting", "refused", "welcomed", "online"]


@dataclass(frozen=True)
class Delivered:
    """An input from the console, and where its event stream stands once it is taken: hand
    ``position`` back to ``HostSession.journaled`` when the input's events are on disk."""

    input: ButtonEdge | KeyPressed
    position: Position


class HostSession:
    """One console port's conversation. ``health.counts`` keeps what was dropped, by kind."""

    def __init__(self, port: str, seats: frozenset[int], *, keys_only: bool,
                 sequencer: Sequencer | None = None):
        self.seats = seats
        self.keys_only = keys_only
        self.health = ConsoleHealth(
            port=port, seats=sorted(seats), online=False, refused=None, firmware=None,
            unique_id=None, boot_id=None, rtt_ms=None, clock_offset_ms=None, counts={})
        self.state: State = "connecting"
        self.health_changed = False  # ``online`` or ``refused`` changed: the link tells
        self._sequencer = sequencer or Sequencer()
        self._decoder = p.Decoder()
        self._out = bytearray()
        self._lights: dict[int, Light] = {}
        self._indicators: dict[int, int] = {}
        self._clock = ClockMap()
        self._pings: dict[int, float] = {}
        self._token = 0
        self._unanswered = 0
        self._last_tick = 0.0
        self._minor = 0
        self._last_t = float("-inf")  # the host time of the last input: inputs never go back

    # ------------------------------------------------------------ the port

    def open(self, now: float) -> None:
        """The port was (re)opened: ask who is there."""
        self._decoder = p.Decoder()
        self._out.clear()
        self.state = "connecting"
        self._unanswered = 0
        self._last_tick = now
        self._send(p.T_HELLO_REQUEST)

    def close(self) -> None:
        """The port is gone (unplugged, or a write that did not go through)."""
        self._out.clear()
        self.state = "connecting"
        self._set_online(False)

    def data_to_send(self) -> bytes:
        """The bytes to write to the port now (and forget)."""
        data = bytes(self._out)
        self._out.clear()
        return data

    def next_timer(self) -> float:
        """When ``timer`` has something to do next."""
        return self._last_tick + PING_EVERY

    def timer(self, now: float) -> None:
        """Every second: HELLO_REQUEST while no HELLO came, else a PING (and offline after
        ``MISSED_PONGS`` unanswered)."""
        if now < self.next_timer():
            return
        self._last_tick = now
        if self.state == "connecting":
            self._send(p.T_HELLO_REQUEST)
        elif self.state in ("welcomed", "online"):
            self._ping(now)
            if self._unanswered > MISSED_PONGS and self.state == "online":
                log.warning("console %s: %d pings unanswered", self.health.port, MISSED_PONGS)
                self.state = "welcomed"
                self._set_online(False)

    def receive_data(self, data: bytes, now: float) -> list[Delivered]:
        """Bytes read from the port at ``now``: the inputs they carry, in order."""
        before = dict(self._decoder.counts)
        delivered = []
        for frame in self._decoder.feed(data):
            got = self._handle(frame, now)
            if got is not None:
                delivered.append(got)
        for key, value in self._decoder.counts.items():
            if key != "frames" and value != before[key]:
                self._count(key, value - before[key])
        return delivered

    # ------------------------------------------------------------ the table

    def show(self, seat: int, light: Light) -> None:
        """Set a seat's public light (kept, and pushed again after every WELCOME)."""
        if seat in self.seats:
            self._lights[seat] = light
            if self._welcomed:
                self._send(p.T_LIGHT, self._light_payload(seat, light))

    def indicate(self, seat: int, pattern: int) -> None:
        """Set a seat's private indicator (kept like a light, pushed again after every
        WELCOME; the core turns it off, at ``day`` for instance)."""
        if seat in self.seats:
            self._indicators[seat] = pattern
            if self._welcomed:
                self._send(p.T_INDICATOR, p.pack_indicator(seat, pattern))

    def journaled(self, position: Position) -> None:
        """The events of the input that reached ``position`` are on disk: acknowledge it."""
        if self._sequencer.journaled(position) and self._welcomed:
            self._send(p.T_ACK)

    # ------------------------------------------------------------ the conversation

    @property
    def _welcomed(self) -> bool:
        return self.state in ("welcomed", "online")

    def _count(self, key: str, n: int = 1) -> None:
        self.health.counts[key] = self.health.counts.get(key, 0) + n

    def _send(self, type: int, payload: bytes = b"") -> None:
        self._out += p.encode_frame(type, 0, self._sequencer.ack, payload)

    def _set_online(self, online: bool) -> None:
        if self.health.online != online:
            self.health.online = online
            self.health_changed = True
            if online:
                log.info("console %s online", self.health.port)
            else:
                log.warning("console %s offline", self.health.port)

    def _handle(self, frame: p.Frame, now: float) -> Delivered | None:
        if frame.type == p.T_HELLO:
            self._hello(frame, now)
            return None
        if not self._welcomed:
            if frame.type == p.T_EVENT:
                self._count("before_welcome")  # sent again after WELCOME
            return None
        self._unanswered = 0  # any frame of the welcomed boot: the console is alive
        if self.state == "welcomed":
            self.state = "online"
            self._set_online(True)
        if frame.type == p.T_PONG:
            self._pong(frame, now)
        elif frame.type == p.T_EVENT and not self._clock.ready:
            # sent before the console had our WELCOME (it may follow its HELLO at once): no
            # clock to time it with yet; it comes again right after the PONG to our first PING
            self._count("before_welcome")
        elif frame.type == p.T_EVENT:
            return self._event(frame, now)
        else:
            self._count("unknown_type")
        return None

    def _ping(self, now: float) -> None:
        self._token = (self._token + 1) & 0xFFFFFFFF
        self._pings = {self._token: now}  # an older PING's PONG is not a sample
        self._unanswered += 1
        self._send(p.T_PING, p.pack_ping(self._token))

    def _pong(self, frame: p.Frame, now: float) -> None:
        try:
            token, t_ms = p.unpack_pong(frame.payload)
        except ValueError:
            self._count("bad_pong")
            return
        sent = self._pings.pop(token, None)
        if sent is None:
            return
        self._clock.add(sent, now, t_ms)
        self.health.rtt_ms = round((self._clock.best_rtt or 0) * 1000, 3)
        self.health.clock_offset_ms = self._clock.offset_ms

    def _hello(self, frame: p.Frame, now: float) -> None:
        try:
            hello = p.unpack_hello(frame.payload)
        except ValueError as exc:
            self._count("bad_hello")
            log.warning("console %s: bad HELLO (%s)", self.health.port, exc)
            return
        version = f"{hello['major']}.{hello['minor']}"
        if hello["major"] != p.PROTO_MAJOR:
            refused = (f"protocol {version}; this controller speaks "
                       f"{p.PROTO_MAJOR}.x: update the console firmware")
            self.state = "refused"
            if refused != self.health.refused:  # it says HELLO every second: tell once
                self.health.refused = refused
                self.health_changed = True
                log.error("console %s refused: %s", self.health.port, refused)
            return
        if self.health.refused is not None:
            self.health.refused = None
            self.health_changed = True
        self._minor = hello["minor"]
        known = self.health.boot_id == hello["boot_id"] and self._welcomed
        if self.health.boot_id != hello["boot_id"]:
            self._clock = ClockMap()  # another boot: another clock
            self.health.rtt_ms = self.health.clock_offset_ms = None
        self._sequencer.hello(hello["unique_id"], hello["boot_id"], hello["first_seq"])
        if set(hello["seats"]) != set(self.seats) and not known:
            log.warning("console %s says it serves seats %s; the config gives it %s",
                        self.health.port, sorted(hello["seats"]), sorted(self.seats))
        # PING before WELCOME: the console answers it before it resends its buffered events
        # (the line is first-in first-out), so they find a clock sample to be mapped with
        self._ping(now)
        if not self._welcomed:
            self.state = "welcomed"
        self._send(p.T_WELCOME, p.pack_welcome(hello["boot_id"]))
        for seat, light in sorted(self._lights.items()):
            self._send(p.T_LIGHT, self._light_payload(seat, light))
        for seat in sorted(self.seats):
            self._send(p.T_INDICATOR, p.pack_indicator(seat, self._indicators.get(seat, 0)))
        self.health.firmware = ".".join(map(str, hello["firmware"]))
        self.health.unique_id = hello["unique_id"].hex()
        self.health.boot_id = hello["boot_id"]
        (log.debug if known else log.info)(
            "console %s: firmware %s, protocol %s, id %s, boot %08x", self.health.port,
            self.health.firmware, version, self.health.unique_id, hello["boot_id"])

    def _event(self, frame: p.Frame, now: float) -> Delivered | None:
        try:
            seat, kind, value, t_ms = p.unpack_event(frame.payload)
        except ValueError:
            # a damaged frame that passed the CRC (a flipped delimiter adds a byte the CRC
            # cannot see, docs/protocol.md): not accepted, not acknowledged, so it comes again
            self._count("bad_event")
            return None
        verdict, position = self._sequencer.offer(frame.seq)
        if verdict == "gap":
            self._count("out_of_order")
            return None
        if verdict == "duplicate":
            self._count("duplicates")
            self._send(p.T_ACK)
            return None
        assert position is not None
        inp = self._input(seat, kind, value, t_ms, now)
        if inp is None:  # nothing for the table: nothing to journal
            if self._sequencer.needs_no_journal(position) and self._welcomed:
                self._send(p.T_ACK)
            return None
        return Delivered(inp, position)

    def _input(self, seat: int, kind: int, value: int, t_ms: int, now: float) \
            -> ButtonEdge | KeyPressed | None:
        if seat not in self.seats:
            self._count("foreign_seat")
            log.warning("console %s: event for seat %d, which is not its own; dropped",
                        self.health.port, seat)
            return None
        t = self._clock.to_host(t_ms)
        # a better clock sample between two events can map the later one earlier; the loop
        # applies a batch in time order, so it would journal (and acknowledge) the later
        # position first, and the ack, cumulative, would cover an event not on disk yet
        t = self._last_t = max(now if t is None else t, self._last_t)
        if kind == p.EV_KEY and value in p.KEYS:
            return KeyPressed(seat, cast(Key, chr(value)), t)
        if kind in (p.EV_BUTTON_DOWN, p.EV_BUTTON_UP) and not self.keys_only:
            return ButtonEdge(SeatButton(seat), kind == p.EV_BUTTON_DOWN, t, "console")
        self._count("ignored_event")
        return None

    def _light_payload(self, seat: int, light: Light) -> bytes:
        rgb = tuple(round(c * 255) for c in light.rgb())
        mode = p.LIGHT_MODES.index(light.mode.value)
        if mode == 4 and self._minor < 1:
            mode = 3  # a 1.0 console has no fast blink: plain blink
        return p.pack_light(seat, mode, rgb)
