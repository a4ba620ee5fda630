"""Facts about the Raspberry Pi's 40-pin header, for people holding a soldering iron.

Config files name pins by their BCM GPIO number (as gpiozero does); a technician counts header
pins. ``PHYSICAL`` maps one to the other, and ``BUSES`` lists the Pi's own functions that live on
GPIO pins, so a tool can warn before a button ends up on the pin a HAT needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec

#: BCM GPIO numbers on the Raspberry Pi 40-pin header.
Pin = Annotated[int, msgspec.Meta(ge=0, le=27)]

#: BCM GPIO number -> physical pin number on the 40-pin header (every model since the B+).
PHYSICAL: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}


@dataclass(frozen=True)
class Bus:
    """One of the Pi's own functions on header pins."""

    name: str  # as a config names it in ``gpio.reserve``
    pins: dict[int, str]  # BCM number -> signal
    why: str  # what goes wrong when a button or a light sits there


BUSES: dict[str, Bus] = {bus.name: bus for bus in (
    Bus("id_eeprom", {0: "ID_SD", 1: "ID_SC"},
        "read by the firmware at boot to identify a HAT; never wire anything else here"),
    Bus("i2c", {2: "I2C1 SDA", 3: "I2C1 SCL"},
        "I2C sensors and displays; these pins also have fixed 1.8 kOhm pull-ups"),
    Bus("uart", {14: "UART TXD", 15: "UART RXD"},
        "the serial console, or a console hub on the Pi's UART"),
    Bus("i2s", {18: "PCM CLK", 19: "PCM FS", 20: "PCM DIN", 21: "PCM DOUT"},
        "an I2S speaker amplifier or DAC HAT"),
    Bus("spi", {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
        "SPI displays and LED drivers"),
)}

#: the Pi functions a table can keep free of its buttons and lights (``BUSES``)
ReservableBus = Literal["i2c", "uart", "i2s", "spi"]

#: always kept free, whatever the config says
ALWAYS_RESERVED = ("id_eeprom",)


def physical(pin: int) -> str:
    """``GPIO4 (pin 7)``: how a technician finds it."""
    return f"GPIO{pin} (pin {PHYSICAL[pin]})"
