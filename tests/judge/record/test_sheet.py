"""The protocol sheet, the organiser's spreadsheet and the script's CSV (judge/record/sheet.py)
from a record: names from outside are escaped in the HTML and cannot run as formulas in a
spreadsheet; the foul moments read as the clubs write them; the game is named as a club names it
(its number in the evening, the table's name, local time: judge/record/club.py)."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from html import escape

import msgspec
from hypothesis import example, given, settings

from judge.game import load_rules
from judge.game.book import book_path, load
from judge.record import document as rec
from judge.record.sheet import moment, protocol, results_csv, results_xlsx
from kit import i18n
from results import mafiaratings, scoring
from tests.support.judge_game import morning_after_night_one, tap
from tests.support.record_edits import WHOLE, paths, values
from tests.support.record_game import NAMES, Script, whole_game
from tests.support.spreadsheets import rows_of

FIIM = scoring.presets()["fiim"]


def named(names: dict[int, str]) -> rec.Record:
    s = Script()
    for seat, name in names.items():
        s.tap("name", seat=seat, name=name)
    for taken, at in whole_game().inputs:
        s.inputs.append((taken, at))
    return rec.build(s.inputs, "table-1")


def test_a_name_is_escaped_on_the_sheet():
    record = named({3: "<script>alert(1)</script>"})
    page = protocol(record, scoring.score(record, FIIM), FIIM.title)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_name_a_spreadsheet_would_run_is_written_as_text():
    record = named({3: '=HYPERLINK("http://x")', 5: "+1", 6: "-2", 7: "@A1"})
    record = rec.apply_edits(record, [  # the panel trims a name; a correction need not
        rec.Edit(kind="correction", at=1.0, by="j", reason="r", path=f"/players/{i}/name",
                 after=name) for i, name in ((7, "\t=1+1"), (8, "\r=1+1"))])
    scores = scoring.score(record, FIIM)
    rows = list(csv.DictReader(io.StringIO(results_csv(record, scores), newline="")))
    assert [rows[i]["name"] for i in (2, 4, 5, 6, 7, 8)] == [
        '\'=HYPERLINK("http://x")', "'+1", "'-2", "'@A1", "'\t=1+1", "'\r=1+1"]
    assert rows[0]["name"] == NAMES[1] and len(rows) == 10
    sheet = rows_of(results_xlsx(record, scores, "en"))  # a workbook's text is text (XML
    assert [sheet[i + 1][6] for i in (2, 4, 5, 6, 7, 8)] == [  # keeps no carriage return)
        '=HYPERLINK("http://x")', "+1", "-2", "@A1", "\t=1+1", "\n=1+1"]


def test_a_fouls_moment_day_vote_or_night():
    assert [moment(2, 1, "day"), moment(2, 1, "vote"), moment(2, 2, "night"),
            moment(0, 0, "night0"), moment(1, 0, "last_words")] == ["D2", "V2", "N2", "N0", "D1"]


def test_fiim_4_5_9_a_foul_in_the_mornings_last_minute_is_the_next_days():
    """Seat 7 fouls on day 1, twice while the night's victim (6) speaks after «Утро», and a
    fourth time then: that minute opens day 2 (4.5.4, 4.5.9), not day 1 (the game's own day
    number turns only at day 2's first speech)."""
    morning = morning_after_night_one()
    inputs = [*morning[:3], tap("foul", seat=7), *morning[3:],
              *[tap("foul", seat=7)] * 3]
    record = rec.build([(g, 1_764_577_800.0 + i) for i, g in enumerate(inputs)], "table-1")
    assert record is not None
    seven = record.players[6]
    assert [(f.day, f.night, f.stage) for f in seven.fouls] == [
        (1, 0, "day"), (2, 1, "last_words"), (2, 1, "last_words"), (2, 1, "last_words")]
    assert seven.left is not None and (seven.left.how, seven.left.day) == ("fouls", 2)
    page = protocol(record, scoring.score(record, FIIM), FIIM.title, language="ru")
    row = re.search(r'<tr data-seat="7">(.*?)</tr>', page)
    assert row is not None and '<td class="fouls">Д1 Д2 Д2 Д2</td>' in row[1]
    assert "<td>4-й фол, день 2</td>" in row[1]


@settings(max_examples=300, deadline=None)
@given(paths, values)
@example("/started", 1e20)
@example("/players/2/name", "a,\r\nb")
def test_any_correction_the_record_takes_still_prints_scores_and_exports(path, value):
    """A correction is stored only when the record takes it; what is stored must still open:
    the sheet, the scores and the CSV of every preset, the export or its refusal (a start 1e20 s
    after 1970 once took the games' list down with it: no clock prints that moment)."""
    edit = rec.Edit(kind="correction", at=1.0, by="j", reason="r", path=path, after=value)
    try:
        edited = rec.apply_edits(WHOLE, [edit])
    except rec.RecordError:
        return
    for preset in scoring.presets().values():
        scores = scoring.score(edited, preset)
        assert len(scores) == len(edited.players)
        assert edited.id in protocol(edited, scores, preset.title)
        rows = list(csv.reader(io.StringIO(results_csv(edited, scores), newline="")))
        assert len(rows) == len(edited.players) + 1
        assert len(rows_of(results_xlsx(edited, scores))) == len(edited.players) + 1
    with contextlib.suppress(mafiaratings.ExportRefused):  # refused: the route's 409
        assert mafiaratings.export_json(edited).startswith(b"{")


#: seats the whole game names none of (it names 1, 2 and 4)
CYRILLIC = {3: "Анна", 5: "Борис Ёлкин", 6: "Мария-Луиза Щукина", 7: "Đorđe «Ж» Łukasz"}


def test_names_typed_in_cyrillic_stay_exact_in_the_csv_the_sheet_and_the_export():
    """A name is the player's own text: no language touches it (docs/i18n.md)."""
    record = named(CYRILLIC)
    scores = scoring.score(record, FIIM)
    rows = list(csv.reader(io.StringIO(results_csv(record, scores), newline="")))
    assert [rows[s][rows[0].index("name")] for s in CYRILLIC] == list(CYRILLIC.values())
    for language in ("ru", "en"):
        [header, *players] = rows_of(results_xlsx(record, scores, language))
        column = header.index(i18n.t("csv.name", language))
        assert [players[s - 1][column] for s in CYRILLIC] == list(CYRILLIC.values())
        page = protocol(record, scores, FIIM.title, language=language)
        assert all(f"<td>{escape(name)}</td>" in page for name in CYRILLIC.values())
    exported = json.loads(mafiaratings.export_json(record))
    players = exported["players"]
    assert [players[s - 1]["name"] for s in CYRILLIC] == list(CYRILLIC.values())


def test_the_spreadsheet_and_the_sheet_speak_the_readers_language_with_the_books_words():
    record = named(CYRILLIC)
    scores = scoring.score(record, FIIM)
    book = load_rules("fiim").book
    [header, *rows] = rows_of(results_xlsx(record, scores, "ru", book, number=3))
    first = dict(zip(header, rows[0], strict=True))
    assert (first["роль"], first["команда"], first["победитель"], first["статус"]) == (
        "Дон", "чёрные", "красные", "окончена")
    assert (first["№ игры"], first["стол"]) == (3, "Стол 1")  # the club's, not table-1
    [header, *rows] = rows_of(results_xlsx(record, scores, "en", book))
    first = dict(zip(header, rows[0], strict=True))
    assert (first["role"], first["side"], first["winner"]) == ("Don", "black", "red")
    page = protocol(record, scores, FIIM.title, language="ru", book=book)
    assert 'lang="ru"' in page and "Протокол игры · Стол 1 · " in page
    assert "Шериф (4) проверяет 2: чёрный" in page  # the book's own answer


def test_the_scripts_csv_holds_the_records_identifiers_and_numbers_in_no_language():
    """A script reads the same columns and values whatever the reader's language: the
    record's identifiers, numbers with ".", UTF-8 with no byte order mark."""
    record = named(CYRILLIC)
    scores = scoring.score(record, FIIM)
    data = results_csv(record, scores)
    assert data.startswith("game,table,date,status,winner,seat,name,role,team,won,fouls,left,")
    [first, *_] = csv.DictReader(io.StringIO(data, newline=""))
    assert (first["game"], first["table"], first["role"], first["team"], first["winner"]) == (
        record.id, "table-1", "don", "black", "red")
    assert first["left"] in ("", "voted_out", "shot", "fouls", "disqualified")
    totals = {row["total"] for row in csv.DictReader(io.StringIO(data, newline=""))}
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", t) for t in totals), totals


def test_a_schema_2_records_english_lines_read_as_they_were():
    """Before the catalogs a record's log was English sentences: kept, shown as they are."""
    doc = msgspec.to_builtins(WHOLE)
    doc["schema"] = 2
    doc["log"] = [{"at": 1.0, "line": "4.4.2: seat 1 nominates seat 5"}]
    record = rec.decode(msgspec.json.encode(doc))
    assert record.schema == rec.SCHEMA and record.log[0].text == "4.4.2: seat 1 nominates seat 5"
    assert record.log[0].render("ru") == record.log[0].render("en") == record.log[0].text
    assert rec.decode(rec.encode(record)) == record
    kept = WHOLE.log[0]
    assert kept.key and kept.render("ru") != kept.render("en")


def test_the_result_line_says_leaves_for_one_and_leave_for_more():
    """«1 покидает стол», «2 покидают стол»: the plural is the catalog's (docs/i18n.md)."""
    record = named({})
    [one] = [v for d in record.days for v in d.votes if len(v.eliminated) == 1][:1]
    day = next(d for d in record.days if one in d.votes)
    two = msgspec.structs.replace(one, eliminated=[5, 6])
    edited = msgspec.structs.replace(record, days=[msgspec.structs.replace(
        day, votes=[one, two])])
    page = protocol(edited, scoring.score(edited, FIIM), FIIM.title, language="ru")
    assert f"Итог: заголосован: {one.eliminated[0]} покидает стол" in page
    assert "Итог: заголосован: 5, 6 покидают стол" in page
    english = protocol(edited, scoring.score(edited, FIIM), FIIM.title, language="en")
    assert f"eliminated: {one.eliminated[0]} leaves" in english and "5, 6 leave" in english


def test_a_game_still_playing_has_no_end_on_its_sheet():
    """No «конец ·» hanging with nothing after it while the game goes on."""
    playing = msgspec.structs.replace(named({}), status="in_progress", ended=None)
    page = protocol(playing, scoring.score(playing, FIIM), FIIM.title, language="ru")
    meta = page[page.index('<p class="meta">'):page.index('<span id="status"')]
    assert "начало" in meta and "конец" not in meta


def test_fiim_4_4_8_a_ballot_of_left_over_votes_only_says_who_and_where_they_go():
    """The last nominee may hold left-over votes alone: who raised no hand, and that 4.4.8
    gives their votes against the last nominee, not a dash for his voters before them."""
    record = named({})
    vote = next(v for d in record.days for v in d.votes if v.ballots)
    ballot = msgspec.structs.replace(vote.ballots[0], voters=[], leftover=[8, 9], count=2)
    days = [msgspec.structs.replace(d, votes=[msgspec.structs.replace(v, ballots=[ballot])
                                              if v is vote else v for v in d.votes])
            for d in record.days]
    edited = msgspec.structs.replace(record, days=days)
    book = load_rules("fiim").book
    page = protocol(edited, scoring.score(edited, FIIM), FIIM.title, language="ru", book=book)
    assert (f"{ballot.candidate}: <b>2</b> (руку не подняли 8, 9: их голоса отходят против "
            "игрока, выставленного последним (4.4.8))") in page
    one = msgspec.structs.replace(ballot, voters=[3], leftover=[8], count=2)
    days = [msgspec.structs.replace(d, votes=[msgspec.structs.replace(v, ballots=[one])
                                              if v is vote else v for v in d.votes])
            for d in record.days]
    edited = msgspec.structs.replace(record, days=days)
    page = protocol(edited, scoring.score(edited, FIIM), FIIM.title, language="en", book=book)
    assert (f"{ballot.candidate}: <b>2</b> (3; 8 raised no hand: that vote goes against the "
            "last nominee (4.4.8))") in page


def test_a_count_corrected_by_the_book_or_the_judge_says_why_in_the_readers_words():
    """The table keeps a corrected count's reason as the engine gave it, in English: the
    classic club's detective counted as the chief votes («Детектив», classic-000 «5.
    Голосование») and the judge's own count read in the sheet's language; a reason the judge
    typed stays as typed."""
    book = load(book_path("classic-000"))
    record = named({})
    vote = next(v for d in record.days for v in d.votes if v.ballots)
    reasons = ["«Detective»", "judge's count", "пересчитал по видео"]
    ballots = [msgspec.structs.replace(vote.ballots[0], by="correction", reason=r)
               for r in reasons]
    days = [msgspec.structs.replace(d, votes=[msgspec.structs.replace(v, ballots=ballots)
                                              if v is vote else v for v in d.votes])
            for d in record.days]
    edited = msgspec.structs.replace(record, days=days)
    ru = protocol(edited, scoring.score(edited, FIIM), FIIM.title, language="ru", book=book)
    en = protocol(edited, scoring.score(edited, FIIM), FIIM.title, language="en", book=book)
    assert "исправлено: «Детектив»" in ru and "исправлено: счёт судьи" in ru
    assert "corrected: «Detective»" in en and escape("corrected: the judge's count") in en
    assert "исправлено: пересчитал по видео" in ru and "corrected: пересчитал по видео" in en
