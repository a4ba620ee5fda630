"""Where a seat press's time goes on its way to the judge's panel, hop by hop, server side.

    .venv/bin/python -m bench.judge_hops [-n 200] [--tabs 1]
    .venv/bin/python -m bench.judge_hops --quick    # seconds: that it runs (bench/quick.py)

A real mosquitto, the simulated example table as its own process (``mafia-table run --sim``),
the judge's panel in this process (``judge.panel.service.serve`` on a thread of its own, its parts
wrapped where a press passes them: measurement only, nothing of the panel is changed but its
attributes here) and ``--tabs`` logged-in WebSocket clients (aiohttp, the page's channel
without the page: what the server does, not what Chromium does). The game is dealt and started
over the channel, as the judge does, and stands in day 1. Each stamp is ``time.monotonic()``
(the collector's pauses' clock; the MQTT client's ``time.time()`` moved onto it):

    a ``sim/press`` is published -> the table's ``event/seat/press`` reaches an MQTT client
    (the table's path, the floor: bench.judge's) ... and paho's callback has it
    (``TableLink._on_message``, inside ``loop_read`` on the panel's loop; on paho's own
    thread before ``kit.mqtt.LoopDriver``) -> the panel takes it (``Panel._on_table``) -> the
    change is shown (``LiveView.show``) -> the view is built and serialized (``Pages.push``
    called with its text) -> its WebSocket frame is written (``send_str`` returns) -> the
    first tab reads a view with the seat down

For each hop p50 / p99 / max, and for the press how many views were built and pushed and how
large one is. Every other press is shown as the panel showed it before (its followers, the
stream overlay, told before the tabs get the view; now after its frame is written): the
loop -> written hop of each half, in the same run. Beside them: the garbage collector's
pauses in this process over the presses, what building one view costs, as the panel builds
it and as ``json.dumps`` of the view's builtins (how it was built before), and a full
collection with the start-up frozen, as ``mafia-table judge`` freezes it, and without
(docs/performance.md, "The judge's screen").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from bench import quick
from bench.figures import Figures, load_average
from bench.hops import collector_pauses, wrap
from judge.panel import config as judge_config
from judge.panel import live_view, table_link
from judge.panel.service import Panel, serve
from judge.panel.views import as_json
from kit import webpages
from kit.local_broker import LocalBroker, free_port
from tests.support.judge_panel import PASSWORD
from tests.support.judge_panel import judge_config as panel_config
from tests.support.mqtt import Subscriber
from tests.support.paths import EXAMPLE_CONFIG
from tests.support.record_game import ROLES

TABLE = "judgehops"
PREFIX = f"mafia/{TABLE}/"
PRESS = "event/seat/press"
#: the stamps of one press, in the order it passes them (``event`` is the table's floor)
HOPS = ("published", "paho", "loop", "show", "serialized", "written", "received")


class Stamps:
    """The press under way (one at a time): its stamps, the views it had built and pushed."""

    def __init__(self) -> None:
        self.now: dict[str, float] = {}
        self.done: list[dict[str, float]] = []
        self.on_press = False  # the panel's loop is inside the press's _on_table
        self.followers_first = False  # this press: the followers told before the tabs (before)
        self.views_shown = self.views_pushed = 0  # over the run, while a tab is connected
        self.shows = self.pushes = 0
        self.text: str | None = None  # the first view pushed for the press
        #: each press's first view, with the press's stamps, until its frame is written
        self.unwritten: list[tuple[str, dict[str, float]]] = []
        self.size = 0

    def mark(self, name: str) -> None:
        self.now.setdefault(name, time.monotonic())

    def finish(self, **stamps: float) -> None:
        self.now.update(stamps, shows=self.shows, pushes=self.pushes,
                        followers_first=float(self.followers_first))
        self.done.append(self.now)
        self.now, self.shows, self.pushes, self.text = {}, 0, 0, None


@contextlib.contextmanager
def instrumented(stamps: Stamps) -> Iterator[None]:
    """The panel's classes wrapped where a press passes (enter before the panel is made: the
    link binds ``Panel._on_table`` when it is made)."""
    undo = []

    def paho(link: Any, client: Any, userdata: Any, message: Any) -> None:
        if message.topic == PREFIX + PRESS:
            stamps.mark("paho")

    def enter(panel: Any, topic: str, payload: bytes) -> None:
        if topic == PRESS:
            stamps.mark("loop")
            stamps.on_press = True

    def leave(result: Any, panel: Any, topic: str, payload: bytes) -> None:
        stamps.on_press = False

    real_show = live_view.LiveView.show

    def show(view: Any) -> None:
        if stamps.on_press:
            stamps.mark("show")
            stamps.shows += 1
        if view.pages.sockets:
            stamps.views_shown += 1
        if not (stamps.on_press and stamps.followers_first):
            return real_show(view)
        # as the panel did before: every follower (the overlay) told first, then the tabs
        shown, watchers = view.shown(), view.watchers
        for watch in watchers:
            watch(shown)
        view.watchers = []
        try:
            return real_show(view)
        finally:
            view.watchers = watchers

    def push(pages: Any, text: str) -> None:
        stamps.views_pushed += 1
        if stamps.on_press and pages.sockets:
            stamps.mark("serialized")
            stamps.pushes += 1
            if stamps.text is None:
                stamps.text, stamps.size = text, len(text)
                stamps.unwritten.append((text, stamps.now))

    real_send = webpages._send

    async def send(ws: Any, text: str) -> None:
        await real_send(ws, text)
        written = time.monotonic()  # the tab may have read it already: the press is done
        for pushed, of in list(stamps.unwritten):
            if pushed is text:
                of.setdefault("written", written)
                stamps.unwritten.remove((pushed, of))

    undo.append(wrap(table_link.TableLink, "_on_message", paho))
    undo.append(wrap(Panel, "_on_table", enter, leave))
    live_view.LiveView.show = show  # type: ignore[method-assign,assignment]
    undo.append(lambda: setattr(live_view.LiveView, "show", real_show))
    undo.append(wrap(webpages.Pages, "push", push))
    webpages._send = send
    undo.append(lambda: setattr(webpages, "_send", real_send))
    try:
        yield
    finally:
        for put_back in reversed(undo):
            put_back()


class PanelThread:
    """``judge.panel.service.serve`` on a thread and an asyncio loop of its own."""

    def __init__(self, cfg: judge_config.JudgeConfig):
        self.cfg = cfg
        self.loop = asyncio.new_event_loop()
        self._up = threading.Event()
        self._stop: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._serve(),),
                                       name="panel", daemon=True)
        self.thread.start()
        if not self._up.wait(30):
            raise TimeoutError("the panel did not start")

    async def _serve(self) -> None:
        self._stop, ready = asyncio.Event(), asyncio.Event()
        running = asyncio.ensure_future(serve(self.cfg, ready, self._stop, freeze=True))
        await ready.wait()
        self._up.set()
        await running

    def close(self) -> None:
        if self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(10)


@contextlib.contextmanager
def judged_table(tmp: Path) -> Iterator[tuple[str, Subscriber]]:
    """A broker, the table's process, the panel in this process: (the panel's URL, an MQTT
    client on the table's topics)."""
    with LocalBroker(workdir=tmp) as broker:
        table = subprocess.Popen(
            [sys.executable, "-m", "mafia_table.cli", "run", "--config", str(EXAMPLE_CONFIG),
             "--sim", "--broker", f"127.0.0.1:{broker.port}", "--table", TABLE],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = Subscriber(broker.port, [PREFIX + "#"])
        panel = None
        try:
            client.wait_for(lambda m: m.topic == PREFIX + "status"
                            and m.json().get("state") == "online", timeout=30)
            listen = f"127.0.0.1:{free_port()}"
            panel = PanelThread(judge_config.load(panel_config(tmp, broker.port, listen,
                                                                 table=TABLE)))
            yield f"http://{listen}/", client
        finally:
            if panel is not None:
                panel.close()
            table.terminate()
            table.wait(10)
            client.close()


async def until(ws: aiohttp.ClientWebSocketResponse, holds: Any) -> tuple[dict[str, Any], float]:
    """The next view for which ``holds``, and when it was read."""
    while True:
        message = await asyncio.wait_for(ws.receive(), 30)
        read = time.monotonic()
        view = json.loads(message.data)
        if view.get("type") == "view" and holds(view):
            return view, read


async def act(ws: aiohttp.ClientWebSocketResponse, view: dict[str, Any], action: str,
              **args: Any) -> dict[str, Any]:
    version = view["game"]["version"]
    await ws.send_json({"action": action, "args": args, "version": version})
    return (await until(ws, lambda v: v["game"]["version"] != version))[0]


async def press_all(url: str, client: Subscriber, stamps: Stamps, presses: int,
                    tabs: int) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers={"Origin": url.rstrip("/")}) as http:
        async with http.post(url + "login", data={"password": PASSWORD}) as login:
            login.raise_for_status()
        sockets = [await http.ws_connect(url + "live") for _ in range(tabs)]
        first = sockets[0]
        view, _ = await until(first, lambda v: True)
        view = await act(first, view, "deal", roles=ROLES)
        for key in ("start", "next"):
            offer = next(o for o in view["game"]["offers"] if o["key"] == key)
            view = await act(first, view, offer["action"], **offer.get("args", {}))
        if view["game"]["stage"] != "day":
            raise AssertionError(f"not day 1: {view['game']['stage']}")
        # the table's day too: a press before it is a night's, private
        client.wait_for(lambda m: m.topic == PREFIX + "event/day", timeout=30)
        for i in range(presses):
            seat = i % 10 + 1
            stamps.followers_first = i % 2 == 1
            seen = len(client.matching(lambda m: m.topic == PREFIX + PRESS))
            published = time.monotonic()
            wall = time.time() - published  # the MQTT client's clock, less the stamps'
            client.publish(PREFIX + "sim/press", json.dumps({"seat": seat}))
            _, received = await until(first, lambda v, s=seat: s in v["down"])
            event = client.wait_for(lambda m: m.topic == PREFIX + PRESS, count=seen + 1)[-1].at
            stamps.finish(published=published, event=event - wall, received=received)
            client.publish(PREFIX + "sim/release", json.dumps({"seat": seat}))
            await until(first, lambda v, s=seat: s not in v["down"])
            await asyncio.sleep(0.03)  # past the table's debounce (20 ms), as bench.gpio
        for ws in sockets:
            await ws.close()


