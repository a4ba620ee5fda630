"""How the seats, pins, strip, expanders and consoles of a config fit together.

What no type can say: one pin wired twice, a seat beyond the table or wired twice, a seat lit
by both a GPIO LED and the strip, an expander input that is output only, a console seat that
also has a vote button. Each problem names the key that causes it and the one it clashes with,
e.g. ``gpio.seat[2].button: pin 17 is already used by gpio.seat[0].light``; the caller collects
them all, so one run of ``check-config`` shows every mistake.
"""

from __future__ import annotations

from contract.buttons import JUDGE_BUTTON_NAMES
from contract.seats import no_seat
from controller.config.schema import Config
from hardware import mcp23017, ws2812


def wiring_problems(config: Config) -> list[str]:
    """How the seats, pins and consoles fit together: a pin or a seat used twice, a seat beyond
    the table, a light given twice, a console seat that also has a GPIO vote button."""
    problems: list[str] = []
    seat_entries: dict[int, str] = {}
    pin_users: dict[int, str] = {}
    for pin, key in config.pin_uses():
        if pin in pin_users:
            problems.append(f"{key}: pin {pin} is already used by {pin_users[pin]}")
        else:
            pin_users[pin] = key
    for i, wiring in enumerate(config.gpio.seat):
        key = f"gpio.seat[{i}]"
        if beyond := _seat_problem(f"{key}.seat", wiring.seat, config):
            problems += beyond
        elif wiring.seat in seat_entries:
            problems.append(f"{key}.seat: seat {wiring.seat} is already wired by "
                            f"{seat_entries[wiring.seat]}")
        else:
            seat_entries[wiring.seat] = key
        if wiring.light is not None and wiring.rgb is not None:
            problems.append(f"{key}: give either light (one LED) or rgb (three pins), not both")

    gpio_buttons = {s.seat: f"gpio.seat[{i}].button" for i, s in enumerate(config.gpio.seat)
                    if s.button is not None}
    problems += _strip_problems(config)
    expander_buttons, found = _expander_problems(config, gpio_buttons)
    problems += found
    vote_buttons = {seat: f"GPIO ({key})" for seat, key in gpio_buttons.items()} | {
        seat: f"an expander ({key})" for seat, key in expander_buttons.items()}
    served: dict[int, str] = {}
    ports: dict[str, str] = {}
    for i, console in enumerate(config.console):
        key = f"console[{i}]"
        if console.port in ports:
            problems.append(f"{key}.port: {console.port} is already {ports[console.port]}")
        ports[console.port] = key
        for j, seat in enumerate(console.seats):
            if beyond := _seat_problem(f"{key}.seats[{j}]", seat, config):
                problems += beyond
            elif seat in served:
                problems.append(f"{key}.seats[{j}]: seat {seat} is already served by "
                                f"{served[seat]}")
            elif seat in vote_buttons and not console.keys_only:
                problems.append(f"{key}.seats[{j}]: seat {seat} has a vote button on "
                                f"{vote_buttons[seat]}; set {key}.keys_only = true so its "
                                "console serves the keypad only")
            served[seat] = key
    return problems


def _seat_problem(key: str, seat: int, config: Config) -> list[str]:
    """``key`` names a seat the table does not have (or nothing)."""
    problem = no_seat(seat, config.seats)
    return [] if problem is None else [f"{key}: {problem}"]


