"""The hall board: one web page for the organisers over the hall broker (aiohttp + paho).

It reads every table's retained ``status``, ``state``, ``health`` and ``bridge`` from the hall
broker as the ``hall-board`` account, folds them with :mod:`hall.tables` (pure), and pushes the
board to every open page over a WebSocket on each change (and each second, as waits grow).
The organisers load the tournament's seating (:mod:`hall.seating`) and send a round to the
tables. Same stack, login and WebSocket fan-out as the judge's panel (:mod:`kit.weblogin`:
a password file, slowed-down wrong logins, a session cookie; :mod:`kit.webpages`), pages
served from ``hall/static`` (no CDN, no build step).

    mafia-table hall board --broker 127.0.0.1:1883 --username hall-board \\
        --password-file hall-board.pass --board-password-file board.pass --listen 0.0.0.0:8443 \\
        --tls-dir /etc/mafia-hall/tls --trust-listen 0.0.0.0:8080

Served as ``kit.webserve`` serves the judge's panel: HTTPS with the local CA's certificate (the
trust page offers the CA), plain HTTP only on loopback or with ``--insecure-http``; every
request behind ``kit.webguard`` (the Origin of the login and the live channel, no-store).

(its options: ``hall.cli``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import secrets
import sys
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from aiohttp import web
from paho.mqtt.enums import CallbackAPIVersion

from contract.topics import topic_prefix
from hall import seating as seating_module
from hall import tables
from kit import webguard
from kit.config import COMMAND_LINE, ConfigError
from kit.weblogin import WebLogin
from kit.webpages import Pages
from kit.webserve import WebServer, WebTLS, split_listen, transport_problems

log = logging.getLogger("hall.board")
STATIC = Path(__file__).parent / "static"


class Board:
    """The board's state and its two sides: MQTT in (a paho thread that only hands over to the
    asyncio loop) and the pages out."""

    def __init__(self, *, password: str, limits: tables.Limits, client: mqtt.Client):
        self.gate = WebLogin(password=password, cookie="hall_board", title="Hall board",
                             stylesheet="/static/board.css", log=log)
        self.limits = limits
        self.client = client
        self.hall = tables.Hall()
        self.seating: seating_module.Seating = {}
        self.sent_round: int | None = None
        self.pages = Pages()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.unreadable = 0
        self._last_sent = ""
        client.on_connect = self._on_connect
        client.on_message = self._on_message

    # MQTT side (paho's thread: never block, never raise)
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("the hall broker refused the board: %s", reason_code)
            return
        client.subscribe([(topic_prefix("+") + topic, 1) for topic in tables.TOPICS])

    def _on_message(self, client, userdata, message) -> None:
        parts = message.topic.split("/")
        if len(parts) != 3 or self.loop is None:
            return
        self.loop.call_soon_threadsafe(self.take, parts[1], parts[2], message.payload)

    # the loop's side
    def take(self, table: str, topic: str, payload: bytes) -> None:
        """One message of ``table``; an unreadable one is counted and logged, the board keeps
        what it had."""
        try:
            document: Any = payload.decode() if topic == "bridge" else json.loads(payload)
        except (UnicodeDecodeError, ValueError, RecursionError):
            self.unreadable += 1
            log.warning("unreadable %s from %s (%d so far)", topic, table, self.unreadable)
            return
        if topic != "bridge" and not isinstance(document, dict):
            self.unreadable += 1
            log.warning("%s from %s is not a JSON object", topic, table)
            return
        self.hall = tables.observe(self.hall, table, topic, document, time.monotonic())
        self.broadcast()

    def view(self) -> dict[str, Any]:
        board = tables.view(self.hall, time.monotonic(), self.limits)
        board["seating"] = {"rounds": sorted(self.seating), "sent": self.sent_round,
                            "tables": sorted({t for r in self.seating.values() for t in r})}
        return board

    def broadcast(self) -> None:
        """Send the board to every page, if it changed since the last send."""
        text = json.dumps({"type": "board", **self.view()})
        if text == self._last_sent:
            return
        self._last_sent = text
        self.pages.push(text)

    def load_seating(self, text: str) -> None:
        self.seating = seating_module.parse(text)
        self.sent_round = None
        self.broadcast()

    def send_round(self, round_: int) -> None:
        """Publish round ``round_``'s seating to each of its tables (retained, QoS 1): a table's
        judge panel that connects later still gets it."""
        for table, document in seating_module.messages(self.seating, round_).items():
            self.client.publish(topic_prefix(table) + "seating", json.dumps(document), qos=1,
                                retain=True)
        self.sent_round = round_
        log.info("seating of round %d sent", round_)
        self.broadcast()


BOARD = web.AppKey("board", Board)


async def index(request: web.Request) -> web.StreamResponse:
    request.app[BOARD].gate.require_page(request)
    return web.FileResponse(STATIC / "board.html")


async def live(request: web.Request) -> web.StreamResponse:
    """The live channel: the board on every change; seating actions in, answers back."""
    board: Board = request.app[BOARD]
    board.gate.require_live(request)
    return await board.pages.serve(request, lambda: json.dumps({"type": "board", **board.view()}),
                                   lambda text: handle_message(board, text))


def handle_message(board: Board, text: str) -> dict[str, Any]:
    """``{"action": "load_seating", "csv": "..."}`` or ``{"action": "send_round", "round": N}``;
    the answer says what was done, or why not."""
    try:
        message = json.loads(text)
        action = message["action"]
        if action == "load_seating":
            board.load_seating(str(message["csv"]))
            return {"type": "done", "message": f"seating loaded: rounds "
                                               f"{', '.join(map(str, sorted(board.seating)))}"}
        if action == "send_round":
            board.send_round(int(message["round"]))
            return {"type": "done", "message": f"round {message['round']} sent to the tables"}
        return {"type": "refused", "message": f"unknown action {action!r}"}
    except seating_module.SeatingError as exc:
        return {"type": "refused", "message": "seating refused: " + "; ".join(exc.problems)}
    except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
        # OverflowError: a round of 1e999; RecursionError: JSON nested past json's limit
        return {"type": "refused", "message": 'malformed message: expected {"action": '
                                              '"load_seating", "csv": ...} or {"action": '
                                              '"send_round", "round": N}'}


def make_app(board: Board) -> web.Application:
    app = webguard.application(log)
    app[BOARD] = board
    app.router.add_get("/", index)
    board.gate.add_routes(app)
    app.router.add_get("/live", live)
    app.router.add_static("/static", STATIC)
    app.on_shutdown.append(_close_sockets)
    return app


async def _close_sockets(app: web.Application) -> None:
    await app[BOARD].pages.close("board stopping")


async def _tick(board: Board) -> None:
    """Waits grow with time: look again each second (sent only when something changed)."""
    while True:
        await asyncio.sleep(1.0)
        board.broadcast()


def split_host_port(text: str, what: str) -> tuple[str, int]:
    where = split_listen(text)
    if where is None:
        raise SystemExit(f"hall board: {what}: HOST:PORT expected, not {text!r}")
    return where


def web_tls(args: argparse.Namespace) -> WebTLS | None:
    """HTTPS from the options, or plain HTTP where ``kit.webserve`` allows it; else a
    ``ConfigError`` with the reason (exit 2), and nothing starts."""
    tls = None if args.tls_dir is None else WebTLS(dir=args.tls_dir,
                                                   trust_listen=args.trust_listen)
    problems = transport_problems(args.listen, tls, args.insecure_http,
                                  option="--insecure-http", tls_option="--tls-dir DIR")
    if tls is None and args.trust_listen is not None:
        problems.append("--trust-listen offers the CA of --tls-dir: give both")
    if problems:
        raise ConfigError(COMMAND_LINE, problems)
    return tls


def read_secret(path: str, what: str) -> str:
    try:
        secret = Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise SystemExit(f"hall board: {what} {path}: {exc.strerror}") from None
    if not secret:
        raise SystemExit(f"hall board: {what} {path} is empty")
    return secret


async def serve(args: argparse.Namespace, tls: WebTLS | None) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2,
                         client_id=f"hall-board-{secrets.token_hex(4)}", protocol=mqtt.MQTTv311)
    client.username_pw_set(args.username, read_secret(args.password_file, "--password-file"))
    if args.ca_file:
        client.tls_set(ca_certs=args.ca_file, certfile=args.cert_file, keyfile=args.key_file)
    client.reconnect_delay_set(1, 5)
    board = Board(password=read_secret(args.board_password_file, "--board-password-file"),
                  limits=tables.Limits(count_waiting_s=args.count_wait), client=client)
    board.loop = asyncio.get_running_loop()
    broker_host, broker_port = split_host_port(args.broker, "--broker")
    client.connect_async(broker_host, broker_port, keepalive=15)
    client.loop_start()
    server = WebServer(make_app(board), listen=args.listen, tls=tls, what="hall board")
    await server.start()
    lines = server.describe()
    print(f"{lines[0]}  (hall broker {args.broker})", *lines[1:], sep="\n", flush=True)
    ticker = asyncio.ensure_future(_tick(board))
    try:
        await asyncio.Event().wait()
    finally:
        ticker.cancel()
        await server.stop()
        client.loop_stop()
        client.disconnect()


def run(args: argparse.Namespace) -> int:
    """Serve the board until Ctrl-C (``mafia-table hall board``: ``hall.cli``)."""
    if not 0 < args.count_wait <= 3600:
        print("hall board: --count-wait takes seconds, 0 < S <= 3600", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args, web_tls(args)))
    return 0
