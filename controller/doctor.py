"""What stands between this machine and a working table: one line each, with the command that
fixes it (``mafia-table doctor``, and the start of ``mafia-table run``).

A technician installing a table meets the same few walls, and each deserves one line, not a
stack trace:

* **the pin library** (``backends.gpio = "lgpio"``): gpiozero's lgpio factory needs the Python
  module ``lgpio``;
* **a Raspberry Pi**: gpiozero reads the board's revision (``/proc/device-tree``,
  ``/proc/cpuinfo``); on any other machine there is none, and only ``--sim`` runs;
* **the GPIO chips** ``/dev/gpiochip*``: the user who runs the table (the service's,
  ``mafia-table``) must open them, through the ``gpio`` group;
* **each console** of ``[[console]]`` (``backends.consoles = "serial"``): its port is there, and
  that user may open it (``/dev/ttyACM*``: the ``dialout`` group, or the install's udev rule);
* **the speaker** (``backends.audio = "sdl"``): a sound card or a sound server, and SDL opens it.

Each check returns ``Trouble`` (what is wrong, and the fix). Whether a user may open a device is
read from its mode, owner and group against the user's groups (``may_open``), so the doctor,
run by root or by a technician's own account, answers for the service's user. ``run`` checks
the GPIO side for itself at its start and stops with exit 2 on any (restarting cannot fix it);
a missing console or speaker only warns there: the table plays on, and ``health`` shows it.
"""

from __future__ import annotations

import grp
import os
import pwd
import stat
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from gpiozero.exc import PinUnknownPi
from gpiozero.pins import Factory

from controller.config import Config
from hardware.audio import Speaker, no_sound_device
from hardware.gpio import PinLibraryMissing, make_pin_factory

#: the user the installed unit runs the table as (examples/mafia-table.service)
SERVICE_USER = "mafia-table"
#: where the installed controller lives (scripts/install-pi.sh)
INSTALLED_PYTHON = "/opt/mafia-table/venv/bin/python"


@dataclass(frozen=True)
class Trouble:
    """One thing wrong, and the command (or the step) that fixes it."""

    what: str
    fix: str

    def __str__(self) -> str:
        return f"{self.what}; to fix: {self.fix}"


@dataclass(frozen=True)
class Account:
    """Whoever must open the devices: a user's id and every group it is in."""

    name: str
    uid: int
    gids: frozenset[int]

    @classmethod
    def named(cls, name: str) -> Account:
        """The user ``name`` as the system knows it (``KeyError`` if it does not)."""
        entry = pwd.getpwnam(name)
        return cls(name, entry.pw_uid, frozenset(os.getgrouplist(name, entry.pw_gid)))

    @classmethod
    def this_process(cls) -> Account:
        uid = os.geteuid()
        try:
            name = pwd.getpwuid(uid).pw_name
        except KeyError:
            name = str(uid)
        return cls(name, uid, frozenset([os.getegid(), *os.getgroups()]))


def service_account() -> Account:
    """The service's user where the install made it, else whoever runs this."""
    try:
        return Account.named(SERVICE_USER)
    except KeyError:
        return Account.this_process()


def may_open(path: Path, account: Account) -> bool:
    """Whether ``account`` may open ``path`` to read and write, by its mode bits (root may)."""
    info = path.stat()
    if account.uid == 0:
        return True
    if info.st_uid == account.uid:
        wanted = stat.S_IRUSR | stat.S_IWUSR
    elif info.st_gid in account.gids:
        wanted = stat.S_IRGRP | stat.S_IWGRP
    else:
        wanted = stat.S_IROTH | stat.S_IWOTH
    return info.st_mode & wanted == wanted


def _owners(path: Path) -> tuple[str, str]:
    """``path``'s owner and group, by name where they have one."""
    info = path.stat()
    try:
        owner = pwd.getpwuid(info.st_uid).pw_name
    except KeyError:
        owner = str(info.st_uid)
    try:
        group = grp.getgrgid(info.st_gid).gr_name
    except KeyError:
        group = str(info.st_gid)
    return owner, group


def _denied(path: Path, account: Account, *, fix_when_root_only: str) -> Trouble:
    """``account`` may not open ``path``: the group to join, or (a device only root may open)
    ``fix_when_root_only``."""
    owner, group = _owners(path)
    what = (f"user {account.name} may not open {path} ({stat.filemode(path.stat().st_mode)} "
            f"{owner}:{group})")
    if path.stat().st_gid == 0:
        return Trouble(what, fix_when_root_only)
    return Trouble(what, f"sudo usermod -a -G {group} {account.name}, then log in again "
                         "(the service: sudo systemctl restart mafia-table)")


