"""The panel's games over HTTP (judge/record/routes.py): listed, opened, scored, exported as CSV,
edited by the judge (extra points, corrections, abandoning) with every bad request answered
with a 4xx and its reason, nothing held lost; and the protocol sheet in a real headless
Chromium, printed to A4."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from judge.game import Action
from judge.panel import config as judge_config
from judge.panel.service import Panel, handle_message, make_app
from judge.record import document as rec
from kit.local_broker import free_port
from tests.support.judge_configs import GOOD, PASSWORD, write
from tests.support.page_layout import PHONE, fits, overflowing, text_size
from tests.support.page_words import foreign_words
from tests.support.record_game import Script, whole_game
from tests.support.web_client import browser, logged_in


def played(tmp_path, script: Script | None = None) -> Panel:
    """A panel (no broker: the table's side is the script's events) that played ``script``."""
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    for given, _ in (script or whole_game()).inputs:
        panel.apply(given)
    return panel


def act(panel: Panel, action: str, **args) -> dict | None:
    import json
    return handle_message(panel, json.dumps({"action": action, "args": args,
                                             "version": panel.game.version}))


def run(panel: Panel, scenario) -> None:
    async def main() -> None:
        async with TestServer(make_app(panel)) as server:
            http = await logged_in(server)
            try:
                await scenario(server, http)
            finally:
                await http.close()
    asyncio.run(main())


def test_nothing_without_login(tmp_path):
    panel = played(tmp_path)

    async def main() -> None:
        async with TestServer(make_app(panel)) as server, browser(server) as http:
            async with http.get(server.make_url("/api/games")) as r:
                assert r.status == 401 and (await r.json())["error"] == "log in first"
            async with http.get(server.make_url("/games"), allow_redirects=False) as r:
                assert r.status == 302 and r.headers["Location"] == "/login"
            async with http.post(server.make_url("/api/games/x/extra"), json={}) as r:
                assert r.status == 401
    asyncio.run(main())


def test_the_game_listed_opened_scored_and_its_csv(tmp_path):
    panel = played(tmp_path)
    current = panel.games.current()

    async def scenario(server, http) -> None:
        async with http.get(server.make_url("/api/games")) as r:
            [game] = (await r.json())["games"]
            assert (game["id"], game["status"], game["winner"]) == (current.id, "finished",
                                                                    "red")
        async with http.get(server.make_url(f"/api/games/{current.id}")) as r:
            record = await r.json()
            assert record["schema"] == 3 and record["days"][0]["votes"][0]["ballots"][0][
                "voters"] == [1, 2, 3, 4, 7, 8, 9, 10]
        async with http.get(server.make_url(f"/api/games/{current.id}/scores"),
                            params={"scoring": "crow-club"}) as r:
            scores = (await r.json())["players"]
            assert [s["total"] for s in scores] == [0, 0, 0, 2, 2, 2, 2, 2, 2, 2]
        async with http.get(server.make_url(f"/games/{current.id}/results.csv")) as r:
            assert r.content_type == "text/csv"
            rows = list(csv.DictReader(io.StringIO(await r.text())))
            assert [row["total"] for row in rows] == ["0"] * 3 + ["1"] * 3 + ["1.5"] + ["1"] * 3
            assert rows[0]["name"] == "Anna" and rows[6]["left"] == "shot"
        async with http.get(server.make_url("/games")) as r:
            assert current.id in await r.text()
        async with http.get(server.make_url("/games/current"), allow_redirects=False) as r:
            assert (r.status, r.headers["Location"]) == (303, f"/games/{current.id}")

    run(panel, scenario)


@pytest.mark.parametrize(("path", "params", "status", "says"), [
    ("/api/games/table-1-nope", {}, 404, "no game"),
    ("/games/table-1-nope", {}, 404, "no game"),
    ("/api/games/{id}/scores", {"scoring": "vegas"}, 400, "no scoring preset 'vegas'"),
    ("/games/{id}/results.csv", {"scoring": "../fiim"}, 400, "no scoring preset"),
])
def test_a_bad_read_is_a_clear_4xx(tmp_path, path, params, status, says):
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.get(server.make_url(path.format(id=id)), params=params) as r:
            assert r.status == status and says in (await r.json())["error"]

    run(panel, scenario)


def test_extra_points_and_a_correction_after_the_game_are_kept_in_its_history(tmp_path):
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        api = f"/api/games/{id}"
        async with http.post(server.make_url(api + "/extra"), json={
                "seat": 4, "points": 0.3, "reason": "found both", "by": "Olga"}) as r:
            assert r.status == 200 and (await r.json())["game"]["edits"] == 1
        async with http.post(server.make_url(api + "/corrections"), data={
                "path": "/players/1/name", "value": "Borys", "reason": "misspelt"},
                allow_redirects=False) as r:  # the sheet's form: back to the sheet
            assert r.status == 303 and r.headers["Location"] == f"/games/{id}"
        async with http.get(server.make_url(api + "/scores")) as r:
            assert (await r.json())["players"][3]["total"] == 1.3

    run(panel, scenario)
    edited = panel.games.current()
    assert edited.players[1].name == "Borys" and edited.extra_points[0].by == "Olga"
    [extra, fix] = edited.history
    assert (fix.kind, fix.path, fix.before, fix.after, fix.by) == (
        "correction", "/players/1/name", "Boris", "Borys", "judge")
    # a new game keeps the finished one, edits and all; a restarted panel still has it
    assert act(panel, "new_game") is None
    panel.journal.close()
    again = Panel(judge_config.load(write(tmp_path, GOOD)))
    kept = again.games.archived(id)
    assert kept.status == "finished" and kept.history == [extra, fix]


BAD_EDITS = [
    ("extra", {"seat": 11, "points": 1, "reason": "r"}, "seat"),
    ("extra", {"seat": 4, "points": "lots", "reason": "r"}, "points"),
    ("extra", {"seat": 4, "points": 1e6, "reason": "r"}, "points"),
    ("extra", {"seat": 4, "points": 1}, "reason"),
    ("extra", {"seat": 4, "points": 1, "reason": ""}, "reason"),
    ("extra", {"seat": 4, "points": 1, "reason": "r", "colour": "red"}, "colour"),
    ("extra", "[1, 2]", "Expected `object`"),
    ("extra", "{not json", "malformed"),
    ("corrections", {"path": "/id", "value": "x", "reason": "r"}, "not corrected by hand"),
    ("corrections", {"path": "/players/1/fouls", "value": 3, "reason": "r"}, "fouls"),
    ("corrections", {"path": "/players/99/name", "value": "x", "reason": "r"}, "no item 99"),
    ("corrections", {"path": "players", "value": "x", "reason": "r"}, "JSON pointer"),
    ("corrections", {"value": "x", "reason": "r"}, "path"),
    ("abandon", {"reason": "r"}, "finished"),
    ("abandon", {}, "reason"),
]


@pytest.mark.parametrize(("verb", "body", "says"), BAD_EDITS)
def test_a_bad_edit_is_a_clear_4xx_and_changes_nothing(tmp_path, verb, body, says):
    panel = played(tmp_path)
    before = panel.games.current()

    async def scenario(server, http) -> None:
        url = server.make_url(f"/api/games/{before.id}/{verb}")
        kwargs = {"json": body} if isinstance(body, dict) else {
            "data": body, "headers": {"Content-Type": "application/json"}}
        async with http.post(url, **kwargs) as r:
            assert 400 <= r.status < 500 and says in (await r.json())["error"]

    run(panel, scenario)
    assert panel.games.current() == before


@pytest.mark.parametrize(("path", "value", "says", "russian"), [
    ("/players/99/name", "x", "players, 99: name: no item 99", "элемента 99 нет"),
    ("/players/1/fouls", "x", "player 2: fouls: corrected by a script, through the API",
     "игрок 2: фолы: исправляются программой через API"),
    ("/days/0/votes/0/ballots/0/voters", "1, два", "day 1, vote 1, for seat 5: voters: seat "
     "numbers with commas expected", "за игрока 5: голосовавшие: нужны номера игроков"),
    ("/days/0/votes/0/ballots/0/count", "восемь", "for seat 5: vote count: a number expected",
     "за игрока 5: число голосов: нужно число"),
    ("/players/0/role", "Joker", "player 1: card: no such card in the book (there are: Don, ",
     "игрок 1: карта: нет такой карты в правилах (есть: Дон, ")])
def test_a_bad_correction_from_the_sheets_form_goes_back_to_the_sheet_with_why(
        tmp_path, path, value, says, russian):
    """Why, in the sheet's reader's language, the field in the sheet's words (never the
    record's path)."""
    panel = played(tmp_path)
    before = panel.games.current()

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{before.id}/corrections"), data={
                "path": path, "value": value, "reason": "r"}, allow_redirects=False) as r:
            assert r.status == 303
            where = r.headers["Location"]
        assert where.startswith(f"/games/{before.id}?error=")
        async with http.get(server.make_url(where + "&lang=en")) as sheet:
            text = await sheet.text()
            assert sheet.status == 200 and says in text and path not in text.split("<form")[0]
        async with http.get(server.make_url(where + "&lang=ru")) as sheet:
            assert sheet.status == 200 and russian in await sheet.text()

    run(panel, scenario)
    assert panel.games.current() == before


