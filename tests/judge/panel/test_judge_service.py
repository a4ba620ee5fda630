"""The judge service's shell without a browser: its config, its journal (a restarted panel stands
where it stood), and the live channel's answers to bad messages."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from judge.panel import config as judge_config
from judge.panel.service import Panel, handle_message
from judge.panel.views import judge_view
from kit.config import ConfigError
from kit.i18n import render
from tests.support.judge_configs import GOOD, PASSWORD, write


def test_config_paths_are_relative_to_the_file_and_timings_reach_the_game(tmp_path):
    cfg = judge_config.load(write(tmp_path, GOOD), listen="127.0.0.1:9999")
    assert cfg.panel.listen == "127.0.0.1:9999"
    assert cfg.panel.password_file == str(tmp_path / "judge.pass")
    assert cfg.journal.path == str(tmp_path / "state" / "judge.db")
    assert cfg.game_timings.speech == 45 and cfg.game_timings.defence == 30


def test_the_table_is_named_as_the_club_calls_it_one_name_or_one_per_language(tmp_path):
    assert judge_config.load(write(tmp_path, GOOD)).table_name is None  # «Стол 1» by the id
    named = judge_config.load(write(tmp_path, 'table_name = "Стол у окна"\n' + GOOD))
    assert named.table_name == "Стол у окна"
    both = judge_config.load(write(tmp_path, "table_name = { ru = 'Стол у окна', "
                                             "en = 'Window table' }\n" + GOOD))
    assert both.table_name == {"ru": "Стол у окна", "en": "Window table"}


@pytest.mark.parametrize(("body", "password", "says"), [
    (GOOD, None, "panel.password_file: file not found"),
    (GOOD, "", "the file is empty"),
    (GOOD.replace('listen = "127.0.0.1:0"', 'listen = "nowhere"'), PASSWORD, "listen"),
    (GOOD.replace("speech = 45", "speech = -1"), PASSWORD, "speech"),
    (GOOD + "colour = 1\n", PASSWORD, "colour"),
    ("table = 'a b'\n" + GOOD.split("\n", 2)[2], PASSWORD, "table"),
    ("table_name = ''\n" + GOOD, PASSWORD, "table_name"),
    ("table_name = { ru = 'Стол 1' }\n" + GOOD, PASSWORD, "table_name: no 'en' text"),
    ("table_name = { ru = 'Стол 1', en = 'Table 1', rus = 'x' }\n" + GOOD, PASSWORD,
     "table_name.rus: no such language"),
])
def test_a_bad_config_is_refused_naming_the_key(tmp_path, body, password, says):
    with pytest.raises(ConfigError, match=says):
        judge_config.load(write(tmp_path, body, password))


def act(panel: Panel, action: str, **args) -> dict | None:
    return handle_message(panel, json.dumps({"action": action, "args": args,
                                             "version": panel.game.version}))


def test_a_restarted_panel_replays_its_journal_to_the_same_game(tmp_path):
    cfg = judge_config.load(write(tmp_path, GOOD))
    panel = Panel(cfg)
    for action, args in (("name", {"seat": 3, "name": "Vera"}), ("deal", {"seed": 5}),
                         ("start", {}), ("next", {}), ("next", {}), ("foul", {"seat": 2})):
        assert act(panel, action, **args) is None
    before = judge_view(panel.game)
    panel.journal.close()
    again = Panel(cfg)
    assert judge_view(again.game) == before
    assert list(again.kept.lines) == list(panel.kept.lines)
    assert before["stage"] == "day" and before["floor"] == 1 and before["seats"][1]["fouls"] == 1


def english(refused: dict) -> str:
    """A refusal in English (its ``message`` is in the panel's language, Russian by default)."""
    return render(refused["words"], "en")


def test_the_live_channel_refuses_bad_messages_and_stale_pages_with_a_reason(tmp_path):
    panel = Panel(judge_config.load(write(tmp_path, GOOD)))
    for text in ("{not json", "[]", '{"action": 3, "version": 0}', '{"action": "next"}'):
        assert "malformed" in english(handle_message(panel, text))
    assert act(panel, "deal", seed=1) is None
    stale = handle_message(panel, json.dumps({"action": "start", "version": 0}))
    assert "another tab acted first" in english(stale)
    assert panel.game.stage == "setup"  # nothing applied
    assert "4.4.2" in act(panel, "nominate", seat=3)["message"]
    assert "no such action" in english(act(panel, "shoot", seat=3))


def test_login_wrong_passwords_are_slowed_and_nothing_opens_without_login(tmp_path):
    """A wrong password waits, longer each time; the panel and its live channel need the
    cookie a right one gives, and the live channel refuses pages of another origin."""
    from aiohttp import WSServerHandshakeError
    from aiohttp.test_utils import TestServer

    from judge.panel.service import make_app
    from tests.support.web_client import browser

    panel = Panel(judge_config.load(write(tmp_path, GOOD)))

    async def scenario() -> None:
        async with TestServer(make_app(panel)) as server, browser(server) as http:
            url = str(server.make_url("/"))
            async with http.get(url, allow_redirects=False) as page:
                assert page.status == 302 and page.headers["Location"] == "/login"
            async with http.get(url + "live") as live:
                assert live.status == 401
            waits = []
            for _ in range(2):
                started = time.monotonic()
                async with http.post(url + "login", data={"password": "guess"},
                                     allow_redirects=False) as wrong:
                    assert wrong.headers["Location"] == "/login?wrong=1"
                waits.append(time.monotonic() - started)
            assert waits[0] >= 0.5 and waits[1] >= 1.0
            assert not http.cookie_jar.filter_cookies(server.make_url("/"))
            async with http.post(url + "login", data={"password": PASSWORD},
                                 allow_redirects=False) as right:
                assert right.status == 302 and "judge_session" in right.cookies
            async with http.get(url) as page:
                assert page.status == 200 and 'id="seats"' in await page.text()
            with pytest.raises(WSServerHandshakeError) as foreign:
                await http.ws_connect(url + "live", origin="http://evil.example")
            assert foreign.value.status == 403
            async with http.ws_connect(url + "live") as ws:
                view = await ws.receive_json()
                assert view["type"] == "view" and view["game"]["stage"] == "setup"
                await ws.send_str("{not json")
                assert "malformed" in english(await ws.receive_json())

    asyncio.run(scenario())
