"""Whole Crow Club games run from the judge's panel in a real headless Chromium, against
simulated tables over a real mosquitto.

At the example table's ten seats: the book's deck for ten (the Don, two mafia, the sheriff, the
doctor, the paranoid), its zero round, its night in the book's order with only the acting seats
woken and each answer on the actor's own indicator, the paranoid taking one with him, and a win
the book allows. Seats: 1 the Don, 2-3 mafia, 4 the sheriff, 5 the doctor, 6 the paranoid, 7-10
civilians.

At 13 seats (the 24-seat example table cut to 13), the smallest deck with the maniac: he wakes
after the mafia, kills, is checked red, and wins the «угадайка» one on one with the Don.
"""

from __future__ import annotations

import pytest

from judge.game.table import NO
from tests.support.judge_panel import (
    TABLE,
    Panel,
    book_game,
    book_game_at,
    night_in_order,
    night_step,
    table_config,
    vote,
)
from tests.support.table_configs import strip_table

ROLES = ["don", "mafia", "mafia", "sheriff", "doctor", "paranoid", *["civilian"] * 4]
#: 13 seats, the book's smallest deck with the maniac ("добавляется после 12 - 14 человек",
#: read as from 13: docs/rules/crow-club.md §1): 1 the Don, 2-3 mafia, 4 the maniac, 5 the
#: doctor, 6 the sheriff, 7 the paranoid, 8-13 civilians
ROLES_13 = ["don", "mafia", "mafia", "maniac", "doctor", "sheriff", "paranoid", *["civilian"] * 6]
#: what the table says in public while a night runs must not show who woke
NIGHT_INPUTS = ("event/seat/press", "event/seat/release", "event/seat/key", "event/seat/entry")


def stage_of(panel: Panel) -> str:
    return panel.page.get_attribute("#stage", "data-stage") or ""


@pytest.mark.timeout(180)
def test_a_whole_crow_club_game_from_the_judges_panel(tmp_path, broker, chromium):
    with book_game_at(tmp_path, broker.port, chromium,
                      table_config(tmp_path, broker.port, rules="crow-club"),
                      book_game("crow-club")) as (panel, hands):
        page = panel.page

        # ------------------------------------------------ «Раздача»: the cards as dealt
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        panel.tap("#deal-typed")
        page.wait_for_selector('.seat[data-seat="1"] .role:text("don")')
        panel.tap("#start")
        panel.stage("night0")
        panel.next()  # morning: day 1
        panel.stage("day")

        # ------------------------------------------------ day 1: the zero round, then nobody
        while stage_of(panel) == "day":  # «Нулевым кругом…», then a round nobody nominates in
            panel.next()
        panel.stage("night")

        # ------------------------------------------------ night 1 in the book's order
        night_from = len(hands.record.matching(lambda m: True))
        night_step(panel, hands, "mafia_shot", {1: "6#", 2: "6#", 3: "6#"})
        night_step(panel, hands, "doctor", {5: "7#"})
        night_step(panel, hands, "doctor_poison", {5: "3#"})  # his one poison
        answer = hands.upcoming("cmd/night/reveal", seat=4)
        night_step(panel, hands, "sheriff_check", {4: "2#"})
        assert answer()["seat"] == 4  # the answer on the sheriff's own indicator
        night_step(panel, hands, "paranoid", {6: "2#"})  # shot, he takes 2 with him
        night_to = len(hands.record.matching(lambda m: True))
        while stage_of(panel) in ("night", "last_words"):  # morning, the testaments
            panel.next()
        panel.stage("day")
        for seat in (2, 3, 6):
            page.wait_for_selector(f'.seat.out[data-seat="{seat}"]')

        # ------------------------------------------------ day 2: the Don voted out
        while stage_of(panel) == "day" and not page.query_selector(".seat.floor"):
            panel.next()  # the day opens
        speaker = page.eval_on_selector(".seat.floor", "e => +e.dataset.seat")
        hands.key(speaker, "1#")  # the first speaker nominates the Don
        page.wait_for_selector('.seat.nominee[data-seat="1"]')
        while stage_of(panel) == "day":
            panel.next()  # the others speak; after the last, the vote on the Don begins
        panel.stage("vote")
        # every vote is left over to the one nominee («Голосование»): no fists, the count
        hands.record.wait_for(lambda m: m.topic == TABLE + "event/vote/window"
                              and m.json().get("state") == "opened"
                              and m.json().get("candidate") == 1, timeout=30)
        page.wait_for_selector('#vote[data-proposed^="1:"]')
        panel.tap("#confirm")
        panel.stage("last_words")
        while stage_of(panel) == "last_words":  # the Don's testament, then he leaves
            panel.next()
        panel.stage("over")
        page.wait_for_selector('#stage:text("red")')

        # ------------------------------------------------ night privacy (the table's side)
        night = hands.record.matching(lambda m: True)[night_from:night_to]
        woke = {m.json()["step"]: m.json()["actors"] for m in night
                if m.topic == TABLE + "cmd/night/step"}
        assert woke == {"mafia_shot": [1, 2, 3], "doctor": [5], "doctor_poison": [5],
                        "sheriff_check": [4], "paranoid": [6]}
        public = [m for m in night if m.topic.startswith(TABLE + "event/")
                  or m.topic == TABLE + "state"]
        assert not [m.topic for m in public if m.topic.removeprefix(TABLE) in NIGHT_INPUTS]
        assert not [m.topic for m in public if "/night/" in m.topic]
        reveals = [m.json()["seat"] for m in night if m.topic == TABLE + "cmd/night/reveal"]
        assert reveals == [4]


