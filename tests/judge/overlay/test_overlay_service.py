"""The stream overlay on the judge's service, without a browser: its config, its token, its
JSON endpoints and live channel over real HTTP (aiohttp's test server on loopback), and its
history after a restart."""

from __future__ import annotations

import asyncio
import json

import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from judge.game import Action
from judge.overlay.routes import OVERLAY
from judge.overlay.view import overlay_view
from judge.panel import config as judge_config
from judge.panel.service import Panel, handle_message, make_app
from kit import webpages
from kit.config import ConfigError
from tests.support.judge_configs import GOOD, PASSWORD, write
from tests.support.web_client import origin

SECRET = GOOD + """[overlay]
secrets = true
delay = 30
token_file = "overlay.token"
club = "Red Square"
"""
TOKEN = "stream-token-1"


def config(tmp_path, body: str = GOOD, token: str | None = TOKEN):
    if token is not None:
        (tmp_path / "overlay.token").write_text(token + "\n")
    return judge_config.load(write(tmp_path, body, PASSWORD))


@pytest.mark.parametrize(("body", "token", "says"), [
    (SECRET.replace("delay = 30", "delay = 0"), TOKEN, "overlay.delay"),
    (SECRET.replace("delay = 30", "delay = 7200"), TOKEN, "delay"),
    (SECRET.replace('token_file = "overlay.token"\n', ""), TOKEN, "overlay.token_file"),
    (SECRET, "", "overlay.token_file: the file is empty"),
    (SECRET, None, "overlay.token_file: file not found"),
    (SECRET + "colour = 1\n", TOKEN, "colour"),
    (SECRET + 'mafiaratings_plugin = "dist"\n', TOKEN, "no index.html"),
])
def test_a_bad_overlay_config_is_refused_naming_the_key(tmp_path, body, token, says):
    with pytest.raises(ConfigError, match=says):
        config(tmp_path, body, token)


def act(panel: Panel, action: str, **args) -> None:
    assert handle_message(panel, json.dumps({"action": action, "args": args,
                                             "version": panel.game.version})) is None


def serve(panel: Panel, check) -> None:
    """Run ``check(client)`` against the panel's app on a loopback port, as its own page."""
    async def main() -> None:
        async with TestClient(TestServer(make_app(panel))) as client:
            client.session.headers["Origin"] = origin(client.server)
            await check(client)
    asyncio.run(main())


def test_the_public_overlay_needs_no_login_and_holds_no_secret(tmp_path):
    panel = Panel(config(tmp_path, token=None))
    act(panel, "name", seat=1, name="Anna")
    act(panel, "deal", seed=3)

    async def check(client: TestClient) -> None:
        page = await client.get("/overlay")
        assert page.status == 200 and "overlay.js" in await page.text()
        view = await (await client.get("/overlay.json")).json()
        assert view["seats"][0]["name"] == "Anna" and "secrets" not in view
        assert "role" not in json.dumps(view)
        rated = await client.get("/api/get/current_game.php?token=anything")
        assert rated.headers["Access-Control-Allow-Origin"] == "*"
        body = await rated.json()
        assert body["version"] == 0 and body["game"]["players"][0]["name"] == "Anna"
        assert "role" not in json.dumps(body)
        assert (await (await client.get("/api/get/current_game.php?version=2")).json())[
            "error"].startswith("Version 2 is not supported")
        junk = await (await client.get("/api/get/current_game.php?version=x&game_id=y")).json()
        assert junk["version"] == 0 and "game" in junk  # cast as the platform casts: 0
        assert (await client.get("/live")).status == 401  # the panel's channel still is not
        async with client.ws_connect("/overlay/live") as ws:
            first = await ws.receive_json()
            assert first["type"] == "overlay" and first["stage"] == "setup"
            await ws.send_str('{"action": "start", "version": 2}')
            assert (await ws.receive_json()) == {"type": "refused",
                                                 "message": "the overlay is read-only"}
        assert panel.game.stage == "setup"  # nothing the overlay is sent acts on the game
    serve(panel, check)


def test_a_page_sending_in_a_loop_is_refused_every_time_and_logged_once(tmp_path, caplog):
    panel = Panel(config(tmp_path, token=None))

    async def check(client: TestClient) -> None:
        async with client.ws_connect("/overlay/live") as ws:
            assert (await ws.receive_json())["type"] == "overlay"
            for n in range(50):
                await ws.send_str(f'{{"action": "next", "n": {n}}}')
            for _ in range(50):
                assert (await ws.receive_json())["type"] == "refused"

        async def summed_up() -> None:  # the server's side of the socket closes after ours
            while not any("50 messages" in r.getMessage() for r in caplog.records):
                await asyncio.sleep(0.01)
        await asyncio.wait_for(summed_up(), 30)

    with caplog.at_level("WARNING", logger="judge.overlay"):
        serve(panel, check)
    lines = [r.getMessage() for r in caplog.records if r.name == "judge.overlay"]
    assert len(lines) == 2 and "refused (read-only)" in lines[0], lines
    assert panel.game.version == 0


