"""The service: one running table, the façade over the imperative shell.

This is the imperative shell of docs/architecture.md. It owns the devices, the journal and the
connection, turns their happenings into inputs, and performs the core's effects. Nothing here
decides anything about the game. ``Service`` builds the shell's parts (``controller.shell``:
one job each) and runs them in order:

* every event goes to the journal first, then to MQTT while connected; the broker's PUBACK marks
  it delivered; what waited is published on the next connect (``controller.shell.outbox``,
  ``controller.delivery``); events leave on a connection of their own (``event_link``), the
  commands, replies and retained documents on the other (``mqtt``, with the last will);
* a console's input is journaled with its events and the console's position in one
  transaction, and only then acknowledged to the console (docs/protocol.md, "Exactly once");
* ``health`` says how many events wait, whether the journal takes writes, how the consoles,
  devices, broker link and wall clock are (``controller.shell.health``);
* ``cmd/replay`` publishes kept events again (``controller.shell.replay``).
"""

from __future__ import annotations

import logging
import sys
import uuid
from collections.abc import Callable
from functools import partial

from contract.buttons import Button
from contract.inputs import Boot
from contract.topics import topic_prefix
from controller.clock import Clock, ClockSync, SystemClock, clock_sync, host_boot_id
from controller.config import Config
from controller.core.vote import VoteRules
from controller.delivery import Delivery
from controller.journal import Journal
from controller.loop import EventLoop
from controller.messages import MessageFactory
from controller.mqtt_link import MqttLink
from controller.sd_notify import Notifier
from controller.shell import restore, wiring
from controller.shell.clock_watch import ClockWatch
from controller.shell.effects import EffectPerformer
from controller.shell.hands import MARGIN, SimulatedHand
from controller.shell.health import HealthReport
from controller.shell.intake import CommandIntake
from controller.shell.outbox import Outbox
from controller.shell.repeats import RecentCommands
from controller.shell.replay import replay
from controller.stored_state import LAST_BOOT
from firmware_bridge.ports import CONSOLE_PORTS
from firmware_bridge.sequence import Position
from hardware.audio import SoundOut
from hardware.expander import ExpanderButtons
from hardware.gpio import GpioBoard, make_pin_factory
from hardware.strip import StripLights
from kit.startup import freeze_startup

log = logging.getLogger(__name__)

GIL_SWITCH_SECONDS = 0.001
#: seconds between ``STATUS=`` updates to systemd when its watchdog is off
STATUS_EVERY = 5.0


