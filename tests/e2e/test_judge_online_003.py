"""Whole games of the online variant (003, docs/rules/online-003.md) run from the judge's panel
in a real headless Chromium, against simulated tables of the book's two ends, seven and 24
seats ("от 7 до 24"), over a real mosquitto: at seven the book's smallest deck ("2 мафа - 1
ком - 4 честных") with every optional card that fits, at 24 with all of them, so that every
role of its order of moves wakes.

The test is the judge, tapping the real page; the players type on the simulated keypads and
raise fists on the simulated buttons. On the way it checks the night as the table sees it:
each step goes to exactly the seats that act, in the book's order, and each answer only to its
actor's private indicator; and nothing public (the table's ``event/`` topics and ``state``)
names a step, an actor or a pick, no light changes and the overlay stays as it was at
nightfall (``judge_panel.night_in_order``). The other wins of the book are reached on the pure
engine (tests/judge/game/test_online_003.py).
"""

from __future__ import annotations

import pytest

from tests.support.judge_panel import (
    TABLE,
    Panel,
    book_game,
    book_game_at,
    night_in_order,
    night_step,
    vote,
)
from tests.support.online_003 import (
    ADDED,
    ADDED_24,
    ROLES,
    ROLES_24,
    SEATS,
    table_of_24,
    table_of_seven,
)


def deal(panel: Panel, roles: list[str], added: list[str]) -> None:
    """The cards typed seat by seat with the ``added`` optional ones; the silent acquaintance
    (no step opens); then day 1 («Первый ход игры…»: "Первый ход игры - день")."""
    for seat, role in enumerate(roles, start=1):
        panel.page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
    panel.page.select_option("#deal-add", added)
    panel.tap("#deal-typed")
    panel.page.wait_for_selector(f'.seat[data-seat="{len(roles)}"] .role:text("{roles[-1]}")')
    panel.tap("#start")
    panel.stage("night0")
    panel.next()
    panel.stage("day")


@pytest.mark.timeout(180)
def test_a_whole_online_003_game_from_the_judges_panel(tmp_path, broker, chromium):
    with book_game_at(tmp_path, broker.port, chromium, table_of_seven(tmp_path, broker.port),
                      book_game("online-003", SEATS)) as (panel, hands):
        page = panel.page
        page.wait_for_selector('#book:text("Mafia on Skype")')

        deal(panel, ROLES, ADDED)  # «Отдельный вопрос…»

        # ------------------------------------------------ day 1: accused, not jailed
        panel.next(SEATS)  # every speech in seat order
        # «Дневное голосование…»: every player a candidate; 4 of 7 for seat 1 and the table
        # stops (the rest cannot change who is accused)
        vote(panel, hands, [(1, [3, 4, 5, 6], "confirm")])
        panel.stage("defence")
        panel.next()  # seat 1's last word
        page.wait_for_selector('.seat.floor[data-seat="1"]')
        # the verdict, for or against: two hands of seven are no majority
        vote(panel, hands, [(0, [1, 2], "confirm")])
        panel.stage("night")

        # ------------------------------------------------ night 1: every role, in order
        # 1 is mafia: yes to the commissar; 1 and 2 on one side: yes to the journalist
        woke = night_in_order(panel, hands, {
            "maniac_kill": {5: "3#"}, "mafia_kill": {1: "4#"}, "boss": {2: "7#"},
            "kamikaze": {}, "doctor": {4: "3#"}, "commissar_check": {3: "1#"},
            "journalist": {7: "1#2#"}}, told=[(3, 1), (7, 1)])
        # morning: the mafia killed 4; the maniac's 3 healed; 7 frozen
        assert woke == [("maniac_kill", [5]), ("mafia_kill", [1]), ("boss", [2]),
                        ("kamikaze", [6]), ("doctor", [4]), ("commissar_check", [3]),
                        ("journalist", [7])]
        panel.stage("day")
        page.wait_for_selector('.seat.out[data-seat="4"]')
        assert not page.is_visible('.seat.out[data-seat="3"]')

        # ------------------------------------------------ day 2: jailed
        since = len(hands.record.messages)
        panel.next(5)  # 1, 2, 3, 5, 6 speak; 7 is frozen (the boss froze him)
        vote(panel, hands, [(1, [3, 5, 6], "confirm")])  # 3 of the 5 who vote
        panel.stage("defence")
        panel.next()
        vote(panel, hands, [(0, [3, 5, 6], "confirm")])  # for: seat 1 jailed, card shown
        panel.stage("night")
        page.wait_for_selector('.seat.out[data-seat="1"]')
        asked = [m.json() for m in hands.record.messages[since:]
                 if m.topic in (TABLE + "cmd/vote/start", TABLE + "cmd/vote/question")]
        assert [(a.get("nominees", a.get("subjects")), a["voters"]) for a in asked] == [
            ([1, 2, 3, 5, 6, 7], [1, 2, 3, 5, 6]), ([1], [1, 2, 3, 5, 6])]  # 7 is frozen

        # ------------------------------------------------ night 2: the kamikaze
        since = len(hands.record.messages)
        night_step(panel, hands, "maniac_kill", {5: "2#"})  # the boss
        night_step(panel, hands, "boss", {})
        night_step(panel, hands, "kamikaze", {6: "5#"})  # the maniac, and himself
        night_step(panel, hands, "commissar_check", {})
        night_step(panel, hands, "journalist", {})
        opened = [m.json() for m in hands.record.messages[since:]
                  if m.topic == TABLE + "cmd/night/step"]
        assert [(o["step"], o["actors"]) for o in opened] == [
            ("maniac_kill", [5]), ("boss", [2]), ("kamikaze", [6]), ("commissar_check", [3]),
            ("journalist", [7])]  # no mafioso left for the mafia's kill, no doctor
        panel.next()  # morning: 2, 5 and 6 leave; no mafia, no maniac: the honest win
        panel.stage("over")
        page.wait_for_selector('#stage:text("honest wins")')
        out = [s["seat"] for m in hands.record.matching(lambda m: m.topic == TABLE + "event/seats")
               for s in m.json()["seats"] if s.get("in_game") is False]
        assert sorted(set(out)) == [1, 2, 4, 5, 6]


