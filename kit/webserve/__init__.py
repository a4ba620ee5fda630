"""How the project's web apps are put on the network: over HTTPS with the local CA's
certificate (``kit.pki``), plain HTTP only on loopback or when asked for by name, a page that
offers the CA to the tablets, and an access log that never holds a secret.

- **HTTPS**: ``WebTLS`` names the folder ``mafia-table tls`` makes (``server.crt``,
  ``server.key``, ``ca.crt``); the app is served with TLS 1.2 or newer. At start the addresses
  to open are printed with the CA's fingerprint, which a tablet's trust step shows too.
- **Plain HTTP** is allowed on a loopback address (``127.0.0.1``, ``::1``, ``localhost``: a
  browser on the same machine, ``scripts/run-sim.sh``) or with the app's explicit option
  (the judge's ``[panel] insecure_http = true``, the board's ``--insecure-http``); anywhere
  else it is refused before anything starts (``transport_problems``): on a club's Wi-Fi the
  password, the session cookie and every role on the judge's screen would be readable by
  anyone on it.
- **The trust page** (``WebTLS.trust_listen``): plain HTTP on a port of its own, serving only
  ``/`` (how to trust the CA on Android, iOS and a desktop or streaming PC, its fingerprint,
  the HTTPS address to open next; in the reader's language, ``kit.i18n.web``, whose catalog
  texts ``trust.*`` may hold ``<b>`` and ``<code>``) and ``/ca.crt``. It holds no secret: a
  tablet cannot reach the HTTPS pages before it trusts the CA, so that step cannot be over
  HTTPS.
- **The access log** (``aiohttp.access``) writes each request's path with the values of
  ``token`` and ``password`` in its query replaced by ``***`` (the rating platform's overlay
  sends its token in the query; nothing else of ours does).

    server = WebServer(app, listen="0.0.0.0:8443", tls=WebTLS(dir="/etc/mafia-table/tls",
                       trust_listen="0.0.0.0:8080"), what="judge panel")
    await server.start()
    print("\\n".join(server.describe()))
    await server.stop()
"""

from __future__ import annotations

import html
import ipaddress
import ssl
import string
from pathlib import Path

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from kit import i18n, pki
from kit.config import Section
from kit.i18n import Words
from kit.i18n import web as i18n_web

TRUST_PAGE = string.Template((Path(__file__).parent / "trust.html").read_text(encoding="utf-8"))
#: the trust page's texts, each the catalog's ``trust.<name>`` (keys written out for the
#: catalog's completeness test: "trust.title", "trust.heading", "trust.intro",
#: "trust.download", "trust.compare", "trust.android", "trust.android_1", "trust.android_2",
#: "trust.android_3", "trust.ios", "trust.ios_1", "trust.ios_2", "trust.ios_3", "trust.desktop",
#: "trust.windows", "trust.macos", "trust.linux", "trust.then", "trust.open", "trust.warning")
TRUST_TEXTS = ("title", "heading", "intro", "download", "compare", "android", "android_1",
               "android_2", "android_3", "ios", "ios_1", "ios_2", "ios_3", "desktop", "windows",
               "macos", "linux", "then", "open", "warning")
#: query parameters whose values never reach the access log
SECRET_PARAMETERS = frozenset({"token", "password"})
#: hosts a browser on another machine cannot reach
LOOPBACK_NAMES = frozenset({"localhost"})


class WebTLS(Section):
    """HTTPS for an app: ``dir`` as ``mafia-table tls --dir`` makes it, and where the trust
    page listens (plain HTTP; none: no trust page)."""

    dir: str
    trust_listen: str | None = None


