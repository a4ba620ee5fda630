"""The simulated hand: presses and keys for ``--sim``, the virtual table and the tests.

A button can sit on a GPIO pin, on an MCP23017 expander or on a console; each of those parts,
when simulated, can be pressed like a hand would (``Hand``: ``has_button``, ``drive``): gpiozero's
mock pin moves, the fake expander's input level changes, the emulated console's button goes
down. ``HANDS`` names where a hand reaches, in the order it looks; ``SimulatedHand`` presses a
button on the first part that has it, and types on the emulated consoles' keypads. The service's
``DrivePin`` and ``TypeKeys`` effects (``sim/press``, ``sim/key``) and the virtual table's clicks
go through the one ``SimulatedHand`` of the service, so the controller cannot tell them apart
from a person at the table.

Like a hand, it moves one button no faster than the button is read: each drive of a button
comes at least ``spacing`` (the debounce lockout and a margin) after that button's last one.
Drives asked for sooner wait their turn on the loop's timers (never blocking it), so a burst of
``sim/press`` and ``sim/release`` (commands queued at the broker during an outage arrive within
microseconds) makes every edge instead of one debounced contact. At most ``MAX_WAITING`` drives
wait per button: a hand cannot keep up with a flood, and the ones beyond are dropped (logged).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Protocol

from contract.buttons import Button
from controller.shell.wiring import Devices

log = logging.getLogger(__name__)

#: What a button's drives are spaced by beyond the debounce lockout (seconds).
MARGIN = 0.005
#: Drives of one button that may wait their turn (1.6 s of them); a hand cannot keep up with a
#: flood, and drops the rest.
MAX_WAITING = 64


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
    close with the service).

    ``spacing``: the least time between two drives of one button; ``now``, ``call_soon`` and
    ``call_at``: the loop's clock and its thread-safe and loop-thread schedulers."""

    def __init__(self, devices: Devices, *, spacing: float, now: Callable[[], float],
                 call_soon: Callable[[Callable[[], object]], None],
                 call_at: Callable[[float, Callable[[], object]], None]):
        self._devices = devices
        self._spacing = spacing
        self._now = now
        self._call_soon = call_soon
        self._call_at = call_at
        # loop thread only: when each button may move next, and the drives that wait for it
        self._free_at: dict[Button, float] = {}
        self._waiting: dict[Button, deque[bool]] = {}
        self.dropped = 0

    def press(self, button: Button, pressed: bool) -> None:
        """Press (or release) ``button`` as soon as it may move; a button no simulated part has
        is left alone. Thread-safe: the drive happens on the loop thread."""
        self._call_soon(partial(self._in_turn, button, pressed))

    def _in_turn(self, button: Button, pressed: bool) -> None:
        waiting = self._waiting.setdefault(button, deque())
        if not waiting and self._now() >= self._free_at.get(button, 0.0):
            self._drive_now(button, pressed)
        elif len(waiting) >= MAX_WAITING:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 1000 == 0:
                log.warning("simulated hand: %s asked to move faster than it is read; %d "
                            "drives dropped so far", button, self.dropped)
        else:
            waiting.append(pressed)
            if len(waiting) == 1:
                self._call_at(self._free_at[button], partial(self._next, button))

    def _next(self, button: Button) -> None:
        """The first waiting drive of ``button``, then the next one ``spacing`` after it: each
        spaced from when the last one was really made (a timer that fired late on a busy
        machine must not bring the next drive closer than the lockout)."""
        waiting = self._waiting[button]
        self._drive_now(button, waiting.popleft())
        if waiting:
            self._call_at(self._free_at[button], partial(self._next, button))

    def _drive_now(self, button: Button, pressed: bool) -> None:
        self._drive(button, pressed)
        self._free_at[button] = self._now() + self._spacing

    def _drive(self, button: Button, pressed: bool) -> None:
        for reach in HANDS.values():
            part = reach(self._devices)
            if part is not None and part.has_button(button):
                part.drive(button, pressed)
                return

    def type(self, seat: int, keys: str) -> None:
        """Type ``keys`` on seat ``seat``'s keypad (an emulated console's)."""
        self._devices.ports.type(seat, keys)
