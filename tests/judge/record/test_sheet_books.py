"""The protocol sheet and the CSV of a finished game of each of the four books, in Russian and
in English: every night step's outcome, every vote's title and result in words (the book's
own where it has them), never the record's identifiers (``kill 10``, ``yes 3``, ``same 1,
2``), no English on the Russian sheet, no key missing from a catalog."""

from __future__ import annotations

import html
import logging
import re
import typing
from html.parser import HTMLParser

import msgspec
import pytest

from judge.game import load_rules
from judge.record import document as rec
from judge.record.sheet import FIELDS, ITEMS, BookWords, protocol, results_xlsx
from kit import i18n
from results import scoring
from tests.support.book_play import BookPlay, tap
from tests.support.page_words import foreign, uncapitalised
from tests.support.record_game import whole_game
from tests.support.spreadsheets import rows_of


def fiim() -> rec.Record:
    built = rec.build(whole_game().inputs, "table-1")
    assert built is not None
    return built


def classic_000() -> rec.Record:
    """Day 1 votes the godfather out; night 1 the family's kill healed, the chief's check, the
    maniac's kill, Laura finds the right hand; day 2 votes her out, night 2 the chief shoots."""
    play = BookPlay(load_rules("classic-000"), 10, [
        "godfather", "right_hand", "family", "joker", "chief", "detective", "doctor", "maniac",
        "laura", "civilian"], ("joker", "detective", "maniac", "laura"))
    play.to("vote").vote({1: [2, 3, 4, 5, 6, 7]}, outcome="eliminated", eliminated=1)
    play.to("night").night({"chief_check": {5: [3]}, "laura": {9: [2]},
                            "family_kill": {2: [10], 3: [10]}, "doctor": {7: [10]},
                            "maniac_kill": {8: [6]}})
    play.to("vote").vote({2: [3, 4, 5, 7, 8]}, outcome="eliminated", eliminated=2)
    play.to("night").night({"chief_kill": {5: [3]}})
    return play.to("over").record()


def crow_club() -> rec.Record:
    """Day 1 two nominees, the last one takes the left-over votes and leaves; night 1 the
    mafia's and the maniac's kills, the heal, the poison, the check, the silence; day 2 the
    blacks and the maniac are out on fouls."""
    play = BookPlay(load_rules("crow-club"), 13, [
        "don", "mafia", "mafia", "maniac", "doctor", "sheriff", "paranoid", "firefighter",
        *["civilian"] * 5], ("firefighter",))
    play.to("day")
    while play.game.round == 0:  # the zero round: no nominations
        play.give(tap("next"))
    for seat in (10, 11):
        play.give(tap("next"))
        assert play.game.floor is not None
        play.nominate(play.game.floor, seat)
    play.to("vote").vote({10: [1, 2, 3, 4, 5], 11: []}, {11: [6, 7, 8, 9, 12, 13]},
                         outcome="eliminated", eliminated=11)
    play.to("night").night({"mafia_shot": {1: [12]}, "maniac_kill": {4: [13]},
                            "doctor": {5: [13]}, "doctor_poison": {5: [9]},
                            "sheriff_check": {6: [1]}, "firefighter": {8: [3]}})
    play.to("day")
    for seat in (1, 2, 3, 4):
        while play.game.stage != "over" and play.game.player(seat).in_game:
            play.give(tap("foul", seat=seat))
    return play.to("over").record()


def online_003() -> rec.Record:
    """Day 1 seat 5 is accused and acquitted; night 1 every card moves; day 2 the mafia's
    heart attacks end it."""
    play = BookPlay(load_rules("online-003"), 10, [
        "boss", "mafia", "mafia", "commissar", "sergeant", "doctor", "maniac", "kamikaze",
        "journalist", "honest"], ("boss", "sergeant", "doctor", "maniac", "kamikaze",
                                  "journalist"))
    play.to("vote").vote({5: [1, 2, 3, 4, 6, 7]}, outcome="eliminated", eliminated=5)
    play.to("question").vote({0: [1, 2]}, outcome="no", yes_count=2, voters_count=10)
    play.night({"maniac_kill": {7: [10]}, "mafia_kill": {2: [9], 3: [9]}, "boss": {1: [5]},
                "kamikaze": {8: [7]}, "doctor": {6: [9]}, "commissar_check": {4: [1]},
                "journalist": {9: [2, 4]}})
    play.to("day").give(*[tap("disqualify", seat=s) for s in (1, 2, 3)])
    return play.to("over").record()


GAMES = {"fiim": fiim, "classic-000": classic_000, "crow-club": crow_club,
         "online-003": online_003}


class _Texts(HTMLParser):
    """The text nodes of a page, as a reader sees them (markup and scripts left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def texts(page: str) -> list[str]:
    parser = _Texts()
    parser.feed(page)
    return parser.texts


def paragraphs(page: str) -> list[str]:
    """Each paragraph's text as a reader reads it, its bold and links run in."""
    return [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in
            re.findall(r"<p\b[^>]*>(.*?)</p>", page, re.DOTALL)]


