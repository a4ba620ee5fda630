"""The catalogs (kit/i18n/*.json) and their renderer: complete both ways against the code (every
key the code, the pages and the templates use is in every catalog, and every catalog key is
used), each plural key with exactly its language's CLDR forms, the same parameters in every
language, Russian plurals and numbers as a Russian reads them, a missing key in English and
logged once, and every book's own words given in every language (docs/i18n.md)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from babel import Locale

from judge.game import load_rules
from judge.game.book import BOOKS, check_texts
from kit import i18n
from kit.i18n import Line, Words, render
from tests.support.plurals import counted_without_forms, takes_a_count

REPO = Path(__file__).resolve().parents[2]
#: where keys are used: the packages' code, the pages and their templates
SOURCES = [p for folder in ("judge", "hall", "kit", "contract", "results")
           for p in sorted((REPO / folder).rglob("*"))
           if p.suffix in (".py", ".js", ".html") and "node_modules" not in p.parts]
#: a quoted dotted name: a key, when its first part is a catalog's namespace
QUOTED = re.compile(r"""["'`]([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["'`]""")
#: a dotted name that is a file, not a key ("overlay.html", "board.css")
FILES = re.compile(r"\.(html|css|js|mjs|json|toml|py|csv|md|txt|db|log|pass|crt|key|wav|png|svg)$")
#: dotted names that are a config's key paths, not keys (the judge's config errors name them)
NOT_KEYS = {"panel.password_file"}


def base_keys(language: str) -> set[str]:
    return {i18n.base_key(k) for k in i18n.catalog(language)}


def used_keys() -> set[str]:
    namespaces = {k.split(".")[0] for k in base_keys(i18n.FALLBACK)}
    found = set()
    for path in SOURCES:
        for key in QUOTED.findall(path.read_text(encoding="utf-8")):
            if key.split(".")[0] in namespaces and not FILES.search(key) \
                    and key not in NOT_KEYS:
                found.add(i18n.base_key(key))
    return found


def test_every_key_the_code_uses_is_in_every_catalog():
    used = used_keys()
    assert len(used) > 300  # the scan finds the code's keys at all
    for language in i18n.languages():
        assert sorted(used - base_keys(language)) == [], language


def test_every_catalog_key_is_used_and_every_language_has_the_same_keys():
    english = base_keys(i18n.FALLBACK) - {"language.name"}
    assert sorted(english - used_keys()) == []
    for language in i18n.languages():
        assert base_keys(language) == base_keys(i18n.FALLBACK), language


#: a text that is an identifier as code writes it (``extra_points``): a key left untranslated
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:[._][a-z0-9]+)+")


def test_no_text_a_reader_sees_is_a_bare_identifier():
    """Every text is read by a person, the CSV's headers and values too (its numbers are
    data, and no catalog holds them)."""
    for language in i18n.languages():
        bare = [k for k, text in i18n.catalog(language).items()
                if IDENTIFIER.fullmatch(text)]
        assert bare == [], language


def test_the_shipped_languages_are_russian_first_then_english():
    assert i18n.languages()[:2] == ("ru", "en") and i18n.DEFAULT == "ru"
    assert [n["name"] for n in i18n.names()][:2] == ["Русский", "English"]


def test_each_plural_key_has_exactly_its_languages_cldr_forms():
    for language in i18n.languages():
        forms = {f"_{tag}" for tag in Locale.parse(language).plural_form.tags} | {"_other"}
        by_key: dict[str, set[str]] = {}
        for key in i18n.catalog(language):
            base = i18n.base_key(key)
            if base != key:
                by_key.setdefault(base, set()).add(key[len(base):])
        assert by_key, language
        for base, suffixes in by_key.items():
            assert suffixes == forms, (language, base, suffixes)
            assert base not in i18n.catalog(language), (language, base)  # a form, or the key


