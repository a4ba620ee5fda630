"""A whole game of the classic club's book (config/books/classic-000.toml) run from the judge's
panel in a real headless Chromium, against the simulated example table (ten seats, on the
book's table preset config/rules/classic-000.toml) over a real mosquitto.

The test is the judge and the players, as in ``test_judge.py`` (FIIM's game): it deals the
book's cards with the organiser's four, plays the whole table's discussion, the accusation's
speeches and the open ballot (the detective's vote corrected to the chief's; a tie to the
Russian roulette), two nights in the book's wake order with the chief's kill the night after
his "mafia" and Laura finding the Right Hand, to red's win. The nights are checked for
privacy on the wire: each step goes to exactly its actors, each answer to the actor's own
indicator, and nothing under ``event/`` speaks of the night.
"""

from __future__ import annotations

import time

import pytest

from tests.support.judge_panel import (
    TABLE,
    Panel,
    book_game,
    book_game_at,
    night_step,
    table_config,
    vote,
)

#: seat by seat: 1 Godfather, 2 Right Hand, 3 family, 4 joker, 5 chief, 6 detective, 7 doctor,
#: 8 maniac, 9 Laura, 10 a civilian
ROLES = ["godfather", "right_hand", "family", "joker", "chief", "detective", "doctor", "maniac",
         "laura", "civilian"]


def until_not(panel: Panel, stage: str) -> None:
    """Next until the stage is no longer ``stage`` (each leaver's last minute, then out)."""
    while panel.page.get_attribute("#stage", "data-stage") == stage:
        panel.next()


@pytest.mark.timeout(180)
def test_classic_000_a_whole_game_from_the_judges_panel(tmp_path, broker, chromium):
    began = time.monotonic()
    with book_game_at(tmp_path, broker.port, chromium,
                      table_config(tmp_path, broker.port, rules="classic-000"),
                      book_game("classic-000")) as (panel, hands):
        page = panel.page

        # ------------------------------------------ the deal, with the organiser's four
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        page.select_option("#deal-add", ["joker", "detective", "maniac", "laura"])
        panel.tap("#deal-typed")
        page.wait_for_selector('.seat[data-seat="9"] .role:text("laura")')
        panel.tap("#start")
        panel.stage("night0")  # «Итак, после раздачи карточек…»: the meeting, nobody acts
        panel.next()
        panel.stage("day")

        # ------------------------------------------ day 1: «3. Обсуждение», «4. Обвинение»
        discussion = hands.upcoming("cmd/timer/start", kind="discussion")
        panel.next()
        assert discussion().get("seat") is None  # the whole table's five minutes, no seat lit
        page.wait_for_selector('#clock-what:text-is("discussion")')
        panel.next()  # its end; then 30 s each, no nominations
        panel.next(10)
        # «5. Голосование»: every player a candidate; 1 gets six fists, not the detective's:
        # «Детектив»: his vote is counted where the chief's is (the confirm goes as a correction)
        corrected = hands.upcoming("cmd/vote/correct")
        vote(panel, hands, [(1, [3, 4, 5, 7, 8, 9], "confirm")])
        assert corrected()["voters"] == [3, 4, 5, 6, 7, 8, 9]
        panel.stage("last_words")  # the vote ended early: nobody else could catch up
        until_not(panel, "last_words")
        panel.stage("night")

        # ------------------------------------------ night 1: the book's wake order
        steps = hands.upcoming("cmd/night/step")
        night_step(panel, hands, "family_kill", {2: "10#"})  # the Godfather out: the Right Hand
        assert steps()["actors"] == [2, 3, 4]  # the joker wakes with the family
        check = hands.upcoming("cmd/night/reveal", seat=5, pattern=1)
        night_step(panel, hands, "chief_check", {5: "3#"})  # 3 is family: "мафия"
        check()
        night_step(panel, hands, "doctor", {7: "5#"})
        night_step(panel, hands, "maniac_kill", {8: "2#"})
        found = hands.upcoming("cmd/night/reveal", seat=9, pattern=1)
        night_step(panel, hands, "laura", {9: "2#"})  # her freeze on the Right Hand: found
        found()
        panel.tap("#laura-stays")  # the judge asks her side; she plays on for the town
        panel.next()  # morning: 10 and 2 were killed
        until_not(panel, "last_words")
        panel.stage("day")
        page.wait_for_selector('.seat.out[data-seat="2"]')

        # ------------------------------------------ day 2: the judge's order, a tie, the roulette
        panel.next(2)
        panel.next(7)  # 3..9 speak
        panel.seat(4, "vote-first")  # "Порядок голосования определяет ведущий"
        vote(panel, hands, [(4, [3, 5, 6], "confirm"), (5, [], "confirm"), (6, [], "confirm"),
                            (7, [], "confirm"), (8, [4, 7, 9], "confirm"), (9, [], "confirm"),
                            (3, [], "confirm")])
        panel.stage("roulette")  # «Русскую рулетку»: 4 and 8 tied
        page.select_option("#roulette-number-value", "3")
        panel.tap("#roulette-number")  # the judge's hidden number
        for number in ("1", "2", "3"):  # 4 calls 1, 8 calls 2, 4 calls 3: 4 «погибает»
            page.select_option("#roulette-call-value", number)
            panel.tap("#roulette-call")
        panel.stage("last_words")
        until_not(panel, "last_words")
        panel.stage("night")

        # ------------------------------------------ night 2: the chief kills what he found
        night_step(panel, hands, "family_kill", {3: "9#"})
        kill = hands.upcoming("cmd/night/step")
        night_step(panel, hands, "chief_kill", {5: "3#"})  # instead of his check
        assert kill()["actors"] == [5]
        night_step(panel, hands, "doctor", {7: "6#"})
        night_step(panel, hands, "maniac_kill", {})  # the maniac shows nobody
        night_step(panel, hands, "laura", {9: "7#"})
        panel.next()  # morning: 3 and 9 were killed; no black is left
        until_not(panel, "last_words")
        panel.stage("over")
        page.wait_for_selector('#stage:text("red wins")')

        # ------------------------------------------ the nights' privacy on the wire
        woke = [(m.json()["step"], m.json()["actors"]) for m in hands.record.matching(
            lambda m: m.topic == TABLE + "cmd/night/step")]
        assert woke == [
            ("family_kill", [2, 3, 4]), ("chief_check", [5]), ("doctor", [7]),
            ("maniac_kill", [8]), ("laura", [9]),
            ("family_kill", [3]), ("chief_kill", [5]), ("doctor", [7]), ("maniac_kill", [8]),
            ("laura", [9])]
        answered = [m.json()["seat"] for m in hands.record.matching(
            lambda m: m.topic == TABLE + "cmd/night/reveal")]
        assert set(answered) <= {5, 9}
        assert not hands.record.matching(lambda m: m.topic.startswith(TABLE + "event/night"))
        print(f"the classic game took {time.monotonic() - began:.1f} s")
