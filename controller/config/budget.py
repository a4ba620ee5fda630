"""The table's current budget: what each part draws from which rail, and what a Pi can give.

``budget(config)`` lists every load (worst case: every light on white at once, every button
held) and refuses what would overload the Pi. The figures, and where they come from:

* A GPIO pin: at most **16 mA**, and **50 mA for all GPIO pins together**. Raspberry Pi's
  documentation, "Power supply" (raspberrypi.org/documentation/hardware/raspberrypi/power,
  until its 2021 rewrite): "the GPIO pins can draw 50 mA safely, distributed across all the
  pins; an individual GPIO pin can only safely draw 16 mA". The pads' drive strength is set in
  2 mA steps up to 16 mA, **8 mA** by default (the same documentation's "GPIO pads control"): a
  pin keeps its guaranteed output levels only up to that. A directly driven LED draws what its
  resistor sets: ``gpio.led_ma`` ((3.3 V - the LED's forward voltage) / R).
* The 3.3 V pins: **50 mA**, the figure the same page gave for the 3.3 V rail (the regulator of
  a current Pi gives more, but Raspberry Pi documents no other figure, so we keep to this one).
  GPIO LEDs come out of this rail too.
* An MCP23017: at most **1 mA** (``IDD``, DS20001952C table 1-2 "DC characteristics"); its
  pull-ups are about **100 kOhm** (3.5.7), so a held button draws 33 uA.
* A Pi pull-up is 50-65 kOhm ("GPIO pads control"): 66 uA for a held GPIO button.
* An addressable LED at full white: **60 mA** (20 mA a colour channel; Adafruit's NeoPixel
  Uberguide, "Powering NeoPixels"), about **1 mA** quiescent when dark (WS2812B datasheet,
  "IDD" static current; SK6812 likewise). The brightness cap scales the colour current.
  The strip's 5 V supply is sized at 1.25x the worst case, rounded up to 0.5 A; its fuse is the
  next standard slow-blow value at or above 1.25x the worst case.
* A console on USB: an estimate with room, **25 mA** for the Pico running MicroPython and
  **20 mA** for each seat it serves (that seat's RGB light and indicator).
  The Pi 4's USB ports give **1.2 A** together (Raspberry Pi documentation, "Power supply":
  USB peripherals, maximum total current); a Pi 5 gives 1.6 A with a 5 A supply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from controller.config.schema import Config

GPIO_PIN_MAX_MA = 16.0
GPIO_TOTAL_MAX_MA = 50.0
GPIO_DEFAULT_DRIVE_MA = 8.0
RAIL_3V3_MAX_MA = 50.0
MCP23017_IDD_MA = 1.0
MCP23017_PULLUP_MA = 3.3 / 100_000 * 1000
PI_PULLUP_MA = 3.3 / 50_000 * 1000
LED_CHANNEL_MA = 20.0
LED_COLOUR_CHANNELS = 3  # white at most lights all three colours (RGBW: see hardware.ws2812)
LED_IDLE_MA = 1.0
CONSOLE_MA = 25.0
CONSOLE_SEAT_MA = 20.0
USB_TOTAL_MAX_MA = 1200.0
SUPPLY_MARGIN = 1.25
FUSES_A = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.3, 7.5, 10.0, 15.0, 20.0, 25.0, 30.0)

RAIL_GPIO = "GPIO pins"
RAIL_3V3 = "3.3 V"
RAIL_5V_STRIP = "5 V strip supply"
RAIL_USB = "USB 5 V"


@dataclass(frozen=True)
class Load:
    rail: str
    part: str
    ma: float


@dataclass(frozen=True)
class StripSupply:
    """What the strip's own 5 V supply must give, and the fuse between it and the strip."""

    worst_ma: float
    supply_a: float
    fuse_a: float


@dataclass(frozen=True)
class Budget:
    loads: list[Load]
    strip: StripSupply | None
    problems: list[str]

    def total(self, rail: str) -> float:
        return sum(load.ma for load in self.loads if load.rail == rail)


def strip_supply(leds: int, brightness: float) -> StripSupply:
    """The worst case of ``leds`` LEDs at ``brightness`` (all white), its supply and fuse."""
    worst = leds * (LED_COLOUR_CHANNELS * LED_CHANNEL_MA * brightness + LED_IDLE_MA)
    supply = math.ceil(worst / 1000 * SUPPLY_MARGIN * 2) / 2
    fuse = next((f for f in FUSES_A if f >= worst / 1000 * SUPPLY_MARGIN), FUSES_A[-1])
    return StripSupply(worst, supply, fuse)