def split_listen(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` (``[::]:8443`` for IPv6) -> (host, port), or None when it is not one."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        return None
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach ``host`` (``0.0.0.0`` and ``::`` are every address)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: it may well resolve to the machine's Wi-Fi address


def transport_problems(listen: str, tls: WebTLS | None, insecure_http: bool, *, option: str,
                       tls_option: str) -> list[str]:
    """What is wrong with serving on ``listen`` this way (empty: nothing), each problem after
    its key (``listen:``, ``tls:``, ``tls.trust_listen:``). ``option`` and ``tls_option`` are how
    the app's user names the plain-HTTP option and the TLS setting."""
    where = split_listen(listen)
    if where is None:
        return [f"listen: HOST:PORT expected, not {listen!r}"]
    if tls is not None:
        if insecure_http:
            return [f"tls: {tls_option} and {option} together: choose one"]
        return tls_problems(tls, where[1])
    if not insecure_http and not is_loopback(where[0]):
        return [f"listen: {listen} is reachable from the network, and plain HTTP there puts the "
                "password, the session cookie and every page in the clear for anyone on it: "
                f"serve HTTPS ({tls_option}; `mafia-table tls --dir DIR` makes the "
                f"certificate), listen on 127.0.0.1, or set {option} on a network nobody "
                "else uses"]
    return []


def tls_problems(tls: WebTLS, port: int) -> list[str]:
    """What keeps ``tls`` from serving (the files missing, unreadable or not a pair)."""
    folder = Path(tls.dir)
    try:
        ssl_context(tls)
    except (OSError, ssl.SSLError) as exc:
        return [f"tls: the certificate in {folder} cannot be used ({exc}); "
                f"`mafia-table tls --dir {folder}` makes it"]
    if tls.trust_listen is None:
        return []
    trust = split_listen(tls.trust_listen)
    if trust is None:
        return [f"tls.trust_listen: HOST:PORT expected, not {tls.trust_listen!r}"]
    if trust[1] == port:
        return ["tls.trust_listen: the trust page needs a port of its own (plain HTTP)"]
    if not (folder / pki.CA_CERT).is_file():
        return [f"tls.trust_listen: no {pki.CA_CERT} in {folder} to offer"]
    return []


def ssl_context(tls: WebTLS) -> ssl.SSLContext:
    """The server side of TLS with the folder's certificate, TLS 1.2 at least."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    folder = Path(tls.dir)
    context.load_cert_chain(folder / pki.SERVER_CERT, folder / pki.SERVER_KEY)
    return context


class AccessLog(AbstractAccessLogger):
    """One line a request, its secrets left out (``SECRET_PARAMETERS``)."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info('%s "%s %s" %d %.3fs', request.remote, request.method,
                         redacted(request), response.status, time)


def redacted(request: web.BaseRequest) -> str:
    """The request's path and query, the values of ``SECRET_PARAMETERS`` as ``***``."""
    url = request.rel_url
    if not SECRET_PARAMETERS & set(url.query):
        return str(url)
    return str(url.with_query([(k, "***" if k in SECRET_PARAMETERS else v)
                               for k, v in url.query.items()]))


class WebServer:
    """One app on the network (and its trust page): ``start``, ``describe``, ``stop``."""

    def __init__(self, app: web.Application, *, listen: str, tls: WebTLS | None, what: Words,
                 language: str = i18n.DEFAULT):
        where = split_listen(listen)
        if where is None:
            raise ValueError(f"listen: HOST:PORT expected, not {listen!r}")
        self.host, self.port = where
        self.tls, self.what, self.language = tls, what, language
        self.runner = web.AppRunner(app, shutdown_timeout=2.0, access_log_class=AccessLog)
        self.trust: web.AppRunner | None = None
        self.trust_port: int | None = None

    async def start(self) -> None:
        """Listen (``OSError`` when the address is taken or not this machine's)."""
        await self.runner.setup()
        context = ssl_context(self.tls) if self.tls is not None else None
        site = web.TCPSite(self.runner, self.host, self.port, ssl_context=context)
        await site.start()
        if self.tls is not None and self.tls.trust_listen is not None:
            where = split_listen(self.tls.trust_listen)
            assert where is not None  # transport_problems said so
            self.trust = web.AppRunner(trust_app(self), access_log_class=AccessLog)
            await self.trust.setup()
            await web.TCPSite(self.trust, *where).start()
            self.trust_port = where[1]

    @property
    def scheme(self) -> str:
        return "http" if self.tls is None else "https"

    def names(self) -> list[str]:
        """The names a browser opens this app by: the listen address, or for every address
        the certificate's names (the network's first)."""
        if self.tls is None or self.host not in ("0.0.0.0", "::", ""):
            return [self.host]
        names = pki.certificate_names(Path(self.tls.dir) / pki.SERVER_CERT).all()
        # a .local name first (mDNS finds it with no DNS server), loopback last
        return sorted(names, key=lambda n: (is_loopback(n), not n.endswith(".local"))) \
            or [self.host]

    def urls(self) -> list[str]:
        return [f"{self.scheme}://{_bracketed(name)}:{self.port}/" for name in self.names()]

    def fingerprint(self) -> str | None:
        """The CA's SHA-256 fingerprint (None: plain HTTP, or no CA in the folder)."""
        if self.tls is None:
            return None
        ca = Path(self.tls.dir) / pki.CA_CERT
        return pki.fingerprint(ca) if ca.is_file() else None

    def describe(self) -> list[str]:
        """What to print at start: the address to open first, the others, the trust page."""
        urls = self.urls()
        lines = [f"{self.what}: {urls[0]}"]
        if len(urls) > 1:
            lines.append(f"  also {', '.join(urls[1:])}")
        if self.tls is None:
            lines.append("  plain HTTP: " + ("this machine only" if is_loopback(self.host)
                                             else "IN THE CLEAR for anyone on the network"))
            return lines
        if self.trust_port is not None:
            lines.append(f"  a tablet trusts the CA first: http://{_bracketed(self.names()[0])}:"
                         f"{self.trust_port}/")
        fingerprint = self.fingerprint()
        if fingerprint is not None:
            lines.append(f"  CA SHA-256 fingerprint {fingerprint}")
        return lines

    async def stop(self) -> None:
        await self.runner.cleanup()
        if self.trust is not None:
            await self.trust.cleanup()


def trust_app(server: WebServer) -> web.Application:
    """The trust page's app: ``/`` and ``/ca.crt``, nothing else (plain HTTP)."""
    assert server.tls is not None
    ca = Path(server.tls.dir) / pki.CA_CERT
    fingerprint = pki.fingerprint(ca)

    async def page(request: web.Request) -> web.Response:
        host = _bracketed(request.url.host or server.names()[0])
        panel = f"https://{host}:{server.port}/"
        lang = i18n_web.language(request)
        what = html.escape(i18n.render(server.what, lang))
        texts = {name: i18n.t(f"trust.{name}", lang, what=what, panel=html.escape(panel))
                 for name in TRUST_TEXTS}
        return web.Response(text=TRUST_PAGE.substitute(
            texts, language=lang, fingerprint=fingerprint, switch=i18n_web.switch(lang),
            panel=html.escape(panel, quote=True)), content_type="text/html")

    async def certificate(request: web.Request) -> web.FileResponse:
        return web.FileResponse(ca, headers={
            "Content-Type": "application/x-x509-ca-cert",
            "Content-Disposition": 'attachment; filename="mafia-table-ca.crt"'})

    app = web.Application()
    i18n_web.setup(app, server.language)
    app.router.add_get("/", page)
    app.router.add_get("/ca.crt", certificate)
    return app


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host
