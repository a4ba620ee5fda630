"""The judge's panel, measured end to end (run by hand: ``.venv/bin/python -m bench.judge``;
``--quick``: seconds, that it runs, bench/quick.py).

A real mosquitto, the simulated example table in this process (started as ``mafia-table run``
starts it: its start-up frozen out of the collector's sight), ``mafia-table judge`` as its own
process and the panel in Debian's headless Chromium, as in tests/e2e/test_judge.py:

1. press -> DOM: a ``sim/press`` on a seat until the page shows that seat's fist (a
   MutationObserver stamps the class change with the page's clock; ``performance.timeOrigin +
   performance.now()`` and Python's ``time.time()`` are one wall clock on one machine).
   Where it goes: the page stamps each live-channel frame as it arrives (a listener the page's
   own handler comes after), so each press splits into press -> frame in the page (the table,
   the service, the WebSocket) and frame -> DOM (the page's parse and redraw: the observer's
   callback runs right after the handler's task).
   And the page's own work on the last frame, warm (``IN_PAGE``): parsing it, and drawing a
   fist's change.
   Floors, same run: the same press until the table's ``event/seat/press`` reaches an MQTT
   client (the table's path), and a bare WebSocket (an aiohttp server on a thread of this
   process) to the same page, a tiny frame until the page has written it into a DOM node, timed
   the same way (``Echo``).
2. tap -> command: a click on the page's Foul (and Undo) button until the table's broker
   delivers the ``cmd/seats`` it causes to an MQTT client. The floor: a bare paho publish from
   that client through the same broker back to it (the MQTT hop alone).
3. the panel's memory: the judge process's resident set (VmRSS) after the run.

Each timed path ends with its verdict line (bench/figures.py) against issue 27's goals: press ->
DOM p99 under 25 ms and at most the table path's p99 plus the bare WebSocket -> DOM p99 (their
sum is the row's floor), tap -> command p99 under 10 ms (the floor beside each, with the
ratio).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from bench import quick
from bench.figures import Figures, Verdict, below, within_floor
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
#: before the page's own script: every frame of its live channel stamped as it arrives, with its
#: size, the last one kept (the listener is added in the constructor, so it runs before the
#: page's ``onmessage``)
FRAMES = """(() => {
  window.frameAt = []; window.frameSize = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (String(args[0]).endsWith("/live")) this.addEventListener("message", (e) => {
        window.frameAt.push(performance.timeOrigin + performance.now());
        window.frameSize.push(e.data.length); window.lastFrame = e.data;
      });
    }
  };
})();"""
#: the bare floor's page side: a node the frames are written into, and an observer stamping
#: each write on the page's clock (``wall``: ``performance.timeOrigin + performance.now()``,
#: else ``performance.now()``)
ECHO_PAGE = """([url, wall]) => new Promise((ready) => {
  window.echoAt = [];
  const echo = document.createElement('div');
  echo.id = 'echo'; echo.hidden = true; document.body.appendChild(echo);
  new MutationObserver(() => window.echoAt.push(
    (wall ? performance.timeOrigin : 0) + performance.now()))
    .observe(echo, {attributes: true, attributeFilter: ['data-n']});
  const socket = new WebSocket(url);
  socket.onopen = () => ready(true);
  socket.onmessage = (e) => { echo.dataset.n = e.data; };
})"""


class Echo:
    """A bare WebSocket server on a thread of its own: the page's floor for a pushed frame
    (aiohttp, as the panel's; nothing built, nothing compared: the frame as it comes)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.socket: web.WebSocketResponse | None = None
        self.connected = threading.Event()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self._socket)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.socket = ws
        self.connected.set()
        async for _ in ws:
            pass
        return ws

    def open_on(self, page: Page, wall: bool) -> None:
        """Connect ``page`` (see ``ECHO_PAGE``; ``wall``: stamped on the wall clock)."""
        page.evaluate(ECHO_PAGE, [f"ws://127.0.0.1:{self.port}/", wall])
        self.connected.wait(10)

    def send(self, text: str, clock: Callable[[], float] = time.monotonic) -> float:
        """Send ``text``; ``clock()`` when it was handed to the server's loop."""
        assert self.socket is not None
        sent = clock()
        asyncio.run_coroutine_threadsafe(self.socket.send_str(text), self.loop).result(10)
        return sent

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)

    async def _stop(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        await self.runner.cleanup()


#: the page's own work on the last frame, warm, in microseconds: ``JSON.parse`` of it, and the
#: panel's ``render`` of a fist's change (that view and the same with seat 3's fist down, in
#: turn), the mean of many; the last frame drawn again after
IN_PAGE = """(n) => {
  const text = window.lastFrame, view = JSON.parse(text), fist = JSON.parse(text);
  fist.down = [3];
  let t = performance.now();
  for (let i = 0; i < n; i++) JSON.parse(text);
  const parse = (performance.now() - t) / n * 1000;
  t = performance.now();
  for (let i = 0; i < n; i++) render(i % 2 ? fist : view);
  const drawn = (performance.now() - t) / n * 1000;
  render(JSON.parse(text));
  return [parse, drawn];
}"""


def percentiles(ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * len(ms)) - 1)]
    return f"p50 {statistics.median(ms):6.2f} ms  p99 {p99:6.2f} ms  max {ms[-1]:6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="presses and taps (default 200)")
    n = quick.arguments(parser, {"n": 5}).n
    load_before = os.getloadavg()
    with judged_table() as (listen, hands, judge, browser):
        page = day_one(browser, listen, before=FRAMES)
        page.evaluate(OBSERVER)
        echo = Echo()
        try:
            echo.open_on(page, wall=True)
            dom, floor, socket, arrived, drawn, sizes = [], [], [], [], [], []
            for i in range(n):
                seat = i % 10 + 1
                on_mqtt = hands.upcoming("event/seat/press", seat=seat)
                started = time.time()
                hands.record.publish(TABLE + "sim/press", f'{{"seat": {seat}}}')
                page.wait_for_function(f"window.fistAt.length > {i}")
                on_mqtt()
                fist, frames, size = page.evaluate(
                    f"[window.fistAt[{i}], window.frameAt, window.frameSize]")
                dom.append(fist - started * 1000)
                floor.append((_last(hands, "event/seat/press") - started) * 1000)
                frame = bisect.bisect_right(frames, fist) - 1  # the frame the fist came in
                arrived.append(frames[frame] - started * 1000)
                drawn.append(fist - frames[frame])
                sizes.append(size[frame])
                hands.record.publish(TABLE + "sim/release", f'{{"seat": {seat}}}')
                page.wait_for_selector(f'.seat.down[data-seat="{seat}"]', state="detached")
                sent = echo.send(str(i), clock=lambda: time.time() * 1000)
                page.wait_for_function(f"window.echoAt.length > {i}")
                socket.append(page.evaluate(f"window.echoAt[{i}]") - sent)
        finally:
            echo.close()

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
        parse_us, render_us = page.evaluate(IN_PAGE, 1000)
        assert judge.process is not None
        rss = _rss_mb(judge.process.pid)
    load_after = os.getloadavg()
    print(f"press -> judge page DOM ({n}): {percentiles(dom)}")
    print(f"  press -> frame in the page:    {percentiles(arrived)}")
    print(f"  frame -> DOM (parse, redraw):  {percentiles(drawn)}")
    print(f"  the frame of a press: {statistics.median(sizes):,.0f} characters (median)")
    print(f"  in the page, warm: JSON.parse of the frame {parse_us:.1f} us, render() of a "
          f"fist {render_us:.1f} us (the mean of 1000)")
    print(f"  floor, press -> event on MQTT: {percentiles(floor)}")
    print(f"  floor, bare WebSocket -> DOM:  {percentiles(socket)}")
    print(f"judge tap -> cmd on MQTT ({n}):  {percentiles(taps)}")
    print(f"  floor, bare paho publish -> MQTT client: {percentiles(bare)}")
    print(f"judge service memory (VmRSS): {rss:.1f} MB")
    print("load average: before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
        *load_before, *load_after))
    print(Verdict("seat press -> fist on the judge's page", Figures.of(dom),
                  Figures.of(floor) + Figures.of(socket),
                  within_floor(25.0, "table p99 + bare WebSocket -> DOM p99")).line())
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


def day_one(browser: Browser, listen: str, before: str | None = None) -> Page:
    """The panel logged in, the cards dealt, night 0 over: day 1 before its first speech
    (``before``: a script run in the page before its own)."""
    page = browser.new_page()
    if before is not None:
        page.add_init_script(before)
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