def _strip_problems(config: Config) -> list[str]:
    """Strip seats on the table, each once, LED ranges apart, no seat lit twice, and a frame
    that fits one SPI transfer."""
    strip = config.strip
    if strip is None:
        return []
    problems: list[str] = []
    if ("W" in strip.order) != (strip.chip == "sk6812_rgbw"):
        problems.append(f"strip.order: {strip.order} does not fit chip {strip.chip} (RGBW "
                        "orders are for sk6812_rgbw, which needs one)")
    gpio_lights = {w.seat: f"gpio.seat[{i}]" for i, w in enumerate(config.gpio.seat)
                   if w.light is not None or w.rgb is not None}
    seats: dict[int, str] = {}
    leds: dict[int, str] = {}
    for i, entry in enumerate(strip.seat):
        key = f"strip.seat[{i}]"
        problems += _seat_problem(f"{key}.seat", entry.seat, config)
        if entry.seat in seats:
            problems.append(f"{key}.seat: seat {entry.seat} already has LEDs in "
                            f"{seats[entry.seat]}")
        elif entry.seat in gpio_lights:
            problems.append(f"{key}.seat: seat {entry.seat} already has a GPIO light in "
                            f"{gpio_lights[entry.seat]}")
        seats.setdefault(entry.seat, key)
        for led in range(entry.first, entry.first + entry.count):
            if led in leds:
                problems.append(f"{key}: LED {led} already belongs to {leds[led]}")
                break
            leds[led] = key
    encoding = ws2812.ENCODINGS[strip.chip]
    size = ws2812.frame_size(max(leds, default=-1) + 1, strip.order, encoding)
    if size > ws2812.SPIDEV_BUFSIZ:
        problems.append(f"strip: {max(leds) + 1} LEDs make a {size}-byte SPI frame, more than "
                        f"one spidev transfer ({ws2812.SPIDEV_BUFSIZ} bytes)")
    return problems


def _expander_problems(config: Config,
                       gpio_buttons: dict[int, str]) -> tuple[dict[int, str], list[str]]:
    """Each chip once, each input once, each seat's button once (GPIO or expander); returns
    the seats with an expander button (seat -> key) and the problems."""
    if config.expanders is None:
        return {}, []
    problems: list[str] = []
    addresses: dict[int, str] = {}
    seats: dict[int, str] = {}
    judges: dict[str, str] = {name: f"gpio.judge.{name}" for name in JUDGE_BUTTON_NAMES
                              if getattr(config.gpio.judge, name) is not None}
    for i, chip in enumerate(config.expanders.chip):
        key = f"expanders.chip[{i}]"
        if chip.address in addresses:
            problems.append(f"{key}.address: 0x{chip.address:02x} is already "
                            f"{addresses[chip.address]}")
        addresses[chip.address] = key
        if len(chip.seats) > len(mcp23017.BUTTON_INPUTS):
            problems.append(f"{key}.seats: {len(chip.seats)} seats, but a chip takes "
                            f"{len(mcp23017.BUTTON_INPUTS)} buttons (GPA7 and GPB7 are output "
                            "only, datasheet revision D): put the rest on another chip")
        inputs = {pin: f"{key}.seats[{j}]"
                  for j, pin in enumerate(mcp23017.BUTTON_INPUTS[:len(chip.seats)])}
        for j, seat in enumerate(chip.seats):
            problems += _seat_problem(f"{key}.seats[{j}]", seat, config)
            if seat in seats or seat in gpio_buttons:
                problems.append(f"{key}.seats[{j}]: seat {seat}'s button is already "
                                f"{seats.get(seat) or gpio_buttons[seat]}")
            seats.setdefault(seat, f"{key}.seats[{j}]")
        for name in JUDGE_BUTTON_NAMES:
            pin = getattr(chip.judge, name)
            if pin is None:
                continue
            if pin not in mcp23017.BUTTON_INPUTS:
                problems.append(f"{key}.judge.{name}: input {pin} is "
                                f"{mcp23017.input_name(pin)}, output only on an MCP23017 "
                                "(datasheet revision D): use 0-6 or 8-14")
            elif pin in inputs:
                problems.append(f"{key}.judge.{name}: input {pin} is already {inputs[pin]}")
            if name in judges:
                problems.append(f"{key}.judge.{name}: the {name} button is already "
                                f"{judges[name]}")
            inputs[pin] = judges[name] = f"{key}.judge.{name}"
    if config.backends.i2c == "mock" and config.backends.gpio != "mock":
        problems.append('backends.i2c: "mock" (the fake expanders) needs backends.gpio = '
                        '"mock": the fake drives the interrupt line\'s mock pin')
    return seats, problems
