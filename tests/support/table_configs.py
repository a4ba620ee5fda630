"""Table config files for the tests: written to a test's folder, loaded as the service loads
them (``controller.config.load``), so a test's table is checked like a real one."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import msgspec

from controller import config as config_module
from tests.support.paths import EXAMPLE_24, EXAMPLE_CONFIG, PRESETS


def write_config(tmp_path: Path, body: str, name: str = "table.toml") -> Path:
    """``body`` (dedented) as the file ``name`` in ``tmp_path``; its path."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


#: a six-seat simulated table "t1" on the broker at ``{port}`` (``str.format`` it): seats 1-3
#: wired (seat 2 with an RGB light), the judge's buttons on pins 9-11, its journal ``t1.db``
SMALL_TABLE = """
    table = "t1"
    seats = 6

    [broker]
    host = "127.0.0.1"
    port = {port}
    keepalive = 5

    [backends]
    gpio = "mock"
    consoles = "emulated"
    audio = "off"

    [store]
    path = "t1.db"

    [gpio]
    debounce_ms = 20

    [gpio.judge]
    confirm = 9
    reject = 10
    next = 11

    [[gpio.seat]]
    seat = 1
    button = 4
    light = 18

    [[gpio.seat]]
    seat = 2
    button = 17
    rgb = [22, 23, 24]

    [[gpio.seat]]
    seat = 3
    button = 27
    light = 25
"""

#: two emulated consoles to add to ``SMALL_TABLE``: a keypad hub for seats 1-3 (keys only) and
#: a console with buttons and lights for seats 4-5
CONSOLES = """
    [[console]]
    port = "/dev/serial/by-id/usb-hub-keypads"
    seats = [1, 2, 3]
    keys_only = true

    [[console]]
    port = "/dev/serial/by-id/usb-seat-4-5"
    seats = [4, 5]
"""


def strip_table(seats: int) -> str:
    """The 24-seat example table (its lights on a strip, its buttons on two expanders) as
    table-1, cut to its first ``seats`` seats, with a keypad console for every seat: the text of
    a table of any size up to 24 (below 15 seats the second expander holds only the judge's
    buttons)."""
    def first(match: re.Match[str]) -> str:
        kept = [int(s) for s in match[1].split(",") if int(s) <= seats]
        return f"seats = {kept}"
    text = EXAMPLE_24.read_text(encoding="utf-8").replace('table = "table-24"', 'table = "table-1"')
    text = text.replace("seats = 24\n", f"seats = {seats}\n")
    text = re.sub(r"  \{ seat = (\d+),.*\n", lambda m: m[0] if int(m[1]) <= seats else "", text)
    text = re.sub(r"seats = \[([\d, ]+)\]", first, text)
    return text + ('\n[[console]]\nport = "/dev/serial/by-id/usb-keypads-if00"\n'
                   f"seats = {list(range(1, seats + 1))}\nkeys_only = true\n")


def make_table_config(tmp_path: Path, port: int) -> config_module.Config:
    """A six-seat simulated table: seats 1-3 wired (seat 2 with RGB), judge buttons 9-11."""
    return config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=port)))


def heard_table(tmp_path: Path, port: int) -> tuple[config_module.Config, Path]:
    """``SMALL_TABLE`` with its speaker on SDL's disk driver, and the file it writes
    (``tests.support.disk_audio``); the music silent, so a lone sound's samples are written as
    they are in its WAV."""
    out = tmp_path / "speaker.raw"
    body = SMALL_TABLE.format(port=port).replace(
        'audio = "off"', f'audio = "disk"\n    audio_disk_file = "{out}"')
    return config_module.load(write_config(tmp_path, body + "\n[music]\nvolume = 0.0\n")), out


def quick_table(tmp_path: Path, port: int, rules: str = "fiim") -> config_module.Config:
    """The example table, simulated, with short vote windows so that a game takes seconds (1 s:
    a fist travels a broker and two clients in it however busy the machine; 0.4 s lost four of
    five fists with the suite's workers on two busy cores); on the shipped rule preset
    ``rules`` (config/rules/NAME.toml; the example's is FIIM's)."""
    source = EXAMPLE_CONFIG
    if rules != "fiim":
        source = tmp_path / "table.toml"
        source.write_text(EXAMPLE_CONFIG.read_text(encoding="utf-8").replace(
            'rules = "rules/fiim.toml"', f'rules = "{PRESETS / rules}.toml"'), encoding="utf-8")
    cfg = config_module.load(source, config_module.Overrides(
        broker=f"127.0.0.1:{port}", simulated=True))
    return msgspec.structs.replace(
        cfg,
        vote=msgspec.structs.replace(cfg.vote, window=1.0, gap=0.15),
        store=msgspec.structs.replace(cfg.store, path=str(tmp_path / "game.db")),
        backends=msgspec.structs.replace(cfg.backends, audio="off"))


def preset(name: str, tmp_path: Path) -> config_module.Config:
    """A ten-seat table "t" on the shipped rule preset ``name`` (config/rules/NAME.toml)."""
    table = tmp_path / f"{name}.toml"
    table.write_text(f'table = "t"\nseats = 10\nrules = "{PRESETS / name}.toml"\n')
    return config_module.load(table)