def budget(config: Config) -> Budget:
    """Every load of the table on its rail, and what exceeds a limit above."""
    led_ma = config.gpio.led_ma
    loads: list[Load] = []
    for i, wiring in enumerate(config.gpio.seat):
        pins = ([wiring.light] if wiring.light is not None else []) + list(wiring.rgb or [])
        loads += [Load(RAIL_GPIO, f"gpio.seat[{i}] LED on GPIO{pin}", led_ma) for pin in pins]
    gpio_buttons = len(config.gpio.buttons())
    if gpio_buttons:
        loads.append(Load(RAIL_3V3, f"{gpio_buttons} GPIO buttons held (Pi pull-ups)",
                          gpio_buttons * PI_PULLUP_MA))
    if config.expanders is not None:
        chips = len(config.expanders.chip)
        inputs = len(config.expander_buttons())
        loads += [Load(RAIL_3V3, f"{chips} MCP23017", chips * MCP23017_IDD_MA),
                  Load(RAIL_3V3, f"{inputs} expander buttons held (100 kOhm pull-ups)",
                       inputs * MCP23017_PULLUP_MA)]
    loads += [Load(RAIL_USB, f"console[{i}] on USB (estimate)",
                   CONSOLE_MA + CONSOLE_SEAT_MA * len(console.seats))
              for i, console in enumerate(config.console)]
    supply = None
    if config.strip is not None:
        leds = max((s.first + s.count for s in config.strip.seat), default=0)
        supply = strip_supply(leds, config.strip.brightness)
        loads.append(Load(RAIL_5V_STRIP, f"strip: {leds} LEDs white at brightness "
                                         f"{config.strip.brightness:g}", supply.worst_ma))

    problems = []
    if led_ma > GPIO_PIN_MAX_MA:
        problems.append(f"gpio.led_ma: {led_ma:g} mA through a GPIO pin is more than the "
                        f"{GPIO_PIN_MAX_MA:g} mA a pin can give (Raspberry Pi documentation)")
    gpio_total = sum(load.ma for load in loads if load.rail == RAIL_GPIO)
    if gpio_total > GPIO_TOTAL_MAX_MA:
        leds = sum(1 for load in loads if load.rail == RAIL_GPIO)
        problems.append(f"gpio: {leds} LEDs at {led_ma:g} mA draw {gpio_total:g} mA from the "
                        f"GPIO pins, more than the {GPIO_TOTAL_MAX_MA:g} mA all pins together "
                        "can give: put the lights on a strip ([strip]) or lower gpio.led_ma")
    rail = gpio_total + sum(load.ma for load in loads if load.rail == RAIL_3V3)
    if rail > RAIL_3V3_MAX_MA and gpio_total <= GPIO_TOTAL_MAX_MA:
        problems.append(f"3.3 V: the table draws {rail:.1f} mA from the Pi's 3.3 V pins, more "
                        f"than {RAIL_3V3_MAX_MA:g} mA")
    usb = sum(load.ma for load in loads if load.rail == RAIL_USB)
    if usb > USB_TOTAL_MAX_MA:
        problems.append(f"console: {len(config.console)} consoles draw about {usb:g} mA from "
                        f"the Pi's USB ports, more than their {USB_TOTAL_MAX_MA:g} mA: use a "
                        "powered USB hub, or a console hub serving several keypads")
    if (supply is not None and config.strip is not None and config.strip.supply_amps is not None
            and config.strip.supply_amps * 1000 < supply.worst_ma):
        problems.append(f"strip.supply_amps: a {config.strip.supply_amps:g} A supply is less "
                        f"than the strip's worst case of {supply.worst_ma / 1000:.2f} A: lower "
                        f"strip.brightness or use a {supply.supply_a:g} A supply")
    return Budget(loads, supply, problems)


def render(plan: Budget) -> list[str]:
    """The budget as a technician reads it, one line a rail (and the strip's supply)."""
    lines = []
    gpio = plan.total(RAIL_GPIO)
    if gpio:
        lines.append(f"GPIO pins: {gpio:g} mA of {GPIO_TOTAL_MAX_MA:g} mA (LEDs driven directly)")
    rail = gpio + plan.total(RAIL_3V3)
    lines.append(f"3.3 V: {rail:.1f} mA of {RAIL_3V3_MAX_MA:g} mA")
    usb = plan.total(RAIL_USB)
    if usb:
        lines.append(f"USB 5 V: about {usb:g} mA of {USB_TOTAL_MAX_MA:g} mA (consoles)")
    if plan.strip is not None:
        lines.append(f"5 V strip supply: worst case {plan.strip.worst_ma / 1000:.2f} A; use a "
                     f"5 V supply of at least {plan.strip.supply_a:g} A and a "
                     f"{plan.strip.fuse_a:g} A slow-blow fuse")
    return lines
