"""The fixtures every test folder shares: a real mosquitto broker, a subscriber on it, a table
config on it, Debian's headless Chromium, and hypothesis's profiles. What they are built from
lives in ``tests/support/`` (one module a job); a folder's own fixtures sit in its conftest."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from playwright.sync_api import Browser

from controller import config as config_module
from kit.local_broker import LocalBroker
from tests.support.chromium import headless_chromium
from tests.support.mqtt import Subscriber
from tests.support.table_configs import make_table_config

settings.register_profile("default", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto on a free loopback port, stopped after the test."""
    with LocalBroker(workdir=tmp_path) as running:
        yield running


@pytest.fixture
def chromium() -> Iterator[Browser]:
    """Debian's headless chromium, driven by Playwright, closed after the test."""
    with headless_chromium() as browser:
        yield browser


@pytest.fixture
def subscriber(broker):
    """A client subscribed to everything under mafia/ on the test broker."""
    sub = Subscriber(broker.port, ["mafia/#"])
    yield sub
    sub.close()


@pytest.fixture
def table_config(tmp_path, broker) -> config_module.Config:
    """``make_table_config`` on the test broker."""
    return make_table_config(tmp_path, broker.port)
