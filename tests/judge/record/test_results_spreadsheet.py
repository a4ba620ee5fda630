"""The organiser's results open right in a spreadsheet of their locale (issue 38 item 7): the
workbook (judge/record/sheet.py ``results_xlsx``, results/spreadsheet.py) read back by
LibreOffice headless as a double-click opens it, in a Russian and an English locale: the right
columns, every score a number shown with the locale's decimal mark, the date a date, the names
text (Cyrillic whole, a formula never run); and the script's CSV read as a script reads it."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from pathlib import Path

import pytest

from judge.game import load_rules
from judge.record import club
from judge.record import document as rec
from judge.record.sheet import SPREADSHEET_HEADERS, results_csv, results_xlsx
from kit import i18n
from results import scoring
from tests.support.record_game import whole_game
from tests.support.spreadsheets import as_shown, cell_types, rows_of

FIIM = scoring.presets()["fiim"]
#: seat 3's name a spreadsheet would run, seat 5's in Cyrillic; seat 4 gets 1.25 extra points
NAMES = {3: "=1+1", 5: "Борис Ёлкин"}


@pytest.fixture(scope="module")
def profile(tmp_path_factory) -> Path:
    """One LibreOffice profile for the module (its first start takes seconds)."""
    return tmp_path_factory.mktemp("libreoffice")


def played() -> rec.Record:
    built = rec.build(whole_game().inputs, "table-1")
    assert built is not None
    edits = [rec.Edit(kind="correction", at=1.0, by="j", reason="r", path=f"/players/{s - 1}/name",
                      after=name) for s, name in NAMES.items()]
    edits.append(rec.Edit(kind="extra_points", at=2.0, by="j", reason="r", after={
        "seat": 4, "points": 1.25, "reason": "r", "by": "j", "at": 2.0}))
    return rec.apply_edits(built, edits)


@pytest.mark.parametrize(("language", "locale", "mark"), [("ru", "ru_RU", ","),
                                                          ("en", "en_US", ".")])
def test_a_spreadsheet_in_the_readers_locale_opens_the_results_with_columns_and_numbers(
        language, locale, mark, tmp_path, profile):
    record = played()
    scores = scoring.score(record, FIIM)
    data = results_xlsx(record, scores, language, load_rules("fiim").book, number=2)
    shown = as_shown(data, tmp_path / "shown", locale, profile)
    header = [i18n.t(h, language) for h in SPREADSHEET_HEADERS]
    assert shown[0] == header and len(shown) == 11
    assert all(len(row) == len(header) for row in shown)  # one cell a column, not column A
    rows = [dict(zip(header, row, strict=True)) for row in shown[1:]]
    total = header[SPREADSHEET_HEADERS.index("csv.total")]
    extra = header[SPREADSHEET_HEADERS.index("csv.extra")]
    assert rows[3][extra] == f"1{mark}25"  # the judge's 1.25 as the locale writes it
    assert [r[total] for r in rows] == [
        f"{s.total:g}".replace(".", mark) for s in scores]
    name = header[SPREADSHEET_HEADERS.index("csv.name")]
    assert (rows[2][name], rows[4][name]) == ("=1+1", "Борис Ёлкин")
    kinds = cell_types(data, tmp_path / "kinds", profile)
    columns = {h: i for i, h in enumerate(SPREADSHEET_HEADERS)}
    for seat, row in enumerate(kinds[1:], start=1):
        assert [row[columns[c]] for c in ("csv.number", "csv.seat", "csv.fouls", "csv.win",
                                          "csv.extra", "csv.total")] == ["float"] * 6
        assert row[columns["csv.date"]] == "date"
        assert row[columns["csv.name"]] == ("string" if record.players[seat - 1].name else "")


def test_the_workbook_holds_numbers_dates_and_texts_as_such():
    record = played()
    [header, *rows] = rows_of(results_xlsx(record, scoring.score(record, FIIM), "ru"))
    assert header[:3] == ["№ игры", "стол", "дата"]
    started = club.local(record.started or 0.0).date()
    assert rows[0][1] == "Стол 1" and isinstance(rows[0][2], datetime)
    assert rows[0][2].date() == started and isinstance(rows[0][0], type(None))  # no number
    assert rows[3][SPREADSHEET_HEADERS.index("csv.extra")] == 1.25
    assert rows[2][SPREADSHEET_HEADERS.index("csv.name")] == "=1+1"


def test_a_script_reads_the_csv_with_commas_points_and_no_byte_order_mark():
    record = played()
    scores = scoring.score(record, FIIM)
    data = results_csv(record, scores)
    assert not data.startswith("\ufeff") and data.endswith("\r\n")
    rows = list(csv.DictReader(io.StringIO(data, newline="")))
    assert len(rows) == 10 and float(rows[3]["extra"]) == 1.25 and rows[3]["extra"] == "1.25"
    assert rows[2]["name"] == "'=1+1" and rows[4]["name"] == "Борис Ёлкин"
    assert [float(r["total"]) for r in rows] == [s.total for s in scores]
