"""The web pages safe on a club's Wi-Fi, without a browser (issue 26, item 3): every route of
the judge's panel (with the overlay) and of the hall board, read from the app's own router so a
route added later is held to the same rules:

- a change (any method but GET/HEAD/OPTIONS) and every WebSocket without an ``Origin``, or from
  another site, is refused (403) before its handler runs, changes nothing, and is counted and
  logged once (then at each tenfold count);
- every answer but a static file carries ``Cache-Control: no-store`` (the pages behind the
  login, the JSON, the exports, the sheet, the overlay's view);
- the login's slow-down holds against one address sending many tries at once and against a
  spray from many addresses (real ones: Linux routes all of 127.0.0.0/8 to loopback), on a fake
  clock, while the judge's browser, known to the login, still gets in at once;
- plain HTTP is refused on an address others reach (the judge's config, the board's command);
- the access log never holds the overlay's token;
- the local CA (``kit.pki``): name-constrained, kept, its certificate made again only when due.

Real TLS and real Chromium are tests/kit/test_web_tls.py.
"""

from __future__ import annotations

import asyncio
import logging
import re
import subprocess
import sys
from pathlib import Path

import pytest
from aiohttp import ClientSession, CookieJar, TCPConnector, WSServerHandshakeError, web
from aiohttp.test_utils import TestServer

from hall.board import make_app as board_app
from judge.panel import config as judge_config
from judge.panel.service import make_app
from kit import pki
from kit.config import ConfigError
from kit.local_broker import free_port
from kit.webguard import GUARD
from kit.weblogin import WebLogin
from kit.weblogin.throttle import (
    BUDGET,
    FORGET,
    MAX_ADDRESSES,
    WINDOW,
    Throttle,
    address_key,
    wrong_wait,
)
from kit.webserve import WebServer
from tests.support.judge_configs import GOOD, PASSWORD, write
from tests.support.paths import REPO
from tests.support.web_apps import TOKEN, board, full_panel
from tests.support.web_client import behind, browser, logged_in, origin, routes

FOREIGN = "http://evil.example"


# ------------------------------------------------------------------ Origin, on every route


def test_every_change_and_websocket_without_the_sites_origin_is_refused_on_every_route(
        tmp_path, caplog):
    panel = full_panel(tmp_path)
    record = panel.games.current()
    assert record is not None and record.status == "finished"
    app = make_app(panel)
    every = routes(app, record.id)
    changes = [(m, p) for m, p, _ in every if m not in ("GET", "HEAD")]
    gets = [p for m, p, _ in every if m == "GET"]
    assert {p for _, p in changes} >= {"/login", f"/api/games/{record.id}/extra",
                                       f"/api/games/{record.id}/corrections",
                                       f"/api/games/{record.id}/abandon"}
    assert {"/live", "/overlay/live"} <= set(gets)

    async def scenario() -> None:
        async with TestServer(app) as server:
            http = await logged_in(server)
            try:
                body = {"password": PASSWORD, "seat": "1", "points": "1", "reason": "r",
                        "path": "/players/1/name", "value": "x"}  # what each route would take
                for method, path in [*changes, *((m, p) for p in ("/", "/login")
                                                 for m in ("PUT", "DELETE", "PATCH"))]:
                    for their in (None, FOREIGN, "null"):
                        # the logged-in browser's cookies, with no Origin or another one
                        async with ClientSession(cookie_jar=http.cookie_jar, headers={} if
                                                 their is None else {"Origin": their}) as bare, \
                                bare.request(method, server.make_url(path), data=body) as r:
                            assert r.status == 403, (method, path, their, r.status)
                            assert "this site's own pages" in (await r.json())["error"]
                for path in gets:  # any of them may be a WebSocket: each handshake is refused
                    for their in (None, FOREIGN, origin(server).replace("http:", "https:")):
                        async with ClientSession(cookie_jar=http.cookie_jar) as bare:
                            with pytest.raises(WSServerHandshakeError) as refused:
                                await bare.ws_connect(server.make_url(path), origin=their)
                        assert refused.value.status == 403, (path, their)
                async with http.ws_connect(server.make_url("/live")) as ws:  # its own page
                    assert (await ws.receive_json())["type"] == "view"
            finally:
                await http.close()

    with caplog.at_level(logging.WARNING, logger="judge"):
        asyncio.run(scenario())
    assert panel.games.current() == record  # nothing edited
    assert panel.journal.session("") is False
    refused = app[GUARD].refused
    assert refused["no Origin"] == len(changes) + 6 + len(gets)
    assert refused["foreign Origin"] == 2 * (len(changes) + 6) + 2 * len(gets)
    lines = [r.getMessage() for r in caplog.records if "refused (" in r.getMessage()]
    counts = [int(re.search(r"(\d+) so far", line)[1]) for line in lines]
    assert sorted(counts) == sorted(n for kind in refused.values()
                                    for n in (1, 10, 100) if n <= kind), lines


