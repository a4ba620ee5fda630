"""The judge service: one table's rules core over MQTT, and the judge's panel over HTTP.

The imperative shell around ``judge.game``: it feeds the core the judge's taps (from the panel's
WebSocket) and the table's events (from MQTT, as the ``rules-core`` account of the shipped ACL),
journals every input that changed the game (``judge.journal``), sends the core's commands to the
table and pushes the new view to every logged-in page. Everything runs on one asyncio loop, so
two tabs' actions are ordered: an action names the game ``version`` its page showed, and one
made on a stale page is refused with a message rather than applied to a game its judge did not
see. paho's network thread only hands messages over to that loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import signal
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import paho.mqtt.client as mqtt
from aiohttp import web
from paho.mqtt.enums import CallbackAPIVersion

from contract import events
from contract.commands import PhaseCommand, ReplayCommand, TimerAdd, encode
from contract.topics import topic_prefix
from contract.verbs import (
    NIGHT_STOP,
    PHASE,
    REPLAY,
    TIMER_ADD,
    TIMER_PAUSE,
    TIMER_RESUME,
    TIMER_STOP,
    UNSTAMPED,
    VOTE_CANCEL,
    TableCommand,
    bare_command,
)
from judge import overlay_routes, record_routes, table_events
from judge.config import JudgeConfig, split_listen
from judge.game import Action, Game, Refused, TableEvent, replay, step
from judge.game.actions import NewGame, Offer, Timer, decode
from judge.game.state import BadArgument
from judge.journal import Journal
from judge.record import Edit, Record
from judge.store import GameStore
from judge.views import (
    ActionMessage,
    Clock,
    PanelSettings,
    Refusal,
    TableStatus,
    ViewMessage,
    judge_game,
)
from kit.mqtt import configure_client
from kit.weblogin import WebLogin
from kit.webpages import Pages

log = logging.getLogger("judge")
STATIC = Path(__file__).with_name("static")
#: table events the game or the panel reads (everything else is not subscribed to)
TOPICS = ("status", "health", "state", "event/#", "private/#", "reply/#")
#: whether the floor's clock runs after each ``event/timer`` state (``changed``, ``warning`` and
#: ``final`` keep what it was doing)
_TIMER_RUNS = {"started": True, "resumed": True, "paused": False, "stopped": False,
               "ended": False}

#: the judge's buttons for the floor's clock, as the table's commands (the Reject adds 10 s)
_TIMER_OPS: dict[str, TableCommand[Any]] = {
    "pause": bare_command(TIMER_PAUSE), "resume": bare_command(TIMER_RESUME),
    "add": TableCommand(TIMER_ADD, TimerAdd(id=UNSTAMPED, seconds=10))}


def _refused_on_replay(given: Action | TableEvent, exc: Refused) -> None:
    # cannot happen with a journal this code wrote
    log.error("journal input %s refused on replay: %s", given, exc)


class Panel:
    """The game, its journal, the table link and the pages watching it."""

    def __init__(self, cfg: JudgeConfig):
        self.cfg = cfg
        self.prefix = topic_prefix(cfg.table)
        self.journal = Journal(cfg.journal.path)
        self.games = GameStore(cfg.journal.path, cfg.table, cfg.game_rules, cfg.game.seats)
        self.game, self.log_lines = self._restore()
        self.gate = WebLogin(
            password=Path(cfg.panel.password_file).read_text(encoding="utf-8").strip(),
            cookie="judge_session", title="Judge's panel", stylesheet="/static/panel.css",
            sessions=self.journal, log=log)
        self.pages = Pages()  # the logged-in tabs
        #: called on every change the pages are told of (the stream overlay follows the game)
        self.watchers: list[Callable[[], None]] = []
        self.table: dict[str, Any] = {"broker": False, "status": "unknown", "health": None}
        self.table_day = 0  # the table's own day number (state.day)
        self.table_state: dict[str, Any] = {}  # the table's latest retained state
        self.bad_events = 0  # the table's payloads refused (not their type), since the start
        self.down: set[int] = set()  # seats whose vote button is down now (by day)
        self.timer: dict[str, Any] | None = None  # the latest event/timer
        self.pending: dict[str, str] = {}  # command id -> verb, until its reply
        self.notices: deque[str] = deque(maxlen=20)  # the table's refusals, for the judge
        self.recent_ids: deque[str] = deque(maxlen=4096)  # redelivered events are dropped
        self._ids = itertools.count(1)
        self._run = secrets.token_hex(3)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"judge-{cfg.table}-{self._run}",
                                  protocol=mqtt.MQTTv5)
        configure_client(self.client, cfg.broker)
        self.client.reconnect_delay_set(1, 5)  # back soon after a broker restart
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    # ------------------------------------------------------------------ the game

    def _restore(self) -> tuple[Game, deque[str]]:
        """The game as the journal left it: its inputs replayed through the pure core."""
        game, lines = self.cfg.new_game(), deque[str](maxlen=200)
        for _, _, after, records in replay(game, self.journal.inputs(), _refused_on_replay):
            game = after
            lines.extend(records)
        return game, lines

    def apply(self, given: Action | TableEvent) -> None:
        """One input: the core decides, the journal keeps it, the table and pages are told.
        ``Refused`` goes back to the caller with nothing changed."""
        now = time.time()
        game, commands, records = step(self.game, given, now)
        if game is self.game:
            return
        self.journal.append(given, now)
        self.game = game
        self.log_lines.extend(records)
        for command in commands:
            self.send(command)
        self.broadcast()

    def send(self, command: TableCommand[Any]) -> str:
        """Publish ``command`` stamped with a fresh id (this run's, so a reply to a command of
        an earlier run is not taken for one of ours), encoded as the table decodes it; its
        reply is matched by that id. Returns the id."""
        id = f"j{self._run}-{next(self._ids)}"
        self.pending[id] = command.spec.verb
        self.client.publish(self.prefix + command.spec.topic, encode(command.stamped(id)), qos=1)
        return id

    def timer_command(self, op: str) -> None:
        """The floor's clock (4.3.1: one minute a speech; 4.2.1: the mafia's minute): pause,
        resume, or 10 s more. Not a rule decision, so not the core's: the table's timer takes
        it as it is."""
        if self.game.floor is None and not self.game.countdown:
            raise Refused(f"{self.game.rules.cite('floor')}: nobody has the floor")
        if op not in _TIMER_OPS:
            raise Refused(f"timer: no such operation {op!r} (pause, resume, add)")
        self.send(_TIMER_OPS[op])

    def record(self) -> Record | None:
        """The record of the game being played (docs/record.md), built from the journal."""
        return self.games.current(self.journal.inputs())

    def new_game(self, abandon: Edit | None = None) -> None:
        """A fresh game; whatever the last one left running at the table is ended first. The
        last game's record is kept; unfinished, it is recorded as abandoned (``abandon``: the
        judge's reason, else "a new game was started")."""
        self.games.archive(self.record(), abandon or Edit(
            kind="abandon", at=time.time(), by="judge", reason="a new game was started"))
        state, old = self.table_state, self.game
        if state.get("vote") is not None:
            self.send(bare_command(VOTE_CANCEL))
        if state.get("timer") is not None:
            self.send(bare_command(TIMER_STOP))
        if old.running_step is not None:
            self.send(bare_command(NIGHT_STOP))
        if state.get("phase") == "night":
            self.send(TableCommand(PHASE, PhaseCommand(id=UNSTAMPED, phase="day")))
        self.journal.clear()
        self.game, self.log_lines = self.cfg.new_game(), deque(maxlen=200)
        self.apply(TableEvent("state", events.DayEvent(day=self.table_day)))
        self.broadcast()

    # ------------------------------------------------------------------ MQTT (paho's thread)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            return
        client.subscribe([(self.prefix + t, 1) for t in TOPICS])
        self._hand_over(self._connected, True)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self._hand_over(self._connected, False)

    def _on_message(self, client, userdata, message) -> None:
        self._hand_over(self._on_table, message.topic.removeprefix(self.prefix),
                        message.payload)

    def _hand_over(self, fn, *args) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)

    # ------------------------------------------------------------------ the table (our loop)

    def _connected(self, up: bool) -> None:
        self.table["broker"] = up
        if not up:
            self.table["status"] = "unknown"  # until the table says again
        if up:  # missed events come again (docs/mqtt-api.md, "Events and delivery")
            for kind, private in (("event", False), ("private", True)):
                seq = self.journal.last_seq(kind)
                if seq is not None:
                    self.send(TableCommand(REPLAY, ReplayCommand(
                        id=UNSTAMPED, after_seq=seq, private=private)))
        self.broadcast()

    def _on_table(self, topic: str, payload: bytes) -> None:
        """One message from the table. Events are decoded once, here, into their types
        (``judge.table_events``); one that is not its type is refused, counted and logged,
        and changes nothing."""
        if topic in ("status", "health", "state") or topic.startswith(("reply/",
                                                                        "private/reply/")):
            try:
                body = json.loads(payload)
            except ValueError:
                body = None
            if not isinstance(body, dict):
                self._bad(topic, "not a JSON object")
                return
            if topic in ("status", "health"):
                self.table[topic] = body.get("state") if topic == "status" else body
                self.broadcast()
                return
            if topic != "state":
                self._on_reply(topic, body)
                return
            self.table_state = body
        try:
            given = table_events.decode(topic, payload)
        except table_events.BadEvent as exc:
            self._bad(topic, str(exc))
            return
        if given is None:
            return
        event = given.event
        if isinstance(event, events.DayEvent) and topic == "state":
            self.table_day = event.day
        if isinstance(event, events.TimerEvent):  # the floor's clock, shown as it runs
            running = _TIMER_RUNS.get(event.state, (self.timer or {}).get("running", True))
            self.timer = {"running": running, "seat": event.seat, "kind": event.kind,
                          "state": event.state, "remaining_ms": event.remaining_ms}
            self.broadcast()
        if isinstance(event, events.SeatButtonEvent):  # the fists on the table, live
            pressed = topic.endswith(events.SeatPress.KIND)
            (self.down.add if pressed else self.down.discard)(event.seat)
            self.broadcast()
        # the envelope (api.Envelope) beside the fields of a published event; state has none
        seq, id = getattr(event, "seq", None), getattr(event, "id", None)
        if isinstance(seq, int) and isinstance(id, str):
            if id in self.recent_ids:
                return
            self.recent_ids.append(id)
            self.journal.seen("private" if topic.startswith("private/") else "event", seq)
        try:
            self.apply(given)
        except Refused as exc:  # the core refuses nothing the table says; keep it safe
            log.error("table event %s refused: %s", topic, exc)

    def _bad(self, topic: str, why: str) -> None:
        self.bad_events += 1
        log.warning("the table's message on %s refused (%d so far): %s", topic,
                    self.bad_events, why)

    def _on_reply(self, topic: str, body: dict[str, Any]) -> None:
        verb = self.pending.pop(str(body.get("id")), None)
        if verb is not None and not body.get("ok", True):
            self.notices.append(f"the table refused cmd/{verb}: {body.get('error')}")
            self.broadcast()

    # ------------------------------------------------------------------ pages

    def view(self) -> dict[str, Any]:
        """The view every page is sent (``judge.views.ViewMessage``, docs/judge-api.md)."""
        health = self.table["health"] or {}
        consoles = health.get("consoles") or []
        game = judge_game(self.game)
        game.offers += self.own_offers()
        return msgspec.to_builtins(ViewMessage(
            game=game, log=list(self.log_lines)[-60:],
            table=TableStatus(broker=self.table["broker"], status=self.table["status"],
                              consoles=[c.get("online") for c in consoles],
                              audio=(health.get("audio") or {}).get("ok"),
                              bad_events=self.bad_events),
            down=sorted(self.down), timer=None if self.timer is None else Clock(**self.timer),
            notices=list(self.notices), panel=PanelSettings(hide_roles=self.cfg.game.hide_roles)))

    def own_offers(self) -> list[Offer]:
        """The panel's own actions the judge may take now: the floor's clock, a new game."""
        offers = [Offer(action="timer", key=op, label=label, args={"op": op}, group="clock")
                  for op, label in (("pause", "Pause"), ("resume", "Resume"), ("add", "+10 s"))
                  if self.game.floor is not None or self.game.countdown]
        return [*offers, Offer(action="new_game", key="new-game", label="New game",
                               group="panel")]

    def broadcast(self) -> None:
        for watch in self.watchers:
            watch()
        if self.pages.sockets:
            self.pages.push(json.dumps(self.view()))


