"""The seats' public lights: one registry of backends, composed where the backends meet.

A table lights its seats with any mix of three backends, each behind the contract's
``SeatLights`` (``contract.lights``): ``show`` a seat's ``Light`` from now on, ``glow`` what it
puts out this instant, read back from what reached the hardware, and ``close``. ``SEAT_LIGHTS``
maps each name to a factory that builds the backend from the table's wiring, or gives None when
the config has none of it:

* ``gpio``: LEDs on the Pi's pins (``hardware.gpio.GpioBoard``, which reads the buttons too);
* ``strip``: a WS2812B/SK6812 strip on SPI (``hardware.strip``);
* ``consoles``: each console's RGB LED, through its link (``firmware_bridge.lights``).

The drivers know nothing of each other; this shell module, which opens them all
(``controller.shell.wiring``), is where they meet. The shell shows every ``SetLight`` on every
backend the registry built; the virtual table and the tests read a seat's glow from the first
that has one. ``tests/controller/shell/test_seat_lights.py`` runs one behaviour class on every name
here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from contract.lights import SeatLights
from controller.config import Config
from firmware_bridge.lights import ConsoleLights
from firmware_bridge.link import ConsoleLink
from firmware_bridge.ports import ConsolePorts
from hardware.gpio import GpioBoard
from hardware.strip import open_strip


@dataclass(frozen=True)
class LightsWiring:
    """What the factories build from: the config, the opened GPIO board, the console links and
    their port backend, the clock, and who hears of a failing device (from its own thread)."""

    config: Config
    gpio: GpioBoard
    links: list[ConsoleLink]
    ports: ConsolePorts
    now: Callable[[], float]
    on_error: Callable[[], None]


def _strip(wiring: LightsWiring) -> SeatLights | None:
    config = wiring.config
    if config.strip is None:
        return None
    return open_strip(config.strip, config.backends.spi, now=wiring.now,
                      on_error=wiring.on_error)


#: backend name -> its factory (None: this table has none of it). Order matters: lights are
#: shown in it, and a seat's glow is read from the first backend that lights it.
SEAT_LIGHTS: dict[str, Callable[[LightsWiring], SeatLights | None]] = {
    "gpio": lambda wiring: wiring.gpio,
    "strip": _strip,
    "consoles": lambda wiring: (ConsoleLights(wiring.links, wiring.ports.glow)
                                if wiring.links else None),
}
