"""The suite's parallel run (tests/support/workers.py, the hooks of tests/conftest.py): each
worker takes its ports from a share no other worker has, the tests of a module's fixture stay on
one worker, and the heaviest tests are handed out first. Checked on the real thing: a small
suite run by pytest-xdist with this suite's conftest as its plugin."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap

import pytest

from kit.local_broker import port_choices
from tests.support.paths import REPO
from tests.support.workers import (
    declared_timeout,
    group_of,
    heaviest_first,
    share_of_ports,
    weight,
    worker_number,
)

PROBE = '''
import json, os, pytest
from kit.local_broker import free_port

def note(request, **what):
    with open(os.environ["PROBE_OUT"], "a") as out:
        out.write(json.dumps({"test": request.node.name,
                              "worker": os.environ.get("PYTEST_XDIST_WORKER"),
                              "workers": os.environ.get("PYTEST_XDIST_WORKER_COUNT"),
                              **what}) + "\\n")

@pytest.fixture(scope="module")
def made_once(request):
    note(request, made=True)

@pytest.mark.parametrize("n", range(12))
def test_light(request, n):
    note(request, ports=os.environ.get("MAFIA_FREE_PORTS"), port=free_port(),
         state=os.environ["XDG_STATE_HOME"])

@pytest.mark.parametrize("n", range(4))
def test_sharing(request, made_once, n):
    note(request)

@pytest.mark.timeout(300)
def test_heavy(request):
    note(request)
'''


def test_workers_have_their_own_ports_state_and_module_fixtures_and_start_heaviest(tmp_path):
    (tmp_path / "test_probe.py").write_text(textwrap.dedent(PROBE))
    out = tmp_path / "probe.jsonl"
    done = subprocess.run(  # the suite's own settings (pyproject.toml) and hooks (conftest)
        [sys.executable, "-m", "pytest", "-c", str(REPO / "pyproject.toml"), "-p",
         "tests.conftest", "-p", "no:cacheprovider", "-q", "--rootdir", str(tmp_path),
         str(tmp_path / "test_probe.py")],
        cwd=REPO, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PROBE_OUT": str(out)})
    assert done.returncode == 0, done.stdout + done.stderr
    notes = [json.loads(line) for line in out.read_text().splitlines()]
    light = [n for n in notes if n["test"].startswith("test_light")]
    shares = {n["worker"]: n["ports"] for n in light}
    assert len(light) == 12 and len(shares) >= 2  # the light tests went to several workers
    ranges = {}
    for worker, text in shares.items():
        low, high = map(int, text.split("-"))
        ranges[worker] = range(low, high + 1)
        workers = int(next(n["workers"] for n in light))
        assert ranges[worker] == share_of_ports(port_choices(), worker_number(worker), workers)
    assert all(n["port"] in ranges[n["worker"]] for n in light)
    assert len({n["state"] for n in light}) == 12  # a state folder for each test
    sharing = [n for n in notes if n["test"].startswith("test_sharing") or n.get("made")]
    assert len({n["worker"] for n in sharing}) == 1  # the module's fixture on one worker...
    assert sum(1 for n in notes if n.get("made")) == 1  # ...made once
    heavy = next(n for n in notes if n["test"] == "test_heavy")
    on_its_worker = [n["test"] for n in notes if n["worker"] == heavy["worker"]]
    assert on_its_worker[0] == "test_heavy"  # handed out first


def test_a_worker_id_is_read_and_a_share_is_never_another_workers():
    assert worker_number("gw0") == 0 and worker_number("gw12") == 12
    with pytest.raises(ValueError, match="worker id"):
        worker_number("master")
    shares = [share_of_ports(range(10_000, 32_768), n, 4) for n in range(4)]
    assert all(a.stop <= b.start for a, b in itertools.pairwise(shares))
    assert sum(map(len, shares)) > 22_000
    with pytest.raises(ValueError, match="too few"):
        share_of_ports(range(20_000, 20_100), 0, 4)
    with pytest.raises(ValueError, match="worker 4 of 4"):
        share_of_ports(range(10_000, 32_768), 4, 4)


@pytest.fixture(scope="module")
def shared_here() -> str:
    return "made once for this module's tests on one worker"


@pytest.mark.timeout(90)
def test_a_test_of_a_modules_fixture_is_in_its_modules_group(request, shared_here):
    assert group_of(request.node) == "tests/test_workers.py"
    assert declared_timeout(request.node) == 90


def test_a_test_of_its_own_fixtures_alone_is_in_no_group(request, tmp_path):
    assert group_of(request.node) is None
    assert declared_timeout(request.node) == 120  # pyproject.toml's


def test_the_heaviest_go_first_and_a_group_stays_together(request):
    """On this run's own tests, whatever they are."""
    items = list(request.session.items)
    heaviest_first(items)
    assert sorted(map(id, items)) == sorted(map(id, request.session.items))
    units: dict[object, list[tuple[float, bool]]] = {}  # each unit's weights, in order met
    last: object = None
    for item in items:
        unit = group_of(item) or id(item)
        assert unit == last or unit not in units, f"{unit} split"
        units.setdefault(unit, []).append(weight(item))
        last = unit
    heaviness = [max(weights) for weights in units.values()]
    assert heaviness == sorted(heaviness, reverse=True)
