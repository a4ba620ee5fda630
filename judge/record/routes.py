"""The panel's games over HTTP: the list, each game's protocol sheet, its CSV and JSON, and the
judge's edits (extra points, corrections, abandoning the game being played).

Every route is behind the panel's login. Pages:

- ``GET /games``: every game, the one being played first, by its number in the evening, its
  table as the club calls it and its local time (``judge.record.club``); ``GET /games/<id>``:
  its protocol sheet (prints on A4) with the edit forms on screen (``/games/current``: a
  redirect to the game being played's, the panel's link at game over);
  ``GET /games/<id>/results.xlsx``: the organiser's spreadsheet, in the reader's language;
  ``GET /games/<id>/results.csv``: the same for a script (identifiers, ``.`` in numbers).
- ``GET /api/games``, ``GET /api/games/<id>`` (the record, docs/record.md),
  ``GET /api/games/<id>/scores``; ``?scoring=<preset>`` picks the scoring (``fiim`` by default).
- ``GET /api/games/<id>/export/mafiaratings``: the finished game in the rating platform's format
  (docs/exports.md; ``?club=&event=&tournament=&moderator=`` its ids, ``?language=``); an
  unfinished game is refused (409) with the reason.
- ``POST /api/games/<id>/extra`` ``{"seat", "points", "reason", "by"?}``,
  ``POST /api/games/<id>/corrections`` ``{"path", "value", "reason", "by"?}``,
  ``POST /api/games/<id>/abandon`` ``{"reason", "by"?}`` (``<id>`` may be ``current``: the
  panel's Abandon button): JSON in, JSON out (a correction names its field by the record's
  JSON pointer, docs/record.md); the sheet's HTML forms post the same fields and are sent back
  to the sheet. The sheet's correction form offers what to correct in words (each player's
  name and card, each ballot's voters and count, each best move), and its ``value`` is read as
  that field is written: a text as typed, a card by its name in the book (its side corrected
  with it), seats as numbers with commas, a count in figures.

Bad input gets a 4xx with the reason and changes nothing: a body that is not the fields above,
a game that does not exist (404), abandoning a finished or archived game or correcting one still
being played (409), a correction the
record's schema refuses (400, naming the field). A POST from another origin, or with no
``Origin`` at all, is refused (403) by the panel's guard (``kit.webguard``) before any of these
routes runs; every answer carries ``Cache-Control: no-store``. A refusal is
``{"error": English, "words": {"key", "params"}}`` for a script (the panel's Abandon renders
``words``); a browser's page (``Accept: text/html``: a link followed, an address typed) gets a
small page in its reader's language instead, with the way back to the panel and the games
(``error_pages``; an address no route has too); a form posted from the sheet goes back to the
sheet with why (``?error=``: the refusal's key and parameters, rendered there).
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

import msgspec
from aiohttp import web

from judge.game import load_rules
from judge.game.book import Book
from judge.record import club
from judge.record import document as rec
from judge.record.sheet import (
    STATUS_SHORT,
    BookWords,
    TableName,
    field_path,
    protocol,
    results_csv,
    results_xlsx,
    short_name,
    why,
)
from judge.record.store import GameStore
from kit import i18n
from kit.config import ConfigError
from kit.i18n import Words
from kit.i18n import web as i18n_web
from results import mafiaratings, scoring

log = logging.getLogger("judge.games")

Text = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Who = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class _Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    reason: Text
    by: Who = rec.JUDGE


B = TypeVar("B", bound=_Body)


class ExtraIn(_Body, kw_only=True):
    seat: Annotated[int, msgspec.Meta(ge=1)]  # up to the game's seat count: the record's check
    points: scoring.Points


class CorrectionIn(_Body, kw_only=True):
    path: Annotated[str, msgspec.Meta(min_length=2, max_length=200)]
    value: Any


class AbandonIn(_Body, kw_only=True):
    pass


class Games:
    """What the routes are given: the record store, the panel's way to end the game being
    played (``abandon``: whatever runs at the table for it ends too), the login check, the
    scoring presets, and the club's name for its table (the judge's config's
    ``table_name``)."""

    def __init__(self, store: GameStore, abandon: Callable[[rec.Edit], None],
                 logged_in: Callable[[web.Request], bool], book: Book | None = None,
                 table_name: str | dict[str, str] | None = None):
        self.store, self.abandon, self.logged_in = store, abandon, logged_in
        self.presets = scoring.presets()
        self.book = book  # the panel's book: a club's copy is found by it
        self.table_name = table_name

    def table(self, record: rec.Record) -> TableName:
        """What the club calls the table ``record`` was played at."""
        return club.table_name(record.table, self.table_name
                               if record.table == self.store.table else None)

    def number(self, record: rec.Record) -> int | None:
        """``record``'s game's number in its evening (``None``: still in setup)."""
        return club.numbers(self.store.listing()).get(record.id)

    def book_for(self, record: rec.Record) -> Book | None:
        """The book a record was played by, for its words: the panel's, or a shipped one."""
        if self.book is not None and self.book.id == record.rules:
            return self.book
        try:
            return load_rules(record.rules).book
        except (ConfigError, OSError):
            return None  # a book no longer here: the sheet shows the cards by name

    def find(self, id: str) -> rec.Record:
        found = self.store.find(id)
        if found is None:
            raise _error(web.HTTPNotFound, Words("games.refused.no_game", id=id))
        return found

    def preset(self, request: web.Request) -> tuple[str, scoring.Preset]:
        name = request.query.get("scoring", "fiim")
        if name not in self.presets:
            raise _error(web.HTTPBadRequest, Words("games.refused.scoring", name=name,
                                                   names=list(self.presets)))
        return name, self.presets[name]


