"""The consoles' public lights as one seat-light backend (``contract.lights.SeatLights``).

Each console's RGB LED is set through its link (``firmware_bridge.link.ConsoleLink``), which
sends LIGHT to the console; the console times blinks itself (``contract.light_timing``). What
a light puts out can only be read back from emulated consoles (``firmware_bridge.ports``).
"""

from __future__ import annotations

from collections.abc import Callable

from contract.lights import LIGHT_OFF, Glow, Light
from firmware_bridge.link import ConsoleLink


class ConsoleLights:
    """The consoles' public lights: ``show`` goes to the link of each console (a link skips a
    seat it does not serve); ``glow`` is the port backend's read-back (emulated consoles only).
    ``close`` tells every console's lights off; the links themselves stop later."""

    def __init__(self, links: list[ConsoleLink], readback: Callable[[int], Glow | None]):
        self._links = links
        self._readback = readback

    def show(self, seat: int, light: Light) -> None:
        for link in self._links:
            link.show(seat, light)

    def glow(self, seat: int) -> Glow | None:
        return self._readback(seat)

    def close(self) -> None:
        for link in self._links:
            for seat in link.seats:
                link.show(seat, LIGHT_OFF)
