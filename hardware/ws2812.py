"""WS2812B / SK6812 pixels as SPI bytes: sans-I/O, colours in, bytes out (and back, for tests).

An addressable LED reads one wire: every data bit is a high pulse then a low one, and the length
of the high pulse says 0 or 1. The Pi has no such peripheral, but its SPI MOSI line is a clocked
bit stream: sent at a known SPI clock, each LED bit becomes a few SPI bits (``100`` for 0, ``110``
for 1 at 2.4 MHz), so the kernel's SPI driver makes the pulses, with no root and no PWM/DMA
tricks, on the Pi 4 and the Pi 5 alike.

The timing each chip accepts, from its datasheet (high time, low time of each code; a frame is
latched when the line stays low for the reset time):

=========================== ========= ========= ========= ========= ========================
chip                        T0H       T0L       T1H       T1L       reset (latch)
=========================== ========= ========= ========= ========= ========================
WS2812B (Worldsemi, to V4)  0.40 us   0.85 us   0.80 us   0.45 us   >= 50 us
                            (all +-150 ns)
WS2812B-V5 (Worldsemi)      0.22-0.38 0.58-1.00 0.58-1.00 0.58-1.00 >= 280 us
SK6812 / SK6812 RGBW        0.30 us   0.90 us   0.60 us   0.60 us   >= 80 us
                            (all +-150 ns)
=========================== ========= ========= ========= ========= ========================

No single SPI encoding meets all three (the older WS2812B's 1 needs >= 650 ns high, the
SK6812's <= 750 ns with its 0 below 450 ns; the V5 wants a 0 under 380 ns high and a 1 low for
>= 580 ns, which the older WS2812B's 3-bit code misses), so each chip has its own ``Encoding``:
WS2812B 3 SPI bits per LED bit at 2.4 MHz, WS2812B-V5 and SK6812 4 at 3.2 MHz.
``Encoding.clock_range`` is the SPI clock band over which every pulse stays inside the
datasheet's window: the Pi's SPI clock is its core clock over an even divider, so the clock a
driver gets is near, not at, the one asked for. A frame begins and ends with ``RESET_US`` of
zero bytes (320 us: past every chip's latch, the V5's 280 us too, even at the fastest clock of
its band), so it latches whatever came before it on the wire, and MOSI rests low between
frames.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Chip = Literal["ws2812b", "ws2812b_v5", "sk6812", "sk6812_rgbw"]
ColourOrder = Literal["GRB", "RGB", "GRBW", "RGBW"]

RESET_US = 320.0
#: one spidev transfer holds at most this many bytes (the spidev module's default ``bufsiz``);
#: a longer frame would be split, and a gap between transfers could latch half a frame
SPIDEV_BUFSIZ = 4096


#: the shortest and the longest time (ns) a datasheet allows for one part of a code
Window = tuple[float, float]


@dataclass(frozen=True)
class Timing:
    """A chip's datasheet timing, in nanoseconds: the window of each code's high and low time."""

    t0h: Window
    t0l: Window
    t1h: Window
    t1l: Window
    reset: float  # the shortest low time that latches a frame

    @classmethod
    def nominal(cls, t0h: float, t0l: float, t1h: float, t1l: float, tolerance: float,
                reset: float) -> Timing:
        """A datasheet that gives each time as a value +- one tolerance."""
        def span(t: float) -> tuple[float, float]:
            return t - tolerance, t + tolerance

        return cls(span(t0h), span(t0l), span(t1h), span(t1l), reset=reset)

    def accepts(self, high: float, low: float, bit: int) -> bool:
        """Whether a pulse of ``high`` then ``low`` ns reads as ``bit`` on this chip."""
        (high_min, high_max), (low_min, low_max) = ((self.t1h, self.t1l) if bit
                                                    else (self.t0h, self.t0l))
        return high_min <= high <= high_max and low_min <= low <= low_max


WS2812B = Timing.nominal(t0h=400, t0l=850, t1h=800, t1l=450, tolerance=150, reset=50_000)
WS2812B_V5 = Timing(t0h=(220, 380), t0l=(580, 1000), t1h=(580, 1000), t1l=(580, 1000),
                    reset=280_000)
SK6812 = Timing.nominal(t0h=300, t0l=900, t1h=600, t1l=600, tolerance=150, reset=80_000)


@dataclass(frozen=True)
class Encoding:
    """How one LED bit becomes SPI bits: ``zero`` and ``one`` are MSB-first patterns of
    ``width`` bits (a run of 1s, then 0s), sent at ``spi_hz``."""

    timing: Timing
    spi_hz: int
    width: int
    zero: int
    one: int

    def pulse(self, bit: int, spi_hz: float | None = None) -> tuple[float, float]:
        """(high, low) ns that ``bit`` puts on the wire at ``spi_hz`` (default: the nominal)."""
        pattern = self.one if bit else self.zero
        highs = bin(pattern).count("1")
        period = 1e9 / (spi_hz or self.spi_hz)
        return highs * period, (self.width - highs) * period

    def clock_range(self) -> tuple[float, float]:
        """The SPI clocks (Hz) at which both codes stay within the datasheet's windows."""
        low, high = 0.0, float("inf")
        t = self.timing
        for pattern, (want_high, want_low) in ((self.zero, (t.t0h, t.t0l)),
                                               (self.one, (t.t1h, t.t1l))):
            highs = bin(pattern).count("1")
            for bits, (shortest, longest) in ((highs, want_high), (self.width - highs, want_low)):
                # bits * 1e9 / f must lie in [shortest, longest]
                low = max(low, bits * 1e9 / longest)
                high = min(high, bits * 1e9 / shortest)
        return low, high

    def reset_bytes(self) -> int:
        """Zero bytes that keep the line low for ``RESET_US``."""
        return -(-round(RESET_US * self.spi_hz / 1e6) // 8)


ENCODINGS: dict[str, Encoding] = {
    "ws2812b": Encoding(WS2812B, spi_hz=2_400_000, width=3, zero=0b100, one=0b110),
    "ws2812b_v5": Encoding(WS2812B_V5, spi_hz=3_200_000, width=4, zero=0b1000, one=0b1100),
    "sk6812": Encoding(SK6812, spi_hz=3_200_000, width=4, zero=0b1000, one=0b1100),
    "sk6812_rgbw": Encoding(SK6812, spi_hz=3_200_000, width=4, zero=0b1000, one=0b1100),
}


def channels(order: ColourOrder) -> int:
    return len(order)


def pixel_bytes(rgb: tuple[int, int, int], order: ColourOrder) -> bytes:
    """One pixel's channel bytes in the strip's order. An RGBW pixel shows the white shared by
    the three colours on its white LED (``w = min(r, g, b)``, taken out of each)."""
    r, g, b = rgb
    values = {"R": r, "G": g, "B": b, "W": 0}
    if "W" in order:
        w = min(r, g, b)
        values = {"R": r - w, "G": g - w, "B": b - w, "W": w}
    return bytes(values[c] for c in order)


def _encode_byte(byte: int, encoding: Encoding) -> bytes:
    """One data byte (MSB first, as the chips read it) as ``encoding``'s SPI patterns: 8 LED bits
    are 24 or 32 SPI bits, whole bytes."""
    acc = 0
    for i in range(7, -1, -1):
        acc = (acc << encoding.width) | (encoding.one if byte >> i & 1 else encoding.zero)
    return acc.to_bytes(encoding.width, "big")


@functools.cache
def _byte_table(encoding: Encoding) -> tuple[bytes, ...]:
    return tuple(_encode_byte(byte, encoding) for byte in range(256))


def encode_bits(data: bytes, encoding: Encoding) -> bytes:
    """Every byte of ``data`` as ``encoding``'s SPI patterns (looked up: a table of 256)."""
    table = _byte_table(encoding)
    return b"".join(table[byte] for byte in data)


def encode_frame(pixels: Sequence[tuple[int, int, int]], order: ColourOrder,
                 encoding: Encoding) -> bytes:
    """The SPI bytes that show ``pixels`` (0..255 red, green, blue; pixel 0 nearest the Pi):
    reset, every pixel's bits, reset."""
    reset = bytes(encoding.reset_bytes())
    data = b"".join(pixel_bytes(p, order) for p in pixels)
    return reset + encode_bits(data, encoding) + reset


def frame_size(leds: int, order: ColourOrder, encoding: Encoding) -> int:
    """Bytes of one SPI frame for ``leds`` pixels."""
    return 2 * encoding.reset_bytes() + leds * channels(order) * encoding.width


class DecodeError(ValueError):
    """SPI bytes that are not a frame of this encoding."""


@functools.cache
def _byte_inverse(encoding: Encoding) -> dict[bytes, int]:
    return {code: byte for byte, code in enumerate(_byte_table(encoding))}


def decode_frame(frame: bytes, order: ColourOrder, encoding: Encoding) -> list[tuple[int, ...]]:
    """What a strip of these chips would latch from ``frame``: each pixel's channel values in
    ``order``'s order (a check of ``encode_frame``, and the mock strip's read-back)."""
    reset = encoding.reset_bytes()
    if len(frame) < 2 * reset or any(frame[:reset]) or any(frame[len(frame) - reset:]):
        raise DecodeError("a frame starts and ends with its reset (zero) bytes")
    body = frame[reset:len(frame) - reset]
    if len(body) % (encoding.width * len(order)):
        raise DecodeError(f"{len(body)} SPI bytes are not whole {order} pixels")
    inverse = _byte_inverse(encoding)
    values = []
    for k in range(0, len(body), encoding.width):
        code = body[k:k + encoding.width]
        if code not in inverse:
            raise DecodeError(f"SPI bytes {code.hex()} are no byte of this encoding")
        values.append(inverse[code])
    n = len(order)
    return [tuple(values[i:i + n]) for i in range(0, len(values), n)]


def to_rgb(channel_values: tuple[int, ...], order: ColourOrder) -> tuple[int, int, int]:
    """A decoded pixel back to red, green, blue (an RGBW pixel's white added to each)."""
    named = dict(zip(order, channel_values, strict=True))
    w = named.get("W", 0)
    return named["R"] + w, named["G"] + w, named["B"] + w
