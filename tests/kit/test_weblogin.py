"""The password gate shared by the judge's panel and the hall board (kit/weblogin)."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import ClientSession, CookieJar
from aiohttp.test_utils import TestServer

from kit.weblogin import MAX_WAIT, MemorySessions, WebLogin, wrong_wait
from tests.support.web_client import behind


def test_a_wrong_password_waits_twice_as_long_each_time_up_to_a_cap():
    assert [wrong_wait(n) for n in (1, 2, 3, 4, 5, 6, 20)] == [0.5, 1, 2, 4, MAX_WAIT, MAX_WAIT,
                                                               MAX_WAIT]


def test_the_one_login_page_is_titled_and_styled_per_app_and_a_session_opens_the_app():
    sessions = MemorySessions()
    gate = WebLogin(password="s3cret", cookie="c", title="<Board & co>",
                    stylesheet="/static/b.css", sessions=sessions,
                    log=logging.getLogger("test"))

    app = behind(gate)

    async def scenario() -> None:
        async with TestServer(app) as server, ClientSession(
                cookie_jar=CookieJar(unsafe=True), cookies={"lang": "en"}) as http:
            url = str(server.make_url("/"))
            async with http.get(url + "login") as page:
                text = await page.text()
            assert "<title>&lt;Board &amp; co&gt;: log in</title>" in text
            assert 'href="/static/b.css"' in text and "$" not in text
            async with http.post(url + "login", json={"password": "s3cret"},
                                 allow_redirects=False) as not_a_form:  # no form: no password
                assert not_a_form.headers["Location"] == "/login?wrong=1"
            async with http.post(url + "login", data={"password": "s3cret"},
                                 allow_redirects=False) as right:
                token = right.cookies["c"].value
            assert sessions.session(token) and not sessions.session("other")
            async with http.get(url) as page:
                assert await page.text() == "the app"

    asyncio.run(scenario())