@pytest.mark.timeout(180)
def test_the_maniac_at_13_seats_wakes_kills_and_wins_the_guess(tmp_path, broker, chromium):
    """«Маньяк»: "Просыпается ночью и убивает игрока. При проверке шерифом, маньяка Ведущий
    показывает красным"; «порядок пробуждения…»: he wakes after the mafia, before the doctor;
    «Победа маньяка»: "выигрывает тогда, когда остается 1х1 с кем то на "угадайке", даже если
    маньяк остался 1х1 с черным"."""
    with book_game_at(tmp_path, broker.port, chromium,
                      table_config(tmp_path, broker.port, "crow-club", strip_table(13)),
                      book_game("crow-club", 13)) as (panel, hands):
        page = panel.page
        page.on("dialog", lambda dialog: dialog.accept("a grave violation"))
        for seat, role in enumerate(ROLES_13, start=1):  # «Раздача»
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        panel.tap("#deal-typed")
        page.wait_for_selector('.seat[data-seat="4"] .role:text("maniac")')
        panel.tap("#start")
        panel.stage("night0")
        panel.next()
        panel.stage("day")
        while stage_of(panel) == "day":  # the zero round, then a round nobody nominates in
            panel.next()
        panel.stage("night")

        # ------------------------------------------------ night 1: the maniac after the mafia
        woke = night_in_order(panel, hands, {
            "mafia_shot": {1: "8#", 2: "8#", 3: "8#"}, "maniac_kill": {4: "10#"},
            "doctor": {5: "8#"}, "doctor_poison": {}, "sheriff_check": {6: "4#"}},
            told=[(6, NO)])  # the maniac checked: red, on the sheriff's own indicator
        assert woke == [("mafia_shot", [1, 2, 3]), ("maniac_kill", [4]), ("doctor", [5]),
                        ("doctor_poison", [5]), ("sheriff_check", [6])]  # the paranoid unshot
        while stage_of(panel) == "last_words":  # 10's testament: the maniac's kill stood
            panel.next()
        panel.stage("day")
        page.wait_for_selector('.seat.out[data-seat="10"]')
        assert not page.is_visible('.seat.out[data-seat="8"]')  # the doctor healed the shot

        # ------------------------------------------------ day 2: the «угадайка» of three
        for seat in (2, 3, 5, 6, 7, 8, 11, 12, 13):  # grave violations: the card shown, out
            panel.seat(seat, "disqualify")
        assert stage_of(panel) == "day"  # the Don, the maniac and 9 left: no win yet
        since = len(hands.record.messages)
        panel.next(3)  # the day opens; two of the three speak; the third's Next ends the day
        # «Угадайкой называется…»: no night with three left, the three voted among themselves;
        # every vote left over goes to the last of them
        vote(panel, hands, [(1, [], "confirm"), (4, [], "confirm"), (9, [], "confirm")])
        started = [m.json() for m in hands.record.messages[since:]
                   if m.topic == TABLE + "cmd/vote/start"]
        assert [(s["nominees"], s["voters"]) for s in started] == [([1, 4, 9], [1, 4, 9])]
        panel.stage("last_words")
        while stage_of(panel) == "last_words":  # 9's testament; the maniac one on one wins
            panel.next()
        panel.stage("over")
        page.wait_for_selector('#stage:text("maniacs")')
        page.wait_for_selector('#log li:has-text("«Победа маньяка»")')  # the win's citation
