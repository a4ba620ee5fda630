"""A whole Crow Club game run from the judge's panel in a real headless Chromium, against the
simulated example table (its ten seats) over a real mosquitto: the book's deck for ten (the Don,
two mafia, the sheriff, the doctor, the paranoid), its zero round, its night in the book's
order with only the acting seats woken and each answer on the actor's own indicator, the
paranoid taking one with him, and a win the book allows.

Seats: 1 the Don, 2-3 mafia, 4 the sheriff, 5 the doctor, 6 the paranoid, 7-10 civilians.
"""

from __future__ import annotations

import pytest

from tests.support.judge_panel import (
    TABLE,
    Panel,
    book_game,
    book_game_at,
    night_step,
    table_config,
)

ROLES = ["don", "mafia", "mafia", "sheriff", "doctor", "paranoid", *["civilian"] * 4]
#: what the table says in public while a night runs must not show who woke
NIGHT_INPUTS = ("event/seat/press", "event/seat/release", "event/seat/key", "event/seat/entry")


def stage_of(panel: Panel) -> str:
    return panel.page.get_attribute("#stage", "data-stage") or ""


@pytest.mark.timeout(180)
def test_a_whole_crow_club_game_from_the_judges_panel(tmp_path, broker, chromium):
    with book_game_at(tmp_path, broker.port, chromium, table_config(tmp_path, broker.port),
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
