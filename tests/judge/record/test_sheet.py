"""The protocol sheet and the CSV (judge/record/sheet.py) from a record: names from outside are
escaped in the HTML and cannot run as formulas in a spreadsheet; the foul moments read as the clubs
write them."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from html import escape

import msgspec
from hypothesis import example, given, settings

from judge.game import load_rules
from judge.game.book import book_path, load
from judge.record import document as rec
from judge.record.sheet import BOM, moment, protocol, results_csv
from kit import i18n
from results import mafiaratings, scoring
from tests.support.record_edits import WHOLE, paths, values
from tests.support.record_game import NAMES, Script, whole_game

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
    rows = list(csv.DictReader(io.StringIO(results_csv(record, scoring.score(record, FIIM), "en"),
                                           newline="")))
    assert [rows[i]["name"] for i in (2, 4, 5, 6, 7, 8)] == [
        '\'=HYPERLINK("http://x")', "'+1", "'-2", "'@A1", "'\t=1+1", "'\r=1+1"]
    assert rows[0]["name"] == NAMES[1] and len(rows) == 10


def test_a_fouls_moment_day_vote_or_night():
    assert [moment(2, 1, "day"), moment(2, 1, "vote"), moment(2, 2, "night"),
            moment(0, 0, "night0"), moment(1, 0, "last_words")] == ["D2", "V2", "N2", "N0", "D1"]


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
    with contextlib.suppress(mafiaratings.ExportRefused):  # refused: the route's 409
        assert mafiaratings.export_json(edited).startswith(b"{")


#: seats the whole game names none of (it names 1, 2 and 4)
CYRILLIC = {3: "Анна", 5: "Борис Ёлкин", 6: "Мария-Луиза Щукина", 7: "Đorđe «Ж» Łukasz"}


def test_names_typed_in_cyrillic_stay_exact_in_the_csv_the_sheet_and_the_export():
    """A name is the player's own text: no language touches it (docs/i18n.md)."""
    record = named(CYRILLIC)
    scores = scoring.score(record, FIIM)
    for language in ("ru", "en"):
        rows = list(csv.reader(io.StringIO(results_csv(record, scores, language), newline="")))
        header, players = rows[0], rows[1:]
        column = header.index(i18n.t("csv.name", language))
        assert [players[s - 1][column] for s in CYRILLIC] == list(CYRILLIC.values())
        page = protocol(record, scores, FIIM.title, language=language)
        assert all(f"<td>{escape(name)}</td>" in page for name in CYRILLIC.values())
    exported = json.loads(mafiaratings.export_json(record))
    players = exported["players"]
    assert [players[s - 1]["name"] for s in CYRILLIC] == list(CYRILLIC.values())


def test_the_csv_and_the_sheet_speak_the_readers_language_with_the_books_words():
    record = named(CYRILLIC)
    scores = scoring.score(record, FIIM)
    book = load_rules("fiim").book
    rows = list(csv.DictReader(io.StringIO(results_csv(record, scores, "ru", book),
                                           newline="")))
    assert rows[0]["роль"] == "Дон" and rows[0]["команда"] == "чёрные"
    assert rows[0]["победитель"] == "красные" and rows[0]["статус"] == "окончена"
    english = list(csv.DictReader(io.StringIO(results_csv(record, scores, "en", book),
                                              newline="")))
    assert (english[0]["role"], english[0]["side"], english[0]["winner"]) == (
        "Don", "black", "red")
    page = protocol(record, scores, FIIM.title, language="ru", book=book)
    assert 'lang="ru"' in page and "Протокол игры" in page
    assert "Шериф (4) проверяет 2: чёрный" in page  # the book's own answer


def test_the_csvs_english_headers_and_values_are_words_as_the_russian_ones_are():
    """A person reads the header row and the status (also the games list's) in English as in
    Russian: words, not the code's identifiers (``best_move``, ``in_progress``)."""
    playing = msgspec.structs.replace(named(CYRILLIC), status="in_progress")
    scores = scoring.score(playing, FIIM)
    english = results_csv(playing, scores, "en")
    assert english.startswith(BOM + "game,")  # a spreadsheet reads it as UTF-8
    [header, first, *_] = csv.reader(io.StringIO(english.removeprefix(BOM), newline=""))
    assert header == ["game", "table", "date", "status", "winner", "seat", "name", "role",
                      "side", "won", "fouls", "left", "win", "best move", "penalty",
                      "compensation", "extra points", "total"]
    assert first[3] == "in progress"
    [russian, _, *_] = csv.reader(io.StringIO(results_csv(playing, scores, "ru"), newline=""))
    assert russian[13] == "лучший ход"


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


def test_excel_reads_the_russian_csv_as_utf_8_by_its_byte_order_mark():
    """Excel opens a CSV without a BOM in the machine's code page: «Мирный Житель» becomes
    mojibake. The rating platform's export is JSON, compared byte for byte: no BOM there."""
    record = named(CYRILLIC)
    data = results_csv(record, scoring.score(record, FIIM), "ru").encode("utf-8")
    assert data.startswith(b"\xef\xbb\xbf") and data.decode("utf-8-sig").startswith("игра,")
    assert mafiaratings.export_json(record).startswith(b"{")


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
