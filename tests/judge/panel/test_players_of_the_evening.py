"""The players of a club's evening at the panel (judge/panel/service.py, issue 38 items 5 and
10): the game plays the table's own seats when ``[game] seats`` is unset (the table's
``state`` says them), and a new game keeps the last game's players in their seats, unless the
hall seats the table for a tournament's round; and the club's roster (judge/panel/roster.py,
roster_csv.py, roster_routes.py): names offered and written as the club writes them, the
club's file in and out, a bad file refused whole with nothing lost."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from aiohttp.test_utils import TestServer
from hypothesis import given
from hypothesis import strategies as st

from judge.game import Action, Refused
from judge.panel import config as judge_config
from judge.panel import roster_csv
from judge.panel.roster import Roster
from judge.panel.service import Panel, handle_message, make_app
from kit import i18n, player_names
from tests.support.judge_configs import GOOD, write
from tests.support.record_game import ROLES
from tests.support.web_client import browser, logged_in

CROW = GOOD.replace("[timings]\nspeech = 45\n", '[game]\nbook = "crow-club"\n')


def state(seats: int) -> bytes:
    """The table's retained ``state`` of a table of ``seats`` seats."""
    return json.dumps({"table": "table-1", "phase": "idle", "day": 0, "seats": [
        {"seat": s, "light": {"mode": "off", "color": "#000000"}}
        for s in range(1, seats + 1)]}).encode()


def panel_of(tmp_path, body: str) -> Panel:
    return Panel(judge_config.load(write(tmp_path, body)))


def test_the_game_plays_the_tables_seats_and_a_restarted_panel_stands_there(tmp_path):
    panel = panel_of(tmp_path, CROW)
    assert len(panel.game.players) == 7  # the book's smallest deck, until the table says
    panel.apply(Action("name", {"seat": 2, "name": "Анна"}))
    panel._on_table("state", state(10))
    assert len(panel.game.players) == 10 and panel.game.player(2).name == "Анна"
    assert "10 players" in json.loads(panel.live.text())["log"][-2]["text"]
    panel._on_table("state", state(10))  # the same again: nothing new
    assert [given.kind for given, _ in panel.journal.inputs()] == ["name", "seating"]
    panel.apply(Action("deal", {"seed": 5}))
    panel.apply(Action("start", {}))
    record = panel.games.current()  # the record plays the same ten seats
    assert record is not None and [p.name for p in record.players][:2] == ["", "Анна"]
    assert len(record.players) == 10
    panel.close()
    again = panel_of(tmp_path, CROW)  # replayed from the journal, before the table speaks
    assert len(again.game.players) == 10 and again.game.player(2).name == "Анна"
    assert again.game.stage == "night0"
    again.close()


def test_a_table_the_book_does_not_play_and_a_configured_size_keep_the_game_as_it_is(
        tmp_path, caplog):
    fiim = panel_of(tmp_path, GOOD)  # FIIM plays ten, at a twelve-seat table
    with caplog.at_level(logging.WARNING, logger="judge"):
        fiim._on_table("state", state(12))
        fiim._on_table("state", state(12))
    assert len(fiim.game.players) == 10
    assert [r.message for r in caplog.records].count(
        "the table has 12 seats; FIIM plays 10 to 10: the game has 10") == 1
    fiim.close()
    (tmp_path / "state").rename(tmp_path / "fiim-state")
    sized = panel_of(tmp_path, CROW.replace('book = "crow-club"\n',
                                            'book = "crow-club"\nseats = 8\n'))
    sized._on_table("state", state(10))
    assert len(sized.game.players) == 8  # [game] seats: the club's own choice
    sized.close()


def test_a_new_game_keeps_the_evenings_players_in_their_seats(tmp_path):
    panel = panel_of(tmp_path, GOOD)
    players = {1: "Анна", 2: "Борис Ёлкин", 7: "Dmitry"}
    for seat, name in players.items():
        panel.apply(Action("name", {"seat": seat, "name": name}))
    panel.apply(Action("deal", {"roles": ROLES}))
    panel.apply(Action("start", {}))
    panel.new_game()
    assert panel.game.stage == "setup" and not any(p.role for p in panel.game.players)
    assert {p.seat: p.name for p in panel.game.players if p.name} == players
    with pytest.raises(Refused):  # the kept names are the panel's, not a tap to take back
        panel.apply(Action("undo", {}))
    assert {p.seat: p.name for p in panel.game.players if p.name} == players
    panel.close()


# ------------------------------------------------------------------ the club's roster

#: a club's roster as a Russian Excel saves it: Windows-1251, ";", a header, other columns
EXCEL = "Имя;Телефон;Рейтинг\r\nАлёна Иванова;+7 900;1500\r\nБорис  Ёлкин ;;\r\n\r\n" \
        "'=Шутник;;\r\nDmitry;;\r\n".encode("cp1251")


def test_a_roster_file_is_read_in_whichever_form_a_spreadsheet_saved_it():
    names = ["Алёна Иванова", "Борис Ёлкин", "=Шутник", "Dmitry"]
    assert [r.name for r in roster_csv.read(EXCEL)] == names
    assert [r.line for r in roster_csv.read(EXCEL)] == [2, 3, 5, 6]
    text = "\n".join(names[:2])
    for data in (("\ufeff" + text).encode(), text.encode(), text.encode("utf-16"),
                 ("name\n" + text).encode(), ('"Алёна Иванова",x\n"Борис Ёлкин",y').encode()):
        assert [r.name for r in roster_csv.read(data)] == names[:2], data
    # the same player twice, written the same way but for case, spaces, ё: once
    assert [r.name for r in roster_csv.read("Алёна\n Алёна \nАлёна\n".encode())] == ["Алёна"]