@pytest.mark.parametrize(("body", "english", "russian"), [
    ({"seat": "4", "points": "lots", "reason": "r"}, "points: this value does not fit",
     "баллы: это значение не подходит"),
    ({"seat": "0", "points": "1", "reason": "r"}, "seat: this value does not fit",
     "место: это значение не подходит"),
    ({"seat": "4", "points": "1"}, "reason: not filled in", "причина: не заполнено"),
    ({"seat": "11", "points": "1", "reason": "r"}, "extra points: there is no seat 11",
     "дополнительные баллы: игрока 11 нет")])
def test_a_bad_field_in_the_sheets_form_goes_back_to_the_sheet_in_its_readers_words(
        tmp_path, body, english, russian):
    """The form's refusal is the sheet again, why in words (the field by its box's label),
    never a JSON page; the record is unchanged."""
    panel = played(tmp_path)
    before = panel.games.current()

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{before.id}/extra"), data=body,
                             allow_redirects=False) as r:
            assert r.status == 303
            where = r.headers["Location"]
        assert where.startswith(f"/games/{before.id}?error=")
        async with http.get(server.make_url(where + "&lang=en")) as sheet:
            assert sheet.content_type == "text/html" and english in await sheet.text()
        async with http.get(server.make_url(where + "&lang=ru")) as sheet:
            assert russian in await sheet.text()

    run(panel, scenario)
    assert panel.games.current() == before


