"""What a seat light shows, as a value.

A light has a mode (``off``, ``on``, ``dim``, ``blink``, ``fast_blink``) and an optional colour
for RGB seats.
A single-colour LED shows the mode and ignores the colour; the colour is still kept in the table
state so a console with an RGB light (or a hall display) can show it.
"""

from __future__ import annotations

from enum import StrEnum

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
