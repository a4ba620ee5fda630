"""The suite's parallel workers (pytest-xdist: ``scripts/test.sh`` runs ``-n 3``): what each
worker must have to itself so that tests running at once never meet.

* Ports: each worker takes free ports from its own share of ``kit.local_broker``'s range
  (``MAFIA_FREE_PORTS``, set in the worker's environment, so every process its tests start, a
  bench, ``run-sim.sh``, a simulated hall, inherits it too): two workers never pick one port
  between checking it is free and binding it.
* Files: each test has its own ``tmp_path`` (pytest's temporary folders are per worker), and
  its own state folder (``XDG_STATE_HOME``, where the table, the panel and ``run-sim.sh`` keep
  a journal when their config names none): nothing lands in a place another test uses.
* Order: the heaviest tests start first (``heaviest_first``), so no long one starts last
  while the other workers sit idle.
"""

from __future__ import annotations

import os

import pytest

from kit.local_broker import PORTS_VARIABLE, port_choices


def worker_number(worker_id: str) -> int:
    """pytest-xdist's worker id ``gw3`` as 3."""
    if not (worker_id.startswith("gw") and worker_id[2:].isdigit()):
        raise ValueError(f"{worker_id!r}: a pytest-xdist worker id (gw0, gw1, ...) expected")
    return int(worker_id[2:])


def share_of_ports(choices: range, worker: int, workers: int) -> range:
    """Worker ``worker``'s (0-based) of ``workers`` equal shares of ``choices``, none shared."""
    if not 0 <= worker < workers:
        raise ValueError(f"worker {worker} of {workers}")
    size = len(choices) // workers
    if size < 100:
        raise ValueError(f"{len(choices)} ports are too few for {workers} workers")
    return choices[worker * size:(worker + 1) * size]


def take_share_of_ports(worker_id: str, workers: int) -> range:
    """This worker's share of the free ports, set in its environment (``MAFIA_FREE_PORTS``)
    for ``free_port`` here and in every process a test starts; returned."""
    share = share_of_ports(port_choices(), worker_number(worker_id), workers)
    os.environ[PORTS_VARIABLE] = f"{share.start}-{share.stop - 1}"
    return share


#: the fixture scopes wider than a test and narrower than a worker's session: a fixture of one
#: is made once for the tests on one worker, so those tests go to one worker together
SHARED_SCOPES = frozenset({"class", "module", "package"})


def group_of(item: pytest.Item) -> str | None:
    """The ``xdist_group`` ``item`` belongs to: its own mark's, else its module's (its package's)
    when it uses a fixture of ``SHARED_SCOPES``, else none."""
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
    info = getattr(item, "_fixtureinfo", None)  # a test function's; other items have none
    if info is None:
        return None
    scopes = {defs[-1].scope for defs in info.name2fixturedefs.values() if defs}
    module = item.nodeid.split("::")[0]
    if "package" in scopes:
        return module.rpartition("/")[0]
    return module if scopes & SHARED_SCOPES else None


def group_shared_fixtures(items: list[pytest.Item]) -> None:
    """Each test that uses a module's, a class's or a package's fixture marked with its
    ``xdist_group`` (``group_of``): ``--dist loadgroup`` runs a group on one worker, so the
    fixture is made once, not once on every worker its tests happened to reach."""
    for item in items:
        group = group_of(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))


def declared_timeout(item: pytest.Item) -> float:
    """How long a test says it may take (its ``timeout`` mark; pytest-timeout's default from
    pyproject.toml when it has none): the weight ``heaviest_first`` orders by."""
    mark = item.get_closest_marker("timeout")
    if mark is not None and mark.args:
        return float(mark.args[0])
    if mark is not None and "timeout" in mark.kwargs:
        return float(mark.kwargs["timeout"])
    return float(item.config.getini("timeout") or 0)


def weight(item: pytest.Item) -> tuple[float, bool]:
    """How heavy a test looks: its declared timeout, then whether it drives the browser."""
    return declared_timeout(item), "chromium" in getattr(item, "fixturenames", ())


def heaviest_first(items: list[pytest.Item]) -> None:
    """``items`` reordered in place, heaviest first (``weight``; a group, ``group_of``, as
    heavy as its heaviest test, its tests kept together in their order), otherwise in their
    collected order. pytest-xdist hands tests out in this order as workers ask for more
    (``--dist loadgroup --no-loadscope-reorder``), so the walks, the whole games and the
    tournament are spread over the workers from the start and none starts last."""
    units: dict[object, list[pytest.Item]] = {}
    for item in items:
        group = group_of(item)
        units.setdefault(id(item) if group is None else group, []).append(item)
    ordered = sorted(units.values(), key=lambda unit: max(map(weight, unit)), reverse=True)
    items[:] = [item for unit in ordered for item in unit]
