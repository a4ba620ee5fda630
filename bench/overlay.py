"""The stream overlay, measured end to end (run by hand: ``.venv/bin/python -m bench.overlay``;
``--quick``: seconds, that it runs, bench/quick.py).

A real mosquitto, the simulated example table in this process, ``mafia-table judge`` as its own
process, and the overlay page (``/overlay``, 1920x1080) in Debian's headless Chromium, as in
tests/e2e/test_overlay.py. A press on a seat button (``sim/press``: the simulated hand) until the
overlay's DOM shows that seat's fist: the table's event, the judge's service, its overlay
WebSocket and the page's rendering, each press a full trip.

The clock: the press is stamped with Python's ``time.monotonic()`` and the DOM change with the
page's ``performance.now()`` (a MutationObserver on the seat's class), both monotonic clocks of
one machine. Their offset is measured in the run: ``performance.now()`` read in the page
between two ``time.monotonic()`` reads, many times; the sample with the shortest round trip
gives the offset, within half that round trip (printed as the clock's error), once before and
once after the presses (printed as the drift).

Floors measured in the same run: the same press until the table's ``event/seat/press`` reaches an
MQTT client (the table's share), and a bare WebSocket from this process to the same page: a frame
sent until the page's DOM shows it (the browser's share of a push). The verdict line
(bench/figures.py) takes their sum as the floor, against the overlay's goal: p99 under 500 ms.
"""

from __future__ import annotations

import argparse
import os
import time

from bench import quick
from bench.figures import Figures, Verdict, below
from bench.judge import Echo, _last, day_one, judged_table, percentiles
from tests.support.judge_panel import TABLE

OBSERVER = """() => {
  window.fistAt = [];
  new MutationObserver((changes) => {
    for (const c of changes) if (c.target.classList.contains('down') &&
        !(c.oldValue || '').includes('down')) window.fistAt.push(performance.now());
  }).observe(document.getElementById('seats'),
             {subtree: true, attributes: true, attributeFilter: ['class'],
              attributeOldValue: true});
}"""


def offset_ms(page, samples: int = 50) -> tuple[float, float]:
    """(monotonic ms - performance.now() ms, its error bound in ms): the sample with the
    shortest round trip."""
    best = None
    for _ in range(samples):
        before = time.monotonic()
        now = page.evaluate("performance.now()")
        after = time.monotonic()
        trip = (after - before) * 1000
        if best is None or trip < best[1]:
            best = ((before + after) / 2 * 1000 - now, trip / 2)
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="presses (default 200)")
    n = quick.arguments(parser, {"n": 5}).n

    load_before = os.getloadavg()
    with judged_table() as (listen, hands, _, browser):
        day_one(browser, listen)
        echo = Echo()
        try:
            overlay = browser.new_page(viewport={"width": 1920, "height": 1080})
            overlay.goto(f"http://{listen}/overlay")
            overlay.wait_for_selector('#stage[data-stage="day"]')
            overlay.evaluate(OBSERVER)
            echo.open_on(overlay, wall=False)
            start_offset, start_error = offset_ms(overlay)

            dom, mqtt, bare = [], [], []
            for i in range(n):
                seat = i % 10 + 1
                on_mqtt = hands.upcoming("event/seat/press", seat=seat)
                wall, pressed = time.time(), time.monotonic()
                hands.record.publish(TABLE + "sim/press", f'{{"seat": {seat}}}')
                overlay.wait_for_function(f"window.fistAt.length > {i}")
                on_mqtt()
                dom.append(overlay.evaluate(f"window.fistAt[{i}]") + start_offset
                           - pressed * 1000)
                mqtt.append((_last(hands, "event/seat/press") - wall) * 1000)
                hands.record.publish(TABLE + "sim/release", f'{{"seat": {seat}}}')
                overlay.wait_for_selector(f'.seat.down[data-seat="{seat}"]', state="detached")
                sent = echo.send(str(i))
                overlay.wait_for_function(f"window.echoAt.length > {i}")
                bare.append(overlay.evaluate(f"window.echoAt[{i}]") + start_offset
                            - sent * 1000)
            end_offset, end_error = offset_ms(overlay)
        finally:
            echo.close()
    load_after = os.getloadavg()
    print(f"press -> overlay DOM ({n}):        {percentiles(dom)}")
    print(f"  floor, press -> event on MQTT:  {percentiles(mqtt)}")
    print(f"  floor, bare WebSocket -> DOM:   {percentiles(bare)}")
    print(f"clock: offset error <= {max(start_error, end_error):.3f} ms, drift over the run "
          f"{end_offset - start_offset:+.3f} ms")
    print("load average: before {:.2f} {:.2f} {:.2f}, after {:.2f} {:.2f} {:.2f}".format(
        *load_before, *load_after))
    print(Verdict("seat press -> fist on the overlay", Figures.of(dom),
                  Figures.of(mqtt) + Figures.of(bare), below(500.0)).line())


if __name__ == "__main__":
    main()
