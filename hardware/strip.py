"""Seat lights on an addressable LED strip: a lights backend beside the GPIO one.

The strip shows what GPIO lights show, timed the same way: ``frame`` turns each seat's light
and the moment it was set into pixels with the consoles' own rule (``hardware.blinking.level``),
so a blink starts lit and keeps its phase from when it was set. ``next_change`` says when the
picture changes next; a thread sleeps until then (or until ``show``), encodes the frame
(``hardware.ws2812``) and writes it to an ``SpiDevice``: ``SpidevPort`` on a Pi
(``/dev/spidev0.N``, no root for members of the ``spi`` group), ``RecordingSpi`` in the
simulator and the tests, which keeps the frames so the virtual table and the tests read the
lights back from the bytes that went out.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable, Mapping
from typing import Annotated, Literal, Protocol

import msgspec

from contract.lights import Light
from hardware import is_worth_telling, ws2812
from hardware.blinking import Shown, level, next_change
from kit.config import Section

log = logging.getLogger(__name__)

#: a frame whose SPI write failed is written again this soon, change or not: a steady picture
#: (a whole day phase) must not stay wrong on the strip until the next light changes
RETRY_SECONDS = 1.0


class StripSeat(Section):
    """The LEDs of the strip that are one seat's light: ``count`` of them from ``first``
    (LED 0 is the one nearest the Pi)."""

    seat: int
    first: Annotated[int, msgspec.Meta(ge=0, le=1023)]
    count: Annotated[int, msgspec.Meta(ge=1, le=16)] = 3


class StripConfig(Section):
    """Seat lights on one addressable LED strip (``[strip]``), fed by SPI0's MOSI (GPIO 10)
    through a 5 V level shifter; see docs/hardware.md."""

    chip: ws2812.Chip = "ws2812b"
    order: Literal["GRB", "RGB", "GRBW", "RGBW"] = "GRB"
    spi_device: Literal[0, 1] = 0  # /dev/spidev0.N: the chip select the SPI driver claims
    brightness: Annotated[float, msgspec.Meta(gt=0, le=1)] = 0.5  # the cap on every channel
    supply_amps: Annotated[float, msgspec.Meta(gt=0, le=60)] | None = None  # the 5 V supply
    seat: list[StripSeat] = msgspec.field(default_factory=list)


#: BCM pins the strip's SPI0 takes, by ``spi_device`` (the chip select the driver claims)
STRIP_PINS = {device: [(10, "data"), (11, "sclk"), (9, "miso"), (8 - device, f"ce{device}")]
              for device in (0, 1)}


class SpiDevice(Protocol):
    """Where frames go: one ``write`` is one SPI transfer."""

    def write(self, frame: bytes) -> None: ...

    def close(self) -> None: ...


class SpidevPort:
    """``/dev/spidevB.D`` through the ``spidev`` module: the thin adapter on a Pi."""

    def __init__(self, bus: int, device: int, hz: int):
        try:
            import spidev
        except ImportError as exc:
            raise RuntimeError("the strip needs the spidev module: `apt install python3-spidev` "
                               "or `pip install 'mafia-table[pi]'`") from exc
        self._spi = spidev.SpiDev()
        try:
            self._spi.open(bus, device)
        except OSError as exc:  # no such device, or not in the spi group
            raise RuntimeError(f"the strip cannot open /dev/spidev{bus}.{device} ({exc}): "
                               "dtparam=spi=on in /boot/firmware/config.txt, and the service's "
                               "user in the spi group (docs/hardware.md)") from exc
        self._spi.mode = 0
        self._spi.max_speed_hz = hz

    def write(self, frame: bytes) -> None:
        self._spi.writebytes2(frame)

    def close(self) -> None:
        self._spi.close()


class RecordingSpi:
    """An SPI device that keeps what was written: the last ``keep`` frames with their time."""

    def __init__(self, keep: int = 512):
        self.frames: collections.deque[tuple[float, bytes]] = collections.deque(maxlen=keep)
        self.changed = threading.Condition()
        self.closed = False

    def write(self, frame: bytes) -> None:
        with self.changed:
            self.frames.append((time.monotonic(), bytes(frame)))
            self.changed.notify_all()

    def last(self) -> bytes | None:
        with self.changed:
            return self.frames[-1][1] if self.frames else None

    def close(self) -> None:
        self.closed = True


def frame(shown: Shown, seat_leds: Mapping[int, range], leds: int, brightness: float,
          now: float) -> list[tuple[int, int, int]]:
    """Every pixel of the strip at ``now``: each seat's LEDs in its light's colour at its level,
    capped at ``brightness``; LEDs of no seat (and seats never shown) dark."""
    pixels = [(0, 0, 0)] * leds
    for seat, (light, since) in shown.items():
        scale = 255 * brightness * level(light, since, now)
        pixel = tuple(round(c * scale) for c in light.rgb())
        for led in seat_leds.get(seat, ()):
            pixels[led] = pixel  # type: ignore[assignment]
    return pixels


class StripLights:
    """The seats' lights on one strip, from the config's ``[strip]``; ``show`` and ``glow``
    as on ``GpioBoard``."""

    def __init__(self, strip: StripConfig, device: SpiDevice, *, now: Callable[[], float],
                 backend: str = "mock", on_error: Callable[[], None] = lambda: None):
        self._device = device
        self._now = now
        self._backend = backend
        self._on_error = on_error
        self.errors = 0
        self._order = strip.order
        self._encoding = ws2812.ENCODINGS[strip.chip]
        self._brightness = strip.brightness
        self._seat_leds = {s.seat: range(s.first, s.first + s.count) for s in strip.seat}
        self._leds = max((r.stop for r in self._seat_leds.values()), default=0)
        self._shown: dict[int, tuple[Light, float]] = {}
        self._written: bytes | None = None
        self._decoded: tuple[bytes, list[tuple[int, ...]]] | None = None
        self._wake = threading.Condition()
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="strip", daemon=True)
        self._thread.start()

    def show(self, seat: int, light: Light) -> None:
        """Make seat ``seat``'s LEDs show ``light`` from now (a seat with none is skipped)."""
        if seat not in self._seat_leds:
            return
        with self._wake:
            self._shown[seat] = (light, self._now())
            self._wake.notify()

    def glow(self, seat: int) -> tuple[float, float, float] | None:
        """What seat ``seat``'s LEDs put out now as red, green, blue in 0..1 of the brightness
        cap, decoded from the last frame written; None for a seat with no LEDs."""
        leds = self._seat_leds.get(seat)
        if leds is None:
            return None
        pixels = self._latched()
        if pixels is None:
            return (0.0, 0.0, 0.0)
        rgb = [ws2812.to_rgb(pixels[led], self._order) for led in leds]
        full = max(1, round(255 * self._brightness))  # what "on" at the cap is sent as
        return tuple(min(1.0, sum(p[c] for p in rgb) / len(rgb) / full)  # type: ignore[return-value]
                     for c in range(3))

    def _latched(self) -> list[tuple[int, ...]] | None:
        """The pixels of the last frame written, decoded once per frame (the virtual table asks
        for every seat's glow many times a second)."""
        written = self._written
        if written is None:
            return None
        cached = self._decoded
        if cached is None or cached[0] is not written:
            cached = (written, ws2812.decode_frame(written, self._order, self._encoding))
            self._decoded = cached
        return cached[1]

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._closing:
                    return
                now = self._now()
                shown = dict(self._shown)
            written = self._write(frame(shown, self._seat_leds, self._leds, self._brightness,
                                        now))
            with self._wake:
                if self._closing:
                    return
                due = next_change(self._shown, now)
                if not written:
                    due = min(due if due is not None else float("inf"), now + RETRY_SECONDS)
                if self._shown == shown:  # nothing set while we wrote
                    self._wake.wait(None if due is None else max(0.0, due - self._now()))

    def _write(self, pixels: list[tuple[int, int, int]]) -> bool:
        """Send the frame of ``pixels`` unless it is the one last sent; False if it failed."""
        data = ws2812.encode_frame(pixels, self._order, self._encoding)
        if data == self._written:
            return True
        try:
            self._device.write(data)
        except OSError as exc:
            self.errors += 1
            if is_worth_telling(self.errors):
                log.error("strip: SPI write failed (%s), %d failures so far; tried again in "
                          "%g s or at the next change", exc, self.errors, RETRY_SECONDS)
                self._on_error()
            return False
        self._written = data
        return True

    def close(self) -> None:
        """Turn every LED off, stop the thread, release the SPI device."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(5)
        try:
            self._write([(0, 0, 0)] * self._leds)
        finally:
            self._device.close()

    def health(self) -> dict[str, object]:
        """``health.strip``."""
        return {"backend": self._backend, "leds": self._leds, "write_errors": self.errors}

    def describe(self) -> str:
        return (f"strip: {len(self._seat_leds)} seats on {self._leds} LEDs, "
                f"{type(self._device).__name__}")


#: ``backends.spi`` -> the strip's SPI device: ``spidev`` (SPI0, a Pi) or ``mock`` (recorded)
SPI_DEVICES: dict[str, Callable[[StripConfig], SpiDevice]] = {
    "spidev": lambda strip: SpidevPort(0, strip.spi_device, ws2812.ENCODINGS[strip.chip].spi_hz),
    "mock": lambda strip: RecordingSpi(),
}


def open_strip(strip: StripConfig, backend: str, *, now: Callable[[], float],
               on_error: Callable[[], None] = lambda: None) -> StripLights:
    """The strip on ``backend`` (a name in ``SPI_DEVICES``); ``on_error`` hears of the 1st,
    2nd, 4th... failed write."""
    device = SPI_DEVICES[backend](strip)
    return StripLights(strip, device, now=now, backend=backend, on_error=on_error)
