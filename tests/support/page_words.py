"""Which words on a page are not the page's language: the text nodes a reader sees (and the
placeholders and titles of what they see), scanned for words in another language's script
(Latin on a Russian page, Cyrillic on an English one) that neither the language's catalog
itself uses (CSV, JSON, a command) nor are a player's name, nor the shipped books' and
scoring presets' own titles in that language (the Crow Club is "Crow Club" in Russian too:
"Classic mafia" on a Russian page is English that slipped through), and for raw
identifiers (``don_check``, ``panel.games``: a catalog key shown as itself, a role's or a
step's name). On a Russian page every Latin word is English that slipped through; on an English
page every Cyrillic word is Russian that did (docs/i18n.md).

    foreign = foreign_words(page, "ru", names=["Anna", "Борис"], also=["table-1"])
    assert foreign == [], foreign

tests/e2e/test_every_screen.py uses it at every screen of a whole game in each language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from judge.game import book
from kit import i18n
from results import scoring

LATIN = re.compile(r"[A-Za-z][A-Za-z'’]*")
CYRILLIC = re.compile(r"[Ѐ-ӿ][Ѐ-ӿ'’]*")
#: each catalog's own script: a page in a language may show the other scripts' words only
#: where its catalog, a language's name or a player's name holds them
SCRIPTS = {"ru": CYRILLIC, "en": LATIN}
#: an identifier as code writes it: snake_case or dotted (a catalog key, ``don_check``)
IDENTIFIER = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:[._][a-z0-9]+)+(?![\w])")

#: every text a reader sees on the page: visible text nodes, and the placeholder, title and
#: value of visible inputs, selects' options and buttons
_TEXTS = """() => {
  const seen = [];
  const shown = (e) => e && e.checkVisibility && e.checkVisibility();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || ["SCRIPT", "STYLE"].includes(parent.tagName)) continue;
    const text = node.textContent.trim();
    if (text && (shown(parent) || parent.tagName === "OPTION" && shown(parent.parentElement)))
      seen.push(text);
  }
  document.querySelectorAll("[placeholder], [title]").forEach((e) => {
    if (!shown(e)) return;
    if (e.placeholder) seen.push(e.placeholder);
    if (e.title) seen.push(e.title);
  });
  if (document.title) seen.push(document.title);
  return seen;
}"""


def titles(language: str) -> list[str]:
    """The shipped books' and scoring presets' titles in ``language`` (their files' own)."""
    books = [book.load(path).title for path in sorted(book.BOOKS.glob("*.toml"))]
    presets = [preset.title for preset in scoring.presets().values()]
    return [i18n.text(title, language) for title in (*books, *presets)]


def foreign_scripts(language: str) -> list[re.Pattern[str]]:
    """The words of every script but ``language``'s own."""
    return [script for script in SCRIPTS.values() if script is not SCRIPTS[language]]


def _found(text: str, language: str) -> set[str]:
    """The other scripts' words and the identifiers in ``text``."""
    return {w for script in (*foreign_scripts(language), IDENTIFIER)
            for w in script.findall(text)}


def allowed(language: str, names: Iterable[str] = (), also: Iterable[str] = ()) -> set[str]:
    """The other scripts' words (and identifiers) a page in ``language`` may show anywhere:
    each language's name for itself (the switch says "English" in English, "Русский" in
    Russian), the books' and presets' titles in it, those of the players' names and of
    ``also`` (a table's id), and the proper
    names and acronyms (a capital first: CSV, UTC, Chromium) its catalog's texts hold."""
    words = {w for n in i18n.names() for w in _found(n["name"], language)}
    for text in i18n.catalog(language).values():
        words.update(w for w in _found(i18n.PLACEHOLDER.sub(" ", text), language)
                     if w[0].isupper())
    for text in (*titles(language), *names, *also):
        words.update(_found(text, language))
    return words


def _in_place(language: str) -> list[tuple[set[str], re.Pattern[str], str]]:
    """The catalog's texts that hold other words (a command, a JSON field: ``mafia-table
    judge``, ``{"seat": 3}``): each with those words, a pattern of the whole message (its
    parameters any text) and its literal text, so those words pass only where that message
    stands on the page, whole or as one of its pieces (a ``<code>`` of it), never loose (a
    record's ``judge`` on a Russian sheet)."""
    found = []
    for text in i18n.catalog(language).values():
        words = {w for w in _found(i18n.PLACEHOLDER.sub(" ", text), language)
                 if not w[0].isupper()}
        if words:
            parts = i18n.PLACEHOLDER.sub("\0", text).split("\0")
            found.append((words, re.compile(".*?".join(map(re.escape, parts)), re.DOTALL),
                          i18n.PLACEHOLDER.sub(" ", text)))
    return found


def foreign(texts: Iterable[str], language: str, names: Iterable[str] = (),
            also: Iterable[str] = ()) -> list[str]:
    """The ``texts`` that hold a word of another script than ``language``'s, or an
    identifier, that is no name (``allowed``) nor stands in a message of ``language``'s
    catalog that holds it (``_in_place``)."""
    ok = allowed(language, names, also)
    places = _in_place(language)

    def passes(text: str) -> bool:
        loose = _found(text, language) - ok
        for words, pattern, literal in places:
            if loose & words and (pattern.search(text) or text in literal):
                loose -= words
        return not loose

    return [text for text in texts if not passes(text)]


def page_texts(page: Any) -> list[str]:
    """Every text a reader sees on a Playwright ``page`` now."""
    texts: list[str] = page.evaluate(_TEXTS)
    return texts


def foreign_words(page: Any, language: str, names: Iterable[str] = (),
                  also: Iterable[str] = ()) -> list[str]:
    """The texts a reader sees on ``page`` that are not all ``language`` (see the module)."""
    return foreign(page_texts(page), language, names, also)


#: a full stop, then a sentence that starts in lower case
_STOP_THEN_LOWER = re.compile(r"(\S+)\.\s+(?=[a-zа-яё])")


def abbreviations(language: str) -> set[str]:
    """The words ``language``'s catalog itself follows with a full stop and a lower case word
    ("доп. баллы", "см. журнал"): abbreviations, not the end of a sentence."""
    return {m.group(1) for text in i18n.catalog(language).values()
            for m in _STOP_THEN_LOWER.finditer(text)}


def uncapitalised(texts: Iterable[str], language: str) -> list[str]:
    """The ``texts`` where a sentence after a full stop starts in lower case («9 → 4. убит
    игрок 4»), an abbreviation of the catalog's aside."""
    short = abbreviations(language)
    return [text for text in texts
            if any(m.group(1) not in short for m in _STOP_THEN_LOWER.finditer(text))]


#: what only a machine writes, that must never reach a person's screen: the table's id
#: (``table-1``), a game's id (``…-20261204-223202-977``), a seat 0 (there is none: a vote's
#: candidate 0 is a question), a record's JSON pointer (``/players/1/name``), a UTC stamp
MACHINE = re.compile(r"(?<![\w/])table-\d+\b|\d{8}-\d{6}-\d{3}|"
                     r"(?<![\w])(?:игрок[а-я]*|мест[оа]|seat|player)\s+0(?![\d,.])|"
                     r"(?<![\w.:/])/(?:players|days|nights|timings|votes|ballots)(?:/[\w~]+)+|"
                     r"\bUTC\b", re.IGNORECASE)


def machine_words(texts: Iterable[str]) -> list[str]:
    """The ``texts`` that hold a machine's identifier (``MACHINE``)."""
    return [text for text in texts if MACHINE.search(text)]


#: the visible text of each block a reader reads as one (a paragraph, a list item, a cell, a
#: button, a heading): a sentence split over bold or links reads whole here
_BLOCKS = """() => [...document.querySelectorAll(
  "p, li, td, th, h1, h2, h3, button, label, header div, #vote, #floor, #stage, #night")]
  .filter((e) => e.checkVisibility()).map((e) => e.innerText.trim()).filter(Boolean)"""


def page_blocks(page: Any) -> list[str]:
    """Each block's text a reader sees on a Playwright ``page`` now (``_BLOCKS``)."""
    blocks: list[str] = page.evaluate(_BLOCKS)
    return blocks