@pytest.mark.timeout(180)
def test_a_whole_online_003_game_at_24_seats_from_the_judges_panel(tmp_path, broker, chromium):
    """The book's largest table ("от 7 до 24"): its deck dealt, the vote of 24 candidates the
    table stops once it is decided, every role waking in order, and the judge's heart attacks
    («гибель от инфаркта») ending it: the honest win."""
    with book_game_at(tmp_path, broker.port, chromium, table_of_24(tmp_path, broker.port),
                      book_game("online-003", 24)) as (panel, hands):
        page = panel.page
        page.on("dialog", lambda dialog: dialog.accept("a heart attack"))
        deal(panel, ROLES_24, ADDED_24)

        # ------------------------------------------------ day 1: seat 2 jailed
        panel.next(24)
        town = list(range(8, 21))  # 13 of 24: after seat 2's window nothing can change it
        vote(panel, hands, [(1, [], "confirm"), (2, town, "confirm")])
        panel.stage("defence")
        panel.next()
        vote(panel, hands, [(0, town, "confirm")])  # for, 13 of 24: jailed
        panel.stage("night")
        page.wait_for_selector('.seat.out[data-seat="2"]')

        # ------------------------------------------------ night 1: every role, in order
        woke = night_in_order(panel, hands, {
            "maniac_kill": {11: "3#"}, "mafia_kill": {3: "8#", 4: "8#"}, "boss": {1: "14#"},
            "kamikaze": {12: "4#"}, "doctor": {10: "3#"}, "commissar_check": {8: "5#"},
            "journalist": {13: "1#5#"}}, told=[(8, 1), (13, 1)])
        assert woke == [("maniac_kill", [11]), ("mafia_kill", [3, 4, 5, 6, 7]), ("boss", [1]),
                        ("kamikaze", [12]), ("doctor", [10]), ("commissar_check", [8]),
                        ("journalist", [13])]
        panel.stage("day")  # the mafia killed 8, the kamikaze took 4; the doctor saved 3
        for seat in (4, 8, 12):
            page.wait_for_selector(f'.seat.out[data-seat="{seat}"]')
        assert not page.is_visible('.seat.out[data-seat="3"]')

        # ------------------------------------------------ day 2: the heart attacks
        for seat in (1, 3, 5, 6, 7, 11):  # the mafia left, and the maniac
            panel.seat(seat, "disqualify")
        panel.stage("over")
        page.wait_for_selector('#stage:text("honest wins")')