def test_extra_points_reach_every_seat_of_a_bigger_table_and_no_further(tmp_path):
    """A 13-seat game (the online variant's): seat 13 takes extra points, 14 is no seat; the
    sheet's box goes up to 13."""
    panel = Panel(judge_config.load(write(tmp_path, GOOD + '[game]\nbook = "online-003"\n'
                                                          "seats = 13\n")))
    for given, _ in Script().event("state", day=0).tap("deal", seed=1).tap("start").inputs:
        panel.apply(given)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        api = server.make_url(f"/api/games/{id}/extra")
        async with http.post(api, json={"seat": 13, "points": 0.5, "reason": "r"}) as r:
            assert r.status == 200
        async with http.post(api, json={"seat": 14, "points": 0.5, "reason": "r"}) as r:
            assert r.status == 400 and (await r.json())["words"] == {
                "key": "refused.record.extra_seat", "params": {"seat": 14}}
        async with http.get(server.make_url(f"/games/{id}")) as r:
            assert 'name="seat" type="number" min="1" max="13"' in await r.text()

    run(panel, scenario)
    assert [p.seat for p in panel.games.current().extra_points] == [13]


def test_a_refusal_nesting_words_reads_whole_in_either_language(tmp_path):
    """Abandoning a finished game from the sheet's form: "the game is {{status}}", the status
    itself words, rendered in the sheet's language."""
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{id}/abandon"),
                             data={"reason": "r"}, allow_redirects=False) as r:
            where = r.headers["Location"]
        for language, said in (("ru", "игра окончена: прервать её нельзя"),
                               ("en", "the game is finished: it cannot be abandoned")):
            async with http.get(server.make_url(f"{where}&lang={language}")) as sheet:
                assert said in await sheet.text()

    run(panel, scenario)


