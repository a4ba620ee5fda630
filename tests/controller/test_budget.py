"""The current budget and the strip/expander config checks: what ``check-config`` refuses."""

from __future__ import annotations

import pytest

from controller import config
from controller.config import budget as budget_module
from controller.pinout import pin_map
from kit.config import ConfigError
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.table_configs import write_config

BASE = """
table = "t1"
seats = 12
"""


def _problems(tmp_path, body: str) -> list[str]:
    with pytest.raises(ConfigError) as refused:
        config.load(write_config(tmp_path, BASE + body))
    return refused.value.problems


def _rgb_seats(count: int, led_ma: float | None = None) -> str:
    pins = iter([4, 5, 6, 12, 13, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 7, 8, 9, 10, 11,
                 18, 2, 3, 14, 15])
    body = "[gpio]\nreserve = []\n" + (f"led_ma = {led_ma}\n" if led_ma else "")
    for seat in range(1, count + 1):
        body += f"[[gpio.seat]]\nseat = {seat}\nrgb = [{next(pins)}, {next(pins)}, {next(pins)}]\n"
    return body


def test_the_example_tables_ten_leds_fit_the_gpio_bank():
    plan = budget_module.budget(config.load(EXAMPLE_CONFIG))
    assert plan.problems == []
    assert plan.total(budget_module.RAIL_GPIO) == 40  # 10 LEDs at the default 4 mA


def test_rgb_seats_straight_from_the_pins_overload_the_bank(tmp_path):
    assert _problems(tmp_path, _rgb_seats(6)) == [
        "gpio: 18 LEDs at 4 mA draw 72 mA from the GPIO pins, more than the 50 mA all pins "
        "together can give: put the lights on a strip ([strip]) or lower gpio.led_ma"]


def test_four_rgb_seats_at_4_ma_fit(tmp_path):
    config.load(write_config(tmp_path, BASE + _rgb_seats(4)))  # 12 pins, 48 mA: no error


def test_an_led_brighter_than_a_pin_can_drive_is_refused(tmp_path):
    assert _problems(tmp_path, _rgb_seats(1, led_ma=20))[0].startswith(
        "gpio.led_ma: 20 mA through a GPIO pin is more than the 16 mA a pin can give")


def test_the_33_rail_counts_the_expanders_with_the_leds(tmp_path):
    body = _rgb_seats(4) + "[expanders]\ninterrupt = 26\n" + "".join(
        f"[[expanders.chip]]\naddress = {0x20 + i}\n" for i in range(8))
    assert _problems(tmp_path, body) == [  # 12 LEDs at 4 mA and 8 chips at 1 mA
        "3.3 V: the table draws 56.0 mA from the Pi's 3.3 V pins, more than 50 mA"]


@pytest.mark.parametrize(("leds", "brightness", "supply", "fuse"), [
    (95, 0.35, 3.0, 3.0),  # the 24-seat example: 2.09 A worst case
    (30, 1.0, 2.5, 2.5),  # 1.83 A: x1.25 = 2.29 A
    (1, 0.01, 0.5, 0.5),
])
def test_the_strip_supply_is_sized_from_leds_and_brightness(leds, brightness, supply, fuse):
    sized = budget_module.strip_supply(leds, brightness)
    assert sized.worst_ma == pytest.approx(leds * (60 * brightness + 1))
    assert (sized.supply_a, sized.fuse_a) == (supply, fuse)
    assert sized.supply_a * 1000 >= sized.worst_ma * budget_module.SUPPLY_MARGIN


STRIP = """
[strip]
supply_amps = {amps}
brightness = 1.0
seat = [{{ seat = 1, first = 0, count = 10 }}, {{ seat = 2, first = 10, count = 10 }}]
"""


def test_a_strip_supply_too_small_for_its_worst_case_is_refused(tmp_path):
    assert _problems(tmp_path, STRIP.format(amps=1.0)) == [
        "strip.supply_amps: a 1 A supply is less than the strip's worst case of 1.22 A: lower "
        "strip.brightness or use a 2 A supply"]
    config.load(write_config(tmp_path, BASE + STRIP.format(amps=1.5)))


