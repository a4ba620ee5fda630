"""The password gate of a web page the project serves: the judge's panel and the hall board.

One shared password (read from a file by the caller), checked in constant time. A right one
gives a random session token in an ``HttpOnly``, ``SameSite=Strict`` cookie; a wrong one is
answered only after a wait that doubles with each wrong try from that address (0.5 s, 1 s,
2 s.. at most 8 s), so guessing is slow while a mistyped password costs a person a moment.
Where the tokens are kept is the caller's choice (``SessionStore``): the panel keeps them in its
journal, so a restart logs nobody out; the board keeps them in memory.

A page behind the gate calls ``require_page`` (no session: to ``/login``); its live WebSocket
calls ``require_live`` (no session: 401; a page of another origin: 403, since browsers do not
apply the same-origin rule to WebSockets). The login page is one template, ``login.html``,
titled and styled per app.

    gate = WebLogin(password=..., cookie="judge_session", title="Judge's panel",
                    stylesheet="/static/panel.css", sessions=journal, log=log)
    gate.add_routes(app)   # GET and POST /login
"""

from __future__ import annotations

import asyncio
import hmac
import html
import logging
import secrets
import string
import time
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from aiohttp import web

TEMPLATE = string.Template((Path(__file__).parent / "login.html").read_text(encoding="utf-8"))
#: the longest a wrong password waits for its answer, in seconds
MAX_WAIT = 8.0


class SessionStore(Protocol):
    """Where the session tokens of logged-in browsers are kept."""

    def add_session(self, token: str, at: float) -> None: ...

    def session(self, token: str) -> bool: ...


class MemorySessions:
    """Tokens in memory: a restart logs every browser out."""

    def __init__(self) -> None:
        self._tokens: set[str] = set()

    def add_session(self, token: str, at: float) -> None:
        self._tokens.add(token)

    def session(self, token: str) -> bool:
        return token in self._tokens


def wrong_wait(failures: int) -> float:
    """Seconds a wrong password waits after ``failures`` wrong ones in a row from its address."""
    return min(MAX_WAIT, 0.25 * 2 ** failures)


class WebLogin:
    """The gate of one app: its password, its cookie, its sessions and its login page."""

    def __init__(self, *, password: str, cookie: str, title: str, stylesheet: str,
                 sessions: SessionStore | None = None, log: logging.Logger) -> None:
        self.password = password
        self.cookie = cookie
        self.sessions: SessionStore = sessions if sessions is not None else MemorySessions()
        self.failures: dict[str, int] = {}  # address -> wrong passwords in a row
        self.log = log
        self.title = title
        self.page = TEMPLATE.substitute(title=html.escape(title),
                                        stylesheet=html.escape(stylesheet))

    def logged_in(self, request: web.Request) -> bool:
        return self.sessions.session(request.cookies.get(self.cookie, ""))

    def require_page(self, request: web.Request) -> None:
        """A page: without a session, off to the login page."""
        if not self.logged_in(request):
            raise web.HTTPFound("/login")

    def require_live(self, request: web.Request) -> None:
        """A live WebSocket: a session, and the app's own page as its origin."""
        if not self.logged_in(request):
            raise web.HTTPUnauthorized(text="log in first")
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="the live channel is for this site's own pages")

    async def login_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self.page, content_type="text/html")

    async def login(self, request: web.Request) -> web.StreamResponse:
        """Check the posted password: to ``/`` with a new session, or back to the login page
        after the wait (``wrong_wait``)."""
        form = await request.post()
        who = request.remote or "?"
        if hmac.compare_digest(str(form.get("password", "")).encode(), self.password.encode()):
            self.failures.pop(who, None)
            token = secrets.token_urlsafe(24)
            self.sessions.add_session(token, time.time())
            response = web.HTTPFound("/")
            response.set_cookie(self.cookie, token, httponly=True, samesite="Strict")
            raise response
        failures = self.failures[who] = self.failures.get(who, 0) + 1
        self.log.warning("wrong password for the %s from %s (%d in a row)", self.title, who,
                         failures)
        await asyncio.sleep(wrong_wait(failures))
        raise web.HTTPFound("/login?wrong=1")

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/login", self.login_page)
        app.router.add_post("/login", self.login)