def test_a_long_refusal_is_cut_between_words_and_still_read(tmp_path):
    """What ``?error=`` carries is the refusal's key and parameters, never longer than 600
    characters: a parameter too long is cut at a space, with "…", and the JSON stays whole."""
    from urllib.parse import quote

    from judge.record.routes import _carried
    from kit.i18n import Words

    path = "/players/1/" + "очень длинное имя поля " * 40
    carried = _carried(Words("refused.record.no_field", path=path))
    assert len(carried) <= 600
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.get(server.make_url(f"/games/{id}?error={quote(carried)}&lang=ru")) \
                as sheet:
            said = re.search(r'<p class="error" id="error" role="alert">([^<]*)</p>',
                             await sheet.text()).group(1)
        assert said.startswith("игрок 2: очень длинное имя поля") and \
            said.endswith("поля…: такого поля нет")

    run(panel, scenario)


@pytest.mark.parametrize(("path", "russian", "status"), [
    ("/games/current", "сейчас не идёт ни одна игра", 404),
    ("/games/table-1-nope", "игры «table-1-nope» нет", 404),
    ("/games/{id}?scoring=vegas", "нет системы подсчёта «vegas» (есть: ", 400),
    ("/no/such/page", "такой страницы нет", 404)])
def test_a_refusal_a_browser_reads_is_a_page_in_its_language(tmp_path, path, russian, status):
    """A browser (``Accept: text/html``) gets a small page with why, in its reader's
    language, and the way back; a script asking the same keeps the JSON, with words."""
    panel = played(tmp_path, Script() if path == "/games/current" else None)
    address = path.format(id=getattr(panel.games.current(), "id", ""))
    html = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}

    async def scenario(server, http) -> None:
        sep = "&" if "?" in address else "?"
        async with http.get(server.make_url(f"{address}{sep}lang=ru"), headers=html) as r:
            assert (r.status, r.content_type) == (status, "text/html")
            page = await r.text()
            assert russian in page and '<html lang="ru">' in page
            assert '<a href="/">Пульт</a>' in page and '<a href="/games">Все игры</a>' in page
        async with http.get(server.make_url(address)) as r:  # a script
            assert r.status == status and r.content_type == "application/json"
            assert set(await r.json()) == {"error", "words"}

    run(panel, scenario)


def test_an_edit_from_another_origin_is_refused(tmp_path):
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{id}/extra"),
                             headers={"Origin": "http://evil.example"},
                             json={"seat": 1, "points": 5, "reason": "r"}) as r:
            assert r.status == 403

    run(panel, scenario)
    assert panel.games.current().extra_points == []


def test_a_game_abandoned_mid_way_is_recorded_as_such(tmp_path):
    s = Script().event("state", day=0).tap("deal", seed=3).tap("start").tap("next")
    s.tap("foul", seat=2)
    panel = played(tmp_path, s)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{id}/abandon"),
                             json={"reason": "the hall closes", "by": "Olga"}) as r:
            assert r.status == 200 and (await r.json())["game"]["status"] == "abandoned"
        async with http.post(server.make_url(f"/api/games/{id}/abandon"),
                             json={"reason": "again"}) as r:  # it is archived now
            assert r.status == 409 and "being played" in (await r.json())["error"]
        assert act(panel, "name", seat=1, name="Ada") is None  # the next game's setup
        async with http.get(server.make_url("/api/games")) as r:
            games = (await r.json())["games"]
            assert [(g["status"], g["abandon_reason"]) for g in games] == [
                ("in_progress", None), ("abandoned", "the hall closes")]
        async with http.post(server.make_url(f"/api/games/{games[0]['id']}/abandon"),
                             json={"reason": "nothing to abandon"}) as r:
            assert r.status == 409 and "setup" in (await r.json())["error"]

    run(panel, scenario)
    kept = panel.games.archived(id)
    assert kept.players[1].fouls[0].n == 1 and kept.history[0].by == "Olga"
    assert panel.game.stage == "setup"  # the panel is ready for the next game


def test_a_new_game_before_the_end_abandons_the_last_one_and_setup_alone_is_not_kept(tmp_path):
    panel = played(tmp_path, Script().tap("deal", seed=1).tap("start"))
    id = panel.games.current().id
    assert act(panel, "new_game") is None
    assert panel.games.archived(id).abandon_reason == rec.NEW_GAME
    assert act(panel, "name", seat=1, name="Ada") is None and act(panel, "new_game") is None
    assert [g.id for g in panel.games.archived_games()] == [id]

    async def scenario(server, http) -> None:  # the panel's own reason, in the reader's words
        for language, said in (("ru", "начата новая игра"), ("en", "a new game was started")):
            async with http.get(server.make_url(f"/games?lang={language}")) as r:
                assert said in await r.text()
            async with http.get(server.make_url(f"/games/{id}")) as r:
                assert said in await r.text()

    run(panel, scenario)


