"""The reader's language on the project's web apps (the judge's panel, the hall board): which
one a request is read in, the catalog a page loads, and the switch that changes it.

- **Which language**: the ``lang`` cookie a switch set (one year, every path of the site), else
  the app's own default (the judge's ``[panel] language``, the board's ``--language``).
- **The switch** on a page the server writes (the login, the sheet, the games): links
  ``?lang=ru`` / ``?lang=en``; any GET with a ``lang`` query that names a catalog sets the
  cookie and comes back to the same address without it. A page drawn by its script (the panel,
  the overlay, the board) has ``i18n.js``'s switch: it sets the same cookie and draws again in
  place.
- ``GET /i18n/catalog.json`` (``?lang=`` to ask for one): the reader's language, every
  language with its own name, and the messages (the language's catalog over English's: a key it
  lacks reads in English, logged once); ``GET /i18n/i18n.js``: the pages' renderer. Neither
  needs a login: they hold no game.

    i18n.web.setup(app, default="ru")       # the app's routes and the ?lang= middleware
    language = i18n.web.language(request)   # what this request is read in
"""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable

from aiohttp import web

from kit import i18n

LANGUAGE = web.AppKey("language", str)
COOKIE = "lang"
#: a year: the tablet stays in the judge's language
COOKIE_AGE = 365 * 86400
SCRIPT = i18n.HERE / "i18n.js"
CURRENT = ' aria-current="true"'


def language(request: web.Request) -> str:
    """The language ``request`` is read in: its cookie's, else its app's default."""
    default = request.app.get(LANGUAGE, i18n.DEFAULT)
    return i18n.language_or_default(request.cookies.get(COOKIE), default)


@web.middleware
async def choose(request: web.Request,
                 handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                 ) -> web.StreamResponse:
    """A GET with ``?lang=xx`` (a catalog's language): the cookie set, the same page again."""
    wanted = request.query.get("lang")
    if request.method != "GET" or wanted is None or request.path.startswith("/i18n/") \
            or wanted not in i18n.languages():
        return await handler(request)
    rest = [(k, v) for k, v in request.query.items() if k != "lang"]
    again = web.HTTPSeeOther(str(request.rel_url.with_query(rest)))
    again.set_cookie(COOKIE, wanted, max_age=COOKIE_AGE, path="/", samesite="Strict",
                     secure=request.secure)
    raise again


async def catalog(request: web.Request) -> web.Response:
    asked = request.query.get("lang")
    lang = asked if asked in i18n.languages() else language(request)
    body = {"language": lang, "fallback": i18n.FALLBACK, "languages": i18n.names(),
            "messages": i18n.merged(lang)}
    return web.Response(text=json.dumps(body, ensure_ascii=False),
                        content_type="application/json", charset="utf-8")


async def script(request: web.Request) -> web.FileResponse:
    return web.FileResponse(SCRIPT, headers={"Content-Type": "text/javascript; charset=utf-8"})


def setup(app: web.Application, default: str = i18n.DEFAULT) -> None:
    """The catalog's routes and the ``?lang=`` switch on ``app``, read in ``default`` until a
    reader chooses."""
    app[LANGUAGE] = i18n.language_or_default(default)
    app.middlewares.append(choose)
    app.router.add_get("/i18n/catalog.json", catalog)
    app.router.add_get("/i18n/i18n.js", script)


def switch(current: str) -> str:
    """The switch of a page the server writes: a link per language, in its own name (the
    current one marked)."""
    links = " ".join(
        f'<a href="?lang={html.escape(n["code"])}" hreflang="{html.escape(n["code"])}"'
        f'{CURRENT if n["code"] == current else ""}>'
        f'{html.escape(n["name"])}</a>' for n in i18n.names())
    return f'<span class="lang-switch no-print">{links}</span>'