def test_every_language_names_the_same_parameters_in_a_message():
    def placeholders(language: str) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for key, text in i18n.catalog(language).items():
            out.setdefault(i18n.base_key(key), set()).update(i18n.PLACEHOLDER.findall(text))
        return out

    english = placeholders(i18n.FALLBACK)
    for language in i18n.languages():
        assert placeholders(language) == english, language


@pytest.mark.parametrize(("count", "word"), [
    (0, "голосов"), (1, "голос"), (2, "голоса"), (4, "голоса"), (5, "голосов"),
    (11, "голосов"), (12, "голосов"), (21, "голос"), (22, "голоса"), (25, "голосов"),
    (101, "голос"), (111, "голосов"), (1.5, "голоса")])
def test_russian_plurals_one_few_many_and_a_fraction(count, word):
    said = render(Line("4.4.6", "line.votes", seat=5, count=count), "ru")
    assert said == f"4.4.6: за игрока 5: {i18n.number(count, 'ru')} {word}"


def test_english_plurals_and_numbers_as_each_language_writes_them():
    assert str(Words("line.votes", seat=5, count=1)) == "seat 5: 1 vote"
    assert str(Words("line.votes", seat=5, count=6)) == "seat 5: 6 votes"
    assert i18n.number(1.5, "ru") == "1,5" and i18n.number(1.5, "en") == "1.5"
    assert i18n.number(1000, "ru") == "1000"  # no grouping: seats, seconds, points
    tie = Line("4.4.12", "line.vote.tie", seats=[1, 3], seconds=30.0, revote="4.4.12.1")
    assert render(tie, "ru") == ("4.4.12: равенство голосов у 1, 3: по 30 с на оправдание, "
                                 "затем переголосование (4.4.12.1)")


def test_names_and_book_words_are_rendered_exactly_and_in_the_readers_language():
    line = Line(None, "line.name", seat=2, name="Борис Ёлкин <b>")
    assert render(line, "en") == "seat 2: Борис Ёлкин <b>" and \
        render(line, "ru") == "игрок 2: Борис Ёлкин <b>"
    shown = Line(None, "line.card.shown", seat=1, role={"ru": "Дон", "en": "Don"})
    assert render(shown, "ru").endswith(": Дон") and str(shown).endswith(": Don")
    only_english = Words("line.card.shown", seat=1, role={"en": "Don"})
    assert render(only_english, "ru").endswith(": Don")
    first = Line("4.2.1", "line.first_night", seconds=60.0,
                 says={"ru": "договорка ({{seconds}} с)", "en": "meet ({{seconds}} s)"})
    assert render(first, "ru") == "4.2.1: договорка (60 с)"


def test_a_citation_in_each_language_reads_as_the_readers_and_keeps_its_form():
    """A heading the book gives in two languages (classic's «Шеф Полиции \\ Police Chief»):
    each reader its own, through the record's JSON too."""
    line = Line({"ru": "«Шеф Полиции»", "en": "«Police Chief»"}, "line.deal")
    assert render(line, "ru").startswith("«Шеф Полиции»: ")
    assert render(line, "en").startswith("«Police Chief»: ")
    assert Line.from_json(line.to_json()) == line


def test_words_keep_their_form_through_json_and_compare_by_it():
    line = Line("4.4.2", "line.nominate", by=1, seat=5)
    again = Line.from_json(line.to_json())
    assert again == line and again.cite == "4.4.2" and hash(again) == hash(line)
    assert render(line.to_json(), "ru") == render(line, "ru")
    assert Words("x.y", seats=(1, 2)).to_json() == {"key": "x.y", "params": {"seats": [1, 2]}}


