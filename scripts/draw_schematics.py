"""Draw the schematics of docs/hardware.md with schemdraw (``pip install -e '.[docs]'``):

    .venv/bin/python scripts/draw_schematics.py        # writes docs/console-schematic.svg
                                                       # and docs/strip-schematic.svg

The console's pins come from ``firmware_bridge/firmware/board.py``, so the drawing and the
firmware cannot disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "firmware_bridge" / "firmware"))
import board  # noqa: E402  (the console's wiring)

#: Raspberry Pi Pico: GPIO number -> package pin (the Pico datasheet's pinout)
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15,
            12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27,
            22: 29, 26: 31, 27: 32, 28: 34}
RGB_OHMS = ("220 Ω", "68 Ω", "68 Ω")  # red, green, blue of a common-cathode LED at 3.3 V


def console() -> schemdraw.Drawing:
    keypad = [f"GP{n}" for n in board.KEYPAD_ROWS + board.KEYPAD_COLS]
    outputs = [f"GP{n}" for n in (*board.RGB, board.INDICATOR)]
    pins = [elm.IcPin(name=name, pin=str(PICO_PIN[int(name[2:])]), side="left")
            for name in reversed(keypad)]
    pins += [elm.IcPin(name=f"GP{board.BUTTON}", pin=str(PICO_PIN[board.BUTTON]), side="right"),
             *[elm.IcPin(name=name, pin=str(PICO_PIN[int(name[2:])]), side="right")
               for name in outputs],
             elm.IcPin(name="GND", pin="38", side="bottom"),
             elm.IcPin(name="VBUS", pin="40", side="top")]
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=11)
    pico = d.add(elm.Ic(pins=pins, size=(4, 9), label="Raspberry Pi Pico\n(console)",
                        pinspacing=1.3, edgepadW=0.6))
    d.add(elm.Line().at(pico.VBUS).up(0.8))
    d.add(elm.Label().label("USB 5 V from the Pi (data + power)", loc="top"))
    d.add(elm.Ground().at(pico.GND))
    # keypad matrix: rows driven, columns read with pull-ups
    for i, name in enumerate(reversed(keypad)):
        d.add(elm.Line().at(getattr(pico, name)).left(1.5))
        role = (f"row {len(board.KEYPAD_ROWS) - (i - len(board.KEYPAD_COLS))}"
                if i >= len(board.KEYPAD_COLS) else f"col {len(board.KEYPAD_COLS) - i}")
        d.add(elm.Dot().label(role, loc="left"))
    d.add(elm.Label().at((pico.GND[0] - 5.5, pico.GND[1] + 0.5)).label(
        "3x4 keypad matrix\n(rows driven low in turn,\ncolumns pulled up)"))
    # vote button to ground
    d.add(elm.Line().at(getattr(pico, f"GP{board.BUTTON}")).right(1))
    d.add(elm.Button().right().label("vote button"))
    d.add(elm.Ground())
    # public RGB light through resistors, indicator through 1 kOhm
    for name, ohms, colour in zip(outputs, (*RGB_OHMS, "1 kΩ"),
                                  ("red", "green", "blue", "indicator"), strict=True):
        d.add(elm.Line().at(getattr(pico, name)).right(1))
        d.add(elm.Resistor().right().label(ohms))
        d.add(elm.LED().right().label(colour, loc="bottom"))
        d.add(elm.Line().right(0.5))
        d.add(elm.Ground().right().label("GND", loc="right"))
    return d


def strip() -> schemdraw.Drawing:
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=11)
    shifter = d.add(elm.Ic(pins=[elm.IcPin(name="1A", pin="2", side="left"),
                                 elm.IcPin(name="1OE", pin="1", side="left"),
                                 elm.IcPin(name="1Y", pin="3", side="right"),
                                 elm.IcPin(name="VCC", pin="14", side="top"),
                                 elm.IcPin(name="GND", pin="7", side="bottom")],
                           size=(2.5, 2.5), label="74AHCT125"))
    d.add(elm.Line().at(shifter["1A"]).left(1))
    d.add(elm.Dot().label("Pi GPIO10 (pin 19)\nSPI0 MOSI", loc="left"))
    d.add(elm.Line().at(shifter["1OE"]).left(0.5))
    d.add(elm.Ground())
    d.add(elm.Ground().at(shifter.GND))
    d.add(elm.Line().at(shifter.VCC).up(0.7))
    d.add(elm.Vdd().label("5 V"))
    d.add(elm.Line().at(shifter["1Y"]).right(0.5))
    d.add(elm.Resistor().right().label("330 Ω"))
    d.add(elm.Dot().label("strip DIN\n(LED 0)", loc="right"))
    supply = d.add(elm.SourceV().at((-1, -6)).up().label("5 V supply\n(sized by\ncheck-config)"))
    d.add(elm.Line().at(supply.end).right(1))
    d.add(elm.Fuse().right().label("slow-blow fuse"))
    d.add(elm.Dot().label("strip +5 V (feed both ends\nabove ~2 A)", loc="right"))
    node = d.here
    d.add(elm.Capacitor(polar=True).at(node).down().label("1000 µF", loc="bottom"))
    d.add(elm.Ground())
    d.add(elm.Line().at(supply.start).down(0.5))
    d.add(elm.Ground().label("common ground: supply, strip,\nshifter and Pi GND", loc="right"))
    return d


def main() -> None:
    for name, drawing in (("console", console()), ("strip", strip())):
        path = REPO / "docs" / f"{name}-schematic.svg"
        drawing.save(str(path))
        print(f"wrote {path.relative_to(REPO)}")


if __name__ == "__main__":
    main()