@pytest.mark.parametrize(("data", "says"), [
    (b"PK\x03\x04\x14\x00\x06\x00", "an Excel workbook"),
    (b"\x00\x01\x02binary", "not a CSV text file"),
    (b"", "holds no name"),
    (b"\xef\xbb\xbfName\n\n;;\n", "holds no name"),
    (("Анна\n" + "Я" * 41 + "\n").encode(), "line 2: a name over 40 characters"),
    ("Алёна\nБорис\nАлена\n".encode(), "line 3: “Алена” is the player “Алёна” of line 1"),
    (b"x" * (roster_csv.MAX_BYTES + 1), "over 1024 KiB"),
    (b'"' + b"x" * 200_000, "not a CSV text file"),
])
def test_a_bad_roster_file_is_refused_whole_with_each_problem_by_its_line(data, says):
    with pytest.raises(roster_csv.RosterFileError) as refused:
        roster_csv.read(data)
    assert says in str(refused.value)
    assert says in i18n.render(refused.value.words, "en")
    assert "не загружен" in i18n.render(refused.value.words, "ru")


def test_a_refusal_lists_five_problems_and_counts_the_rest():
    data = "\n".join("Я" * 41 for _ in range(8)).encode()
    with pytest.raises(roster_csv.RosterFileError) as refused:
        roster_csv.read(data)
    said = i18n.render(refused.value.words, "ru")
    assert said.count("длиннее 40 символов") == 5 and said.endswith("и ещё 3 ошибки")


def test_the_roster_keeps_each_player_once_in_the_clubs_spelling_and_loses_nothing(tmp_path):
    roster = Roster(tmp_path / "judge.db")
    roster.played(["иван петров", "Анна", ""], 1_000.0)
    assert roster.spelling("  ИВАН   Петров ") == "иван петров"  # as first written
    loaded = roster.load("Иван Петров\nАлёна\n".encode())  # the club's spelling wins
    assert (loaded.added, loaded.respelled, loaded.total) == (1, 1, 3)
    assert roster.spelling("иван петров") == "Иван Петров"
    assert roster.spelling("Алена") == "Алёна" and roster.spelling("Незнакомец ") == "Незнакомец"
    roster.played(["Иван Петров"], 2_000.0)
    assert roster.names() == [("Иван Петров", 2), ("Анна", 1), ("Алёна", 0)]
    before = roster.names()
    with pytest.raises(roster_csv.RosterFileError):
        roster.load("Пётр\nПетр\n".encode())
    assert roster.names() == before  # a refused file changes nothing
    # out as the club's spreadsheet opens it, and back in as it was
    out = roster.csv("ru")
    assert out.startswith("\ufeffИмя;Игр за этим пультом;Последняя игра\r\n".encode())
    assert [r.name for r in roster_csv.read(out)] == ["Алёна", "Анна", "Иван Петров"]
    roster.load(EXCEL)
    assert "'=Шутник" in roster.csv("en").decode("utf-8-sig")  # no formula for a spreadsheet
    again = Roster(tmp_path / "other.db")
    again.load(roster.csv("en"))
    assert sorted(again.names()) == sorted((n, 0) for n, _ in roster.names())
    roster.close()
    again.close()


def test_a_name_typed_is_written_as_the_roster_writes_it(tmp_path):
    panel = panel_of(tmp_path, GOOD)
    panel.roster.load("Алёна Иванова\n".encode())
    said = handle_message(panel, json.dumps({"action": "name", "version": panel.game.version,
                                             "args": {"seat": 3, "name": " алена  иванова"}}))
    assert said is None and panel.game.player(3).name == "Алёна Иванова"
    panel.close()


def test_the_roster_routes_need_the_login_and_refuse_a_bad_file_with_its_words(tmp_path):
    panel = panel_of(tmp_path, GOOD)

    async def main() -> None:
        async with TestServer(make_app(panel)) as server:
            async with browser(server) as stranger:
                for method, path in (("GET", "/api/roster"), ("POST", "/api/roster")):
                    async with stranger.request(method, server.make_url(path)) as got:
                        assert got.status == 401
            http = await logged_in(server)
            async with http:
                async with http.post(server.make_url("/api/roster"), data=EXCEL) as got:
                    body = await got.json()
                    assert got.status == 200 and body["total"] == 4
                    assert i18n.render(body["words"], "ru") == (
                        "Список игроков загружен: 4 новых имени, 0 имён записано по-новому; "
                        "в списке 4 игрока")
                async with http.post(server.make_url("/api/roster"), data=b"PK\x03\x04") as got:
                    body = await got.json()
                    assert got.status == 400 and "workbook" in body["error"]
                async with http.get(server.make_url("/api/roster")) as got:
                    assert (await got.json())["count"] == 4
                async with http.get(server.make_url("/roster.csv"),
                                    cookies={"lang": "en"}) as got:
                    assert got.headers["Content-Type"].startswith("text/csv")
                    assert (await got.read()).decode("utf-8-sig").startswith(
                        "Name,Games at this panel,Last game\r\n")

    asyncio.run(main())
    panel.close()


#: names with what a CSV must quote or a spreadsheet would run: separators, quotes, formulas
CELLS = st.text(st.sampled_from("АЖЁёZz ;,\"'=+-@\t"), min_size=1, max_size=12)


@given(st.lists(CELLS, max_size=8), st.sampled_from(["ru", "en"]))
def test_a_roster_written_reads_back_as_it_was(typed, language):
    names = list({player_names.key(n): n for n in map(player_names.tidy, typed) if n}.values())
    data = roster_csv.write(((n, 0, "") for n in names), language)
    if names:
        assert [r.name for r in roster_csv.read(data)] == names