def view_costs(panel_view: Any, rounds: int) -> tuple[list[float], list[float], int]:
    """Building and serializing one view (the day-1 game of the run), ms: as the panel does
    (``LiveView.text``) and as ``json.dumps`` of its builtins; and its size."""
    now, before = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        text = panel_view.text()
        now.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        json.dumps(as_json(panel_view.message(), panel_view.language))
        before.append((time.perf_counter() - start) * 1000)
    return now, before, len(text)


def report(stamps: Stamps, collections: Any, tabs: int) -> None:
    whole = [d for d in stamps.done if all(n in d for n in HOPS)]
    missing = Counter(n for d in stamps.done for n in HOPS if n not in d)
    print(f"press -> judge's WebSocket, {tabs} tab(s): {len(whole)} of {len(stamps.done)} "
          f"presses stamped at every hop (load average {load_average()})"
          + "".join(f"; {n} without {hop}" for hop, n in missing.items()))
    total = [(d["received"] - d["published"]) * 1000 for d in whole]
    print(f"  whole path                       p50 / p99 / max {Figures.of(total)}")
    floor = [(d["event"] - d["published"]) * 1000 for d in whole]
    print(f"  floor, press -> event on MQTT    p50 / p99 / max {Figures.of(floor)}")
    for a, b in itertools.pairwise(HOPS):
        print(f"  {a + ' -> ' + b:32s} p50 / p99 / max "
              f"{Figures.of([(d[b] - d[a]) * 1000 for d in whole])}")
    panel = [(d["received"] - d["paho"]) * 1000 for d in whole]
    print(f"  the panel's part (paho -> tab)   p50 / p99 / max {Figures.of(panel)}")
    for first, order in ((0.0, "tabs, then followers (now)"),
                         (1.0, "followers, then tabs (before)")):
        ms = [(d["written"] - d["loop"]) * 1000 for d in whole if d["followers_first"] == first]
        print(f"  loop -> written, {order:29s} p50 / p99 / max {Figures.of(ms)}")
    shows = sorted({(int(d["shows"]), int(d["pushes"])) for d in stamps.done})
    print("  views per press (shown, pushed): " + ", ".join(f"{s}, {p}" for s, p in shows)
          + f"; one view {stamps.size:,} characters; over the run {stamps.views_shown} views "
          f"shown with a tab connected, {stamps.views_pushed} sent (the others unchanged)")
    hit = sum(bool(collections.during(d["published"], d["received"])) for d in whole)
    print(f"  garbage collector in this process: {len(collections.spans)} collections, "
          f"{hit} presses had one on their way")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="presses (default 200)")
    parser.add_argument("--tabs", type=int, default=1, help="logged-in tabs (default 1)")
    args = quick.arguments(parser, {"n": 5})
    stamps = Stamps()
    panels: list[Panel] = []
    keep = wrap(Panel, "__init__", after=lambda result, panel, cfg: panels.append(panel))
    with (tempfile.TemporaryDirectory() as tmp, instrumented(stamps),
          judged_table(Path(tmp)) as (url, client)):
        keep()
        with collector_pauses() as collections:
            asyncio.run(press_all(url, client, stamps, args.n, args.tabs))
        report(stamps, collections, args.tabs)
        now, before, size = view_costs(panels[0].live, 20 if args.quick else 500)
    print(f"one view ({size:,} characters), built and serialized: now p50 / p99 / max "
          f"{Figures.of(now)}; as json.dumps of its builtins {Figures.of(before)}")
    frozen = gc.get_freeze_count()
    with_freeze = full_collection()
    gc.unfreeze()
    print(f"a full collection in this process: {with_freeze:.3f} ms with the start-up frozen "
          f"({frozen:,} objects, as mafia-table judge), {full_collection():.3f} ms without")


def full_collection() -> float:
    """The shortest of three full collections, ms."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        gc.collect()
        times.append((time.perf_counter() - start) * 1000)
    return min(times)


if __name__ == "__main__":
    main()
