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

from contract.buttons import JudgeButton, SeatButton
from controller.config import Config, wiring_problems
from controller.config.budget import budget
from controller.config.budget import render as render_budget
from hardware.header import ALWAYS_RESERVED, BUSES, physical
from hardware.mcp23017 import PACKAGE_PIN, input_name


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
    budget: list[str]  # the current budget, a line a rail
    buses: list[str]  # the strip's and the expanders' wiring


def pin_map(config: Config) -> PinMap:
    """Everything the pinout shows, from a parsed (not necessarily valid) config: a row for every
    ``[[gpio.seat]]`` entry (a seat wired twice shows twice) and one for every other seat."""
    consoles: dict[int, list[str]] = {}
    for i, console in enumerate(config.console):
        for seat in console.seats:
            consoles.setdefault(seat, []).append(
                f"console[{i}]" + (" keys" if console.keys_only else " keys, button"))
    strip = {s.seat: f"strip LEDs {s.first}-{s.first + s.count - 1}"
             for s in (config.strip.seat if config.strip is not None else [])}
    expander = {button.seat: expander_input(*where)
                for button, where in config.expander_buttons().items()
                if isinstance(button, SeatButton)}
    rows = []
    for wiring in config.gpio.seat:
        lights = [physical(wiring.light)] if wiring.light is not None else []
        if wiring.rgb is not None:
            lights.append("rgb " + ", ".join(physical(pin) for pin in wiring.rgb))
        buttons = [physical(wiring.button)] if wiring.button is not None else []
        rows.append(SeatPins(wiring.seat,
                             " + ".join(buttons + _also(expander, wiring.seat)),
                             " + ".join(lights + _also(strip, wiring.seat)),
                             ", ".join(consoles.get(wiring.seat, []))))
    wired = {w.seat for w in config.gpio.seat}
    rows += [SeatPins(n, expander.get(n, ""), strip.get(n, ""), ", ".join(consoles.get(n, [])))
             for n in set(range(1, config.seats + 1)) | set(consoles) | set(strip) | set(expander)
             if n not in wired]
    rows.sort(key=lambda row: row.seat)  # stable: a seat wired twice keeps its file order
    judge = [(key.removeprefix("gpio.judge."), physical(pin))
             for pin, key in config.pin_uses() if key.startswith("gpio.judge.")]
    judge += [(button.name, expander_input(*where))
              for button, where in config.expander_buttons().items()
              if isinstance(button, JudgeButton)]
    return PinMap(config.table, rows, judge, [c.port for c in config.console],
                  len({p for p, _ in config.pin_uses()}), conflicts(config),
                  render_budget(budget(config)), _buses(config))


def _also(found: dict[int, str], seat: int) -> list[str]:
    return [found[seat]] if seat in found else []


def expander_input(address: int, index: int) -> str:
    """``0x20 GPA3 (pin 24)``: an expander's input as a technician finds it on the chip."""
    return f"0x{address:02x} {input_name(index)} (pin {PACKAGE_PIN[index]})"


def _buses(config: Config) -> list[str]:
    """One line for the strip's and the expanders' wiring to the header."""
    lines = []
    if config.strip is not None:
        s = config.strip
        lines.append(f"strip: {s.chip} {s.order}, data from {physical(10)} (SPI0 MOSI) through "
                     f"a 5 V level shifter; /dev/spidev0.{s.spi_device}")
    if config.expanders is not None:
        e = config.expanders
        chips = ", ".join(f"0x{c.address:02x}" for c in e.chip)
        lines.append(f"expanders: MCP23017 {chips} on I2C{e.i2c_bus} ({physical(2)} SDA, "
                     f"{physical(3)} SCL), every INTA on {physical(e.interrupt)}")
    return lines


#: the config section that is the legitimate user of a Pi bus's pins
BUS_OWNERS = {"spi": "strip.", "i2c": "expanders."}


def conflicts(config: Config) -> list[str]:
    """What cannot work, one line each: every wiring mistake the config check refuses (a pin or
    a seat used twice...), what overloads the Pi (``controller.config.budget``), then each pin a
    reserved function of the Pi needs (unless the strip or the expanders use it as that
    function)."""
    users: dict[int, list[str]] = defaultdict(list)
    for pin, key in config.pin_uses():
        users[pin].append(key)
    found = wiring_problems(config) + budget(config).problems
    for name in dict.fromkeys((*ALWAYS_RESERVED, *config.gpio.reserve)):  # each bus once
        bus = BUSES[name]
        owner = BUS_OWNERS.get(name)
        for pin, signal in bus.pins.items():
            others = [key for key in users[pin] if owner is None or not key.startswith(owner)]
            if others:
                found.append(f"{physical(pin)} is {signal} ({name}: {bus.why}), "
                             f"but {', '.join(others)} uses it")
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
    lines += pins.buses
    lines.append(f"{pins.used} pins in use")
    lines += ["", "current budget (worst case):", *(f"  {line}" for line in pins.budget)]
    if pins.conflicts:
        lines += ["", f"{len(pins.conflicts)} conflict(s):", *(f"  {c}" for c in pins.conflicts)]
    else:
        lines.append("no conflicts")
    return "\n".join(lines) + "\n"
