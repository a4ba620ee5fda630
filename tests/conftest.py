"""The fixtures every test folder shares: a real mosquitto broker, a subscriber on it, a table
config on it, Debian's headless Chromium, hypothesis's profiles, and what keeps tests apart
when pytest-xdist runs them at once (``tests.support.workers``: each worker's own ports, each
test's own state folder, the heaviest tests handed out first). What they are built from lives
in ``tests/support/`` (one module a job); a folder's own fixtures sit in its conftest."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from playwright.sync_api import Browser

from controller import config as config_module
from kit.local_broker import LocalBroker
from tests.support.chromium import SharedChromium
from tests.support.mqtt import Subscriber
from tests.support.table_configs import make_table_config
from tests.support.workers import group_shared_fixtures, heaviest_first, take_share_of_ports

settings.register_profile("default", deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


def pytest_configure(config: pytest.Config) -> None:
    """In a pytest-xdist worker: its own share of the free ports."""
    worker = getattr(config, "workerinput", None)
    if worker is not None:
        take_share_of_ports(worker["workerid"], worker["workercount"])


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker: the tests that share a module's (or a class's, a package's)
    fixture kept on one worker, and the heaviest handed out first. First of the hook's
    implementations: before pytest-xdist reads the groups."""
    if getattr(config, "workerinput", None) is not None:
        group_shared_fixtures(items)
        heaviest_first(items)


@pytest.fixture(autouse=True)
def own_state_folder(tmp_path, monkeypatch) -> None:
    """Each test's own ``XDG_STATE_HOME``: where a table, a panel or ``run-sim.sh`` keeps its
    journal when nothing else names one is never another test's (which would hold its lock)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def broker(tmp_path):
    """A real mosquitto on a free loopback port, stopped after the test."""
    with LocalBroker(workdir=tmp_path) as running:
        yield running


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[SharedChromium]:
    """The worker's one headless chromium (``tests.support.chromium.SharedChromium``)."""
    shared = SharedChromium()
    yield shared
    shared.close()


@pytest.fixture
def chromium(shared_chromium) -> Iterator[Browser]:
    """Debian's headless chromium, driven by Playwright: the worker's one browser, each page a
    test opens (``new_page``) in a context of its own, closed after the test."""
    yield shared_chromium.lend()
    shared_chromium.give_back()


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