def test_a_login_without_the_boards_origin_is_refused_and_the_board_is_guarded_alike(tmp_path):
    app = board_app(board(tmp_path))
    every = routes(app, "x")
    changes = [path for method, path, _ in every if method == "POST"]
    assert changes == ["/login", "/api/tournament"]

    async def scenario() -> None:
        async with TestServer(app) as server, ClientSession(
                cookie_jar=CookieJar(unsafe=True)) as bare:
            for headers in ({}, {"Origin": FOREIGN}):
                async with bare.post(server.make_url("/login"), headers=headers,
                                     data={"password": PASSWORD}, allow_redirects=False) as r:
                    assert r.status == 403 and "hall_board" not in r.cookies
                async with bare.post(server.make_url("/api/tournament"), headers=headers,
                                     json={}) as r:
                    assert r.status == 403
                with pytest.raises(WSServerHandshakeError) as refused:
                    await bare.ws_connect(server.make_url("/live"),
                                          origin=headers.get("Origin"))
                assert refused.value.status == 403
            http = await logged_in(server)
            try:
                async with http.ws_connect(server.make_url("/live")) as ws:
                    assert (await ws.receive_json())["type"] == "board"
                for method, path, static in every:
                    if method == "GET" and not static:
                        async with http.get(server.make_url(path)) as r:
                            assert r.headers["Cache-Control"] == "no-store", path
            finally:
                await http.close()

    asyncio.run(scenario())


# ------------------------------------------------------------------ no-store, on every route


def test_every_answer_behind_the_login_and_every_other_but_static_files_is_no_store(tmp_path):
    panel = full_panel(tmp_path)
    record = panel.games.current()
    assert record is not None
    app = make_app(panel)
    gets = [(p, static) for m, p, static in routes(app, record.id) if m == "GET"]
    assert {f"/api/games/{record.id}", f"/games/{record.id}", "/games", "/api/games",
            f"/games/{record.id}/results.csv", f"/api/games/{record.id}/scores",
            f"/api/games/{record.id}/export/mafiaratings", "/overlay.json",
            "/api/get/current_game.php"} <= {p for p, _ in gets}

    async def scenario() -> None:
        async with TestServer(app) as server:
            http = await logged_in(server)
            try:
                for path, static in gets:
                    async with http.get(server.make_url(path), headers={
                            "Authorization": f"Bearer {TOKEN}"}, params={"token": TOKEN}
                            if path.endswith(".php") else None) as r:
                        assert r.status in (200, 400), (path, r.status)  # 400: a WebSocket's
                        assert r.headers["X-Content-Type-Options"] == "nosniff"
                        assert r.headers["Referrer-Policy"] == "same-origin"
                        cache = r.headers.get("Cache-Control")
                        assert (cache is None) if static else (cache == "no-store"), (path, cache)
                for path in ("/login", "/", "/nowhere"):  # not logged in too: a refusal
                    async with ClientSession() as stranger, stranger.get(
                            server.make_url(path), allow_redirects=False) as r:
                        assert r.headers["Cache-Control"] == "no-store", path
            finally:
                await http.close()

    asyncio.run(scenario())


# ------------------------------------------------------------------ the login's slow-down


def test_one_address_waits_longer_after_each_wrong_password_and_is_not_checked_meanwhile():
    throttle, who = Throttle(), "192.0.2.7"
    t = 100.0
    for n in range(1, 7):
        assert throttle.held(who, False, t) == 0
        assert throttle.wrong(who, False, t) == wrong_wait(n)
        assert throttle.held(who, False, t + 0.01) == pytest.approx(wrong_wait(n) - 0.01)
        t += wrong_wait(n)
    assert [wrong_wait(n) for n in range(1, 7)] == [0.5, 1, 2, 4, 8, 8]
    assert throttle.held("192.0.2.8", False, t) == 0  # another address is not held by it
    throttle.right(who)
    assert throttle.held(who, False, t) == 0 and throttle.failures(who) == 0
    throttle.wrong(who, False, t)
    assert throttle.wrong(who, False, t + FORGET) == wrong_wait(1)  # quiet an hour: over


