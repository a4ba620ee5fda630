"""The judge service: one table's rules core over MQTT, and the judge's panel over HTTP.

The imperative shell around ``judge.game``, composed of one part a job:

- ``judge.panel.kept_game``: the game being played, kept in its journal
  (``judge.panel.journal``), which a restarted panel replays to stand where it stood;
- ``judge.record.store``: the games' records, the one being played and the archived ones;
- ``judge.panel.table_link``: the MQTT link to the table (as the ``rules-core`` account of
  the shipped ACL), which stamps and sends the commands and matches their replies;
- ``judge.panel.live_view``: what the pages show, pushed to every logged-in tab and to the stream
  overlay at each change;
- ``judge.record.feed``: each game over (and each later edit of it) on its way to the hall,
  kept until the broker acknowledges it; the hall's ``seating`` names the players;
- ``judge.panel.roster``: the club's players, the names played here and the club's own file,
  so a name typed is written as the club writes it (``judge.panel.roster_routes``).

``Panel`` is the loop between them: it feeds the core the judge's taps (from the panel's
WebSocket) and the table's events (from the link), sends the core's commands to the table and
shows the change. Everything runs on one asyncio loop, so two tabs' actions are ordered: an
action names the game ``version`` its page showed, and one made on a stale page is refused with
a message rather than applied to a game its judge did not see; paho runs on that loop too (no
network thread: ``kit.mqtt.LoopDriver``). The routes get the parts they need, never the
``Panel``: the games' pages the record store (``judge.record.routes``), the overlay the live
view and the game's history (``judge.overlay.routes``), the roster's its store.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import time
from collections import deque
from pathlib import Path
from typing import Any

import msgspec
from aiohttp import web

from contract import events
from contract.commands import AudioCommand, ReplayCommand, TimerAdd
from contract.verbs import (
    AUDIO,
    REPLAY,
    TIMER_ADD,
    TIMER_PAUSE,
    TIMER_RESUME,
    UNSTAMPED,
    TableCommand,
    bare_command,
)
from judge.game import Action, Game, Refused, TableEvent
from judge.game.actions import NewGame, Timer, decode
from judge.game.rules import wrong_preset
from judge.game.state import BadArgument
from judge.game.wind_up import wind_up
from judge.overlay import routes as overlay_routes
from judge.panel import roster_routes, table_events
from judge.panel.config import JudgeConfig
from judge.panel.journal import Journal
from judge.panel.kept_game import KeptGame
from judge.panel.live_view import LiveView
from judge.panel.roster import Roster
from judge.panel.table_link import TableLink
from judge.panel.views import ActionMessage, Done, Refusal, as_json
from judge.record import routes as record_routes
from judge.record.document import JUDGE, NEW_GAME, Edit, Record
from judge.record.feed import Outgoing, RecordFeed
from judge.record.previous import previous
from judge.record.store import GameStore
from kit import i18n, webguard
from kit.i18n import Line, Words
from kit.i18n import web as i18n_web
from kit.startup import freeze_startup
from kit.weblogin import WebLogin
from kit.webserve import WebServer
from results.feed import SeatingMessage

log = logging.getLogger("judge")
STATIC = Path(__file__).with_name("static")
#: whether the floor's clock runs after each ``event/timer`` state (``changed``, ``warning`` and
#: ``final`` keep what it was doing)
_TIMER_RUNS = {"started": True, "resumed": True, "paused": False, "stopped": False,
               "ended": False}

#: no wrong preset told yet (``Panel._tell_wrong_preset``)
_UNTOLD = object()
#: the judge's buttons for the floor's clock, as the table's commands (the Reject adds 10 s)
_TIMER_OPS: dict[str, TableCommand[Any]] = {
    "pause": bare_command(TIMER_PAUSE), "resume": bare_command(TIMER_RESUME),
    "add": TableCommand(TIMER_ADD, TimerAdd(id=UNSTAMPED, seconds=10))}


class Panel:
    """The judge's service for one table: its parts (``kept``, ``games``, ``link``, ``live``,
    and ``gate``, the login) and the three things that move it: a tap (``apply``, from
    ``handle_message``), a table message (``_on_table``) and the link going up or down
    (``_connected``)."""

    def __init__(self, cfg: JudgeConfig):
        self.cfg = cfg
        self.journal = Journal(cfg.journal.path)
        self.games = GameStore(self.journal, cfg.journal.path, cfg.table, cfg.game_rules,
                               cfg.game.seats)
        # each game knows the one archived before it at the table (the book's proposals)
        self.kept = KeptGame(self.journal,
                             lambda: cfg.new_game(previous(self.games.latest())))
        self.roster = Roster(cfg.journal.path)
        if not len(self.roster):  # a new roster: the players of the games kept here so far
            for record in self.games.archived_games():
                self.roster.played((p.name for p in record.players), record.created)
        self.live = LiveView(self.kept, hide_roles=cfg.game.hide_roles,
                             language=cfg.panel.language)
        self.feed = RecordFeed(cfg.journal.path, cfg.table)
        self.games.changed = self._record_changed
        self.link = TableLink(cfg, self._on_table, self._connected, self._published)
        self.in_flight: dict[int, Outgoing] = {}  # message id -> the revision it carries
        self.seating: SeatingMessage | None = None  # the hall's, for this table's round
        self.gate = WebLogin(
            password=Path(cfg.panel.password_file).read_text(encoding="utf-8").strip(),
            cookie="judge_session", title=Words("panel.title"),
            stylesheet="/static/panel/panel.css", sessions=self.journal, log=log)
        self.recent_ids: deque[str] = deque(maxlen=4096)  # redelivered events are dropped
        self._preset_told: object = _UNTOLD  # the table's preset last told to be the wrong one
        self._unplayable: int | None = None  # a table's seats the book does not play (logged)

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.kept.game

    def close(self) -> None:
        """Off the broker, then the SQLite closed (an acknowledgement still on its way is
        dropped: its revision goes again at the next start)."""
        self.link.stop()
        self.in_flight.clear()
        self.journal.close()
        self.games.close()
        self.feed.close()
        self.roster.close()

    # ------------------------------------------------------------------ the game

    def apply(self, given: Action | TableEvent, *, shown: bool = False) -> None:
        """One input: the core decides, the journal keeps it, the table and pages are told.
        ``Refused`` goes back to the caller with nothing changed. ``shown``: what the panel
        shows of the table changed with it (a fist, the clock), so the pages are told even
        when the game did not change, and only once when it did."""
        if isinstance(given, Action) and given.kind == "start":
            wrong = self.wrong_preset()
            if wrong is not None:
                raise Refused(wrong)
        was = self.game.stage
        now = time.time()
        commands = self.kept.apply(given, now)
        for command in commands or ():
            self.link.send(command)
        if was == "setup" and self.game.stage != "setup":  # the evening's players, one more game
            self.roster.played((p.name for p in self.game.players), now)
        if (was == "over") != (self.game.stage == "over"):  # the win, or its undo
            self._record_changed(self.games.current())
        if commands is not None or shown:
            self.live.show()

    def wrong_preset(self) -> Line | None:
        """Why the game may not start at this table (``judge.game.rules.wrong_preset``: it
        plays another rule preset than the book needs); ``None`` when it plays the book's, or
        has not said (a table older than ``state``'s ``rules``, or one not heard yet: the
        panel cannot tell)."""
        state = self.live.seen.state
        return wrong_preset(self.game.book, state["rules"]) if "rules" in state else None

    def timer_command(self, op: str) -> None:
        """The floor's clock (4.3.1: one minute a speech; 4.2.1: the mafia's minute; a club's
        discussion): pause, resume, or 10 s more. Not a rule decision, so not the core's: the
        table's timer takes it as it is."""
        if self.game.floor is None and not self.game.countdown and not self.game.discussing:
            raise Refused(Line(self.game.rules.cite("floor"), "refused.timer.floor"))
        if op not in _TIMER_OPS:
            raise Refused(Line(None, "refused.timer.op", op=op))
        self.link.send(_TIMER_OPS[op])

    def new_game(self, abandon: Edit | None = None) -> None:
        """A fresh game; whatever the last one left running at the table is ended first
        (``judge.game.wind_up``). The last game's record is kept; unfinished, it is recorded
        as abandoned (``abandon``: the judge's reason, else "a new game was started")."""
        self.games.archive(abandon or Edit(
            kind="abandon", at=time.time(), by=JUDGE, reason=NEW_GAME))
        # what the game started (its commands may be ahead of the table's state) and what the
        # table said runs: an ending that finds nothing is refused, and is no news to the judge
        for command in wind_up(self.game, self.live.seen.state):
            self.link.send(command, quiet=True)
        old = self.game
        self.kept.start_over()
        self.apply(TableEvent("state", events.DayEvent(day=self.live.seen.day)))
        # a club's evening: its players stay seated for the next game; a tournament's table
        # is seated by the hall, round by round (a round's names kept would be the wrong ones)
        self._seat_table(None if self.seating is not None else [p.name for p in old.players])
        self._seat_players()
        self.live.show()

    def _seat_table(self, names: list[str] | None = None) -> None:
        """In setup, the game seats the table's players: as many seats as the table has (its
        ``state``), unless ``[game] seats`` says, and the book plays that many; ``names`` in
        them (the last game's, for the next; else the names typed so far). Not a rule decision:
        the table's own size, and who came to play."""
        game = self.game
        if game.stage != "setup":
            return
        count = self._table_seats() or len(game.players)
        given = [p.name for p in game.players] if names is None else names
        wanted = (given + [""] * count)[:count]
        if wanted == [p.name for p in game.players]:
            return
        try:
            self.apply(Action("seating", {"names": wanted}))
        except Refused as exc:  # a journal's names seated twice, before names were checked
            log.warning("the seating of %s refused: %s", wanted, exc)

    def _table_seats(self) -> int | None:
        """The table's number of seats (its retained ``state``), when the game is to play it:
        no ``[game] seats``, and a number the book plays (else logged once: the book's own)."""
        seats = self.live.seen.state.get("seats")
        if self.cfg.game.seats is not None or not isinstance(seats, list):
            return None
        players = self.game.book.players
        if not players.min <= len(seats) <= players.max:
            if self._unplayable != len(seats):
                self._unplayable = len(seats)
                log.warning("the table has %d seats; %s plays %d to %d: the game has %d",
                            len(seats), i18n.text(self.game.book.title, "en"), players.min,
                            players.max, len(self.game.players))
            return None
        return len(seats)

    # ------------------------------------------------------------------ the hall

    def _seat_players(self) -> None:
        """In setup, the names of the hall's seating for this table's round, unless a game of
        that round has already finished here (the next game is not that round's)."""
        seating = self.seating
        if seating is None or self.game.stage != "setup" \
                or self.feed.played(seating.tournament, seating.round):
            return
        seats = {p.seat for p in self.game.players}
        for seated in seating.seats:
            if seated.seat in seats and self.game.player(seated.seat).name != seated.player:
                self.apply(Action("name", {"seat": seated.seat, "name": seated.player}))
        current = self.games.current()
        if current is not None:
            self.feed.seated(current.id, seating.tournament, seating.round)

    def _record_changed(self, record: Record | None) -> None:
        """A game's record may have changed: its next revision goes to the hall if it is due
        (``judge.record.feed``: only a game over, only a change)."""
        outgoing = self.feed.offer(record, time.time())
        if outgoing is not None:
            self._send_record(outgoing)

    def _send_record(self, outgoing: Outgoing) -> None:
        self.in_flight[self.link.publish_retained(outgoing.topic, outgoing.payload)] = outgoing

    def _published(self, mid: int, ok: bool) -> None:
        outgoing = self.in_flight.pop(mid, None)
        if outgoing is None:
            return
        if ok:
            self.feed.acked(outgoing.game, outgoing.revision)
        else:  # kept: sent again at the next connect
            log.error("the broker refused game %s's record (revision %d): may this account "
                      "write %s?", outgoing.game, outgoing.revision, outgoing.topic)

    # ------------------------------------------------------------------ the table (our loop)

    def _connected(self, up: bool) -> None:
        seen = self.live.seen
        seen.broker = up
        if not up:
            seen.status = "unknown"  # until the table says again
        if up:  # missed events come again (docs/mqtt-api.md, "Events and delivery")
            for kind, private in (("event", False), ("private", True)):
                seq = self.journal.last_seq(kind)
                if seq is not None:
                    self.link.send(TableCommand(REPLAY, ReplayCommand(
                        id=UNSTAMPED, after_seq=seq, private=private)))
            for outgoing in self.feed.unacked():  # the games the broker has not got yet
                self._send_record(outgoing)
        self.live.show()

    def _on_table(self, topic: str, payload: bytes) -> None:
        """One message from the table. Events are decoded once, here, into their types
        (``judge.panel.table_events``); one that is not its type is refused, counted and logged,
        and changes nothing."""
        seen = self.live.seen
        if topic == "seating":
            self._on_seating(payload)
            return
        if topic in ("status", "health", "state") or topic.startswith(("reply/",
                                                                        "private/reply/")):
            try:
                body = json.loads(payload)
            except ValueError:
                body = None
            if not isinstance(body, dict):
                self._bad(topic, "not a JSON object")
                return
            if topic == "status":
                seen.status = body.get("state")
                if seen.status == "online":
                    self._speak_our_language()
                self.live.show()
                return
            if topic == "health":
                seen.health = body
                self.live.show()
                return
            if topic != "state":
                notice = self.link.answered(body)
                if notice is not None:
                    seen.notices.append(notice)
                    self.live.show()
                return
            said, seen.state = seen.state.get("rules", _UNTOLD), body
            self._tell_wrong_preset()
            self._seat_table()
            if body.get("rules", _UNTOLD) != said:  # the header's preset check: shown now,
                self.live.show()  # not at the table's next health (a tab then saw none)
        try:
            given = table_events.decode(topic, payload)
        except table_events.BadEvent as exc:
            self._bad(topic, str(exc))
            return
        if given is None:
            return
        event = given.event
        if isinstance(event, events.DayEvent) and topic == "state":
            seen.day = event.day
        # what the header shows of the table changed: shown once, with the game's change if any
        shown = isinstance(event, events.TimerEvent | events.SeatButtonEvent
                           | events.NightStepEvent | events.VoteWindow)
        if isinstance(event, events.TimerEvent):  # the floor's clock, shown as it runs
            running = _TIMER_RUNS.get(event.state, (seen.timer or {}).get("running", True))
            seen.timer = {"running": running, "seat": event.seat, "kind": event.kind,
                          "state": event.state, "remaining_ms": event.remaining_ms}
        if isinstance(event, events.NightStepEvent):  # a night step's own time, counted down
            seen.timer = {"running": True, "seat": None, "kind": "night_step",
                          "state": event.state, "remaining_ms": round(event.seconds * 1000)}
        if isinstance(event, events.TimerEvent | events.NightStepEvent):
            seen.timer_at = self.live.now()
        if isinstance(event, events.VoteWindow):  # whose window is open, before any count
            seen.window = None if event.state == "closed" else {
                "candidate": event.candidate, "attempt": event.attempt}
        if isinstance(event, events.SeatButtonEvent):  # the fists on the table, live
            pressed = topic.endswith(events.SeatPress.KIND)
            (seen.down.add if pressed else seen.down.discard)(event.seat)
        # the envelope (api.Envelope) beside the fields of a published event; state has none
        seq, id = getattr(event, "seq", None), getattr(event, "id", None)
        if isinstance(seq, int) and isinstance(id, str):
            if id in self.recent_ids:
                if shown:
                    self.live.show()
                return
            self.recent_ids.append(id)
            self.journal.seen("private" if topic.startswith("private/") else "event", seq)
        try:
            self.apply(given, shown=shown)
        except Refused as exc:  # the core refuses nothing the table says; keep it safe
            log.error("table event %s refused: %s", topic, exc)
            if shown:
                self.live.show()

    def _tell_wrong_preset(self) -> None:
        """A table on another rule preset than the book's is the judge's notice as soon as it
        says so (in setup, before the Start it refuses; in a game, a table restarted on
        another preset), once for each preset it says."""
        said = self.live.seen.state.get("rules")
        wrong = self.wrong_preset()
        if wrong is not None and said != self._preset_told:
            self.live.seen.notices.append(wrong)
        self._preset_told = said if wrong is not None else _UNTOLD

    def _speak_our_language(self) -> None:
        """The table is up (each start of it, and each connect of ours: ``status`` is
        retained): it speaks the panel's language from now on, the club's one choice
        (``[panel] language``; docs/i18n.md). A language the table has no voice for is its
        refusal, shown to the judge as any refused command is; the table then speaks its own
        ``[music] voice``."""
        self.link.send(TableCommand(AUDIO, AudioCommand(
            id=UNSTAMPED, voice=self.cfg.panel.language)))

    def _on_seating(self, payload: bytes) -> None:
        """The hall's seating of this table's round (retained: again at every connect)."""
        try:
            self.seating = msgspec.json.decode(payload, type=SeatingMessage)
        except msgspec.DecodeError as exc:
            self._bad("seating", str(exc))
            return
        self._seat_players()
        self.live.show()

    def _bad(self, topic: str, why: str) -> None:
        seen = self.live.seen
        seen.bad_events += 1
        log.warning("the table's message on %s refused (%d so far): %s", topic,
                    seen.bad_events, why)


