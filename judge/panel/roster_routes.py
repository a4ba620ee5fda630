"""The roster's routes, behind the panel's login (docs/judge.md, "The players of the evening"):

- ``GET /api/roster``: ``{"names": [{"name", "games"}], "count"}``, the most played first
  (the page offers them as a name is typed);
- ``POST /api/roster``: a roster file (the CSV itself as the body): ``{"added", "respelled",
  "total", "words"}``, or 400 ``{"error", "words"}`` naming each problem by its line, and
  nothing changed (``judge.panel.roster_csv``); 413 for a file over 1 MiB;
- ``GET /roster.csv``: the roster for the reader's spreadsheet (their language's separator).

A POST comes from the panel's own page only (``kit.webguard``, as every change).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import msgspec
from aiohttp import web

from judge.panel.roster import Roster
from judge.panel.roster_csv import MAX_BYTES, RosterFileError
from kit.i18n import Words
from kit.i18n import web as i18n_web

log = logging.getLogger("judge")


@dataclass(frozen=True)
class Served:
    """What the routes serve: the roster, behind the panel's login."""

    roster: Roster
    logged_in: Callable[[web.Request], bool]


SERVED = web.AppKey("roster", Served)


def register(app: web.Application, roster: Roster,
             logged_in: Callable[[web.Request], bool]) -> None:
    app[SERVED] = Served(roster, logged_in)
    app.router.add_get("/api/roster", names)
    app.router.add_post("/api/roster", load)
    app.router.add_get("/roster.csv", download)


def _refused(kind: type[web.HTTPException], words: Words) -> web.HTTPException:
    """A refusal: the English for a script and the log, the words for the page."""
    return kind(text=msgspec.json.encode({"error": str(words), "words": words.to_json()})
                .decode(), content_type="application/json")


def _login(request: web.Request) -> Roster:
    """The roster, for a logged-in page; else to the login (a browser's link), or 401."""
    served = request.app[SERVED]
    if not served.logged_in(request):
        if request.method == "GET" and request.path == "/roster.csv":
            raise web.HTTPFound("/login")
        raise _refused(web.HTTPUnauthorized, Words("games.refused.login"))
    return served.roster


async def names(request: web.Request) -> web.Response:
    roster = _login(request)
    listed = [{"name": name, "games": games} for name, games in roster.names()]
    return web.json_response({"names": listed, "count": len(listed)})


async def load(request: web.Request) -> web.Response:
    roster = _login(request)
    if request.content_length is not None and request.content_length > MAX_BYTES:
        raise _refused(web.HTTPRequestEntityTooLarge,
                       Words("panel.roster.refused.size", kib=MAX_BYTES // 1024))
    data = await request.content.read(MAX_BYTES + 1)
    try:
        loaded = roster.load(data)
    except RosterFileError as exc:
        log.warning("a roster file refused (%d bytes): %s", len(data), exc)
        raise _refused(web.HTTPBadRequest, exc.words) from None
    log.info("a roster file loaded: %d added, %d respelled, %d in all", loaded.added,
             loaded.respelled, loaded.total)
    words = Words("panel.roster.loaded",
                  added=Words("panel.roster.added", count=loaded.added),
                  respelled=Words("panel.roster.respelled", count=loaded.respelled),
                  total=Words("panel.roster.total", count=loaded.total))
    return web.json_response({"added": loaded.added, "respelled": loaded.respelled,
                              "total": loaded.total, "words": words.to_json()})


async def download(request: web.Request) -> web.Response:
    roster = _login(request)
    return web.Response(body=roster.csv(i18n_web.language(request)),
                        content_type="text/csv", charset="utf-8", headers={
                            "Content-Disposition": 'attachment; filename="roster.csv"'})