def test_a_spray_from_many_addresses_is_held_by_the_apps_budget_but_not_a_known_browser():
    throttle = Throttle()
    t = 1000.0
    for n in range(BUDGET):  # one wrong try each from BUDGET addresses, one a second
        who = f"198.51.100.{n}"
        assert throttle.held(who, False, t + n) == 0
        throttle.wrong(who, False, t + n)
    now = t + BUDGET
    assert throttle.budget_spent(now)
    assert throttle.held("198.51.100.250", False, now) == pytest.approx(WINDOW - BUDGET)
    assert throttle.held("browser judge", True, now) == 0  # the judge's tablet: at once
    assert throttle.wrong("browser judge", True, now) == 0.5  # its own wrong try waits...
    assert throttle.held("browser judge", True, now + 0.1) == pytest.approx(0.4)
    assert throttle.held("198.51.100.250", False, t + WINDOW) == 0  # the first try left it
    assert throttle.held("198.51.100.251", False, t + WINDOW + BUDGET) == 0
    assert not throttle.budget_spent(t + WINDOW + BUDGET)


def test_an_ipv6_device_counts_by_its_64_and_memory_stays_bounded():
    assert address_key("2001:db8:1:2::a") == address_key("2001:db8:1:2:ffff::1") \
        == "2001:db8:1:2::/64"
    assert address_key("::ffff:192.0.2.1") == "192.0.2.1" == address_key("192.0.2.1")
    assert address_key(None) == "?"
    throttle = Throttle(budget=10**9)
    for n in range(MAX_ADDRESSES + 50):
        throttle.wrong(f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}", False, float(n))
    assert len(throttle.wrong_by) == MAX_ADDRESSES
    assert throttle.failures("10.0.0.0") == 0 and throttle.failures("10.0.39.9") == 1


class FakeClock:
    """The login's clock, moved by the test; a wrong password's wait only moves nothing."""

    def __init__(self) -> None:
        self.now = 5000.0
        self.paused: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def pause(self, seconds: float) -> None:
        self.paused.append(seconds)


def test_over_http_a_spray_from_many_addresses_is_held_and_the_judges_tablet_still_gets_in():
    """Real addresses (127.0.0.N), the login's real routes, a fake clock."""
    clock = FakeClock()
    gate = WebLogin(password=PASSWORD, cookie="judge_session", title="Judge's panel",
                    stylesheet="/s.css", log=logging.getLogger("test.login"), clock=clock,
                    pause=clock.pause)

    app = behind(gate, "the panel")

    def from_address(server: TestServer, address: str, jar: CookieJar | None = None):
        return ClientSession(connector=TCPConnector(local_addr=(address, 0)),
                             cookie_jar=CookieJar(unsafe=True) if jar is None else jar,
                             headers={"Origin": origin(server)},
                             cookies={"lang": "en"})  # the login page in English

    async def post(http: ClientSession, server: TestServer, password: str):
        async with http.post(server.make_url("/login"), data={"password": password},
                             allow_redirects=False) as r:
            return r.status, r.headers.get("Location"), r.headers.get("Retry-After"), \
                await r.text()

    async def scenario() -> None:
        async with TestServer(app, host="127.0.0.1") as server:
            judge_jar = CookieJar(unsafe=True)
            async with from_address(server, "127.0.0.1", judge_jar) as judge:
                assert (await post(judge, server, PASSWORD))[:2] == (302, "/")  # before play
            assert "judge_session_known" in {c.key for c in judge_jar}

            clock.now += 60
            sprayed = []
            for n in range(BUDGET + 10):  # one wrong try from each of 30 addresses
                async with from_address(server, f"127.0.1.{n + 1}") as stranger:
                    sprayed.append(await post(stranger, server, f"guess-{n}"))
            checked = [s for s in sprayed if s[0] == 302]
            assert len(checked) == BUDGET and all(s[1] == "/login?wrong=1" for s in checked)
            held = sprayed[BUDGET:]
            assert all(s[0] == 429 and s[2] == str(int(WINDOW)) for s in held)
            assert "not held" in held[0][3] and "guess" not in held[0][3]
            async with from_address(server, "127.0.2.1") as new_tablet:  # never logged in
                assert (await post(new_tablet, server, PASSWORD))[0] == 429  # unchecked

            # the judge's tablet, its session gone (cleared, say), logs in again: at once
            judge_jar.clear(lambda cookie: cookie.key == "judge_session")
            paused = len(clock.paused)
            async with from_address(server, "127.0.0.1", judge_jar) as judge:
                assert (await post(judge, server, PASSWORD))[:2] == (302, "/")
                async with judge.get(server.make_url("/")) as page:
                    assert await page.text() == "the panel"
                # and its own wrong try waits, the next one is held, unchecked, till then
                assert (await post(judge, server, "typo"))[:2] == (302, "/login?wrong=1")
                assert (await post(judge, server, PASSWORD))[0] == 429
            assert clock.paused[paused:] == [wrong_wait(1)]  # the right ones never waited

            clock.now += WINDOW  # the spray's tries left the window
            async with from_address(server, "127.0.2.1") as new_tablet:
                assert (await post(new_tablet, server, PASSWORD))[:2] == (302, "/")

    asyncio.run(scenario())
    assert gate.held == 1 + 10 + 1  # the new tablet, the spray beyond the budget, the typo's