# ------------------------------------------------------------------ the sheet in Chromium


class Served:
    """The panel of ``make_panel`` on a loopback port, on its own thread and loop (SQLite's
    connections stay on the thread that made them)."""

    def __init__(self, make_panel: Callable[[], Panel]):
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def serve() -> None:
            asyncio.set_event_loop(self.loop)
            panel = make_panel()
            self.record = panel.games.current()
            self.runner = web.AppRunner(make_app(panel))
            self.loop.run_until_complete(self.runner.setup())
            site = web.TCPSite(self.runner, "127.0.0.1", self.port)
            self.loop.run_until_complete(site.start())
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=serve, daemon=True)
        self.thread.start()
        assert ready.wait(30)

    def logged_in(self, browser: Any, **options: Any) -> tuple[Any, str]:
        """A page (Playwright's ``options``: ``PHONE``) logged in to the panel (on the panel's
        page), and the panel's address."""
        page = browser.new_page(**options)
        page.set_default_timeout(20_000)
        url = f"http://127.0.0.1:{self.port}"
        page.goto(url + "/")
        page.fill("#password", PASSWORD)
        page.click("#login")
        page.wait_for_selector("#seats")
        return page, url

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


@pytest.mark.timeout(120)
def test_the_protocol_sheet_prints_on_a4_with_every_vote_shot_and_foul(tmp_path,
                                                                       chromium):
    served = Served(lambda: played(tmp_path))
    record = served.record
    try:
        page, url = served.logged_in(chromium)
        page.goto(url + "/games")
        page.click(f'tr[data-game="{record.id}"] a')
        page.wait_for_selector("#players")
        # the judge adds extra points from the sheet's form
        page.fill('#extra-form input[name="seat"]', "4")
        page.fill('#extra-form input[name="points"]', "0.25")
        page.fill('#extra-form input[name="reason"]', "found both mafiosi")
        page.click("#extra-form button")
        page.wait_for_selector('#extra li:text("found both mafiosi")')
        assert page.inner_text('tr[data-seat="4"] td:last-child') == "1.25"
        # a refused correction comes back to the sheet with its reason
        page.select_option("#correction-path", "/days/0/votes/0/ballots/0/count")
        page.fill('#correction-form input[name="value"]', "many")
        page.fill('#correction-form input[name="reason"]', "typo")
        page.click("#correction-form button")
        page.wait_for_selector('#error:text("vote count: a number expected")')

        page.emulate_media(media="print")
        assert not page.is_visible(".controls") and not page.is_visible("nav")
        text = page.inner_text("body")
        for day in record.days:
            for vote in day.votes:
                for b in vote.ballots:
                    head = "yes" if b.candidate == 0 else str(b.candidate)
                    voters = ", ".join(map(str, b.voters)) or (  # the last nominee's alone
                        f"{', '.join(map(str, b.leftover))} raised no hand" if b.leftover
                        else "—")
                    assert f"{head}: {b.count} ({voters}" in text
            for n in day.nominations:
                assert f"{n.seat} (by {n.by})" in text
        for night in record.nights:
            for shot in night.shots:
                assert f"{shot.actor} → {shot.picks[0]}" in text
            assert f"Seat {night.killed} killed" in text
        assert "Sheriff (4) checks 2: black" in text and "Best move (7): 1, 2, 3" in text
        assert page.inner_text('tr[data-seat="8"] .fouls') == "D1"
        pdf = page.pdf(format="A4")
        pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
        assert 1 <= pages <= 2, pages
    finally:
        served.close()


def test_a_correction_waits_for_the_end_of_the_game(tmp_path):
    panel = played(tmp_path, Script().tap("deal", seed=1).tap("start").tap("next"))
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{id}/corrections"), json={
                "path": "/players/0/name", "value": "Ada", "reason": "r"}) as r:
            assert r.status == 409 and "after the game" in (await r.json())["error"]
        async with http.post(server.make_url(f"/api/games/{id}/corrections"), data={
                "path": "/players/0/name", "value": "Ada", "reason": "r"},
                allow_redirects=False) as r:  # the sheet's form: back to the sheet, with why
            assert r.status == 303
            where = r.headers["Location"]
        async with http.get(server.make_url(where + "&lang=ru")) as sheet:
            assert "исправления вносятся после игры" in await sheet.text()

    run(panel, scenario)
    assert panel.games.current().history == []


