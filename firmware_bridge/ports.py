"""Where each ``[[console]]``'s link connects: one registry of port backends.

``backends.consoles`` names one: ``serial`` (the port in the config, a real console on USB) or
``emulated`` (``--sim``: an emulated console running the real firmware logic on a pty, from
``firmware_bridge.emulator``, imported only then). A backend gives the link its ``port``, starts
and closes what sits behind it, and, when it is simulated, lets a hand reach the consoles
(``has_button``, ``drive``, ``type``) and the lights be read back (``glow``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from contract.buttons import Button
from firmware_bridge.link import ConsoleConfig

if TYPE_CHECKING:
    from firmware_bridge.emulator import EmulatedConsole


class ConsolePorts(Protocol):
    """A port backend. ``emulators``: the emulated console of each seat (none on ``serial``)."""

    emulators: dict[int, EmulatedConsole]

    def port(self, index: int, console: ConsoleConfig) -> str: ...

    def start(self) -> None: ...

    def close(self) -> None: ...

    def glow(self, seat: int) -> tuple[float, float, float] | None: ...

    def has_button(self, button: Button) -> bool: ...

    def drive(self, button: Button, pressed: bool) -> None: ...

    def type(self, seat: int, keys: str) -> None: ...


class SerialPorts:
    """Real consoles: the configured port; nothing to start, read back or press."""

    def __init__(self) -> None:
        self.emulators: dict[int, EmulatedConsole] = {}

    def port(self, index: int, console: ConsoleConfig) -> str:
        return console.port

    def start(self) -> None:
        pass

    def close(self) -> None:
        pass

    def glow(self, seat: int) -> tuple[float, float, float] | None:
        return None

    def has_button(self, button: Button) -> bool:
        return False

    def drive(self, button: Button, pressed: bool) -> None:
        raise RuntimeError(f"{button} is on a real console; only emulated ones can be pressed")

    def type(self, seat: int, keys: str) -> None:
        raise RuntimeError(f"seat {seat}'s keypad is on a real console; only emulated ones type")


def _emulated() -> ConsolePorts:
    from firmware_bridge.emulator import EmulatedConsoles

    return EmulatedConsoles()


#: ``backends.consoles`` -> the port backend's factory
CONSOLE_PORTS: dict[str, Callable[[], ConsolePorts]] = {
    "serial": SerialPorts,
    "emulated": _emulated,
}
