"""The stream overlay in a real headless Chromium (Debian's package, driven by Playwright),
following a game the judge runs from the panel, against the simulated example table over a real
mosquitto (the harness of tests/e2e/test_judge.py: tests/support/judge_panel.py).

What it checks: the overlay page is transparent and 1920x1080; it follows the game (names, the
floor and its time counting down, nominations, fouls, counts, who left and how) from frames
pushed on its WebSocket; nothing secret (a role, a shot, a check, the best move) is in its DOM,
in any frame on its socket, in ``/overlay.json`` or in ``/api/get/current_game.php`` while the
organiser has not enabled secrets; with them enabled, each secret reaches the page only after
the stream delay (each frame is stamped by the page's clock as it arrives).
``MAFIA_SCREENSHOTS=docs`` saves the overlay on day 1 there.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import (
    Hands,
    Judge,
    Panel,
    counted,
    judge_config,
    login,
    night_step,
    table_config,
)
from tests.support.record_game import ROLES
from tests.support.running import Running

SECRET_WORDS = re.compile(r"\b(don|sheriff|mafia|maf|civilian|town|legacy|checkedBy\w*|"
                          r"secrets|shots?|checks?|best_move|role)\b", re.IGNORECASE)
#: every frame the overlay page receives, stamped by the page's clock (ms since the epoch)
STAMP_FRAMES = """
window.frames_in = [];
const Plain = window.WebSocket;
window.WebSocket = class extends Plain {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) =>
      window.frames_in.push([performance.timeOrigin + performance.now(), e.data]));
  }
};
"""
TOKEN = "overlay-token-for-the-stream"


def overlay_config(tmp_path: Path, broker_port: int, listen: str, extra: str = "") -> Path:
    path = judge_config(tmp_path, broker_port, listen)
    path.write_text(path.read_text() + extra)
    return path


def deal(panel: Panel) -> None:
    for seat, role in enumerate(ROLES, start=1):
        panel.page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
    panel.tap("#deal-typed")


def get(url: str, headers: dict[str, str] | None = None) -> str:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {})) as response:
        return response.read().decode()


def assert_public(overlay, url: str, query: str = "") -> None:
    """Nothing secret in the overlay's DOM, its socket's frames or its JSON endpoints."""
    frames = overlay.evaluate("window.frames_in.map((f) => f[1])")
    assert frames, "the overlay received nothing"
    for text in (overlay.content(), *frames, get(url + "overlay.json" + query),
                 get(url + "api/get/current_game.php" + (query or "?token=x"))):
        found = SECRET_WORDS.search(text)
        assert found is None, f"{found.group(0)!r} in {text[:300]}"


#: the parts of a seat's tile that overlap one another or leave the tile, as "a/b" pairs
_CROWDED = """(seat) => {
  const tile = document.querySelector(`.seat[data-seat="${seat}"]`);
  const box = tile.getBoundingClientRect();
  const parts = [...tile.children].filter((e) => e.textContent.trim() &&
    getComputedStyle(e).display !== "none").map((e) => [e.className, e.getBoundingClientRect()]);
  const found = [];
  parts.forEach(([name, r], i) => {
    if (r.left < box.left || r.right > box.right || r.top < box.top || r.bottom > box.bottom)
      found.push(`${name}/tile`);
    const e = tile.getElementsByClassName(name)[0];
    if (["name", "left", "card"].includes(name) &&
        (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1))
      found.push(`${name}/clipped`);  // the words said in full, a long name too
    parts.slice(i + 1).forEach(([other, o]) => {
      if (r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom)
        found.push(`${name}/${other}`);
    });
  });
  return found;
}"""


#: the contrast of a seat's departed caption with what is behind it (WCAG 2's ratio), and the
#: opacity it is drawn with: a stream is watched small, over any video
_CAPTION = """(seat) => {
  const e = document.querySelector(`.seat[data-seat="${seat}"] .left`);
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255).map((v) => v <= 0.03928 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [fg, bg] = [rgb(getComputedStyle(e).color), rgb(getComputedStyle(e).backgroundColor)];
  let opacity = 1;
  for (let a = e; a; a = a.parentElement) opacity *= Number(getComputedStyle(a).opacity);
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
  return { ratio: (hi + 0.05) / (lo + 0.05), opacity, solid: bg.length === 3 || bg[3] === 1 };
}"""


def caption(page, seat: int) -> dict:
    """How seat ``seat``'s departed caption reads (``_CAPTION``)."""
    found: dict = page.evaluate(_CAPTION, seat)
    return found


def crowded(page, seat: int) -> list[str]:
    """Which parts of ``seat``'s tile (number, name, fouls, the departed label, the card) cover
    one another or spill out of it, and whether the departed label or the card is cut."""
    found: list[str] = page.evaluate(_CROWDED, seat)
    return found


