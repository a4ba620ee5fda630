"""The judge's panel and the stream overlay playing another book than FIIM's, in a real headless
Chromium against the simulated table over a real mosquitto (issue 28's review of the other
books): the online variant (003, docs/rules/online-003.md) at seven seats, up to its first
night's check, and the classic club's (000) to its first day's roulette.

What it holds the pages to: the setup's optional cards and their button fit each screen, with
targets a finger hits; hiding the roles hides every secret, the log's too, and showing brings
them back; the clock's longest figures («300 с») fit the side column; the verdict
(«голосуют ЗА или ПРОТИВ», the question's vote of this book) is named as the book's, not as
FIIM's "all leave?", on the panel and the overlay, in Russian and English; and the organiser's
delayed overlay names the commissar's check as the commissar's, with the book's answer, and
colours the boss as the mafia he plays for; in the classic club's game the roulette's tied
players are marked on both pages while it lasts, the delayed cards are coloured by their sides
(the Godfather the family's, not the town's), and the one who called the judge's number is
named as the roulette's loser on the overlay, in each language.
"""

from __future__ import annotations

import re

import pytest

from tests.support.judge_panel import (
    Panel,
    book_game,
    book_game_at,
    counted,
    night_step,
    table_config,
    vote,
)
from tests.support.online_003 import ADDED, ROLES, table_of_seven
from tests.support.page_layout import VIEWPORTS, overflowing, small_targets
from tests.support.table_configs import strip_table

TOKEN = "overlay-token-for-the-books"
DELAY = 0.5  # the organiser's stream delay: a secret reaches the overlay this late
#: the overlay, with the secrets (docs/overlay.md), for an organiser's stream
SECRETS = f'[overlay]\nsecrets = true\ndelay = {DELAY}\ntoken_file = "overlay.token"\n'


#: the deal's lists whose choices (a card's title) are cut by the list's box
CLIPPED = """() => [...document.querySelectorAll("#setup select")]
  .filter((s) => s.checkVisibility())
  .flatMap((s) => [...s.options].filter((o) => o.scrollWidth > s.clientWidth + 1 ||
    o.getBoundingClientRect().right > s.getBoundingClientRect().right + 1)
    .map((o) => `#${s.id} ${o.textContent} ${o.scrollWidth} > ${s.clientWidth}`))"""


def setup_fits(panel: Panel) -> None:
    """The setup's deal controls (the optional cards' list, its button) fit each screen, their
    words unclipped, each a finger's target."""
    page = panel.page
    for size in VIEWPORTS:
        page.set_viewport_size(size)
        deal = [f for f in overflowing(page) if f.startswith(("#deal", "select.deal", "page"))]
        assert deal == [], (size, deal)
        assert [s for s in small_targets(page) if s.startswith("#deal")] == [], size
        assert page.evaluate(CLIPPED) == [], size
    page.set_viewport_size(VIEWPORTS[0])


def log_shown(panel: Panel) -> bool:
    """Whether any line of the log is visible."""
    return bool(panel.page.evaluate(
        "[...document.querySelectorAll('#log li')]"
        ".some((li) => li.checkVisibility({ visibilityProperty: true }))"))


def hiding_hides_every_secret(panel: Panel) -> None:
    """Hide roles: no card, no log line shown; Show roles: both back."""
    page = panel.page
    assert log_shown(panel) and page.is_visible('.seat[data-seat="2"] .role')
    page.click("#hide-roles")
    page.wait_for_selector("body.roles-hidden")
    assert not log_shown(panel) and not page.is_visible('.seat[data-seat="2"] .role')
    page.click("#hide-roles")
    page.wait_for_selector("body:not(.roles-hidden)")
    assert log_shown(panel) and page.is_visible('.seat[data-seat="2"] .role')


#: the clock's longest figures: the table's discussion at five minutes
DISCUSSION = """() => {
  const remaining = document.getElementById("remaining");
  remaining.textContent = I18n.t("panel.clock", { seconds: 300 });
  return [remaining.textContent, remaining.scrollWidth, remaining.clientWidth,
    remaining.getBoundingClientRect().right, innerWidth,
    parseFloat(getComputedStyle(remaining).fontSize)];
}"""


