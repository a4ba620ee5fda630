"""Vote and judge buttons on MCP23017 expanders: more seats than the Pi has pins.

Every chip's INT output (mirrored, open drain: ``mcp23017.setup_writes``) hangs on one Pi GPIO
with a pull-up. That pin is read like a button (``gpio.EdgeButton``), so the moment INT falls
comes with the pin factory's edge ticks, exactly as a GPIO button's press does. On that edge
each chip is read once (``INTF``, ``INTCAP``, ``GPIO``: six bytes from ``INTFA``) and
``mcp23017.decode`` says what changed: a change the chip captured gets the edge's time, one it
only shows in ``GPIO`` (it came while INT was held) gets the read's time. What that costs is in
docs/hardware.md ("What the interrupt path costs").

The bus is anything with smbus2's ``read_i2c_block_data`` and ``write_byte_data``: an
``smbus2.SMBus`` on a Pi, ``FakeExpanderBus`` (the chips' register model, driving the INT line's
gpiozero mock pin) in the simulator and the tests.
"""

from __future__ import annotations

import errno
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Annotated, Protocol

import msgspec
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockPin

from contract.buttons import JUDGE_BUTTON_NAMES, Button, JudgeButton, SeatButton
from contract.inputs import ButtonEdge
from hardware import is_worth_telling, mcp23017
from hardware.gpio import EdgeButton
from hardware.header import Pin
from kit.config import Section

log = logging.getLogger(__name__)

#: reads after one edge while INT stays low (a change during the read re-asserts it)
MAX_READS_PER_EDGE = 4
#: how often the INT line is looked at without an edge: a read that failed leaves the interrupt
#: uncleared, and a line that stays low brings no new edge
STUCK_CHECK_SECONDS = 0.5


#: an MCP23017 pin: 0..7 are GPA0..GPA7, 8..15 are GPB0..GPB7 (7 and 15 are output only:
#: the config check refuses a button there)
ExpanderInput = Annotated[int, msgspec.Meta(ge=0, le=15)]


class ExpanderJudge(Section):
    """Judge buttons on an expander's inputs."""

    confirm: ExpanderInput | None = None
    reject: ExpanderInput | None = None
    next: ExpanderInput | None = None


class ExpanderChip(Section):
    """One MCP23017: its I2C address (A2..A0 strapped: 0x20..0x27), the seats whose vote
    buttons are on its inputs in order (GPA0 ... GPA6, GPB0 ... GPB6: GPA7 and GPB7 are output
    only, ``mcp23017.BUTTON_INPUTS``), and judge buttons."""

    address: Annotated[int, msgspec.Meta(ge=0x20, le=0x27)]
    seats: Annotated[list[int], msgspec.Meta(max_length=16)] = msgspec.field(
        default_factory=list)  # at most 14: the config check says why
    judge: ExpanderJudge = msgspec.field(default_factory=ExpanderJudge)

    def buttons(self) -> dict[int, Button]:
        """Input (0..15) -> the button wired to it: the seats in order, then the judge's."""
        found: dict[int, Button] = {  # (the config check refuses a 15th seat)
            pin: SeatButton(seat)
            for pin, seat in zip(mcp23017.BUTTON_INPUTS, self.seats, strict=False)}
        for name in JUDGE_BUTTON_NAMES:
            pin = getattr(self.judge, name)
            if pin is not None:
                found[pin] = JudgeButton(name)
        return found


class ExpanderConfig(Section):
    """Buttons on MCP23017 I2C expanders (``[expanders]``): I2C1 (GPIO 2, 3) and one shared
    interrupt line (every chip's INTA, open drain, wired together) on ``interrupt``."""

    interrupt: Pin
    chip: Annotated[list[ExpanderChip], msgspec.Meta(min_length=1, max_length=8)]
    i2c_bus: Annotated[int, msgspec.Meta(ge=0, le=20)] = 1


class I2cBus(Protocol):
    """The part of smbus2's ``SMBus`` the expanders use."""

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]: ...

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None: ...


