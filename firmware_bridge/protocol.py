"""The console wire protocol, sans I/O: bytes in, frames out; frames in, bytes out.

This one file runs on the host (CPython) and on the console (MicroPython, copied next to the
firmware): it uses only ``struct``, plain classes and builtins. ``docs/protocol.md`` is its
specification, with test vectors that ``tests/firmware_bridge/test_protocol.py`` checks against this
code.

Layers, outside in:

* **Framing**: COBS, with a ``0x00`` delimiter before and after every frame. A decoded frame is
  at most ``MAX_FRAME`` (64) bytes. Garbage, a bad CRC, a bad COBS group or an oversized frame
  is counted and dropped; decoding resumes at the next ``0x00``.
* **Frame**: ``ver | type | seq | ack | payload (0..58) | crc16`` with the CRC (CRC-16/
  CCITT-FALSE: poly 0x1021, init 0xFFFF, big-endian on the wire) over everything before it.
* **Messages**: the ``type`` byte and its payload layout (``T_*`` and the ``pack_*``/``unpack_*``
  helpers). Multi-byte numbers are big-endian.
"""

import struct

PROTO_MAJOR = 1
PROTO_MINOR = 2  # 1.1: LIGHT mode 4, fast blink; 1.2: HELLO ends with first_seq
MAX_FRAME = 64
HEADER = 4
MAX_PAYLOAD = MAX_FRAME - HEADER - 2
#: the longest COBS encoding of a MAX_FRAME frame (one overhead byte per 254 data bytes)
MAX_ENCODED = MAX_FRAME + 1 + MAX_FRAME // 254

# console -> host
T_HELLO = 0x01
T_EVENT = 0x02
T_PONG = 0x03
# host -> console
T_HELLO_REQUEST = 0x80
T_PING = 0x81
T_LIGHT = 0x82
T_INDICATOR = 0x83
T_ACK = 0x84
T_WELCOME = 0x85

# EVENT kinds
EV_KEY = 1
EV_BUTTON_DOWN = 2
EV_BUTTON_UP = 3

# capability bits in HELLO
CAP_KEYPAD = 0x01
CAP_BUTTON = 0x02
CAP_RGB = 0x04
CAP_INDICATOR = 0x08

# LIGHT modes
LIGHT_MODES = ("off", "on", "dim", "blink", "fast_blink")

