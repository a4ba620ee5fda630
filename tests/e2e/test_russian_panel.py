"""The judge's panel in Russian, the clubs' language, in a real headless Chromium against the
simulated table: a FIIM day and its vote read with no English word on screen (every text node
scanned against the Russian catalog and the players' names, tests/support/page_words.py);
the switch turns the same game, its log too, into English and back, remembered across a
reload and the whole site (the server's ?lang= switch sets the same cookie); and the pages' renderer
(kit/i18n/i18n.js) writes every message of both catalogs as the server's (kit/i18n) does.
At each screen it walks, the screen also fits a tablet either way and a phone, with no target
under 48 px (tests/support/page_layout.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from kit import i18n
from kit.local_broker import free_port
from tests.support.judge_panel import (
    PASSWORD,
    Hands,
    Judge,
    Panel,
    judge_config,
    table_config,
)
from tests.support.page_layout import fits
from tests.support.page_words import foreign_words, page_texts
from tests.support.record_game import ROLES
from tests.support.running import Running

NAMES = {1: "Анна", 2: "Борис Ёлкин", 4: "Dmitry"}
#: ``MAFIA_SCREENSHOTS=docs`` saves the Russian panel's screens for docs/judge.md
SHOTS = Path(os.environ["MAFIA_SCREENSHOTS"]) if os.environ.get("MAFIA_SCREENSHOTS") else None


def sample(key: str, language: str) -> dict:
    """Parameters for every placeholder a key's texts name: numbers, a list, a book's text."""
    params: dict = {}
    for form, text in i18n.catalog(language).items():
        if i18n.base_key(form) != key:
            continue
        for name in i18n.PLACEHOLDER.findall(text):
            params[name] = {"seats": [2, 5], "count": 21, "step": {"ru": "отстрел", "en":
                            "shot"}, "seconds": 1.5}.get(name, 7 if name in (
                                "seat", "day", "night", "n", "round") else f"«{name}»")
    return params


@pytest.mark.timeout(180)
def test_a_fiim_day_and_vote_read_in_russian_and_switch_to_english(tmp_path, broker,
                                                                      chromium):
    listen = f"127.0.0.1:{free_port()}"
    hands = Hands(broker.port)
    table = Running(table_config(tmp_path, broker.port))
    judge = Judge(judge_config(tmp_path, broker.port, listen, language="ru"))
    names = list(NAMES.values())

    def russian() -> None:
        """No English word on the screen, and nothing overflowing or too small to tap on it."""
        assert len(page_texts(page)) > 5  # the scan sees the screen
        found = foreign_words(page, "ru", names=names)
        assert found == [], found
        fits(page)  # and it fits a tablet either way and a phone (item 3)

    try:
        page = chromium.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://{listen}/")
        assert page.text_content("#login") == "Войти"
        russian()
        page.fill("#password", PASSWORD)
        page.click("#login")
        panel = Panel(page, SHOTS)
        panel.stage("setup")
        page.wait_for_selector("#table-status.good")
        panel.name_and_deal(NAMES, ROLES)
        russian()
        panel.tap("#deal-typed")
        page.wait_for_selector('.seat[data-seat="1"] .role:text("Дон")')
        panel.shot("ru-setup")
        panel.tap("#start")
        panel.stage("night0")
        russian()
        panel.next()
        panel.stage("day")
        assert page.text_content("#stage") == "День 1: речи"
        assert page.is_disabled("#withdraw")  # nobody to withdraw yet: shown, not enabled
        # in the game a seat shows its name, and no empty "имя" field where there is none
        assert page.locator('.seat[data-seat="3"] .name').is_hidden()
        assert page.input_value('.seat[data-seat="2"] .name') == "Борис Ёлкин"
        for speaker, nominee in ((1, 5), (2, 6)):
            panel.next()
            page.wait_for_selector(f'.seat.floor[data-seat="{speaker}"]')
            if speaker == 1:  # the clock: Pause while it runs, Resume while paused, read afar
                page.wait_for_selector("#pause:visible")
                assert page.locator("#resume").is_hidden()
                size = page.eval_on_selector("#remaining", "e => getComputedStyle(e).fontSize")
                assert float(size.removesuffix("px")) >= 56, size
                page.click("#pause")  # the table's clock, not the game: no new version
                page.wait_for_selector("#resume:visible")
                assert page.locator("#pause").is_hidden()
                page.click("#resume")
                page.wait_for_selector("#pause:visible")
            hands.key(speaker, f"{nominee}#")
            page.wait_for_selector(f'.seat.nominee[data-seat="{nominee}"]')
        # a selected tile is filled and ticked, unlike a frame of the floor (2) or a nominee (5)
        page.click('.seat[data-seat="3"] .num')
        look = page.evaluate("""() => Object.fromEntries([2, 3, 4, 5].map((seat) => {
          const tile = document.querySelector(`.seat[data-seat="${seat}"]`);
          const s = getComputedStyle(tile);
          return [seat, [s.borderTopColor, s.boxShadow, s.backgroundColor,
                         getComputedStyle(tile, "::after").content]];
        }))""")
        floor, selected, plain, nominee = (look[k] for k in ("2", "3", "4", "5"))
        assert selected[:2] == plain[:2] and selected[2] not in (plain[2], floor[2], nominee[2])
        assert selected[3] == '"✓"' and floor[:2] != plain[:2] and nominee[:2] != plain[:2]
        page.click('.seat[data-seat="3"] .num')  # and a second tap lets it go
        page.wait_for_selector('.seat[data-seat="3"]:not(.selected)')
        panel.seat(9, "foul")
        page.wait_for_selector('#log li:text("игрок 9: 1-й фол")')
        panel.shot("ru-day")
        russian()
        panel.next(8)
        town = [1, 2, 3, 4, 7, 8, 9, 10]
        opened = hands.upcoming("event/vote/window", state="opened", candidate=5)
        panel.tap("#next")
        opened()
        page.wait_for_selector('#vote:text("сейчас голосуют за игрока 5")')  # before a count
        russian()
        hands.fists(town)
        page.wait_for_selector('#vote[data-proposed="5:8"]')
        # nobody has the floor: the nominees alone, no stray separator; no Nominate in a vote
        assert page.text_content("#floor") == "Выставлены: 5, 6"
        assert page.locator("#nominate").is_hidden() and page.locator("#withdraw").is_hidden()
        assert "За игрока 5: 8 голосов" in page.text_content("#vote")
        panel.shot("ru-vote")
        russian()
        vote_rest = hands.upcoming("event/vote/window", state="opened", candidate=6)
        panel.tap("#confirm")
        vote_rest()
        page.wait_for_selector('#vote:text("сейчас голосуют за игрока 6")')
        hands.fists([])
        page.wait_for_selector('#vote[data-proposed^="6:"]')  # the left-over votes (4.4.8)
        panel.tap("#confirm")
        panel.stage("last_words")
        page.wait_for_selector('#log li:text("за игрока 5: 8 голосов")')
        russian()
        # the stream overlay, in the panel's language (no cookie on the stream PC): no English
        overlay = chromium.new_page(viewport={"width": 1920, "height": 1080})
        overlay.goto(f"http://{listen}/overlay")
        overlay.wait_for_selector('#stage[data-stage="last_words"]')
        overlay.wait_for_selector('.seat.leaving[data-seat="5"]')
        assert len(page_texts(overlay)) > 5
        assert foreign_words(overlay, "ru", names=names) == []
        overlay.close()

        # the switch: the same game, the log too, in English; then back
        page.click('#languages button[lang="en"]')
        page.wait_for_selector('#log li:text("4.4.6: seat 5: 8 votes")')
        assert page.text_content("#stage") == "Last words"
        # remembered for the session and the whole site: the panel again, the games list
        page.reload()
        page.wait_for_selector('#log li:text("4.4.6: seat 5: 8 votes")')
        assert page.text_content("#stage") == "Last words"
        page.goto(f"http://{listen}/games")
        page.wait_for_selector('html[lang="en"]')
        page.goto(f"http://{listen}/games?lang=ru")  # the server's switch: same cookie
        page.wait_for_selector('html[lang="ru"]')
        assert page.url == f"http://{listen}/games"
        russian()
        page.goto(f"http://{listen}/")
        page.wait_for_selector('#log li:text("4.4.6: за игрока 5: 8 голосов")')
        assert page.text_content("#stage") == "Последнее слово"
        page.click('#languages button[lang="en"]')
        page.wait_for_selector('#log li:text("4.4.6: seat 5: 8 votes")')
        page.click('#languages button[lang="ru"]')
        page.wait_for_selector('#log li:text("4.4.6: за игрока 5: 8 голосов")')
        russian()

        # the pages' renderer writes every message as the server's does, in both languages
        for language in ("en", "ru"):
            page.evaluate(f"I18n.load({language!r})")
            page.wait_for_function(f"I18n.language === {language!r}")
            keys = sorted({i18n.base_key(k) for k in i18n.catalog(language)})
            words = [{"key": k, "params": sample(k, language)} for k in keys]
            drawn = page.evaluate("(all) => all.map((w) => I18n.words(w))", words)
            served = [i18n.render(w, language) for w in words]
            assert drawn == served
            assert re.search(r"1,5 с", " ".join(drawn)) or language == "en"
    finally:
        judge.stop()
        table.close()
