"""Clear words where a technician looks: ``mafia-table doctor`` and the start of ``mafia-table
run`` name what this machine lacks for the table, one line each with the command that fixes it,
and exit 2 with no traceback. Real parts: gpiozero's lgpio factory with PyPI's lgpio on a machine
that is no Pi, Python's own import refusal for a missing module, a pty for a console, SDL's ALSA
driver for a sound card that will not open; fake device files in a temp folder where the
service's user must be refused."""

from __future__ import annotations

import grp
import os
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from controller import config
from controller.doctor import (
    Account,
    Trouble,
    console_troubles,
    pin_troubles,
    sound_troubles,
)
from tests.support.process import finish, start_service
from tests.support.table_configs import write_config

#: the service's user, as the doctor checks the devices for it: in no group of the files here
SERVICE = Account("mafia-table", uid=4_242_424, gids=frozenset({4_242_424}))
NO_PI = Trouble(
    "no Raspberry Pi found (gpiozero reads no board revision in /proc/device-tree or "
    "/proc/cpuinfo)",
    'run it on the table\'s Pi, or simulate the seats: mafia-table run --sim --config FILE (or '
    '[backends] gpio = "mock")')
NO_CARDS = "--- no soundcards ---\n"  # ALSA's /proc/asound/cards with none


def table(tmp_path: Path, *, gpio: str = "lgpio", consoles: str = "serial", audio: str = "off",
          ports: tuple[str, ...] = ()) -> Path:
    """A six-seat table's config: the backends asked for, a console on each of ``ports``."""
    wired = "".join(f'\n[[console]]\nport = "{port}"\nseats = {seats}\n'
                    for seats, port in zip(([1], [2, 3, 4], [5, 6]), ports, strict=False))
    return write_config(tmp_path, f"""
        table = "t1"
        seats = 6
        [backends]
        gpio = "{gpio}"
        consoles = "{consoles}"
        audio = "{audio}"
        [store]
        path = "t1.db"
        """ + wired)