class Service:
    """One running table. ``start`` opens the devices and the broker link, ``run_loop`` blocks
    applying inputs until ``stop``; ``run`` does both and always shuts down cleanly."""

    # the parts built in ``__init__``, some reached from callbacks set up before them
    mqtt: MqttLink
    event_link: MqttLink
    delivery: Delivery
    outbox: Outbox
    intake: CommandIntake
    effects: EffectPerformer

    def __init__(self, config: Config, *, clock: Clock | None = None,
                 boot_id: str | None = None, rules: VoteRules | None = None,
                 clock_sync: Callable[[], ClockSync] = clock_sync,
                 freeze_startup: bool = False):
        """``clock_sync``: asks whether the wall clock is synchronised (the kernel's, by
        default; injected by tests). ``freeze_startup``: at the end of ``start``, move everything
        made so far out of the garbage collector's sight (``kit.startup``), for the process
        that runs the table (``mafia-table run``); not for a process that builds many services
        (the tests), which would keep each one's garbage for good."""
        self.config = config
        self._freeze_startup = freeze_startup
        self.clock = clock or SystemClock()
        self.boot_id = boot_id or uuid.uuid4().hex[:12]
        journal = partial(Journal, keep=config.store.keep, hold_limit=config.store.hold_limit,
                          on_trouble=lambda: self.outbox.trouble(),
                          synchronous=config.store.synchronous)
        self.store = journal(config.store_path())
        # private/ events count in their own journal: a gap in the public seq must not tell an
        # observer how much happened at night
        self.private_store = journal(config.private_store_path())
        journals = {False: self.store, True: self.private_store}
        self.store.save(LAST_BOOT, self.boot_id.encode())  # see controller.presence
        self.messages = MessageFactory(boot_id=self.boot_id, store_id=self.store.store_id,
                                       gpio=config.backends.gpio, clock=self.clock,
                                       host_boot=host_boot_id())
        self.ports = CONSOLE_PORTS[config.backends.consoles]()
        # the emulated console of each seat (--sim): the tests and the virtual table read them
        self.emulators = self.ports.emulators
        self.devices = wiring.Devices(self.ports)
        self.recent_commands = RecentCommands()  # each command id runs once
        self.loop = EventLoop(
            restore.restored_state(self.store, config, wiring.table_setup(config, rules)),
            clock=self.clock, perform=lambda effect: self.effects.perform(effect),
            take_commands=lambda: self.intake.take_commands(),
            repeats=self.recent_commands,
            applying=lambda inp: self.outbox.journaling(inp))
        # the one hand of DrivePin, TypeKeys and the window: a button no faster than it is read
        self.hands = SimulatedHand(self.devices, spacing=config.gpio.debounce_ms / 1000 + MARGIN,
                                   now=self.clock.monotonic, call_soon=self.loop.call_soon,
                                   call_at=self.loop.call_at)
        self.clock_watch = ClockWatch(clock_sync, call_soon=self.loop.call_soon,
                                      on_change=self._publish_health)
        self.prefix = topic_prefix(config.table)
        self.intake = CommandIntake(
            loop=self.loop, mqtt=lambda: self.mqtt, messages=self.messages, prefix=self.prefix,
            now=self.clock.monotonic, synchronized=lambda: self.clock_watch.sync.synchronized,
            replay=lambda cmd: replay(cmd, journals, self.delivery, self.intake.reply),
            on_change=self._publish_health, recent=self.recent_commands)
        events_broker = config.broker.for_events()
        self.mqtt = MqttLink(
            config.broker,
            prefix=self.prefix,
            client_id=f"mafia-table-{config.table}",
            subscriptions=["cmd/#", *(["sim/#"] if config.backends.simulated else [])],
            will=self.messages.status(online=False),
            on_message=self.intake.on_message,
            on_connected=lambda: self.loop.call_soon(self._connected),
            on_ack=lambda mid: self.loop.call_soon(
                lambda: self._acked(mid, events=events_broker is None)),
        )
        # the events leave on a connection of their own, so a flood of commands (their acks,
        # the busy answers) never stands between a press and the broker: mosquitto reads one
        # packet of a connection per turn, and paho's one thread writes them all
        self.event_link = self.mqtt if events_broker is None else MqttLink(
            events_broker,
            prefix=self.prefix,
            client_id=f"mafia-table-{config.table}-events",
            subscriptions=[],
            will=None,
            on_message=lambda *message: None,
            on_connected=lambda: self.loop.call_soon(self.delivery.reconnected),
            on_ack=lambda mid: self.loop.call_soon(lambda: self.outbox.acked(mid)),
        )
        if events_broker is None:
            log.info("events share the command connection: the broker has accounts and "
                     "[broker] events_username is not set (config/mosquitto/README.md)")
        self.delivery = Delivery(journals, self.event_link.publish,
                                 self.event_link.connected.is_set,
                                 rate=config.store.catch_up_rate, now=self.clock.monotonic,
                                 wake=self._wake_delivery)
        self.outbox = Outbox(journals, messages=self.messages, delivery=self.delivery,
                             connected=self.event_link.connected.is_set,
                             limit=config.store.outbox_limit, call_soon=self.loop.call_soon,
                             call_at=self.loop.call_at, now=self.clock.monotonic,
                             on_change=self._publish_health)
        self.health = HealthReport(messages=self.messages, mqtt=self.mqtt, outbox=self.outbox,
                                   devices=self.devices, intake=self.intake,
                                   clock_watch=self.clock_watch,
                                   hold_limit=config.store.hold_limit)
        self.notifier = Notifier()
        if self.notifier.enabled:
            self.loop.every(self.notifier.watchdog_every or STATUS_EVERY, self._tell_systemd)
        self._told_status = ""
        self.factory = make_pin_factory(config.backends.gpio)
        self.consoles = self.devices.links = wiring.console_links(
            config, ports=self.ports, clock=self.clock, loop=self.loop,
            journaled=[Position(*row) for journal in journals.values()
                       for row in journal.console_positions()],
            noted=self.outbox.console_input, on_health=self._publish_health)
        self.effects = EffectPerformer(
            outbox=self.outbox, store=self.store, messages=self.messages, mqtt=self.mqtt,
            devices=self.devices, reply=self.intake.reply, hand=self.hands)

    # the devices, as the tools and tests look at them

    @property
    def gpio(self) -> GpioBoard | None:
        return self.devices.gpio

    @property
    def strip(self) -> StripLights | None:
        return self.devices.strip

    @property
    def expanders(self) -> ExpanderButtons | None:
        return self.devices.expanders

    @property
    def speaker(self) -> SoundOut | None:
        return self.devices.speaker

    def start(self) -> None:
        """Open the GPIO parts and start connecting to the broker (in the background)."""
        # a press crosses three threads (gpiozero's, the loop, paho's); while paho's is busy
        # (a command flood), each crossing waits for the GIL up to the switch interval: 1 ms,
        # not Python's 5 ms
        sys.setswitchinterval(GIL_SWITCH_SECONDS)

        def failing() -> None:  # from the strip's or the expanders' thread: health shows it
            self.loop.call_soon(self._publish_health)

        self.devices.open(self.config, factory=self.factory, clock=self.clock, loop=self.loop,
                          on_error=failing)
        log.info("table %s: %d seats; %s; journal %s (%d events waiting)", self.config.table,
                 self.config.seats, self.devices.describe(), self.store.path, self.store.depth)
        self.ports.start()
        for link in self.consoles:
            link.start()
        self.mqtt.retain("status", self.messages.status(online=True))
        self.clock_watch.start()
        self._publish_health()
        self.mqtt.start()
        if self.event_link is not self.mqtt:
            self.event_link.start()
        # the hardware is up and the journal open: ready, even while the broker is away
        self._told_status = self._status_line()
        if self._freeze_startup:
            freeze_startup()
        self.notifier.notify(READY="1", STATUS=self._told_status)

    def _status_line(self) -> str:
        """One line for ``systemctl status``."""
        broker = "connected" if self.mqtt.connected.is_set() else "away"
        consoles = sum(link.health.online for link in self.consoles)
        return (f"table {self.config.table}: broker {broker}, {self.outbox.depth} events wait, "
                f"consoles {consoles}/{len(self.consoles)} online")

    def _tell_systemd(self) -> None:
        """On the loop thread, periodically: feed the watchdog, and say what changed."""
        fields = {"WATCHDOG": "1"} if self.notifier.watchdog_every else {}
        line = self._status_line()
        if line != self._told_status:
            fields["STATUS"] = self._told_status = line
        if fields:
            self.notifier.notify(**fields)

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
        self.clock_watch.stop()
        self.delivery.stopped = True  # no more backlog: only what is on its way is waited for
        steps = [self.devices.lights_off, self._stop_consoles]
        if self.event_link.connected.is_set():
            steps.append(lambda: self.loop.drain(lambda: not self.delivery.in_flight,
                                                 ack_timeout))
        steps += [self.delivery.commit, self.intake.answer_unrun]
        if self.event_link is not self.mqtt:
            steps.append(lambda: self.event_link.stop(None))
        steps += [lambda: self.mqtt.stop(self.messages.status(online=False)),
                  self.outbox.cancel_retry, self.factory.close, self.store.close,
                  self.private_store.close, self.notifier.close]
        for step in steps:
            try:
                step()
            except Exception:
                log.exception("shutdown step %s failed; going on", getattr(step, "__name__", step))
        log.info("table %s stopped", self.config.table)

    def _stop_consoles(self) -> None:
        for link in self.consoles:
            link.stop()
        self.ports.close()
        if self.devices.speaker is not None:
            self.devices.speaker.close()

    # the loop thread

    def hand(self, button: Button, pressed: bool) -> None:
        """A simulated hand presses (or releases) ``button`` (``controller.shell.hands``)."""
        self.hands.press(button, pressed)

    def glow(self, seat: int) -> tuple[float, float, float] | None:
        """What seat ``seat``'s light puts out now, 0..1 red, green, blue, read back from the
        first seat-light backend that can tell (GPIO pins, the strip's bytes, an emulated
        console's pins); None when none lights it."""
        return self.devices.glow(seat)

    def _connected(self) -> None:
        """After a connect: retained documents again, then (on one connection) the events
        still waiting."""
        self.intake.reconnected()
        self.mqtt.republish_retained()
        if self.event_link is self.mqtt:
            self.delivery.reconnected()
        self._publish_health()

    def _acked(self, mid: int, *, events: bool) -> None:
        """The command connection's acknowledgement: a reply's, or (``events``: the events
        share it) an event's."""
        self.intake.acked(mid)
        if events:
            self.outbox.acked(mid)

    def _wake_delivery(self, seconds: float) -> None:
        """The backlog's pace: the delivery goes on after ``seconds``, woken by the loop's own
        wait (a catch-up asks this up to 50 times a second: no thread per wait)."""
        self.loop.call_at(self.clock.monotonic() + seconds, self.delivery.tick)

    def _publish_health(self) -> None:
        self.health.publish()

