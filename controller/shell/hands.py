"""The simulated hand: presses and keys for ``--sim``, the virtual table and the tests.

A button can sit on a GPIO pin, on an MCP23017 expander or on a console; each of those parts,
when simulated, can be pressed like a hand would (``Hand``: ``has_button``, ``drive``): gpiozero's
mock pin moves, the fake expander's input level changes, the emulated console's button goes
down. ``HANDS`` names where a hand reaches, in the order it looks; ``SimulatedHand`` presses a
button on the first part that has it, and types on the emulated consoles' keypads. The service's
``DrivePin`` and ``TypeKeys`` effects (``sim/press``, ``sim/key``) and the virtual table's clicks
go through the one ``SimulatedHand`` of the service, so the controller cannot tell them apart
from a person at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from contract.buttons import Button
from controller.shell.wiring import Devices


class Hand(Protocol):
    def has_button(self, button: Button) -> bool: ...

    def drive(self, button: Button, pressed: bool) -> None: ...


#: where a hand reaches -> the part there (None: not opened, or not on this table)
HANDS: dict[str, Callable[[Devices], Hand | None]] = {
    "gpio": lambda devices: devices.gpio,
    "expanders": lambda devices: devices.expanders,
    "consoles": lambda devices: devices.ports,
}


class SimulatedHand:
    """Presses and types on the parts of ``devices`` (looked up at each press: they open and
    close with the service)."""

    def __init__(self, devices: Devices):
        self._devices = devices

    def press(self, button: Button, pressed: bool) -> None:
        """Press (or release) ``button``; a button no simulated part has is left alone."""
        for reach in HANDS.values():
            part = reach(self._devices)
            if part is not None and part.has_button(button):
                part.drive(button, pressed)
                return

    def type(self, seat: int, keys: str) -> None:
        """Type ``keys`` on seat ``seat``'s keypad (an emulated console's)."""
        self._devices.ports.type(seat, keys)
