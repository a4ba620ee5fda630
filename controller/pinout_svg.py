"""``mafia-table pinout --svg FILE``: the wiring drawn, from the table config.

Plain SVG text: the Pi's 40-pin header (each used pin coloured and named), a wire from each
used pin to what it feeds (the strip's level shifter, the expanders' bus and interrupt, a seat's
GPIO button or LED, a judge button), the strip as its LEDs grouped by seat, each expander with
its sixteen pins and the seat or judge button on each (GPA7 and GPB7 marked output only), and
the current budget. The pure ``draw`` takes the same ``PinMap`` the text pinout prints, plus
the config for the parts.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from contract.buttons import JudgeButton, SeatButton
from controller.config import Config
from controller.pinout import PinMap
from hardware.header import PHYSICAL
from hardware.mcp23017 import BUTTON_INPUTS, PACKAGE_PIN, input_name

#: header pins that are not GPIO
POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V",
         **{n: "GND" for n in (6, 9, 14, 20, 25, 30, 34, 39)}}
PIN_PITCH = 22
HEADER_X, HEADER_Y = 40, 80
PART_X = 420
COLOURS = {"strip": "#2a9d8f", "expanders": "#e76f51", "gpio": "#264653", "power": "#b00020"}


def _text(x: float, y: float, body: str, size: int = 12, anchor: str = "start",
          weight: str = "normal") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" font-family="sans-serif">{escape(body)}</text>')


def _pin_xy(physical: int) -> tuple[float, float]:
    row, column = (physical - 1) // 2, (physical - 1) % 2
    return HEADER_X + 20 + column * PIN_PITCH, HEADER_Y + 20 + row * PIN_PITCH


def _uses(config: Config) -> dict[int, tuple[str, str]]:
    """Physical pin -> (what uses it, colour) for every configured pin."""
    found: dict[int, tuple[str, str]] = {}
    for pin, key in config.pin_uses():
        kind = key.split(".")[0]
        found[PHYSICAL[pin]] = (f"GPIO{pin} {key}", COLOURS.get(kind, COLOURS["gpio"]))
    return found


def draw(pins: PinMap, config: Config) -> str:
    """The whole drawing as SVG text."""
    uses = _uses(config)
    out: list[str] = [_text(20, 30, f"table {pins.table}: wiring", 20, weight="bold"),
                      _text(20, 52, "header pins are physical numbers; GPIO numbers are BCM")]
    # the header
    out.append(f'<rect x="{HEADER_X}" y="{HEADER_Y}" width="{2 * PIN_PITCH + 18}" '
               f'height="{20 * PIN_PITCH + 18}" rx="4" fill="#222"/>')
    wires_y = HEADER_Y + 20
    for physical in range(1, 41):
        x, y = _pin_xy(physical)
        use = uses.get(physical)
        fill = use[1] if use else ("#c9a227" if physical in POWER else "#888")
        out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="7" fill="{fill}">'
                   f'<title>pin {physical}</title></circle>')
        out.append(_text(x, y + 4, str(physical), 8, "middle"))
        if physical in POWER and physical % 2 == 0:
            out.append(_text(x + 12, y + 4, POWER[physical], 9))
        if use is not None:  # a wire out to the right, labelled
            turn = HEADER_X + 70 + 5 * len([u for u in uses if u < physical])  # own lane
            out.append(f'<path d="M{x + 7:.0f},{y:.0f} H{turn} V{wires_y} '
                       f'H{PART_X - 20}" stroke="{use[1]}" fill="none" stroke-width="2"/>')
            out.append(_text(HEADER_X + 80 + 5 * len(uses), wires_y - 3,
                             f"pin {physical}: {use[0]}", 10))
            wires_y += 16
    y = max(wires_y, HEADER_Y + 20 * PIN_PITCH + 40) + 20
    y = _draw_strip(out, config, y)
    y = _draw_expanders(out, config, y)
    y = _draw_seats(out, pins, y)
    out.append(_text(20, y, "current budget (worst case)", 14, weight="bold"))
    for line in pins.budget:
        y += 18
        out.append(_text(30, y, line))
    height = y + 30
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="1100" height="{height}" '
            f'viewBox="0 0 1100 {height}">\n'
            '<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(out) + "\n</svg>\n")


def _draw_strip(out: list[str], config: Config, y: float) -> float:
    strip = config.strip
    if strip is None:
        return y
    out.append(_text(20, y, f"strip: {strip.chip} {strip.order}, brightness cap "
                            f"{strip.brightness:g}; data GPIO10 (pin 19) -> 74AHCT125 (5 V) -> "
                            "330 Ohm -> DIN", 14, weight="bold"))
    y += 16
    per_row, size = 40, 24
    leds = max((s.first + s.count for s in strip.seat), default=0)
    owner = {led: s.seat for s in strip.seat for led in range(s.first, s.first + s.count)}
    for led in range(leds):
        x = 30 + (led % per_row) * size
        row_y = y + (led // per_row) * (size + 18)
        seat = owner.get(led)
        fill = COLOURS["strip"] if seat is not None else "#ddd"
        out.append(f'<rect x="{x}" y="{row_y:.0f}" width="{size - 4}" height="{size - 4}" '
                   f'fill="{fill}"><title>LED {led}</title></rect>')
    for s in strip.seat:
        x = 30 + (s.first % per_row) * size
        row_y = y + (s.first // per_row) * (size + 18)
        out.append(_text(x, row_y + size + 10, f"seat {s.seat}", 9))
    return y + (-(-leds // per_row)) * (size + 18) + 24


def _draw_expanders(out: list[str], config: Config, y: float) -> float:
    expanders = config.expanders
    if expanders is None:
        return y
    out.append(_text(20, y, f"expanders on I2C{expanders.i2c_bus}: SDA GPIO2 (pin 3), SCL GPIO3 "
                            f"(pin 5), every INTA -> GPIO{expanders.interrupt} (pin "
                            f"{PHYSICAL[expanders.interrupt]}); VDD and RESET to 3.3 V",
                     14, weight="bold"))
    y += 14
    names = {where: button for button, where in config.expander_buttons().items()}
    for i, chip in enumerate(expanders.chip):
        x = 30 + (i % 3) * 350
        top = y + (i // 3) * 230
        out.append(f'<rect x="{x + 90}" y="{top}" width="90" height="200" fill="#f4e1d2" '
                   f'stroke="{COLOURS["expanders"]}" stroke-width="2"/>')
        out.append(_text(x + 135, top + 100, f"0x{chip.address:02x}", 14, "middle", "bold"))
        out.append(_text(x + 135, top + 116, "MCP23017", 10, "middle"))
        for index in range(16):
            side_x = x + 90 if index < 8 else x + 180
            pin_y = top + 14 + (index % 8) * 24
            button = names.get((chip.address, index))
            label = f"{input_name(index)} ({PACKAGE_PIN[index]})"
            what = (f"seat {button.seat}" if isinstance(button, SeatButton)
                    else f"judge {button.name}" if isinstance(button, JudgeButton)
                    else "-" if index in BUTTON_INPUTS else "output only: no button")
            if index < 8:
                out.append(_text(side_x - 4, pin_y + 4, f"{what}  {label}", 10, "end"))
            else:
                out.append(_text(side_x + 4, pin_y + 4, f"{label}  {what}", 10))
    return y + (-(-len(expanders.chip) // 3)) * 230 + 30


def _draw_seats(out: list[str], pins: PinMap, y: float) -> float:
    out.append(_text(20, y, "seats (a button goes to ground; a GPIO LED through its resistor)",
                     14, weight="bold"))
    for row in pins.seats:
        y += 16
        parts = [f"button {row.button}" if row.button else "",
                 f"light {row.light}" if row.light else "",
                 row.console]
        out.append(_text(30, y, f"seat {row.seat}: " + ("; ".join(p for p in parts if p) or "-"),
                         11))
    if pins.judge:
        y += 16
        out.append(_text(30, y, "judge: " + ", ".join(f"{n} {p}" for n, p in pins.judge), 11))
    return y + 30