def test_with_secrets_every_overlay_route_needs_the_token_and_none_takes_it_in_the_url(
        tmp_path, monkeypatch):
    """The view needs the token (the page itself holds no data); only the platform's endpoint
    takes it in the query, as the platform's overlay sends it."""
    monkeypatch.setattr(webpages, "ADMIT_WITHIN", 0.2)  # a page that says nothing, closed soon
    panel = Panel(config(tmp_path, SECRET))
    act(panel, "deal", seed=3)

    async def check(client: TestClient) -> None:
        for path in ("/overlay", "/overlay.json", "/overlay/live"):
            moved = await client.get(f"{path}?token={TOKEN}")  # the right one, in the URL
            assert moved.status == 400 and "not taken in the URL" in await moved.text()
        assert (await client.get("/overlay")).status == 200
        assert (await client.get("/overlay.json")).status == 403
        wrong = {"Authorization": "Bearer wrong"}
        assert (await client.get("/overlay.json", headers=wrong)).status == 403
        for hello in ("", '{"token": "wrong"}', "not json", '["x"]'):
            async with client.ws_connect("/overlay/live") as ws:
                if hello:
                    await ws.send_str(hello)
                    shut = await ws.receive()
                else:  # nothing sent: closed after the page's time to say it
                    shut = await ws.receive()
                assert shut.type == WSMsgType.CLOSE and shut.data == 1008, shut
                assert "token" in shut.extra
        refused = await client.get("/api/get/current_game.php?token=wrong")
        assert refused.status == 403 and "token" in (await refused.json())["error"]
        right = {"Authorization": f"Bearer {TOKEN}"}
        view = await (await client.get("/overlay.json", headers=right)).json()
        assert view["secrets"]["roles"] == [] and view["secrets"]["delay"] == 30  # not yet
        async with client.ws_connect("/overlay/live") as ws:
            await ws.send_str(json.dumps({"token": TOKEN}))
            assert (await ws.receive_json()) == view
        rated = await (await client.get(f"/api/get/current_game.php?token={TOKEN}")).json()
        assert rated["game"]["club"]["name"] == "Red Square"
        assert all("role" not in p for p in rated["game"]["players"])
    serve(panel, check)


def test_a_restarted_panel_s_overlay_knows_who_left_and_when_secrets_were_known(tmp_path):
    cfg = config(tmp_path, SECRET)
    panel = Panel(cfg)
    make_app(panel)
    act(panel, "deal", seed=3)
    act(panel, "start")
    act(panel, "next")
    for _ in range(4):
        act(panel, "foul", seat=5)
    panel.journal.close()
    again = Panel(cfg)
    overlay = make_app(again)[OVERLAY]
    assert overlay.history[-1][1] is again.game
    assert len(overlay.history) == 7  # every change of the game since the deal, at its time
    view = overlay.view()
    assert view["seats"][4]["left"] == {"how": "fouls", "day": 1}
    dealt_at = overlay.history[0][0]
    assert view["secrets"]["roles"] == [] and dealt_at > overlay.now() - 30


def test_a_restart_after_the_clock_moved_holds_the_replayed_secrets_a_full_delay(tmp_path):
    """The journal of a Pi that booted without the time says 1970: read as it stands, every
    secret of the game would look decades old at a restart and go on the stream at once."""
    cfg = config(tmp_path, SECRET)
    panel = Panel(cfg)
    for n, action in enumerate(("deal", "start", "next")):
        panel.journal.append(Action(action, {"seed": 3} if action == "deal" else {}),
                             1000.0 + n)
    panel.journal.close()
    again = Panel(cfg)
    assert again.game.stage == "day"
    overlay = make_app(again)[OVERLAY]
    assert overlay.view()["secrets"]["roles"] == []
    later = overlay_view(overlay.history, overlay.now() + 30.01, delay=30, secrets=True)
    assert len(later["secrets"]["roles"]) == 10


def test_the_platforms_own_overlay_build_is_served_where_it_expects_to_be(tmp_path):
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.html").write_text('<base href="/obs_plugins/players-overlay-'
                                                  'plugin/"><app-root></app-root>')
    (tmp_path / "dist" / "main.js").write_text("/* the build */")
    panel = Panel(config(tmp_path, GOOD + '[overlay]\nmafiaratings_plugin = "dist"\n',
                         token=None))

    async def check(client: TestClient) -> None:
        page = await client.get("/obs_plugins/players-overlay-plugin/")
        assert "app-root" in await page.text()
        script = await client.get("/obs_plugins/players-overlay-plugin/main.js")
        assert await script.text() == "/* the build */"
        assert (await client.get("/obs_plugins/players-overlay-plugin/../judge.pass")).status \
            == 404
    serve(panel, check)


def test_a_change_the_overlay_does_not_show_sends_no_frame(tmp_path):
    """A frame for a night step opening would tell its time (and whether the Don still
    checks): the next frame after one is the next public change."""
    panel = Panel(config(tmp_path, token=None))
    for action in ("deal", "start", *["next"] * 12):
        act(panel, action, **({"seed": 3} if action == "deal" else {}))
    assert panel.game.stage == "night" and panel.game.night == 1

    async def check(client: TestClient) -> None:
        async with client.ws_connect("/overlay/live") as ws:
            assert (await ws.receive_json())["stage"] == "night"
            act(panel, "next")  # the mafia's shot opens: nothing the hall sees
            assert panel.game.running_step == "mafia_shot"
            act(panel, "foul", seat=3)
            assert (await ws.receive_json())["seats"][2]["fouls"] == 1
    serve(panel, check)
