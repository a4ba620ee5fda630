"""Shared fixtures: a real mosquitto broker, gpiozero's mock pins, a table config."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from playwright.sync_api import Browser, sync_playwright

from controller import config as config_module
from kit.local_broker import LocalBroker
from tests.mqtt_helpers import Subscriber

settings.register_profile("default", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

REPO = Path(__file__).resolve().parent.parent
EXAMPLE_CONFIG = REPO / "config" / "table.example.toml"
#: Debian's chromium (scripts/setup.sh installs it); Playwright's own browsers are never fetched
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto on a free loopback port, stopped after the test."""
    with LocalBroker(workdir=tmp_path) as running:
        yield running


@pytest.fixture
def chromium() -> Iterator[Browser]:
    """Debian's headless chromium, driven by Playwright, closed after the test."""
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: scripts/setup.sh installs it")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def subscriber(broker):
    """A client subscribed to everything under mafia/ on the test broker."""
    sub = Subscriber(broker.port, ["mafia/#"])
    yield sub
    sub.close()


def write_config(tmp_path: Path, body: str, name: str = "table.toml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


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


def make_table_config(tmp_path: Path, port: int) -> config_module.Config:
    """A six-seat simulated table: seats 1-3 wired (seat 2 with RGB), judge buttons 9-11."""
    return config_module.load(write_config(tmp_path, SMALL_TABLE.format(port=port)))


@pytest.fixture
def table_config(tmp_path, broker) -> config_module.Config:
    """``make_table_config`` on the test broker."""
    return make_table_config(tmp_path, broker.port)
