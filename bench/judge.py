"""The judge's panel, measured end to end (run by hand: ``.venv/bin/python -m bench.judge``;
``--quick``: seconds, that it runs, bench/quick.py).

A real mosquitto, the simulated example table in this process (started as ``mafia-table run``
starts it: its start-up frozen out of the collector's sight), ``mafia-table judge`` as its own
process and the panel in Debian's headless Chromium, as in tests/e2e/test_judge.py:

1. press -> DOM: a ``sim/press`` on a seat until the page shows that seat's fist (a
   MutationObserver stamps the class change with the page's clock; ``performance.timeOrigin +
   performance.now()`` and Python's ``time.time()`` are one wall clock on one machine).
   The floor: the same press until the table's ``event/seat/press`` reaches an MQTT client.
2. tap -> command: a click on the page's Foul (and Undo) button until the table's broker
   delivers the ``cmd/seats`` it causes to an MQTT client. The floor: a bare paho publish from
   that client through the same broker back to it (the MQTT hop alone).
3. the panel's memory: the judge process's resident set (VmRSS) after the run.

Each timed path ends with its verdict line (bench/figures.py) against issue 27's goals: press ->
DOM p99 under 25 ms, tap -> command p99 under 10 ms (the floor beside each, with the ratio).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from bench import quick
from bench.figures import Figures, Verdict, below
from kit.local_broker import LocalBroker, free_port
from tests.support.chromium import headless_chromium
from tests.support.judge_panel import PASSWORD, TABLE, Hands, Judge, judge_config, table_config
from tests.support.record_game import ROLES
from tests.support.running import Running

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

OBSERVER = """() => {
  window.fistAt = [];
  new MutationObserver((changes) => {
    for (const c of changes) if (c.target.classList.contains('down') &&
        !(c.oldValue || '').includes('down'))
      window.fistAt.push(performance.timeOrigin + performance.now());
  }).observe(document.getElementById('seats'),
             {subtree: true, attributes: true, attributeFilter: ['class'],
              attributeOldValue: true});
}"""


def percentiles(ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * len(ms)) - 1)]
    return f"p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  max {ms[-1]:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="presses and taps (default 200)")
    n = quick.arguments(parser, {"n": 5}).n
    with judged_table() as (listen, hands, judge, browser):
        page = day_one(browser, listen)
        page.evaluate(OBSERVER)

        dom, floor = [], []
        for i in range(n):
            seat = i % 10 + 1
            on_mqtt = hands.upcoming("event/seat/press", seat=seat)
            started = time.time()
            hands.record.publish(TABLE + "sim/press", f'{{"seat": {seat}}}')
            page.wait_for_function(f"window.fistAt.length > {i}")
            on_mqtt()
            dom.append(page.evaluate(f"window.fistAt[{i}]") - started * 1000)
            floor.append((_last(hands, "event/seat/press") - started) * 1000)
            hands.record.publish(TABLE + "sim/release", f'{{"seat": {seat}}}')
            page.wait_for_selector(f'.seat.down[data-seat="{seat}"]', state="detached")

        taps, bare = [], []
        for i in range(n):
            button = "#foul" if i % 2 == 0 else "#undo"
            if button == "#foul":
                page.click('.seat[data-seat="5"] .num')
            sent = hands.upcoming("cmd/seats")
            version = page.get_attribute("body", "data-version")
            clicked = page.evaluate(f"""() => {{
                const t = performance.timeOrigin + performance.now();
                document.querySelector('{button}').click(); return t; }}""")
            sent()
            taps.append(_last(hands, "cmd/seats") * 1000 - clicked)
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
            bare.append(_bare_publish(hands, i))
        assert judge.process is not None
        rss = _rss_mb(judge.process.pid)
    print(f"press -> judge page DOM ({n}): {percentiles(dom)}")
    print(f"  floor, press -> event on MQTT: {percentiles(floor)}")
    print(f"judge tap -> cmd on MQTT ({n}):  {percentiles(taps)}")
    print(f"  floor, bare paho publish -> MQTT client: {percentiles(bare)}")
    print(f"judge service memory (VmRSS): {rss:.1f} MB")
    print(Verdict("seat press -> fist on the judge's page", Figures.of(dom), Figures.of(floor),
                  below(25.0)).line())
    print(Verdict("judge's tap -> cmd at the broker", Figures.of(taps), Figures.of(bare),
                  below(10.0)).line())


def _bare_publish(hands: Hands, n: int) -> float:
    """The MQTT hop alone: the hands' client publishes to itself through the broker, ms."""
    topic = f"{TABLE}bench/floor"
    seen = len(hands.record.matching(lambda m: m.topic == topic))
    sent = time.time()
    hands.record.publish(topic, str(n))
    hands.record.wait_for(lambda m: m.topic == topic, count=seen + 1, timeout=30)
    return (_last(hands, "bench/floor") - sent) * 1000


@contextlib.contextmanager
def judged_table() -> Iterator[tuple[str, Hands, Judge, Browser]]:
    """A real mosquitto, the simulated table, ``mafia-table judge`` and Debian's Chromium:
    (the panel's ``HOST:PORT``, the players' hands, the judge process, the browser)."""
    with tempfile.TemporaryDirectory() as tmp, LocalBroker(workdir=Path(tmp)) as broker:
        tmp_path = Path(tmp)
        listen = f"127.0.0.1:{free_port()}"
        hands = Hands(broker.port)
        # the table's start-up frozen as ``mafia-table run`` freezes it: the process it stands for
        table = Running(table_config(tmp_path, broker.port), freeze_startup=True)
        judge = Judge(judge_config(tmp_path, broker.port, listen))
        try:
            with headless_chromium() as browser:
                yield listen, hands, judge, browser
        finally:
            judge.stop()
            table.close()
            hands.record.close()


def day_one(browser: Browser, listen: str) -> Page:
    """The panel logged in, the cards dealt, night 0 over: day 1 before its first speech."""
    page = browser.new_page()
    page.goto(f"http://{listen}/")
    page.fill("#password", PASSWORD)
    page.click("#login")
    page.wait_for_selector("#table-status.good")
    for seat, role in enumerate(ROLES, start=1):
        page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
    for button in ("#deal-typed", "#start", "#next"):
        version = page.get_attribute("body", "data-version")
        page.click(button)
        page.wait_for_function(f"document.body.dataset.version !== '{version}'")
    page.wait_for_selector('#stage[data-stage="day"]')
    return page


def _last(hands: Hands, topic: str) -> float:
    """When the newest message on ``topic`` reached the MQTT client (``time.time()``)."""
    return hands.record.matching(lambda m: m.topic == TABLE + topic)[-1].at


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


if __name__ == "__main__":
    main()
