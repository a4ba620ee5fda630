"""What a seat light shows, as a value, and what shows it.

A light has a mode (``off``, ``on``, ``dim``, ``blink``, ``fast_blink``) and an optional colour
for RGB seats.
A single-colour LED shows the mode and ignores the colour; the colour is still kept in the table
state so a console with an RGB light (or a hall display) can show it. How each mode looks over
time is ``light_timing``.

``SeatLights`` is what every seat-light backend offers (the GPIO LEDs, the LED strip, the
consoles' RGB LEDs), so the shell shows a light on each alike and none of them knows another.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

import msgspec


class LightMode(StrEnum):
    """In the order the modes are numbered (``number``): by ``light_timing`` and on the
    consoles' wire (``firmware_bridge.protocol.LIGHT_MODES``)."""

    OFF = "off"
    ON = "on"
    DIM = "dim"
    BLINK = "blink"
    FAST_BLINK = "fast_blink"

    @property
    def number(self) -> int:
        """0 off, 1 on, 2 dim, 3 blink, 4 fast blink."""
        return _NUMBERS[self]


_NUMBERS = {mode: number for number, mode in enumerate(LightMode)}


class Light(msgspec.Struct, frozen=True):
    """One seat light's wanted look. ``color`` is ``#rrggbb`` (lower case) or ``None`` (white)."""

    mode: LightMode = LightMode.OFF
    color: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        return {"mode": self.mode.value, "color": self.color}

    def rgb(self) -> tuple[float, float, float]:
        """The colour as 0..1 floats for an RGB LED; white when no colour was asked for."""
        if self.color is None:
            return (1.0, 1.0, 1.0)
        return tuple(int(self.color[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


LIGHT_OFF = Light()

#: what a light puts out this instant: red, green, blue in 0..1 (a single LED is white)
Glow = tuple[float, float, float]


class SeatLights(Protocol):
    """A seat-light backend. ``show``: seat ``seat`` shows ``light`` from now on (a seat the
    backend does not light is skipped). ``glow``: what it puts out this instant, read back from
    what reached the hardware (None: not lit by it, or no way to read back). ``close``: every
    light it drives goes off."""

    def show(self, seat: int, light: Light) -> None: ...

    def glow(self, seat: int) -> Glow | None: ...

    def close(self) -> None: ...
