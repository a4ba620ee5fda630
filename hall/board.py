"""The hall board: one web page for the organisers over the hall broker (aiohttp + paho).

It reads every table's retained ``status``, ``state``, ``health`` and ``bridge`` from the hall
broker as the ``hall-board`` account, folds them with :mod:`hall.tables` (pure), and pushes the
board to every open page over a WebSocket on each change (and each second, as waits grow).
The organisers load the tournament's seating (:mod:`hall.seating.chart`) and send a round to the
tables. The tournament (:mod:`hall.desk`, :mod:`hall.tournament`) takes every game the tables
send on ``record/`` into the hall's own SQLite (:mod:`hall.store`), and its pages
(:mod:`hall.tournament_routes`: the organiser's, the public standings, the exports) follow it.
Same stack, login and WebSocket fan-out as the judge's panel (:mod:`kit.weblogin`:
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
from hall import tables, tournament_routes
from hall.desk import WHAT, Desk
from hall.seating import chart as seating_module
from hall.store import HallStore, StoreError
from kit import i18n, webguard
from kit.config import COMMAND_LINE, ConfigError
from kit.i18n import Words, joined
from kit.i18n import web as i18n_web
from kit.weblogin import WebLogin
from kit.webpages import Pages
from kit.webserve import WebServer, WebTLS, split_listen, transport_problems
from results import feed, scoring

log = logging.getLogger("hall.board")
STATIC = Path(__file__).parent / "static"


class Board:
    """The board's state and its two sides: MQTT in (a paho thread that only hands over to the
    asyncio loop) and the pages out."""

    def __init__(self, *, password: str, limits: tables.Limits, client: mqtt.Client,
                 store: HallStore, presets: dict[str, scoring.Preset],
                 language: str = i18n.DEFAULT):
        self.language = language
        self.gate = WebLogin(password=password, cookie="hall_board", title=Words("board.title"),
                             stylesheet="/static/board.css", log=log)
        self.limits = limits
        self.client = client
        self.hall = tables.Hall()
        self.seating: seating_module.Seating = {}
        self.sent_round: int | None = None
        self.pages = Pages()
        self.public = Pages()  # the public standings' pages (no login)
        self.desk = Desk(store, presets, self._publish_retained, self.broadcast)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.unreadable = 0
        self._last_sent = ""
        self._last_public = ""
        client.on_connect = self._on_connect
        client.on_message = self._on_message

    # MQTT side (paho's thread: never block, never raise)
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.error("the hall broker refused the board: %s", reason_code)
            return
        client.subscribe([(topic_prefix("+") + topic, 1)
                          for topic in (*tables.TOPICS, feed.TOPIC + "+")])

    def _on_message(self, client, userdata, message) -> None:
        parts = message.topic.split("/")
        if self.loop is None:
            return
        if len(parts) == 4 and f"{parts[2]}/" == feed.TOPIC:
            self.loop.call_soon_threadsafe(self.desk.receive, message.topic, message.payload)
        elif len(parts) == 3:
            self.loop.call_soon_threadsafe(self.take, parts[1], parts[2], message.payload)

    def _publish_retained(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1, retain=True)

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
                            "tables": sorted({t for r in self.seating.values() for t in r}),
                            "seats": self.seating}
        board["tournament"] = self.desk.views()[0]
        return board

    def broadcast(self) -> None:
        """Send the board to every page, and the public standings to theirs, each if it
        changed since its last send."""
        text = json.dumps({"type": "board", **self.view()})
        if text != self._last_sent:
            self._last_sent = text
            self.pages.push(text)
        public = tournament_routes.public_text(self.desk)()
        if public != self._last_public:
            self._last_public = public
            self.public.push(public)

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


#: the tournament's actions, the desk's (docs/tournament.md): making it, and each the desk
#: names when it refuses one (a list of its own left "bring back" out: the page's button was
#: answered "no such action")
DESK_ACTIONS = ("create_tournament", *WHAT)


def handle_message(board: Board, text: str) -> dict[str, Any]:
    """``{"action": "load_seating", "csv": "..."}`` or ``{"action": "send_round", "round": N}``,
    or one of the tournament's (``DESK_ACTIONS``, ``hall.desk``); the answer says what was
    done, or why not (``words`` for the page, ``message`` in English)."""
    try:
        message = json.loads(text)
        action = message["action"]
        if action in DESK_ACTIONS:
            return board.desk.act(message)
        if action == "load_seating":
            board.load_seating(str(message["csv"]))
            return _answer("done", Words("board.loaded", rounds=sorted(board.seating)))
        if action == "send_round":
            board.send_round(int(message["round"]))
            return _answer("done", Words("board.sent", round=int(message["round"])))
        return _answer("refused", Words("board.refused.action", action=str(action)))
    except seating_module.SeatingError as exc:
        return _answer("refused", Words("board.refused.seating", problems=joined(exc.problems)))
    except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
        # OverflowError: a round of 1e999; RecursionError: JSON nested past json's limit
        return _answer("refused", Words("board.refused.message"))


def _answer(kind: str, words: Words) -> dict[str, Any]:
    return {"type": kind, "message": str(words), "words": words.to_json()}


def make_app(board: Board) -> web.Application:
    app = webguard.application(log)
    app[BOARD] = board
    i18n_web.setup(app, board.language)
    app.router.add_get("/", index)
    board.gate.add_routes(app)
    app.router.add_get("/live", live)
    app.router.add_static("/static", STATIC)
    tournament_routes.add_routes(app, board.desk, board.gate, board.public)
    app.on_shutdown.append(_close_sockets)
    return app


async def _close_sockets(app: web.Application) -> None:
    await app[BOARD].pages.close("board stopping")
    await app[BOARD].public.close("board stopping")


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
    try:
        store = HallStore(args.store)
    except (StoreError, OSError) as exc:
        raise SystemExit(f"hall board: --store {args.store}: {exc}") from None
    board = Board(password=read_secret(args.board_password_file, "--board-password-file"),
                  limits=tables.Limits(count_waiting_s=args.count_wait), client=client,
                  store=store, presets=scoring.presets(), language=args.language)
    board.loop = asyncio.get_running_loop()
    broker_host, broker_port = split_host_port(args.broker, "--broker")
    client.connect_async(broker_host, broker_port, keepalive=15)
    client.loop_start()
    server = WebServer(make_app(board), listen=args.listen, tls=tls, what=Words("server.board"),
                       language=args.language)
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
        store.close()


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
