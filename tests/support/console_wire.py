"""A host session and a firmware Console talking in memory, on one fake clock.

No thread, no pty, no sleep: ``run(ms)`` advances the clock a millisecond at a time; each
millisecond the console polls its inputs, the bytes each side wrote cross the wire (through
``to_host`` / ``to_console`` filters a test may set, to lose or damage them), and the host's
timer runs. What a test asserts happened at a moment on this clock happened then, however busy
the machine is.
"""

from __future__ import annotations

from collections.abc import Callable

from contract.buttons import SeatButton
from contract.inputs import ButtonEdge
from firmware_bridge import protocol as p
from firmware_bridge.emulator import EmulatedPins
from firmware_bridge.firmware.console import Console
from firmware_bridge.sequence import Position, Sequencer
from firmware_bridge.session import Delivered, HostSession

CLOCK_OFFSET_MS = 123_456_789  # the console's clock is not the host's


class MemoryPins(EmulatedPins):
    """The emulator's pin layer, on the wire's clock, writing into a buffer."""

    def __init__(self, wire: Wire, seats: list[int]):
        super().__init__(seats)
        self.wire = wire
        self.written = bytearray()

    def ticks_ms(self) -> int:
        return (self.wire.ms + CLOCK_OFFSET_MS) & 0xFFFFFFFF

    def write(self, data: bytes) -> None:
        self.written += data


class Wire:
    """``host`` (seats ``host_seats``) and ``console`` (serving ``seats``), plugged together.

    Inputs the host delivers go to ``inputs``; with ``journal`` True they count as journaled at
    once (``journaled`` lists those positions, as the journal would hold them), else they wait
    in ``unjournaled`` for the test to decide.
    """

    def __init__(self, seats: list[int], host_seats: set[int] | None = None, *,
                 boot_id: int = 0xB007, journaled: list[Position] | None = None):
        self.ms = 1000
        self.seats = seats
        self.pins = MemoryPins(self, seats)
        self.console = Console(self.pins, b"\x01\x02\x03\x04\x05\x06\x07\x08", boot_id, seats)
        self.journaled: list[Position] = list(journaled or [])
        self.host = self.new_host(set(seats) if host_seats is None else host_seats)
        self.inputs: list[Delivered] = []
        self.unjournaled: list[Delivered] = []
        self.journal = True
        self.plugged = True
        self.to_host: Callable[[bytes], bytes] = lambda data: data
        self.to_console: Callable[[bytes], bytes] = lambda data: data
        self.host_frames: list[p.Frame] = []  # everything the host sent, decoded
        self._host_decoder = p.Decoder()

    @property
    def now(self) -> float:
        """Host time in seconds."""
        return self.ms / 1000

    def new_host(self, seats: set[int]) -> HostSession:
        """A host as a controller (re)started from the journal would make it, port open."""
        host = HostSession("memory", frozenset(seats), keys_only=False,
                           sequencer=Sequencer(self.journaled))
        host.open(self.now)
        self.host = host
        return host

    def journal_all(self) -> None:
        for got in self.unjournaled:
            self.journaled.append(got.position)
            self.host.journaled(got.position)
        self.unjournaled.clear()

    def run(self, ms: int = 1) -> None:
        for _ in range(ms):
            self.ms += 1
            self.console.poll()
            to_host = self.to_host(bytes(self.pins.written))
            self.pins.written.clear()
            if self.plugged and to_host:
                for got in self.host.receive_data(to_host, self.now):
                    self.inputs.append(got)
                    self.unjournaled.append(got)
                if self.journal:
                    self.journal_all()
            self.host.timer(self.now)
            to_console = self.host.data_to_send()
            self.host_frames += self._host_decoder.feed(to_console)
            if self.plugged and to_console:
                self.console.receive(self.to_console(to_console))

    def until(self, predicate: Callable[[], object], within_ms: int = 5000) -> int:
        """Run until ``predicate()``; returns the milliseconds it took."""
        for waited in range(within_ms):
            if predicate():
                return waited
            self.run()
        raise AssertionError(f"not within {within_ms} ms on the wire's clock")

    def press(self, seat: int, hold_ms: int = 30) -> float:
        """A fist on the button for ``hold_ms``; returns the host time the hand moved."""
        at = self.now + 0.001  # the console sees it at its next poll
        self.pins.buttons[seat] = True
        self.run(hold_ms)
        self.pins.buttons[seat] = False
        self.run(hold_ms)
        return at

    def pressed(self) -> list[tuple[int, bool, float]]:
        """(seat, down?, t) of every button input delivered so far."""
        return [(d.input.button.seat, d.input.pressed, d.input.t) for d in self.inputs
                if isinstance(d.input, ButtonEdge) and isinstance(d.input.button, SeatButton)]