def clock_fits(panel: Panel) -> None:
    """The clock's longest figures fit its box at each screen, in figures read across the table
    (written and measured in one go, between two of the page's ticks)."""
    page = panel.page
    page.wait_for_selector("#clock:not([hidden])")
    for size in VIEWPORTS:
        page.set_viewport_size(size)
        said, wide, box, right, screen, font = page.evaluate(DISCUSSION)
        assert "300" in said and wide <= box + 1 and right <= screen + 1, (size, said, wide, box)
        assert font >= 56, (size, font)  # still read across the table
    page.set_viewport_size(VIEWPORTS[0])


def switch(panel: Panel, language: str) -> None:
    panel.page.click(f'#languages button[lang="{language}"]')
    panel.page.wait_for_selector(f'#languages button.current[lang="{language}"]')


@pytest.mark.timeout(180)
def test_online_003_on_the_panel_and_overlay_in_its_own_words(tmp_path, broker, chromium):
    (tmp_path / "overlay.token").write_text(TOKEN + "\n")
    with book_game_at(tmp_path, broker.port, chromium, table_of_seven(tmp_path, broker.port),
                      book_game("online-003", 7) + SECRETS) as (panel, hands):
        page = panel.page
        for seat, role in enumerate(ROLES, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        for language in ("ru", "en"):  # the list drawn again in each language
            switch(panel, language)
            page.select_option("#deal-add", ADDED)
            setup_fits(panel)
        panel.tap("#deal-typed")
        panel.tap("#start")
        panel.stage("night0")
        hiding_hides_every_secret(panel)
        panel.next()
        panel.stage("day")
        panel.next()  # seat 1 has the floor: the clock shows
        for language in ("ru", "en"):
            switch(panel, language)
            clock_fits(panel)
        panel.next(6)

        # «Дневное голосование…»: 4 of 7 for seat 1, his last word, then the verdict
        vote(panel, hands, [(1, [3, 4, 5, 6], "confirm")])
        panel.stage("defence")
        overlay = chromium.new_page(viewport={"width": 1920, "height": 1080})
        overlay.set_default_timeout(20_000)
        at = page.url.rstrip("/") + "/overlay#token=" + TOKEN
        overlay.goto(at)
        panel.next()  # seat 1's last word
        opened = hands.upcoming("event/vote/window", state="opened", candidate=0)
        panel.next()  # the verdict
        panel.stage("question")
        opened()
        counted(panel, hands, 0, [1, 2])  # two hands of seven FOR: no majority, night
        page.wait_for_selector('#vote[data-proposed="0:2"]')
        overlay.wait_for_selector('#stage[data-stage="question"]')
        said = {"en": ("The second vote: FOR or AGAINST", "FOR jailing: 2 votes (1, 2)",
                       "Day 1 · for or against", "Votes for: 2…"),
                "ru": ("Второе голосование: ЗА или ПРОТИВ",
                       "ЗА то, чтобы посадить: 2 голоса (1, 2)",
                       "День 1 · ЗА или ПРОТИВ", "Голоса ЗА: 2…")}
        for language, (stage, proposed, on_overlay, votes) in said.items():
            switch(panel, language)
            assert (page.inner_text("#stage"), page.inner_text("#vote")) == (stage, proposed)
            overlay.goto(f"{at}&lang={language}")  # a streaming program's browser source
            overlay.reload()
            overlay.wait_for_selector(f'#stage:text-is("{on_overlay}")')
            assert overlay.inner_text("#votes").startswith(votes)
        panel.tap("#confirm")
        panel.stage("night")

        # «Порядок ходов ночью…»: only the commissar moves (seat 1, mafia); the others' steps
        # run out their seconds
        for step in ("maniac_kill", "mafia_kill", "boss", "kamikaze", "doctor",
                     "commissar_check", "journalist"):
            night_step(panel, hands, step, {3: "1#"} if step == "commissar_check" else {})
        panel.next()  # morning
        panel.stage("day")
        # the delayed overlay: the commissar's check in the book's words, the boss the mafia's
        overlay.wait_for_selector('#secret li:text-is("Ночь 1: комиссар проверяет 1: мафия")')
        assert not re.search("Шериф|шериф", overlay.inner_text("#secret"))
        # seat by seat (ROLES): the mafia, the boss, the commissar, the doctor, the maniac
        colour = overlay.eval_on_selector_all(".seat .card", "(cards) => cards.map((c) => "
                                              "getComputedStyle(c).color)")
        mafia, boss, commissar, doctor, maniac = colour[:5]
        assert boss == mafia != commissar == doctor and maniac not in (mafia, commissar)
        overlay.close()


#: the classic club's deal (tests/e2e/test_judge_classic_000.py's): 1 the Godfather, 2 the
#: Right Hand, 3 family, 4 the joker, 5 the chief, 6 the detective, 7 the doctor, 8 the maniac,
#: 9 Laura, 10 a civilian
CLASSIC = ["godfather", "right_hand", "family", "joker", "chief", "detective", "doctor",
           "maniac", "laura", "civilian"]


@pytest.mark.timeout(180)
def test_classic_000_roulette_and_cards_on_the_panel_and_overlay(tmp_path, broker, chromium):
    (tmp_path / "overlay.token").write_text(TOKEN + "\n")
    with book_game_at(tmp_path, broker.port, chromium,
                      table_config(tmp_path, broker.port, rules="classic-000"),
                      book_game("classic-000") + SECRETS) as (panel, hands):
        page = panel.page
        for seat, role in enumerate(CLASSIC, start=1):
            page.select_option(f'.seat[data-seat="{seat}"] .deal', role)
        for language in ("ru", "en"):  # the list drawn again in each language
            switch(panel, language)
            page.select_option("#deal-add", ["joker", "detective", "maniac", "laura"])
            setup_fits(panel)
        panel.tap("#deal-typed")
        panel.tap("#start")
        panel.stage("night0")
        panel.next()
        panel.stage("day")
        panel.next()  # «3. Обсуждение»: the whole table's clock, its longest words
        page.wait_for_selector('#clock-what:text-is("discussion")')
        clock_fits(panel)
        panel.next()
        panel.next(10)
        # «5. Голосование»: 1 and 2 two votes each, nobody else any: «Русская рулетка»
        vote(panel, hands, [(1, [3, 4], "confirm"), (2, [5, 6], "confirm"),
                            *((seat, [], "confirm") for seat in range(3, 11))])
        panel.stage("roulette")
        page.wait_for_selector('.seat.tied[data-seat="1"]')
        assert page.eval_on_selector_all(".seat.tied", "(t) => t.map((s) => +s.dataset.seat)") \
            == [1, 2]
        at = page.url.rstrip("/") + "/overlay#token=" + TOKEN
        overlay = chromium.new_page(viewport={"width": 1920, "height": 1080})
        overlay.set_default_timeout(20_000)
        overlay.goto(at + "&lang=en")
        overlay.wait_for_selector('.seat.tied[data-seat="2"]')
        assert overlay.eval_on_selector_all(".seat.tied",
                                            "(t) => t.map((s) => +s.dataset.seat)") == [1, 2]
        # the delayed cards by their sides: the Godfather the family's, the chief the town's,
        # the joker his own
        overlay.wait_for_selector('.seat[data-seat="1"] .card:text-is("Godfather")')
        colour = overlay.eval_on_selector_all(".seat .card", "(cards) => cards.map((c) => "
                                              "getComputedStyle(c).color)")
        godfather, right_hand, _, joker, chief = colour[:5]
        assert godfather == right_hand != chief and joker not in (godfather, chief)

        page.select_option("#roulette-number-value", "3")
        panel.tap("#roulette-number")
        page.select_option("#roulette-call-value", "3")  # 1 calls the judge's number
        panel.tap("#roulette-call")
        panel.stage("last_words")
        while page.get_attribute("#stage", "data-stage") == "last_words":
            panel.next()
        page.wait_for_selector('.seat.out[data-seat="1"]')
        assert page.eval_on_selector_all(".seat.tied", "(t) => t.length") == 0
        for language, said in (("en", "lost the roulette · day 1"),
                               ("ru", "погиб в «Русской рулетке» · день 1")):
            overlay.goto(f"{at}&lang={language}")
            overlay.reload()
            overlay.wait_for_selector(f'.seat[data-seat="1"] .left:text-is("{said}")')
        overlay.close()


def text(panel: Panel, selector: str) -> str:
    return panel.page.inner_text(selector).strip()


@pytest.mark.timeout(240)
def test_crow_club_the_judges_own_rules_on_the_panel_in_russian(tmp_path, broker, chromium):
    """The Crow Club's rules that are the judge's to run, each an offer the panel draws as it
    draws any, in Russian: «Раздача» by called numbers (each seat's number typed, one out of
    range refused on the page, the last card the fate), «Фолл» every 5 s of a violation that
    goes on, «Касперами…» a ghost's interference ("крест": the maniac still in), then the next
    game: its deal proposed from the other side and «Иммунитет у игрока…» proposed from the last
    game, and «Маньяк» giving the reds the win. At 13 seats (the maniac's first deck); the
    stack shuffled by seed 7, every player calling 1: 1 the maniac, 6 the doctor, 9 and 12
    mafia, 10 the Don, 11 the paranoid, 13 the sheriff."""
    with book_game_at(tmp_path, broker.port, chromium,
                      table_config(tmp_path, broker.port, "crow-club", strip_table(13)),
                      book_game("crow-club", 13)) as (panel, hands):
        page = panel.page
        page.on("dialog", lambda dialog: dialog.accept())  # the new game's confirmation
        switch(panel, "ru")
        assert text(panel, "#deal-called") == "Раздача по названным числам: с игрока 1"
        page.fill("#deal-called-seed", "7")
        panel.tap("#deal-called")
        assert text(panel, "#call") == "Игрок 1 называет число от 1 до 13"
        page.fill("#call-number", "14")  # «от 1 до количества оставшихся карт»
        page.click("#call")
        page.wait_for_selector('#message:text("введите число от 1 до 13")')
        for _ in range(12):  # seats 1 to 12 call
            page.fill("#call-number", "1")
            panel.tap("#call")
        page.wait_for_selector('#log li:has-text("последняя карта (судьба)")')
        page.wait_for_selector('.seat[data-seat="1"] .role:text("Маньяк")')
        panel.tap("#start")
        panel.stage("night0")
        panel.next()
        panel.stage("day")
        panel.next()  # seat 1 speaks; seat 5 talks over him, on and on

        panel.seat(5, "violation")
        assert text(panel, "#violation") == "Нарушение длится: фол каждые 5 с"
        assert text(panel, "#violation-end-5") == "Нарушение игрока 5 окончено"
        panel.tap("#violation-end-5")
        page.wait_for_selector('#log li:has-text("игрок 5: нарушение длилось")')
        assert re.search(r"всего \d+ фола?в?$", page.inner_text("#log li:first-child"))
        page.wait_for_selector('.seat[data-seat="5"] .fouls:not(:empty)')

        while page.get_attribute("#stage", "data-stage") == "day":
            panel.next()  # the zero round, then a round nobody nominates in
        panel.stage("night")
        night_step(panel, hands, "mafia_shot", {10: "2#", 9: "2#", 12: "2#"})
        night_step(panel, hands, "maniac_kill", {})
        night_step(panel, hands, "doctor", {6: "3#"})
        night_step(panel, hands, "doctor_poison", {})
        night_step(panel, hands, "sheriff_check", {13: "4#"})
        while page.get_attribute("#stage", "data-stage") in ("night", "last_words"):
            panel.next()  # morning: 2's testament
        page.wait_for_selector('.seat.out[data-seat="2"]')
        assert text(panel, "#forfeit") == "Каспер вмешался в игру: игра остановлена"
        panel.seat(2, "forfeit")  # 2 nods to the living from outside the table
        panel.stage("over")
        page.wait_for_selector('#log li:has-text("игрок 2, каспер, вмешался в игру")')
        page.wait_for_selector('#log li:has-text("ничья")')

        # ------------------------------------------------ the next game at the table
        page.click("#new-game")
        panel.stage("setup")
        page.wait_for_selector('#deal-called:text("с игрока 13")')
        assert text(panel, "#immunity-proposed") == "Иммунитет по прошлой игре: 2"
        panel.tap("#immunity-proposed")
        page.wait_for_selector('#log li:has-text("иммунитет: 2")')
        page.fill("#deal-called-seed", "11")
        panel.tap("#deal-called")  # 13 calls first; 1 takes the fate
        assert text(panel, "#call") == "Игрок 13 называет число от 1 до 13"
        for _ in range(12):  # seats 13 down to 2 call
            page.fill("#call-number", "1")
            panel.tap("#call")
        page.wait_for_selector('.seat[data-seat="6"] .role:text("Маньяк")')
        panel.tap("#start")
        panel.stage("night0")
        panel.next()
        panel.stage("day")
        assert text(panel, "#gift") == "Отдаёт победу: красные"
        panel.seat(6, "gift")  # the maniac played for the town, and the table knows him
        panel.stage("over")
        page.wait_for_selector('#log li:has-text("игрок 6 отдаёт победу: красные")')