def pin_troubles(backend: str, account: Account, *, dev: Path = Path("/dev"),
                 factory: Callable[[str], Factory] = make_pin_factory) -> list[Trouble]:
    """What keeps gpiozero's ``backend`` pin factory from working here for ``account``: the
    GPIO chips in ``dev`` it may not open, else the factory's own failure (the pin library
    missing, no Pi). The mock backend has none."""
    if backend == "mock":
        return []
    denied = [_denied(chip, account, fix_when_root_only=(
                  "sudo scripts/install-pi.sh in the clone (its udev rule gives the GPIO chips "
                  "to the gpio group), then sudo reboot"))
              for chip in sorted(dev.glob("gpiochip*")) if not may_open(chip, account)]
    if denied:
        return denied
    try:
        factory(backend).close()
    except PinLibraryMissing:
        return [Trouble(
            "no GPIO pin library: the Python module lgpio is not installed",
            f"sudo apt install python3-lgpio; where the system has none (Debian): sudo "
            f"{_python()} -m pip install lgpio")]
    except PinUnknownPi:
        return [Trouble(
            "no Raspberry Pi found (gpiozero reads no board revision in /proc/device-tree or "
            "/proc/cpuinfo)",
            "run it on the table's Pi, or simulate the seats: mafia-table run --sim --config "
            "FILE (or [backends] gpio = \"mock\")")]
    except Exception as exc:  # lgpio.error and the like: the chip would not open
        return [Trouble(f"the GPIO chip would not open ({type(exc).__name__}: {exc})",
                        "check that this is the table's Pi and nothing else holds the pins "
                        "(sudo lsof /dev/gpiochip*)")]
    return []


def _python() -> str:
    """The Python of this controller, as a technician would type it."""
    return INSTALLED_PYTHON if sys.prefix == str(Path(INSTALLED_PYTHON).parents[1]) \
        else sys.executable


def console_troubles(config: Config, account: Account) -> list[Trouble]:
    """Each ``[[console]]`` port (a path, not a pyserial URL) that is not there, or that
    ``account`` may not open. Emulated consoles have none."""
    if config.backends.consoles != "serial":
        return []
    troubles = []
    for console in config.console:
        if "://" in console.port:
            continue
        port = Path(console.port)
        if not port.exists():
            troubles.append(Trouble(
                f"the console of {_seats(console.seats)} is not there: no {port}",
                "plug it in (mafia-table consoles lists the plugged ones and their paths, to "
                "paste into [[console]] port)"))
        elif not may_open(port, account):
            troubles.append(_denied(port, account, fix_when_root_only=(
                "sudo scripts/install-pi.sh in the clone (its udev rule gives the consoles to "
                "the mafia-table group), then unplug it and plug it in again")))
    return troubles


def _seats(seats: list[int]) -> str:
    """``seat 3``, ``seats 1-10``, ``seats 1, 3, 5``: a console's seats, as a person says them."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    if seats == list(range(seats[0], seats[-1] + 1)):
        return f"seats {seats[0]}-{seats[-1]}"
    return "seats " + ", ".join(map(str, seats))


def sound_troubles(config: Config, *, environ: Mapping[str, str] = os.environ,
                   cards: Path = Path("/proc/asound/cards")) -> list[Trouble]:
    """No sound card (``cards``, ALSA's list) and no sound server, or one that SDL cannot open
    (pygame's mixer, as the speaker opens it). Only for ``backends.audio = "sdl"``."""
    if config.backends.audio != "sdl":
        return []
    off = 'or a silent table: [backends] audio = "off"'
    if reason := no_sound_device(environ, cards):
        return [Trouble(f"no sound: {reason}",
                        "plug in the USB speaker, or turn on the Pi's own sound (dtparam=audio=on "
                        f"in /boot/firmware/config.txt, then sudo reboot); {off}")]
    speaker = Speaker("sdl")
    speaker.close()
    return [Trouble(f"the sound card would not open: {problem}",
                    f"check the speaker and aplay -l; {off}")
            for problem in speaker.problems]


def examine(config: Config, account: Account, *, dev: Path = Path("/dev")) -> list[Trouble]:
    """Everything ``config`` needs of this machine that is missing, for ``account``."""
    return [*pin_troubles(config.backends.gpio, account, dev=dev),
            *console_troubles(config, account), *sound_troubles(config)]