def doctor(config_file: Path, *before: str, env: dict[str, str] | None = None,
           ) -> subprocess.CompletedProcess[str]:
    """``mafia-table doctor --config config_file`` in a process of its own, with ``before``
    run first in it (Python statements)."""
    code = "; ".join([*before, "from mafia_table.cli import main",
                      "sys.exit(main(sys.argv[1:]))"])
    return subprocess.run([sys.executable, "-c", f"import sys; {code}", "doctor", "--config",
                           str(config_file)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


def test_a_missing_pin_library_is_one_line_with_the_install_command(tmp_path):
    # Python refuses the import as it does when the module is not installed
    done = doctor(table(tmp_path), "sys.modules['lgpio'] = None")
    assert done.returncode == 2, done.stderr
    assert done.stdout.splitlines() == [
        "mafia-table doctor: no GPIO pin library: the Python module lgpio is not installed; to "
        "fix: sudo apt install python3-lgpio; where the system has none (Debian): sudo "
        f"{sys.executable} -m pip install lgpio"]
    assert "Traceback" not in done.stderr


def test_no_pi_is_named_by_gpiozeros_own_factory(tmp_path):
    # the real lgpio factory of gpiozero, with PyPI's lgpio, on this machine (no Pi)
    assert pin_troubles("lgpio", Account.this_process(), dev=tmp_path) == [NO_PI]
    assert pin_troubles("mock", Account.this_process(), dev=tmp_path) == []


def test_run_without_a_pi_says_one_line_and_exits_2_with_no_traceback(tmp_path):
    # what a technician saw: a RuntimeError, then gpiozero's PinUnknownPi, in a stack
    missing = tmp_path / "ttyACM7"
    code, out = finish(start_service("--config", str(table(tmp_path, ports=(str(missing),)))))
    assert code == 2, out
    lines = out.splitlines()
    assert [line.split(" ", 2)[2] for line in lines] == [
        f"ERROR mafia-table: {NO_PI}",
        f"WARNING mafia-table: the console of seat 1 is not there: no {missing}; to fix: plug "
        "it in (mafia-table consoles lists the plugged ones and their paths, to paste into "
        "[[console]] port)"]
    assert not (tmp_path / "t1.db").exists()  # it stopped before anything


def test_a_gpio_chip_the_user_may_not_open_names_the_group_to_join(tmp_path):
    chip = tmp_path / "gpiochip0"  # as Raspberry Pi OS has it: crw-rw---- root:gpio
    chip.touch()
    chip.chmod(0o660)
    if os.geteuid() == 0:
        os.chown(chip, 0, grp.getgrnam("dialout").gr_gid)
    group = grp.getgrgid(chip.stat().st_gid).gr_name
    owner = chip.owner()
    assert pin_troubles("lgpio", SERVICE, dev=tmp_path) == [Trouble(
        f"user mafia-table may not open {chip} (-rw-rw---- {owner}:{group})",
        f"sudo usermod -a -G {group} mafia-table, then log in again (the service: sudo "
        "systemctl restart mafia-table)")]
    member = Account("mafia-table", SERVICE.uid, SERVICE.gids | {chip.stat().st_gid})
    assert pin_troubles("lgpio", member, dev=tmp_path) == [NO_PI]  # past the chip: no Pi here


def test_a_gpio_chip_only_root_may_open_needs_the_installs_udev_rule(tmp_path):
    # as Debian and Ubuntu leave it: root's alone (the link stands in for the chip's node)
    chip = tmp_path / "gpiochip0"
    chip.symlink_to("/etc/passwd")  # root:root, writable by root only
    assert pin_troubles("lgpio", SERVICE, dev=tmp_path) == [Trouble(
        f"user mafia-table may not open {chip} (-rw-r--r-- root:root)",
        "sudo scripts/install-pi.sh in the clone (its udev rule gives the GPIO chips to the "
        "gpio group), then sudo reboot")]


def test_a_console_not_there_and_one_the_user_may_not_open(tmp_path):
    controller_end, console_end = os.openpty()  # a console plugged in: a real tty
    try:
        tty.setraw(console_end)
        port = Path(os.ttyname(console_end))
        port.chmod(0o660)  # as udev leaves a /dev/ttyACM*: crw-rw---- root:dialout
        if os.geteuid() == 0:
            os.chown(port, 0, grp.getgrnam("dialout").gr_gid)
        missing = tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c-if00"
        cfg = config.load(table(tmp_path, ports=(str(port), str(missing), "socket://h:1")))
        owner, group = port.owner(), port.group()
        mode = "crw-rw----"
        assert console_troubles(cfg, SERVICE) == [
            Trouble(f"user mafia-table may not open {port} ({mode} {owner}:{group})",
                    f"sudo usermod -a -G {group} mafia-table, then log in again (the service: "
                    "sudo systemctl restart mafia-table)"),
            Trouble(f"the console of seats 2-4 is not there: no {missing}",
                    "plug it in (mafia-table consoles lists the plugged ones and their paths, "
                    "to paste into [[console]] port)")]
        assert console_troubles(cfg, Account.this_process()) == [  # its owner may
            Trouble(f"the console of seats 2-4 is not there: no {missing}",
                    "plug it in (mafia-table consoles lists the plugged ones and their paths, "
                    "to paste into [[console]] port)")]
        emulated = config.load(table(tmp_path, consoles="emulated", ports=(str(missing),)))
        assert console_troubles(emulated, SERVICE) == []
    finally:
        os.close(controller_end)
        os.close(console_end)


def test_no_sound_card_and_no_sound_server(tmp_path):
    cards = tmp_path / "cards"
    cards.write_text(NO_CARDS)
    cfg = config.load(table(tmp_path, gpio="mock", audio="sdl"))
    quiet = {"XDG_RUNTIME_DIR": str(tmp_path)}  # no PulseAudio or PipeWire socket there
    assert sound_troubles(cfg, environ=quiet, cards=cards) == [Trouble(
        "no sound: no sound card (/proc/asound/cards) and no sound server",
        "plug in the USB speaker, or turn on the Pi's own sound (dtparam=audio=on in "
        '/boot/firmware/config.txt, then sudo reboot); or a silent table: [backends] audio = '
        '"off"')]
    silent = config.load(table(tmp_path, gpio="mock", audio="off"))
    assert sound_troubles(silent, environ=quiet, cards=cards) == []


@pytest.mark.parametrize("driver", ["alsa", "dummy"])
def test_a_sound_card_sdl_cannot_open_and_one_it_can(tmp_path, driver):
    # SDL's own ALSA driver, on a card that is not there (ALSA_CARD picks ALSA's default card)
    done = doctor(table(tmp_path, gpio="mock", consoles="emulated", audio="sdl"),
                  env={"SDL_AUDIODRIVER": driver, "ALSA_CARD": "99"})
    if driver == "dummy":
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines() == [
            "mafia-table doctor: ok: table t1 can run here as "
            f"{Account.this_process().name} (gpio mock, 0 consoles, audio sdl)"]
        return
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "mafia-table doctor: the sound card would not open: no sound device (sdl): ALSA: "
        "Couldn't open audio device: Invalid argument; to fix: check the speaker and aplay -l; "
        'or a silent table: [backends] audio = "off"']
    assert "Traceback" not in done.stderr