def test_an_edit_an_undo_after_the_game_took_away_is_left_out_not_fatal(tmp_path):
    s = Script().tap("deal", roles=["don", "mafia", "mafia", "sheriff", *["civilian"] * 6])
    s.tap("start").tap("next")
    for seat in (1, 2, 3):  # 1.4: red wins when the last black is removed by fouls
        for _ in range(4):
            s.tap("foul", seat=seat)
    panel = played(tmp_path, s)
    done = panel.games.current()
    assert done.winner == "red"
    panel.games.edit(done.id, rec.Edit(kind="correction", at=1.0, by="j", reason="r",
                                       path="/players/2/left/reason", after="5.1.6"))
    assert act(panel, "undo") is None  # the winning foul taken back: seat 3 is in again
    again = panel.games.current()
    assert again.status == "in_progress" and again.players[2].left is None
    assert again.ended is None
    assert again.history == []


@pytest.mark.timeout(120)
def test_the_panels_abandon_button_keeps_the_game_as_abandoned(tmp_path, chromium):
    served = Served(lambda: played(tmp_path, Script().tap("deal", seed=4).tap("start")
                                   .tap("next").tap("foul", seat=6)))
    try:
        page, url = served.logged_in(chromium)
        page.wait_for_selector('#stage[data-stage="day"]')
        page.once("dialog", lambda dialog: dialog.accept("the hall closes"))
        page.click("#abandon")
        page.wait_for_selector('#stage[data-stage="setup"]')  # ready for the next game
        assert not page.is_visible("#abandon")
        page.goto(url + "/games")
        page.wait_for_selector('#games td:text("abandoned")')
        assert "the hall closes" in page.inner_text("#games")
        page.click("#games tr[data-game] a")
        page.wait_for_selector('#status[data-status="abandoned"]')
        assert page.inner_text('tr[data-seat="6"] .fouls') == "D1"
    finally:
        served.close()


@pytest.mark.timeout(120)
def test_the_panels_abandon_refused_says_why_in_the_panels_language(tmp_path, chromium):
    """The server's refusal carries words, and the panel shows them in its own language (the
    button's code, run with no game being played: another tab abandoned it, say)."""
    served = Served(lambda: played(tmp_path, Script()))
    try:
        page, url = served.logged_in(chromium)
        page.goto(url + "/?lang=ru")
        page.wait_for_selector('html[lang="ru"] #seats')
        page.once("dialog", lambda dialog: dialog.accept("зал закрывается"))
        page.evaluate("document.getElementById('abandon').onclick()")
        page.wait_for_selector('#message:text("сейчас не идёт ни одна игра")')
    finally:
        served.close()


def test_abandoning_the_current_game_when_there_is_none_is_a_409(tmp_path):
    panel = played(tmp_path, Script())

    async def scenario(server, http) -> None:
        async with http.post(server.make_url("/api/games/current/abandon"),
                             json={"reason": "r"}) as r:
            refused = await r.json()
            assert r.status == 409 and "no game" in refused["error"]
            assert refused["words"] == {"key": "games.refused.current", "params": {}}
        async with http.get(server.make_url("/api/games")) as r:
            assert (await r.json())["games"] == []

    run(panel, scenario)


def test_a_refused_request_is_logged_with_its_reason(tmp_path, caplog):
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.post(server.make_url(f"/api/games/{id}/extra"),
                             json={"seat": 0, "points": 1, "reason": "r"}) as r:
            assert r.status == 400

    with caplog.at_level("WARNING", logger="judge.games"):
        run(panel, scenario)
    [line] = [r.getMessage() for r in caplog.records if r.name == "judge.games"]
    assert f"POST /api/games/{id}/extra" in line and "(400)" in line and "seat" in line