@pytest.mark.timeout(180)
def test_the_public_overlay_follows_the_game_and_never_holds_a_secret(tmp_path, broker,
                                                                      chromium):
    listen = f"127.0.0.1:{free_port()}"
    url = f"http://{listen}/"
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(overlay_config(tmp_path, broker.port, listen))
    try:
        overlay = chromium.new_page(viewport={"width": 1920, "height": 1080})
        overlay.set_default_timeout(20_000)
        overlay.add_init_script(STAMP_FRAMES)
        overlay.goto(url + "overlay")  # no login: public information only
        for element in ("html", "body"):
            assert overlay.evaluate(f"getComputedStyle(document.querySelector('{element}'))"
                                    ".backgroundColor") == "rgba(0, 0, 0, 0)"
        assert overlay.evaluate("[document.body.offsetWidth, document.body.offsetHeight]") \
            == [1920, 1080]
        assert not overlay.query_selector_all("button, input, select, form")  # no control
        overlay.wait_for_selector('#stage[data-stage="setup"]')

        panel = login(chromium, url)
        page = panel.page
        # seat 5's is long: said in full on two lines, never «Констан…»
        for seat, name in ((1, "Anna"), (2, "Boris"), (4, "Dmitry"),
                           (5, "Константин Константинопольский")):
            page.fill(f'.seat[data-seat="{seat}"] .name', name)
            version = page.get_attribute("body", "data-version")
            page.press(f'.seat[data-seat="{seat}"] .name', "Enter")
            page.wait_for_function(f"document.body.dataset.version !== '{version}'")
        overlay.wait_for_selector('.seat[data-seat="4"] .name:text("Dmitry")')
        deal(panel)
        panel.tap("#start")
        overlay.wait_for_selector('#timer:text("Meeting")')  # the mafia's minute (4.2.1)
        assert_public(overlay, url)
        panel.next()  # morning: day 1
        overlay.wait_for_selector('#stage[data-stage="day"]')

        for speaker, nominee in ((1, 5), (2, 6)):
            panel.next()
            overlay.wait_for_selector(f'.seat.floor[data-seat="{speaker}"]')
            hands.key(speaker, f"{nominee}#")
            overlay.wait_for_selector(f'.seat.nominee[data-seat="{nominee}"]')
        shown = overlay.text_content("#timer")
        assert shown.startswith("Seat 2 · 1:00") or shown.startswith("Seat 2 · 0:")
        overlay.wait_for_function(f"document.getElementById('timer').textContent !== "
                                  f"{json.dumps(shown)}")  # it counts down
        overlay.wait_for_selector('#nominees:text("5, 6")')
        panel.seat(9, "foul")
        overlay.wait_for_selector('.seat[data-seat="9"] .fouls:text("●")')
        if os.environ.get("MAFIA_SCREENSHOTS"):  # for docs/overlay.md, on a dark backdrop
            overlay.evaluate("document.documentElement.style.background = '#2b3440'")
            overlay.screenshot(path=str(Path(os.environ["MAFIA_SCREENSHOTS"]) / "overlay.png"))
            overlay.evaluate("document.documentElement.style.background = ''")
        panel.next(8)  # seats 3..10
        opened = hands.upcoming("event/vote/window", state="opened", candidate=5)
        panel.tap("#next")  # the vote (4.4.4)
        opened()
        counted(panel, hands, 5, [1, 2, 3, 4, 7, 8, 9, 10])
        overlay.wait_for_selector('#votes:text("5: 8…")')  # the table's count, live
        opened = hands.upcoming("event/vote/window", state="opened", candidate=6)
        panel.tap("#confirm")
        overlay.wait_for_selector('#votes[data-counts="[[5,8]]"]')
        opened()
        page.wait_for_selector('#vote[data-proposed^="6:"]')
        panel.tap("#confirm")
        panel.stage("last_words")
        overlay.wait_for_selector('.seat.leaving[data-seat="5"]')
        panel.next(2)
        overlay.wait_for_selector('.seat.out[data-seat="5"] .left:text("voted out · day 1")')
        assert crowded(overlay, 5) == [], "the departed label covers nothing on its tile"
        assert overlay.text_content('.seat[data-seat="5"] .name') == \
            "Константин Константинопольский"
        shown = caption(overlay, 5)  # white on a solid band at full strength (WCAG AAA: 7)
        assert shown["ratio"] >= 7 and shown["opacity"] == 1 and shown["solid"], shown

        shot = night_step(panel, hands, "mafia_shot", {1: "7#", 2: "7#", 3: "7#"})
        assert shot["agreed"] is True
        night_step(panel, hands, "don_check", {1: "4#"})
        night_step(panel, hands, "sheriff_check", {4: "2#"})
        night_step(panel, hands, "best_move", {7: "1#2#3#"})
        assert_public(overlay, url)  # the night's picks and answers are nowhere
        panel.next()  # morning: 7's last minute
        overlay.wait_for_selector('.seat.leaving[data-seat="7"]')
        panel.next(2)
        overlay.wait_for_selector('.seat.out[data-seat="7"] .left:text("killed · night 1")')
        assert crowded(overlay, 7) == []
        rated = json.loads(get(url + "api/get/current_game.php?token=x"))["game"]
        assert [(p["number"], p["deathType"]) for p in rated["players"] if "deathType" in p] \
            == [(5, "voting"), (7, "shooting")]
        assert rated["players"][0]["name"] == "Anna" and rated["nominees"] == []
        assert_public(overlay, url)
    finally:
        judge.stop()
        table.close()
        hands.record.close()


