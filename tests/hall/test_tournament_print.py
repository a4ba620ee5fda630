"""The seating's printed sheets (hall/sheets.py, issue 39 item 2), printed by Debian's headless
Chromium as the organiser's browser prints them (Playwright's ``page.pdf``, A4) and read back
page by page (pypdf): a tournament of 30 players, 3 rounds of 3 tables, makes 9 table sheets,
one A4 page each, every seat's number and its player on the table's own page; and 30 player
sheets, one page each, every round's table and seat on the player's own page. A name of the 40
characters the panel keeps fits its line. ``MAFIA_SCREENSHOTS=docs`` saves a sheet of each kind
as printed, for docs/tournament.md."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from hall.sim import SimulatedHall, password, with_board
from kit.local_broker import free_port
from tests.support.chromium import headless_chromium
from tests.support.page_words import foreign_words
from tests.support.waiting import until

#: 30 players as a club types them, one with the longest name the panel keeps (40 characters)
PLAYERS = [f"Игрок {n}" for n in range(1, 30)] + ["Александра Константиновна Преображенская"]
ROUNDS, TABLES = 3, 3


@pytest.fixture(scope="module")
def seated(tmp_path_factory):
    """A board whose tournament is seated, and an organiser's page logged in to it (Russian)."""
    hall = SimulatedHall(tmp_path_factory.mktemp("tournament-print"), 0)
    with with_board(hall, free_port(), controllers=False,
                    log_path=hall.root / "board.log") as url, headless_chromium() as browser:
        page = browser.new_page()
        page.goto(url)
        page.fill("#password", password("board"))
        page.click("#login")
        expect(page.locator("#tables")).to_be_visible()
        act(page, url, {"action": "create_tournament", "name": "Кубок клуба",
                        "players": "\n".join(PLAYERS), "games": ROUNDS, "tables": TABLES})
        act(page, url, {"action": "generate_seating", "seed": 1, "seconds": 0.5})
        until(lambda: len(view(page, url)["rounds"]) == ROUNDS, timeout=60,
              what="the seating made")
        yield page, url, view(page, url)


def act(page: Page, url: str, action: dict) -> dict:
    answer = page.request.post(f"{url}/api/tournament", data=action,
                               headers={"Origin": url})
    assert answer.ok, answer.text()
    return answer.json()


def view(page: Page, url: str) -> dict:
    return page.request.get(f"{url}/api/tournament").json()


def printed(page: Page, address: str) -> list[str]:
    """``address`` printed on A4 by Chromium: each page's text."""
    page.goto(address)
    expect(page.locator(".sheet").first).to_be_visible()
    reader = PdfReader(io.BytesIO(page.pdf(format="A4", prefer_css_page_size=True)))
    return [p.extract_text() for p in reader.pages]


def words_of(text: str) -> str:
    """A page's text with its line breaks as spaces (a long name may wrap)."""
    return re.sub(r"\s+", " ", text)


@pytest.mark.timeout(240)
def test_a_sheet_per_table_per_round_one_a4_page_each_with_every_seat_and_name(seated):
    page, url, tournament = seated
    pages = printed(page, f"{url}/tournament/print/tables")
    sheets = [(r["number"], tb) for r in tournament["rounds"] for tb in r["tables"]]
    assert len(pages) == len(sheets) == ROUNDS * TABLES
    for text, (number, table) in zip(pages, sheets, strict=True):
        said = words_of(text)
        assert f"Тур {number} · Стол {table['table'].split('-')[1]}" in said, said
        assert "Кубок клуба" in said
        for seat, player in zip(table["seats"], table["players"], strict=True):
            assert re.search(rf"(^| ){seat} {re.escape(player)}( |$)", said), (seat, player, said)
    found = foreign_words(page, "ru", names=[*PLAYERS, "Кубок клуба"])
    assert found == [], found
    screenshot(page, "tournament-ru-table-sheet.png")
    one_round = printed(page, f"{url}/tournament/print/tables?round=2")
    assert len(one_round) == TABLES and all("Тур 2 ·" in p for p in one_round)


@pytest.mark.timeout(240)
def test_a_sheet_per_player_one_a4_page_each_with_every_rounds_table_and_seat(seated):
    page, url, tournament = seated
    pages = printed(page, f"{url}/tournament/print/players")
    assert len(pages) == len(PLAYERS)
    for text, player in zip(pages, PLAYERS, strict=True):
        said = words_of(text)
        assert player in said, (player, said)
        for r in tournament["rounds"]:
            [(table, seat)] = [(tb["table"], s) for tb in r["tables"]
                               for s, p in zip(tb["seats"], tb["players"], strict=True)
                               if p == player]
            line = f"Тур {r['number']} Стол {table.split('-')[1]} {seat}"
            assert line in said, (line, said)
    found = foreign_words(page, "ru", names=[*PLAYERS, "Кубок клуба"])
    assert found == [], found
    screenshot(page, "tournament-ru-player-sheet.png")


def test_the_sheets_are_behind_the_boards_login(seated):
    page, url, _ = seated
    assert page.context.browser is not None
    stranger = page.context.browser.new_page()  # a context of its own: no login
    answer = stranger.request.get(f"{url}/tournament/print/tables", max_redirects=0)
    assert (answer.status, answer.headers["location"]) == (302, "/login")


def screenshot(page: Page, name: str) -> None:
    """The first sheet as printed, for docs/tournament.md (``MAFIA_SCREENSHOTS=docs``)."""
    if not os.environ.get("MAFIA_SCREENSHOTS"):
        return
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.locator(".sheet").first.screenshot(path=str(Path(os.environ["MAFIA_SCREENSHOTS"]) /
                                                     name))
    page.emulate_media(media="null")  # no emulation: page.pdf prints in print media again