# ------------------------------------------------------------------ HTTP


PANEL = web.AppKey("panel", Panel)


async def index(request: web.Request) -> web.StreamResponse:
    request.app[PANEL].gate.require_page(request)
    return web.FileResponse(STATIC / "panel.html")


async def live(request: web.Request) -> web.StreamResponse:
    """The live channel: the view on every change; actions in, refusals back to their tab."""
    panel: Panel = request.app[PANEL]
    panel.gate.require_live(request)
    return await panel.pages.serve(request, lambda: json.dumps(panel.view()),
                                   lambda text: handle_message(panel, text))


def handle_message(panel: Panel, text: str) -> dict[str, Any] | None:
    """One message from a page (``judge.views.ActionMessage``: ``{"action", "args"?,
    "version"}``, docs/judge-api.md). A malformed one, an action made on a page older than the
    game, and one the rules refuse get a ``refused`` answer naming why, and the argument at
    fault when one is; nothing changes."""
    try:
        message = msgspec.json.decode(text, type=ActionMessage)
    except msgspec.ValidationError as exc:
        said, _, where = str(exc).partition(" - at `$")
        field = where.rstrip("`").lstrip(".") or None
        return _refusal(f"malformed message: {field + ': ' if field else ''}{said}; expected "
                        '{"action": "...", "args": {...}, "version": N}', field)
    except msgspec.DecodeError:
        return _refusal('malformed message: not JSON; expected {"action": "...", "args": '
                        '{...}, "version": N}')
    if message.version != panel.game.version:
        return _refusal("the game moved on (another tab acted first); look again and tap "
                        "again if still needed", "version")
    given = Action(message.action, message.args)
    try:
        if message.action in (Timer.kind, NewGame.kind):
            own = decode(given)
            if isinstance(own, Timer):
                panel.timer_command(own.op)
            else:
                panel.new_game()
        else:
            panel.apply(given)
    except BadArgument as exc:
        return _refusal(str(exc), exc.field)
    except Refused as exc:
        return _refusal(str(exc))
    return None


