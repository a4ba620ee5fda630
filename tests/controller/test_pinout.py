"""``mafia-table pinout``: the pin map a technician solders by, and the conflicts it flags."""

from __future__ import annotations

import pytest

from controller import config
from controller.pinout import pin_map
from kit.config import ConfigError
from mafia_table import cli
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.table_configs import write_config

TABLE = """
table = "t1"
seats = 4
[gpio]
reserve = ["i2c", "uart", "i2s"]
[gpio.judge]
confirm = 9
[[gpio.seat]]
seat = 1
button = 4
light = 18
[[gpio.seat]]
seat = 2
button = 4
rgb = [22, 23, 14]
[[gpio.seat]]
seat = 3
button = 0
[[console]]
port = "/dev/ttyACM0"
seats = [4]
"""


def test_the_example_table_has_no_conflicts(capsys):
    assert cli.main(["pinout", "--config", str(EXAMPLE_CONFIG)]) == 0
    out = capsys.readouterr().out
    assert "1     GPIO4 (pin 7)    GPIO18 (pin 12)  console[0] keys" in out
    assert "next GPIO3 (pin 5)" in out
    assert "23 pins in use" in out and "no conflicts" in out


def test_every_conflict_is_flagged_with_the_keys_that_cause_it(tmp_path):
    pins = pin_map(config.parse(write_config(tmp_path, TABLE)))
    assert pins.conflicts == [
        "gpio.seat[1].button: pin 4 is already used by gpio.seat[0].button",
        "GPIO0 (pin 27) is ID_SD (id_eeprom: read by the firmware at boot to identify a HAT; "
        "never wire anything else here), but gpio.seat[2].button uses it",
        "GPIO14 (pin 8) is UART TXD (uart: the serial console, or a console hub on the Pi's "
        "UART), but gpio.seat[1].rgb[2] uses it",
        "GPIO18 (pin 12) is PCM CLK (i2s: an I2S speaker amplifier or DAC HAT), "
        "but gpio.seat[0].light uses it",
    ]
    assert [(s.seat, s.button, s.light, s.console) for s in pins.seats] == [
        (1, "GPIO4 (pin 7)", "GPIO18 (pin 12)", ""),
        (2, "GPIO4 (pin 7)", "rgb GPIO22 (pin 15), GPIO23 (pin 16), GPIO14 (pin 8)", ""),
        (3, "GPIO0 (pin 27)", "", ""),
        (4, "", "", "console[0] keys, button"),
    ]


def test_conflicts_exit_non_zero_and_a_broken_config_is_an_argument_error(tmp_path, capsys):
    assert cli.main(["pinout", "--config", str(write_config(tmp_path, TABLE))]) == 1
    assert "4 conflict(s):" in capsys.readouterr().out
    broken = write_config(tmp_path, TABLE.replace("reserve = [", 'reserve = ["hdmi", '), "b.toml")
    assert cli.main(["pinout", "--config", str(broken)]) == 2
    assert "gpio.reserve[0]: invalid enum value 'hdmi'" in capsys.readouterr().err


def test_the_config_check_still_refuses_a_pin_used_twice(tmp_path):
    with pytest.raises(ConfigError) as refused:
        config.load(write_config(tmp_path, TABLE.replace("button = 0\n", "")))
    assert refused.value.problems == [
        "gpio.seat[1].button: pin 4 is already used by gpio.seat[0].button"]


def test_every_wiring_entry_shows_and_what_check_config_refuses_is_a_conflict(tmp_path):
    body = """
table = "t1"
seats = 4
[gpio]
reserve = ["uart", "uart"]
[[gpio.seat]]
seat = 1
button = 4
[[gpio.seat]]
seat = 1
button = 5
light = 23
rgb = [6, 12, 13]
[[gpio.seat]]
seat = 9
light = 16
[[console]]
port = "/dev/ttyACM0"
seats = [2]
keys_only = true
[[console]]
port = "/dev/ttyACM1"
seats = [2]
keys_only = true
"""
    cfg = config.parse(write_config(tmp_path, body))
    pins = pin_map(cfg)
    assert [(s.seat, s.button, s.light, s.console) for s in pins.seats] == [
        (1, "GPIO4 (pin 7)", "", ""),
        (1, "GPIO5 (pin 29)", "GPIO23 (pin 16) + rgb GPIO6 (pin 31), GPIO12 (pin 32), "
                              "GPIO13 (pin 33)", ""),
        (2, "", "", "console[0] keys, console[1] keys"),
        (3, "", "", ""), (4, "", "", ""),
        (9, "", "GPIO16 (pin 36)", ""),
    ]
    with pytest.raises(ConfigError) as refused:
        config.load(write_config(tmp_path, body, "same.toml"))
    assert pins.conflicts == refused.value.problems  # the same words as check-config
    assert pins.used == 7


def test_the_example_table_is_drawn_with_every_seat_and_pin(tmp_path):
    import xml.etree.ElementTree as ET

    drawing = tmp_path / "wiring.svg"
    assert cli.main(["pinout", "--config", str(EXAMPLE_CONFIG), "--svg", str(drawing)]) == 0
    texts = [t.text or "" for t in ET.parse(drawing).getroot().iter(
        "{http://www.w3.org/2000/svg}text")]
    for seat in range(1, 11):
        assert any(t.startswith(f"seat {seat}: button GPIO") for t in texts), seat
    assert sum(1 for t in texts if t.startswith("pin ") and ": GPIO" in t) == 23  # every wire