@pytest.mark.timeout(180)
def test_with_the_organisers_delay_secrets_reach_the_overlay_only_after_it(tmp_path, broker,
                                                                          chromium):
    delay = 3.0
    (tmp_path / "overlay.token").write_text(TOKEN + "\n")
    listen = f"127.0.0.1:{free_port()}"
    url = f"http://{listen}/"
    query = f"?token={TOKEN}"  # the rating platform's endpoint takes it so (its overlay sends it)
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(overlay_config(tmp_path, broker.port, listen, f"""
[overlay]
secrets = true
delay = {delay}
token_file = "overlay.token"
"""))
    try:
        with pytest.raises(urllib.error.HTTPError, match="403"):
            urllib.request.urlopen(url + "overlay.json")
        overlay = chromium.new_page(viewport={"width": 1920, "height": 1080})
        overlay.set_default_timeout(20_000)
        overlay.add_init_script(STAMP_FRAMES)
        overlay.goto(url + "overlay#token=" + TOKEN)  # after '#': it never leaves the browser
        overlay.wait_for_selector('#stage[data-stage="setup"]')
        panel = login(chromium, url)

        dealt = time.time()  # the deal happens after this
        deal(panel)
        # inside the delay, no role in the DOM nor either JSON endpoint (asked only while the
        # clock says so: a busy machine past the delay has nothing to check here)
        dom = overlay.inner_text("#seats")
        view = json.loads(get(url + "overlay.json", bearer))
        rated = json.loads(get(url + "api/get/current_game.php" + query))["game"]
        if time.time() < dealt + delay:
            assert SECRET_WORDS.search(dom) is None, dom
            assert view["secrets"]["roles"] == [] and view["secrets"]["shots"] == []
            assert all("role" not in p for p in rated["players"])
        overlay.wait_for_selector('.seat[data-seat="1"] .card:text("don")')
        first = first_frame_with(overlay, lambda v: bool(v.get("secrets", {}).get("roles")))
        assert first >= dealt + delay - 0.05, f"roles {dealt + delay - first:.3f} s early"
        rated = json.loads(get(url + "api/get/current_game.php" + query))["game"]
        assert [p["role"] for p in rated["players"][:4]] == ["don", "maf", "maf", "sheriff"]

        panel.tap("#start")
        panel.next()  # morning: day 1
        panel.stage("day")
        panel.next(11)  # ten speeches, nobody nominated: no vote, night 1 (4.4.1)
        panel.stage("night")
        shot_at = time.time()  # the shot is made after this
        night_step(panel, hands, "mafia_shot", {1: "8#", 2: "8#", 3: "8#"})
        checked_at = time.time()  # and the checks after this
        night_step(panel, hands, "don_check", {1: "5#"})
        night_step(panel, hands, "sheriff_check", {4: "1#"})
        overlay.wait_for_selector('#secret li:text("Night 1: shot at 8")')
        overlay.wait_for_selector('#secret li:text("Night 1: sheriff checks 1: black")')
        shot = first_frame_with(overlay, lambda v: bool(v.get("secrets", {}).get("shots")))
        check = first_frame_with(overlay, lambda v: bool(v.get("secrets", {}).get("checks")))
        assert shot >= shot_at + delay - 0.05 and check >= checked_at + delay - 0.05
        assert not overlay.query_selector('.seat[data-seat="8"].out')  # still night: in
        night_step(panel, hands, "best_move", {8: "1#2#3#"})
        panel.next()  # morning: 8's last minute, then out with its card shown
        panel.stage("last_words")
        panel.next(2)
        overlay.wait_for_selector('.seat.out[data-seat="8"] .left:text("killed · night 1")')
        overlay.wait_for_selector('.seat.out[data-seat="8"] .card:not(:empty)')
        assert crowded(overlay, 8) == [], "the label and the card both read, neither on the name"
    finally:
        judge.stop()
        table.close()
        hands.record.close()


def first_frame_with(overlay, holds) -> float:
    """When (the page's clock, seconds) the first frame whose view ``holds`` arrived."""
    for at, text in overlay.evaluate("window.frames_in"):
        view = json.loads(text)
        if view.get("type") == "overlay" and holds(view):
            return at / 1000
    raise AssertionError("no such frame")
