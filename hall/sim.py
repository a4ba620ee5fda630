"""A whole tournament hall on one machine, on the shipped broker configs.

One hall mosquitto on ``config/mosquitto/mafia.conf`` and ``mafia.acl``; per table a mosquitto on
``config/mosquitto/table.conf`` (its listener, and the TLS bridge to the hall under the table's
own account) and a ``mafia-table run --sim`` controller on it. Only paths, ports, table ids and
passwords are changed in the shipped files, so what runs here is what a hall installs.

``python -m hall.sim N`` (``scripts/run-hall.sh N``) runs one until Ctrl-C; the tests and
``bench/hall.py`` use :class:`SimulatedHall` directly. ``python -m hall.sim_tournament N`` plays
a whole tournament on it by itself (``scripts/run-hall.sh N --tournament``).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from contract.topics import ROOT, topic_prefix
from hall.pki import make_certificates, make_password_file
from kit.local_broker import LocalBroker, free_port, is_listening

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "config" / "mosquitto"
EXAMPLE_TABLE = REPO / "config" / "table.example.toml"
#: hall accounts that are not tables (config/mosquitto/mafia.acl)
STAFF = ("rules-core", "observer", "hall-board", "technician")


def password(account: str) -> str:
    """The simulated hall's password of ``account`` (never a real hall's)."""
    return f"secret-of-{account}"


def hall_broker_config(root: Path, port: int, tls_port: int) -> str:
    """The shipped hall config with its files in ``root`` and its listeners on our ports."""
    text = (SHIPPED / "mafia.conf").read_text(encoding="utf-8")
    text = text.replace("/etc/mosquitto/", f"{root}/")
    text = text.replace("listener 1883 127.0.0.1", f"listener {port} 127.0.0.1")
    text = text.replace("listener 8883", f"listener {tls_port} 127.0.0.1")
    if str(tls_port) not in text or str(root) not in text:
        raise RuntimeError("config/mosquitto/mafia.conf no longer has the lines hall.sim moves")
    return text


def table_broker_config(table: str, port: int, hall_tls_port: int, certs: Path) -> str:
    """The shipped table config for ``table``: its listener on ``port``, bridged to the hall."""
    text = (SHIPPED / "table.conf").read_text(encoding="utf-8")
    if "table-1" not in text:
        raise RuntimeError("config/mosquitto/table.conf has no table-1 for hall.sim to set")
    text = re.sub(r"\btable-1\b", table, text)  # first: a password may hold a table's name
    replaced = {
        "listener 1883 127.0.0.1": f"listener {port} 127.0.0.1",
        "hall-broker.local:8883": f"127.0.0.1:{hall_tls_port}",
        "remote_password CHANGE-ME": f"remote_password {password(table)}",
        "/etc/mosquitto/certs/": f"{certs}/",
    }
    for old, new in replaced.items():
        if old not in text:
            raise RuntimeError(f"config/mosquitto/table.conf has no {old!r} for hall.sim to set")
        text = text.replace(old, new)
    return text


@dataclass
class SimulatedTable:
    """One table: its own mosquitto (bridged to the hall) and its ``--sim`` controller."""

    table: str
    broker: LocalBroker
    state_dir: Path
    controller: subprocess.Popen[bytes] | None = None
    log_path: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log_path = self.state_dir / "controller.log"

    def start_controller(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        # a driver SDL does not have: no table of a simulated hall sounds (five at once would be
        # a din), and each says so truly (no sound device: the board shows it silent, no fault)
        env = {**os.environ, "STATE_DIRECTORY": str(self.state_dir), "SDL_AUDIODRIVER": "none"}
        with self.log_path.open("ab") as log:
            self.controller = subprocess.Popen(
                [sys.executable, "-m", "mafia_table.cli", "run", "--sim",
                 "--config", str(EXAMPLE_TABLE), "--table", self.table,
                 "--broker", f"127.0.0.1:{self.broker.port}"],
                stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO)

    def stop_controller(self) -> None:
        """SIGTERM (the controller publishes ``offline`` and exits), SIGKILL if it hangs."""
        if self.controller is None:
            return
        if self.controller.poll() is None:
            self.controller.send_signal(signal.SIGTERM)
        try:
            self.controller.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.controller.kill()
            self.controller.wait()
        self.controller = None


class SimulatedHall:
    """The hall broker and ``tables`` simulated tables under ``root``.

    Tables are named ``table-1`` .. ``table-N``. ``start()`` starts the hall broker, every table's
    broker and (with ``controllers=True``) every table's controller; ``close()`` stops them all.

    ``spare_tables`` more table accounts (``table-N+1`` ..) exist at the hall with no table
    behind them: a client signing in as a table there takes that table's client id (mafia.conf's
    ``use_username_as_clientid``), so it would throw a running table's bridge off the broker.
    """

    def __init__(self, root: Path, tables: int, *, hall_port: int | None = None,
                 spare_tables: int = 0):
        self.root = root
        self.tables_n = tables
        names = [f"table-{n}" for n in range(1, tables + 1)]
        self.certs = root / "certs"
        make_certificates(self.certs, names)
        spares = [f"table-{n}" for n in range(tables + 1, tables + spare_tables + 1)]
        make_password_file(root / "mafia.passwd",
                           {name: password(name) for name in [*names, *spares, *STAFF]})
        (root / "mafia.acl").write_text((SHIPPED / "mafia.acl").read_text(encoding="utf-8"))
        self.port = hall_port or free_port()
        self.tls_port = free_port()
        self.hall = LocalBroker(self.port, workdir=root / "hall",
                                config=hall_broker_config(root, self.port, self.tls_port))
        self.tables: dict[str, SimulatedTable] = {}
        for name in names:
            port = free_port()
            broker = LocalBroker(port, workdir=root / name / "broker",
                                 config=table_broker_config(name, port, self.tls_port,
                                                            self.certs))
            self.tables[name] = SimulatedTable(name, broker, root / name / "state")

    def start(self, *, controllers: bool = True) -> None:
        self.hall.start()
        for table in self.tables.values():
            table.broker.start()
            if controllers:
                table.start_controller()

    def close(self) -> None:
        """Stop controllers first (each says ``offline``), then the brokers; each step even if
        one before it failed."""
        for table in self.tables.values():  # all at once: each takes a second or two
            if table.controller is not None and table.controller.poll() is None:
                table.controller.send_signal(signal.SIGTERM)
        for table in self.tables.values():
            table.stop_controller()
        for table in self.tables.values():
            table.broker.close()
        self.hall.close()


def parser(prog: str = "python -m hall.sim", description: str = "Run N simulated tables "
           "bridged to one hall broker, and the hall board, until Ctrl-C."
           ) -> argparse.ArgumentParser:
    """The simulated hall's arguments (``hall.sim_tournament`` adds its own)."""
    parsing = argparse.ArgumentParser(prog=prog, description=description)
    parsing.add_argument("tables", type=int, help="number of tables (1..50)")
    parsing.add_argument("--hall-port", type=int, default=None,
                         help="the hall broker's plain loopback port (default: a free one)")
    parsing.add_argument("--board-port", type=int, default=8090,
                         help="the hall board's HTTP port (default 8090)")
    return parsing


