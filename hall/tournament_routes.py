"""The tournament's pages on the hall board: the organiser's (behind the board's login), the
public standings for the stream (no login), and the exports.

- ``GET /tournament``: the organiser's page (``static/tournament.html``); it speaks the board's
  live channel (``/live``: the tournament's view comes with the board's, the actions go back).
- ``GET /standings``: the public standings page (``static/standings.html``) and its live
  channel ``/standings/live`` (the public view at connect and at every change), and
  ``GET /standings.json``, the same view once. No login: the public view holds the standings of
  the games over and counted, the rounds' progress, the tournament's name, and nothing of any
  game (``hall.tournament.public_view``). Its channel takes no message.
- ``GET /tournament/standings.xlsx?table=overall|main|final|<round>`` (the organiser's
  workbook, in the reader's language), ``GET /tournament/standings.csv?table=...`` (the same
  for a script) and ``GET /tournament/games.zip`` (the games as the rating platform's game
  JSON, a file each, and ``not-exported.csv``): behind the login.
- ``GET /tournament/print/tables[?round=N|?stage=main|final]`` and
  ``GET /tournament/print/players``: the seating's sheets to print on A4 (``hall.sheets``: a
  table's seats, a player's rounds), and ``GET /tournament/seating.csv``, the seating as the
  file the board loads: behind the login.
- ``GET /api/tournament`` (the organiser's view as JSON) and ``POST /api/tournament`` (one
  action, the live channel's JSON; its answer back): the same desk for a script (the simulated
  hall's organiser, ``hall.sim_tournament``), behind the login (401 without it; the POST, as
  every change, with the board's ``Origin``: ``kit.webguard``).

The routes get the parts they need (the desk, the login, the public pages), never the board.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from aiohttp import web

from hall import sheets
from hall.desk import Desk
from hall.seating import chart as seating_module
from hall.tournament import Tournament
from kit.i18n import Words
from kit.i18n import web as i18n_web
from kit.weblogin import WebLogin
from kit.webpages import Pages

STATIC = Path(__file__).parent / "static"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
DESK = web.AppKey("desk", Desk)
GATE = web.AppKey("gate", WebLogin)
PUBLIC = web.AppKey("public", Pages)


def add_routes(app: web.Application, desk: Desk, gate: WebLogin, public: Pages) -> None:
    app[DESK], app[GATE], app[PUBLIC] = desk, gate, public
    app.router.add_get("/tournament", organiser_page)
    app.router.add_get("/tournament/standings.csv", standings_csv)
    app.router.add_get("/tournament/standings.xlsx", standings_xlsx)
    app.router.add_get("/tournament/games.zip", games_zip)
    app.router.add_get("/tournament/seating.csv", seating_csv)
    app.router.add_get("/tournament/print/tables", print_tables)
    app.router.add_get("/tournament/print/players", print_players)
    app.router.add_get("/standings", public_page)
    app.router.add_get("/standings.json", public_json)
    app.router.add_get("/standings/live", public_live)
    app.router.add_get("/api/tournament", api_view)
    app.router.add_post("/api/tournament", api_act)


def public_text(desk: Desk) -> Callable[[], str]:
    """The public view as the public pages get it."""
    return lambda: json.dumps({"type": "standings", **desk.views()[1]})


async def organiser_page(request: web.Request) -> web.StreamResponse:
    request.app[GATE].require_page(request)
    return web.FileResponse(STATIC / "tournament.html")


async def public_page(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "standings.html")


async def public_json(request: web.Request) -> web.Response:
    return web.Response(text=public_text(request.app[DESK])(), content_type="application/json")


async def public_live(request: web.Request) -> web.StreamResponse:
    return await request.app[PUBLIC].serve(request, public_text(request.app[DESK]),
                                           lambda text: None)


async def standings_csv(request: web.Request) -> web.Response:
    request.app[GATE].require_page(request)
    which = request.query.get("table", "overall")
    try:
        text = request.app[DESK].standings_csv(which)
    except KeyError as exc:
        raise not_found(exc.args[0]) from None
    return web.Response(text=text, content_type="text/csv", charset="utf-8", headers={
        "Content-Disposition": f'attachment; filename="standings-{which}.csv"'})


async def standings_xlsx(request: web.Request) -> web.Response:
    request.app[GATE].require_page(request)
    which = request.query.get("table", "overall")
    try:
        data = request.app[DESK].standings_xlsx(which, i18n_web.language(request))
    except KeyError as exc:
        raise not_found(exc.args[0]) from None
    return web.Response(body=data, content_type=XLSX, headers={
        "Content-Disposition": f'attachment; filename="standings-{which}.xlsx"'})


async def games_zip(request: web.Request) -> web.Response:
    request.app[GATE].require_page(request)
    try:
        data = request.app[DESK].games_zip(i18n_web.language(request))
    except KeyError as exc:
        raise not_found(exc.args[0]) from None
    return web.Response(body=data, content_type="application/zip", headers={
        "Content-Disposition": 'attachment; filename="tournament-games.zip"'})


async def seating_csv(request: web.Request) -> web.Response:
    """The tournament's seating as the file the board loads (round, table, seat, player)."""
    request.app[GATE].require_page(request)
    tournament = _tournament(request)
    return web.Response(text=seating_module.render({r.number: r.seating
                                                    for r in tournament.rounds}),
                        content_type="text/csv", charset="utf-8", headers={
                            "Content-Disposition": 'attachment; filename="seating.csv"'})


async def print_tables(request: web.Request) -> web.Response:
    """A sheet per table per round, to print: ``?round=N`` one round, ``?stage=main|final``
    a stage, else every round."""
    request.app[GATE].require_page(request)
    tournament = _tournament(request)
    rounds = tournament.rounds
    if "stage" in request.query:
        rounds = tournament.stage(request.query["stage"])
    if request.query.get("round", "").isdigit():
        rounds = [r for r in rounds if r.number == int(request.query["round"])]
    return web.Response(text=sheets.tables_html(tournament, rounds, i18n_web.language(request)),
                        content_type="text/html")


async def print_players(request: web.Request) -> web.Response:
    """A sheet per player, to print: where each sits in each round."""
    request.app[GATE].require_page(request)
    return web.Response(text=sheets.players_html(_tournament(request),
                                                 i18n_web.language(request)),
                        content_type="text/html")


def _tournament(request: web.Request) -> Tournament:
    """The desk's tournament, or 404 with the reason."""
    tournament = request.app[DESK].tournament
    if tournament is None:
        raise not_found(Words("desk.none"))
    return tournament


def refusal(words: Words) -> dict[str, object]:
    """A refusal's JSON: ``error`` in English for a script, ``words`` for a page."""
    return {"error": str(words), "words": words.to_json()}


def not_found(words: Words) -> web.HTTPNotFound:
    return web.HTTPNotFound(text=json.dumps(refusal(words)), content_type="application/json")


async def api_view(request: web.Request) -> web.Response:
    request.app[GATE].require_live(request)
    return web.Response(text=json.dumps(request.app[DESK].views()[0]),
                        content_type="application/json")


async def api_act(request: web.Request) -> web.Response:
    request.app[GATE].require_live(request)
    try:
        message = await request.json()
        answer = request.app[DESK].act(message)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise web.HTTPBadRequest(text=json.dumps(refusal(Words("desk.malformed"))),
                                 content_type="application/json") from None
    return web.Response(text=json.dumps(answer), content_type="application/json")
