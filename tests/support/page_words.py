"""Which words on a page are not the page's language: the text nodes a reader sees (and the
placeholders and titles of what they see), scanned for words in the other script (Latin on a
Russian page, Cyrillic on an English one) that neither the language's catalog itself uses
(CSV, JSON, a command; "Русский" on the switch) nor the shipped books' and scoring presets' own
titles in that language hold (the Crow Club is "Crow Club" in Russian too), nor are a player's
name or ``also`` (a table's id). Every such word slipped through from the other language
(docs/i18n.md): a book's English title ("Classic club (000)") on a Russian page included.

    foreign = foreign_words(page, "ru", names=["Anna", "Борис"], also=["table-1"])
    assert foreign == [], foreign

The next helper's walk of every screen uses it at each screen and viewport.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from judge.game import book
from kit import i18n
from results import scoring

LATIN = re.compile(r"[A-Za-z][A-Za-z'’]*")
CYRILLIC = re.compile(r"[Ѐ-ӿ][Ѐ-ӿ'’-]*")


def script(language: str) -> re.Pattern[str]:
    """The words a page in ``language`` has no business showing: the other script than the
    one its own name for itself is written in ("English": Cyrillic; "Русский": Latin)."""
    return CYRILLIC if LATIN.fullmatch(i18n.catalog(language)["language.name"]) else LATIN

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


def allowed(language: str, names: Iterable[str] = (), also: Iterable[str] = ()) -> set[str]:
    """The words of the other script a page in ``language`` may show: those its catalog's own
    texts hold, each language's name for itself (the switch says "English" in English), the
    books' and presets' titles in it, and those of the players' names and of ``also``."""
    other = script(language)
    words = {w for n in i18n.names() for w in other.findall(n["name"])}
    for text in i18n.catalog(language).values():
        words.update(other.findall(i18n.PLACEHOLDER.sub(" ", text)))
    for text in (*titles(language), *names, *also):
        words.update(other.findall(text))
    return words


def foreign(texts: Iterable[str], language: str, names: Iterable[str] = (),
            also: Iterable[str] = ()) -> list[str]:
    """The ``texts`` that hold a word of the other script ``language``'s catalog does not use,
    nor a name."""
    ok, other = allowed(language, names, also), script(language)
    return [text for text in texts if any(w not in ok for w in other.findall(text))]


def page_texts(page: Any) -> list[str]:
    """Every text a reader sees on a Playwright ``page`` now."""
    texts: list[str] = page.evaluate(_TEXTS)
    return texts


def foreign_words(page: Any, language: str, names: Iterable[str] = (),
                  also: Iterable[str] = ()) -> list[str]:
    """The texts a reader sees on ``page`` that are not all ``language`` (see the module)."""
    return foreign(page_texts(page), language, names, also)
