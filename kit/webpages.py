"""Pages watching a web app over WebSockets: the judge's panel tabs, the stream overlays, the
hall board's pages. One fan-out for all of them (next to their one login,
:mod:`kit.weblogin`).

Each page gets a first message when it connects, then every push; what a page sends is handed
to ``answer`` and its reply (if any) goes back to that page alone. A push never waits for a slow
page: each send is a task of its own, kept until done.

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

from aiohttp import WSMsgType, web


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
                    answer: Callable[[str], dict[str, Any] | None]) -> web.WebSocketResponse:
        """One page's WebSocket, from ``first()`` until it closes."""
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self.sockets.add(ws)
        await ws.send_str(first())
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    reply = answer(message.data)
                    if reply is not None:
                        await ws.send_str(json.dumps(reply))
        finally:
            self.sockets.discard(ws)
        return ws

    async def close(self, reason: str = "stopping") -> None:
        """The app stops: every page is told why (code 1001, "going away"), and reconnects to
        the next one that runs."""
        for ws in list(self.sockets):
            await ws.close(code=1001, message=reason.encode())


async def _send(ws: web.WebSocketResponse, text: str) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_str(text)