# ------------------------------------------------------------------ HTTP


PANEL = web.AppKey("panel", Panel)


async def index(request: web.Request) -> web.StreamResponse:
    request.app[PANEL].gate.require_page(request)
    return web.FileResponse(STATIC / "panel.html")


async def live(request: web.Request) -> web.StreamResponse:
    """The live channel: the view on every change; actions in, refusals back to their tab."""
    panel: Panel = request.app[PANEL]
    panel.gate.require_live(request)
    return await panel.live.pages.serve(request, panel.live.text,
                                        lambda text: handle_message(panel, text))


def handle_message(panel: Panel, text: str) -> dict[str, Any] | None:
    """One message from a page (``judge.panel.views.ActionMessage``: ``{"action", "args"?,
    "version"}``, docs/judge-api.md). A malformed one, an action made on a page older than the
    game, and one the rules refuse get a ``refused`` answer naming why, and the argument at
    fault when one is; nothing changes."""
    try:
        message = msgspec.json.decode(text, type=ActionMessage)
    except msgspec.ValidationError as exc:
        said, _, where = str(exc).partition(" - at `$")
        field = where.rstrip("`").lstrip(".") or None
        return _refusal(panel, Line(None, "refused.message", field=field or "", detail=said),
                        field)
    except msgspec.DecodeError:
        return _refusal(panel, Line(None, "refused.message.not_json"))
    except RecursionError:  # msgspec's depth limit (as json's)
        return _refusal(panel, Line(None, "refused.message.too_deep"))
    ref = message.ref
    if message.version != panel.game.version:
        return _refusal(panel, Line(None, "refused.version"), "version", ref)
    args = message.args
    if message.action == "name" and isinstance(args.get("name"), str):  # as the roster has it
        args = {**args, "name": panel.roster.spelling(args["name"])}
    given = Action(message.action, args)
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
        return _refusal(panel, exc.line, exc.field, ref)
    except Refused as exc:
        return _refusal(panel, exc.line, ref=ref)
    return None if ref is None else as_json(Done(ref=ref), panel.live.language)


