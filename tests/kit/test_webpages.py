"""The pages' WebSocket fan-out (``kit.webpages``): a page refused at its first message (the
overlay's token) leaves nothing behind, however many come (docs/faults.md, "The judge's side,
fuzzed": aiohttp 3.14's heartbeat, re-armed by the page's close reply, held each one)."""

from __future__ import annotations

import asyncio
import gc

from aiohttp import WSMsgType, web
from aiohttp.test_utils import TestClient, TestServer

from kit.webpages import Pages

REFUSED = 40  # pages refused in a row


def app_of(pages: Pages) -> web.Application:
    """One channel whose pages must first say ``hello``."""
    async def live(request: web.Request) -> web.StreamResponse:
        return await pages.serve(request, lambda: '{"type": "view"}', lambda text: None,
                                 admit=lambda text: text == "hello", refusal="say hello")

    app = web.Application()
    app.router.add_get("/live", live)
    return app


def sockets_alive() -> int:
    gc.collect()
    return sum(isinstance(o, web.WebSocketResponse) for o in gc.get_objects())


def heartbeats_scheduled(loop: asyncio.AbstractEventLoop) -> int:
    """The loop's timers that would ping a page (aiohttp's heartbeat and its pong wait)."""
    scheduled = getattr(loop, "_scheduled", [])
    return sum(not h.cancelled() and ("heartbeat" in repr(h) or "pong" in repr(h))
               for h in scheduled)


def test_pages_refused_at_their_first_message_leave_no_socket_and_no_timer_behind():
    async def scenario() -> tuple[int, int, int]:
        pages = Pages()
        async with TestClient(TestServer(app_of(pages))) as client:
            before = sockets_alive()
            for _ in range(REFUSED):
                async with client.ws_connect("/live") as ws:
                    await ws.send_str("not hello")
                    shut = await ws.receive()
                    assert shut.type == WSMsgType.CLOSE and shut.data == 1008
                    assert shut.extra == "say hello"
            for _ in range(5):  # the refused pages' close replies, handled
                await asyncio.sleep(0)
            kept = sockets_alive() - before
            timers = heartbeats_scheduled(asyncio.get_running_loop())
            async with client.ws_connect("/live") as admitted:  # the channel still serves
                await admitted.send_str("hello")
                first = await admitted.receive_json()
        assert first == {"type": "view"}
        return kept, timers, len(pages.sockets)

    kept, timers, connected = asyncio.run(scenario())
    assert (kept, timers, connected) == (0, 0, 0)