def main(argv: list[str] | None = None) -> int:
    parsing = parser()
    args = parsing.parse_args(argv)
    if not 1 <= args.tables <= 50:
        parsing.error("tables: give a number from 1 to 50")
    with tempfile.TemporaryDirectory(prefix="mafia-hall-") as root:
        return run(SimulatedHall(Path(root), args.tables, hall_port=args.hall_port),
                   args.board_port)


def run(hall: SimulatedHall, board_port: int,
        play: Callable[[SimulatedHall, str], bool] | None = None) -> int:
    """Run ``hall`` and its board until SIGTERM or Ctrl-C; with ``play``, call it first with
    the board's address once the board listens (it returns whether to stop then)."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    board = None
    try:
        hall.start()
        board = start_board(hall, board_port)
        print(describe(hall, board_port), flush=True)
        if play is not None:
            wait_for_board(board_port, board)
            if play(hall, f"http://127.0.0.1:{board_port}"):
                stop.set()
        stop.wait()
    finally:
        if board is not None:
            board.terminate()
            board.wait(timeout=10)
        hall.close()
    return 0


def wait_for_board(port: int, board: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Until the board listens on ``port`` (its process still running)."""
    deadline = time.monotonic() + timeout
    while not is_listening("127.0.0.1", port):
        if board.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the hall board did not listen on {port} (see board.log)")
        time.sleep(0.05)


def start_board(hall: SimulatedHall, port: int, *, count_wait: float = 30.0,
                log_path: Path | None = None, language: str = "ru") -> subprocess.Popen[bytes]:
    """The hall board on ``127.0.0.1:port`` over the hall broker, in ``language`` until an
    organiser switches; its page's password is ``password("board")``."""
    secrets_ = {"--password-file": ("hall-board.pass", password("hall-board")),
                "--board-password-file": ("board.pass", password("board"))}
    args = []
    for option, (name, secret) in secrets_.items():
        (hall.root / name).write_text(secret + "\n")
        (hall.root / name).chmod(0o600)
        args += [option, str(hall.root / name)]
    log_path = log_path or hall.root / "board.log"
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "mafia_table.cli", "hall", "board", "--broker",
             f"127.0.0.1:{hall.port}", "--listen", f"127.0.0.1:{port}", "--count-wait",
             str(count_wait), "--language", language, "--store", str(hall.root / "board.db"),
             *args],
            stdout=log, stderr=subprocess.STDOUT, cwd=REPO)


@contextmanager
def with_board(hall: SimulatedHall, port: int, *, controllers: bool = True,
               **board: Any) -> Iterator[str]:
    """``hall`` started (its controllers too, unless not), its board on ``port`` listening
    (``start_board``'s options), and the board's address; the board, then the hall, stopped
    after."""
    process = None
    try:
        hall.start(controllers=controllers)
        process = start_board(hall, port, **board)
        wait_for_board(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=10)
        hall.close()


def describe(hall: SimulatedHall, board_port: int) -> str:
    lines = [f"hall board: http://127.0.0.1:{board_port}/  password: {password('board')}",
             f"hall broker: 127.0.0.1:{hall.port} (TLS {hall.tls_port}); files in {hall.root}",
             "  watch it:  mosquitto_sub -h 127.0.0.1 -p "
             f"{hall.port} -u observer -P {password('observer')} -t '{ROOT}/#' -v"]
    for name, table in hall.tables.items():
        lines.append(f"{name}: its broker 127.0.0.1:{table.broker.port}; press seat 1: "
                     f"mosquitto_pub -p {table.broker.port} -t {topic_prefix(name)}sim/press "
                     "-m '{\"seat\": 1}'; log " + str(table.log_path))
    lines.append("Ctrl-C stops the hall.")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
