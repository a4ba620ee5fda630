"""A private mosquitto on loopback, for simulated tables, tests and benchmarks.

``mafia-table run --sim`` starts one when nothing listens on the configured loopback port, so a
laptop with no broker still gets a working table. It listens on 127.0.0.1 only and allows
anonymous clients (mosquitto 2 refuses them unless told), so it is never a production broker:
those are configured from ``config/mosquitto/``.
"""

from __future__ import annotations

import getpass
import itertools
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SEARCH_PATH = "/usr/sbin:/usr/local/sbin:/usr/bin:/usr/local/bin"
#: Where the kernel takes the local ports of outgoing connections (Linux's default, if unread).
EPHEMERAL_PORTS = Path("/proc/sys/net/ipv4/ip_local_port_range")
#: The lowest port ``free_port`` hands out: above the well-known and most registered services.
LOWEST_PORT = 10_000


def find_mosquitto() -> str:
    """The mosquitto binary (Debian puts it in /usr/sbin, often not on a user's PATH)."""
    found = shutil.which("mosquitto") or shutil.which("mosquitto", path=SEARCH_PATH)
    if found is None:
        raise RuntimeError("mosquitto is not installed (Debian: `apt install mosquitto`)")
    return found


def is_listening(host: str, port: int, timeout: float = 0.2) -> bool:
    """True when something accepts TCP connections on ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def ephemeral_ports() -> range:
    """The ports the kernel gives outgoing connections (``ip_local_port_range``)."""
    try:
        low, high = map(int, EPHEMERAL_PORTS.read_text().split())
    except (OSError, ValueError):
        low, high = 32768, 60999
    return range(low, high + 1)


#: The environment variable that narrows where ``free_port`` looks: ``LOW-HIGH`` (inclusive),
#: outside the ephemeral range. The test suite gives each of its parallel workers its own share
#: (tests/conftest.py), and the processes a test starts inherit it, so two workers never race
#: for one port.
PORTS_VARIABLE = "MAFIA_FREE_PORTS"


def port_choices() -> range:
    """Where ``free_port`` looks: ``$MAFIA_FREE_PORTS`` when set, else the larger of the two
    stretches of ports from ``LOWEST_PORT`` up that the ephemeral range leaves."""
    ephemeral = ephemeral_ports()
    given = os.environ.get(PORTS_VARIABLE, "").strip()
    if given:
        return _given_ports(given, ephemeral)
    below = range(LOWEST_PORT, max(LOWEST_PORT, ephemeral.start))
    above = range(max(LOWEST_PORT, ephemeral.stop), 65536)
    return max(below, above, key=len)


def _given_ports(text: str, ephemeral: range) -> range:
    low, dash, high = text.partition("-")
    if not (dash and low.strip().isdigit() and high.strip().isdigit()):
        raise ValueError(f"{PORTS_VARIABLE}={text!r}: LOW-HIGH expected, e.g. 20000-24999")
    ports = range(int(low), int(high) + 1)
    if not 1024 <= ports.start < ports.stop <= 65536:
        raise ValueError(f"{PORTS_VARIABLE}={text!r}: ports from 1024 to 65535, LOW <= HIGH")
    if ports.start < ephemeral.stop and ephemeral.start < ports.stop:
        raise ValueError(f"{PORTS_VARIABLE}={text!r} overlaps the kernel's ephemeral ports "
                         f"({ephemeral.start}-{ephemeral.stop - 1}): a client's connection "
                         "could take a stopped broker's port")
    return ports


#: Where each range's next pick starts: a random place at first, then one port on, so one
#: process never gets a port twice before it has gone round the whole range (two quick calls
#: for two listeners once had a 1 in 22,768 chance of the same answer).
_cursors: dict[range, itertools.count[int]] = {}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing is bound to right now, outside the ephemeral range
    (``port_choices``; its ports in turn, from a random start).

    Never one the kernel could give an outgoing connection: a broker stopped for an outage
    must find its port free again when it restarts, and a client connecting meanwhile (a
    table's bridge retrying, a test's consumer) takes its local port from the ephemeral range
    (binding port 0 would pick from that very range, and mosquitto's restart would then fail
    "Address already in use")."""
    choices = port_choices()
    cursor = _cursors.setdefault(choices, itertools.count(random.randrange(len(choices))))
    for _ in range(min(200, len(choices))):
        port = choices[next(cursor) % len(choices)]
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port found in {choices.start}..{choices.stop - 1}")


