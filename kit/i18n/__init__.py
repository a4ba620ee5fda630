"""Words in the clubs' languages: a message is a key and its parameters, rendered per language
at the edge (a page, the sheet, the CSV), from one catalog per language (docs/i18n.md).

The engine, the views and the pages never hold a finished sentence: they hold ``Words(key,
**params)`` (``Line(cite, key, **params)`` when a rule book's paragraph stands before it), and
whoever shows it renders it in the reader's language: ``render(words, "ru")`` here, the same
rules in the pages' ``i18n.js``. The catalogs are ``kit/i18n/<language>.json``, flat JSON in
i18next's v4 form (a translator's tool reads it: Weblate, Crowdin, Lokalise, i18n-ally):

    "line.votes_one":   "seat {{seat}}: {{count}} vote",
    "line.votes_other": "seat {{seat}}: {{count}} votes"

- ``{{name}}``: a parameter. A number is written as the language writes it (CLDR, by Babel
  here and ``Intl.NumberFormat`` on a page: "1,5" in Russian); a list of numbers with ", "; a
  ``Words`` rendered in the same language; a ``Text`` (a book's own words per language,
  ``{"ru": "Дон", "en": "Don"}``) in the reader's language; any other text exactly as given
  (a player's name typed in Cyrillic stays as typed).
- A message whose parameters hold ``count`` has a form per CLDR plural category of the
  language (``_one``, ``_few``, ``_many``, ``_other`` in Russian: 1 голос, 2 голоса, 5
  голосов; ``_one``, ``_other`` in English), chosen by Babel's CLDR rules here and
  ``Intl.PluralRules`` on a page.
- A key missing from a language falls back to English, and is logged once per key; one
  missing from English too is shown as the key itself (logged once).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.numbers import format_decimal

log = logging.getLogger("kit.i18n")

HERE = Path(__file__).resolve().parent
#: the language every other falls back to, and the one the code's own words are tested in
FALLBACK = "en"
#: the language a club's pages start in when nothing chose another (these clubs speak Russian)
DEFAULT = "ru"
#: a parameter in a catalog's text: ``{{seat}}``
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")
#: the plural categories a key may end in
PLURAL_SUFFIXES = ("_zero", "_one", "_two", "_few", "_many", "_other")

#: a book's own words in each language it gives (``{"ru": "Дон", "en": "Don"}``)
Text = Mapping[str, str]


class Words:
    """A message: its catalog ``key`` and its parameters (numbers, texts, lists of numbers,
    ``Words``, ``Text``). Equal when key and parameters are; ``str()`` is its English."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: Any):
        self.key = key
        self.params: dict[str, Any] = params

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Words) \
            and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False))

    def __repr__(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({self.key!r}{params})"

    def __str__(self) -> str:
        return render(self, FALLBACK)

    def to_json(self) -> dict[str, Any]:
        """As JSON data: ``{"key": ..., "params": {...}}`` (what the pages render)."""
        return {"key": self.key, "params": {k: _json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Words:
        return cls(str(data["key"]), **dict(data.get("params") or {}))


class Line(Words):
    """A record line: words after the rule book's paragraph or section they rest on (``cite``:
    "4.4.2", «Голосование»; ``None``: the panel's own, citing nothing). The citation is the
    book's and is never translated; a book that gives its heading (or its reading of a
    section) in several languages cites it in each (``{"ru": "«Шеф Полиции»", "en": "«Police
    Chief»"}``), and each reader sees its own (``text``)."""

    __slots__ = ("cite",)

    def __init__(self, cite: str | Text | None, key: str, /, **params: Any):
        super().__init__(key, **params)
        self.cite = cite

    def __repr__(self) -> str:
        return f"Line({self.cite!r}, {super().__repr__()[len('Line('):]}"

    def to_json(self) -> dict[str, Any]:
        return {"cite": self.cite, **super().to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Line:
        return cls(data.get("cite"), str(data["key"]), **dict(data.get("params") or {}))


def _json(value: Any) -> Any:
    if isinstance(value, Words):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    return value


# ------------------------------------------------------------------ catalogs


def catalog_path(language: str) -> Path:
    return HERE / f"{language}.json"


@cache
def catalog(language: str) -> dict[str, str]:
    """A language's catalog: key -> text (a plural's forms as ``key_one``, ``key_few``...)."""
    data = json.loads(catalog_path(language).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"{catalog_path(language)}: a flat JSON object of texts expected")
    return data


@cache
def languages() -> tuple[str, ...]:
    """The languages there is a catalog for, the default first."""
    found = sorted(p.stem for p in HERE.glob("*.json"))
    return tuple(sorted(found, key=lambda code: (code != DEFAULT, code != FALLBACK, code)))


def text_problems(texts: Iterable[tuple[str, Text]]) -> list[str]:
    """What is wrong with each ``(key path, text per language)`` of a data file (a book's
    words, a scoring preset's title): English must be there, since every language falls back
    to it, and every language named must have a catalog (a misspelt code is never ignored)."""
    known = languages()
    problems = []
    for where, given in texts:
        if FALLBACK not in given:
            problems.append(f"{where}: no {FALLBACK!r} text (every language falls back to "
                            f"English: {{ {', '.join(f'{c} = ...' for c in known)} }})")
        problems += [f"{where}.{code}: no such language (there are: {', '.join(known)})"
                     for code in given if code not in known]
    return problems


def title_was_name(raw: object, whose: str) -> list[str]:
    """A data file written before titles were per language names itself ``name = "..."`` at
    its top (msgspec then says only "unknown field 'name'"): what to write instead, its own
    name in each language, for ``whose`` ("a book's"); nothing for any other file."""
    if not isinstance(raw, dict) or "name" not in raw:
        return []
    was = json.dumps(str(raw["name"]), ensure_ascii=False)
    return [f"name: {whose} title is now per language: title = {{ "
            + ", ".join(f"{code} = {was}" for code in languages()) + " }"]


def language_or_default(wanted: str | None, default: str = DEFAULT) -> str:
    """``wanted`` when there is a catalog for it, else ``default``."""
    return wanted if wanted in languages() else default


_warned: set[tuple[str, str]] = set()


def _missing(language: str, key: str, why: str) -> None:
    """Logged once per language and key: a page or a sheet would log it at every render."""
    if (language, key) not in _warned:
        _warned.add((language, key))
        log.warning("i18n: %s (%s): %s", key, language, why)


def plural(language: str, count: float) -> str:
    """The CLDR plural category of ``count`` in ``language`` (one, few, many, other...)."""
    return str(_locale(language).plural_form(count))


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(language)


def template(key: str, language: str, count: float | None = None) -> str:
    """The text of ``key`` in ``language`` (its plural form for ``count``), else English's
    (logged once), else the key itself (logged once)."""
    for lang in dict.fromkeys((language, FALLBACK)):
        texts = catalog(lang)
        if count is not None:
            for form in (f"{key}_{plural(lang, count)}", f"{key}_other"):
                if form in texts:
                    if lang != language:
                        _missing(language, key, "not in the catalog: English shown")
                    return texts[form]
        # a plural message given no count (a record written before it had forms): its _other
        found = texts.get(key, texts.get(f"{key}_other") if count is None else None)
        if found is not None:
            if lang != language:
                _missing(language, key, "not in the catalog: English shown")
            return found
    _missing(FALLBACK, key, "in no catalog: the key shown")
    return key


def number(value: float, language: str) -> str:
    """A number as ``language`` writes it (CLDR: "1,5" in Russian), without grouping: seats,
    seconds and points, never thousands."""
    return format_decimal(value, locale=language, group_separator=False)


def text(value: Text, language: str) -> str:
    """A book's own words in ``language``, else in English, else in any language it has."""
    for lang in (language, FALLBACK):
        if lang in value:
            return value[lang]
    return next(iter(value.values()), "")


def cited(cite: str | Text, language: str) -> str:
    """A citation (``Line``'s) as a reader in ``language`` sees it."""
    return cite if isinstance(cite, str) else text(cite, language)


def render(words: Words | Mapping[str, Any], language: str) -> str:
    """``words`` (or their JSON form) in ``language``; a ``Line`` after its citation."""
    if not isinstance(words, Words):
        words = (Line if "cite" in words else Words).from_json(words)
    params = words.params
    count = params.get("count")
    counted = float(count) if isinstance(count, int | float) and not isinstance(count, bool) \
        else None
    said = fill(template(words.key, language, counted), params, language)
    if isinstance(words, Line) and words.cite:
        return f"{cited(words.cite, language)}: {said}"
    return said


def fill(pattern: str, params: Mapping[str, Any], language: str, depth: int = 0) -> str:
    """``pattern`` with each ``{{name}}`` replaced by its parameter in ``language``."""

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            _missing(language, f"{pattern!r}", f"no parameter {name!r}")
            return match.group(0)
        return value(params[name], language, params, depth)

    return PLACEHOLDER.sub(one, pattern)


def value(given: Any, language: str, params: Mapping[str, Any] | None = None,
          depth: int = 0) -> str:
    """One parameter as ``language`` writes it."""
    if isinstance(given, bool):
        return str(given).lower()
    if isinstance(given, int | float):
        return number(given, language)
    if isinstance(given, Words):
        return render(given, language)
    if isinstance(given, Mapping):
        if "key" in given:
            return render(given, language)
        said = text(given, language)  # a book's words may name the message's parameters
        return fill(said, params or {}, language, depth + 1) if depth < 2 else said
    if isinstance(given, list | tuple):
        return ", ".join(value(v, language, params, depth) for v in given)
    return "" if given is None else str(given)


def joined(parts: Sequence[Any]) -> Any:
    """Several messages (or texts) as one parameter: "a; b; c" in the reader's language (a
    list parameter is joined with ", ", which a message holding commas cannot use)."""
    if len(parts) == 1:
        return parts[0]
    return Words("words.joined", first=parts[0], rest=joined(parts[1:]))


def t(key: str, language: str, **params: Any) -> str:
    """``render(Words(key, **params), language)``: a page's own words, written in one call."""
    return render(Words(key, **params), language)


def base_key(key: str) -> str:
    """A catalog key without its plural suffix (``line.votes_few`` -> ``line.votes``)."""
    for suffix in PLURAL_SUFFIXES:
        if key.endswith(suffix):
            return key[: -len(suffix)]
    return key


def merged(language: str) -> dict[str, str]:
    """``language``'s catalog over English's: what a page loads. Each English key the language
    has no text for (no form of it at all) is logged once."""
    own = catalog(language)
    have = {base_key(k) for k in own}
    english = catalog(FALLBACK)
    for key in sorted({base_key(k) for k in english} - have):
        _missing(language, key, "not in the catalog: English shown")
    kept = {k: v for k, v in english.items() if base_key(k) not in have}
    return {**kept, **own}


def names(codes: Iterable[str] | None = None) -> list[dict[str, str]]:
    """Each language with its own name for itself (``language.name``), for a switch."""
    return [{"code": code, "name": catalog(code).get("language.name", code)}
            for code in (languages() if codes is None else codes)]


__all__ = ["DEFAULT", "FALLBACK", "Line", "Text", "Words", "base_key", "catalog",
           "language_or_default", "languages", "merged", "names", "number", "plural", "render",
           "t", "text", "text_problems", "value"]
