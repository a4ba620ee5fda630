"""Which catalog messages take a count and have no plural forms (docs/i18n.md, "Plurals").

A message *takes a count* when a word of it agrees with a number it is given: how many votes,
players, games, points; how many seats a list names ("Игрок 6 покидает стол", "Игроки 5, 6
покидают стол"). Such a message needs a form per CLDR plural category, chosen by its ``count``
parameter; one written once reads wrong for one of the numbers ("Покидают стол" for one player,
"5 голос"). Three signs, each per language:

- a ``{{count}}`` in a text that holds words (``{{team}}: {{count}}`` holds none);
- a parameter followed by a noun the language declines with the number (``{{games}} игр``,
  ``{{n}} votes``); a unit's abbreviation (``{{seconds}} с``, ``s``) does not decline;
- a word beside a list of seats that agrees with how many it names (``игрок {{seats}}``,
  ``выставлены: {{seats}}``, ``{{seats}} покинули``; ``seats {{seats}}``), or a plural of
  players in a message that names none, so cannot count them (``Покидают стол``).

    assert counted_without_forms("ru") == []

tests/kit/test_i18n.py walks both catalogs with it; tests/e2e/test_every_screen.py checks, at
every screen, the messages the page rendered.
"""

from __future__ import annotations

import re

from kit import i18n

#: the parameters that are a number of things (a seat's or a day's number is no count)
NUMBERS = r"count|players|games|tables|seats|names|most|size|apart|rest|tries|min|max|votes|points"
#: nouns a number declines (their forms in the catalogs' texts), after a number of things
COUNTED = {
    "ru": re.compile(r"\{\{(?:" + NUMBERS + r")\}\}\s+("
                     r"голос|голоса|голосов|игрок|игрока|игроков|игра|игры|игр|"
                     r"фол|фола|фолов|балл|балла|баллов|очко|очка|очков|подсчёт|подсчёта|"
                     r"подсчётов|рука|руки|рук|сообщение|сообщения|сообщений|секунда|"
                     r"секунды|секунд|минута|минуты|минут|стол|стола|столов|тур|тура|туров|"
                     r"раз|раза|место|места|мест)\b"),
    "en": re.compile(r"\{\{(?:" + NUMBERS + r")\}\}\s+("
                     r"votes?|players?|games?|fouls?|points?|counts?|hands?|"
                     r"messages?|seconds?|minutes?|tables?|rounds?|times|seats?)\b"),
}
#: words that agree with how many players a list of seats names, next to it ("игрок 5, 6",
#: "убит 5", "{{seats}} покинули"; "seats 5, 6", "{{seats}} leave")
AGREEING = {
    "ru": r"покидает|покидают|покинул|покинули|выставлен|выставлена|выставлены|убит|убиты|"
          r"заморожен|заморожены|вылечен|вылечены|отравлен|отравлены|оправдан|оправданы|"
          r"выбран|выбраны|назван|названы|игрок|игроки|игрока|игроков|стрелял|стреляли|"
          r"голосует|голосуют|уходит|уходят",
    "en": r"leaves|leave|seat|seats|player|players|is|are|goes|go|was|were",
}
#: a plural of players in a message that names none, so cannot count them ("Покидают стол",
#: "They leave")
UNCOUNTED = {"ru": re.compile(r"(?<![\w-])(покидают|уходят|покинули|выставлены|убиты)(?![\w-])",
                              re.IGNORECASE),
             "en": re.compile(r"(?<![\w-])(they leave|leave the table)(?![\w-])", re.IGNORECASE)}
#: a text that says "all" of the players itself: its plural stands for any number
ALL = {"ru": re.compile(r"(?<![\w-])(все|всех)(?![\w-])", re.IGNORECASE),
       "en": re.compile(r"(?<![\w-])(all)(?![\w-])", re.IGNORECASE)}
#: the parameters that are a list of players
LISTS = ("seats",)


def forms(language: str) -> set[str]:
    """The catalog's keys that have plural forms."""
    return {i18n.base_key(k) for k in i18n.catalog(language) if i18n.base_key(k) != k}


def texts(language: str) -> dict[str, list[str]]:
    """Each key of the catalog with its texts (its plural forms', or its own)."""
    out: dict[str, list[str]] = {}
    for key, text in i18n.catalog(language).items():
        out.setdefault(i18n.base_key(key), []).append(text)
    return out


def takes_a_count(text: str, language: str) -> bool:
    """Whether a word of ``text`` agrees with a number the message is given (the module)."""
    params = set(i18n.PLACEHOLDER.findall(text))
    words = i18n.PLACEHOLDER.sub(" ", text)
    if "count" in params and re.search(r"[^\W\d_]", words):
        return True
    if COUNTED[language].search(text):
        return True
    for name in LISTS:
        beside = (rf"(?<![\w-])({AGREEING[language]})\s*[:—-]?\s*\{{\{{{name}\}}\}}|"
                  rf"\{{\{{{name}\}}\}}\)?\s+({AGREEING[language]})(?![\w-])")
        if re.search(beside, text, re.IGNORECASE):
            return True
    return not params and bool(UNCOUNTED[language].search(words)) \
        and not ALL[language].search(words)


def counted_without_forms(language: str) -> list[str]:
    """The keys of ``language``'s catalog that take a count and have no plural forms."""
    plural = forms(language)
    return sorted(key for key, said in texts(language).items()
                  if key not in plural and any(takes_a_count(t, language) for t in said))


#: each declined noun's forms by CLDR category, for a number written before it on a screen
NOUNS = {
    "ru": [{"one": "голос", "few": "голоса", "many": "голосов"},
           {"one": "игрок", "few": "игрока", "many": "игроков"},
           {"one": "фол", "few": "фола", "many": "фолов"},
           {"one": "балл", "few": "балла", "many": "баллов"},
           {"one": "рука", "few": "руки", "many": "рук"},
           {"one": "подсчёт", "few": "подсчёта", "many": "подсчётов"},
           {"one": "игра", "few": "игры", "many": "игр"}],
    "en": [{"one": "vote", "other": "votes"}, {"one": "player", "other": "players"},
           {"one": "foul", "other": "fouls"}, {"one": "point", "other": "points"},
           {"one": "hand", "other": "hands"}, {"one": "game", "other": "games"}],
}
#: a single seat's number, then a plural adjective (a check's answer for one player:
#: "проверка Шерифа 3: чёрные" where the book says "«чёрный» игрок")
_ONE_SEAT_PLURAL = re.compile(r"(?<![\d,] )(?<!\d, )\b\d+: [а-яё]+ые(?![а-яё])")


def disagreeing(texts: list[str], language: str) -> list[str]:
    """The ``texts`` where a number and the word after it disagree ("1 голосов", "2 vote"),
    or one seat is answered in the plural ("3: чёрные")."""
    found = []
    for text in texts:
        bad = language == "ru" and _ONE_SEAT_PLURAL.search(text) is not None
        for number, word in re.findall(r"(?<![\d.,])(\d+) ([^\W\d_]+)", text):
            for noun in NOUNS.get(language, []):
                wanted = noun.get(i18n.plural(language, int(number)), noun.get("other"))
                if word in noun.values() and word != wanted:
                    bad = True
        if bad:
            found.append(text)
    return found
