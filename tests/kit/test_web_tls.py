"""The web pages over real TLS (issue 26, item 3): ``mafia-table judge`` and ``mafia-table hall
board`` as processes, serving HTTPS with a CA made by ``kit.pki``; clients that verify it as a
tablet does.

- aiohttp with an ``ssl`` context holding only that CA: the login's cookie is ``Secure`` and
  ``HttpOnly``, the live channel is ``wss``;
- Debian's Chromium (Playwright, ``executable_path``) trusting the CA the way a tablet does:
  the CA in the NSS database of the browser's ``$HOME`` (``certutil``), certificate checks on
  (``ignore_https_errors`` stays off). ``--host-resolver-rules`` sends ``judge.local`` and
  ``other.local`` to 127.0.0.1, so the certificate's names are checked too: ``other.local`` is
  refused, and a browser without the CA refuses the panel. The tablet's way in: the trust page
  (plain HTTP, the fingerprint), its link to the HTTPS panel, the login form, the panel's live
  channel over wss with the Secure session cookie;
- the overlay over wss with its token only after ``#``: no URL the browser sent, and no line of
  the service's access log, holds it.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import ssl
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from aiohttp import ClientConnectionError, ClientSession, CookieJar
from playwright.sync_api import Browser, Error, sync_playwright

from kit import pki
from kit.local_broker import free_port
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.judge_panel import PASSWORD, judge_config
from tests.support.page_layout import fits
from tests.support.page_words import foreign_words

TOKEN = "a-token-for-the-stream-only"
NAMES = ["judge.local", "localhost", "127.0.0.1"]


class Process:
    """A command of ours as a process, every line it writes kept (a reader thread drains it)."""

    def __init__(self, *argv: str):
        exe = Path(sys.executable).with_name("mafia-table")
        self.process = subprocess.Popen([str(exe), *argv], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.lines.append("<exit>")
            self.changed.notify_all()

    def wait_for(self, holds: Callable[[str], bool], timeout: float = 60) -> str:
        """The first line that ``holds``, once it is written."""
        def found() -> str | None:
            return next((line for line in self.lines if holds(line) or line == "<exit>"), None)
        with self.changed:
            assert self.changed.wait_for(found, timeout), "\n".join(self.lines)
            line = found()
        assert line is not None and line != "<exit>", "\n".join(self.lines)
        return line

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(15)


@pytest.fixture
def tls(tmp_path) -> Path:
    """The CA and the pages' certificate for judge.local, localhost and 127.0.0.1."""
    folder = tmp_path / "tls"
    pki.make_web_certificates(folder, pki.Names.of(NAMES))
    return folder


def https_config(tmp_path: Path, broker_port: int, tls: Path, port: int, trust: int) -> Path:
    """The end-to-end tests' judge config, over HTTPS, with an overlay token."""
    path = judge_config(tmp_path, broker_port, f"127.0.0.1:{port}")
    (tmp_path / "overlay.token").write_text(TOKEN + "\n")
    path.write_text(path.read_text().replace("[journal]", f"""[panel.tls]
dir = "{tls}"
trust_listen = "127.0.0.1:{trust}"
[journal]""") + '[overlay]\ntoken_file = "overlay.token"\n')
    return path


@pytest.fixture
def judge(tmp_path, broker, tls) -> Iterator[tuple[Process, int, int]]:
    """``mafia-table judge`` over HTTPS on 127.0.0.1: the process, its port, its trust page's."""
    port, trust = free_port(), free_port()
    process = Process("judge", "--config", str(https_config(tmp_path, broker.port, tls, port,
                                                            trust)))
    process.wait_for(lambda line: line.startswith("judge panel:"))
    yield process, port, trust
    process.stop()


@pytest.fixture
def tablet(tmp_path, tls) -> Iterator[Browser]:
    """Debian's Chromium trusting our CA as a tablet that installed it does."""
    home = tmp_path / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    for args in (["-N", "--empty-password"],
                 ["-A", "-t", "C,,", "-n", "mafia-table CA", "-i", str(tls / pki.CA_CERT)]):
        subprocess.run(["certutil", "-d", f"sql:{nssdb}", *args], check=True,
                       capture_output=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, env={**os.environ, "HOME": str(home)},
            args=[*CHROMIUM_ARGS,
                  "--host-resolver-rules=MAP judge.local 127.0.0.1, MAP other.local 127.0.0.1"])
        yield browser
        browser.close()


