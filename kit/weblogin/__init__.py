"""The password gate of a web page the project serves: the judge's panel and the hall board.

One shared password (read from a file by the caller), checked in constant time. A right one
gives a random session token in an ``HttpOnly``, ``SameSite=Strict`` cookie, ``Secure`` when
the page is served over HTTPS (``kit.webserve``), and a "known browser" cookie (400 days, only
sent to ``/login``). How often a password is checked is ``kit.weblogin.throttle``'s: a wrong one
is answered after a wait that doubles with each wrong try from its address (0.5 s, 1 s, 2 s..
at most 8 s), and during that wait that address's tries are not checked at all (429, "try again
in N s"); beyond 20 wrong tries in 10 minutes from browsers never logged in here, those are not
checked either until the window moves on, so a spray from many addresses is held too. A known
browser is held only by its own wrong tries: the judge's tablet gets in while strangers spray.
Where the session tokens are kept is the caller's choice (``SessionStore``): the panel keeps
them in its journal, so a restart logs nobody out; the board keeps them in memory. The known
browser cookie is an id and its HMAC under a key derived from the password (scrypt), so it
outlives a restart with nothing stored and means nothing once the password changes.

A page behind the gate calls ``require_page`` (no session: to ``/login``); its live WebSocket
calls ``require_live`` (no session: 401). That a POST or a WebSocket comes from the app's own
pages is the app's guard's check (``kit.webguard``), for every route. The login page is one
template, ``login.html``, titled (``Words``) and styled per app, in the reader's language
(``kit.i18n.web``) with its switch.

    gate = WebLogin(password=..., cookie="judge_session", title=Words("panel.title"),
                    stylesheet="/static/panel.css", sessions=journal, log=log)
    gate.add_routes(app)   # GET and POST /login
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import logging
import math
import secrets
import string
import time
from collections.abc import Awaitable, Callable
from functools import cached_property
from pathlib import Path
from typing import Protocol

from aiohttp import web

from kit import i18n
from kit.i18n import Words
from kit.i18n import web as i18n_web
from kit.logs import worth_logging
from kit.weblogin.throttle import MAX_WAIT, Throttle, address_key, wrong_wait

__all__ = ["MAX_WAIT", "MemorySessions", "SessionStore", "WebLogin", "wrong_wait"]

TEMPLATE = string.Template((Path(__file__).parent / "login.html").read_text(encoding="utf-8"))
#: how long a browser stays known to the login (Chromium keeps no cookie longer)
KNOWN_FOR_S = 400 * 86400


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


class WebLogin:
    """The gate of one app: its password, its cookies, its sessions, its throttle and its login
    page. ``clock`` and ``pause`` (the wait before a wrong password's answer) are the
    monotonic clock and ``asyncio.sleep`` but for tests on a fake clock."""

    def __init__(self, *, password: str, cookie: str, title: Words | str, stylesheet: str,
                 sessions: SessionStore | None = None, log: logging.Logger,
                 clock: Callable[[], float] = time.monotonic,
                 pause: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.password = password
        self.cookie = cookie
        self.known_cookie = f"{cookie}_known"
        self.sessions: SessionStore = sessions if sessions is not None else MemorySessions()
        self.throttle = Throttle()
        self.held = 0  # tries answered "try again later", unchecked
        self.log = log
        self.title = title
        self.clock, self.pause = clock, pause
        self.stylesheet = stylesheet

    def logged_in(self, request: web.Request) -> bool:
        return self.sessions.session(request.cookies.get(self.cookie, ""))

    def require_page(self, request: web.Request) -> None:
        """A page: without a session, off to the login page."""
        if not self.logged_in(request):
            raise web.HTTPFound("/login")

    def require_live(self, request: web.Request) -> None:
        """A live WebSocket: a session (its origin is the app guard's check)."""
        if not self.logged_in(request):
            raise web.HTTPUnauthorized(text="log in first")

    def page(self, language: str, held: Words | None = None) -> str:
        """The login page in ``language`` (``held``: why the last try was not checked)."""
        said = "" if held is None else i18n.render(held, language)
        notice = f'\n  <p id="held" role="alert">{html.escape(said)}</p>' if held else ""
        return TEMPLATE.substitute(
            title=html.escape(self._title(language)), language=language,
            stylesheet=html.escape(self.stylesheet), held=notice,
            wrong=html.escape(i18n.t("login.wrong", language)),
            password=html.escape(i18n.t("login.password", language)),
            login=html.escape(i18n.t("login.button", language)),
            heading=html.escape(i18n.t("login.title", language,
                                       title=self._title(language))),
            switch=i18n_web.switch(language))

    def _title(self, language: str) -> str:
        """The app's name in ``language`` (a plain text is shown as it is)."""
        return self.title if isinstance(self.title, str) else i18n.render(self.title, language)

    async def login_page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=self.page(i18n_web.language(request)), content_type="text/html")

    async def login(self, request: web.Request) -> web.StreamResponse:
        """Check the posted password, when the throttle lets it be checked now: to ``/`` with
        a new session, or back to the login page after the wait; held: 429 at once."""
        form = await request.post()
        now = self.clock()
        known = self._known_id(request)
        who = f"browser {known}" if known else address_key(request.remote)
        wait = self.throttle.held(who, known is not None, now)
        if wait > 0:
            return self._held(request, wait,
                              spray=known is None and self.throttle.budget_spent(now))
        if hmac.compare_digest(str(form.get("password", "")).encode(), self.password.encode()):
            self.throttle.right(who)
            token = secrets.token_urlsafe(24)
            self.sessions.add_session(token, time.time())
            response = web.HTTPFound("/")
            secure = request.secure
            response.set_cookie(self.cookie, token, httponly=True, samesite="Strict",
                                secure=secure, path="/")
            kept = request.cookies[self.known_cookie] if known else self._new_known()
            response.set_cookie(self.known_cookie, kept, httponly=True,
                                samesite="Strict", secure=secure, path="/login",
                                max_age=KNOWN_FOR_S)
            raise response
        pause = self.throttle.wrong(who, known is not None, now)
        self.log.warning("wrong password for the %s from %s (%d in a row)", str(self.title),
                         request.remote, self.throttle.failures(who))
        await self.pause(pause)
        raise web.HTTPFound("/login?wrong=1")

    def _held(self, request: web.Request, wait: float, *, spray: bool) -> web.Response:
        seconds = math.ceil(wait)
        self.held += 1
        if worth_logging(self.held):
            why = ("too many wrong passwords lately, from anywhere" if spray
                   else "wrong passwords from it in a row")
            self.log.warning("login from %s held for %d s, unchecked (%s; %d held so far)",
                             request.remote, seconds, why, self.held)
        text = Words("login.held.spray" if spray else "login.held", seconds=seconds)
        return web.Response(status=429, text=self.page(i18n_web.language(request), text),
                            content_type="text/html",
                            headers={"Retry-After": str(seconds)})

    @cached_property
    def _known_key(self) -> bytes:
        """The known-browser cookies' HMAC key: scrypt of the password (made at first use)."""
        return hashlib.scrypt(self.password.encode(), salt=f"kit.weblogin {self.cookie}".encode(),
                              n=2 ** 14, r=8, p=1, dklen=32)

    def _mac(self, id: str) -> str:
        return hmac.new(self._known_key, id.encode(), hashlib.sha256).hexdigest()

    def _new_known(self) -> str:
        id = secrets.token_urlsafe(12)
        return f"{id}.{self._mac(id)}"

    def _known_id(self, request: web.Request) -> str | None:
        """The id of the known-browser cookie this browser holds, if it is one we gave."""
        id, _, mac = request.cookies.get(self.known_cookie, "").partition(".")
        if id and mac and hmac.compare_digest(mac, self._mac(id)):
            return id
        return None

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/login", self.login_page)
        app.router.add_post("/login", self.login)