#: the sheet's stylesheet, served at ``/static/record/``
STATIC = Path(__file__).with_name("static")
GAMES = web.AppKey("games", Games)


def register(app: web.Application, store: GameStore, abandon: Callable[[rec.Edit], None],
             logged_in: Callable[[web.Request], bool], book: Book | None = None,
             table_name: str | dict[str, str] | None = None) -> None:
    """Add the games' routes to the panel's app (see ``Games`` for what they are given)."""
    app[GAMES] = Games(store, abandon, logged_in, book, table_name)
    app.middlewares.append(error_pages)
    app.middlewares.append(_guard)
    app.router.add_get("/games", games_page)
    app.router.add_get("/games/{id}", sheet_page)
    app.router.add_get("/games/{id}/results.csv", results)
    app.router.add_get("/games/{id}/results.xlsx", results_spreadsheet)
    app.router.add_get("/api/games", api_list)
    app.router.add_get("/api/games/{id}", api_game)
    app.router.add_get("/api/games/{id}/scores", api_scores)
    app.router.add_get("/api/games/{id}/export/mafiaratings", api_export_mafiaratings)
    app.router.add_post("/api/games/{id}/extra", post_extra)
    app.router.add_post("/api/games/{id}/corrections", post_correction)
    app.router.add_post("/api/games/{id}/abandon", post_abandon)
    app.router.add_static("/static/record", STATIC)


@web.middleware
async def _guard(request: web.Request, handler):
    """The games' routes need the login; every request refused is logged with its reason."""
    if not request.path.startswith(("/games", "/api/games")):
        return await handler(request)
    try:
        games = request.app[GAMES]
        if not games.logged_in(request):
            if request.method == "GET" and request.path.startswith("/games"):
                raise web.HTTPFound("/login")
            raise _error(web.HTTPUnauthorized, Words("games.refused.login"))
        return await handler(request)
    except web.HTTPClientError as exc:
        log.warning("%s %s from %s refused (%d): %s", request.method, request.path,
                    request.remote, exc.status, exc.text)
        raise