def test_strip_mistakes_are_named(tmp_path):
    body = """
[gpio]
[[gpio.seat]]
seat = 2
light = 18
[strip]
order = "GRBW"
seat = [{ seat = 1, first = 0 }, { seat = 1, first = 2 }, { seat = 2, first = 6 },
        { seat = 13, first = 1000, count = 16 }]
"""
    assert _problems(tmp_path, body) == [
        "strip.order: GRBW does not fit chip ws2812b (RGBW orders are for sk6812_rgbw, "
        "which needs one)",
        "strip.seat[1].seat: seat 1 already has LEDs in strip.seat[0]",
        "strip.seat[1]: LED 2 already belongs to strip.seat[0]",
        "strip.seat[2].seat: seat 2 already has a GPIO light in gpio.seat[0]",
        "strip.seat[3].seat: no seat 13 at this table (seats are 1..12)",
        "strip: 1016 LEDs make a 12384-byte SPI frame, more than one spidev transfer "
        "(4096 bytes)",
    ]


def test_expander_mistakes_are_named(tmp_path):
    body = """
[backends]
i2c = "mock"
[gpio.judge]
confirm = 9
[[gpio.seat]]
seat = 3
button = 4
[expanders]
interrupt = 4
[[expanders.chip]]
address = 0x20
seats = [1, 2, 3]
judge = { confirm = 1, next = 5 }
[[expanders.chip]]
address = 0x20
seats = [2]
judge = { reject = 15 }
[[console]]
port = "/dev/ttyACM0"
seats = [1]
"""
    assert _problems(tmp_path, body) == [
        "expanders.interrupt: pin 4 is already used by gpio.seat[0].button",
        "expanders.chip[0].seats[2]: seat 3's button is already gpio.seat[0].button",
        "expanders.chip[0].judge.confirm: input 1 is already expanders.chip[0].seats[1]",
        "expanders.chip[0].judge.confirm: the confirm button is already gpio.judge.confirm",
        "expanders.chip[1].address: 0x20 is already expanders.chip[0]",
        "expanders.chip[1].seats[0]: seat 2's button is already expanders.chip[0].seats[1]",
        "expanders.chip[1].judge.reject: input 15 is GPB7, output only on an MCP23017 "
        "(datasheet revision D): use 0-6 or 8-14",
        'backends.i2c: "mock" (the fake expanders) needs backends.gpio = "mock": the fake '
        "drives the interrupt line's mock pin",
        "console[0].seats[0]: seat 1 has a vote button on an expander "
        "(expanders.chip[0].seats[0]); set console[0].keys_only = true so its console serves "
        "the keypad only",
    ]


def test_a_chip_takes_14_seats_gpa7_and_gpb7_being_output_only(tmp_path):
    body = ("[expanders]\ninterrupt = 17\n[[expanders.chip]]\naddress = 0x20\nseats = ["
            + ", ".join(str(n) for n in range(1, 16)) + "]\n")
    assert ("expanders.chip[0].seats: 15 seats, but a chip takes 14 buttons (GPA7 and GPB7 are "
            "output only, datasheet revision D): put the rest on another chip"
            in _problems(tmp_path, body))


def test_the_strips_spi_pins_are_its_own_but_nobody_elses(tmp_path):
    body = """
[gpio]
reserve = ["spi", "i2c"]
[[gpio.seat]]
seat = 1
button = 10
[strip]
seat = [{ seat = 2, first = 0 }]
[expanders]
interrupt = 17
[[expanders.chip]]
address = 0x20
seats = [3]
"""
    conflicts = pin_map(config.parse(write_config(tmp_path, BASE + body))).conflicts
    assert conflicts == [
        "strip.data: pin 10 is already used by gpio.seat[0].button",
        "GPIO10 (pin 19) is SPI0 MOSI (spi: SPI displays and LED drivers), but "
        "gpio.seat[0].button uses it",
    ]


def test_more_consoles_than_the_usb_ports_can_feed_are_refused(tmp_path):
    def consoles(count: int) -> str:
        return "".join(f'[[console]]\nport = "/dev/ttyACM{n}"\nseats = [{n % 12 + 1}]\n'
                       for n in range(count))

    config.load(write_config(tmp_path, BASE + consoles(12)))  # 12 x 45 mA: fine
    problems = _problems(tmp_path, consoles(27))  # (and seats served twice)
    assert "console: 27 consoles draw about 1215 mA from the Pi's USB ports, more than their " \
           "1200 mA: use a powered USB hub, or a console hub serving several keypads" in problems
