"""``mafia-table consoles`` against an emulated console on a real pty, found by a by-id folder:
its stable path, USB serial, firmware, protocol and seats, as a [[console]] ready to paste."""

from __future__ import annotations

import os
import tomllib
import tty

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.emulator import EmulatedConsole
from mafia_table import cli

NAME = "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00"


@pytest.fixture
def by_id(tmp_path):
    console = EmulatedConsole(tmp_path / "console", [3, 4])
    console.start()
    folder = tmp_path / "by-id"
    folder.mkdir()
    (folder / NAME).symlink_to(console.path)
    silent_master, silent_slave = os.openpty()  # a serial device that is no console
    tty.setraw(silent_slave)
    (folder / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0").symlink_to(
        os.ttyname(silent_slave))
    yield folder
    console.close()
    os.close(silent_slave)
    os.close(silent_master)


def test_consoles_lists_each_port_ready_to_paste(by_id, capsys):
    assert cli.main(["consoles", "--by-id", str(by_id), "--timeout", "1"]) == 0
    out = capsys.readouterr().out
    pasted = tomllib.loads(out)  # the comments and [[console]] tables are valid TOML as printed
    assert pasted == {"console": [{"port": str(by_id / NAME), "seats": [3, 4]}]}
    assert "USB serial e6614c311b7e6f35" in out
    version = f"{p.PROTO_MAJOR}.{p.PROTO_MINOR}"
    assert f"protocol {version}, keypad, vote button" in out and "claims seats 3, 4" in out
    assert "USB serial A50285BI" in out  # an FTDI name ends in -portN
    assert "no console answered (another device" in out


def test_no_console_plugged_exits_1_and_says_where_it_looked(tmp_path, capsys):
    assert cli.main(["consoles", "--by-id", str(tmp_path / "none")]) == 1
    assert f"no USB serial devices in {tmp_path / 'none'}" in capsys.readouterr().out


def test_a_bad_timeout_is_refused(capsys):
    assert cli.main(["consoles", "--timeout", "0"]) == 2
    assert "--timeout takes a number of seconds > 0" in capsys.readouterr().err