def _error(kind: type[web.HTTPException], words: Words, english: str = "") -> web.HTTPException:
    """A refusal for a script: ``error``, the English (``english`` when it says more than
    ``words``: a validator's own detail), and ``words`` for a page to render."""
    return kind(text=msgspec.json.encode({"error": english or str(words),
                                          "words": words.to_json()}).decode(),
                content_type="application/json")


@web.middleware
async def error_pages(request: web.Request, handler):
    """A refusal a person reads in a browser (a GET asking for ``text/html``: a link, an
    address typed) as a small page in their language, with the way back; a script keeps the
    JSON (``_error``). An address no route has is told so the same way (aiohttp's own 404,
    plain text, becomes ours)."""
    try:
        return await handler(request)
    except web.HTTPClientError as exc:
        words = _words_of(exc)
        if words is None:
            raise
        if request.method not in ("GET", "HEAD") or \
                "text/html" not in request.headers.get("Accept", ""):
            if exc.content_type == "application/json":
                raise
            raise _error(web.HTTPNotFound, words) from None  # aiohttp's own 404, as ours
        language = i18n_web.language(request)

        def t(key: str, **params: Any) -> str:
            return escape(i18n.t(key, language, **params))

        return web.Response(status=exc.status, content_type="text/html", text=f"""\
<!doctype html><html lang="{language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("games.error", status=exc.status)}</title>
<link rel="stylesheet" href="/static/record/sheet.css"></head><body>
<nav><a href="/">{t("games.panel")}</a> <a href="/games">{t("games.all")}</a>
{i18n_web.switch(language)}</nav>
<h1>{t("games.error", status=exc.status)}</h1>
<p class="error" id="error" role="alert">{escape(i18n.render(words, language))}</p>
</body></html>""")


def _words_of(exc: web.HTTPClientError) -> Words | None:
    """Why ``exc`` refused, as words: its JSON's (``_error``), or "no such page" for a 404
    of aiohttp's own; ``None`` for anything else (left as it is)."""
    if exc.content_type == "application/json" and exc.text:
        with contextlib.suppress(msgspec.DecodeError):
            given = msgspec.json.decode(exc.text)
            said = _carried_words(given.get("words")) if isinstance(given, dict) else None
            if said is not None:
                return said
    return Words("games.refused.page") if exc.status == 404 else None


def _json(value: Any) -> web.Response:
    return web.Response(body=msgspec.json.encode(value), content_type="application/json")


def summary(record: rec.Record) -> dict[str, Any]:
    return {"id": record.id, "table": record.table, "status": record.status,
            "created": record.created, "started": record.started, "ended": record.ended,
            "winner": record.winner, "abandon_reason": record.abandon_reason,
            "players": [p.name for p in record.players], "edits": len(record.history)}


# ------------------------------------------------------------------ reading


async def api_list(request: web.Request) -> web.Response:
    return _json({"games": [summary(r) for r in request.app[GAMES].store.listing()]})


async def api_game(request: web.Request) -> web.Response:
    return web.Response(body=rec.encode(request.app[GAMES].find(request.match_info["id"])),
                        content_type="application/json")


async def api_scores(request: web.Request) -> web.Response:
    games = request.app[GAMES]
    record = games.find(request.match_info["id"])
    name, preset = games.preset(request)
    return _json({"game": record.id, "scoring": name,
                  "players": scoring.score(record, preset)})