def test_the_judge_command_prints_the_https_address_the_trust_page_and_the_fingerprint(judge,
                                                                                      tls):
    process, port, trust = judge
    process.wait_for(lambda line: line.startswith("  CA SHA-256 fingerprint"))  # written last
    first = process.lines.index(f"judge panel: https://127.0.0.1:{port}/  (table table-1)")
    assert process.lines[first + 1:first + 3] == [
        f"  a tablet trusts the CA first: http://127.0.0.1:{trust}/",
        f"  CA SHA-256 fingerprint {pki.fingerprint(tls / pki.CA_CERT)}"]


def test_over_real_tls_the_login_cookie_is_secure_and_the_live_channel_is_wss(judge, tls):
    _, port, trust = judge
    verify = ssl.create_default_context(cafile=str(tls / pki.CA_CERT))  # only our CA
    site = f"https://localhost:{port}"

    async def scenario() -> None:
        async with ClientSession(cookie_jar=CookieJar(unsafe=True),
                                 headers={"Origin": site}) as http:
            async with http.post(f"{site}/login", data={"password": PASSWORD}, ssl=verify,
                                 allow_redirects=False) as right:
                assert right.status == 302
                cookies = {c.split("=")[0]: c for c in right.headers.getall("Set-Cookie")}
            for name in ("judge_session", "judge_session_known"):
                assert "; Secure" in cookies[name] and "; HttpOnly" in cookies[name]
                assert "SameSite=Strict" in cookies[name]
            async with http.get(f"{site}/", ssl=verify) as page:
                assert page.status == 200 and 'id="stage"' in await page.text()
                assert page.headers["Cache-Control"] == "no-store"
            async with http.ws_connect(f"wss://localhost:{port}/live", ssl=verify) as ws:
                assert (await ws.receive_json())["type"] == "view"
            with pytest.raises(ClientConnectionError):  # plain HTTP to the HTTPS port
                async with http.get(f"http://localhost:{port}/"):
                    pass
            with pytest.raises(ClientConnectionError):  # a client that trusts no such CA
                async with http.get(f"{site}/", ssl=ssl.create_default_context()):
                    pass
            async with ClientSession() as plain, plain.get(f"http://127.0.0.1:{trust}/ca.crt"
                                                            ) as offered:
                assert offered.headers["Content-Type"] == "application/x-x509-ca-cert"
                assert await offered.read() == (tls / pki.CA_CERT).read_bytes()

    asyncio.run(scenario())


def test_a_tablet_trusts_the_ca_from_the_trust_page_and_logs_in_over_https(judge, tablet, tls,
                                                                           tmp_path):
    _, port, trust = judge
    context = tablet.new_context()  # ignore_https_errors stays False: certificates checked
    page = context.new_page()
    page.set_default_timeout(20_000)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"http://judge.local:{trust}/")  # the one page over plain HTTP
    assert page.text_content("#fingerprint") == pki.fingerprint(tls / pki.CA_CERT)
    assert page.get_attribute("#download", "href") == "/ca.crt"
    for language in ("ru", "en"):  # in each language its own words only, and it fits a tablet
        page.goto(f"http://judge.local:{trust}/?lang={language}")
        page.wait_for_selector(f'html[lang="{language}"]')
        found = foreign_words(page, language, also=[page.text_content("#fingerprint") or "",
                                                    f"https://judge.local:{port}/"])
        assert found == [], found
        fits(page)
    page.click("#panel")  # its link: https://judge.local:PORT/
    page.wait_for_url(f"https://judge.local:{port}/login")
    page.fill("#password", PASSWORD)
    page.click("#login")  # a form POST: Chromium sends its Origin, the guard lets it in
    page.wait_for_selector("#table-status")
    page.wait_for_function("document.body.dataset.version !== undefined")  # a view over wss
    assert page.url == f"https://judge.local:{port}/"
    assert sockets == [f"wss://judge.local:{port}/live"]
    cookies = {c["name"]: c for c in context.cookies()}
    session = cookies["judge_session"]
    assert session["secure"] and session["httpOnly"] and session["sameSite"] == "Strict"
    assert cookies["judge_session_known"]["path"] == "/login"
    page.reload()  # the cookie sent again: the panel, not the login
    page.wait_for_function("document.body.dataset.version !== undefined")
    assert page.url == f"https://judge.local:{port}/"

    with pytest.raises(Error, match="ERR_CERT_COMMON_NAME_INVALID"):  # a name not in it
        page.goto(f"https://other.local:{port}/")
    context.close()
    (tmp_path / "stranger").mkdir()  # its own $HOME: no NSS database, no CA
    stranger = tablet.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                          env={**os.environ, "HOME": str(tmp_path / "stranger")})
    try:  # a browser that never trusted the CA
        with pytest.raises(Error, match="ERR_CERT_AUTHORITY_INVALID"):
            stranger.new_page().goto(f"https://127.0.0.1:{port}/")
    finally:
        stranger.close()


