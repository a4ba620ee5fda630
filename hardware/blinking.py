"""When a blinking light is lit: the consoles' rule for the host's lights, and one thread for all.

``level`` and ``next_change`` apply ``contract/light_timing.py`` (one definition for every light
of the table) to a light and the moment it was set: a blink starts lit and keeps its phase from
then. The LED strip redraws its frame at each ``next_change``; the GPIO LEDs blink with a
``Blinker``: one thread for every blinking LED, which sets each one's level when it changes.
(gpiozero's own ``blink`` starts a thread for each light and stops the last one, joining it, in
the caller's thread: under a flood of light commands that was most of the event loop's time.)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

from contract.light_timing import BLINK_MS, FAST_BLINK_MS, light_level
from contract.lights import Light

#: seat -> (its light, the monotonic second it was set)
Shown = Mapping[int, tuple[Light, float]]
_PERIOD_MS = {"blink": BLINK_MS, "fast_blink": FAST_BLINK_MS}


def blinks(light: Light) -> bool:
    return light.mode.value in _PERIOD_MS


def level(light: Light, since: float, now: float) -> float:
    """How bright ``light`` (set at ``since``) is at ``now``, 0..1: the consoles' rule."""
    return light_level(light.mode.number, _elapsed_ms(since, now))


def _elapsed_ms(since: float, now: float) -> float:
    """Milliseconds from ``since`` to ``now``, rounded to a nanosecond so that a moment a float's
    step away from a blink's change is on the same side of it for ``level`` and ``next_change``."""
    return round(max(0.0, now - since) * 1000, 6)


def next_change(shown: Shown, now: float) -> float | None:
    """The first moment after ``now`` at which some blinking seat turns on or off."""
    soonest = None
    for light, since in shown.values():
        half = _PERIOD_MS.get(light.mode.value)
        if half is None:
            continue
        at = since + (int(_elapsed_ms(since, now) / half) + 1) * half / 1000
        soonest = at if soonest is None else min(soonest, at)
    return soonest


class Blinker:
    """Blinks lights on one thread: ``show`` a light (blinking or not) for a seat, and the
    thread calls ``put(seat, light, level)`` whenever a blinking one goes on or off.

    ``lock`` is held around every ``put`` (and by ``show``): whoever sets the lights steadily
    holds it too, so the thread never puts a level over a steady light set meanwhile."""

    def __init__(self, put: Callable[[int, Light, float], None], now: Callable[[], float]):
        self._put = put
        self._now = now
        self.lock = threading.Condition()
        self._blinking: dict[int, tuple[Light, float]] = {}
        self._levels: dict[int, float] = {}  # the level last put, of each blinking seat
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="blinker", daemon=True)
        self._thread.start()

    def show(self, seat: int, light: Light) -> None:
        """From now on seat ``seat`` shows ``light``: put at once, and again at each change
        while it blinks."""
        with self.lock:
            now = self._now()
            lit = level(light, now, now)
            if blinks(light):
                self._blinking[seat] = (light, now)
                self._levels[seat] = lit
                self.lock.notify()
            else:
                self._blinking.pop(seat, None)
                self._levels.pop(seat, None)
            self._put(seat, light, lit)

    def _run(self) -> None:
        with self.lock:
            while not self._closing:
                now = self._now()
                for seat, (light, since) in self._blinking.items():
                    lit = level(light, since, now)
                    if self._levels.get(seat) != lit:
                        self._levels[seat] = lit
                        self._put(seat, light, lit)
                due = next_change(self._blinking, now)
                self.lock.wait(None if due is None else max(0.0, due - self._now()))

    def close(self) -> None:
        """Stop the thread (the lights stay as they are)."""
        with self.lock:
            self._closing = True
            self.lock.notify()
        self._thread.join(5)