def test_many_tries_at_once_from_one_address_get_one_checked():
    """Before, each wrong try waited for its own answer, so many sent at once were all
    checked; now the first is, and the rest are held until its wait is over."""
    clock = FakeClock()
    gate = WebLogin(password=PASSWORD, cookie="c", title="t", stylesheet="/s.css",
                    log=logging.getLogger("test.login"), clock=clock, pause=clock.pause)
    app = web.Application()
    gate.add_routes(app)

    async def scenario() -> list[int]:
        async with TestServer(app) as server, browser(server) as http:
            async def one(n: int) -> int:
                async with http.post(server.make_url("/login"), data={"password": f"g{n}"},
                                     allow_redirects=False) as r:
                    return r.status
            return list(await asyncio.gather(*(one(n) for n in range(10))))

    statuses = asyncio.run(scenario())
    assert sorted(statuses) == [302] + [429] * 9 and clock.paused == [wrong_wait(1)]


# ------------------------------------------------------------------ plain HTTP, the access log


@pytest.mark.parametrize(("listen", "extra", "says"), [
    ("0.0.0.0:8080", "", "listen: 0.0.0.0:8080 is reachable from the network"),
    ("192.168.1.20:8080", "", "in the clear"),
    ("[::]:8080", "", "reachable"),
    ("pi.local:8080", "", "reachable"),
    ("127.0.0.1:8443", "insecure_http = true\n[panel.tls]\ndir = \"tls\"\n", "choose one"),
    ("127.0.0.1:8443", "[panel.tls]\ndir = \"nowhere\"\n", "mafia-table tls --dir"),
])
def test_plain_http_off_loopback_is_refused_unless_asked_for_by_name(tmp_path, listen, extra,
                                                                    says):
    pki.make_web_certificates(tmp_path / "tls", pki.Names.of(["localhost"]))
    body = GOOD.replace('listen = "127.0.0.1:0"', f'listen = "{listen}"').replace(
        "[journal]", f"{extra}[journal]")
    with pytest.raises(ConfigError, match=re.escape(says)):
        judge_config.load(write(tmp_path, body))
    if not extra:  # the option, named, lets it be; loopback needs none
        insecure = body.replace("[journal]", "insecure_http = true\n[journal]")
        assert judge_config.load(write(tmp_path, insecure)).panel.insecure_http
        assert judge_config.load(write(tmp_path, GOOD), listen="[::1]:8080").panel.tls is None


