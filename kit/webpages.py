"""Pages watching a web app over WebSockets: the judge's panel tabs, the stream overlays, the
hall board's pages. One fan-out for all of them (next to their one login,
:mod:`kit.weblogin`).

Each page gets a first message when it connects, then every push; what a page sends is handed
to ``answer`` and its reply (if any) goes back to that page alone (a binary frame is refused
here: every channel speaks JSON text). A push never waits for a slow
page: each send is a task of its own, kept until done. A page may have to prove itself first
(``admit``: its first message, within 10 s, e.g. the overlay's token, which so stays out of
every URL); one that does not is closed with 1008 (policy violation) and ``refusal``, and never
sees a push.

    pages = Pages()
    async def live(request):            # the app's WebSocket route, behind its login
        return await pages.serve(request, lambda: json.dumps(view()), answer)
    pages.push(json.dumps(view()))      # on every change, from the app's asyncio loop
    await pages.close("board stopping") # on shutdown
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

#: the answer to a binary frame, on every channel
NOT_TEXT = json.dumps({"type": "refused", "message": "text frames only: one JSON message each"})
#: how long a page that must prove itself has for its first message, in seconds
ADMIT_WITHIN = 10.0


class PageSocket(web.WebSocketResponse):
    """aiohttp's server WebSocket, but what arrives once it is closed re-arms no heartbeat.

    aiohttp 3.14.5 (``web_ws.py``) resets the heartbeat on every arrival of data
    (``_on_data_received``, coalesced into one ``_reset_heartbeat`` a loop turn). A socket the
    server closes cancels its heartbeat in ``close()``, and then the page's close reply arrives
    and arms it again: a ``TimerHandle`` 20 s out whose ping then arms the pong's wait, and that
    chain held the closed socket, its request and its handler's frame (about 11 KiB each) in
    every refused overlay page (docs/faults.md). A closed socket has nothing to keep alive, so
    an arrival on it is not looked at here; the heartbeat of every open page is aiohttp's own.
    """

    def _on_data_received(self) -> None:
        if not self.closed:
            super()._on_data_received()


class Pages:
    """The WebSockets of the pages connected now, and the sends still under way."""

    def __init__(self) -> None:
        self.sockets: set[web.WebSocketResponse] = set()
        self._sending: set[asyncio.Future[None]] = set()

    def push(self, text: str) -> None:
        """``text`` to every page connected now."""
        for ws in list(self.sockets):
            if not ws.closed:
                task = asyncio.ensure_future(_send(ws, text))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)

    async def serve(self, request: web.Request, first: Callable[[], str],
                    answer: Callable[[str], dict[str, Any] | None],
                    admit: Callable[[str], bool] | None = None,
                    refusal: str = "refused") -> web.WebSocketResponse:
        """One page's WebSocket, from ``first()`` until it closes (after ``admit`` took its
        first message, when there is one)."""
        ws = PageSocket(heartbeat=20)
        await ws.prepare(request)
        if admit is not None and not await _admitted(ws, admit):
            await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=refusal.encode()[:120])
            return ws
        self.sockets.add(ws)
        await ws.send_str(first())
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    reply = answer(message.data)
                    if reply is not None:
                        await ws.send_str(json.dumps(reply))
                elif message.type == WSMsgType.BINARY:
                    await ws.send_str(NOT_TEXT)
        finally:
            self.sockets.discard(ws)
        return ws

    async def close(self, reason: str = "stopping") -> None:
        """The app stops: every page is told why (code 1001, "going away"), and reconnects to
        the next one that runs."""
        for ws in list(self.sockets):
            await ws.close(code=1001, message=reason.encode())


async def _admitted(ws: web.WebSocketResponse, admit: Callable[[str], bool]) -> bool:
    try:
        message = await ws.receive(timeout=ADMIT_WITHIN)
    except TimeoutError:
        return False
    return message.type == WSMsgType.TEXT and admit(message.data)


async def _send(ws: web.WebSocketResponse, text: str) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(text)
