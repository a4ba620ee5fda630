"""systemd's Type=notify and watchdog, with a datagram socket standing in for systemd: READY once
the hardware is up and the journal open, WATCHDOG from the event loop, none while it is stuck."""

from __future__ import annotations

import os
import socket
import threading

import pytest

from controller import config as config_module
from controller.sd_notify import Notifier
from tests.support.running import Running
from tests.support.table_configs import SMALL_TABLE, write_config


class FakeSystemd:
    """The notification socket: a bound AF_UNIX datagram socket, read message by message."""

    def __init__(self, address: str):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address.replace("@", "\0", 1) if address.startswith("@") else address)
        self.address = address

    def next(self, timeout: float = 10.0) -> dict[str, str]:
        self.sock.settimeout(timeout)
        data = self.sock.recv(4096).decode()
        return dict(line.split("=", 1) for line in data.splitlines())

    def wait_for(self, key: str, timeout: float = 10.0) -> dict[str, str]:
        while True:
            message = self.next(timeout)
            if key in message:
                return message

    def drain(self) -> None:
        self.sock.setblocking(False)
        try:
            while True:
                self.sock.recv(4096)
        except BlockingIOError:
            pass

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    fake = FakeSystemd(str(tmp_path / "notify"))
    monkeypatch.setenv("NOTIFY_SOCKET", fake.address)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")  # 0.1 s: a WATCHDOG=1 every 50 ms
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    yield fake
    fake.close()


def test_ready_then_watchdog_from_the_loop_and_none_while_it_is_stuck(table_config, systemd):
    run = Running(table_config)
    try:
        ready = systemd.wait_for("READY")
        assert ready["READY"] == "1" and ready["STATUS"].startswith("table t1: broker ")
        systemd.wait_for("WATCHDOG")
        entered, release = threading.Event(), threading.Event()
        run.service.loop.call_soon(lambda: (entered.set(), release.wait(30)))
        assert entered.wait(10)
        systemd.drain()  # what was sent before the loop got stuck
        with pytest.raises(TimeoutError):  # five periods without a word: systemd would kill it
            systemd.next(timeout=0.5)
        release.set()
        systemd.wait_for("WATCHDOG")  # the loop is back, and so is the watchdog
    finally:
        release.set()
        run.close()
    assert systemd.wait_for("STOPPING")["STOPPING"] == "1"


def test_ready_comes_while_the_broker_is_away(tmp_path, systemd):
    cfg = config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=9)))
    run = Running(cfg)
    try:
        ready = systemd.wait_for("READY")
        assert "broker away" in ready["STATUS"] and "0 events wait" in ready["STATUS"]
    finally:
        run.close()


def test_abstract_socket_names_and_another_pids_watchdog():
    fake = FakeSystemd(f"@mafia-test-{os.getpid()}")
    try:
        notifier = Notifier({"NOTIFY_SOCKET": fake.address, "WATCHDOG_USEC": "4000000",
                             "WATCHDOG_PID": str(os.getpid())})
        assert notifier.watchdog_every == 2.0
        notifier.notify(STATUS="hello")
        assert fake.next() == {"STATUS": "hello"}
        notifier.close()
    finally:
        fake.close()
    assert Notifier({"NOTIFY_SOCKET": "@x", "WATCHDOG_USEC": "4000000",
                     "WATCHDOG_PID": "1"}).watchdog_every is None
    outside = Notifier({})
    assert not outside.enabled and outside.watchdog_every is None
    outside.notify(READY="1")  # outside systemd: nothing to do, nothing raised