@pytest.fixture(scope="module", params=list(GAMES))
def played(request: pytest.FixtureRequest) -> tuple[str, rec.Record]:
    record = GAMES[request.param]()
    assert record.status == "finished" and record.rules == request.param
    return request.param, record


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_sheet_of_each_books_game_is_words_in_its_language(played, language, caplog,
                                                               monkeypatch):
    name, record = played
    rules = load_rules(name)
    preset = scoring.presets()[name]
    monkeypatch.setattr(i18n, "_warned", set())  # every missing key logged again
    with caplog.at_level(logging.WARNING, logger="kit.i18n"):
        page = protocol(record, scoring.score(record, preset), preset.title,
                        language=language, book=rules.book)
        table = results_xlsx(record, scoring.score(record, preset), language, rules.book)
    assert caplog.messages == []
    names = [p.name for p in record.players]
    cites = [c for c in rules.book.cite.values() if isinstance(c, str)]  # the book's headings
    assert foreign(texts(page), language, names, also=cites) == []  # no table-1, no game id
    assert uncapitalised(paragraphs(page), language) == []  # «… 9 → 4. Убит игрок 4»
    raw = {a.outcome for n in record.nights for a in n.actions if a.outcome}
    assert raw and not [o for o in raw if f"<b>{o} " in page or f"<b>{o}</b>" in page]
    words = [cell for row in rows_of(table) for cell in row if isinstance(cell, str)]
    assert foreign(words, language, names) == []


def _corrected(record: rec.Record, *paths: str) -> rec.Record:
    """``record`` with a correction at each of ``paths`` (the value kept as it was)."""
    return rec.apply_edits(record, [
        rec.Edit(kind="correction", at=1e9, by="Olga", reason="r", path=p,
                 before=rec.read(record, p), after=rec.read(record, p)) for p in paths])


@pytest.mark.parametrize(("path", "russian", "english"), [
    ("/players/6/name", "игрок 7: имя", "player 7: name"),
    ("/players/0/role", "игрок 1: карта", "player 1: card"),
    ("/days/1/votes/0/ballots/0/voters", "день 2, голосование 1, за игрока 2: голосовавшие",
     "day 2, vote 1, for seat 2: voters"),
    ("/days/1/votes/0/ballots/0/voters/0", "день 2, голосование 1, за игрока 2, "
     "голосовавшие, № 1", "day 2, vote 1, for seat 2, voters, no. 1"),
    ("/nights/0/actions/0/outcome", "ночь 1, ход ночи 1: исход", "night 1, night move 1: outcome"),
    ("/timings/speech", "тайминги: speech", "timings: speech")])
def test_the_sheets_edits_name_the_corrected_field_in_words(path, russian, english):
    """The list of edits says which field in the sheet's words (a player by his seat, a day by
    its number, a ballot by its candidate, an item by its place from 1, a field the catalog
    lacks by its name); the raw pointer is nowhere on the page (the API keeps it)."""
    record = classic_000()
    record = _corrected(msgspec.structs.replace(record, timings={"speech": 60.0}), path)
    preset = scoring.presets()["classic-000"]
    book = load_rules("classic-000").book
    for language, said in (("ru", russian), ("en", english)):
        page = protocol(record, scoring.score(record, preset), preset.title,
                        language=language, book=book)
        edits = page[page.index('<ol id="history">'):]
        edits = edits[:edits.index("</ol>")]
        assert f'<span class="path">{said}</span>' in edits and path not in page


def _record_fields() -> set[str]:
    """Every field a correction may reach: the record's own, but those it may not touch."""
    fields: set[str] = set()
    todo: list[type] = [rec.Record]
    while todo:
        kind = todo.pop()
        for name, hint in typing.get_type_hints(kind).items():
            if kind is rec.Record and name in rec._FIXED:
                continue
            fields.add(name)
            todo.extend(k for k in _structs(hint) if k not in todo)
    return fields


def _structs(hint: object) -> list[type]:
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        return [hint]
    return [k for arg in typing.get_args(hint) for k in _structs(arg)]


def test_every_field_a_correction_reaches_has_its_words_in_both_catalogs():
    assert sorted(_record_fields() - set(FIELDS)) == []
    for language in ("ru", "en"):
        known = i18n.catalog(language)
        assert [k for k in (*FIELDS.values(), *ITEMS.values(), "sheet.field.item")
                if k not in known] == []


def test_a_day_without_nominations_by_its_book_has_no_nominees_line():
    """online-003's vote is its nomination: its day says who opens, not «Выставлены: нет»; a
    FIIM day without a nominee still says so."""
    preset = scoring.presets()["online-003"]
    record = online_003()
    page = protocol(record, scoring.score(record, preset), preset.title, language="ru",
                    book=load_rules("online-003").book)
    assert "Выставлены" not in page and "Первым говорит: 1" in page
    fiim_day = protocol(fiim(), scoring.score(fiim(), scoring.presets()["fiim"]),
                        scoring.presets()["fiim"].title, language="ru",
                        book=load_rules("fiim").book)
    assert "Выставлены:" in fiim_day


@pytest.mark.parametrize(("language", "answer"), [("ru", "чёрный"), ("en", "black")])
def test_the_crow_clubs_check_answers_in_its_books_words(language, answer):
    preset = scoring.presets()["crow-club"]
    record = crow_club()
    page = protocol(record, scoring.score(record, preset), preset.title, language=language,
                    book=load_rules("crow-club").book)
    check = record.nights[0].sheriff_check
    assert check is not None and check.answer
    said = [line for line in texts(page) if f"{check.by}" in line and f": {answer}" in line]
    book = load_rules("crow-club").book
    assert said and BookWords(book, language).answer("sheriff_check", True) == answer
