"""The board's tournament pages in Debian's headless chromium, in Russian (issue 29 item 5, in
both languages): on an empty board the organiser's page offers FIIM's scoring (not the first
preset's, which would double every win unseen), makes a tournament through the page, loads a
seating, sends round 1; a game comes in as the judge's panel sends it (retained, QoS 1, as
``rules-core``); then "Seed the final" seats the final's table from the standings, a seat
fixed. At each step no English word is on either page (tests/support/page_words.py), and both
pages fit a tablet either way and a phone (tests/support/page_layout.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from hall.sim import SimulatedHall, password, with_board
from kit.i18n import Words, render
from kit.local_broker import free_port
from tests.support.mqtt import Subscriber
from tests.support.page_layout import fits
from tests.support.page_words import foreign_words
from tests.support.record_game import seated_game

#: the players as a club types them, in Cyrillic (they must stay byte for byte)
PLAYERS = ["Анна", "Борис", "Вера", "Глеб", "Дарья", "Елена", "Жанна", "Зоя", "Иван", "Кира"]
CSV = "round,table,seat,player\n" + "".join(
    f"1,table-1,{seat},{name}\n" for seat, name in enumerate(PLAYERS, start=1))
#: the Latin a Russian page may show: none but the catalog's own (mafiaratings, CSV, Excel) and
#: the presets' titles (tests/support/page_words.py): no table's id, no game's
LATIN: list[str] = []


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    hall = SimulatedHall(tmp_path_factory.mktemp("tournament-pages"), 0)
    with with_board(hall, free_port(), controllers=False,
                    log_path=hall.root / "board.log") as url:  # in Russian, the default
        yield hall, url


def organiser_page(chromium, url: str) -> Page:
    page = chromium.new_page()
    page.goto(url)
    expect(page.locator("#login")).to_be_visible()
    no_english(page)  # the login page
    fits(page)
    page.fill("#password", password("board"))
    page.click("#login")
    expect(page.locator("#tables")).to_be_visible()
    page.goto(f"{url}/tournament")
    expect(page.locator("#link")).to_have_text("на связи")
    return page


def no_english(page: Page, language: str = "ru") -> None:
    """No word of the other language on ``page`` (in English: no Russian but the names)."""
    found = foreign_words(page, language, names=[*PLAYERS, "Кубок клуба", *LATIN])
    assert found == [], found


def publish_retained(hall: SimulatedHall, topic: str, payload: bytes) -> None:
    """As the judge's panel does: retained, QoS 1, on the rules core's account."""
    panel = Subscriber(hall.port, [topic], auth=("rules-core", password("rules-core")))
    try:
        panel.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
    finally:
        panel.close()


@pytest.mark.timeout(300)
def test_the_organisers_flow_in_russian_from_an_empty_board_to_the_seeded_final(board, chromium,
                                                                                  tmp_path):
    hall, url = board
    page = organiser_page(chromium, url)
    expect(page.locator("#create-button")).to_have_text("Создать турнир")
    # the platform's FIIM scoring is the one offered, and says so: crow-club, first in the
    # list, doubles every win
    expect(page.locator("#t-scoring")).to_have_value("fiim-mafiaratings-7")
    assert page.locator("#t-scoring option").first.get_attribute("value") != "fiim-mafiaratings-7"
    expect(page.locator("#t-scoring-note")).to_have_text(
        "так считает mafiaratings: таблица совпадёт с таблицей на mafiaratings")
    page.select_option("#t-scoring", "fiim")
    expect(page.locator("#t-scoring-note")).to_have_text(
        "наш подсчёт, не как на mafiaratings: там таблица будет другой")
    page.select_option("#t-scoring", "fiim-mafiaratings-7")
    no_english(page)
    fits(page)

    page.fill("#t-name", "Кубок клуба")
    page.fill("#t-players", "\n".join(PLAYERS))
    page.fill("#t-games", "1")
    page.click("#create-button")
    expect(page.locator("#notice")).to_have_text(
        "турнир «Кубок клуба» создан: 10 игроков, 1 игра у каждого, 1 стол в туре")
    expect(page.locator("#summary-text")).to_contain_text(
        "подсчёт: ФИИМ, как считает mafiaratings (версия 7)")
    seating = tmp_path / "seating.csv"
    seating.write_text(CSV, encoding="utf-8")
    page.set_input_files("#t-seating-file", str(seating))
    expect(page.locator("#notice")).to_have_text("основной этап рассажен: туры 1")
    # a new tournament over this seated one: asked first, and "keep" keeps it whole
    page.fill("#t-name", "Другой кубок")
    page.click("#create-button")
    expect(page.locator("#confirm-text")).to_contain_text(
        "На табло уже есть турнир «Кубок клуба» (рассажен: туры 1)")
    no_english(page)
    page.click("#confirm-no")
    expect(page.locator("#confirm")).to_be_hidden()
    expect(page.locator("#notice")).to_have_text("прежний турнир остался, новый не создан")
    expect(page.locator("#title")).to_have_text("Кубок клуба")
    page.click('#rounds button.send[data-round="1"]')
    expect(page.locator("#notice")).to_have_text("тур 1 отправлен на столы: стол 1")
    expect(page.locator('#rounds tr[data-round="1"]')).to_have_attribute("data-sent", "true")
    # a round at the tables is not offered again: when it went, instead
    expect(page.locator('#rounds button.send[data-round="1"]')).to_have_count(0)
    expect(page.locator('#rounds tr[data-round="1"] td').nth(3)).to_contain_text("отправлен в")
    # each seat's number beside its player
    expect(page.locator('#rounds tr[data-round="1"] p[data-table="table-1"]')).to_have_text(
        "Стол 1 (идёт игра): " + "\u00a0· ".join(f"{n}\u00a0{name}" for n, name in
                                                  enumerate(PLAYERS, start=1)))

    view = page.request.get(f"{url}/api/tournament").json()
    seats = dict(enumerate(view["rounds"][0]["tables"][0]["players"], start=1))
    publish_retained(hall, *seated_game("table-1", 1, seats, view["tournament"]["id"]))
    expect(page.locator("#games tbody tr[data-counted=true]")).to_have_count(1)
    expect(page.locator("#standings tbody tr")).to_have_count(10)
    expect(page.locator('#rounds tr[data-round="1"] p[data-table="table-1"]')).to_have_class("done")
    no_english(page)
    fits(page)

    page.fill("#seconds", "0.5")
    page.fill("#final-rounds", "2")
    page.fill("#final-seats", "место, 1, анна")  # the final's fixed seat, the name as typed
    page.click("#seed-final")
    final = page.locator('#rounds tr[data-stage="final"]')
    expect(final).to_have_count(2, timeout=60_000)
    expect(page.locator("#notice")).to_have_text(
        "финал рассажен: 10 игроков, стол 1, туры 2, 3")
    for n in range(2):
        tables = final.nth(n).locator("p[data-table]")
        expect(tables).to_have_count(1)
        expect(tables).to_have_attribute("data-table", "table-1")
        shown = tables.inner_text().split(": ", 1)[1].split("\u00a0· ")
        assert [s.split("\u00a0")[0] for s in shown] == [str(n) for n in range(1, 11)]
        assert sorted(s.split("\u00a0")[1] for s in shown) == sorted(PLAYERS)  # each once
        assert shown[0] == "1\u00a0Анна"
    expect(final.first.locator("td").nth(1)).to_have_text("финал")
    no_english(page)
    fits(page)

    page.locator("#languages button[lang=en]").click()  # the switch draws it all again
    expect(page.locator("#link")).to_have_text("live")
    expect(page.locator("#notice")).to_have_text(
        "the final is seated: 10 players, table 1, rounds 2, 3")
    expect(final.first.locator("td").nth(1)).to_have_text("final")
    expect(page.locator("#seed-final")).to_have_text("Seed the final from the main stage's "
                                                     "standings")
    no_english(page, "en")
    fits(page)
    page.locator("#languages button[lang=ru]").click()
    expect(page.locator("#link")).to_have_text("на связи")

    # the routes' refusals carry words too, and their English for a script
    missing = page.request.get(f"{url}/tournament/standings.csv?table=nine")
    assert missing.status == 404
    assert render(missing.json()["words"], "ru").startswith("нет таблицы «nine»")
    bad = page.request.post(f"{url}/api/tournament", data="{}",
                            headers={"Origin": url, "Content-Type": "application/json"})
    assert bad.status == 400 and bad.json()["error"].startswith("malformed action")
    assert render(bad.json()["words"], "ru").startswith("неверное действие")

    public = chromium.new_page()  # the stream's page: no login, the same language
    public.goto(f"{url}/standings")
    expect(public.locator("#standings tbody tr")).to_have_count(10)
    expect(public.locator("#name")).to_have_text("Кубок клуба")
    expect(public.locator("#which")).to_have_text("Общий зачёт")
    # the first round of the final is the one to come
    expect(public.locator("#progress")).to_have_text("тур 2 из 3: сыграно 0 из 1 игры")
    # places the tie-breaks leave equal are shared, and the first ten's bar has its legend
    places = public.locator('#standings td[data-key="place"]').all_inner_texts()
    assert any("\u2013" in place for place in places), places
    expect(public.locator("#legend")).to_be_visible()
    expect(public.locator("#legend-text")).to_have_text(
        "полоса слева — 10 первых мест: выход в финал")
    found = foreign_words(public, "ru", names=PLAYERS)
    assert found == [], found
    fits(public)
    english = chromium.new_page()  # a stream's browser source in English: #lang=en
    english.goto(f"{url}/standings#lang=en")
    expect(english.locator("#which")).to_have_text("Overall")
    expect(english.locator("#standings tbody tr")).to_have_count(10)
    found = foreign_words(english, "en", names=[*PLAYERS, "Кубок клуба"])
    assert found == [], found
    fits(english)


def test_the_pages_counts_read_in_each_languages_plural_forms():
    games = [(1, "1 игра у каждого"), (3, "3 игры у каждого"), (5, "5 игр у каждого"),
             (21, "21 игра у каждого")]
    for n, said in games:
        assert render(Words("desk.games", count=n), "ru") == said
    assert render(Words("standings.progress.games", over=2, count=5), "ru") == "сыграно 2 из 5 игр"
    assert render(Words("standings.progress.games", over=1, count=1), "en") == "1 of 1 game over"


#: twenty players for two tables, a round each of their three games
HALL = [*PLAYERS, "Лев", "Мария", "Нина", "Олег", "Павел", "Раиса", "Семён", "Тимур", "Ульяна",
        "Фёдор"]


@pytest.mark.timeout(300)
def test_the_restrictions_in_the_organisers_words_a_withdrawal_and_a_substitute(chromium,
                                                                                 tmp_path):
    """The organiser types the restrictions in Russian (one line in the file's English, names
    in any case): a table no tournament has is refused with the reason; the page shows them in
    its words, the generated seating holds them; after round 1 a player withdraws from the page
    (the rounds to come seated again without him, fewer tables), then another is replaced by a
    substitute; the summary says who and from when."""
    hall = SimulatedHall(tmp_path, 0)
    with with_board(hall, free_port(), controllers=False,
                    log_path=hall.root / "board.log") as url:
        page = organiser_page(chromium, url)
        page.fill("#t-name", "Кубок клуба")
        page.fill("#t-players", "\n".join(HALL))
        page.fill("#t-games", "3")
        page.fill("#t-tables", "2")
        page.fill("#t-restrictions", "не за стол, 5, Глеб")
        page.click("#create-button")
        expect(page.locator("#notice")).to_contain_text(
            "за стол 5 нельзя: Глеб, а столы — от 1 до 2")
        rules = ("врозь, Анна, борис\nне за стол, 2, глеб\navoid, Дарья, Елена\n"
                 "место, 1, Жанна, 1")
        page.fill("#t-restrictions", rules)
        page.click("#create-button")
        expect(page.locator("#notice")).to_contain_text("турнир «Кубок клуба» создан")
        expect(page.locator("#summary-restrictions")).to_have_text(
            "Ограничения рассадки: врозь, Анна, борис; не за стол, 2, глеб; реже, Дарья, Елена;"
            " место, 1, Жанна, 1")
        no_english(page)

        page.fill("#seconds", "0.5")
        page.click("#generate")
        expect(page.locator("#notice")).to_have_text("основной этап рассажен: туры 1, 2, 3",
                                                     timeout=60_000)
        seated = page.request.get(f"{url}/api/tournament").json()
        tables = {r["number"]: {tb["table"]: tb["players"] for tb in r["tables"]}
                  for r in seated["rounds"]}
        for round_ in tables.values():
            assert not any({"Анна", "Борис"} <= set(players) for players in round_.values())
            assert "Глеб" not in round_["table-2"]
        assert "Жанна" in [players[0] for players in tables[1].values()]  # seat 1, round 1

        page.click('#rounds button.send[data-round="1"]')
        expect(page.locator('#rounds tr[data-round="1"]')).to_have_attribute("data-sent", "true")
        expect(page.locator("#w-round")).to_have_value("2")  # the first round not yet sent
        page.fill("#w-player", " глеб ")
        page.click("#withdraw")
        expect(page.locator("#notice")).to_have_text(
            "Глеб выбывает: основной этап рассажен заново с тура 2", timeout=60_000)
        expect(page.locator("#summary-withdrawals")).to_have_text(
            "Выбывшие и замены: Глеб не играет с тура 2")
        after = page.request.get(f"{url}/api/tournament").json()
        assert after["rounds"][0]["tables"] == seated["rounds"][0]["tables"]  # as played
        for r in after["rounds"][1:]:  # 19 left: one table of ten, nine sit out
            assert [tb["table"] for tb in r["tables"]] == ["table-1"]
            assert "Глеб" not in r["tables"][0]["players"]
            assert not {"Анна", "Борис"} <= set(r["tables"][0]["players"])

        page.click('#rounds button.send[data-round="2"]')
        expect(page.locator('#rounds tr[data-round="2"]')).to_have_attribute("data-sent", "true")
        expect(page.locator("#w-round")).to_have_value("3")
        page.fill("#w-player", "Дарья")
        page.fill("#w-substitute", "Ян")
        page.click("#withdraw")
        expect(page.locator("#notice")).to_have_text("Ян играет вместо Дарья с тура 3",
                                                     timeout=60_000)
        expect(page.locator("#summary-withdrawals")).to_have_text(
            "Выбывшие и замены: Глеб не играет с тура 2; Ян вместо Дарья с тура 3")
        page.fill("#w-player", "Ян")  # the round 3 is not sent: a refusal says why
        page.fill("#w-round", "2")
        page.click("#withdraw")
        expect(page.locator("#notice")).to_contain_text("выбывание игрока: не принято")
        no_english(page)
        fits(page)
