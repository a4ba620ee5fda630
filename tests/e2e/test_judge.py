"""A whole FIIM game run from the judge's panel in a real headless Chromium (Debian's package,
driven by Playwright), against the simulated example table over a real mosquitto.

The test is the judge: it taps the real page. The ten players are scripted: they type on the
simulated keypads (``sim/key``) and raise fists on the simulated buttons (``sim/press``) when the
table opens their window. On the way it checks what can go wrong at a club: a wrong password, a
page and the live channel without login, two tabs (the stale one is told), a malformed live
message, a broker outage, a panel restart and a table restart mid-game (the game resumes where
it was), and that no role reaches a page before login. (The docs' screenshots of the panel
come from tests/e2e/test_every_screen.py, in each language.)
"""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from kit.local_broker import free_port
from tests.support.judge_panel import (
    PASSWORD,
    TABLE,
    Hands,
    Judge,
    Panel,
    judge_config,
    night_step,
    table_config,
    vote,
)
from tests.support.page_layout import fits
from tests.support.record_game import ROLES
from tests.support.running import Running


@pytest.mark.timeout(180)
def test_a_whole_fiim_game_from_the_judges_panel(tmp_path, broker, chromium):
    listen = f"127.0.0.1:{free_port()}"
    url = f"http://{listen}/"
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(judge_config(tmp_path, broker.port, listen))
    try:
        # ---------------------------------------------------------- login, and nothing without
        with urllib.request.urlopen(url) as response:  # redirected to the login page
            assert response.url.endswith("/login") and b"password" in response.read()
        with pytest.raises(urllib.error.HTTPError, match="401"):
            urllib.request.urlopen(url + "live")
        page = chromium.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url)
        page.fill("#password", "wrong")
        page.click("#login")
        page.wait_for_selector("#wrong:not([hidden])")
        page.fill("#password", PASSWORD)
        page.click("#login")
        panel = Panel(page, None)
        panel.stage("setup")
        page.wait_for_selector("#table-status.good")

        # ---------------------------------------------------------- setup (4.1)
        panel.name_and_deal({1: "Anna", 2: "Boris", 4: "Dmitry"}, ROLES)
        panel.tap("#deal-typed")
        page.wait_for_selector('.seat[data-seat="1"] .role:text("don")')
        panel.shot("setup")
        panel.tap("#start")
        panel.stage("night0")
        page.wait_for_selector('#clock-what:text-is("night")')  # the mafia's minute (4.2.1)
        panel.next()  # morning: day 1, seat 1 opens (4.3.2)
        panel.stage("day")

        # ---------------------------------------------------------- day 1: speeches, a foul
        for speaker, nominee in ((1, 5), (2, 6)):
            panel.next()
            page.wait_for_selector(f'.seat.floor[data-seat="{speaker}"]')
            hands.key(speaker, f"{nominee}#")
            page.wait_for_selector(f'.seat.nominee[data-seat="{nominee}"]')
        page.click("#pause")  # the floor's clock, from the panel (4.3.1)
        page.wait_for_selector('#clock-what:text-is("seat 2 · paused")')
        added = hands.upcoming("event/timer", state="changed")
        page.click("#add")
        assert added()["remaining_ms"] > 60_000
        page.click("#resume")
        page.wait_for_selector('#clock-what:text-is("seat 2")')
        panel.seat(9, "foul")
        page.wait_for_selector('.seat[data-seat="9"] .fouls:text("●")')
        panel.tap("#undo")
        page.wait_for_function("document.querySelector('.seat[data-seat=\"9\"] .fouls')"
                               ".textContent === ''")
        panel.shot("day")
        panel.next(8)  # seats 3..10
        # the vote: 5 gets eight fists (the first count rejected and counted again), 6 the rest
        town = [1, 2, 3, 4, 7, 8, 9, 10]
        vote(panel, hands, [(5, town, "reject"), (5, town, "shot"), (6, [], "confirm")])
        panel.stage("last_words")
        panel.next(2)  # 5's last minute, then 5 leaves and night falls (4.4.13, 4.5.1)
        panel.stage("night")
        page.wait_for_selector('.seat.out[data-seat="5"]')

        # ---------------------------------------------------------- night 1
        shot = night_step(panel, hands, "mafia_shot", {1: "7#", 2: "7#", 3: "7#"})
        assert shot["agreed"] is True
        page.wait_for_selector('#night:text("shot: 7")')
        page.wait_for_selector('.seat.victim[data-seat="7"]')  # on the tile, by its name too
        reveal = hands.upcoming("cmd/night/reveal", seat=1, pattern=1)

        def counting_down() -> None:  # the step's own time, as the table runs it
            page.wait_for_selector('#clock:not([hidden]) #clock-what:text-is("night")')

        night_step(panel, hands, "don_check", {1: "4#"}, during=counting_down)  # the Sheriff: yes
        reveal()
        reveal = hands.upcoming("cmd/night/reveal", seat=4, pattern=1)
        night_step(panel, hands, "sheriff_check", {4: "2#"})  # 2 is black: yes
        reveal()
        panel.shot("night")
        best = night_step(panel, hands, "best_move", {7: "1#2#3#"})
        assert best["picks"] == [{"actor": 7, "picks": [1, 2, 3], "miss": None}]

        # ---------------------------------------------------------- the panel restarts
        judge.stop()
        page.wait_for_selector("#table-status.bad")
        judge.start()
        page.wait_for_selector("#table-status.good")
        page.wait_for_selector('#night:text("shot: 7")')  # the game is where it was
        panel.next()  # morning
        panel.stage("last_words")
        panel.next(2)
        panel.stage("day")
        page.wait_for_selector('.seat.out[data-seat="7"]')

        # ---------------------------------------------------------- two tabs, bad messages
        other = chromium.new_page()
        other.context.add_cookies(page.context.cookies())
        other.goto(url)
        other.wait_for_selector('#stage[data-stage="day"]')
        other.evaluate("view.game.version -= 1")  # a tab that has not seen the last change
        other.click("#next")
        other.wait_for_selector('#message:text("another tab acted first")')
        page.evaluate("socket.send('{not json')")
        page.wait_for_selector('#message:text("malformed message")')
        assert page.is_disabled("#withdraw")  # nobody nominated today: it does not apply
        page.evaluate("act('withdraw', { seat: 3 })")  # sent anyway: refused, with the paragraph
        page.wait_for_selector('#message:text("4.4.2")')

        # ---------------------------------------------------------- the broker goes away
        broker.stop()
        page.wait_for_selector('#table-status:text("broker offline")')
        broker.start()
        page.wait_for_selector("#table-status.good", timeout=30_000)

        # ---------------------------------------------------------- day 2: a tie, twice
        for speaker, nominee in ((2, 1), (3, 3)):  # 3 nominates themself: allowed (4.4.2)
            panel.next()
            page.wait_for_selector(f'.seat.floor[data-seat="{speaker}"]')
            hands.key(speaker, f"{nominee}#")
            page.wait_for_selector(f'.seat.nominee[data-seat="{nominee}"]')
        panel.next(6)  # 4, 6, 8, 9, 10, 1
        # 8 voters: 1 gets four, 3 the other four (leftover, 4.4.8)
        vote(panel, hands, [(1, [2, 4, 6, 8], "confirm"), (3, [1, 3, 9, 10], "confirm")])
        panel.stage("defence")
        panel.next(2)
        # the same two tie again: 4.4.12.3, shall they all leave? five of eight say yes
        vote(panel, hands, [(1, [2, 4, 6, 8], "confirm"), (3, [1, 3, 9, 10], "confirm"),
                            (0, [4, 6, 8, 9, 10], "confirm")])
        panel.stage("last_words")
        panel.next(3)
        panel.stage("night")

        # ---------------------------------------------------------- night 2: a lone mafioso
        night_step(panel, hands, "mafia_shot", {2: "6#"})
        night_step(panel, hands, "sheriff_check", {4: "8#"})
        panel.next()  # morning (no Don, no best move after the first kill: 4.5.9)
        panel.stage("last_words")
        panel.next(2)

        # ---------------------------------------------------------- the table restarts
        panel.stage("day")
        table.close()
        page.wait_for_selector('#table-status:text("table offline")')
        table = Running(table_config(tmp_path, broker.port))
        page.wait_for_selector("#table-status.good")

        # ---------------------------------------------------------- day 3: the last black
        panel.next()  # 4 opens (after 2, with 3 out: 4.3.2)
        page.wait_for_selector('.seat.floor[data-seat="4"]')
        hands.key(4, "2#")
        page.wait_for_selector('.seat.nominee[data-seat="2"]')
        panel.next(4)
        vote(panel, hands, [(2, [], "confirm")])  # every vote is left over to 2 (4.4.8)
        panel.stage("last_words")
        panel.next(2)
        panel.stage("over")
        page.wait_for_selector('#stage:text("red wins")')
        # game over: no frames, no seat actions, the game's sheet one tap away
        assert page.locator(".seat.nominee, .seat.floor").count() == 0
        assert all(page.locator(f"#{key}").is_hidden() for key in (
            "foul", "nominate", "withdraw", "disqualify", "show-card", "next"))
        panel.shot("over")
        with page.context.expect_page() as opened:
            page.click("#sheet-link")
        sheet = opened.value
        sheet.wait_for_selector('#status[data-status="finished"]')
        sheet.close()
        out = [s["seat"] for m in hands.record.matching(lambda m: m.topic == TABLE + "event/seats")
               for s in m.json()["seats"] if s.get("in_game") is False]
        assert out == [5, 7, 1, 3, 6, 2]  # the table's own standings agree

        # ---------------------------------------------------------- the record (docs/record.md)
        with page.context.expect_page() as opened:
            page.click("#games-link")  # the games open in a new tab
        games = opened.value
        games.wait_for_selector("#games tr[data-game] a")
        games.click("#games tr[data-game] a")
        games.wait_for_selector('#status[data-status="finished"]')
        fits(games)  # the sheet, its correction forms too, on a tablet and a phone
        record = games.evaluate("fetch(`/api/games/${document.body.dataset.game}`)"
                                ".then(r => r.json())")
        confirmed = [m.json() for m in hands.record.matching(
            lambda m: m.topic == TABLE + "event/vote/confirmed")]
        assert [(b["candidate"], b["voters"], b["leftover"]) for d in record["days"]
                for v in d["votes"] for b in v["ballots"]] == [
            (c["candidate"], c["voters"], c["leftover"]) for c in confirmed]
        assert [p["left"]["how"] for p in record["players"] if p["left"]] == [
            "voted_out", "voted_out", "voted_out", "voted_out", "shot", "shot"]  # seats 1,2,3,5,6,7
        assert [n["killed"] for n in record["nights"]] == [7, 6]
        assert record["nights"][0]["best_move"] == {"by": 7, "guesses": [1, 2, 3]}
    finally:
        judge.stop()
        table.close()
        hands.record.close()
