"""What every web app of the project does to every request, whatever its route: the judge's
panel (with the overlay) and the hall board are made with ``application()``.

- **Origin**: a request that may change something (any method but GET, HEAD and OPTIONS) and
  every WebSocket handshake must carry an ``Origin`` header naming this very site (scheme, host
  and port). One without it, or from another site, is refused with 403 and a JSON
  ``{"error": ...}`` before any handler runs; the SameSite cookie alone is not relied on
  (browsers send ``Origin`` on every POST and WebSocket; a script that leaves it out is
  refused). Refusals are counted by kind (``Guard.refused``) and logged at the first one and
  at each tenfold count, so a page or a script refused in a loop cannot fill the log.
- **Headers on every answer**: ``Cache-Control: no-store`` on everything but the static files
  (pages behind the login, the JSON, the exports, the protocol sheet, the overlay's view: a
  shared tablet's cache keeps no game), ``Referrer-Policy: same-origin`` (never
  ``no-referrer``: with it a browser sends ``Origin: null`` on the login form's POST),
  ``X-Content-Type-Options: nosniff`` and ``X-Frame-Options: DENY`` (no page in another
  site's frame).
- **A request too malformed to reach a route** (a URL or header past aiohttp's 8 KiB, a broken
  request line): aiohttp answers it 400 and logs it as an error with a traceback; it is the
  client's fault, so its log (``aiohttp.server``) says it in one warning line instead, counted
  and logged at the first one and at each tenfold count (``MalformedRequests``).

    app = webguard.application(log)     # instead of web.Application()
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from yarl import URL

from kit.logs import worth_logging

#: the methods that change nothing (RFC 9110 9.2.1), unless they open a WebSocket
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEADERS = {"Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY"}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Guard:
    """The checks and headers of one app, and the count of what it refused."""

    def __init__(self, log: logging.Logger):
        self.log = log
        self.refused: Counter[str] = Counter()  # kind ("no Origin", "foreign Origin") -> count

    def problem(self, request: web.Request) -> tuple[str, str] | None:
        """(kind, message) when ``request`` must be refused for its origin, else None."""
        websocket = request.headers.get("Upgrade", "").lower() == "websocket"
        if request.method in SAFE_METHODS and not websocket:
            return None
        what = "a WebSocket" if websocket else f"a {request.method}"
        only = ("only this site's own pages open its live channels" if websocket
                else "changes come from this site's own pages only")
        origin = request.headers.get("Origin")
        if origin is None:
            return "no Origin", f"{what} without an Origin header is refused: {only}"
        if not same_origin(origin, request):
            return "foreign Origin", f"{what} from {origin} is refused: {only}"
        return None

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        problem = self.problem(request)
        if problem is not None:
            kind, message = problem
            self.refused[kind] += 1
            count = self.refused[kind]
            if worth_logging(count):
                self.log.warning("%s %s from %s refused (%s; %d so far): %s", request.method,
                                 request.path, request.remote, kind, count, message)
            raise web.HTTPForbidden(text=json.dumps({"error": message}),
                                    content_type="application/json")
        return await handler(request)

    async def headers(self, request: web.Request, response: web.StreamResponse) -> None:
        """``on_response_prepare``: the headers of every answer (static files cacheable)."""
        response.headers.update(HEADERS)
        if not isinstance(request.match_info.route.resource, web.StaticResource):
            response.headers["Cache-Control"] = "no-store"


GUARD = web.AppKey("guard", Guard)


class MalformedRequests(logging.Filter):
    """On aiohttp's server log: a request it could not parse, which it has answered 400, is a
    warning line of the client's fault (counted, at the 1st, 10th, 100th...), not an error
    with a traceback; every other record passes as it is."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, HttpProcessingError):
            return True
        self.count += 1
        if not worth_logging(self.count):
            return False
        remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        record.msg = "a malformed request from %s refused (%d so far): %s"
        record.args = (remote, self.count, str(exc).replace("\n", " ")[:200])
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def application(log: logging.Logger) -> web.Application:
    """A new app with its guard (``app[GUARD]``) in front of every route (and aiohttp's server
    log told that a malformed request is a warning, once per process)."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, MalformedRequests) for f in server_log.filters):
        server_log.addFilter(MalformedRequests())
    guard = Guard(log)
    app = web.Application(middlewares=[guard.middleware])
    app[GUARD] = guard
    app.on_response_prepare.append(guard.headers)
    return app


def same_origin(origin: str, request: web.Request) -> bool:
    """Whether ``origin`` (an ``Origin`` header) is the site ``request`` was made to."""
    try:
        theirs = URL(origin)
        ours = request.url
    except ValueError:
        return False
    return (theirs.scheme.lower(), (theirs.host or "").lower(), theirs.port) == (
        ours.scheme.lower(), (ours.host or "").lower(), ours.port)
