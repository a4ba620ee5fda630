"""The game record's cost: built from the journal on every read (run by hand:
``.venv/bin/python -m bench.record``; ``--quick``: seconds, that it runs, bench/quick.py).

1. build: ``judge.record.document.build`` of the whole scripted game
   (tests/support/record_game.py), against its floor, the same inputs replayed through
   ``judge.game.step`` alone (what a restarted panel does anyway).
2. HTTP: ``GET /api/games/<id>`` of the game being played on a logged-in panel (aiohttp, loopback),
   against its floor, the same request without the login (the same routing and guard, a 401
   without a build).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from bench import quick
from bench.gpio import percentiles
from judge.game import new_game, replay
from judge.panel import config as judge_config
from judge.panel.service import Panel, make_app
from judge.record.document import build
from tests.support.judge_configs import GOOD, PASSWORD, write
from tests.support.record_game import whole_game
from tests.support.web_client import browser


def timed(fn, n: int) -> list[float]:
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def played(inputs) -> None:
    for _ in replay(new_game(), inputs, lambda given, exc: None):
        pass


async def http(panel: Panel, n: int) -> tuple[list[float], list[float]]:
    record = panel.games.current()
    assert record is not None
    id = record.id
    async with TestServer(make_app(panel)) as server, browser(server) as judge, \
            ClientSession() as stranger:
        await judge.post(server.make_url("/login"), data={"password": PASSWORD})
        url = server.make_url(f"/api/games/{id}")
        samples: dict[str, list[float]] = {"judge": [], "stranger": []}
        for _ in range(n):
            for who, client, status in (("judge", judge, 200), ("stranger", stranger, 401)):
                started = time.perf_counter()
                async with client.get(url) as r:
                    await r.read()
                    assert r.status == status
                samples[who].append((time.perf_counter() - started) * 1000)
        return samples["judge"], samples["stranger"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=500)
    n = quick.arguments(parser, {"n": 20}).n
    inputs = whole_game().inputs
    print(f"load average {os.getloadavg()[0]:.2f}; {len(inputs)} inputs a game")
    print("build         ", percentiles(timed(lambda: build(inputs, "t"), n)))
    print("floor: replay ", percentiles(timed(lambda: played(inputs), n)))
    with tempfile.TemporaryDirectory() as tmp:
        panel = Panel(judge_config.load(write(Path(tmp), GOOD)))
        for given, _ in inputs:
            panel.apply(given)
        game, floor = asyncio.run(http(panel, n))
    print("GET record    ", percentiles(game))
    print("floor: 401    ", percentiles(floor))
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
