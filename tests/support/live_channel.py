"""The judge's live channel as a script holds it (docs/judge-api.md): the last view, actions on
its version, the offers taken as they stand; and a logged-in session on a running panel."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from tests.support.judge_panel import PASSWORD, Hands

View = dict[str, Any]


class Channel:
    """The live channel: the last view, and actions on its version."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, view: View):
        self.ws, self.view = ws, view
        self.refs = 0  # the last action's ``ref``

    async def until(self, holds: Callable[[View], bool], timeout: float = 30) -> View:
        """The first view from now on (the last one included) for which ``holds``."""
        async def wait() -> View:
            while not holds(self.view["game"]):
                message = await self.ws.receive_json()
                if message["type"] == "view":
                    self.view = message
                else:
                    raise AssertionError(f"refused: {message}")
            return self.view["game"]

        return await asyncio.wait_for(wait(), timeout)

    async def act(self, action: str, **args: Any) -> View:
        """The action, answered (its ``ref``): the game it made. A table event may move the
        game while the action travels (the panel refuses one on a version it has passed): then
        it goes again, on the view that came, as a judge taps again."""
        while True:
            self.refs += 1
            version = self.view["game"]["version"]
            await self.ws.send_json({"action": action, "args": args, "ref": self.refs,
                                     "version": version})
            answer = await asyncio.wait_for(self._answer(self.refs), 30)
            if answer["type"] == "done":  # taken on ``version``: its view may come after
                def moved(game: View, taken: int = version) -> bool:
                    return bool(game["version"] != taken)
                return await self.until(moved)
            if answer.get("field") != "version":
                raise AssertionError(f"refused: {answer}")

    async def _answer(self, ref: int) -> View:
        """The panel's answer to action ``ref``, the views before it taken in."""
        while True:
            message = await self.ws.receive_json()
            if message["type"] == "view":
                self.view = message
            elif message.get("ref") == ref:
                return message

    async def offer(self, key: str) -> View:
        """Take the view's offer ``key`` as it stands (its action and arguments)."""
        offer = next(o for o in self.view["game"]["offers"] if o["key"] == key)
        assert offer.get("enabled", True), offer
        return await self.act(offer["action"], **offer.get("args", {}))


@asynccontextmanager
async def logged_in(listen: str) -> AsyncIterator[tuple[aiohttp.ClientSession, Channel]]:
    """A browser-like session logged in to the panel at ``listen``, and its live channel
    with the first view read."""
    url = f"http://{listen}/"
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     headers={"Origin": url.rstrip("/")}) as http:
        async with http.post(url + "login", data={"password": PASSWORD}) as login:
            assert login.status == 200
        async with http.ws_connect(url + "live") as ws:
            live = Channel(ws, await ws.receive_json())
            await live.until(lambda g: True)
            yield http, live


async def counted(live: Channel, hands: Hands, candidate: int, fists: list[int]) -> None:
    """``fists`` in ``candidate``'s window, open now, until the table's count has them all
    (``Hands.all_counted``; a count that missed one rejected over the live channel)."""
    while not hands.all_counted(candidate, fists):
        await live.until(lambda g: g["vote"] is not None
                         and (g["vote"]["proposed"] or {}).get("candidate") == candidate)
        again = hands.reopened(candidate)
        await live.offer("reject")
        again()