def test_a_missing_key_falls_back_to_english_and_is_logged_once(monkeypatch, caplog):
    english = i18n.catalog("en")
    russian = {k: v for k, v in i18n.catalog("ru").items() if not k.startswith("line.deal")}
    monkeypatch.setattr(i18n, "catalog", lambda lang: russian if lang == "ru" else english)
    monkeypatch.setattr(i18n, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="kit.i18n"):
        said = [render(Line("4.1.3", "line.deal"), "ru") for _ in range(3)]
        unknown = [render(Words("line.nobody.wrote.this"), "ru") for _ in range(2)]
        merged = i18n.merged("ru")
    assert said == ["4.1.3: the cards are dealt"] * 3
    assert unknown == ["line.nobody.wrote.this"] * 2
    assert merged["line.deal"] == "the cards are dealt"
    warned = [r.getMessage() for r in caplog.records]
    assert len([w for w in warned if "line.deal (ru)" in w]) == 1, warned
    assert len([w for w in warned if "line.nobody.wrote.this" in w]) == 1, warned


@pytest.mark.parametrize("name", sorted(p.stem for p in BOOKS.glob("*.toml")))
def test_every_shipped_book_gives_its_words_in_every_language(name):
    book = load_rules(name).book
    texts = [*(t.title for t in book.teams.values()), *(r.title for r in book.roles.values()),
             *(s.words for s in book.night.steps), *(d.says for d in book.deck if d.says)]
    if book.first_night is not None:
        texts.append(book.first_night.says)
    for text in texts:
        assert set(text) == set(i18n.languages()), (name, text)
    assert check_texts(book) == []


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_message_that_takes_a_count_has_its_plural_forms(language):
    """«Игрок 6 покидает стол», «Игроки 5, 6 покидают стол»: a message whose words agree with
    a number it is given has a form per plural category (tests/support/plurals.py)."""
    assert counted_without_forms(language) == []


@pytest.mark.parametrize(("text", "language"), [
    ("Покидают стол", "ru"), ("They leave", "en"), ("{{count}} голосов", "ru"),
    ("игрок {{seats}} на день", "ru"), ("выставлены: {{seats}}", "ru"),
    ("{{players}} игроков", "ru"), ("{{games}} games a player", "en"),
    ("seats {{seats}} do not vote", "en"), ("{{seats}} leave the table", "en")])
def test_the_plural_scan_sees_a_count_without_forms(text, language):
    assert takes_a_count(text, language)


@pytest.mark.parametrize(("text", "language"), [
    ("{{step}}: {{seats}}", "ru"), ("сейчас голосуют: все покидают стол?", "ru"),
    ("{{team}}: {{count}}", "ru"), ("игрок {{seat}}: {{n}}-й фол", "ru"),
    ("слово игроку {{seat}} ({{kind}}, {{seconds}} с)", "ru"), ("игроков: {{players}}", "ru"),
    ("the vote on {{seats}}", "en"), ("{{seconds}} s each", "en")])
def test_the_plural_scan_lets_a_message_with_nothing_to_agree_pass(text, language):
    assert not takes_a_count(text, language)


def test_the_books_and_presets_are_titled_as_a_club_calls_them_not_by_our_file_numbers():
    """«Классический клуб (000)» named the rule book by its file here: a club says neither."""
    from results import scoring
    books = [load_rules(p.stem).book.title for p in sorted(BOOKS.glob("*.toml"))]
    presets = [p.title for p in scoring.presets().values()]
    titled = [text for title in (*books, *presets) for text in title.values()]
    assert len(titled) >= 16 and [t for t in titled if re.search(r"\(\d{3}\)", t)] == []


#: the clubs' own words, and the calques a translation slips into instead
CLUB_TERMS = {"ru": {"первый убиенный": "первоубиенный (ПУ)"}}


def test_the_clubs_terms_are_written_as_the_clubs_write_them():
    for language, terms in CLUB_TERMS.items():
        texts = " ".join(i18n.catalog(language).values()).lower()
        assert [calque for calque in terms if calque in texts] == [], language
        assert all(term in " ".join(i18n.catalog(language).values())
                   for term in terms.values()), language
