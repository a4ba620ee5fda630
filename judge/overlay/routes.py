"""The stream overlay's shell: its page, its live channel and its two JSON endpoints, on the
judge's service (docs/overlay.md).

- ``GET /overlay``: the page for a streaming program's browser source (1920x1080, transparent);
- ``GET /overlay/live``: a WebSocket pushing ``judge.overlay.view.overlay_view`` each time it shows
  something new (no polling); it takes nothing in but the token: a message sent to it is refused;
- ``GET /overlay.json``: the same view, once;
- ``GET /api/get/current_game.php``: the view in the shape of mafiaratings' endpoint of that
  name, so the platform's own stream overlay can read this table;
- ``GET /obs_plugins/players-overlay-plugin/``: that overlay's own build, when
  ``[overlay] mafiaratings_plugin`` names it (it reads the endpoint above from its own origin).

None of them needs the judge's login, and none carries a control of the panel. With
``[overlay] token_file`` the view needs the token, and the token stays out of every URL (the
access log and a browser's history keep URLs): the page's address carries it after ``#``
(``/overlay#token=T``: a fragment never leaves the browser), and the page sends it as its
socket's first message; ``/overlay.json`` takes it as ``Authorization: Bearer T``. A token in the
query of these three is refused (400) with where it goes now. Only ``current_game.php`` takes
``?token=``, as the rating platform's overlay sends it (the access log writes ``***`` for it).
With ``[overlay] secrets`` (which requires the token) roles and night actions are added
``delay`` seconds late. The overlay follows the panel's
live view (``judge.panel.live_view``): it is one of its watchers, handed each change the panel shows
its pages (``Shown``: the game, the floor's clock, the fists), and it starts from the game's history
in the journal. It keeps its own clock (``now``); a secret coming of age later is pushed by a timer
set for its time on the loop that serves the pages.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, Protocol

from aiohttp import web

from judge.game import Game
from judge.overlay.config import OverlayConfig
from judge.overlay.mafiaratings import VERSION, current_game
from judge.overlay.view import History, Shown, overlay_view, remember
from kit.webpages import Pages

log = logging.getLogger("judge.overlay")
PAGE = Path(__file__).with_name("static") / "overlay.html"
#: where the platform's overlay is built to live (its README: ``ng build --base-href``)
PLUGIN = "/obs_plugins/players-overlay-plugin/"
#: the platform's answers are read from other origins (its api.php sends these)
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "*",
        "Access-Control-Allow-Methods": "GET, OPTIONS"}


class Overlay:
    """The game's history as the overlay needs it, and the overlay pages watching: built from
    ``history`` (the game after each input of the journal) and the change shown now."""

    def __init__(self, cfg: OverlayConfig, history: Iterable[Game], shown: Shown):
        self.cfg = cfg
        self.token = cfg.token
        # wall time at start, then the monotonic clock: a clock set forward (NTP on a Pi that
        # booted without one) cannot bring a secret out early
        self._offset = time.time() - time.monotonic()
        # a restarted panel replays its journal, whose times are the wall clock's as it was
        # then: NTP may have moved it since (a Pi that booted without the time stamps 1970),
        # so a journal time cannot say a secret is old. Every replayed change counts from
        # the start: its secrets wait a full delay again (the public view needs only order)
        start = self.now()
        self.history: History = ()
        for game in history:
            self.history = remember(self.history, game, start)
        self.history = remember(self.history, shown.game, start)
        self.timer, self.timer_at, self.down = shown.timer, self.now(), shown.down
        self.pages = Pages()
        self.reveal: asyncio.TimerHandle | None = None
        self.shown = self._compared(self.view())  # what the pages show (as compared)

    def now(self) -> float:
        return self._offset + time.monotonic()

    def view(self) -> dict[str, Any]:
        return overlay_view(self.history, self.now(), delay=self.cfg.delay,
                            secrets=self.cfg.secrets, timer=self.timer, timer_at=self.timer_at,
                            down=self.down)

    def changed(self, shown: Shown) -> None:
        """The panel changed something (the game, the floor's clock, the fists): push."""
        now = self.now()
        if shown.timer is not self.timer:
            self.timer, self.timer_at = shown.timer, now
        self.down = shown.down
        self.history = remember(self.history, shown.game, now)
        self.push()

    def push(self) -> None:
        """Send the view to every overlay page when it shows something new, and set a timer
        for the next secret still held back. Only a new view is sent: a frame for each change
        of the game would tell by its timing what the view hides (a night step opened, a
        Don's check that happens or not)."""
        view = self.view()
        shown = self._compared(view)
        if shown != self.shown:
            self.shown = shown
            if self.pages.sockets:
                self.pages.push(json.dumps(view))
        if self.cfg.secrets:
            self._next_reveal()

    def _compared(self, view: dict[str, Any]) -> str:
        # the time left is counted at ``now``: the same clock seen later is no news
        return json.dumps({**view, "timer": [self.timer, self.timer_at]}, sort_keys=True)

    def _next_reveal(self) -> None:
        """A timer for the oldest change still younger than the delay (its secrets' time), on
        the loop serving the pages (none for a panel not served: a test's, with no loop)."""
        cutoff = self.now() - self.cfg.delay
        due = next((at for at, _ in self.history if at > cutoff), None)
        if self.reveal is not None:
            self.reveal.cancel()
            self.reveal = None
        if due is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self.reveal = loop.call_later(due - cutoff + 0.005, self.push)


OVERLAY = web.AppKey("overlay", Overlay)


def _is_token(request: web.Request, given: str) -> bool:
    token = request.app[OVERLAY].token
    return token is None or hmac.compare_digest(given.encode(), token.encode())


def _no_token_in_query(request: web.Request, where: str) -> None:
    """A token in the URL is refused, with where it goes instead."""
    if "token" in request.query:
        log.warning("overlay: a token in the URL of %s from %s refused", request.path,
                    request.remote)
        raise web.HTTPBadRequest(text=f"the overlay's token is not taken in the URL any more "
                                      f"(logs and histories keep URLs): {where}")


def _refuse(request: web.Request) -> NoReturn:
    log.warning("overlay: wrong or missing token from %s for %s", request.remote, request.path)
    raise web.HTTPForbidden(text="the overlay needs its token: Authorization: Bearer ... "
                                 "(see the organiser)")


async def page(request: web.Request) -> web.StreamResponse:
    """The page holds no data: it needs no token (its socket does)."""
    _no_token_in_query(request, "put it after '#': /overlay#token=...")
    return web.FileResponse(PAGE)


def _hello(request: web.Request, text: str) -> bool:
    """The page's first message, ``{"token": "..."}``: the right token?"""
    try:
        given = json.loads(text).get("token")
    except (ValueError, AttributeError, RecursionError):
        given = None
    if isinstance(given, str) and _is_token(request, given):
        return True
    log.warning("overlay: wrong or missing token from %s for the live channel",
                request.remote)
    return False


async def live(request: web.Request) -> web.StreamResponse:
    """The overlay's channel: the view now, then at every change; nothing is taken in. With a
    token set, the view comes after the page's first message gave it."""
    _no_token_in_query(request, 'send {"token": "..."} as the first message')
    overlay = request.app[OVERLAY]
    refused = 0

    def refuse(text: str) -> dict[str, Any]:
        nonlocal refused
        refused += 1
        if refused == 1:  # logged once a page: a page sending in a loop must not fill the log
            log.warning("overlay: a message from %s refused (read-only)", request.remote)
        return {"type": "refused", "message": "the overlay is read-only"}

    admit = None if overlay.token is None else (lambda text: _hello(request, text))
    try:
        return await overlay.pages.serve(request, lambda: json.dumps(overlay.view()), refuse,
                                         admit=admit, refusal="the overlay's token is wrong "
                                                              "or missing (see the organiser)")
    finally:
        if refused > 1:
            log.warning("overlay: %d messages from %s refused in all", refused, request.remote)


async def snapshot(request: web.Request) -> web.StreamResponse:
    _no_token_in_query(request, "send it as Authorization: Bearer ...")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if not _is_token(request, given if scheme.lower() == "bearer" else ""):
        _refuse(request)
    return web.json_response(request.app[OVERLAY].view(), headers=CORS)


async def mafiaratings(request: web.Request) -> web.StreamResponse:
    """``current_game.php`` as the platform answers it: ``{"game": ..., "version": 0}``; a
    wrong token or a version it does not have: ``{"error": ..., "version": N}``."""
    try:
        version = int(request.query.get("version", VERSION))
    except ValueError:
        version = 0  # the platform casts the parameter: junk is version 0
    if version > VERSION:
        return web.json_response({"error": f"Version {version} is not supported by Get "
                                           f"Currently Played Game API. Current version is "
                                           f"{VERSION}.", "version": version}, headers=CORS)
    if not _is_token(request, request.query.get("token", "")):  # as the platform sends it
        log.warning("overlay: wrong or missing token from %s for %s", request.remote,
                    request.path)
        return web.json_response({"error": "wrong or missing token", "version": version},
                                 status=403, headers=CORS)
    overlay = request.app[OVERLAY]
    return web.json_response(current_game(overlay.view(), overlay.cfg.club), headers=CORS)


class Followed(Protocol):
    """What the overlay follows: the panel's live view (``judge.panel.live_view.LiveView``),
    which tells its ``watchers`` of each change it shows."""

    watchers: list[Callable[[Shown], None]]

    def shown(self) -> Shown: ...


def add_routes(app: web.Application, cfg: OverlayConfig, history: Iterable[Game],
               followed: Followed) -> None:
    """The overlay on the panel's app (``make_app`` calls this), following the panel's live
    view from the game's ``history`` on."""
    app[OVERLAY] = overlay = Overlay(cfg, history, followed.shown())
    followed.watchers.append(overlay.changed)
    app.router.add_get("/overlay", page)
    app.router.add_static("/static/overlay", PAGE.parent)
    app.router.add_get("/overlay/live", live)
    app.router.add_get("/overlay.json", snapshot)
    app.router.add_get("/api/get/current_game.php", mafiaratings)
    if overlay.cfg.mafiaratings_plugin is not None:
        plugin = Path(overlay.cfg.mafiaratings_plugin)

        async def plugin_page(request: web.Request) -> web.StreamResponse:
            return web.FileResponse(plugin / "index.html")

        app.router.add_get(PLUGIN, plugin_page)
        app.router.add_static(PLUGIN, plugin)

    async def close(app: web.Application) -> None:
        if overlay.reveal is not None:
            overlay.reveal.cancel()
        await overlay.pages.close("overlay stopping")

    app.on_shutdown.append(close)