def test_the_overlay_over_wss_takes_its_token_from_the_fragment_and_no_url_holds_it(judge,
                                                                                    tablet):
    process, port, _ = judge
    context = tablet.new_context()
    urls: list[str] = []
    sent: list[str] = []
    context.on("request", lambda request: urls.append(request.url))

    def watch(ws) -> None:
        urls.append(ws.url)
        ws.on("framesent", lambda frame: sent.append(str(frame)))

    overlay = context.new_page()
    overlay.set_default_timeout(20_000)
    overlay.on("websocket", watch)
    overlay.goto(f"https://judge.local:{port}/overlay#token={TOKEN}")
    overlay.wait_for_selector('#stage[data-stage="setup"]')  # the view came, over wss
    wrong = context.new_page()
    wrong.goto(f"https://judge.local:{port}/overlay#token=not-it")
    wrong.wait_for_selector("#offline:text(\"the overlay's token is wrong or missing\")")
    assert wrong.get_attribute("#stage", "data-stage") == ""  # it was shown nothing
    assert f"wss://judge.local:{port}/overlay/live" in urls
    assert any(TOKEN in frame for frame in sent)  # it went inside the encrypted socket
    assert [url for url in urls if TOKEN in url] == []  # and in no URL on the wire
    context.close()
    process.stop()
    log = "\n".join(process.lines)
    assert re.search(r'"GET /overlay HTTP|"GET /overlay" 200', log)  # the access log ran
    assert TOKEN not in log


def test_the_hall_board_serves_https_refuses_a_foreign_login_and_its_cookie_is_secure(
        tmp_path, broker, tls):
    (tmp_path / "board.pass").write_text(PASSWORD + "\n")
    port, trust = free_port(), free_port()
    board = Process("hall", "board", "--broker", f"127.0.0.1:{broker.port}",
                    "--password-file", str(tmp_path / "board.pass"),
                    "--board-password-file", str(tmp_path / "board.pass"),
                    "--store", str(tmp_path / "board.db"),
                    "--listen", f"127.0.0.1:{port}", "--tls-dir", str(tls),
                    "--trust-listen", f"127.0.0.1:{trust}")
    verify = ssl.create_default_context(cafile=str(tls / pki.CA_CERT))
    site = f"https://localhost:{port}"
    try:
        assert board.wait_for(lambda line: line.startswith("hall board:")) \
            == f"hall board: https://127.0.0.1:{port}/  (hall broker 127.0.0.1:{broker.port})"

        async def scenario() -> None:
            async with ClientSession(cookie_jar=CookieJar(unsafe=True)) as http:
                async with http.post(f"{site}/login", data={"password": PASSWORD}, ssl=verify,
                                     headers={"Origin": "https://evil.example"},
                                     allow_redirects=False) as foreign:
                    assert foreign.status == 403 and "Set-Cookie" not in foreign.headers
                async with http.post(f"{site}/login", data={"password": PASSWORD}, ssl=verify,
                                     headers={"Origin": site}, allow_redirects=False) as right:
                    assert right.status == 302
                    assert "; Secure" in right.headers.getall("Set-Cookie")[0]
                async with http.ws_connect(f"wss://localhost:{port}/live", ssl=verify,
                                           origin=site) as ws:
                    assert (await ws.receive_json())["type"] == "board"

        asyncio.run(scenario())
    finally:
        board.stop()