def _refusal(message: str, field: str | None = None) -> dict[str, Any]:
    return msgspec.to_builtins(Refusal(message=message, field=field))


def make_app(panel: Panel) -> web.Application:
    app = web.Application()
    app[PANEL] = panel
    app.router.add_get("/", index)
    panel.gate.add_routes(app)
    app.router.add_get("/live", live)
    app.router.add_static("/static", STATIC)
    record_routes.register(app, panel, panel.gate.logged_in)
    overlay_routes.add_routes(app, panel)
    app.on_shutdown.append(_close_sockets)
    return app


async def _close_sockets(app: web.Application) -> None:
    await app[PANEL].pages.close("panel stopping")


async def serve(cfg: JudgeConfig, ready: asyncio.Event | None = None,
                stop: asyncio.Event | None = None) -> None:
    """Run the panel until ``stop`` is set, or SIGTERM (systemd's stop; SIGINT is not enough: a
    process started in the background by a shell ignores it)."""
    panel = Panel(cfg)
    panel.loop = asyncio.get_running_loop()
    stop = stop or asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # main thread only
        panel.loop.add_signal_handler(signal.SIGTERM, stop.set)
    panel.client.connect_async(cfg.broker.host, cfg.broker.port, keepalive=cfg.broker.keepalive)
    panel.client.loop_start()
    runner = web.AppRunner(make_app(panel), shutdown_timeout=2.0)
    await runner.setup()
    host, port = split_listen(cfg.panel.listen, "panel.listen")
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("judge panel for %s at http://%s:%d/", cfg.table, host, port)
    print(f"judge panel: http://{host}:{port}/  (table {cfg.table})", flush=True)
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
        panel.client.loop_stop()
        panel.client.disconnect()
        panel.journal.close()
        panel.games.close()
