"""The judge's page and the stream overlay draw each view over the last one, writing only what
changed: in real headless Chromium, against the simulated table over a real mosquitto.

Every element of the seat tiles and the log is marked with a JavaScript property before a change,
and a MutationObserver records every write under them. A seat's fist (``sim/press``) must change
that seat's tile's class and nothing else on either page; a foul (a tap on the panel) must give
the log one new line at the top, its other lines the same objects, and change only the fouled
seat's tile. A node drawn again would have lost its mark; a value written again, even the same,
would be a mutation record.
"""

from __future__ import annotations

import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import TABLE, Hands, Judge, judge_config, login, table_config
from tests.support.record_game import ROLES
from tests.support.running import Running

#: marks every node under the roots, and records each write under them from now on
WATCH = """(roots) => {
  window.writes = [];
  let n = 0;
  for (const root of roots) {
    const el = document.querySelector(root);
    [el, ...el.querySelectorAll('*')].forEach((node) => { node.mark = ++n; });
    new MutationObserver((records) => records.forEach((r) => window.writes.push({
      root, kind: r.type, attribute: r.attributeName,
      tile: (r.target.closest ? r.target : r.target.parentElement).closest('.seat')?.dataset.seat
        ?? null,
      added: r.addedNodes.length, removed: r.removedNodes.length })))
      .observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  }
}"""
#: the marked elements still in the page, and the unmarked ones (drawn since) under each root
MARKS = """(roots) => roots.map((root) => {
  const nodes = [...document.querySelectorAll(`${root}, ${root} *`)];
  return [nodes.filter((node) => node.mark).length, nodes.filter((node) => !node.mark).length];
})"""


@pytest.mark.timeout(120)
def test_a_change_redraws_only_what_changed(tmp_path, broker, chromium):
    listen = f"127.0.0.1:{free_port()}"
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(judge_config(tmp_path, broker.port, listen))
    try:
        panel = login(chromium, f"http://{listen}/")
        page = panel.page
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        panel.tap("#deal-typed")
        panel.tap("#start")
        panel.next()
        panel.stage("day")
        overlay = chromium.new_page(viewport={"width": 1920, "height": 1080})
        overlay.goto(f"http://{listen}/overlay")
        overlay.wait_for_selector('#stage[data-stage="day"]')
        roots = ["#seats", "#log"]
        page.evaluate(WATCH, roots)
        overlay.evaluate(WATCH, ["#seats"])
        panel_marks = page.evaluate(MARKS, roots)
        overlay_marks = overlay.evaluate(MARKS, ["#seats"])
        lines = page.locator("#log li").count()
        assert lines > 0

        # a fist: seat 3's tile gets its class, on both pages; nothing else is written
        hands.record.publish(TABLE + "sim/press", '{"seat": 3}')
        page.wait_for_selector('.seat.down[data-seat="3"]')
        overlay.wait_for_selector('.seat.down[data-seat="3"]')
        fist = {"root": "#seats", "kind": "attributes", "attribute": "class", "tile": "3",
                "added": 0, "removed": 0}
        assert page.evaluate("window.writes") == [fist]
        assert overlay.evaluate("window.writes") == [fist]
        assert page.evaluate(MARKS, roots) == panel_marks
        assert overlay.evaluate(MARKS, ["#seats"]) == overlay_marks

        # a foul: one new line at the top of the log; only seat 5's tile changes
        hands.record.publish(TABLE + "sim/release", '{"seat": 3}')
        page.wait_for_selector('.seat.down[data-seat="3"]', state="detached")
        page.evaluate("window.writes = []")
        page.click('.seat[data-seat="5"] .num')  # selected: the tile's class
        panel.tap("#foul")
        page.wait_for_selector('.seat[data-seat="5"] .fouls:text("●")')
        writes = page.evaluate("window.writes")
        assert {w["tile"] for w in writes if w["root"] == "#seats"} == {"5"}, writes
        assert [w for w in writes if w["root"] == "#log"] == [
            {"root": "#log", "kind": "childList", "attribute": None, "tile": None, "added": 1,
             "removed": 0}]
        assert page.locator("#log li").count() == lines + 1
        assert page.evaluate("document.querySelector('#log li').mark") is None  # the new one
        (seats, log) = page.evaluate(MARKS, roots)
        assert seats == panel_marks[0] and log == [panel_marks[1][0], 1]
    finally:
        judge.stop()
        table.close()
        hands.record.close()
