"""The service: wires the GPIO board, the store and the MQTT link to the core.

This is the imperative shell of DESIGN.md section 4. It owns the devices, the journal and the
connection, turns their happenings into inputs, and performs the core's effects. Nothing here
decides anything about the game. Delivery is its job too:

* every event goes to the store first, then to MQTT while connected; the broker's PUBACK marks
  it delivered. Events stored while the broker was away, or left from before a crash, are
  published on the next connect, oldest first, paced behind live ones (``controller.delivery``);
* ``health`` says how many events wait, and shouts when they pass the configured limit; its
  ``journal`` part says at once when the journal cannot take writes (events are then held in
  memory and written when it can; a retry runs every ``RETRY_SECONDS``);
* ``cmd/replay`` publishes kept events again for a consumer that missed some;
* a console's input is journaled with its events and the console's position in one
  transaction, and only then acknowledged to the console: whenever the controller dies, the
  console sends again exactly what the journal lacks (docs/protocol.md, "Exactly once").
"""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import msgspec

from controller import api
from controller.clock import Clock, ClockSync, SystemClock, clock_sync, host_boot_id
from controller.config import Config, ConsoleConfig
from controller.core.buttons import Button, SeatButton
from controller.core.commands import parse_replay, request_id, stale
from controller.core.day import Day, Nomination
from controller.core.effects import (
    AudioControl,
    CancelCues,
    Cue,
    DrivePin,
    Effect,
    Emit,
    Indicate,
    PersistSession,
    PublishState,
    Reply,
    SetLight,
    TypeKeys,
)
from controller.core.effects import Music as MusicEffect
from controller.core.inputs import (
    Boot,
    ButtonEdge,
    CommandReceived,
    ConsoleStatus,
    Input,
    KeyPressed,
)
from controller.core.lights import LIGHT_OFF, Light, LightMode
from controller.core.night import NightStep
from controller.core.scene import Standing
from controller.core.table import TableSetup, TableState, initial_state
from controller.core.timer import SpeechTimer
from controller.core.vote import VoteRules, VoteSession
from controller.cue_schedule import CueSchedule
from controller.delivery import Delivery
from controller.loop import COMMAND_QUEUE, EventLoop
from controller.messages import MessageFactory
from controller.mqtt_link import MqttLink
from controller.sd_notify import Notifier
from controller.store import JournalUnreadable, Store, StoredEvent
from controller.stored_state import LAST_BOOT
from controller.topics import topic_prefix
from firmware_bridge.emulator import EmulatedConsole
from firmware_bridge.link import ConsoleLink
from firmware_bridge.sequence import Position
from hardware.audio import Music, Speaker
from hardware.expander import ExpanderButtons, open_bus
from hardware.gpio import GpioBoard, make_pin_factory
from hardware.strip import StripLights, open_strip

log = logging.getLogger(__name__)


#: The answer to a command that finds the command queue full (see ``controller.loop``).
BUSY = "busy: the controller has too many commands waiting; send it again later"
STOPPING = "busy: the controller is stopping; send it again when it is back online"
#: Command replies that may await the broker's acknowledgement at once: half of the 20 QoS 1
#: messages in flight that paho (and mosquitto's receive maximum) allow, the rest for events.
REPLY_WINDOW = 10
GIL_SWITCH_SECONDS = 0.001
#: How often the wall clock's synchronisation is asked after.
CLOCK_CHECK_SECONDS = 30.0
#: How often a journal that could not take writes is tried again.
RETRY_SECONDS = 1.0
#: seconds between ``STATUS=`` updates to systemd when its watchdog is off
STATUS_EVERY = 5.0