#: long Cyrillic names at every seat: the widest the sheet meets at a Russian club
@pytest.mark.timeout(120)
def test_the_protocol_sheet_and_the_games_list_read_on_a_phone(tmp_path, chromium):
    """On a phone (390x844, its browser laying the page out by its viewport meta tag; without
    one, 980 px wide shrunk to 5 px letters) the sheet and the games list are as wide as the
    screen: nothing moves the page sideways (a wide table scrolls in its own box, the
    correction form fits) and their text is 14 px at least, on screen too."""
    served = Served(lambda: played(tmp_path))
    try:
        page, url = served.logged_in(chromium, **PHONE)
        for path, ready in ((f"/games/{served.record.id}?lang=ru", "#correction-form"),
                            ("/games", "#games")):
            page.goto(url + path)
            page.wait_for_selector(ready)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
            assert overflowing(page) == [], path
            size, shown = text_size(page)
            assert size >= 14 and shown >= 14, (path, size, shown)
    finally:
        served.close()


LONG_NAMES = ["Александра Константинопольская", "Борис Ёлкин-Щербаков", "Владислав Ж.",
              "Галина Чернышевская", "Дмитрий Преображенский", "Евгения Юрьевна",
              "Жанна Д'Арк-Мухина", "Зинаида Шапокляк", "Иннокентий Смоктуновский",
              "Ксения Собчак-Виторган"]


@pytest.mark.timeout(120)
def test_the_protocol_sheet_prints_on_one_a4_page_in_russian_as_in_english(tmp_path, chromium):
    """The same whole game, ten long Cyrillic names, the sheet in each language: one A4 page
    (Chromium's own print to PDF, as a club prints it)."""
    script = Script()
    for seat, name in enumerate(LONG_NAMES, start=1):
        script.tap("name", seat=seat, name=name)
    script.inputs += [i for i in whole_game().inputs
                      if not (isinstance(i[0], Action) and i[0].kind == "name")]
    served = Served(lambda: played(tmp_path, script))
    record = served.record
    try:
        page, url = served.logged_in(chromium)
        counted = {}
        for language in ("ru", "en"):
            page.goto(f"{url}/games/{record.id}?lang={language}")
            page.wait_for_selector(f'html[lang="{language}"] #players')
            assert page.inner_text('tr[data-seat="1"] td:nth-child(2)') == LONG_NAMES[0]
            # and no word of the other language on it (its forms and the scoring presets'
            # titles included): the table's own id and the players' are names
            found = foreign_words(page, language, names=LONG_NAMES, also=["table-1"])
            assert found == [], found
            page.emulate_media(media="print")
            pdf = page.pdf(format="A4")
            counted[language] = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
            page.emulate_media(media="screen")
            fits(page)  # its nav on a phone too
            page.goto(f"{url}/games")  # the games list, in the language just chosen
            page.wait_for_selector(f'html[lang="{language}"] #games')
            assert foreign_words(page, language, also=[record.id]) == []
            fits(page)
        assert counted == {"ru": 1, "en": 1}, counted
    finally:
        served.close()


def test_a_judge_corrects_a_name_on_the_russian_sheet_by_picking_it_in_words(tmp_path):
    """The correction form offers «игрок 2: имя» (no JSON to type): the browser posts the
    select's path and the empty free box, and the name is corrected; a path typed in the free
    box wins over the select."""
    panel = played(tmp_path)
    id = panel.games.current().id

    async def scenario(server, http) -> None:
        async with http.get(server.make_url(f"/games/{id}?lang=ru")) as r:
            page = await r.text()
        form = page[page.index('id="correction-form"'):]
        form = form[:form.index("</form>")]
        picked = re.search(r'<option value="([^"]+)">игрок 2: имя</option>', form)
        assert picked is not None and "игрок 2: карта" in form
        async with http.post(server.make_url(f"/api/games/{id}/corrections"), data=[
                ("path", picked.group(1)), ("path", ""), ("value", "Борис"),
                ("reason", "опечатка")], allow_redirects=False) as r:
            assert r.status == 303 and r.headers["Location"] == f"/games/{id}"
        async with http.post(server.make_url(f"/api/games/{id}/corrections"), data=[
                ("path", picked.group(1)), ("path", "/players/2/name"), ("value", "Вера"),
                ("reason", "опечатка")], allow_redirects=False) as r:
            assert r.status == 303 and r.headers["Location"] == f"/games/{id}"

    run(panel, scenario)
    edited = panel.games.current()
    assert (edited.players[1].name, edited.players[2].name) == ("Борис", "Вера")
    assert [h.path for h in edited.history] == ["/players/1/name", "/players/2/name"]