class FakeExpanderBus:
    """An I2C bus with ``FakeMcp23017`` chips on it and their shared INT line on a gpiozero
    mock pin (low while any chip interrupts). ``set_level`` is a hand on an input."""

    def __init__(self, addresses: Iterable[int], interrupt: MockPin | None = None):
        self.chips = {address: mcp23017.FakeMcp23017() for address in addresses}
        self.interrupt = interrupt
        # the chips' state; the INT pin is moved after it is released, because moving it runs
        # the pin's callback, which reads this bus (and may wait for the reader's own lock)
        self._lock = threading.Lock()

    def _chip(self, address: int) -> mcp23017.FakeMcp23017:
        try:
            return self.chips[address]
        except KeyError:  # what smbus2 raises when nothing acknowledges the address
            raise OSError(errno.EREMOTEIO, "Remote I/O error") from None

    def write_byte_data(self, i2c_addr: int, register: int, value: int) -> None:
        with self._lock:
            self._chip(i2c_addr).write(register, value)
        self._update_interrupt()

    def read_i2c_block_data(self, i2c_addr: int, register: int, length: int) -> list[int]:
        with self._lock:
            data = list(self._chip(i2c_addr).read(register, length))
        self._update_interrupt()
        return data

    def set_level(self, address: int, index: int, level: bool) -> None:
        with self._lock:
            self._chip(address).set_level(index, level)
        self._update_interrupt()

    def _update_interrupt(self) -> None:
        if self.interrupt is None:
            return
        with self._lock:
            low = any(chip.interrupting for chip in self.chips.values())
        if low:
            self.interrupt.drive_low()
        else:
            self.interrupt.drive_high()


def open_bus(backend: str, config: ExpanderConfig, factory: Factory) -> I2cBus:
    """The expanders' bus on ``backend`` (a name in ``I2C_BUSES``)."""
    return I2C_BUSES[backend](config, factory)


def _fake_bus(config: ExpanderConfig, factory: Factory) -> I2cBus:
    pin = factory.pin(config.interrupt)
    return FakeExpanderBus([chip.address for chip in config.chip],
                           pin if isinstance(pin, MockPin) else None)


def _smbus2(config: ExpanderConfig, factory: Factory) -> I2cBus:
    try:
        from smbus2 import SMBus
    except ImportError as exc:
        raise RuntimeError("the expanders need the smbus2 module: "
                           "`pip install 'mafia-table[pi]'`") from exc
    try:
        return SMBus(config.i2c_bus)
    except OSError as exc:  # no such bus, or not in the i2c group
        raise RuntimeError(f"the expanders cannot open /dev/i2c-{config.i2c_bus} ({exc}): "
                           "dtparam=i2c_arm=on in /boot/firmware/config.txt, and the service's "
                           "user in the i2c group (docs/hardware.md)") from exc


#: ``backends.i2c`` -> the expanders' bus: ``smbus2`` (``/dev/i2c-N``) or ``mock`` (fake chips
#: behind smbus2's interface, their INT on a mock pin)
I2C_BUSES: dict[str, Callable[[ExpanderConfig, Factory], I2cBus]] = {
    "smbus2": _smbus2,
    "mock": _fake_bus,
}


