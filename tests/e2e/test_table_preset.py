"""A book on a table set for another book (issue 36 item 9): the table says which rule preset it
plays (``state``'s ``rules``), the judge's panel shows it beside the book's and refuses to start
the game while they differ, in words that say which line to change (a notice as soon as the
table says it, and the refusal of Start), and ``examples/fiim_game.py`` stops the same way
before its deal, with no traceback. Every shipped book on a table on each shipped preset: a
real table (the simulated example table, its config's ``rules`` set to the preset) and the
panel, over a real mosquitto; the book on its own preset starts."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest
from aiohttp.test_utils import TestServer

from judge.panel import config as judge_config
from judge.panel.service import Panel, make_app
from kit.i18n import render
from tests.support.judge_panel import PASSWORD, book_game, table_config
from tests.support.judge_panel import judge_config as judge_config_file
from tests.support.mqtt import Subscriber, with_json
from tests.support.paths import REPO
from tests.support.running import Running
from tests.support.web_client import browser

#: every shipped book; each names the shipped preset of its own name (``table_preset``)
BOOKS = ["classic-000", "crow-club", "fiim", "online-003"]


def words(book: str, plays: str) -> str:
    """What the judge and the script are told of ``book`` on a table on ``plays`` (its end:
    the book's title comes before it)."""
    return (f"needs {book}: set rules = \"rules/{book}.toml\" in the table's config and restart "
            f"the table, or set the judge's [game] book to one for {plays}")


async def start_at_the_panel(tmp_path, port: int, book: str) -> tuple[dict, dict]:
    """A panel playing ``book`` on the broker at ``port``: its view once the table has said
    which preset it plays, and its answer to the judge's Start after the deal."""
    panel = Panel(judge_config.load(judge_config_file(tmp_path, port, "127.0.0.1:0",
                                                      game=book_game(book))))
    panel.link.start(asyncio.get_running_loop())
    try:
        async with TestServer(make_app(panel)) as server, browser(server) as http:
            url = str(server.make_url("/"))
            async with http.post(url + "login", data={"password": PASSWORD}) as login:
                assert login.status == 200
            async with http.ws_connect(url + "live") as ws:
                async def until(holds) -> dict[str, Any]:
                    last = None
                    while True:
                        try:
                            message = await asyncio.wait_for(ws.receive_json(), 30)
                        except TimeoutError:
                            raise AssertionError(
                                f"{book}: last view {last}; the panel saw "
                                f"{panel.live.seen.state}, broker {panel.live.seen.broker}, "
                                f"status {panel.live.seen.status}") from None
                        last = message
                        if holds(message):
                            return message

                said = await until(lambda m: m["type"] == "view"
                                   and m["table"]["rules"] is not None)
                await ws.send_json({"action": "deal", "args": {"seed": 3},
                                    "version": said["game"]["version"]})
                dealt = await until(lambda m: m["type"] == "view" and m["game"]["dealt"])
                await ws.send_json({"action": "start", "version": dealt["game"]["version"]})
                answer = await until(lambda m: m["type"] == "refused"
                                     or m["game"]["stage"] != "setup")
                return said, answer
    finally:
        panel.close()


@pytest.mark.timeout(300)
@pytest.mark.parametrize("preset", BOOKS)
def test_every_book_on_a_table_on_each_preset(tmp_path, broker, preset):
    state = Subscriber(broker.port, ["mafia/table-1/state"])
    table = Running(table_config(tmp_path, broker.port, rules=preset))
    try:
        state.wait_for(with_json("mafia/table-1/state", rules=preset))
        for book in BOOKS:
            folder = tmp_path / book
            folder.mkdir()
            said, answer = asyncio.run(start_at_the_panel(folder, broker.port, book))
            assert said["table"]["rules"] == {"plays": preset, "needs": book}
            if book == preset:
                assert answer["type"] == "view" and answer["game"]["stage"] == "night0"
                assert said["notices"] == []
                continue
            assert answer["type"] == "refused" and answer["field"] is None, answer
            assert answer["words"]["key"] == "refused.table_preset"
            assert answer["message"].startswith(f"the table plays the rule preset {preset}, and ")
            assert answer["message"].endswith(words(book, preset)), answer["message"]
            assert render(answer["words"], "ru").startswith(
                f"стол играет по набору правил {preset}, а книге ")
            assert [n["key"] for n in said["notices"]] == ["refused.table_preset"]

            script = subprocess.run(
                [sys.executable, str(REPO / "examples" / "fiim_game.py"), "--broker",
                 f"127.0.0.1:{broker.port}", "--pace", "0", "--book", book],
                capture_output=True, text=True, timeout=60)
            assert script.returncode == 1, script.stdout + script.stderr
            assert "Traceback" not in script.stderr
            assert script.stderr.strip().endswith(words(book, preset)), script.stderr
            assert "the cards are dealt" not in script.stdout  # stopped before the deal
    finally:
        table.close()
        state.close()