class LocalBroker:
    """One mosquitto process on ``127.0.0.1:port``; ``stop`` and ``start`` again to restart it.

    With ``persistence=True`` retained messages and queued sessions survive a restart (the
    broker writes its database into ``workdir``), as on a production broker.
    """

    def __init__(self, port: int | None = None, *, persistence: bool = False,
                 workdir: Path | None = None, config: str | None = None):
        """``config``: the broker's own settings (listeners, auth) instead of an anonymous
        loopback listener on ``port``; it must listen on ``port`` on 127.0.0.1."""
        self.host = "127.0.0.1"
        self.port = port if port is not None else free_port()
        self.persistence = persistence
        self._tmp = None
        if workdir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="mafia-mosquitto-")
            workdir = Path(self._tmp.name)
        self.workdir = workdir
        self.config = config
        self.log_path = workdir / "mosquitto.log"
        self._process: subprocess.Popen[bytes] | None = None

    def config_text(self) -> str:
        if self.config is None:
            base = [
                f"listener {self.port} {self.host}",
                "allow_anonymous true",
                "set_tcp_nodelay true",
                f"persistence {'true' if self.persistence else 'false'}",
            ]
        else:
            base = [self.config]
        lines = [
            *base,
            f"persistence_location {self.workdir}/",
            # as root, mosquitto would switch to user "mosquitto", who cannot write our folder
            f"user {getpass.getuser()}",
            f"log_dest file {self.log_path}",
            "log_type error",
            "log_type warning",
        ]
        return "\n".join(lines) + "\n"

    def start(self, timeout: float = 10.0) -> None:
        """Start mosquitto and return once it accepts connections."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        conf = self.workdir / "mosquitto.conf"
        conf.write_text(self.config_text(), encoding="utf-8")
        self._process = subprocess.Popen([find_mosquitto(), "-c", str(conf)],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while not is_listening(self.host, self.port):
            if self._process.poll() is not None:
                assert self._process.stderr is not None
                err = self._process.stderr.read().decode(errors="replace")
                raise RuntimeError(f"mosquitto exited with {self._process.returncode}: {err}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"mosquitto did not listen on {self.port} within {timeout} s")
            time.sleep(0.02)

    @property
    def pid(self) -> int:
        """The running mosquitto's process id (what a bench measures)."""
        if self._process is None:
            raise RuntimeError("mosquitto is not running")
        return self._process.pid

    @property
    def database(self) -> Path:
        """The persistent broker's database (mosquitto writes it at each autosave and at a
        clean stop)."""
        return self.workdir / "mosquitto.db"

    def saves(self) -> int | None:
        """Which database the broker last wrote, to compare with a later one (see
        ``saved_since``); None before its first.

        mosquitto writes each autosave whole to ``mosquitto.db.new`` and renames it over
        ``mosquitto.db``, so a new inode is a save completed."""
        try:
            return self.database.stat().st_ino
        except FileNotFoundError:
            return None

    def saved_since(self, before: int | None) -> bool:
        """The broker completed a save after ``before = saves()`` was read. mosquitto is one
        thread: a save completed after a client had its CONNACK (or SUBACK, PUBACK) holds
        what that packet made (a session, a subscription, a queued message)."""
        return self.saves() not in (None, before)

    def stop(self) -> None:
        """Stop mosquitto (SIGTERM, so a persistent broker saves its database) and wait."""
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._reap()

    def kill(self) -> None:
        """SIGKILL mosquitto, as a crash or a power cut would: nothing saved on the way out
        (a persistent broker comes back with its last autosave)."""
        if self._process is None:
            return
        self._process.kill()
        self._process.wait()
        self._reap()

    def _reap(self) -> None:
        assert self._process is not None
        if self._process.stderr:
            self._process.stderr.close()
        self._process = None

    def close(self) -> None:
        """Stop, and remove the working folder if this broker made it."""
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> LocalBroker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