KEYS = b"0123456789*#"


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).
    ``crc16(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result has no 0x00 byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo ``cobs_encode``; ``ValueError`` on a zero byte or a group running past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ValueError("COBS group runs past the end of the frame")
        block = data[i + 1:end]
        if 0 in block:
            raise ValueError("zero byte inside a COBS frame")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


class Frame:
    """One decoded frame."""

    __slots__ = ("ack", "payload", "seq", "type")

    def __init__(self, type: int, seq: int, ack: int, payload: bytes = b""):
        self.type = type
        self.seq = seq
        self.ack = ack
        self.payload = payload

    def __eq__(self, other):
        return (isinstance(other, Frame) and self.type == other.type and self.seq == other.seq
                and self.ack == other.ack and self.payload == other.payload)

    def __repr__(self):
        return f"Frame(0x{self.type:02x}, seq={self.seq}, ack={self.ack}, payload={self.payload!r})"


def encode_frame(type: int, seq: int, ack: int, payload: bytes = b"") -> bytes:
    """A frame ready for the wire: COBS-encoded between two 0x00 delimiters (the leading one
    ends any noise the line picked up since the last frame, so the frame itself survives)."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
    body = bytes((PROTO_MAJOR, type, seq & 0xFF, ack & 0xFF)) + payload
    return b"\x00" + cobs_encode(body + struct.pack(">H", crc16(body))) + b"\x00"


class Decoder:
    """Bytes in, frames out. Never raises on input and never holds more than MAX_ENCODED bytes.

    ``counts`` tells what was seen: ``frames`` (good ones), ``bad_cobs``, ``bad_crc``, ``short``
    (under header + CRC), ``oversize`` (longer than any frame may be), ``bad_version`` (a frame of
    another protocol major: dropped here, the link refuses such a console at HELLO).
    """

    def __init__(self):
        self._buffer = bytearray()
        self._overflow = False
        self.counts = {"frames": 0, "bad_cobs": 0, "bad_crc": 0, "short": 0, "oversize": 0,
                       "bad_version": 0}

    def feed(self, data: bytes) -> list:
        frames = []
        for byte in data:
            if byte != 0:
                if len(self._buffer) < MAX_ENCODED:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            frame = self._finish()
            if frame is not None:
                frames.append(frame)
        return frames

    def _finish(self):
        encoded, overflow = bytes(self._buffer), self._overflow
        self._buffer = bytearray()
        self._overflow = False
        if overflow:
            self.counts["oversize"] += 1
            return None
        if not encoded:
            return None  # back-to-back delimiters: idle line, not an error
        try:
            decoded = cobs_decode(encoded)
        except ValueError:
            self.counts["bad_cobs"] += 1
            return None
        if len(decoded) > MAX_FRAME:
            self.counts["oversize"] += 1
            return None
        if len(decoded) < HEADER + 2:
            self.counts["short"] += 1
            return None
        body, (crc,) = decoded[:-2], struct.unpack(">H", decoded[-2:])
        if crc16(body) != crc:
            self.counts["bad_crc"] += 1
            return None
        if body[0] != PROTO_MAJOR and body[1] != T_HELLO:
            self.counts["bad_version"] += 1
            return None
        self.counts["frames"] += 1
        return Frame(body[1], body[2], body[3], bytes(body[4:]))


# ---------------------------------------------------------------- message payloads

# HELLO: proto major, minor, firmware major, minor, patch, capabilities, unique id (8),
# boot id (u32), then the number of seats served and the seats.
_HELLO = ">BBBBBB8sIB"


def pack_hello(firmware: tuple, capabilities: int, unique_id: bytes, boot_id: int,
               seats: list, major: int = PROTO_MAJOR, minor: int = PROTO_MINOR,
               first_seq: int = 1) -> bytes:
    """``first_seq`` (since 1.2): the seq of the oldest unacknowledged event, or of the next
    event when none waits; the host starts counting there for a boot it does not know."""
    return struct.pack(_HELLO, major, minor, firmware[0], firmware[1], firmware[2],
                       capabilities, unique_id, boot_id, len(seats)) + bytes(seats) + bytes(
        (first_seq,))


def unpack_hello(payload: bytes) -> dict:
    size = struct.calcsize(_HELLO)
    if len(payload) < size:
        raise ValueError(f"HELLO of {len(payload)} bytes is under {size}")
    major, minor, fw1, fw2, fw3, caps, uid, boot, count = struct.unpack(_HELLO, payload[:size])
    seats = list(payload[size:size + count])
    if len(seats) != count:
        raise ValueError(f"HELLO names {count} seats but carries {len(seats)}")
    rest = payload[size + count:]
    return {"major": major, "minor": minor, "firmware": (fw1, fw2, fw3), "capabilities": caps,
            "unique_id": uid, "boot_id": boot, "seats": seats,
            "first_seq": rest[0] if rest else None}


# EVENT: seat, kind, value (a key's ASCII code, else 0), console clock in ms (u32).
_EVENT = ">BBBI"


def pack_event(seat: int, kind: int, value: int, t_ms: int) -> bytes:
    return struct.pack(_EVENT, seat, kind, value, t_ms & 0xFFFFFFFF)


def unpack_event(payload: bytes) -> tuple:
    """(seat, kind, value, t_ms)"""
    if len(payload) != struct.calcsize(_EVENT):
        raise ValueError(f"EVENT of {len(payload)} bytes")
    return struct.unpack(_EVENT, payload)


# PING: a token (u32). PONG: the token back and the console clock in ms (u32) when it answered.
def pack_ping(token: int) -> bytes:
    return struct.pack(">I", token & 0xFFFFFFFF)


def unpack_ping(payload: bytes) -> int:
    if len(payload) != 4:
        raise ValueError(f"PING of {len(payload)} bytes")
    return struct.unpack(">I", payload)[0]


def pack_pong(token: int, t_ms: int) -> bytes:
    return struct.pack(">II", token & 0xFFFFFFFF, t_ms & 0xFFFFFFFF)


def unpack_pong(payload: bytes) -> tuple:
    """(token, t_ms)"""
    if len(payload) != 8:
        raise ValueError(f"PONG of {len(payload)} bytes")
    return struct.unpack(">II", payload)


# LIGHT: seat, mode (index in LIGHT_MODES), red, green, blue (0..255).
def pack_light(seat: int, mode: int, rgb: tuple) -> bytes:
    return struct.pack(">BBBBB", seat, mode, rgb[0], rgb[1], rgb[2])


def unpack_light(payload: bytes) -> tuple:
    """(seat, mode, (r, g, b))"""
    if len(payload) != 5:
        raise ValueError(f"LIGHT of {len(payload)} bytes")
    seat, mode, r, g, b = struct.unpack(">BBBBB", payload)
    if mode >= len(LIGHT_MODES):
        raise ValueError(f"LIGHT mode {mode} unknown")
    return seat, mode, (r, g, b)


# INDICATOR: seat, pattern (0 off, 1 on, 2 blink, 3 double blink): the private indicator.
def pack_indicator(seat: int, pattern: int) -> bytes:
    return struct.pack(">BB", seat, pattern)


def unpack_indicator(payload: bytes) -> tuple:
    if len(payload) != 2:
        raise ValueError(f"INDICATOR of {len(payload)} bytes")
    return struct.unpack(">BB", payload)


# WELCOME: the boot id of the HELLO it answers (u32). From this frame on, the host's ``ack``
# refers to this boot's events: the console ignores ``ack`` until it has it.
def pack_welcome(boot_id: int) -> bytes:
    return struct.pack(">I", boot_id & 0xFFFFFFFF)


def unpack_welcome(payload: bytes) -> int:
    if len(payload) != 4:
        raise ValueError(f"WELCOME of {len(payload)} bytes")
    return struct.unpack(">I", payload)[0]


def seq_after(seq: int) -> int:
    """The sequence number after ``seq``: 1..255, wrapping (0 means "unsequenced")."""
    return 1 if seq >= 255 else seq + 1
