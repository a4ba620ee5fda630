"""``mafia-table consoles``: which seat consoles are plugged in, ready to paste into the config.

Each USB serial device has a stable name in ``/dev/serial/by-id/`` (udev makes it from the
vendor, the product and the USB serial number), which survives replugging into another port,
unlike ``/dev/ttyACM0``. For each one this asks pyserial's ``list_ports`` what it knows (USB
serial number, product), opens the port, sends the console protocol's ``HELLO_REQUEST`` and
reads the ``HELLO``: firmware version, protocol version, capabilities and the seats the console
claims. A console that does not answer in time is listed as such (another device, or firmware
not running); one that cannot be opened is named with the reason (the controller holding it
open, or no permission: the udev rule gives the ``mafia-table`` group access).

It only reads: no ``WELCOME`` is sent, so the console stays as it was for the controller.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

import serial
from serial.tools import list_ports

from firmware_bridge import protocol as p

BY_ID = Path("/dev/serial/by-id")
#: the part of a by-id name that udev makes from the USB serial number
_SERIAL_IN_NAME = re.compile(r"^usb-.*_([^_]+)-if\d+(-port\d+)?$")
_CAPABILITIES = ((p.CAP_KEYPAD, "keypad"), (p.CAP_BUTTON, "vote button"), (p.CAP_RGB, "RGB"),
                 (p.CAP_INDICATOR, "indicator"))


@dataclass(frozen=True)
class Plugged:
    """One by-id port and what it said."""

    path: str  # the stable /dev/serial/by-id/... name
    device: str  # what it points at now, e.g. /dev/ttyACM0
    usb_serial: str | None
    product: str | None = None
    hello: dict | None = None  # ``protocol.unpack_hello``; None: no console answered
    problem: str | None = None  # why it could not be asked


def scan(by_id: Path = BY_ID, *, timeout: float = 2.0, baudrate: int = 115200) -> list[Plugged]:
    """Every port in ``by_id``, asked in turn (``timeout`` seconds each at most)."""
    try:
        names = sorted(by_id.iterdir())
    except FileNotFoundError:
        return []
    known = {os.path.realpath(port.device): port for port in list_ports.comports()}
    found = []
    for link in names:
        device = os.path.realpath(link)
        info = known.get(device)
        usb_serial = (info.serial_number if info is not None else None) or _serial_from(link.name)
        product = info.product if info is not None else None
        try:
            hello = ask_hello(str(link), timeout=timeout, baudrate=baudrate)
            found.append(Plugged(str(link), device, usb_serial, product, hello))
        except (serial.SerialException, OSError) as exc:
            found.append(Plugged(str(link), device, usb_serial, product, problem=str(exc)))
    return found


def _serial_from(name: str) -> str | None:
    match = _SERIAL_IN_NAME.match(name)
    return match.group(1) if match else None


def ask_hello(port: str, *, timeout: float, baudrate: int = 115200) -> dict | None:
    """Send ``HELLO_REQUEST`` and return the console's ``HELLO``, or None without one in time."""
    with serial.serial_for_url(port, baudrate=baudrate, timeout=0.05, write_timeout=1.0,
                               exclusive=True) as link:
        link.write(p.encode_frame(p.T_HELLO_REQUEST, 0, 0))
        decoder = p.Decoder()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in decoder.feed(link.read(link.in_waiting or 1)):
                if frame.type == p.T_HELLO:
                    try:
                        return p.unpack_hello(frame.payload)
                    except ValueError:
                        continue  # a broken HELLO: it will repeat
    return None


def render(found: list[Plugged], by_id: Path = BY_ID) -> str:
    """The ports as comments, each console as a ``[[console]]`` table to paste into the config."""
    if not found:
        return (f"# no USB serial devices in {by_id}: is a console plugged in (and flashed, "
                "see firmware_bridge/firmware/README.md)?\n")
    out = []
    for port in found:
        said = [f"USB serial {port.usb_serial or 'unknown'}", f"now {port.device}"]
        if port.product:
            said.insert(0, port.product)
        out.append(f"# {port.path}\n#   {', '.join(said)}")
        if port.problem is not None:
            out.append(f"#   cannot open it: {port.problem}\n")
            continue
        if port.hello is None:
            out.append("#   no console answered (another device, or its firmware is not "
                       "running)\n")
            continue
        hello = port.hello
        caps = [name for bit, name in _CAPABILITIES if hello["capabilities"] & bit]
        protocol = f"{hello['major']}.{hello['minor']}"
        speaks = ("" if hello["major"] == p.PROTO_MAJOR else
                  f" (this controller speaks {p.PROTO_MAJOR}.x: flash the firmware again)")
        out.append(f"#   firmware {'.'.join(map(str, hello['firmware']))}, protocol {protocol}"
                   f"{speaks}, {', '.join(caps) or 'no inputs'}; claims seats "
                   f"{', '.join(map(str, hello['seats'])) or 'none'} (the config decides)")
        out.append(f'[[console]]\nport = "{port.path}"\nseats = {hello["seats"]}\n')
    return "\n".join(out)
