"""docs/protocol.md, the console wire's own description, and the bad inputs it names: what the
codec is held to on CPython and, under MicroPython, on the firmware's side."""

from __future__ import annotations

import struct

from firmware_bridge import protocol as p
from tests.support.paths import REPO

DOC = (REPO / "docs" / "protocol.md").read_text()

_OTHER_MAJOR = bytes((2, p.T_PING, 0, 5)) + p.pack_ping(7)
#: the edge cases of docs/protocol.md, by what they are counted as
BAD_INPUTS = {
    "bad_crc": bytes.fromhex("0003018102050101040736c600"),
    "bad_cobs": bytes.fromhex("000501020000"),
    "short": bytes.fromhex("00020100"),
    "oversize": b"\x00" + b"\x01" * 66 + b"\x00",
    "bad_version": b"\x00" + p.cobs_encode(
        _OTHER_MAJOR + struct.pack(">H", p.crc16(_OTHER_MAJOR))) + b"\x00",
}
