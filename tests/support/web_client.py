"""An HTTP client that behaves as a browser on the app's own page, for the tests of the web
apps (aiohttp's test server on loopback): it keeps the cookies of an IP address (aiohttp's
default jar drops them) and sends the ``Origin`` of the app, as a browser sends it with every
POST and WebSocket (``kit.webguard`` refuses those without it); and an app of one page behind
a login, for the login's own tests; a session logged in to the judge's panel, and its live
channel run by a script (``live_session``); and every route
of an app, read from its router, so a route added later is tested with the others."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, CookieJar, web
from aiohttp.test_utils import BaseTestServer, TestServer

from kit.weblogin import WebLogin
from tests.support.judge_configs import PASSWORD


def origin(server: BaseTestServer) -> str:
    """The ``Origin`` of the app's own pages: ``http://127.0.0.1:PORT``."""
    return str(server.make_url("/").origin())


def browser(server: BaseTestServer, **kwargs: Any) -> ClientSession:
    """A session as the app's own page in a browser."""
    return ClientSession(cookie_jar=CookieJar(unsafe=True), headers={"Origin": origin(server)},
                         **kwargs)


def behind(gate: WebLogin, page: str = "the app") -> web.Application:
    """An app of one page, ``/``, behind ``gate`` (answering ``page``), and its login routes."""
    async def index(request: web.Request) -> web.StreamResponse:
        gate.require_page(request)
        return web.Response(text=page)

    app = web.Application()
    app.router.add_get("/", index)
    gate.add_routes(app)
    return app


async def logged_in(server: BaseTestServer) -> ClientSession:
    """A browser session on the judge's panel at ``server``, logged in (``PASSWORD``, the
    password ``tests.support.judge_configs`` writes)."""
    http = browser(server)
    async with http.post(server.make_url("/login"), data={"password": PASSWORD},
                         allow_redirects=False) as right:
        assert right.status == 302
    return http


def live_session(panel: Any, script: Callable[[Any, Callable[[], Awaitable[dict]]],
                                               Awaitable[None]]) -> list[dict]:
    """Log in to ``panel`` (a ``judge.panel.service.Panel``) served on loopback, open its live
    channel and run ``script(ws, receive)``; every frame the panel sent, in order. The panel's
    journal and games are closed after."""
    from judge.panel.service import make_app

    frames: list[dict] = []

    async def main() -> None:
        panel.loop = asyncio.get_running_loop()
        async with TestServer(make_app(panel)) as server, browser(server) as http:
            url = str(server.make_url("/"))
            async with http.post(url + "login", data={"password": PASSWORD},
                                 allow_redirects=False) as login:
                assert login.status == 302
            async with http.ws_connect(url + "live") as ws:
                async def receive() -> dict:
                    frame = await asyncio.wait_for(ws.receive_json(), 10)
                    frames.append(frame)
                    return frame

                await script(ws, receive)

    asyncio.run(main())
    panel.journal.close()
    panel.games.close()
    return frames


def routes(app: web.Application, id: str) -> list[tuple[str, str, bool]]:
    """(method, path, static) of every route of ``app``, placeholders filled with ``id``; a
    static route's path is a file in its folder."""
    found = []
    for route in app.router.routes():
        info = route.resource.get_info() if route.resource is not None else {}
        path = info.get("path") or info.get("formatter") or info.get("prefix")
        assert path, f"a route of no path: {route}"
        static = isinstance(route.resource, web.StaticResource)
        if static:
            path += "/" + sorted(p.name for p in Path(info["directory"]).iterdir())[0]
        found.append((route.method, re.sub(r"\{\w+\}", id, path), static))
    return found