class ExpanderButtons:
    """The buttons of ``[expanders]``: edges go to ``submit`` as ``ButtonEdge`` inputs."""

    def __init__(self, config: ExpanderConfig, bus: I2cBus, *, factory: Factory,
                 now: Callable[[], float], submit: Callable[[ButtonEdge], object],
                 on_error: Callable[[], None] = lambda: None):
        self._bus = bus
        self._on_error = on_error
        self._now = now
        self._submit = submit
        self._lock = threading.Lock()
        self.errors = 0
        self._buttons: dict[int, dict[int, Button]] = {}
        for chip in config.chip:
            self._buttons[chip.address] = chip.buttons()
        self._where = {button: (address, index) for address, buttons in self._buttons.items()
                       for index, button in buttons.items()}
        self._levels: dict[int, int] = {}
        for address, buttons in self._buttons.items():
            try:
                for register, value in mcp23017.setup_writes(sum(1 << i for i in buttons)):
                    bus.write_byte_data(address, register, value)
                block = bytes(bus.read_i2c_block_data(address, *mcp23017.INTERRUPT_READ))
            except OSError as exc:
                raise RuntimeError(f"expander 0x{address:02x} on I2C does not answer ({exc}): "
                                   "wired to SDA/SCL, powered, address pins strapped?") from exc
            self._levels[address] = block[4] | block[5] << 8  # also clears a stale interrupt
        self._interrupt = EdgeButton(config.interrupt, pull_up=True, now=now,
                                     on_edge=self._edge, pin_factory=factory)
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._unstick, name="expanders", daemon=True)
        self._watch.start()

    def _unstick(self) -> None:
        """Read when INT has been low at two checks in a row: a line an edge's reads could not
        clear (held that long, it is no edge being handled right now)."""
        held = False
        stuck = 0  # reads the check made: told at the 1st, 2nd, 4th... (a line shorted to
        # ground, or a chip that never answers, would otherwise log every second)
        while not self._stop.wait(STUCK_CHECK_SECONDS):
            was_held, held = held, self._interrupt.is_active
            if was_held and held:
                stuck += 1
                if is_worth_telling(stuck):
                    log.warning("expanders: INT held with no edge; reading (%d times so far)",
                                stuck)
                self._edge(True, self._now(), from_edge=False)
                held = self._interrupt.is_active

    def _edge(self, asserted: bool, t: float, from_edge: bool = True) -> None:
        """INT fell at ``t`` (host monotonic, from the edge's ticks): read every chip."""
        if not asserted:
            return
        with self._lock:
            edge: float | None = t if from_edge else None
            for _ in range(MAX_READS_PER_EDGE):
                for address in self._buttons:
                    self._read(address, edge)
                edge = None  # a later round's captures came after this edge
                if not self._interrupt.is_active:
                    return
            log.warning("expanders: INT still low after %d reads", MAX_READS_PER_EDGE)

    def _read(self, address: int, edge: float | None) -> None:
        try:
            block = bytes(self._bus.read_i2c_block_data(address, *mcp23017.INTERRUPT_READ))
        except OSError as exc:
            self.errors += 1
            if is_worth_telling(self.errors):
                log.warning("expander 0x%02x: read failed (%s); %d failures so far", address,
                            exc, self.errors)
                self._on_error()
            return
        read_at = self._now()
        changes, self._levels[address] = mcp23017.decode(block, self._levels[address])
        for change in changes:
            button = self._buttons[address].get(change.index)
            if button is not None:  # pressed = pulled low (GPPU pull-up, button to ground)
                at = edge if change.at_edge and edge is not None else read_at
                self._submit(ButtonEdge(button, not change.level, at))

    def has_button(self, button: Button) -> bool:
        return button in self._where

    def drive(self, button: Button, pressed: bool) -> None:
        """Simulation only: press or release a button on a fake expander."""
        if not isinstance(self._bus, FakeExpanderBus):
            raise RuntimeError(f"{button} is on a real expander; only fake ones can be driven")
        address, index = self._where[button]
        self._bus.set_level(address, index, not pressed)

    def close(self) -> None:
        self._stop.set()
        self._watch.join(5)
        self._interrupt.close()
        close = getattr(self._bus, "close", None)
        if close is not None:
            close()

    def health(self) -> dict[str, object]:
        """``health.expanders``."""
        return {"backend": "mock" if isinstance(self._bus, FakeExpanderBus) else "smbus2",
                "chips": list(self._buttons), "read_errors": self.errors}

    def describe(self) -> str:
        return (f"{len(self._where)} buttons on {len(self._buttons)} expanders "
                f"({type(self._bus).__name__})")