class Service:
    """One running table. ``start`` opens the devices and the broker link, ``run_loop`` blocks
    applying inputs until ``stop``; ``run`` does both and always shuts down cleanly."""

    def __init__(self, config: Config, *, clock: Clock | None = None,
                 boot_id: str | None = None, rules: VoteRules | None = None,
                 clock_sync: Callable[[], ClockSync] = clock_sync):
        """``clock_sync``: asks whether the wall clock is synchronised (the kernel's, by
        default; injected by tests)."""
        self.config = config
        self.clock = clock or SystemClock()
        self._clock_sync = clock_sync
        self._sync = clock_sync()
        self._clock_watch = threading.Event()  # set: stop watching the clock
        self.boot_id = boot_id or uuid.uuid4().hex[:12]
        journal = {"keep": config.store.keep, "hold_limit": config.store.hold_limit,
                   "on_trouble": self._journal_trouble, "synchronous": config.store.synchronous}
        self.store = Store(config.store_path(), **journal)
        # private/ events count in their own journal: a gap in the public seq must not tell an
        # observer how much happened at night
        self.private_store = Store(config.private_store_path(), **journal)
        self._journals = {False: self.store, True: self.private_store}
        self._retry_timer: threading.Timer | None = None
        simulated = config.backends.gpio == "mock"
        setup = TableSetup(
            table=config.table,
            seats=config.seats,
            wired=config.vote_buttons(),
            keypads=config.keypad_seats(),
            debounce=config.gpio.debounce_ms / 1000,
            simulated=simulated,
            rules=rules or config.vote,
            one_nomination_per_speaker=config.day.one_nomination_per_speaker,
            one_nomination_rule=config.day.one_nomination_rule,
            night_seconds=config.night.seconds,
            night_cadence=config.night.cadence,
            standings=config.standings,
            night_steps=config.night.steps,
        )
        self.store.save(LAST_BOOT, self.boot_id.encode())  # see controller.presence
        self.messages = MessageFactory(boot_id=self.boot_id, store_id=self.store.store_id,
                                       gpio=config.backends.gpio, clock=self.clock,
                                       host_boot=host_boot_id())
        # console inputs on their way to the loop -> (their link, the console's position)
        self._positions: dict[int, tuple[ConsoleLink, Position]] = {}
        self._held: list[Emit] | None = None  # the events of the console input being applied
        # paho mids of replies the broker has not acknowledged yet (loop thread only): commands
        # wait while there are REPLY_WINDOW of them, so the QoS 1 window keeps room for events
        self._replies_in_flight: set[int] = set()
        self.loop = EventLoop(self._restored(setup), clock=self.clock, perform=self._perform,
                              take_commands=lambda: len(self._replies_in_flight) < REPLY_WINDOW,
                              applying=self._journaling)
        self.prefix = topic_prefix(config.table)
        self.mqtt = MqttLink(
            config.broker,
            prefix=self.prefix,
            client_id=f"mafia-table-{config.table}",
            subscriptions=["cmd/#", *(["sim/#"] if simulated else [])],
            will=self.messages.status(online=False),
            on_message=self._on_message,
            on_connected=lambda: self.loop.call_soon(self._connected),
            on_ack=lambda mid: self.loop.call_soon(lambda: self._acked(mid)),
        )
        # commands answered busy or refused as stale since the start, and whether the queue
        # refuses right now (written on paho's thread only)
        self._busy = 0
        self._stale = 0
        self._refusing = False
        self.delivery = Delivery(self._journals, self.mqtt.publish, self.mqtt.connected.is_set,
                                 rate=config.store.catch_up_rate, now=self.clock.monotonic,
                                 wake=self._wake_delivery)
        self._over_limit = False
        self.notifier = Notifier()
        if self.notifier.enabled:
            self.loop.every(self.notifier.watchdog_every or STATUS_EVERY, self._tell_systemd)
        self._told_status = ""
        self.factory = make_pin_factory(config.backends.gpio)
        self.gpio: GpioBoard | None = None
        self.strip: StripLights | None = None
        self.expanders: ExpanderButtons | None = None
        self.speaker: Speaker | None = None
        self.cues: CueSchedule | None = None
        self._emulator_dir: tempfile.TemporaryDirectory[str] | None = None
        self.emulators: dict[int, EmulatedConsole] = {}
        emulated = config.backends.consoles == "emulated"
        self.consoles = [self._console_link(i, c, emulated)
                         for i, c in enumerate(config.console)]

    def _console_link(self, index: int, console: ConsoleConfig, emulated: bool) -> ConsoleLink:
        """The link for one ``[[console]]``; with ``backends.consoles = "emulated"`` (``--sim``)
        an emulated console sits behind it, on a pty named by a symlink in a private folder."""
        port = console.port
        if emulated:
            if self._emulator_dir is None:
                self._emulator_dir = tempfile.TemporaryDirectory(prefix="mafia-consoles-")
            emulator = EmulatedConsole(Path(self._emulator_dir.name) / f"console-{index}",
                                       console.seats)
            self.emulators.update({seat: emulator for seat in console.seats})
            port = str(emulator.path)
        seats = frozenset(console.seats)

        def changed() -> None:  # on the link's thread: hand it over
            if not console.keys_only:  # only a console with the vote buttons matters to a vote
                self.loop.submit(ConsoleStatus(seats, link.health.online,
                                               self.clock.monotonic()))
            self.loop.call_soon(self._publish_health)

        def submit(inp: ButtonEdge | KeyPressed, position: Position) -> None:  # link's thread
            self._positions[id(inp)] = (link, position)
            self.loop.submit(inp)

        journaled = [Position(*row) for journal in self._journals.values()
                     for row in journal.console_positions()]
        link = ConsoleLink(port, seats, keys_only=console.keys_only, now=self.clock.monotonic,
                           submit=submit, on_health=changed, baudrate=console.baudrate,
                           journaled=journaled)
        return link

    @contextmanager
    def _journaling(self, inp: Input) -> Iterator[None]:
        """Around a console input: hold the events it causes, then journal them with the
        console's position in one transaction, publish them, and acknowledge the console."""
        origin = self._positions.pop(id(inp), None)
        if origin is None:
            yield
            return
        link, position = origin
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
        row = (position.unique_id, position.boot_id, position.seq, position.count)
        # the position goes with the events, into the journal that gets them (at night the
        # private one; a console's restart takes the furthest position of the two files);
        # an input that caused no event leaves its position in the public journal alone
        private = {e.private for e in held} or {False}
        kept = True
        for secret in sorted(private):
            journal = self._journals[secret]
            events = [(self._topic(e), self._payload_for(e, journal)) for e in held
                      if e.private == secret]
            stored = journal.append_console_input(events, row)
            kept = kept and len(stored) == len(events)
            self._published(stored, secret)
        if kept:  # (held in memory under a full disk counts: see docs/protocol.md)
            link.journaled(position)

    def _restored(self, setup: TableSetup) -> TableState:
        """The table as it was before a restart (manual lights, standings, today's
        nominations, the running vote), if the saved state fits this table; else a new one."""
        session = self._saved_session()
        saved = self.store.load("state")
        if saved is None:
            return initial_state(setup, session=session)
        try:
            state = msgspec.json.decode(saved, type=api.State)
        except msgspec.ValidationError as exc:
            log.warning("saved table state not used (%s); starting afresh", exc)
            return initial_state(setup, session=session)
        if state.table != self.config.table or len(state.seats) != self.config.seats:
            log.warning("saved table state is for another table layout; starting afresh")
            return initial_state(setup, session=session)
        log.info("table state restored from %s", self.store.path)
        return initial_state(
            setup,
            lights=tuple(None if s.manual is None else Light(LightMode(s.manual.mode),
                                                               s.manual.color)
                         for s in state.seats),
            session=session,
            standings=tuple(Standing(**msgspec.structs.asdict(s.standing)) for s in state.seats),
            today=Day(number=state.day,
                      nominations=tuple(Nomination(n.by, n.seat) for n in state.nominations),
                      nominators=tuple(n.by for n in state.nominations)),
            # a timer that ran when the controller went down: Boot reports it stopped
            night=state.phase == "night",
            night_step=self._saved_night_step(),
            interrupted=None if state.timer is None else SpeechTimer(
                id=state.timer.id, seat=state.timer.seat, kind=state.timer.kind,
                duration=state.timer.duration_ms / 1000, ends_at=None, left=0.0))

    def _saved_session(self) -> VoteSession | None:
        """The vote that was running before a restart, to be resumed (see ``vote.resume``)."""
        saved = self.store.load("session")
        if saved is None:
            return None
        try:
            session = msgspec.json.decode(saved, type=VoteSession | None)
        except msgspec.ValidationError as exc:
            log.error("saved vote session unreadable (%s); it is dropped", exc)
            return None
        if session is not None:
            log.warning("resuming vote session %r, interrupted by a restart", session.id)
        return session

    def _saved_night_step(self) -> NightStep | None:
        saved = self.store.load("night_step")
        if saved is None:
            return None
        try:
            return msgspec.json.decode(saved, type=NightStep | None)
        except msgspec.ValidationError as exc:
            log.error("saved night step unreadable (%s); dropped", exc)
            return None

    def start(self) -> None:
        """Open the GPIO parts and start connecting to the broker (in the background)."""
        # a press crosses three threads (gpiozero's, the loop, paho's); while paho's is busy
        # (a command flood), each crossing waits for the GIL up to the switch interval: 1 ms,
        # not Python's 5 ms
        sys.setswitchinterval(GIL_SWITCH_SECONDS)
        self.gpio = GpioBoard(self.config, factory=self.factory, now=self.clock.monotonic,
                              submit=self.loop.submit)
        backends = self.config.backends

        def failing() -> None:  # from the strip's or the expanders' thread: health shows it
            self.loop.call_soon(self._publish_health)

        if self.config.strip is not None:
            self.strip = open_strip(self.config.strip, backends.spi, now=self.clock.monotonic,
                                    on_error=failing)
        if self.config.expanders is not None:
            self.expanders = ExpanderButtons(
                self.config.expanders,
                open_bus(backends.i2c, self.config.expanders, self.factory),
                factory=self.factory, now=self.clock.monotonic, submit=self.loop.submit,
                on_error=failing)
        disk = self.config.backends.audio_disk_file
        music = self.config.music
        self.speaker = Speaker(self.config.backends.audio, disk_file=Path(disk) if disk else None,
                               music=Music(
                                   playlist=[Path(t) for t in music.playlist]
                                   or Music().playlist,
                                   shuffle=music.shuffle, fade_in=music.fade_in,
                                   fade_out=music.fade_out, volume=music.volume,
                                   duck=music.duck, voice=music.voice))
        self.cues = CueSchedule(self.speaker, now=self.clock.monotonic,
                                call_at=self.loop.call_at)
        parts = [self.gpio.describe(), *(part.describe() for part in (self.strip, self.expanders)
                                         if part is not None)]
        log.info("table %s: %d seats; %s; journal %s (%d events waiting)", self.config.table,
                 self.config.seats, "; ".join(parts), self.store.path, self.store.depth)
        for emulator in set(self.emulators.values()):
            emulator.start()
        for link in self.consoles:
            link.start()
        self.mqtt.retain("status", self.messages.status(online=True))
        if not self._sync.synchronized:
            log.warning("the wall clock is not synchronised (%s): ts may be off until it is; "
                        "mono_ms orders events meanwhile", self._sync.source)
        self._publish_health()
        self.mqtt.start()
        # the hardware is up and the journal open: ready, even while the broker is away
        self._told_status = self._status_line()
        self.notifier.notify(READY="1", STATUS=self._told_status)

    def _status_line(self) -> str:
        """One line for ``systemctl status``."""
        broker = "connected" if self.mqtt.connected.is_set() else "away"
        consoles = sum(link.health.online for link in self.consoles)
        return (f"table {self.config.table}: broker {broker}, {self._depth} events wait, "
                f"consoles {consoles}/{len(self.consoles)} online")

    def _tell_systemd(self) -> None:
        """On the loop thread, periodically: feed the watchdog, and say what changed."""
        fields = {"WATCHDOG": "1"} if self.notifier.watchdog_every else {}
        line = self._status_line()
        if line != self._told_status:
            fields["STATUS"] = self._told_status = line
        if fields:
            self.notifier.notify(**fields)
        threading.Thread(target=self._watch_clock, name="clock-watch", daemon=True).start()

    def run_loop(self) -> None:
        """Apply inputs until ``stop``; first (``Boot``) bring lights and ``state`` in line with
        the core and resume an interrupted vote."""
        self.loop.submit(Boot(self.clock.monotonic()))
        self.loop.run()

    def run(self) -> None:
        try:
            self.start()
            self.run_loop()
        finally:
            self.shutdown()

    def stop(self) -> None:
        """Ask the service to stop (thread-safe; from a signal handler too)."""
        self.loop.stop()

    def shutdown(self, ack_timeout: float = 2.0) -> None:
        """Lights off (GPIO and consoles), wait (a little) for the broker to acknowledge the
        events on their way, ``offline`` on ``status``, disconnect, release the pins, close the
        store. Each step runs even if one before it failed (say, after a failed ``start``)."""
        self.notifier.notify(STOPPING="1", STATUS=f"table {self.config.table}: stopping")
        self._clock_watch.set()
        self.delivery.stopped = True  # no more backlog: only what is on its way is waited for
        steps = [self._lights_off, self._stop_consoles]
        if self.mqtt.connected.is_set():
            steps.append(lambda: self.loop.drain(lambda: not self.delivery.in_flight,
                                                 ack_timeout))
        steps += [self.delivery.commit, self._answer_unrun_commands,
                  lambda: self.mqtt.stop(self.messages.status(online=False)),
                  self._cancel_retry, self.factory.close, self.store.close,
                  self.private_store.close, self.notifier.close]
        for step in steps:
            try:
                step()
            except Exception:
                log.exception("shutdown step %s failed; going on", getattr(step, "__name__", step))
        log.info("table %s stopped", self.config.table)

    def _answer_unrun_commands(self) -> None:
        """Commands still queued when the loop stopped are answered busy, not left silent."""
        for item in self.loop.unrun_commands():
            if isinstance(item, CommandReceived):
                self._reply(Reply(item.verb, request_id(item.payload), False, STOPPING,
                                  item.response_topic, item.correlation), at_once=True)

    def _lights_off(self) -> None:
        if self.gpio is not None:
            self.gpio.close()
            self.gpio = None
        if self.strip is not None:
            self.strip.close()
            self.strip = None
        if self.expanders is not None:
            self.expanders.close()
            self.expanders = None
        for link in self.consoles:
            for seat in link.seats:
                link.show(seat, LIGHT_OFF)

    def _stop_consoles(self) -> None:
        for link in self.consoles:
            link.stop()
        for emulator in set(self.emulators.values()):
            emulator.close()
        if self.speaker is not None:
            self.speaker.close()
        if self._emulator_dir is not None:
            self._emulator_dir.cleanup()

    # paho's thread: only hand things to the loop

    def _on_message(self, suffix: str, payload: bytes, response_topic: str | None,
                    correlation: bytes | None) -> None:
        cmd = CommandReceived(suffix.removeprefix("cmd/"), payload, self.clock.monotonic(),
                              response_topic or None, correlation)
        too_old = stale(payload, time.time()) if self._sync.synchronized else None
        if too_old is not None:
            self._stale += 1
            log.warning("command %s refused: %s", cmd.verb, too_old)
            self._reply(Reply(cmd.verb, request_id(payload), False, too_old, cmd.response_topic,
                              cmd.correlation), at_once=True)
            self.loop.call_soon(self._publish_health)
            return
        if self.loop.submit_command((lambda: self._replay(cmd)) if cmd.verb == "replay"
                                    else cmd):
            if self._refusing:
                self._refusing = False
                log.info("commands accepted again (%d answered busy since the start)",
                         self._busy)
                self.loop.call_soon(self._publish_health)
            return
        self._busy += 1
        if not self._refusing:
            self._refusing = True
            log.warning("command queue full (%d waiting) or stopping: commands are answered "
                        "busy until it has drained to half", self.loop.commands_waiting)
            self.loop.call_soon(self._publish_health)
        self._reply(Reply(cmd.verb, request_id(payload), False,
                          STOPPING if self.loop.stopping else BUSY, cmd.response_topic,
                          cmd.correlation), at_once=True)

    # the loop thread

    def _perform(self, effect: Effect) -> None:
        match effect:
            case Emit() if self._held is not None:
                self._held.append(effect)  # journaled with the console's position
            case Emit():
                journal = self._journals[effect.private]
                event = journal.append(self._topic(effect),
                                       self._payload_for(effect, journal))
                self._published([] if event is None else [event], effect.private)
            case PublishState():
                document = self.messages.state(effect.snapshot)
                self.store.save("state", document)
                self.mqtt.retain("state", document)
            case PersistSession():
                self.store.save("session", msgspec.json.encode(effect.session))
                self.store.save("night_step", msgspec.json.encode(effect.night_step))
            case SetLight():
                if self.gpio is not None:
                    self.gpio.show(effect.seat, effect.light)
                if self.strip is not None:
                    self.strip.show(effect.seat, effect.light)
                for link in self.consoles:
                    link.show(effect.seat, effect.light)
            case Reply():
                self._reply(effect)
            case DrivePin():
                self._drive(effect)
            case Cue():
                if self.cues is not None:
                    self.cues.add(effect)
            case CancelCues():
                if self.cues is not None:
                    self.cues.cancel(effect)
            case Indicate():
                for link in self.consoles:
                    link.indicate(effect.seat, effect.pattern)
            case MusicEffect():
                if self.speaker is not None:
                    self.speaker.night(effect.on)
            case AudioControl():
                if self.speaker is not None:
                    if effect.volume is not None:
                        self.speaker.set_volume(effect.volume)
                    if effect.next_track:
                        self.speaker.next_track()
            case TypeKeys():
                self.emulators[effect.seat].type(effect.seat, effect.keys)

    @staticmethod
    def _topic(effect: Emit) -> str:
        return ("private/" if effect.private else "event/") + effect.kind

    def _payload_for(self, effect: Emit, journal: Store) -> Callable[[int], bytes]:
        return lambda seq: self.messages.event(effect, seq, journal.store_id)

    def _published(self, events: list[StoredEvent], private: bool) -> None:
        """Stored events: to the broker now if it is there (else on the next connect)."""
        if self.mqtt.connected.is_set():
            for event in events:
                self.delivery.live(event, private)
        self._check_limit()

    def _drive(self, effect: DrivePin) -> None:
        self.hand(effect.button, effect.pressed)

    def hand(self, button: Button, pressed: bool) -> None:
        """A simulated hand: on the GPIO mock pin if the button is wired there, else on its
        fake expander, else on the seat's emulated console."""
        if button in self.config.wired_buttons():
            if self.gpio is not None:
                self.gpio.drive(button, pressed)
        elif button in self.config.expander_buttons():
            if self.expanders is not None:
                self.expanders.drive(button, pressed)
        elif isinstance(button, SeatButton) and button.seat in self.emulators:
            emulator = self.emulators[button.seat]
            (emulator.press if pressed else emulator.release)(button.seat)

    def glow(self, seat: int) -> tuple[float, float, float] | None:
        """What seat ``seat``'s light on the Pi (GPIO or strip) puts out now, 0..1 red, green,
        blue, read back from the pins or the bytes sent; None when the seat has neither."""
        for lights in (self.gpio, self.strip):
            glow = lights.glow(seat) if lights is not None else None
            if glow is not None:
                return glow
        return None

    def _connected(self) -> None:
        """After a connect: retained documents again, then the events still waiting."""
        self._replies_in_flight.clear()  # the old connection's are resent or gone
        self.mqtt.republish_retained()
        self.delivery.reconnected()
        self._publish_health()

    def _acked(self, mid: int) -> None:
        self._replies_in_flight.discard(mid)
        if self.delivery.acked(mid):  # the first of a batch: write them all in one go
            self.loop.call_soon(self._commit_acks)

    def _commit_acks(self) -> None:
        self.delivery.commit()
        self._check_limit()

    def _wake_delivery(self, seconds: float) -> None:
        """The backlog's pace: the delivery goes on after ``seconds``, woken by the loop's own
        wait (a catch-up asks this up to 50 times a second: no thread per wait)."""
        self.loop.call_at(self.clock.monotonic() + seconds, self.delivery.tick)

    def _journal_trouble(self) -> None:
        """A journal could not take a write, took it again, or refused an event: say so in
        ``health`` now, and keep retrying while anything is held."""
        self._publish_health()
        if self._retry_timer is None and any(j.problem for j in self._journals.values()):
            self._retry_timer = threading.Timer(
                RETRY_SECONDS, lambda: self.loop.call_soon(self._retry_journals))
            self._retry_timer.daemon = True
            self._retry_timer.start()

    def _retry_journals(self) -> None:
        self._retry_timer = None
        for journal in self._journals.values():
            journal.retry()
        self._journal_trouble()

    def _cancel_retry(self) -> None:
        if self._retry_timer is not None:
            self._retry_timer.cancel()

    @property
    def _depth(self) -> int:
        return self.store.depth + self.private_store.depth

    def _check_limit(self) -> None:
        over = self._depth > self.config.store.outbox_limit
        if over != self._over_limit:
            self._over_limit = over
            if over:
                log.error("outbox over its limit: %d events wait for the broker (limit %d); "
                          "they are kept on disk, nothing is dropped", self._depth,
                          self.config.store.outbox_limit)
            else:
                log.info("outbox back under its limit (%d events wait)", self._depth)
            self._publish_health()

    def _publish_health(self) -> None:
        self.mqtt.retain("health", self.messages.health(
            depth=self._depth, limit=self.config.store.outbox_limit,
            consoles=[link.health.as_dict() for link in self.consoles],
            audio=self.speaker.health() if self.speaker is not None else None,
            strip=self.strip.health() if self.strip is not None else None,
            expanders=self.expanders.health() if self.expanders is not None else None,
            commands=api.CommandHealth(queue_limit=COMMAND_QUEUE, refusing=self._refusing,
                                       busy=self._busy, stale=self._stale),
            broker=self._broker_health(),
            clock=api.ClockHealth(synchronized=self._sync.synchronized,
                                  max_error_ms=self._sync.max_error_ms, source=self._sync.source),
            journal=self._journal_health()))

    def _watch_clock(self) -> None:
        """On its own thread: ask whether the wall clock is synchronised every
        ``CLOCK_CHECK_SECONDS``; a change goes to ``health`` and the log."""
        while not self._clock_watch.wait(CLOCK_CHECK_SECONDS):
            now = self._clock_sync()
            if now.synchronized != self._sync.synchronized:
                self.loop.call_soon(lambda now=now: self._clock_changed(now))

    def _clock_changed(self, now: ClockSync) -> None:
        self._sync = now
        if now.synchronized:
            log.info("the wall clock is synchronised now (ts can be trusted; it may have "
                     "stepped: mono_ms orders events across the step)")
        else:
            log.warning("the wall clock is not synchronised (%s): ts may be off; commands are "
                        "not refused by their age until it is", now.source)
        self._publish_health()

    def _broker_health(self) -> api.BrokerLinkHealth:
        drops = self.mqtt.drops
        return api.BrokerLinkHealth(
            disconnects=drops.disconnects, taken_over=drops.taken_over,
            last_reason=drops.last_reason, thrown_off=drops.thrown_off(time.monotonic()))


    def _journal_health(self) -> api.JournalHealth:
        """Both journals together (the private one's own figures would tell about the night)."""
        journals = self._journals.values()
        return api.JournalHealth(
            ok=not any(j.problem or j.unreadable or j.dropped or j.moved_aside
                       for j in journals),
            problems=[p for j in journals for p in (j.problem, j.unreadable) if p],
            held=sum(j.held for j in journals), hold_limit=self.config.store.hold_limit,
            dropped=sum(j.dropped for j in journals),
            moved_aside=[str(j.moved_aside) for j in journals if j.moved_aside])

    def _replay(self, cmd: CommandReceived) -> None:
        parsed = parse_replay(cmd.payload)
        error = parsed.error
        command_id = parsed.id if parsed.value is None else parsed.value.id

        def reply(error: str | None) -> None:
            self._reply(Reply("replay", command_id, error is None, error, cmd.response_topic,
                              cmd.correlation))

        if parsed.value is not None and error is None:
            journal = self._journals[parsed.value.private]
            after = parsed.value.after_seq
            try:
                oldest = journal.oldest_kept()
            except JournalUnreadable as exc:
                return reply(str(exc))
            if after + 1 < oldest:
                error = (f"after_seq: events {after + 1}..{oldest - 1} are no longer kept; "
                         f"the oldest kept is {oldest}")
            else:
                log.info("replaying the events after seq %d (up to %d)", after,
                         journal.last_seq)
                self.delivery.replay(parsed.value.private, after, reply)
                return
        reply(error)

    def _reply(self, reply: Reply, at_once: bool = False) -> None:
        """Publish a command's reply. ``at_once``: a refusal sent from paho's thread without
        queueing the command (busy, stale), at QoS 0 and counted rather than logged here."""
        if not reply.ok and not at_once:
            log.warning("command %s (id %s) refused: %s", reply.verb, reply.id, reply.error)
        if reply.verb.startswith("night/"):  # when the night acts is a secret too
            topic = f"{self.prefix}private/reply/{reply.verb}"
        else:
            topic = reply.response_topic or f"{self.prefix}reply/{reply.verb}"
        mid = self.mqtt.reply(topic, self.messages.reply(reply), reply.correlation,
                              qos=0 if at_once else 1)
        if not at_once:
            self._replies_in_flight.add(mid)

