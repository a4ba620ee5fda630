"""``mafia-table pinout``: the configured pin map seat by seat, with its conflicts.

A technician wiring a table wants to know, for each seat, which header pin its button and its
light go to, and whether the config asks for anything that cannot work: a pin used twice, or a
pin that a function of the Pi kept free (``[gpio] reserve``: I2C, the UART, I2S audio, SPI; the
HAT ID EEPROM pins always) also serves. ``pin_map`` works that out from a config, ``render``
prints it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from controller.config import Config
from hardware.header import ALWAYS_RESERVED, BUSES, physical


@dataclass(frozen=True)
class SeatPins:
    seat: int
    button: str  # "GPIO4 (pin 7)", "" when none
    light: str
    console: str  # "console[0] /dev/serial/...", "" when none


@dataclass(frozen=True)
class PinMap:
    table: str
    seats: list[SeatPins]
    judge: list[tuple[str, str]]  # (button name, pin)
    ports: list[str]  # console[i]'s port
    used: int  # distinct pins
    conflicts: list[str]


def pin_map(config: Config) -> PinMap:
    """Everything the pinout shows, from a parsed (not necessarily valid) config."""
    pins_of: dict[int, tuple[str, str]] = {}
    for wiring in config.gpio.seat:
        light = physical(wiring.light) if wiring.light is not None else ""
        if wiring.rgb is not None:
            light = "rgb " + ", ".join(physical(p) for p in wiring.rgb)
        pins_of.setdefault(wiring.seat, (
            physical(wiring.button) if wiring.button is not None else "", light))
    consoles = {seat: f"console[{i}]" + (" keys" if c.keys_only else " keys, button")
                for i, c in enumerate(config.console) for seat in c.seats}
    numbers = sorted(set(range(1, config.seats + 1)) | set(pins_of) | set(consoles))
    seats = [SeatPins(n, *pins_of.get(n, ("", "")), consoles.get(n, "")) for n in numbers]
    judge = [(key.removeprefix("gpio.judge."), physical(pin))
             for pin, key in config.pin_uses() if key.startswith("gpio.judge.")]
    return PinMap(config.table, seats, judge, [c.port for c in config.console],
                  len({p for p, _ in config.pin_uses()}), conflicts(config))


def conflicts(config: Config) -> list[str]:
    """A pin used twice, and a pin a reserved function of the Pi needs; one line each."""
    users: dict[int, list[str]] = defaultdict(list)
    for pin, key in config.pin_uses():
        users[pin].append(key)
    found = [f"{physical(pin)} is used {len(keys)} times: {', '.join(keys)}"
             for pin, keys in users.items() if len(keys) > 1]
    for name in (*ALWAYS_RESERVED, *config.gpio.reserve):
        bus = BUSES[name]
        found += [f"{physical(pin)} is {signal} ({name}: {bus.why}), "
                  f"but {', '.join(users[pin])} uses it"
                  for pin, signal in bus.pins.items() if pin in users]
    return found


def render(pins: PinMap) -> str:
    """The map as a technician reads it: BCM numbers with header pin numbers."""
    rows = [("seat", "button", "light", "console")] + [
        (str(s.seat), s.button or "-", s.light or "-", s.console or "-") for s in pins.seats]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [f"table {pins.table}: pins are BCM GPIO numbers, header pin numbers in brackets", ""]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
              for row in rows]
    lines.append("")
    if pins.judge:
        lines.append("judge: " + ", ".join(f"{name} {pin}" for name, pin in pins.judge))
    lines += [f"console[{i}]: {port}" for i, port in enumerate(pins.ports)]
    lines.append(f"{pins.used} pins in use")
    if pins.conflicts:
        lines += ["", f"{len(pins.conflicts)} conflict(s):", *(f"  {c}" for c in pins.conflicts)]
    else:
        lines.append("no conflicts")
    return "\n".join(lines) + "\n"