def test_the_commands_refuse_plain_http_off_loopback_with_the_reason(tmp_path):
    write(tmp_path, GOOD)
    (tmp_path / "board.pass").write_text("b\n")
    exe = str(Path(sys.executable).with_name("mafia-table"))
    for argv in (["judge", "--config", str(tmp_path / "judge.toml"), "--listen", "0.0.0.0:8080"],
                 ["hall", "board", "--password-file", str(tmp_path / "board.pass"),
                  "--board-password-file", str(tmp_path / "board.pass"),
                  "--listen", "0.0.0.0:8090"]):
        done = subprocess.run([exe, *argv], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert "0.0.0.0" in done.stderr and "in the clear" in done.stderr
        assert "--insecure-http" in done.stderr or "insecure_http" in done.stderr


def test_the_access_log_writes_no_token(tmp_path, caplog):
    panel = full_panel(tmp_path)
    listen = f"127.0.0.1:{free_port()}"
    server = WebServer(make_app(panel), listen=listen, tls=None, what="judge panel")

    async def scenario() -> None:
        await server.start()
        try:
            async with ClientSession() as http:
                for path in (f"/api/get/current_game.php?token={TOKEN}&version=0",
                             f"/overlay?token={TOKEN}", f"/overlay.json?token={TOKEN}",
                             f"/login?password={TOKEN}"):
                    async with http.get(f"http://{listen}{path}") as r:
                        assert r.status in (200, 400)
        finally:
            await server.stop()

    with caplog.at_level(logging.INFO, logger="aiohttp.access"):
        asyncio.run(scenario())
    lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert len(lines) == 4 and TOKEN not in caplog.text
    assert "/api/get/current_game.php?token=***&version=0" in lines[0]


# ------------------------------------------------------------------ the local CA


def test_the_local_ca_may_sign_local_names_only_and_is_kept(tmp_path):
    folder = tmp_path / "tls"
    wanted = pki.Names.of(["mafia-pi", "mafia-pi.local", "localhost", "127.0.0.1",
                           "192.168.1.20", "fd00::5"])
    made = pki.make_web_certificates(folder, wanted)
    assert "a new CA" in made[0] and "there was none" in made[1] and len(made) == 2
    assert pki.certificate_names(folder / "server.crt") == wanted
    ca = (folder / "ca.crt").read_bytes()
    assert pki.make_web_certificates(folder, wanted) == []  # nothing due: nothing made
    dns, networks = pki.permitted(folder / "ca.crt")
    assert set(dns) == {*pki.LOCAL_DNS, "mafia-pi"}
    assert {str(n) for n in networks} == {str(n) for n in pki.PRIVATE_NETWORKS}
    with pytest.raises(pki.PkiError, match=re.escape("may not sign bank.example, 203.0.113.9")):
        pki.make_web_certificates(folder, wanted + pki.Names.of(["bank.example",
                                                                   "203.0.113.9"]))
    # a certificate for a public name, signed by this CA's key anyway: refused by a verifier
    pki.issue(folder, "rogue", "/CN=bank.example", "subjectAltName=DNS:bank.example", days=5)
    rogue = subprocess.run(["openssl", "verify", "-CAfile", "ca.crt", "rogue.crt"], cwd=folder,
                           capture_output=True, text=True)
    assert rogue.returncode != 0 and "permitted subtree violation" in rogue.stdout + rogue.stderr

    moved = pki.Names.of(["mafia-pi.local", "192.168.1.21"])  # the Pi got another address
    assert "its names changed" in pki.make_web_certificates(folder, moved)[0]
    assert (folder / "ca.crt").read_bytes() == ca  # every tablet still trusts it
    pki.add_extra_names(folder, pki.Names.of(["judge.club.lan"]))
    pki.make_web_certificates(folder, moved)
    assert "judge.club.lan" in pki.certificate_names(folder / "server.crt").dns
    (folder / "server.key").write_text((folder / "ca.key").read_text())  # a stray copy
    assert "does not match its key" in pki.make_web_certificates(folder, moved)[0]
    assert "new CA" in pki.make_web_certificates(folder, moved, new_ca=True)[0]
    assert (folder / "ca.crt").read_bytes() != ca


def test_the_shipped_judge_config_loads_with_https_on_its_folder(tmp_path):
    """config/judge.example.toml, its /etc/mafia-table/ paths moved here, is HTTPS."""
    etc = tmp_path / "etc"
    pki.make_web_certificates(etc / "tls", pki.Names.of(["localhost"]))
    (etc / "judge.pass").write_text("x\n")
    text = (REPO / "config" / "judge.example.toml").read_text()
    assert text.count("/etc/mafia-table/") >= 2
    path = tmp_path / "judge.toml"
    path.write_text(text.replace("/etc/mafia-table/", f"{etc}/"))
    cfg = judge_config.load(path)
    assert cfg.panel.tls is not None and cfg.panel.tls.dir == str(etc / "tls")
    assert cfg.panel.listen == "0.0.0.0:8443" and cfg.panel.tls.trust_listen == "0.0.0.0:8080"
    assert not cfg.panel.insecure_http