async def api_export_mafiaratings(request: web.Request) -> web.Response:
    record = request.app[GAMES].find(request.match_info["id"])
    try:
        options = mafiaratings.options_from_query(request.query)
    except msgspec.ValidationError as exc:
        raise _error(web.HTTPBadRequest, Words("games.refused.export_options", detail=str(exc)))\
            from None
    try:
        data = mafiaratings.export_json(record, options, request.app[GAMES].book_for(record))
    except mafiaratings.ExportRefused as exc:
        raise _error(web.HTTPConflict, exc.words, str(exc)) from None
    return web.Response(body=data, content_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{record.id}.mafiaratings.json"'})


async def results(request: web.Request) -> web.Response:
    """The script's CSV: the record's identifiers and numbers, in no language."""
    games = request.app[GAMES]
    record = games.find(request.match_info["id"])
    _, preset = games.preset(request)
    return web.Response(text=results_csv(record, scoring.score(record, preset)),
                        content_type="text/csv", charset="utf-8", headers={
                            "Content-Disposition": f'attachment; filename="{record.id}.csv"'})


#: an .xlsx file's media type (Office Open XML)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


async def results_spreadsheet(request: web.Request) -> web.Response:
    """The organiser's spreadsheet, in the reader's language, named as the club names the
    game («Стол 1, игра 3, 2026-12-04.xlsx»; RFC 6266's UTF-8 name, an ASCII one beside)."""
    games = request.app[GAMES]
    record = games.find(request.match_info["id"])
    _, preset = games.preset(request)
    language = i18n_web.language(request)
    number, table = games.number(record), games.table(record)
    data = results_xlsx(record, scoring.score(record, preset), language,
                        games.book_for(record), table, number)
    day = club.local(record.started or record.created).date().isoformat()
    name = f"{short_name(number, table, language)}, {day}.xlsx".replace('"', "'")
    return web.Response(body=data, content_type=XLSX, headers={
        "Content-Disposition": f'attachment; filename="{record.id}.xlsx"; '
                               f"filename*=UTF-8''{quote(name)}"})


async def games_page(request: web.Request) -> web.Response:
    language = i18n_web.language(request)
    games = request.app[GAMES]

    def t(key: str) -> str:
        return escape(i18n.t(key, language))

    listing = games.store.listing()
    numbers = club.numbers(listing)

    def link(r: rec.Record) -> str:
        n = numbers.get(r.id)
        return t("games.link.setup") if n is None else escape(i18n.t("games.link", language, n=n))

    rows = "".join(
        f'<tr data-game="{escape(r.id)}"><td><a href="/games/{escape(r.id)}">{link(r)}</a>'
        f"</td><td>{escape(i18n.value(games.table(r), language))}</td>"
        f"<td>{escape(club.moment(r.started or r.created, language))}</td>"
        f'<td data-status="{r.status}">{t(STATUS_SHORT[r.status])}</td>'
        f"<td>{escape(BookWords(games.book_for(r), language).winner(r))}</td>"
        f"<td>{escape(why(r.abandon_reason, language))}</td></tr>"
        for r in listing)
    return web.Response(text=f"""<!doctype html><html lang="{language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("games.title")}</title>
<link rel="stylesheet" href="/static/record/sheet.css"></head><body>
<nav><a href="/">{t("games.panel")}</a> {i18n_web.switch(language)}</nav>
<h1>{t("games.title")}</h1>
<table id="games"><thead><tr><th>{t("games.col.game")}</th><th>{t("games.col.table")}</th>
<th>{t("games.col.started")}</th>
<th>{t("games.col.status")}</th><th>{t("games.col.winner")}</th>
<th>{t("games.col.reason")}</th></tr></thead><tbody>{rows}</tbody></table></body></html>""",
                        content_type="text/html")


async def sheet_page(request: web.Request) -> web.Response:
    games = request.app[GAMES]
    if request.match_info["id"] == "current":  # the panel's link at game over
        current = games.store.current()
        if current is None:
            raise _error(web.HTTPNotFound, Words("games.refused.current"))
        raise web.HTTPSeeOther(str(request.rel_url.with_path(f"/games/{current.id}")))
    record = games.find(request.match_info["id"])
    name, preset = games.preset(request)
    error = request.query.get("error", "")
    language = i18n_web.language(request)
    return web.Response(text=protocol(record, scoring.score(record, preset), preset.title,
                                      _controls(record, name, games, error, language),
                                      language, games.book_for(record), games.table(record),
                                      games.number(record)),
                        content_type="text/html")


def _controls(record: rec.Record, scoring_name: str, games: Games, error: str,
              language: str) -> str:
    """The judge's forms under the sheet (not printed)."""

    def t(key: str) -> str:
        return escape(i18n.t(key, language))

    base = f"/api/games/{escape(record.id)}"
    choices = "".join(
        f'<option value="{escape(k)}"{" selected" if k == scoring_name else ""}>'
        f"{escape(i18n.text(p.title, language))}</option>" for k, p in games.presets.items())
    abandon = "" if record.status != "in_progress" else f"""
<form method="post" action="{base}/abandon" id="abandon-form"><b>{t("form.abandon")}</b>
<input name="reason" required placeholder="{t("form.why")}">
<input name="by" placeholder="{t("form.judge")}">
<button>{t("form.abandon.button")}</button></form>"""
    export = _export_link(record, language, games.book_for(record))
    book = games.book_for(record)
    cards = "" if book is None else "".join(
        f'<option value="{escape(i18n.text(r.title, language))}">' for r in book.roles.values())
    return f"""<div class="controls">
<p class="error" id="error" role="alert">{escape(_said(error, language, record))}</p>
<form method="get"><b>{t("form.scoring")}</b> <select name="scoring">{choices}</select>
<button>{t("form.show")}</button></form>
<form method="post" action="{base}/extra" id="extra-form"><b>{t("sheet.extra")}</b>
<input name="seat" type="number" min="1" max="{len(record.players)}" required
 placeholder="{t("form.seat")}">
<input name="points" type="number" step="0.05" required placeholder="{t("form.points")}">
<input name="reason" required placeholder="{t("form.reason")}">
<input name="by" placeholder="{t("form.judge")}">
<button>{t("form.add")}</button></form>
<form method="post" action="{base}/corrections" id="correction-form"><b>{t("form.correct")}</b>
<label>{t("form.what")} <select name="path" id="correction-path" required>
<option value=""></option>{_correctable(record, language)}</select></label>
<input name="value" required placeholder="{t("form.value")}" list="cards">
<datalist id="cards">{cards}</datalist>
<input name="reason" required placeholder="{t("form.reason")}">
<input name="by" placeholder="{t("form.judge")}">
<button>{t("form.correct.button")}</button>
<small class="help">{t("form.value.help")}</small></form>{abandon}{export}
</div>"""


#: the player's fields the correction form offers by name
_CORRECTABLE = ("name", "role")


def correctable(record: rec.Record) -> list[str]:
    """What the sheet's correction form offers, as the record's paths: each player's name and
    card, each ballot's voters and count, each night's best move. Anything else a script
    corrects through the API (docs/record.md)."""
    paths = [f"/players/{i}/{f}" for i in range(len(record.players)) for f in _CORRECTABLE]
    for d, day in enumerate(record.days):
        for v, vote in enumerate(day.votes):
            for b in range(len(vote.ballots)):
                ballot = f"/days/{d}/votes/{v}/ballots/{b}"
                paths += [f"{ballot}/voters", f"{ballot}/count"]
    paths += [f"/nights/{n}/best_move/guesses" for n, night in enumerate(record.nights)
              if night.best_move is not None]
    return paths


def _correctable(record: rec.Record, language: str) -> str:
    """The correction form's choices in the sheet's words (``field_path``: «игрок 7: имя»,
    «день 1, голосование 1, за игрока 6: голосовавшие»), each valued with its path: the judge
    picks what to correct and never types a path."""
    return "".join(
        f'<option value="{escape(path)}">{escape(field_path(path, record, language))}</option>'
        for path in correctable(record))


#: the record's fields that are a list of seats (docs/record.md)
SEATS = ("voters", "leftover", "guesses", "candidates", "eliminated", "tied", "picks",
         "targets", "actors", "missing", "entered")


def form_value(record: rec.Record, path: str, typed: str, book: Book | None
               ) -> list[tuple[str, Any]]:
    """What the sheet's correction form's ``typed`` value means for the field at ``path``, as
    the edits to make: a card by its name in the book (any language, or its identifier) with
    its side corrected too; seats as numbers with commas («1, 2, 3», «—» for none); a count
    in figures; a name as typed. A ``RecordError`` says what the field wants, in words (the
    field by its ``path``, which the sheet says in its reader's words: ``_said``)."""
    current = rec.read(record, path)
    text = typed.strip()
    if path.endswith("/role") and book is not None:
        titles = {i18n.text(r.title, lang).casefold(): name for name, r in book.roles.items()
                  for lang in i18n.languages()} | {name.casefold(): name for name in book.roles}
        role = titles.get(text.casefold())
        if role is None:
            raise rec.RecordError(Words("sheet.refused.card", path=path, cards=[
                dict(r.title) for r in book.roles.values()]))
        return [(path, role), (path.removesuffix("/role") + "/team", book.team_of(role))]
    if isinstance(current, list):
        if path.rsplit("/", 1)[-1] not in SEATS:  # a list of items: a script's, by the API
            raise rec.RecordError(Words("sheet.refused.api", path=path))
        if not re.fullmatch(r"[\d\s,;]*|[—-]", text):
            raise rec.RecordError(Words("sheet.refused.seats", path=path))
        return [(path, [int(n) for n in re.findall(r"\d+", text)])]
    if isinstance(current, int | float) and not isinstance(current, bool):
        try:
            number = float(text.replace(",", "."))
        except ValueError:
            raise rec.RecordError(Words("sheet.refused.number", path=path)) from None
        return [(path, int(number) if isinstance(current, int) and number.is_integer()
                 else number)]
    return [(path, typed)]


def _said(error: str, language: str, record: rec.Record) -> str:
    """The refusal the sheet's form came back with (``?error=``): its words (``_carried``) in
    the reader's language, nested words too, a field's path in the sheet's words
    (``field_path``); anything else (an old link's text) as it is."""
    try:
        given = msgspec.json.decode(error)
    except msgspec.DecodeError:
        return error
    words = _carried_words(given)
    if words is None:
        return error
    path = words.params.get("path")
    if isinstance(path, str) and path.startswith("/"):
        words = Words(words.key, **{**words.params, "path": field_path(path, record, language)})
    return i18n.render(words, language)


#: how deep words carried in an address may nest ("the game is {{status}}": one level)
_NESTED = 4


def _carried_words(given: Any, depth: int = 0) -> Words | None:
    """``{"key", "params"}`` read back as words, each parameter a number, a text, a list of
    them or words again (to ``_NESTED`` levels); anything else in it is left out. ``None``
    when ``given`` is not words."""
    if not isinstance(given, dict) or not isinstance(given.get("key"), str) \
            or depth > _NESTED:
        return None
    params = given.get("params")
    kept = {}
    for name, value in (params.items() if isinstance(params, dict) else ()):
        plain = _carried_value(value, depth)
        if plain is not None:
            kept[str(name)] = plain
    return Words(given["key"], **kept)


def _carried_value(value: Any, depth: int) -> Any:
    """A parameter carried: a number, a text, a book's text per language, a list of them or
    words; ``None`` for anything else."""
    if isinstance(value, str | int | float):
        return value
    if isinstance(value, list) and depth <= _NESTED:
        return [v for v in (_carried_value(v, depth + 1) for v in value) if v is not None]
    if isinstance(value, dict) and "key" not in value and \
            all(isinstance(v, str) for v in value.values()):
        return value  # a book's own words (a card's title), per language
    return _carried_words(value, depth + 1)


#: the longest ``?error=`` (its JSON, before the address's escaping), well inside every
#: browser's and aiohttp's limit for an address even when each character is Cyrillic
_CARRIED = 600


def _carried(why: Words) -> str:
    """``why`` as the JSON ``?error=`` carries: its key and parameters, not its rendering, so
    the sheet says it in its reader's language. Too long (a long path the judge typed): its
    longest texts are cut, each at a space where one is near, with "…"; a cut never breaks
    the JSON, and a character is never split (a Python string is cut by code points, and
    the address escapes each one's UTF-8 whole)."""
    data = why.to_json()
    for room in (None, 200, 100, 50, 20, 8):
        if room is not None:
            data = _shortened(data, room)
        said = msgspec.json.encode(data).decode()
        if len(said) <= _CARRIED:
            return said
    return msgspec.json.encode({"key": why.key, "params": {}}).decode()  # a list too long


def _shortened(data: Any, room: int) -> Any:
    """``data`` with each text longer than ``room`` characters cut to fit, with "…"."""
    if isinstance(data, str) and len(data) > room:
        cut = data[:room - 1]
        space = cut.rfind(" ")
        return (cut[:space] if space > room // 2 else cut).rstrip() + "…"
    if isinstance(data, list):
        return [_shortened(v, room) for v in data]
    if isinstance(data, dict):
        return {k: v if k == "key" else _shortened(v, room) for k, v in data.items()}
    return data


def _export_link(record: rec.Record, language: str, book: Book | None) -> str:
    """The rating platform's export: a download, or the reason there is none, in the reader's
    words (the platform's own messages too: each has its key; the cards by the book's)."""
    try:
        mafiaratings.export(record, titles=book)
    except mafiaratings.ExportRefused as exc:
        return (f'<p id="export"><b>mafiaratings</b> '
                f"{escape(i18n.t('form.export.refused', language, why=exc.words))}</p>")
    return (f'<p id="export"><a href="/api/games/{escape(record.id)}/export/mafiaratings" '
            f"download>{escape(i18n.t('form.export', language))}</a></p>")


# ------------------------------------------------------------------ the judge's edits


#: each field the sheet's forms post, by the words its box is labelled with
_FIELDS = {"seat": "form.seat", "points": "form.points", "reason": "form.reason",
           "by": "form.judge", "path": "form.what", "value": "form.value"}
#: the field msgspec names in its message: "... - at `$.seat`", "... field `reason`"
_AT = re.compile(r"at `\$\.(\w+)|missing required field `(\w+)`")


def _bad_field(exc: Exception) -> Words:
    """Why a body was refused, in words: which field (by its label on the sheet) is missing
    or does not fit; a body not of these fields at all is told so."""
    found = _AT.search(str(exc))
    if found is None or (found.group(1) or found.group(2)) not in _FIELDS:
        return Words("sheet.refused.form")
    field = Words(_FIELDS[found.group(1) or found.group(2)])
    return Words("sheet.refused.field" if found.group(1) else "sheet.refused.missing",
                 field=field)


async def _read(request: web.Request, kind: type[B]) -> B:
    """The body as ``kind``: JSON, or the sheet's form (its ``value`` a text, read as its
    field is written: ``form_value``). Refused: a script gets msgspec's English; the form goes
    back to the sheet, told which field in its reader's words (``_bad_field``)."""
    try:
        if request.content_type == "application/json":
            return msgspec.json.decode(await request.read(), type=kind)
        form: dict[str, Any] = {k: v for k, v in (await request.post()).items() if v != ""}
        return msgspec.convert(form, kind, strict=False)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError, RecursionError) as exc:
        # RecursionError: a body (or a form's value) nested past msgspec's depth limit
        raise _refused(request, request.match_info["id"], _bad_field(exc),
                       english=f"{kind.__name__[:-2].lower()}: {exc}") from None


def _done(request: web.Request, record: rec.Record) -> web.Response:
    if request.content_type == "application/json":
        return _json({"ok": True, "game": summary(record)})
    raise web.HTTPSeeOther(f"/games/{record.id}")


async def _edit(request: web.Request, edit: rec.Edit) -> web.Response:
    return _done(request, await _edit_only(request, edit))


async def _edit_only(request: web.Request, edit: rec.Edit) -> rec.Record:
    games = request.app[GAMES]
    id = request.match_info["id"]
    games.find(id)  # 404 first
    try:
        return games.store.edit(id, edit)
    except rec.RecordError as exc:
        raise _refused(request, id, exc.words, english=str(exc)) from None


def _refused(request: web.Request, id: str, why: Words,
             kind: type[web.HTTPException] = web.HTTPBadRequest,
             english: str = "") -> web.HTTPException:
    """An edit refused, with why: the sheet's form is sent back to the sheet, which shows it in
    its reader's language (``_said``); a script gets ``kind`` with the English, which is also
    what the log keeps (``english``: a ``RecordError``'s, with the validator's own detail)."""
    english = english or str(why)
    if request.content_type != "application/json":
        log.warning("%s %s refused: %s", request.method, request.path, english)
        return web.HTTPSeeOther(f"/games/{quote(id)}?error={quote(_carried(why))}")
    return _error(kind, why, english)


async def post_extra(request: web.Request) -> web.Response:
    body = await _read(request, ExtraIn)
    now = time.time()
    points = rec.ExtraPoints(seat=body.seat, points=body.points, reason=body.reason,
                             by=body.by, at=now)
    return await _edit(request, rec.Edit(kind="extra_points", at=now, by=body.by,
                                         reason=body.reason,
                                         after=msgspec.to_builtins(points)))


async def post_correction(request: web.Request) -> web.Response:
    """A correction: a script's JSON names the field's path and its value as JSON; the sheet's
    form a field it offered and the value in words (``form_value``)."""
    body = await _read(request, CorrectionIn)
    games = request.app[GAMES]
    record = games.find(request.match_info["id"])
    if record.status == "in_progress":
        raise _refused(request, record.id, Words("sheet.refused.in_progress"), web.HTTPConflict)
    try:
        changes = [(body.path, body.value)] if request.content_type == "application/json" \
            else form_value(record, body.path, str(body.value), games.book_for(record))
        edits = [rec.Edit(kind="correction", at=time.time(), by=body.by, reason=body.reason,
                          path=path, before=rec.read(record, path), after=value)
                 for path, value in changes if rec.read(record, path) != value or
                 path == body.path]
    except rec.RecordError as exc:
        raise _refused(request, record.id, exc.words, english=str(exc)) from None
    for edit in edits[:-1]:  # a card's side before the card: the last edit answers
        await _edit_only(request, edit)
    return await _edit(request, edits[-1])


async def post_abandon(request: web.Request) -> web.Response:
    """Abandon the game being played (``current`` names it, for the panel's button)."""
    body = await _read(request, AbandonIn)
    games = request.app[GAMES]
    current, id = games.store.current(), request.match_info["id"]
    if id != "current":
        record = games.find(id)
    elif current is not None:
        record = current
    else:
        raise _error(web.HTTPConflict, Words("games.refused.current"))
    if current is None or current.id != record.id:
        raise _refused(request, record.id, Words("sheet.refused.not_current"), web.HTTPConflict)
    if record.status != "in_progress":
        raise _refused(request, record.id, Words("sheet.refused.over", status=Words(
            STATUS_SHORT[record.status])), web.HTTPConflict)
    if record.started is None:
        raise _refused(request, record.id, Words("sheet.refused.not_started"), web.HTTPConflict)
    games.abandon(rec.Edit(kind="abandon", at=time.time(), by=body.by, reason=body.reason))
    return _done(request, games.store.archived(record.id) or record)