def _refusal(panel: Panel, line: Line, field: str | None = None,
             ref: int | None = None) -> dict[str, Any]:
    language = panel.live.language
    refused: dict[str, Any] = as_json(Refusal(message=i18n.render(line, language), words=line,
                                              field=field, ref=ref), language)
    return refused


def make_app(panel: Panel) -> web.Application:
    """The panel's routes (the games' and the overlay's too) behind the app guard
    (``kit.webguard``: the Origin of every change, no-store on every answer)."""
    app = webguard.application(log)
    app[PANEL] = panel
    i18n_web.setup(app, panel.cfg.panel.language)
    app.router.add_get("/", index)
    panel.gate.add_routes(app)
    app.router.add_get("/live", live)
    app.router.add_static("/static/panel", STATIC)
    record_routes.register(app, panel.games, panel.new_game, panel.gate.logged_in,
                           panel.cfg.game_rules.book, panel.cfg.table_name)
    roster_routes.register(app, panel.roster, panel.gate.logged_in)
    overlay_routes.add_routes(app, panel.cfg.overlay, panel.kept.history(), panel.live)
    app.on_shutdown.append(_close_sockets)
    return app


async def _close_sockets(app: web.Application) -> None:
    await app[PANEL].live.pages.close("panel stopping")


async def serve(cfg: JudgeConfig, ready: asyncio.Event | None = None,
                stop: asyncio.Event | None = None, *, freeze: bool = False) -> None:
    """Run the panel until ``stop`` is set, or SIGTERM (systemd's stop; SIGINT is not enough: a
    process started in the background by a shell ignores it). ``freeze``: once it listens,
    its start-up is moved out of the garbage collector's sight (``kit.startup``), for the
    process that runs the panel (``mafia-table judge``), not for a test's."""
    panel = Panel(cfg)
    loop = asyncio.get_running_loop()
    stop = stop or asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # main thread only
        loop.add_signal_handler(signal.SIGTERM, stop.set)
    panel.link.start(loop)
    server = WebServer(make_app(panel), listen=cfg.panel.listen, tls=cfg.panel.tls,
                       what=Words("server.judge"), language=cfg.panel.language)
    await server.start()
    if freeze:
        freeze_startup()
    lines = server.describe()
    log.info("%s (table %s)", "; ".join(line.strip() for line in lines), cfg.table)
    print(f"{lines[0]}  (table {cfg.table})", *lines[1:], sep="\n", flush=True)
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        await server.stop()
        panel.close()
