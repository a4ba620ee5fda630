"""A game named as a club names it (judge/record/club.py): the table's name, the game's number
in the evening (which runs past midnight), the club's local time on the sheet and the games
list, never the machine's table id, game id or UTC."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from zoneinfo import ZoneInfo

import msgspec
import pytest

from judge.record import club
from judge.record import document as rec
from judge.record.sheet import protocol
from kit import i18n
from results import scoring
from tests.support.record_game import whole_game

FIIM = scoring.presets()["fiim"]
MOSCOW = ZoneInfo("Europe/Moscow")


@pytest.fixture
def zone(monkeypatch) -> Iterator[None]:
    """The machine's time zone is Moscow's for the test (``TZ``), and its own again after."""
    monkeypatch.setenv("TZ", "Europe/Moscow")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def at(text: str) -> float:
    """A Moscow wall-clock moment (``2026-12-04 22:30``) as UNIX seconds."""
    return datetime.fromisoformat(text).replace(tzinfo=MOSCOW).timestamp()


def game(table: str, started: str | None, created: str = "2026-12-04 18:00") -> rec.Record:
    built = rec.build(whole_game().inputs, table)
    assert built is not None
    return msgspec.structs.replace(built, id=f"{table}-{started}", created=at(created),
                                   started=None if started is None else at(started))


@pytest.mark.parametrize(("table", "configured", "ru", "en"), [
    ("table-1", None, "Стол 1", "Table 1"),
    ("t12", None, "Стол 12", "Table 12"),
    ("vip", None, "Стол «vip»", "Table «vip»"),
    ("table-1", "У окна", "У окна", "У окна"),
    ("table-1", {"ru": "Стол у окна", "en": "Window table"}, "Стол у окна", "Window table")])
def test_the_table_is_the_clubs_name_for_it_or_its_number(table, configured, ru, en):
    name = club.table_name(table, configured)
    assert (i18n.value(name, "ru"), i18n.value(name, "en")) == (ru, en)


def test_the_evenings_games_are_numbered_from_1_past_midnight_per_table(zone):
    played = [game("table-1", "2026-12-04 19:00"), game("table-1", "2026-12-04 23:40"),
              game("table-1", "2026-12-05 01:30"),  # the small hours: the same evening
              game("table-2", "2026-12-04 20:00"),  # another table counts its own
              game("table-1", "2026-12-05 19:10"),  # the next evening starts again
              game("table-1", None)]  # still in setup: no number yet
    assert club.numbers(reversed(played)) == {
        "table-1-2026-12-04 19:00": 1, "table-1-2026-12-04 23:40": 2,
        "table-1-2026-12-05 01:30": 3, "table-2-2026-12-04 20:00": 1,
        "table-1-2026-12-05 19:10": 1}


def test_the_sheet_says_the_game_number_the_table_and_the_local_time_never_the_machines(zone):
    record = game("table-1", "2026-12-04 22:32")
    record = msgspec.structs.replace(record, ended=at("2026-12-04 23:41"))
    scores = scoring.score(record, FIIM)
    page = protocol(record, scores, FIIM.title, language="ru", number=3)
    assert "<h1>Протокол игры № 3 · Стол 1 · 4 декабря 2026" in page
    assert "начало 22:32 · конец 23:41" in page  # Moscow's, not UTC's 19:32
    english = protocol(record, scores, FIIM.title, language="en", number=3,
                       table={"ru": "Стол у окна", "en": "Window table"})
    assert "<h1>Game 3 protocol · Window table · December 4, 2026" in english
    for shown in (page, english):
        text = shown.split("<body", 1)[1].split(">", 1)[1]
        assert "UTC" not in text and "table-1" not in text.replace(
            f'/games/{record.id}', "")  # the links hold the id: a person never reads it


def test_the_sheet_has_a_legend_for_its_letters():
    record = game("table-1", "2026-12-04 22:32")
    page = protocol(record, scoring.score(record, FIIM), FIIM.title, language="ru")
    legend = page[page.index('<p class="legend"'):].split("</p>")[0]
    assert all(w in legend for w in ("Д — днём", "Г — на голосовании", "Н — ночью", "ЛХ"))
