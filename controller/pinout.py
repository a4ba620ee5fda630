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

from controller.config import Config, wiring_problems
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
    """Everything the pinout shows, from a parsed (not necessarily valid) config: a row for every
    ``[[gpio.seat]]`` entry (a seat wired twice shows twice) and one for every other seat."""
    consoles: dict[int, list[str]] = {}
    for i, console in enumerate(config.console):
        for seat in console.seats:
            consoles.setdefault(seat, []).append(
                f"console[{i}]" + (" keys" if console.keys_only else " keys, button"))
    rows = []
    for wiring in config.gpio.seat:
        lights = [physical(wiring.light)] if wiring.light is not None else []
        if wiring.rgb is not None:
            lights.append("rgb " + ", ".join(physical(pin) for pin in wiring.rgb))
        rows.append(SeatPins(wiring.seat,
                             physical(wiring.button) if wiring.button is not None else "",
                             " + ".join(lights), ", ".join(consoles.get(wiring.seat, []))))
    wired = {w.seat for w in config.gpio.seat}
    rows += [SeatPins(n, "", "", ", ".join(consoles.get(n, [])))
             for n in set(range(1, config.seats + 1)) | set(consoles) if n not in wired]
    rows.sort(key=lambda row: row.seat)  # stable: a seat wired twice keeps its file order
    judge = [(key.removeprefix("gpio.judge."), physical(pin))
             for pin, key in config.pin_uses() if key.startswith("gpio.judge.")]
    return PinMap(config.table, rows, judge, [c.port for c in config.console],
                  len({p for p, _ in config.pin_uses()}), conflicts(config))


def conflicts(config: Config) -> list[str]:
    """What cannot work, one line each: every wiring mistake the config check refuses (a pin or
    a seat used twice...), then each pin a reserved function of the Pi needs."""
    users: dict[int, list[str]] = defaultdict(list)
    for pin, key in config.pin_uses():
        users[pin].append(key)
    found = wiring_problems(config)
    for name in dict.fromkeys((*ALWAYS_RESERVED, *config.gpio.reserve)):  # each bus once
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
